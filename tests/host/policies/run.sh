#!/bin/sh
# Host tests of policies/: the policy-file parser (bpfsign-policy check), the
# help of every command, the signed policy headers (deterministic, verify),
# and the initramfs hook with a stub keyctl.  Nothing is loaded into this
# machine's kernel: only check, --help and usage errors run here, and strace
# shows they make no bpf() call; load/unload/status/log run in the QEMU guest
# (tests/guest/test_policies.c).  TAP, one line per test, and as the last
# line "N passed, N failed".  Runs from any directory; needs
# `make -C tests/guest` first (the CLI and the policy objects).
#
# Usage: tests/host/policies/run.sh [NAME-FILTER]
set -u

top=$(cd "$(dirname "$0")/../../.." && pwd)
build=${BPFSIGN_BUILD:-$top/build}
keys=$top/keys-example
cli=$build/guest/bpfsign-policy
gl=$top/gen-loader/gen-loader
bpfsign=$top/signer/bpfsign
pobj=$build/guest-obj/policies
vmlinux=$build/kbuild/vmlinux
man=$top/policies/bpfsign-policy.8
hook=$top/policies/initramfs/bpf-keyring-hook
tamper=$top/tests/host/gen-loader/tamper.sh
names="deny_unsigned keyring_allowlist audit_log"

. "$top/tests/host/lib.sh"
host_test_init policies "$@"

# --- the tests --------------------------------------------------------------

# One exit-code vocabulary: the same number means the same thing in each tool.
t_exit_vocabulary() {
	local h=$pobj/deny_unsigned.lskel.h
	head -c 300 /dev/urandom > junk
	printf 'payload' > p
	"$bpfsign" sign --key "$keys/signing.key" --cert "$keys/signing.crt" --out p.p7s p ||
		return 1
	printf 'tampered' > q
	# 4: malformed input, in each tool
	run "$bpfsign" verify --cert "$keys/signing.crt" --payload p junk
	expect_rc 4 "bpfsign verify of random bytes" || return 1
	run "$bpfsign" inspect junk
	expect_rc 4 "bpfsign inspect of random bytes" || return 1
	run "$gl" verify --cert "$keys/signing.crt" junk
	expect_rc 4 "gen-loader verify of random bytes" || return 1
	printf 'mode strict\n' > bad.policy
	run "$cli" check --policy bad.policy
	expect_rc 4 "bpfsign-policy check of a malformed policy" || return 1
	# 3: rejected, in each tool that verifies
	run "$bpfsign" verify --cert "$keys/signing.crt" --payload q p.p7s
	expect_rc 3 "bpfsign verify of another payload" || return 1
	"$tamper" data last "$h" t.h || return 1
	run "$gl" verify --cert "$keys/signing.crt" t.h
	expect_rc 3 "gen-loader verify of a tampered header" || return 1
	# 5: the wrong key, in each tool that verifies
	run "$bpfsign" verify --cert "$keys/untrusted.crt" --payload p p.p7s
	expect_rc 5 "bpfsign verify against another certificate" || return 1
	run "$gl" verify --cert "$keys/untrusted.crt" "$h"
	expect_rc 5 "gen-loader verify against another certificate" || return 1
	# 1: an input that cannot be read, in each tool
	run "$bpfsign" verify --cert "$keys/signing.crt" --payload p missing.p7s
	expect_rc 1 "bpfsign verify of a missing file" || return 1
	run "$gl" verify --cert "$keys/signing.crt" missing.h
	expect_rc 1 "gen-loader verify of a missing file" || return 1
	run "$cli" check --policy missing.policy
	expect_rc 1 "bpfsign-policy check of a missing file" || return 1
	# 2 and 0: usage, and -h is help in each
	for tool in "$bpfsign" "$gl" "$cli"; do
		run "$tool" --bogus-option
		expect_rc 2 "$(basename "$tool") --bogus-option" || return 1
		run "$tool" -h
		expect_rc 0 "$(basename "$tool") -h" || return 1
	done
}


t_built() {
	# a missing build is a failure, never a skip
	[ -x "$cli" ] || { echo "no $cli (make -C tests/guest)"; return 1; }
	for name in $names; do
		[ -f "$pobj/$name.bpf.o" ] || { echo "no $pobj/$name.bpf.o"; return 1; }
		[ -f "$pobj/$name.lskel.h" ] || { echo "no $pobj/$name.lskel.h"; return 1; }
	done
	file -L "$cli" | grep -q 'statically linked' ||
		{ echo "$cli is not static: $(file -L "$cli")"; return 1; }
}

