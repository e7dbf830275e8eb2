#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Does signer/kernel/ still hold the patched kernel's files?  Each file that
# signer/kernel/SOURCES lists from "linux" (build/linux) or "kbuild"
# (build/kbuild) must equal the tree's byte for byte, carry the SPDX line
# SOURCES states ("none": no SPDX line), and every file of the directory
# must be listed; the tree must be the pinned kernel version (the package
# version is only noted).  Prints one
# line per finding and exits 1 if there is any.
#
# Usage: kernel_copies.sh KERNEL_DIR BUILD_DIR
set -u
dir=$1 build=$2
sources=$dir/SOURCES
bad=0

finding() {
	echo "$*"
	bad=1
}

spdx_of() {	# FILE: its SPDX licence expression, or "none"
	sed -n 's/.*SPDX-License-Identifier: *\(.*[^ */]\).*/\1/p' "$1" | sed -n 1p |
		grep . || echo none
}

[ -f "$sources" ] || { echo "$sources: missing"; exit 1; }
pin=$(awk -F'\t' '$1 == "kernel" { print $2 }' "$sources")
have=$(awk '/^VERSION =/ { v = $3 } /^PATCHLEVEL =/ { p = $3 } /^SUBLEVEL =/ { s = $3 }
	END { print v "." p "." s }' "$build/linux/Makefile" 2>/dev/null)
[ "$have" = "$pin" ] ||
	finding "$build/linux: kernel $have, $sources pins $pin (copy the files again, update SOURCES)"

# the Debian package, where dpkg knows it (build/linux is extracted from it).
# A newer Debian upload of the same kernel is only noted: the byte-for-byte
# comparison below is what decides, and a security update of the package
# must not fail a clean clone's make test by itself.
deb=$(awk -F'\t' '$1 == "debian-package" { print $2 " " $3 }' "$sources")
got=$(dpkg-query -W -f '${Version}' "${deb%% *}" 2>/dev/null) &&
	[ "$got" != "${deb#* }" ] &&
	echo "# note: ${deb%% *} $got is installed, $sources pins ${deb#* } (the files are compared below)"

listed=$(mktemp)
trap 'rm -f "$listed"' EXIT
# the manifest's file lines: four tab-separated fields, TREE one of three
awk -F'\t' '!/^#/ && NF == 4 && ($2 == "linux" || $2 == "kbuild" || $2 == "kit")' "$sources" | {
while IFS='	' read -r file tree path licence; do
	echo "$file" >> "$listed"
	[ -f "$dir/$file" ] || { finding "$dir/$file: listed in SOURCES, missing"; continue; }
	got=$(spdx_of "$dir/$file")
	[ "$got" = "$licence" ] ||
		finding "$dir/$file: SPDX '$got', SOURCES says '$licence'"
	[ "$tree" = kit ] && continue
	src=$build/$tree/$path
	if [ ! -f "$src" ]; then
		finding "$dir/$file: $src missing (run 'make kernel')"
	elif ! cmp -s "$dir/$file" "$src"; then
		finding "$dir/$file: differs from $src"
	fi
done
exit $bad
} || bad=1
(cd "$dir" && find . -type f ! -name README ! -name SOURCES | sed 's#^\./##' | sort) | {
unlisted=0
while read -r f; do
	grep -qxF "$f" "$listed" || { echo "$dir/$f: not listed in SOURCES"; unlisted=1; }
done
exit $unlisted
} || bad=1
exit $bad
