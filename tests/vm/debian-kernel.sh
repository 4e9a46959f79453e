#!/bin/sh
# Fetch a kernel from Debian's archive for tests/vm/run.sh: SUITE's newest
# linux-image-*-amd64-unsigned, unpacked into DIR as DIR/vmlinuz and
# DIR/modules/ (virtio and 9p, and the socket monitoring ward's @session
# asks, sock_diag; virtio-rng, without which a kernel before 5.4 makes
# getrandom wait for entropy a guest lacks: with the order they load in).  A Debian host loads those
# when asked (modprobe); the guest has no /lib/modules of its own.
#
#   tests/vm/debian-kernel.sh DIR [SUITE]      SUITE: bullseye (5.10, the default)
set -eu
[ $# -ge 1 ] || { echo "usage: $0 DIR [SUITE]" >&2; exit 2; }
dir=$1 suite=${2:-bullseye}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
[ -f "$dir/vmlinuz" ] && [ -f "$dir/modules/order" ] && exit 0

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
# The newest image of the suite, its security updates first.
for arch in debian-security/dists/$suite-security debian/dists/$suite; do
	curl -fsS -m 120 "$mirror/${arch%%/*}/${arch#*/}/main/binary-amd64/Packages.xz" 2>/dev/null |
		xz -dc | awk -v base="${arch%%/*}" '
			/^Package: linux-image-[0-9.]+-[0-9]+-amd64-unsigned$/ { p = 1; next }
			/^Package:/ { p = 0 }
			p && /^Filename:/ { print base "/" $2 }' >>"$tmp/list" || true
	[ -s "$tmp/list" ] && break
done
[ -s "$tmp/list" ] || { echo "debian-kernel: no linux-image in $suite" >&2; exit 1; }
deb=$(sort -V "$tmp/list" | tail -1)
echo "debian-kernel: $deb" >&2
curl -fsS -m 600 -o "$tmp/k.deb" "$mirror/$deb"
dpkg-deb -x "$tmp/k.deb" "$tmp/x"
cp "$tmp"/x/boot/vmlinuz-* "$dir/vmlinuz"
mkdir -p "$dir/modules"
k=$(echo "$tmp"/x/lib/modules/*/kernel)
: >"$dir/modules/order"
for m in drivers/virtio/virtio drivers/virtio/virtio_ring drivers/virtio/virtio_pci \
	net/9p/9pnet net/9p/9pnet_virtio fs/fscache/fscache fs/netfs/netfs fs/9p/9p \
	net/ipv4/inet_diag net/ipv4/tcp_diag net/ipv4/udp_diag net/ipv4/raw_diag \
	net/unix/unix_diag net/netlink/netlink_diag \
	drivers/char/hw_random/rng-core drivers/char/hw_random/virtio-rng; do
	for f in "$k/$m.ko" "$k/$m.ko.xz"; do
		[ -f "$f" ] || continue
		case $f in *.xz) xz -dc "$f" >"$dir/modules/${m##*/}.ko" ;; *) cp "$f" "$dir/modules/" ;; esac
		echo "${m##*/}" >>"$dir/modules/order"
	done
done
echo "$deb" >"$dir/source"
