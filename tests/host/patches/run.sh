#!/bin/sh
# kernel-patches/ is a series a reviewer can take: every file listed once,
# every listed file present, each patch signed off and free of checkpatch
# errors (--strict).  Needs the extracted tree for checkpatch (make kernel).
set -u
top=$(cd "$(dirname "$0")/../../.." && pwd)
pd=$top/kernel-patches
checkpatch=${BPFSIGN_BUILD:-$top/build}/linux/scripts/checkpatch.pl
n=0 pass=0 fail=0

ok() { n=$((n + 1)); pass=$((pass + 1)); echo "ok $n - $1"; }
nok() { n=$((n + 1)); fail=$((fail + 1)); echo "not ok $n - $1"; [ -z "${2:-}" ] || echo "#   $2"; }

listed=$(grep -v '^#' "$pd/series" | grep .)
files=$(cd "$pd" && ls ./*.patch 2>/dev/null | sed 's|^\./||')
if [ "$(echo "$listed" | sort)" = "$(echo "$files" | sort)" ]; then
	ok "series lists every patch exactly once"
else
	nok "series lists every patch exactly once" "series and kernel-patches/*.patch differ"
fi

for p in $listed; do
	if grep -q '^Signed-off-by: ' "$pd/$p"; then
		ok "$p: Signed-off-by"
	else
		nok "$p: Signed-off-by" "no Signed-off-by line"
	fi
	if [ ! -x "$checkpatch" ]; then
		nok "$p: checkpatch --strict" "$checkpatch missing (make kernel)"
		continue
	fi
	out=$("$checkpatch" --strict --no-tree -q "$pd/$p" 2>&1)
	if echo "$out" | grep -q '^ERROR:'; then
		nok "$p: checkpatch --strict" "$(echo "$out" | grep '^ERROR:' | head -n 3 | tr '\n' ' ')"
	else
		ok "$p: checkpatch --strict"
	fi
done
echo "1..$n"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