t_examples() {
	local f
	for f in "$top"/policies/examples/*.policy; do
		run "$cli" check --policy "$f"
		expect_rc 0 "check $(basename "$f")" || return 1
		grep -q '^mode \(enforce\|permissive\)$' out || { echo "$f: no mode line in"; cat out; return 1; }
	done
	run "$cli" check --policy "$top/policies/examples/system-keyrings.policy"
	printf '%s\n' "mode enforce" "unsigned deny" "children allow" \
		"keyring allow builtin" "keyring allow secondary" > want
	cmp -s out want || { echo "system-keyrings.policy:"; diff want out; return 1; }
	run "$cli" check --policy "$top/policies/examples/cgroup-unsigned.policy"
	printf '%s\n' "mode enforce" "unsigned deny" "unsigned allow type cgroup_skb" \
		"unsigned allow type cgroup_device" "children allow" \
		"keyring allow builtin" "keyring allow secondary" > want
	cmp -s out want || { echo "cgroup-unsigned.policy:"; diff want out; return 1; }
}

t_defaults_and_roundtrip() {
	printf '# nothing but a comment\n\n   \t\n' > empty.policy
	run "$cli" check --policy empty.policy
	expect_rc 0 "an empty policy" || return 1
	printf '%s\n' "mode enforce" "unsigned deny" "children allow" > want
	cmp -s out want || { echo "defaults:"; diff want out; return 1; }
	# the printed form is itself a policy that prints the same
	printf 'keyring allow 7 serial 42 # a future keyring type\nmode permissive\n' > p1
	printf 'keyring deny user serial 2147483647\r\nchildren deny\nunsigned allow weakens-policy\n' >> p1
	printf 'unsigned allow type lsm weakens-policy\nunsigned allow type socket_filter\n' >> p1
	run "$cli" check --policy p1 && cp out p2 && expect_rc 0 "p1" || return 1
	run "$cli" check --policy p2
	cmp -s out p2 || { echo "not a fixed point:"; diff p2 out; return 1; }
	grep -qx 'keyring allow 7 serial 42' p2 || { echo "numeric keyring lost:"; cat p2; return 1; }
	grep -qx 'unsigned allow type lsm weakens-policy' p2 || { echo "type rule lost:"; cat p2; return 1; }
	printf 'keyring allow bpf\nkeyring allow 5\n' > p3
	run "$cli" check --policy p3
	# 5 is the kernel's BPF_SIG_KEYRING_BPF: the same rule twice
	expect_rc 4 "bpf and 5" && expect_err "p3:2: keyring: 5 already given on line 1" || return 1
}

# case FILE-CONTENT LINE MESSAGE: check rejects it, naming the line
reject() {
	printf "$1" > bad.policy
	run "$cli" check --policy bad.policy
	expect_rc 4 "$(printf "$1" | tr '\n' '|')" || return 1
	expect_err "bad.policy:$2: $3"
}

t_malformed() {
	reject 'mode enforce\nmode enforce\n' 2 "mode already given on line 1" &&
	reject 'mode strict\n' 1 "mode: expected enforce or permissive" &&
	reject 'mode\n' 1 "mode: expected enforce or permissive" &&
	reject '# c\nunsigned maybe\n' 2 "unsigned: expected allow or deny, got 'maybe'" &&
	reject 'unsigned allow now\n' 1 "unsigned: unexpected 'now'" &&
	reject 'children\n' 1 "children: expected allow or deny" &&
	reject 'keyring allow\n' 1 "keyring: expected a keyring after allow" &&
	reject 'keyring permit builtin\n' 1 "keyring: expected allow or deny, got 'permit'" &&
	reject '\n\nkeyring allow session\n' 3 "keyring: unknown keyring 'session'" &&
	reject 'keyring allow 0\n' 1 "keyring: unknown keyring '0'" &&
	reject 'keyring allow 256\n' 1 "keyring: unknown keyring '256'" &&
	reject 'keyring allow builtin serial 1\n' 1 "keyring: serial applies to user keyrings, not builtin" &&
	reject 'keyring allow bpf serial 9\n' 1 "keyring: serial applies to user keyrings, not bpf" &&
	reject 'keyring allow user serial\n' 1 "keyring: expected 'serial N' after user" &&
	reject 'keyring allow user serial 0\n' 1 "keyring: bad serial '0'" &&
	reject 'keyring allow user serial -3\n' 1 "keyring: bad serial '-3'" &&
	reject 'keyring allow user serial 2147483648\n' 1 "keyring: bad serial '2147483648'" &&
	reject 'keyring allow user serial 12x\n' 1 "keyring: bad serial '12x'" &&
	reject 'keyring allow user id 12\n' 1 "keyring: expected 'serial N' after user" &&
	reject 'keyring allow builtin\nkeyring deny builtin\n' 2 "keyring: builtin already given on line 1" &&
	reject 'keyring allow user serial 5\nkeyring deny user serial 5\n' 2 \
		"keyring: user with this serial already given on line 1" &&
	reject 'signer xyz\n' 1 "signer: expected one hex key id" &&
	reject 'mode enforce\n\nunsigned allow type cgroup_skbb\n' 3 \
		"unsigned: unknown program type 'cgroup_skbb'" &&
	reject 'unsigned allow type CGROUP_SKB\n' 1 "unsigned: unknown program type 'CGROUP_SKB'" &&
	reject 'unsigned allow type 8\n' 1 "unsigned: unknown program type '8'" &&
	reject 'unsigned allow type unspec\n' 1 "unsigned: program type 'unspec' names no loadable program" &&
	reject 'unsigned allow type\n' 1 "unsigned: expected a program type after 'type'" &&
	reject 'unsigned allow type kprobe xdp\n' 1 "unsigned: unexpected 'xdp'" &&
	reject 'unsigned deny type kprobe\n' 1 "unsigned: 'deny type' is the default" &&
	reject 'unsigned type kprobe\n' 1 "unsigned: expected allow or deny, got 'type'" &&
	reject 'unsigned allow type xdp\nunsigned deny\nunsigned allow type xdp\n' 3 \
		"unsigned: type xdp already given on line 1" &&
	reject 'unsigned allow type xdp\nunsigned deny\nunsigned allow\n' 3 \
		"unsigned already given on line 2" &&
	reject 'allow builtin\n' 1 "unknown directive 'allow'" &&
	reject 'a b c d e f g\n' 1 "too many words" &&
	reject 'mode enforce\nkeyring allow builtin\nsigner 0123abcd\n' 3 \
		"signer: not enforceable, use 'key allow sha256:HEX'"
}

# unsigned allow type NAME: every program type of the built kernel's UAPI,
# by libbpf's name, fits the 64-bit set of the config map
t_unsigned_types() {
	local uapi=$build/linux/include/uapi/linux/bpf.h names nr
	names=$(sed -n '/^enum bpf_prog_type {/,/^};/p' "$uapi" |
		sed -n 's/^[[:space:]]*BPF_PROG_TYPE_\([A-Z0-9_]*\),.*/\1/p' |
		grep -vx UNSPEC | tr 'A-Z' 'a-z')
	nr=$(echo "$names" | wc -l)
	[ "$nr" -ge 32 ] && [ "$nr" -lt 64 ] || { echo "$uapi: $nr program types"; return 1; }
	echo "mode enforce" > all.policy
	for name in $names; do
		case $name in
		ext | lsm | syscall) echo "unsigned allow type $name weakens-policy" ;;
		*) echo "unsigned allow type $name" ;;
		esac
	done >> all.policy
	run "$cli" check --policy all.policy
	expect_rc 0 "all $nr program types of $uapi" || return 1
	[ "$(grep -c '^unsigned allow type ' out)" = "$nr" ] || { echo "not $nr types:"; cat out; return 1; }
	# printed in enum order, which is the UAPI header's
	grep '^unsigned allow type ' out | cut -d' ' -f4 > got
	echo "$names" > want
	cmp -s got want || { echo "order:"; diff want got; return 1; }
	# with unsigned allow (redundant, accepted) and in either order
	printf 'unsigned allow type cgroup_skb\nunsigned allow weakens-policy\n' > both.policy
	run "$cli" check --policy both.policy
	expect_rc 0 "unsigned allow type, then unsigned allow" || return 1
	printf '%s\n' "mode enforce" "unsigned allow weakens-policy" "unsigned allow type cgroup_skb" \
		"children allow" > want
	cmp -s out want || { echo "both:"; diff want out; return 1; }
	printf 'unsigned deny\nunsigned allow type syscall weakens-policy\nunsigned allow type kprobe\n' > deny.policy
	run "$cli" check --policy deny.policy
	expect_rc 0 "unsigned deny with two types" || return 1
	printf '%s\n' "mode enforce" "unsigned deny" "unsigned allow type kprobe" \
		"unsigned allow type syscall weakens-policy" "children allow" > want
	cmp -s out want || { echo "deny and types:"; diff want out; return 1; }
	# a type line is no "unsigned" directive: it leaves the default alone
	printf 'mode permissive\nunsigned allow type tracing   # comment\n' > perm.policy
	run "$cli" check --policy perm.policy
	expect_rc 0 "permissive with a type" || return 1
	printf '%s\n' "mode permissive" "unsigned deny" "unsigned allow type tracing" \
		"children allow" > want
	cmp -s out want || { echo "permissive:"; diff want out; return 1; }
}

