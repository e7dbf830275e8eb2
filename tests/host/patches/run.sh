#!/bin/sh
# kernel-patches/ is a series a reviewer can take: every file listed once,
# every listed file present, each patch signed off, saying whether it is a
# backport (its upstream commit id and author) or original to the kit
# (scripts/check-series.sh --provenance), and free of checkpatch errors
# (--strict: every ERROR, and every WARNING or CHECK not listed with its
# reason in checkpatch.exceptions here).  Needs the extracted tree for
# checkpatch (make kernel).
# TAP, one line per test, and as the last line "N passed, N failed".
#
# checkpatch runs inside the kernel tree, where the upstream ids of
# "commit <id> upstream." lines are unknown: it warns "Unknown commit id"
# (UNKNOWN_COMMIT_ID, listed for every patch in checkpatch.exceptions);
# outside a git tree it would take them for malformed commit references.
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

# checkpatch_out PATCH: its --strict findings, "TYPE<tab>LEVEL: message",
# cached for the test of stale exceptions
checkpatch_out() {
	local c=$tmp/checkpatch/$1.out
	if [ ! -f "$c" ]; then
		mkdir -p "$tmp/checkpatch"
		(cd "$src" && "$checkpatch" --strict --no-tree -q --show-types "$pd/$1") 2>&1 |
			sed -n 's/^\(ERROR\|WARNING\|CHECK\):\([A-Z0-9_]*\): /\2\t\1: /p' > "$c.new"
		mv "$c.new" "$c"
	fi
	cat "$c"
}

# excepted TYPE PATCH: checkpatch.exceptions lists it
excepted() {
	grep -v '^#' "$here/checkpatch.exceptions" |
		awk -v t="$1" -v p="${2#[0-9][0-9][0-9][0-9]-}" \
			'$1 == t && ($2 == p || $2 == "*") { f = 1 } END { exit !f }'
}

# Every ERROR fails; a WARNING or CHECK fails unless checkpatch.exceptions
# lists its type for this patch (or for all), with a reason.
checkpatch_clean() {
	local out bad=0 type level msg
	if [ ! -x "$checkpatch" ]; then
		echo "$checkpatch missing (make kernel)"
		return 1
	fi
	out=$(checkpatch_out "$cur") || return 1
	while IFS='	' read -r type msg; do
		[ -n "$type" ] || continue
		case $msg in
		ERROR:*) ;;
		*) ! excepted "$type" "$cur" || continue ;;
		esac
		echo "$type $msg (not in tests/host/patches/checkpatch.exceptions)"
		bad=1
	done <<EOF2
$out
EOF2
	[ $bad = 0 ] || (cd "$src" && "$checkpatch" --strict --no-tree -q --show-types "$pd/$cur" |
		grep -v UNKNOWN_COMMIT_ID | head -n 20)
	return $bad
}

# Each exception has a reason and is still needed by some patch's finding.
exceptions_needed() {
	local type patch reason f bad=0 q
	grep -v '^#' "$here/checkpatch.exceptions" | grep . > list
	for q in $listed; do
		checkpatch_out "$q" | sed "s|^|${q#[0-9][0-9][0-9][0-9]-} |"
	done > found
	while read -r type patch reason; do
		if [ -z "$reason" ]; then
			echo "exception '$type $patch' gives no reason"
			bad=1
		fi
		if [ "$patch" = "*" ]; then
			f=$(awk -v t="$type" '$2 == t' found | head -n 1)
		else
			f=$(awk -v t="$type" -v p="$patch" '$1 == p && $2 == t' found | head -n 1)
		fi
		if [ -z "$f" ]; then
			echo "exception '$type $patch' matches no finding any more: remove it"
			bad=1
		fi
	done < list
	return $bad
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
# The provenance check refuses what it is there to refuse: each test runs
# it on a copy of a patch of the series (same file name, so the same
# earlier patches) with one thing changed, and expects "not ok" and why.
# mutate NAME SED-SCRIPT: ./NNNN-NAME, the series' patch changed by sed (by
# name: numbers move when patches are added)
mutate() {
	local f
	f=$(cd "$pd" && ls [0-9][0-9][0-9][0-9]-"$1")
	sed "$2" "$pd/$f" > "$f"
	echo "$PWD/$f"
}

# prov_verdict FILE: the check's one line for it
prov_verdict() {
	sh "$top/scripts/check-series.sh" --provenance "$1" | head -n 1
}

# prov_refuses FILE TEXT: "not ok" naming TEXT
prov_refuses() {
	local v
	v=$(prov_verdict "$1")
	case $v in
	"not ok "*"$2"*) return 0 ;;
	esac
	echo "expected 'not ok ... $2', got: $v"
	return 1
}

