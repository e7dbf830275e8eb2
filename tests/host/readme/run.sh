#!/bin/sh
# README's "Your own program", followed literally: its shell blocks (between
# the own-program markers) run in order, from the clone's top, with a
# scratch HOME, and boot the guest three times through `make run`.  The
# program must count its three getppid() calls when signed for the session
# keyring, be refused under bpf_sig_enforce=1 with that signature (EPERM:
# enforcement takes no caller keyring), and load there once signed for the
# builtin keyring.  TAP, one line per test, and as the last line
# "N passed, N failed".  Needs `make guest-tests` (the
# kernel, tools and gen-loader) first.
#
# Usage: tests/host/readme/run.sh [NAME-FILTER]
set -u

top=$(cd "$(dirname "$0")/../../.." && pwd)

. "$top/tests/host/lib.sh"
host_test_init readme "$@"

steps() {	# the README's shell blocks, in order
	awk '/<!-- own-program:begin -->/ { on = 1; next }
	     /<!-- own-program:end -->/ { on = 0 }
	     on && /^```sh$/ { sh = 1; next }
	     on && /^```$/ { sh = 0; next }
	     sh' "$top/README.md"
}

t_steps() {
	steps > steps.sh
	[ -s steps.sh ] || { echo "README has no own-program steps"; return 1; }
	mkdir -p "$tmp/home"
	(cd "$top" && HOME=$tmp/home sh -e "$OLDPWD/steps.sh") > out 2> err
	rc=$?
	expect_rc 0 "the README's steps" || { tail -n 30 out err; return 1; }
	# each run's own lines, in order: counted, refused, counted
	grep -E '^hello: ' out > said
	expect_eq "$(cat said)" "hello: 3 getppid() calls seen
hello: load failed: -$(python3 -c 'import errno; print(errno.EPERM)')
hello: 3 getppid() calls seen" "what the program said in the three boots"
}

t "README: your own program, signed, run in the guest, refused and admitted under enforcement" t_steps

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