# weak TYPE CONFIRM WHY: check's warning for an unsigned type that weakens
# the policy, on stderr with the line; CONFIRM=1: refused without
# weakens-policy, exit 4, nothing printed on stdout
weak() {
	printf 'mode enforce\nkeyring allow builtin\nunsigned allow type %s\n' "$1" > w.policy
	run "$cli" check --policy w.policy
	if [ "$2" = 1 ]; then
		expect_rc 4 "$1 without weakens-policy" || return 1
		expect_err "w.policy:3: unsigned: type $1 weakens the policy: $3" || return 1
		expect_err "end the line with 'weakens-policy' to allow it all the same" || return 1
		[ ! -s out ] || { echo "$1: printed a policy:"; cat out; return 1; }
		printf 'mode enforce\nkeyring allow builtin\n\nunsigned allow type %s   weakens-policy # yes\n' \
			"$1" > w.policy
		run "$cli" check --policy w.policy
		grep -qx "unsigned allow type $1 weakens-policy" out ||
			{ echo "$1: printed form:"; cat out; return 1; }
		set -- "$1" 4 "$3"
	else
		set -- "$1" 3 "$3"
	fi
	expect_rc 0 "$1 allowed" || return 1
	expect_err "bpfsign-policy check: w.policy:$2: warning: unsigned allow type $1 weakens the policy: $3" ||
		return 1
	# only that one: the policy's maps are its programs' alone (the guard),
	# so an allowed type no longer warns of writing them
	[ "$(grep -c warning err)" = 1 ] || { echo "$1: not one warning:"; cat err; return 1; }
}

