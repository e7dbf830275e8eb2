#!/bin/sh
# Review of issue 42 (not run by run.sh or make test): ways to weaken a
# policy file past `bpfsign-policy check` without a warning.  Each case
# asserts the property (a warning on stderr, or exit 4 without
# weakens-policy); a "not ok" is a bypass.  Needs `make guest-tests` first.
set -u
top=$(cd "$(dirname "$0")/../../.." && pwd)
cli=${BPFSIGN_BUILD:-$top/build}/guest/bpfsign-policy
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
n=0 failed=0

# case TEXT WHAT: check must warn about TEXT, or refuse it (exit 4)
case_weakens() {
	n=$((n + 1))
	printf '%b\n' "$1" > "$tmp/p"
	"$cli" check --policy "$tmp/p" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	if [ $rc = 4 ] || grep -q "warning:" "$tmp/err"; then
		echo "ok $n - $2 (exit $rc)"
	else
		failed=$((failed + 1))
		echo "not ok $n - $2: exit $rc, no warning; check prints:"
		sed 's/^/#   /' "$tmp/out"
	fi
}

# blanket "unsigned allow" admits unsigned ext, lsm and syscall programs
case_weakens "unsigned allow" "unsigned allow (every type, ext lsm syscall included)"
case_weakens "mode enforce\nunsigned allow\nkeyring allow builtin" "unsigned allow in a full file"
# the ones that held: each is refused or warned
case_weakens "unsigned allow type ext # weakens-policy" "weakens-policy in a comment"
case_weakens "unsigned allow type tracing" "tracing"
case_weakens "unsigned allow type ext weakens-policy" "ext with weakens-policy"
echo "$((n - failed)) passed, $failed failed"
[ $failed = 0 ]
