#!/bin/sh
# Static checks of the C files the kernel series touches: sparse (make C=2)
# and a W=1 build of their objects, in a kbuild output folder of their own
# (build/kbuild-check, the debug kernel's .config) so that build/kbuild's
# objects are never rebuilt with other flags.
#
# "The C files the series touches" are the .c files that base..HEAD of
# build/linux changes, outside tools/, that the debug kernel builds (their
# object is in build/kbuild).  Each check's warnings are written one per
# line, without line and column numbers (a patch moves them), a sparse
# warning joined with its "expected"/"got" lines:
#
#   build/static-checks/KEY/sparse.warnings
#   build/static-checks/KEY/w1.warnings
#   build/static-checks/KEY/files          the files checked
#
# KEY is the series id (as build-kernel.sh computes it), the tree's HEAD,
# the .config, the file list, sparse's and gcc's versions and this script:
# with nothing changed, a second run finds the results and only prints
# the folder.  tests/host/patches/run.sh compares them with the reviewed
# baselines there (sparse.baseline, w1.baseline).
#
# Usage: scripts/static-checks.sh           check the patched tree, print
#                                           the results' folder
#        scripts/static-checks.sh --base    the same files in the pristine
#                                           tree (tag base, a worktree in
#                                           build/linux-base), to review a
#                                           baseline; prints the folder
set -eu
. "$(dirname "$0")/env.sh"

die() { echo "static-checks: $*" >&2; exit 1; }

[ -d "$src/.git" ] || die "$src missing (make kernel)"
[ -f "$kout/.config" ] || die "$kout/.config missing (make kernel)"
command -v sparse >/dev/null || die "sparse missing (make deps)"

mode=patched
[ "${1:-}" != --base ] || mode=base

series_id() {
	( cd "$top/kernel-patches" && cat series &&
	  grep -v '^#' series | grep . | xargs -r cat ) | sha256sum | cut -d' ' -f1
}

# The touched .c files the debug kernel builds.
files=$(git -C "$src" diff --name-only base HEAD -- '*.c' ':!tools/' |
	while read -r f; do
		if [ -f "$kout/${f%.c}.o" ]; then echo "$f"; fi
	done)
[ -n "$files" ] || die "no touched C file is built in $kout"

key=$( {
	echo "$mode"
	series_id
	git -C "$src" rev-parse HEAD
	cat "$kout/.config" "$0"
	echo "$files"
	sparse --version
	gcc --version | head -n 1
} | sha256sum | cut -c1-16)
res=$build/static-checks/$mode-$key
if [ -f "$res/done" ]; then
	echo "$res"
	exit 0
fi

# normalise SRC FILE: compiler or sparse output, one warning a line,
# paths relative to the source tree
normalise() {
	# ccache hands gcc paths relative to the output folder (CCACHE_BASEDIR);
	# kbuild hands sparse the real path of a source tree reached by a symlink
	sed -e "s|$1/||g" -e "s|$(realpath "$1")/||g" -e "s|\.\./${1##*/}/||g" -e 's|^\./||' "$2" | awk '
		# a sparse continuation: "file:L:C:    expected ...", "got ..."
		/^[^ :]+:[0-9]+:[0-9]+:    / {
			if (last != "") {
				sub(/^[^ :]+:[0-9]+:[0-9]+: +/, "")
				last = last " | " $0
			}
			next
		}
		/: (warning|error): / {
			if (last != "") print last
			line = $0
			sub(/:[0-9]+:[0-9]+: /, ": ", line)
			sub(/:[0-9]+: /, ": ", line)
			last = line
			next
		}
		END { if (last != "") print last }' | LC_ALL=C sort
}

run_checks() {	# SRC KOUT RESULTS
	local s=$1 o=$2 r=$3 objs f
	objs=$(echo "$files" | sed 's/\.c$/.o/')
	mkdir -p "$o"
	cmp -s "$kout/.config" "$o/.config" || cp "$kout/.config" "$o/.config"
	# The same make as build-kernel.sh's, in the other folders.
	ckmake() {
		make -s -C "$s" O="$o" CC="ccache gcc" HOSTCC="ccache gcc" \
			LOCALVERSION= -j"$jobs" "$@"
	}
	ckmake olddefconfig >/dev/null
	ckmake prepare >/dev/null 2>"$r/prepare.err" ||
		{ cat "$r/prepare.err" >&2; die "make prepare failed in $o"; }
	# sparse on every file (C=2 checks them whether or not they are
	# rebuilt); its warnings go to a file of their own through CHECK.
	# sparse stops at 100 warnings a file, which would hide new ones.
	printf '#!/bin/sh\nexec sparse -fmax-warnings=unlimited "$@" 2>>"%s"\n' \
		"$r/sparse.raw" > "$r/sparse-wrapper"
	chmod +x "$r/sparse-wrapper"
	: > "$r/sparse.raw"
	# shellcheck disable=SC2086
	ckmake C=2 CHECK="$r/sparse-wrapper" $objs >/dev/null 2>"$r/sparse.err" ||
		{ tail -n 20 "$r/sparse.err" >&2; die "make C=2 failed in $o"; }
	# W=1: remove the objects so that each is compiled and warns again
	# (ccache replays a cached compiler's warnings).
	for f in $objs; do rm -f "$o/$f"; done
	# shellcheck disable=SC2086
	ckmake W=1 $objs >/dev/null 2>"$r/w1.raw" ||
		{ tail -n 20 "$r/w1.raw" >&2; die "make W=1 failed in $o"; }
	normalise "$s" "$r/sparse.raw" > "$r/sparse.warnings"
	normalise "$s" "$r/w1.raw" > "$r/w1.warnings"
}

# One kernel build at a time on this machine (build-kernel.sh's lock;
# BPFSIGN_LOCKED=1: the caller holds it).
if [ -z "${BPFSIGN_LOCKED:-}" ]; then
	mkdir -p "$CCACHE_DIR"
	exec 9>"$CCACHE_DIR/bpfsign-kernel.lock"
	flock 9
fi

rm -rf "$res"
mkdir -p "$res"
echo "$files" > "$res/files"
if [ $mode = base ]; then
	bsrc=$build/linux-base
	[ -d "$bsrc" ] || git -C "$src" worktree add -q --detach "$bsrc" base
	git -C "$bsrc" checkout -q --detach base
	# files the series adds have no pristine version
	files=$(echo "$files" | while read -r f; do
		if [ -f "$bsrc/$f" ]; then echo "$f"; fi
	done)
	run_checks "$bsrc" "$build/kbuild-check-base" "$res"
else
	# Only the newest results of the patched tree are kept.
	for d in "$build"/static-checks/patched-*; do
		[ "$d" = "$res" ] || rm -rf "$d"
	done
	run_checks "$src" "$build/kbuild-check" "$res"
fi
touch "$res/done"
echo "$res"