t_weakening_types() {
	weak ext 1 "an unsigned freplace program replaces a global function of a loaded program, a signed one's too" &&
	weak lsm 1 "an unsigned BPF LSM program is a security policy of its own" &&
	weak syscall 1 "an unsigned syscall program runs bpf(2) commands from inside the kernel" &&
	weak tracing 0 "fentry/fexit/iterator programs read kernel memory; fmod_ret programs are refused" &&
	weak kprobe 0 "kprobes read kernel memory, write user memory" &&
	weak tracepoint 0 "tracepoint programs read kernel memory" &&
	weak raw_tracepoint 0 "raw tracepoint programs read kernel memory" &&
	weak raw_tracepoint_writable 0 "writable raw tracepoint programs also write" &&
	weak perf_event 0 "perf event programs read kernel memory" &&
	weak struct_ops 0 "struct_ops programs replace kernel operations" || return 1
	# what tracing is still refused, by name: the policies' own hooks (BPFSIGN_POLICY_HOOKS)
	weak tracing 0 "fentry/fexit/iterator programs read kernel memory; fmod_ret programs are refused all the same (on security_*() they decide for every LSM, this policy included), and so is any unsigned program that would attach to a function the kit's policies attach to: bpf_lsm_bpf_prog_load bpf_lsm_bpf_prog security_bpf_prog_load bpf_check (their trampolines must keep room for the policies: stage hook)" || return 1
	# the types a service manager needs: no type warning
	printf 'unsigned allow type cgroup_skb\nunsigned allow type cgroup_device\nunsigned allow type socket_filter\n' > quiet.policy
	run "$cli" check --policy quiet.policy
	expect_rc 0 "cgroup and socket types" || return 1
	# and none of writing the policy's counters: the guard (policy.bpf.h)
	# gives no admitted program the policy's maps
	[ "$(grep -c warning err)" = 0 ] || { echo "warned:"; cat err; return 1; }
	# the keyword belongs to a weakening type only: elsewhere it is a mistake
	reject 'unsigned allow type cgroup_skb weakens-policy\n' 1 \
		"unsigned: type cgroup_skb is not one that weakens the policy beyond what it attaches to: remove 'weakens-policy'" &&
	reject 'unsigned allow type ext weakens\n' 1 "unsigned: unexpected 'weakens'" &&
	reject 'unsigned allow type ext weakens-policy now\n' 1 "unsigned: unexpected 'now'" &&
	reject 'unsigned deny weakens-policy\n' 1 "unsigned: unexpected 'weakens-policy'" &&
	reject 'unsigned allow weakens-policy now\n' 1 "unsigned: unexpected 'weakens-policy'" &&
	# one refused line is the file's only error: the first is reported
	reject 'unsigned allow type kprobe\nunsigned allow type syscall\nunsigned allow type ext\n' 2 \
		"unsigned: type syscall weakens the policy" || return 1
	# load parses the same way: refused before any bpf() call, and warns
	printf 'unsigned allow type lsm\n' > lsm.policy
	strace -f -qq -e trace=bpf -o trace "$cli" load keyring-allowlist --policy lsm.policy \
		--pin-dir /nonexistent > out 2> err
	rc=$?
	expect_rc 1 "load of unconfirmed lsm" && expect_err "lsm.policy:1: unsigned: type lsm weakens the policy" ||
		return 1
	! grep -q 'bpf(' trace || { echo "load called bpf():"; cat trace; return 1; }
	printf 'unsigned allow type tracing\nunsigned allow type ext weakens-policy\nsigner 0123abcd\n' > warn.policy
	run "$cli" load keyring-allowlist --policy warn.policy --pin-dir /nonexistent
	# stopped by the signer line, after the warnings: still no bpf() call
	expect_rc 1 "load with a signer line" || return 1
	expect_err "bpfsign-policy load: warn.policy:1: warning: unsigned allow type tracing weakens the policy" &&
	expect_err "bpfsign-policy load: warn.policy:2: warning: unsigned allow type ext weakens the policy"
}

