#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Does the guest harness fail a boot for what it must?  One boot of the
# debug guest runs test_harness.c's four injections: a failing test, a real
# kernel WARNING (lkdtm), a real KASAN use-after-free (lkdtm) and a real
# leak (kmemleak's sample module, found by /init's scan).  qemu/run-guest.sh
# must exit non-zero, count exactly the one failing test, and print each
# report among the lines of its kernel-log scan, any one of which fails a
# boot on its own.  TAP, one line per injection, then "N passed, N failed".
#
# Usage: tests/guest/inject.sh [TEST...]   (the four inject_* tests, which
#        scripts/run-tests.sh's boot guest-inject names; environment: as
#        qemu/run-guest.sh)
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${BPFSIGN_BUILD:-$top/build}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
passed=0 failed=0 n=0
[ $# -gt 0 ] || set -- inject_fail inject_warn inject_kasan inject_leak

BPFSIGN_QUIET=1 BPFSIGN_LOG=${BPFSIGN_LOG:-$build/guest-inject.log} \
	"$top/qemu/run-guest.sh" "$@" > "$out" 2>&1
rc=$?

check() {	# NAME CONDITION...: one TAP line
	name=$1; shift
	n=$((n + 1))
	if "$@"; then
		passed=$((passed + 1))
		echo "ok $n - $name"
	else
		failed=$((failed + 1))
		echo "not ok $n - $name"
	fi
}

# a line of run-guest.sh's kernel-log scan ("LINE:text") matching ERE $1
reported() {
	grep -qE "^[0-9]+:.*($1)" "$out"
}

check "the boot with injected faults fails (run-guest.sh exit 1)" [ "$rc" = 1 ]
# the runner's summary: the deliberate failure and nothing else
check "a failing test fails the boot" grep -qx '3 passed, 1 failed' "$out"
check "a kernel WARNING fails the boot" reported 'WARNING:.*lkdtm'
check "a KASAN report fails the boot" reported 'BUG: KASAN: .*lkdtm'
check "a kmemleak leak fails the boot" reported 'unreferenced object'
check "the failure names the kernel's reports" \
	grep -q '^run-guest: the kernel reported a problem' "$out"
[ "$failed" = 0 ] || sed 's/^/#   /' "$out"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
