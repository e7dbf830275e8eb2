#!/bin/sh
# Developer tool: check that every patch of the series builds on its own.
# For each commit on top of `base` in build/linux, in order, build the
# kernel directories and the tools it touches (objects only, with ccache),
# then return to the series' head.  Prints one TAP line per patch.
# Usage: check-series.sh [FIRST [LAST]]  (patches FIRST to LAST, default all)
#        check-series.sh --provenance [PATCH...]
#
# --provenance is fast and needs no tree: for each patch of
# kernel-patches/series (or each PATCH given, which must be in the series),
# one TAP line saying whether it is a backport (its upstream commit id and
# author), based on upstream commits, or original to the kit; "not ok" with
# the reason otherwise.  check-provenance.awk has the rules; the subjects of
# the patches before each one are what its "This fixes ..., earlier in this
# series." may name.
set -u
if [ "${1:-}" = --provenance ]; then
	shift
	pd=$(cd "$(dirname "$0")/../kernel-patches" && pwd)
	awkf=$(dirname "$0")/check-provenance.awk
	listed=$(grep -v '^#' "$pd/series" | grep .)
	[ $# -gt 0 ] || set -- $(echo "$listed" | sed "s|^|$pd/|")
	subjects=$(mktemp) && prev=$(mktemp) || exit 1
	trap 'rm -f "$subjects" "$prev"' EXIT
	# "FILE SUBJECT" for each patch of the series, in order
	for q in $listed; do
		awk -v f="$q" '/^Subject: / { s = $0; insub = 1; next }
			insub && /^[ \t]/ { sub(/^[ \t]+/, " "); s = s $0; next }
			insub { sub(/^Subject: (\[PATCH[^]]*\] )?/, "", s); print f " " s; exit }' "$pd/$q"
	done > "$subjects"
	n=0 fail=0
	for p in "$@"; do
		n=$((n + 1))
		# the subjects of the series' patches before this one
		awk -v f="${p##*/}" '$1 == f { exit } { sub(/^[^ ]+ /, ""); print }' \
			"$subjects" > "$prev"
		v=$(awk -v prev="$prev" -f "$awkf" "$p")
		case $v in
		"ok "*) echo "ok $n - ${p##*/}: ${v#ok }" ;;
		*) echo "not ok $n - ${p##*/}: ${v#not ok }"; fail=$((fail + 1)) ;;
		esac
	done
	echo "1..$n"
	[ $fail = 0 ]
	exit
fi
first=${1:-1}
last=${2:-0}
. "$(dirname "$0")/env.sh"

head=$(git -C "$src" rev-parse HEAD)
# Older commits' Kconfig drops newer options from .config: keep the real one.
cp "$kout/.config" "$build/check-series.config"
n=0 fail=0
for c in $(git -C "$src" rev-list --reverse base..HEAD); do
	n=$((n + 1))
	[ "$n" -ge "$first" ] || continue
	[ "$last" = 0 ] || [ "$n" -le "$last" ] || break
	subject=$(git -C "$src" log -1 --format=%s "$c")
	git -C "$src" checkout -q "$c" || exit 1
	dirs=$(git -C "$src" diff-tree --no-commit-id --name-only -r "$c" |
		grep -E '\.(c|h)$' | grep -v '^tools/' | grep -v '^include/' |
		xargs -r -n1 dirname | sort -u | sed 's|$|/|')
	ok=1
	# A header-only change still has to compile where it is used.
	[ -n "$dirs" ] || dirs="kernel/bpf/"
	kmake $dirs >/dev/null 2>"$build/check-series.err" || ok=0
	if git -C "$src" diff-tree --no-commit-id --name-only -r "$c" | grep -q '^tools/lib/bpf/'; then
		mkdir -p "$build/check-series-libbpf"
		make -s -C "$src/tools/lib/bpf" OUTPUT="$build/check-series-libbpf/" \
			CC="ccache gcc" BUILD_STATIC_ONLY=1 -j"$jobs" \
			"$build/check-series-libbpf/libbpf.a" >/dev/null 2>>"$build/check-series.err" || ok=0
	fi
	if [ $ok = 1 ]; then
		echo "ok $n - $subject"
	else
		echo "not ok $n - $subject"
		sed 's/^/#   /' "$build/check-series.err" | grep -E 'error|warning' | head -n 5
		fail=$((fail + 1))
	fi
done
git -C "$src" checkout -q "$head"
cp "$build/check-series.config" "$kout/.config"
[ "$last" = 0 ] || n=$last
echo "$((n - first + 1 - fail)) passed, $fail failed"
[ $fail = 0 ]