# The blanket allow admits ext, lsm and syscall: refused without
# weakens-policy like each of them singly (review of issue 42: it passed
# check silently), and warned about type by type with it.
t_blanket_unsigned_allow() {
	local t
	for body in 'unsigned allow' 'mode enforce\nunsigned allow\nkeyring allow builtin' \
		'unsigned allow   # comment\n' 'unsigned allow # weakens-policy\n'; do
		printf "$body\n" > b.policy
		line=$(grep -n '^unsigned allow' b.policy | cut -d: -f1)
		run "$cli" check --policy b.policy
		expect_rc 4 "$body" || return 1
		expect_err "b.policy:$line: unsigned: 'unsigned allow' admits unsigned programs of every type, ext, lsm and syscall included" ||
			return 1
		expect_err "end the line with 'weakens-policy'" || return 1
		[ ! -s out ] || { echo "$body: printed a policy:"; cat out; return 1; }
	done
	# load parses the same way: refused before any bpf() call
	printf 'unsigned allow\n' > b.policy
	strace -f -qq -e trace=bpf -o trace "$cli" load keyring-allowlist --policy b.policy \
		--pin-dir /nonexistent > out 2> err
	rc=$?
	expect_rc 1 "load of a blanket allow" &&
		expect_err "b.policy:1: unsigned: 'unsigned allow' admits unsigned programs of every type" ||
		return 1
	! grep -q 'bpf(' trace || { echo "load called bpf():"; cat trace; return 1; }
	# confirmed: accepted, one warning a weakening type, each naming line 2
	printf 'mode enforce\nunsigned allow weakens-policy\n' > b.policy
	run "$cli" check --policy b.policy
	expect_rc 0 "unsigned allow weakens-policy" || return 1
	for t in ext lsm syscall tracing kprobe tracepoint raw_tracepoint \
		raw_tracepoint_writable perf_event struct_ops; do
		expect_err "bpfsign-policy check: b.policy:2: warning: unsigned allow admits type $t, which weakens the policy: " ||
			return 1
	done
	[ "$(grep -c warning err)" = 10 ] || { echo "not 10 warnings:"; cat err; return 1; }
	grep -qx 'unsigned allow weakens-policy' out || { echo "printed form:"; cat out; return 1; }
	# unsigned deny stays quiet
	printf 'unsigned deny\n' > b.policy
	run "$cli" check --policy b.policy
	expect_rc 0 "unsigned deny" && [ ! -s err ] || { echo "unsigned deny warned:"; cat err; return 1; }
}

t_limits() {
	# a line longer than 512 bytes, the third
	{ echo "mode enforce"; echo; head -c 600 /dev/zero | tr '\0' 'a'; echo; } > long.policy
	run "$cli" check --policy long.policy
	expect_rc 4 "long line" && expect_err "long.policy:3: line longer than 512 bytes" || return 1
	printf 'mode enforce\nunsigned \000deny\n' > nul.policy
	run "$cli" check --policy nul.policy
	expect_rc 4 "NUL byte" && expect_err "nul.policy:2: NUL byte in the line" || return 1
	i=0
	: > many.policy
	while [ $i -lt 65 ]; do echo "keyring allow user serial $((i + 1))" >> many.policy; i=$((i + 1)); done
	run "$cli" check --policy many.policy
	expect_rc 4 "65 keyring lines" && expect_err "many.policy:65: keyring: more than 64 keyring lines" || return 1
	head -c 70000 /dev/zero | tr '\0' '\n' > big.policy
	run "$cli" check --policy big.policy
	expect_rc 1 "a 70000-byte file" && expect_err "big.policy: larger than 65536 bytes" || return 1
	run "$cli" check --policy does-not-exist.policy
	expect_rc 1 "missing file" && expect_err "bpfsign-policy check: does-not-exist.policy: No such file or directory"
}

