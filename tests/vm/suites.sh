#!/bin/sh
# ward's runs of the progs, attack and network suites (and run's checks),
# on another kernel, in a guest of tests/vm/run.sh: as `make oldkernel` and
# `make degraded` run them here with the features masked, but with the
# kernel's own.  Where a plain `ward run` starts, the suites run under it;
# where it cannot and --degraded can (before 5.9), under --degraded.
#
#   tests/vm/suites.sh BUILD KERNEL [MODDIR]
#
# BUILD is a build directory inside this checkout (the guest sees the
# checkout at its own path).  Exits with ctest's status.
set -eu
[ $# -ge 2 ] || { echo "usage: $0 BUILD KERNEL [MODDIR]" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
tree=$(cd "$here/../.." && pwd)
build=$(cd "$1" && pwd)
case $build in "$tree"/*) ;; *) echo "suites: $build is not inside $tree" >&2; exit 2 ;; esac
kernel=$2 moddir=${3:-}
# An emulated guest (qemu's TCG, the default of run.sh) runs tens of times
# slower: the tests' time limits for what must end are five times theirs.
slow=${WARD_TESTS_SLOW:-5}
[ "${WARD_VM_ACCEL:-tcg}" = kvm ] && slow=${WARD_TESTS_SLOW:-1}

cmd='cd "'"$build"'"
echo "kernel $(uname -r)"
./ward doctor | sed -n "/^  /p; /^ward c/p"
mode=
if ./ward run -q --log /dev/null -- true 2>/dev/null; then
	echo "suites: under ward run"
elif ./ward run -q --degraded --log /dev/null -- true 2>/dev/null; then
	echo "suites: under ward run --degraded"
	mode=1
else
	echo "suites: ward runs neither way here"
	exit 1
fi
WARD_DEGRADED=$mode WARD_TESTS_WARD_ONLY=1 WARD_TESTS_SLOW='"$slow"' ctest --output-on-failure -j 2 \
	-R "^(progs|attacks|net)|^(run|help|reproducers)$" -E "nobody|table|no-preload"'
exec sh "$here/run.sh" ${moddir:+-m "$moddir"} -t 5400 "$kernel" "$tree" "$cmd"
