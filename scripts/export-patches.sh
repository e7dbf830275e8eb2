#!/bin/sh
# Developer tool: turn the commits on top of `base` in build/linux into
# kernel-patches/ (git format-patch files + series), and mark the tree as
# matching them so that `make kernel` does not re-apply what it already has.
set -eu
. "$(dirname "$0")/env.sh"

pd=$top/kernel-patches
git -C "$src" diff --quiet HEAD || { echo "export-patches: $src has uncommitted changes" >&2; exit 1; }
rm -f "$pd"/[0-9][0-9][0-9][0-9]-*.patch
git -C "$src" format-patch -q --no-signature --zero-commit --no-numbered \
	-o "$pd" base..HEAD
{
	sed -n '/^#/p' "$pd/series"
	(cd "$pd" && ls [0-9][0-9][0-9][0-9]-*.patch 2>/dev/null) || true
} > "$pd/series.new"
mv "$pd/series.new" "$pd/series"
# The series id as build-kernel.sh computes it.
( cd "$pd" && cat series && grep -v '^#' series | grep . | xargs -r cat ) |
	sha256sum | cut -d' ' -f1 > "$src/.git/bpfsign-series"
git -C "$src" rev-parse HEAD > "$src/.git/bpfsign-series.head"
echo "export-patches: $(grep -vc '^#' "$pd/series") patches"
