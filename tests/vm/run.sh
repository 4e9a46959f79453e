#!/bin/sh
# Run a command on another kernel: boot KERNEL under qemu with this machine's
# root shared read-only (9p), TREE shared read-write at the same path, the
# guest's own memory over /tmp, /run, /root, /home, and run CMD in TREE as
# root.  What CMD prints goes to stdout; the
# exit status is CMD's (125 when the guest never ran it).
#
#   tests/vm/run.sh [-m MODDIR] [-M MEM_MB] [-t SECONDS] KERNEL TREE CMD
#
# MODDIR holds the modules the kernel needs for virtio and 9p, loaded in the
# order of MODDIR/order (tests/vm/debian-kernel.sh makes one); a kernel with
# them built in needs none.  Used by `make vm` (docs/kernels.md).
set -eu

moddir= mem=3072 timeout=3600
while getopts m:M:t: o; do
	case $o in
	m) moddir=$OPTARG ;;
	M) mem=$OPTARG ;;
	t) timeout=$OPTARG ;;
	*) exit 125 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 3 ] || { echo "usage: $0 [-m MODDIR] [-M MB] [-t S] KERNEL TREE CMD" >&2; exit 125; }
kernel=$1 tree=$(cd "$2" && pwd) cmd=$3

busybox=$(command -v busybox) || { echo "vm: busybox (busybox-static) is needed" >&2; exit 125; }
command -v qemu-system-x86_64 >/dev/null || { echo "vm: qemu-system-x86 is needed" >&2; exit 125; }
file -L "$busybox" 2>/dev/null | grep -q 'statically linked' ||
	{ echo "vm: $busybox is not static (install busybox-static)" >&2; exit 125; }

work=$(mktemp -d "${TMPDIR:-/tmp}/ward-vm.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
mkdir -p "$work/ir/bin" "$work/ir/lib/modules" "$work/ir/proc" "$work/ir/sys" \
	"$work/ir/dev" "$work/ir/root" "$work/out"
cp "$busybox" "$work/ir/bin/busybox"
if [ -n "$moddir" ]; then
	while read -r m; do cp "$moddir/$m.ko" "$work/ir/lib/modules/"; done <"$moddir/order"
	cp "$moddir/order" "$work/ir/lib/modules/order"
fi
printf '%s\n' "$cmd" >"$work/out/cmd"
echo "$tree" >"$work/out/tree"

# The guest's init: modules, the host's root at /root (read-only) with the
# guest's own memory over the places a test writes and TREE over its own
# path, CMD run chrooted, its status written back through the second share.
cat >"$work/ir/init" <<'EOF'
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
if [ -f /lib/modules/order ]; then
	while read -r m; do insmod /lib/modules/$m.ko || echo "vm: insmod $m failed"; done </lib/modules/order
fi
o=trans=virtio,version=9p2000.L,msize=262144
mount -t 9p -o $o,ro,cache=loose host /root || { echo "vm: no 9p root"; poweroff -f; }
mount -t 9p -o $o out /root/mnt
for d in tmp run var/tmp root home dev/shm; do mount -t tmpfs -o mode=1777 tmpfs /root/$d; done
chmod 700 /root/root
mount -t proc proc /root/proc
mount -t sysfs sys /root/sys
mount -t devtmpfs dev /root/dev
mkdir -p /root/dev/pts /root/dev/shm
mount -t devpts -o newinstance,ptmxmode=0666 devpts /root/dev/pts
ln -sf pts/ptmx /root/dev/ptmx 2>/dev/null || true
# What udev makes on a booted system.
ln -sf /proc/self/fd /root/dev/fd
ln -sf /proc/self/fd/0 /root/dev/stdin
ln -sf /proc/self/fd/1 /root/dev/stdout
ln -sf /proc/self/fd/2 /root/dev/stderr
mount -t tmpfs -o mode=1777 tmpfs /root/dev/shm
tree=$(cat /root/mnt/tree)
mkdir -p "/root$tree"
mount -t 9p -o $o,cache=mmap tree "/root$tree"
hostname vm
ip link set lo up 2>/dev/null || true
echo "vm: kernel $(uname -r), running"
chroot /root /bin/sh -c 'export HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin; cd "$(cat /mnt/tree)" && sh -c "$(cat /mnt/cmd)"' >/root/mnt/log 2>&1
echo $? >/root/mnt/rc
sync
poweroff -f
EOF
chmod 755 "$work/ir/init"
(cd "$work/ir" && find . | busybox cpio -o -H newc 2>/dev/null | gzip -1) >"$work/initrd"

# qemu emulates: KVM inside this project's own (nested) machines hangs at
# boot.  WARD_VM_ACCEL=kvm asks for it where it works.
accel=${WARD_VM_ACCEL:-tcg} cpu=max
[ "$accel" = kvm ] && cpu=host
rc=0
timeout "$timeout" qemu-system-x86_64 -machine q35,accel=$accel -cpu $cpu -smp 2 -m "$mem" \
	-nographic -no-reboot -kernel "$kernel" -initrd "$work/initrd" \
	-append "console=ttyS0 panic=-1 quiet loglevel=3" \
	-fsdev local,id=h,path=/,readonly=on,security_model=none,multidevs=remap \
	-device virtio-9p-pci,fsdev=h,mount_tag=host \
	-fsdev local,id=o,path="$work/out",security_model=none \
	-device virtio-9p-pci,fsdev=o,mount_tag=out \
	-fsdev local,id=t,path="$tree",security_model=none,multidevs=remap \
	-device virtio-9p-pci,fsdev=t,mount_tag=tree \
	-object rng-random,id=rng,filename=/dev/urandom -device virtio-rng-pci,rng=rng \
	>"$work/console" 2>&1 </dev/null || rc=$?
[ -n "${WARD_VM_DEBUG:-}" ] && cat "$work/console" >&2
[ -f "$work/out/log" ] && cat "$work/out/log"
if [ ! -f "$work/out/rc" ]; then
	echo "vm: the guest did not finish (qemu $rc); its console:" >&2
	tail -40 "$work/console" >&2
	exit 125
fi
exit "$(cat "$work/out/rc")"