t_help() {
	run "$cli" --help
	expect_rc 0 "--help" || return 1
	for cmd in load unload status log check; do
		grep -q "^Usage: bpfsign-policy $cmd" out || { echo "--help lacks $cmd"; return 1; }
	done
	for cmd in load unload status log check; do
		run "$cli" "$cmd" --help
		expect_rc 0 "$cmd --help" || return 1
		head -n 1 out | grep -q "^Usage: bpfsign-policy $cmd" ||
			{ echo "$cmd --help: first line $(head -n 1 out)"; return 1; }
		grep -q '^Exit status:' out || { echo "$cmd --help: no exit status"; return 1; }
		# every option of the usage line is described, and in the man page
		for opt in $(head -n 1 out | grep -o -- '--[a-z-]*'); do
			grep -q "^  \(-[a-z]|\)\{0,1\}$opt" out || { echo "$cmd --help: $opt not described"; return 1; }
			grep -q -- "$(echo "$opt" | sed 's/-/\\\\-/g')" "$man" ||
				{ echo "$cmd: $opt not in $man"; return 1; }
		done
	done
	run "$cli" --version
	expect_rc 0 "--version" && grep -q '^bpfsign-policy [0-9]' out
}

t_usage_errors() {
	run "$cli"
	expect_rc 2 "no command" || return 1
	run "$cli" frobnicate
	expect_rc 2 "unknown command" && expect_err "unknown command 'frobnicate'" || return 1
	run "$cli" check
	expect_rc 2 "check without --policy" && expect_err "--policy is required" || return 1
	run "$cli" check --policy a --policy b
	expect_rc 2 "--policy twice" && expect_err "--policy given twice" || return 1
	run "$cli" check --policy a extra
	expect_rc 2 "check with an argument" && expect_err "unexpected argument 'extra'" || return 1
	run "$cli" status --bogus
	expect_rc 2 "bad option" && expect_err "bad option '--bogus'" || return 1
	run "$cli" unload
	expect_rc 2 "unload without NAME" && expect_err "NAME is required" || return 1
	run "$cli" log --count
	expect_rc 2 "--count without value" && expect_err "option '--count' needs an argument"
}

# the commands that run on the host: none may call bpf()
t_no_bpf_syscall() {
	command -v strace > /dev/null || { echo "strace is not installed"; return 1; }
	printf 'keyring allow builtin\n' > ok.policy
	printf 'keyring allow nothing\n' > bad.policy
	for args in "--help" "load --help" "unload --help" "status --help" "log --help" \
		"check --help" "check --policy ok.policy" "check --policy bad.policy" \
		"check" "frobnicate" "unload"; do
		# shellcheck disable=SC2086
		strace -f -qq -e trace=bpf -o trace "$cli" $args > /dev/null 2>&1
		if grep -q 'bpf(' trace; then
			echo "bpfsign-policy $args called bpf():"
			cat trace
			return 1
		fi
	done
}

t_headers_deterministic() {
	for name in $names; do
		"$gl" "$pobj/$name.bpf.o" -o a.h --name "$name" --key "$keys/signing.key" \
			--cert "$keys/signing.crt" --btf "$vmlinux" || return 1
		"$gl" "$pobj/$name.bpf.o" -o b.h --name "$name" --key "$keys/signing.key" \
			--cert "$keys/signing.crt" --btf "$vmlinux" || return 1
		cmp a.h b.h || { echo "$name: two runs differ"; return 1; }
		cmp a.h "$pobj/$name.lskel.h" || { echo "$name: differs from the built header"; return 1; }
	done
}

t_headers_verify() {
	for name in $names; do
		run "$gl" verify --cert "$keys/signing.crt" "$pobj/$name.lskel.h"
		expect_rc 0 "gen-loader verify $name.lskel.h" || return 1
		run "$gl" verify --cert "$keys/untrusted.crt" "$pobj/$name.lskel.h"
		# ENOKEY (5): another key's certificate, as bpfsign verify says
		expect_rc 5 "$name.lskel.h against untrusted.crt" || return 1
	done
}

