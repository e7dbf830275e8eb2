#!/bin/sh
# kernel-patches/ is a series a reviewer can take: every file listed once,
# every listed file present, each patch signed off, saying whether it is a
# backport (its upstream commit id and author) or original to the kit
# (scripts/check-series.sh --provenance), and free of checkpatch errors
# (--strict).  Needs the extracted tree for checkpatch (make kernel).
# TAP, one line per test, and as the last line "N passed, N failed".
#
# checkpatch runs inside the kernel tree, where the upstream ids of
# "commit <id> upstream." lines are unknown: it warns "Unknown commit id"
# for them, which is expected; outside a git tree it would take them for
# malformed commit references.
#
# sparse (make C=2) and a W=1 build of the C files the series touches run
# in build/kbuild-check (scripts/static-checks.sh, cached by the series id
# and the config); warnings that the files had before the series are
# listed, each with its reason, in sparse.baseline and w1.baseline here,
# and any other warning fails the test.
#
# Usage: tests/host/patches/run.sh [NAME-FILTER]
set -u

top=$(cd "$(dirname "$0")/../../.." && pwd)
build=${BPFSIGN_BUILD:-$top/build}
pd=$top/kernel-patches
here=$top/tests/host/patches
src=$build/linux
checkpatch=$src/scripts/checkpatch.pl

. "$top/tests/host/lib.sh"
host_test_init patches "$@"

listed=$(grep -v '^#' "$pd/series" | grep .)

series_complete() {
	local files
	files=$(cd "$pd" && ls ./*.patch 2>/dev/null | sed 's|^\./||')
	echo "$listed" | sort > listed
	echo "$files" | sort > files
	cmp -s listed files && return 0
	echo "series (<) and kernel-patches/*.patch (>) differ:"
	diff listed files
	return 1
}

signed_off() {
	grep -q '^Signed-off-by: ' "$pd/$cur" && return 0
	echo "no Signed-off-by line"
	return 1
}

# The verdict of check-series.sh --provenance names the test; a failing
# one says why.
provenance() {
	case $verdict in
	"ok "*) return 0 ;;
	esac
	echo "${verdict#not ok * - }"
	return 1
}

checkpatch_clean() {
	local out
	if [ ! -x "$checkpatch" ]; then
		echo "$checkpatch missing (make kernel)"
		return 1
	fi
	out=$(cd "$src" && "$checkpatch" --strict --no-tree -q "$pd/$cur" 2>&1)
	echo "$out" | grep -q '^ERROR:' || return 0
	echo "$out" | grep -A 3 '^ERROR:' | head -n 12
	return 1
}

# no_new_warnings sparse|w1: the check's warnings, less the baseline's
no_new_warnings() {
	local res
	res=$(sh "$top/scripts/static-checks.sh" 2>err) || {
		echo "scripts/static-checks.sh failed:"
		tail -n 12 err
		return 1
	}
	grep -v '^#' "$here/$1.baseline" | grep . | LC_ALL=C sort > baseline
	LC_ALL=C comm -23 "$res/$1.warnings" baseline > new
	[ -s new ] || return 0
	echo "$(wc -l < new) new warning(s), not in tests/host/patches/$1.baseline" \
		"(all of them: $res/$1.warnings):"
	head -n 20 new
	return 1
}

sparse_clean() { no_new_warnings sparse; }
w1_clean() { no_new_warnings w1; }

t "series lists every patch exactly once" series_complete
for cur in $listed; do
	verdict=$(sh "$top/scripts/check-series.sh" --provenance "$pd/$cur" | head -n 1)
	case $verdict in
	"ok "*) what=${verdict#ok 1 - "$cur": } ;;
	*) what="says whether it is a backport or original" ;;
	esac
	t "$cur: Signed-off-by" signed_off
	t "$cur: $what" provenance
	t "$cur: checkpatch --strict" checkpatch_clean
done
t "sparse (make C=2) on the C files the series touches: no new warnings" sparse_clean
t "W=1 build of the objects the series touches: no new warnings" w1_clean
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
