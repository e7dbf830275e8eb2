#!/bin/sh
# Flip the lowest bit of one byte of a region of a gen-loader header.
# Usage: tamper.sh REGION first|last IN OUT
#   REGION  insns | data | excl_hash | signature (the @bpfsign blocks)
set -eu
[ $# -eq 4 ] || { echo "usage: tamper.sh REGION first|last IN OUT" >&2; exit 2; }
region=$1 which=$2 in=$3 out=$4
begin=$(grep -n "^/\* @bpfsign begin $region [0-9]* \*/\$" "$in" | cut -d: -f1)
end=$(grep -n "^/\* @bpfsign end $region \*/\$" "$in" | cut -d: -f1)
[ -n "$begin" ] && [ -n "$end" ] && [ $((end - begin)) -ge 2 ] ||
	{ echo "tamper.sh: no non-empty region $region in $in" >&2; exit 1; }
case $which in
first) line=$((begin + 1)) ;;
last) line=$((end - 1)) ;;
*) echo "tamper.sh: first or last, not $which" >&2; exit 2 ;;
esac
awk -v n="$line" -v which="$which" '
function flip(c,   i) {
	i = index("0123456789abcdef", tolower(c)) - 1
	return substr("1032547698badcfe", i + 1, 1)
}
NR == n {
	# <TAB>"\xHH...\xHH": the first byte low digit is char 6, the last is
	# the one before the closing quote
	p = which == "first" ? 6 : length($0) - 1
	$0 = substr($0, 1, p - 1) flip(substr($0, p, 1)) substr($0, p + 1)
}
{ print }' "$in" > "$out"