# the hook with a keyctl that records its calls instead of making them
stub_keyctl() {
	cat > keyctl <<-'EOF'
	#!/bin/sh
	echo "$*" >> calls
	case "$1" in
	padd)	cat > /dev/null; [ -f fail-padd ] && exit 1; echo 12345 ;;
	restrict_keyring) ;;
	*)	exit 9 ;;
	esac
	EOF
	chmod +x keyctl
}

t_initramfs_hook() {
	sh -n "$hook" || return 1
	stub_keyctl
	mkdir certs empty
	printf 'DER1' > certs/a.der
	printf 'DER2' > certs/b.der
	printf 'PEM' > certs/c.pem
	run env KEYCTL=./keyctl "$hook" certs
	expect_rc 0 "two certificates" || return 1
	printf '%s\n' 'padd asymmetric  -9' 'padd asymmetric  -9' 'restrict_keyring -9' > want
	cmp -s calls want || { echo "keyctl calls:"; diff want calls; return 1; }
	expect_err "restricted the .bpf keyring (2 certificates)" || return 1
	# nothing to enrol: still restricted, and a failure
	rm calls
	run env KEYCTL=./keyctl "$hook" empty
	expect_rc 1 "no certificate" && expect_err "no certificate enrolled from empty" || return 1
	grep -qx 'restrict_keyring -9' calls || { echo "not restricted"; cat calls; return 1; }
	# a failed enrolment: the others enrolled, restricted, exit 1
	rm calls
	touch fail-padd
	run env KEYCTL=./keyctl "$hook" certs
	expect_rc 1 "failed padd" && expect_err "certs/a.der: keyctl padd failed" || return 1
	tail -n 1 calls | grep -qx 'restrict_keyring -9' || { echo "not restricted last"; cat calls; return 1; }
	run "$hook" prereqs
	expect_rc 0 "prereqs" && [ ! -s out ]
}

