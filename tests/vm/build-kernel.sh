#!/bin/sh
# Build a kernel for tests/vm/run.sh from a source tree: x86_64 defconfig,
# with what the guest and ward's tests need built in (virtio, 9p, the
# socket monitoring @session asks, seccomp, kcmp), no modules.  Copies
# arch/x86/boot/bzImage to OUT.
#
#   tests/vm/build-kernel.sh SRC OUT
#
# Made for RHEL 8's 4.18 (CentOS/Rocky/Alma 8 kernel sources) built with
# Debian 12's gcc 12 and binutils 2.40, newer than that kernel knows; for
# those it turns off what they refuse there: -Werror (RHEL's own, and
# objtool's), an objtool error on an object without symbols, gcc 10's
# -fno-common in the boot wrapper, and the stack protector in the
# secondary CPUs' start (gcc 10 and later: a panic at boot).  Each of these
# is a build fix only; none changes what the kernel does for a process.
# SRC is changed in place (its .config and those few build files).
set -eu
[ $# -eq 2 ] || { echo "usage: $0 SRC OUT" >&2; exit 2; }
src=$(cd "$1" && pwd) out=$2
cd "$src"

make -s defconfig
sc=scripts/config
$sc -d MODULES -d DEBUG_INFO -d MODULE_SIG -d SYSTEM_TRUSTED_KEYRING \
	-d SECURITY_SELINUX -d SECURITY_SMACK -d SECURITY_TOMOYO -d SECURITY_APPARMOR \
	-d CALGARY_IOMMU -d NFS_FS -d NFSD -d DRM -d SOUND -d WLAN -d WIRELESS -d USB_SUPPORT \
	-e VIRTIO -e VIRTIO_PCI -e VIRTIO_PCI_LEGACY -e NET_9P -e NET_9P_VIRTIO -e 9P_FS \
	-e 9P_FS_POSIX_ACL -e HW_RANDOM -e HW_RANDOM_VIRTIO -e PARAVIRT -e KVM_GUEST \
	-e DEVTMPFS -e TMPFS -e TMPFS_POSIX_ACL -e TMPFS_XATTR -e SERIAL_8250 -e SERIAL_8250_CONSOLE \
	-e SECCOMP -e SECCOMP_FILTER -e CHECKPOINT_RESTORE -e KCMP -e USER_NS -e NET_NS -e PID_NS \
	-e UNIX -e INET -e IPV6 -e VETH -e INOTIFY_USER -e FANOTIFY -e MEMFD_CREATE -e SHMEM \
	-e EPOLL -e SIGNALFD -e TIMERFD -e EVENTFD -e AIO -e FHANDLE -e SYSVIPC -e POSIX_MQUEUE \
	-e INET_DIAG -e INET_TCP_DIAG -e INET_UDP_DIAG -e INET_RAW_DIAG -e UNIX_DIAG -e NETLINK_DIAG
make -s olddefconfig

# The build fixes, each only where the tree still has what it fixes.
sed -i 's/-Werror\b//g' tools/objtool/Makefile tools/lib/subcmd/Makefile
if grep -q 'WARN("missing symbol table");' tools/objtool/elf.c; then
	sed -i 's/WARN("missing symbol table");/\/* no symbols at all (new binutils) *\//; /no symbols at all/{n;s/return -1;/return 0;/}' \
		tools/objtool/elf.c
fi
grep -q -- '-fcommon' arch/x86/boot/compressed/Makefile ||
	sed -i '0,/^KBUILD_CFLAGS := /s//KBUILD_CFLAGS := -fcommon /' arch/x86/boot/compressed/Makefile
grep -q 'CFLAGS_smpboot.o += -fno-stack-protector' arch/x86/kernel/Makefile ||
	echo 'CFLAGS_smpboot.o += -fno-stack-protector' >>arch/x86/kernel/Makefile

make -j"$(nproc)" DISABLE_WERROR=1 KCFLAGS=-Wno-error bzImage
cp arch/x86/boot/bzImage "$out"
echo "build-kernel: $out ($(make -s kernelversion))"
