#!/bin/sh
# Build the initramfs (busybox, guest tests, certs) and boot the patched
# kernel in QEMU; stream the console to the terminal and build/guest.log.
# Exits non-zero when a test fails, when the kernel reports a WARNING, BUG,
# Oops, KASAN, UBSAN, lockdep or kmemleak splat, or when the end marker does
# not arrive.  The debug kernel (BPFSIGN_KERNEL=debug, the default) reports
# every KASAN bug, and /init scans kmemleak at the end of each boot.
#
# Usage: qemu/run-guest.sh [TEST...]      environment: BPFSIGN_INJECT=fail|warn|kasan|leak,
#        qemu/run-guest.sh --run [--cert CERT]... PROG [ARG...]
#        (your own program: PROG and CERTs only, no tests; CERT, PEM or
#        DER, goes into the session keyring PROG runs in; exits with PROG's
#        status, or 1 on a kernel report or no end marker)
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
run=
certs=
if [ "${1:-}" = --run ]; then
	shift
	while [ "${1:-}" = --cert ]; do
		[ -f "${2:-}" ] || die "--cert ${2:-}: no such file"
		certs="$certs $2"
		shift 2
	done
	[ $# -gt 0 ] || die "--run needs a program"
	[ -f "$1" ] && [ -x "$1" ] || die "--run $1: not an executable file"
	run=$1
	shift
	initrd=$build/initramfs-run.$$.cpio.gz
	log=${BPFSIGN_LOG:-$build/run-$(basename "$run").log}
fi
[ -f "$kernel" ] || die "no $kernel (make kernel)"
[ -n "$run" ] || [ -x "$guestbin/bpfsign-tests" ] || die "no guest tests (make guest-tests)"

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
	cp "$tout/bpftool/bpftool" "$root/bin/"
	chmod +x "$root/init"
	if [ -n "$run" ]; then
		run_files
	else
		test_files
	fi
	(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) |
		gzip -n -1 > "$initrd.$$"
	mv "$initrd.$$" "$initrd"
	rm -rf "$root"
}

# A user's program, its shared libraries, and its certificates as DER (the
# asymmetric key type takes DER only); /init runs it instead of the tests.
run_files() {
	mkdir -p "$root/run/certs"
	copy_bin "$run" /run
	i=0
	for c in $certs; do
		i=$((i + 1))
		openssl x509 -in "$c" -outform DER -out "$root/run/certs/$i.der" 2>/dev/null ||
			openssl x509 -inform DER -in "$c" -outform DER -out "$root/run/certs/$i.der" 2>/dev/null ||
			die "--cert $c: neither a PEM nor a DER certificate"
	done
	basename "$run" > "$root/run/prog"
}

test_files() {
	cp -r "$guestbin/." "$root/tests/"
	mkdir -p "$root/tests/keys"
	cp "$top"/keys-example/*.crt "$top"/keys-example/*.key "$root/tests/keys/"
	echo "$(kmake -s kernelrelease)" > "$root/tests/kernelrelease"
	leak=$kout/samples/kmemleak/kmemleak-test.ko
	[ ! -f "$leak" ] || cp "$leak" "$root/tests/"
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
if [ -n "$run" ] || [ ! -f "$initrd" ] || [ -n "$(find "$top/qemu/init" "$guestbin" "$tout/bpftool/bpftool" \
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
	-append "console=ttyS0 panic=-1 $extra BPFSIGN_ARGS=\"$args\" BPFSIGN_INJECT=${BPFSIGN_INJECT:-} ${BPFSIGN_CMDLINE:-}" \
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
if [ -n "$run" ]; then
	rm -f "$initrd"
	rc=$(sed -n 's/^BPFSIGN-GUEST-END rc=\([0-9]*\)$/\1/p' "$log" | tail -n1)
	[ "$bad" = 0 ] || exit 1
	echo "run-guest: $(basename "$run") exited with ${rc:-?}" >&2
	exit "${rc:-1}"
fi
summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -n1)
[ -n "$summary" ] || { echo "run-guest: no test summary ($log)" >&2; bad=1; }
case $summary in *" 0 failed") ;; *) bad=1 ;; esac
exit $bad