# key allow sha256:HEX: the digest's syntax, its one printed form, its limits; a skid is refused
t_key_rules() {
	local skid rsa ec rsa_colons
	skid=$(openssl x509 -in "$keys/signing.crt" -noout -ext subjectKeyIdentifier | tail -n 1 | tr -d ' ')
	# the key's identity: SHA-256 of the RSAPublicKey DER, the contents of
	# the certificate's subjectPublicKey BIT STRING (bpfsign-policy(8))
	rsa=$(openssl x509 -in "$keys/signing.crt" -noout -pubkey |
		openssl rsa -pubin -RSAPublicKey_out -outform DER 2>/dev/null | sha256sum | cut -c1-64)
	ec=$(openssl x509 -in "$keys/signing-ec.crt" -noout -pubkey |
		openssl ec -pubin -outform DER -conv_form uncompressed 2>/dev/null | tail -c 65 |
		sha256sum | cut -c1-64)
	[ ${#rsa} = 64 ] && [ ${#ec} = 64 ] || { echo "no digests: '$rsa' '$ec'"; return 1; }
	rsa_colons=$(echo "$rsa" | tr a-f A-F | sed 's/../&:/g; s/:$//')
	printf 'keyring allow builtin\nkey allow sha256:%s\nkey allow sha256:%s\n' \
		"$rsa_colons" "$ec" > keys.policy
	run "$cli" check --policy keys.policy
	expect_rc 0 "two key rules" || return 1
	grep -qx "key allow sha256:$rsa" out && grep -qx "key allow sha256:$ec" out ||
		{ echo "key digests not printed in lowercase hex:"; cat out; return 1; }
	# the printed form parses to itself
	cp out keys2.policy
	run "$cli" check --policy keys2.policy
	expect_rc 0 "printed form" && cmp out keys2.policy || return 1
	# a subject key identifier is what a certificate says: no key rule
	reject "key allow $skid\n" 1 "key: '$skid' is not 'sha256:HEX': a key is named by the SHA-256 of its public key, not by a subject key identifier, which any certificate can claim" &&
	reject 'key allow\n' 1 "key: expected one key after allow" &&
	reject 'key allow 12 34\n' 1 "key: expected one key after allow" &&
	reject "key deny sha256:$rsa\n" 1 "key: 'deny' is the default once a key is allowed" &&
	reject 'key df51\n' 1 "key: expected 'key allow sha256:HEX'" &&
	reject "key allow sha256:${rsa%?}\n" 1 "key: bad digest 'sha256:${rsa%?}'" &&
	reject "key allow sha256:${rsa}00\n" 1 "key: bad digest" &&
	reject "key allow sha256:xyz${rsa#???}\n" 1 "key: bad digest" &&
	reject 'key allow sha256:df:5138\n' 1 "key: bad digest 'sha256:df:5138'" &&
	reject "key allow sha256:$rsa_colons:\n" 1 "key: bad digest" &&
	reject "key allow sha256:$(printf '%064d' 0)\n" 1 "key: sha256:$(printf '%064d' 0) is all zeroes, no key's digest" &&
	reject "key allow sha256:$rsa_colons\nkey allow sha256:$rsa\n" 2 "key: sha256:$rsa already given on line 1" ||
		return 1
	# 65 keys are too many
	: > many.policy
	for i in $(seq 1 65); do printf 'key allow sha256:%064x\n' "$i" >> many.policy; done
	run "$cli" check --policy many.policy
	expect_rc 4 "65 keys" && expect_err "many.policy:65: key: more than 64 key lines" || return 1
	# a digest names one key wherever its certificate is: key rules are
	# fine beside the secondary and a caller's keyring (review of 40)
	printf 'keyring allow builtin\nkeyring allow secondary\nkey allow sha256:%s\n' "$rsa" > sec.policy
	run "$cli" check --policy sec.policy
	expect_rc 0 "key allow with the secondary keyring" || return 1
	printf 'key allow sha256:%s\nkeyring allow user\n' "$rsa" > user.policy
	run "$cli" check --policy user.policy
	expect_rc 0 "key allow with a caller's keyring" || return 1
	grep -qx "key allow sha256:$rsa" out && grep -qx "keyring allow user" out ||
		{ cat out; return 1; }
}

# audit: usage and a malformed policy fail before any bpf() call
t_audit_usage() {
	run "$cli" audit --help
	expect_rc 0 "audit --help" && grep -q '^Usage: bpfsign-policy audit' out || return 1
	grep -q 'admitted' out || { echo "audit --help does not say what it flags"; return 1; }
	printf 'key allow nothex\n' > bad.policy
	strace -f -qq -e trace=bpf -o trace "$cli" audit --policy bad.policy > out 2> err
	[ $? = 4 ] || { echo "audit of a malformed policy: exit $?"; return 1; }
	grep -q "bad.policy:1: key: 'nothex' is not 'sha256:HEX'" err || { cat err; return 1; }
	! grep -q 'bpf(' trace || { echo "audit called bpf() before checking its policy"; return 1; }
	run "$cli" audit extra
	expect_rc 2 "audit with an argument"
}

# load of a loaded policy is the update: --help and the man page say it
# replaces in place (make-before-break), and unload says it is no update
t_load_replaces() {
	run "$cli" load --help
	expect_rc 0 "load --help" || return 1
	grep -q "If NAME is loaded already, replace it" out &&
		grep -q "DIR/NAME_new first" out &&
		grep -q "the old one stays, and the exit is non-zero" out ||
		{ echo "load --help does not describe the replace"; return 1; }
	run "$cli" unload --help
	expect_rc 0 "unload --help" || return 1
	grep -q "Not for updates: 'load' replaces a loaded policy in place" out ||
		{ echo "unload --help does not send updates to load"; return 1; }
	grep -q "NAME_new" "$man" && grep -q "RENAME_EXCHANGE" "$man" &&
		grep -q "not replaced" "$man" || { echo "$man: no replace semantics"; return 1; }
}

t "built: static CLI and the three signed headers" t_built
t "check: key allow sha256:HEX, syntax and limits; a skid is refused" t_key_rules
t "audit: --help, malformed policy before any bpf()" t_audit_usage
t "check: the examples" t_examples
t "check: defaults, printed form is a fixed point" t_defaults_and_roundtrip
t "check: malformed lines, with their line numbers" t_malformed
t "check: unsigned allow type, every UAPI program type" t_unsigned_types
t "check: weakening unsigned types warn, ext/lsm/syscall need weakens-policy" t_weakening_types
t "check: blanket unsigned allow needs weakens-policy and warns for each weakening type" t_blanket_unsigned_allow
t "check: long line, NUL, too many rules, big and missing files" t_limits
t "--help of every command, options in the man page" t_help
t "load --help, unload --help, man page: load replaces in place" t_load_replaces
t "usage errors exit 2" t_usage_errors
t "exit codes: one vocabulary in bpfsign, gen-loader, bpfsign-policy" t_exit_vocabulary
t "no bpf() syscall for check, --help, usage errors (strace)" t_no_bpf_syscall
t "policy headers are deterministic" t_headers_deterministic
t "policy headers verify against signing.crt only" t_headers_verify
t "initramfs hook: enrol, restrict, failures (stub keyctl)" t_initramfs_hook

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
