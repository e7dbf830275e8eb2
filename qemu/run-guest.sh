#!/bin/sh
# Build the initramfs (busybox, guest tests, certs) and boot the patched
# kernel in QEMU; stream the console to the terminal and build/guest.log.
# Exits non-zero when a test fails, when the kernel reports a WARNING, BUG,
# Oops, KASAN, UBSAN, lockdep or kmemleak splat, or when the end marker does
# not arrive.  The debug kernel (BPFSIGN_KERNEL=debug, the default) reports
# every KASAN bug, and /init scans kmemleak at the end of each boot.
#
# Usage: qemu/run-guest.sh [TEST...]      environment: BPFSIGN_INJECT=fail|warn|kasan|leak,
#        BPFSIGN_KERNEL=debug|release,
#        BPFSIGN_ACCEL=kvm|tcg, BPFSIGN_SMP=cpus, BPFSIGN_LOG=file, BPFSIGN_TIMEOUT=seconds, BPFSIGN_CMDLINE=extra,
#        BPFSIGN_QUIET=1 (terminal shows test lines only)
set -eu
. "$(dirname "$0")/../scripts/env.sh"

kernel=$kimage
guestbin=$build/guest
initrd=$build/initramfs-$flavour.cpio.gz
# BPFSIGN_LOG: boots that run side by side each keep their own console log
log=${BPFSIGN_LOG:-$build/guest.log}
timeout=${BPFSIGN_TIMEOUT:-600}

die() { echo "run-guest: $*" >&2; exit 1; }
[ -f "$kernel" ] || die "no $kernel (make kernel)"
[ -x "$guestbin/bpfsign-tests" ] || die "no guest tests (make guest-tests)"

# copy_bin FILE DESTDIR: a host binary and the shared libraries it needs
copy_bin() {
	cp "$1" "$root$2/"
	ldd "$1" 2>/dev/null | grep -o '/[^ ]*' | while read -r lib; do
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
}

mkinitramfs() {
	# private names, renamed into place: boots started side by side may
	# both find the image stale
	root=$build/initramfs.$$
	rm -rf "$root"
	mkdir -p "$root/bin" "$root/sbin" "$root/usr/bin" "$root/proc" "$root/sys" \
		"$root/dev" "$root/tmp" "$root/tests" "$root/etc"
	cp /bin/busybox "$root/bin/busybox"
	cp "$top/qemu/init" "$root/init"
	copy_bin "$(command -v keyctl)" /bin
	cp -r "$guestbin/." "$root/tests/"
	cp "$tout/bpftool/bpftool" "$root/bin/"
	mkdir -p "$root/tests/keys"
	cp "$top"/keys-example/*.crt "$top"/keys-example/*.key "$root/tests/keys/"
	echo "$(kmake -s kernelrelease)" > "$root/tests/kernelrelease"
	leak=$kout/samples/kmemleak/kmemleak-test.ko
	[ ! -f "$leak" ] || cp "$leak" "$root/tests/"
	chmod +x "$root/init"
	(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) |
		gzip -n -1 > "$initrd.$$"
	mv "$initrd.$$" "$initrd"
	rm -rf "$root"
}

# QEMU with KVM is much faster, but the paravirtual /dev/kvm of some hosts
# cannot run a stock kernel: boot once with a short timeout and remember.
accel() {
	[ -n "${BPFSIGN_ACCEL:-}" ] && { echo "$BPFSIGN_ACCEL"; return; }
	probe=$build/kvm-probe
	if [ ! -f "$probe" ]; then
		res=tcg
		if [ -w /dev/kvm ] && timeout 20 qemu-system-x86_64 -enable-kvm -cpu host \
			-m 256 -nographic -no-reboot -kernel "$kernel" -initrd "$initrd" \
			-append "console=ttyS0 panic=-1 BPFSIGN_ARGS=--list" 2>/dev/null |
			grep -q BPFSIGN-GUEST-START; then
			res=kvm
		fi
		echo $res > "$probe"
	fi
	cat "$probe"
}

# BPFSIGN_QUIET=1 shows only the tests' lines; the log keeps everything.
show() {
	if [ -n "${BPFSIGN_QUIET:-}" ]; then
		grep -E '^(#|ok |not ok |[0-9]+ passed|1\.\.)' || true
	else
		cat
	fi
}

# Rebuilt only when one of its inputs is newer: five boots share one.
if [ ! -f "$initrd" ] || [ -n "$(find "$top/qemu/init" "$guestbin" "$tout/bpftool/bpftool" \
	"$top/keys-example" "$kimage" -newer "$initrd" -print -quit)" ]; then
	mkinitramfs
fi
case $(accel) in
kvm) acc="-enable-kvm -cpu host" ;;
*) acc="-accel tcg -cpu max" ;;
esac
echo "  BOOT    $(basename "$kernel") ($acc)"

args="$*"
# one report must not hide the next
extra=
[ "$flavour" = release ] || extra="kasan_multi_shot panic_on_warn=0"
set +e
# shellcheck disable=SC2086
timeout "$timeout" qemu-system-x86_64 $acc -smp ${BPFSIGN_SMP:-2} -m ${BPFSIGN_MEM:-1024} -nographic -no-reboot \
	-kernel "$kernel" -initrd "$initrd" \
	-append "console=ttyS0 panic=-1 lsm=bpf $extra BPFSIGN_ARGS=\"$args\" BPFSIGN_INJECT=${BPFSIGN_INJECT:-} ${BPFSIGN_CMDLINE:-}" \
	</dev/null 2>&1 | tr -d '\r' | tee "$log" | show
set -e

bad=0
if grep -nE '(WARNING:|BUG:|Oops|KASAN|UBSAN:|unreferenced object|new suspected memory leaks|possible circular locking|possible recursive locking|inconsistent lock state|suspicious RCU usage|Kernel panic|general protection fault)' "$log" \
	| grep -v 'BPFSIGN-'; then
	echo "run-guest: the kernel reported a problem (see above, $log)" >&2
	bad=1
fi
grep -q '^BPFSIGN-GUEST-END' "$log" ||
	{ echo "run-guest: no end marker within ${timeout}s ($log)" >&2; bad=1; }
summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -n1)
[ -n "$summary" ] || { echo "run-guest: no test summary ($log)" >&2; bad=1; }
case $summary in *" 0 failed") ;; *) bad=1 ;; esac
exit $bad
