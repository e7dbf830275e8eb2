#!/bin/sh
# The SYNOPSIS of a tool's man page is its --help's usage lines, which the
# option table generates (common/opts.c): this script writes them into the
# man page, and with --check says whether the page still has them.
#
# Usage: scripts/man-synopsis.sh [--check] PROG MANPAGE
#   PROG      the built tool (signer/bpfsign, gen-loader/gen-loader, ...)
#   MANPAGE   its page; the lines between .SH SYNOPSIS and the next .SH
#             are replaced by one literal line per usage line
set -eu

check=0
[ "${1:-}" = --check ] && { check=1; shift; }
[ $# = 2 ] || { echo "usage: $0 [--check] PROG MANPAGE" >&2; exit 2; }
prog=$1 page=$2
name=$(basename "$prog")

# the usage lines of PROG --help: "Usage: PROG ..." and "       PROG ...",
# without the prefix
usage_lines() {
	"$prog" --help | sed -n -e "s/^Usage: \($name\( .*\)\{0,1\}\)$/\1/p" \
		-e "s/^       \($name .*\)$/\1/p"
}

# the SYNOPSIS of the page, as text (roff escapes of - and \ undone)
synopsis_lines() {
	awk '/^\.SH / { in_syn = ($2 == "SYNOPSIS"); next }
	     in_syn && !/^\./ { print }' "$1" | sed -e 's/\\-/-/g' -e 's/\\e/\\/g'
}

want=$(mktemp) got=$(mktemp)
trap 'rm -f "$want" "$got"' EXIT
usage_lines > "$want"
[ -s "$want" ] || { echo "$prog --help: no usage line" >&2; exit 1; }

if [ $check = 1 ]; then
	synopsis_lines "$page" > "$got"
	cmp -s "$want" "$got" && exit 0
	echo "$page: SYNOPSIS is not $name --help's usage lines (scripts/man-synopsis.sh $prog $page):" >&2
	diff "$got" "$want" | sed 's/^/  /' >&2
	exit 1
fi

# .nf: one usage line a line, as --help prints it; - and \ escaped for roff
# (through the environment: awk -v would undo the escapes)
SYN=$(sed -e 's/\\/\\e/g' -e 's/-/\\-/g' "$want") awk '
	/^\.SH / {
		if (in_syn) in_syn = 0
		if ($2 == "SYNOPSIS") {
			print; print ".nf"; print ENVIRON["SYN"]; print ".fi"
			in_syn = 1; next
		}
	}
	!in_syn { print }' "$page" > "$page.tmp"
mv "$page.tmp" "$page"