t_prov_kit_identity() {
	# a second identity signing off the kit's own work
	prov_refuses "$(mutate verification-Add-a-key-usage-for-BPF-program-signatu.patch 's/^Signed-off-by: bpfsign developers <bpfsign@example.org>$/Signed-off-by: Seed 8ecfbb0e maintainers <m@example.org>/')" \
		"the last Signed-off-by is Seed"
}
t_prov_original_author() {
	# the kit's own patch under an upstream author
	prov_refuses "$(mutate verification-Add-a-key-usage-for-BPF-program-signatu.patch 's/^From: bpfsign developers <bpfsign@example.org>$/From: KP Singh <kpsingh@kernel.org>/')" \
		"From: is KP Singh"
}
t_prov_based_on_author() {
	# a squash of several upstream commits under one upstream author
	prov_refuses "$(mutate bpf-Add-fd_array_cnt-attribute-for-prog_load.patch 's/^From: bpfsign developers <bpfsign@example.org>$/From: Anton Protopopov <aspsk@isovalent.com>/')" \
		"From: is Anton Protopopov"
}
t_prov_based_on_upstream_sob() {
	# a squash carrying one upstream author's sign-off
	prov_refuses "$(mutate bpf-Add-fd_array_cnt-attribute-for-prog_load.patch 's/^Signed-off-by: bpfsign developers/Signed-off-by: Anton Protopopov <aspsk@isovalent.com>\n&/')" \
		"Anton Protopopov <aspsk@isovalent.com> signs off: only the kit does"
}
t_prov_short_id() {
	local f
	# a 12-digit id that the message does not flag as partly unknown
	f=$(mutate bpf-Move-map-prog-compatibility-checks-into-__add_us.patch 's/^commit 928f3221cb141bdb40d5cc6efe5e7b10adecfe5f upstream\.$/commit 928f3221cb14 upstream./')
	prov_refuses "$f" "does not say the rest is 'not known in full'" || return 1
	# ... and passes once it says so
	sed -i 's/^\[ kit: /[ kit: the rest of the id is not known in full; /' "$f"
	case $(prov_verdict "$f") in
	"ok "*"backport of 928f3221cb14 by Anton Protopopov"*) ;;
	*) echo "flagged 12-digit id refused: $(prov_verdict "$f")"; return 1 ;;
	esac
}
t_prov_bad_id() {
	# 13 hex digits: neither the full id nor the stable 12
	prov_refuses "$(mutate bpf-Move-map-prog-compatibility-checks-into-__add_us.patch 's/^commit 928f3221cb141bdb40d5cc6efe5e7b10adecfe5f upstream\.$/commit 928f3221cb141 upstream./')" \
		"neither 40 nor 12 hex digits"
}
t_prov_unconfirmed_form() {
	# the retired "Upstream: ..., commit id not confirmed." form
	prov_refuses "$(mutate bpf-Move-map-prog-compatibility-checks-into-__add_us.patch 's/^commit 928f3221cb141bdb40d5cc6efe5e7b10adecfe5f upstream\.$/Upstream: "bpf: Move map\/prog compatibility checks"; commit id not confirmed./')" \
		"says neither"
}
t_prov_two_forms() {
	# a backport that also calls itself the kit's own
	prov_refuses "$(mutate bpf-Move-map-prog-compatibility-checks-into-__add_us.patch '/^No functional change/i Not upstream: the kit.\n')" \
		"has another"
}
t_prov_no_note() {
	# a backport without the note of what the 6.12 adaptation changed
	prov_refuses "$(mutate bpf-Move-map-prog-compatibility-checks-into-__add_us.patch '/^\[ kit: /d')" "no '[ kit: ... ]' note"
}
t_prov_fixes_unknown() {
	# a fix of the series naming a subject no earlier patch has
	prov_refuses "$(mutate libbpf-Start-every-run-of-a-generated-loader-with-no.patch 's/^This fixes "libbpf: Keep the loader/This fixes "libbpf: Keep a loader/')" \
		"which is no earlier patch of the series"
}
t_prov_fixes_later() {
	# a fix of the series naming a later patch (ids change; subjects and order do not)
	prov_refuses "$(mutate keys-Add-KEY_FLAG_SEAL_ON_RESTRICT-to-seal-a-keyring.patch '/^Signed-off-by: /i This fixes "bpf: Add the .bpf keyring, KEY_SPEC_BPF_KEYRING", earlier in\nthis series.\n')" \
		"which is no earlier patch of the series"
}
t_prov_fixes_format() {
	# an upstream Fixes: trailer without its subject
	prov_refuses "$(mutate verification-Add-a-key-usage-for-BPF-program-signatu.patch '/^Signed-off-by: /i Fixes: 928f3221cb14')" \
		"is not 'Fixes: <id> (\"subject\")'"
}
t "provenance: a second sign-off identity for the kit's work is refused" t_prov_kit_identity
t "provenance: the kit's own patch under an upstream author is refused" t_prov_original_author
t "provenance: 'Based on upstream commits' under an upstream author is refused" t_prov_based_on_author
t "provenance: 'Based on upstream commits' with an upstream sign-off is refused" t_prov_based_on_upstream_sob
t "provenance: a 12-digit id needs 'not known in full'" t_prov_short_id
t "provenance: an id of 13 digits is refused" t_prov_bad_id
t "provenance: 'Upstream: ... not confirmed' is no longer a form" t_prov_unconfirmed_form
t "provenance: two forms in one message are refused" t_prov_two_forms
t "provenance: a backport without a [ kit: ] note is refused" t_prov_no_note
t "provenance: 'This fixes' naming no patch of the series is refused" t_prov_fixes_unknown
t "provenance: 'This fixes' naming a later patch is refused" t_prov_fixes_later
t "provenance: a Fixes: trailer without its subject is refused" t_prov_fixes_format

verdicts=$(sh "$top/scripts/check-series.sh" --provenance)
for cur in $listed; do
	verdict=$(echo "$verdicts" | grep -F -- " - $cur: " | head -n 1)
	case $verdict in
	"ok "*) what=${verdict#ok * - "$cur": } ;;
	*) what="says whether it is a backport or original" ;;
	esac
	t "$cur: Signed-off-by" signed_off
	t "$cur: $what" provenance
	t "$cur: checkpatch --strict" checkpatch_clean
done
t "checkpatch exceptions: each has a reason and is still needed" exceptions_needed
t "sparse (make C=2) on the C files the series touches: no new warnings" sparse_clean
t "W=1 build of the objects the series touches: no new warnings" w1_clean
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
