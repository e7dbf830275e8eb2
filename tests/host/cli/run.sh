#!/bin/sh
# Host tests of the kit's one command-line vocabulary (common/vocab.h):
# the same wrong inputs (a wrong key, a junk file, an unsigned input, a
# tampered one, a missing file) through bpfsign, gen-loader and
# bpfsign-policy give one exit code and one JSON key set each; batches exit
# with their worst result; bpftool's conventions (-j/-p, "-" for standard
# input and output), one version, man SYNOPSIS = --help, bash completion.
# TAP, one line per test, and as the last line "N passed, N failed".
# Needs `make guest-tests` first (bpfsign-policy, the test headers).
#
# The attacker these pin down is the script's: a verification pipeline that
# reads an exit code or a JSON key must not be told "tampered" for
# "unsigned", "rejected" for "unknown key", or a first harmless failure for
# a later tampered one.
#
# Usage: tests/host/cli/run.sh [NAME-FILTER]
set -u

top=$(cd "$(dirname "$0")/../../.." && pwd)
build=${BPFSIGN_BUILD:-$top/build}
keys=$top/keys-example
bpfsign=$top/signer/bpfsign
gl=$top/gen-loader/gen-loader
cli=$build/guest/bpfsign-policy
gobj=$build/guest-obj
signed=$gobj/skel_counter.lskel.h
unsigned_h=$gobj/skel_counter_unsigned.lskel.h
obj=$gobj/skel_counter.bpf.o
vmlinux=$build/kbuild/vmlinux
tamper=$top/tests/host/gen-loader/tamper.sh
vocab=$top/common/vocab.h

. "$top/tests/host/lib.sh"
host_test_init cli "$@"

# --- helpers: each failure message says what broke --------------------------

# keys FILE: the keys of the JSON object in FILE, sorted, one line
keys_of() {
	python3 -c 'import json, sys; print(" ".join(sorted(json.load(open(sys.argv[1])))))' "$1"
}

# verdict FILE: "error/errno" of the JSON object in FILE
verdict() {
	python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); print("%s/%s" % (r["error"], r["errno"]))' "$1"
}

# same TOOL-RUN... : each "LABEL:FILE:RC" must have exit WANT_RC and verdict WANT
expect_all() {	# WANT_RC WANT_VERDICT LABEL:RC:FILE...
	local want_rc=$1 want=$2 x label r f
	shift 2
	for x in "$@"; do
		label=${x%%:*}; r=${x#*:}; f=${r#*:}; r=${r%%:*}
		expect_eq "$r" "$want_rc" "$label: exit code" || return 1
		expect_eq "$(verdict "$f")" "$want" "$label: error/errno" || return 1
	done
}

# keyset LABEL FILE WANT: the sorted keys of FILE's object are WANT
keyset() {
	expect_eq "$(keys_of "$2")" "$3" "$1: JSON keys"
}

failure_keys="errno error file reason"

payload_and_sig() {	# p and p.p7s, signed with the RSA test key
	head -c 1500 /dev/urandom > p &&
	"$bpfsign" sign --key "$keys/signing.key" --cert "$keys/signing.crt" p
}

# --- the tests --------------------------------------------------------------

t_built() {
	# a missing build is a failure, never a skip
	for f in "$bpfsign" "$gl" "$cli"; do
		[ -x "$f" ] || { echo "no $f (make guest-tests)"; return 1; }
	done
	for f in "$signed" "$unsigned_h" "$obj" "$vmlinux"; do
		[ -f "$f" ] || { echo "no $f (make guest-tests)"; return 1; }
	done
}

# Every JSON key the three tools print is in the one table, KIT_JSON_KEYS.
t_keys_in_table() {
	local k missing=''
	sed -n 's/^[[:space:]]*KEY(\([a-z_0-9]*\),.*/\1/p' "$vocab" | sort -u > table
	[ "$(wc -l < table)" -gt 40 ] || { echo "KIT_JSON_KEYS: only $(wc -l < table) keys read"; return 1; }
	# the literal keys of every report (out_str(&o, "key", ...), out_key(o, "key", ...))
	cat "$top"/signer/*.c "$top"/gen-loader/*.c "$top"/policies/cli/*.c "$top"/common/out.c |
		grep -o 'out_[a-z_]*(&\{0,1\}o, "[a-z_0-9]*"' | sed 's/.*"\(.*\)"/\1/' | sort -u > used
	[ "$(wc -l < used)" -gt 40 ] || { echo "only $(wc -l < used) keys found in the sources"; return 1; }
	for k in $(cat used); do
		grep -qx "$k" table || missing="$missing $k"
	done
	[ -z "$missing" ] || { echo "keys printed but not in common/vocab.h:$missing"; return 1; }
	# and the table has no key no tool prints
	for k in $(cat table); do
		grep -qx "$k" used || missing="$missing $k"
	done
	[ -z "$missing" ] || { echo "keys in common/vocab.h no tool prints:$missing"; return 1; }
}

# The same wrong key: ENOKEY (5) from bpfsign verify and gen-loader verify
# (it was 5 and 3), and the same key id named by both.
t_wrong_key() {
	payload_and_sig || return 1
	run "$bpfsign" verify -j --cert "$keys/untrusted.crt" p.p7s; mv out b.json; brc=$rc
	run "$gl" verify -j --cert "$keys/untrusted.crt" "$signed"; mv out g.json; grc=$rc
	expect_all 5 ENOKEY/126 "bpfsign verify:$brc:b.json" "gen-loader verify:$grc:g.json" || return 1
	expect_eq "$(json g.json key_id)" "$(json b.json key_id)" "key_id of the same signer" || return 1
	expect_eq "$(json g.json signer)/$(json b.json signer)" "None/None" "no signer verified it" || return 1
	# signing: a key that is not the certificate's is refused alike (1), nothing written
	run "$bpfsign" sign --key "$keys/untrusted.key" --cert "$keys/signing.crt" -o s.p7s p
	brc=$rc
	run "$gl" "$obj" -o h.h --key "$keys/untrusted.key" --cert "$keys/signing.crt" --btf "$vmlinux"
	expect_eq "$brc/$rc" 1/1 "sign with another key's certificate: bpfsign/gen-loader" &&
		[ ! -e s.p7s ] && [ ! -e h.h ] || { echo "an output was written"; return 1; }
}

# The same junk (4000 random bytes): EBADMSG (4) from every command that
# reads it; bpfsign's inspect and verify print the same keys (null where
# nothing parsed), the others the four keys of a failure.
t_junk() {
	# "JUNK" first: no DER SEQUENCE, no header, no policy directive, whatever follows
	{ printf JUNK; head -c 3996 /dev/urandom; } > junk; printf x > junk.payload
	run "$bpfsign" inspect -j junk; mv out bi.json; bi=$rc
	run "$bpfsign" verify -j --cert "$keys/signing.crt" --payload junk.payload junk; mv out bv.json; bv=$rc
	run "$gl" verify -j --cert "$keys/signing.crt" junk; mv out gv.json; gv=$rc
	run "$gl" inspect -j junk; mv out gi.json; gi=$rc
	run "$cli" check -j --policy junk; mv out pc.json; pc=$rc
	expect_all 4 EBADMSG/74 "bpfsign inspect:$bi:bi.json" "bpfsign verify:$bv:bv.json" \
		"gen-loader verify:$gv:gv.json" "gen-loader inspect:$gi:gi.json" \
		"bpfsign-policy check:$pc:pc.json" || return 1
	expect_eq "$(keys_of bi.json)" "$(keys_of bv.json)" "bpfsign inspect vs verify keys" &&
	keyset "gen-loader verify" gv.json "$failure_keys" &&
	keyset "gen-loader inspect" gi.json "$failure_keys" &&
	keyset "bpfsign-policy check" pc.json "$failure_keys" || return 1
	# a reason that quotes bytes of the junk is still JSON: bytes that are
	# not UTF-8 are \u00XX (json() reads the file as strict UTF-8)
	printf '\377\376\300x\n' > bad.policy
	run "$cli" check -j --policy bad.policy
	expect_rc 4 "a policy of bytes that are not UTF-8" &&
		expect_eq "$(json out error)" EBADMSG "its JSON, read back" || return 1
	# never computed: null, not "OK" beside false, not 0
	expect_eq "$(json bv.json kernel_ok)/$(json bv.json kernel_error)/$(json bv.json signature_value_size)" \
		None/None/None "bpfsign verify: values never computed" || return 1
	# the issue's 9000 bytes: too large for BPF_PROG_LOAD, EINVAL (7) from both
	{ printf JUNK; head -c 8996 /dev/urandom; } > big
	run "$bpfsign" inspect -j big; mv out i.json; bi=$rc
	run "$bpfsign" verify -j --cert "$keys/signing.crt" --payload junk.payload big; mv out v.json
	expect_all 7 EINVAL/22 "inspect of 9000 bytes:$bi:i.json" "verify of 9000 bytes:$rc:v.json"
}

# Unsigned is not tampered: ENODATA (9) from gen-loader verify and inspect,
# EKEYREJECTED (3) for a header whose signed data was altered.
t_unsigned_vs_tampered() {
	run "$gl" verify -j --cert "$keys/signing.crt" "$unsigned_h"; mv out uv.json; uv=$rc
	run "$gl" inspect -j "$unsigned_h"; mv out ui.json; ui=$rc
	expect_all 9 ENODATA/61 "verify unsigned:$uv:uv.json" "inspect unsigned:$ui:ui.json" || return 1
	expect_eq "$(json uv.json verdict)/$(json uv.json signature_size)/$(json uv.json key_id)" \
		unsigned/None/None "unsigned: verdict, no signature, no key" || return 1
	"$tamper" data last "$signed" t.h || return 1
	payload_and_sig && echo x >> p || return 1
	run "$gl" verify -j --cert "$keys/signing.crt" t.h; mv out tv.json; tv=$rc
	run "$bpfsign" verify -j --cert "$keys/signing.crt" p.p7s; mv out bv.json
	expect_all 3 EKEYREJECTED/129 "gen-loader verify tampered:$tv:tv.json" \
		"bpfsign verify tampered:$rc:bv.json" || return 1
	# the two tools' reports of one signature share its keys
	python3 - bv.json tv.json <<-'EOF'
	import json, sys
	b, g = (set(json.load(open(f))) for f in sys.argv[1:])
	want = {"file", "error", "errno", "reason", "signer", "signature_size", "digest_algorithm",
	        "signature_algorithm", "key_id", "key_sha256"}
	for name, keys in (("bpfsign verify", b), ("gen-loader verify", g)):
	    if not want <= keys:
	        sys.exit("%s lacks %s" % (name, sorted(want - keys)))
	EOF
}

# A header refused before it was hashed: null, not zeros.
t_modified_nulls() {
	sed 's/^#define SKEL_COUNTER__LSKEL_H_*$/&\n\/\* edited \*\//' "$signed" > m.h
	cmp -s m.h "$signed" && { sed '$a /* edited */' "$signed" > m.h; }
	run "$gl" verify -j --cert "$keys/signing.crt" m.h
	expect_rc 3 "modified header" || return 1
	expect_eq "$(json out verdict)" modified "verdict" &&
	expect_eq "$(json out payload_size)/$(json out insns_digest)/$(json out payload_sha256)" \
		None/None/None "never computed"
}

# A missing file: ENOENT (1), the four keys of a failure, from every command.
t_missing() {
	local c label
	for c in "bpfsign inspect" "bpfsign verify --cert $keys/signing.crt" \
		 "gen-loader verify --cert $keys/signing.crt" "gen-loader inspect"; do
		set -- $c
		label="$1 $2"
		case $1 in bpfsign) shift; set -- "$bpfsign" "$@" ;; gen-loader) shift; set -- "$gl" "$@" ;; esac
		run "$@" -j missing.p7s
		expect_all 1 ENOENT/2 "$label:$rc:out" && keyset "$label" out "$failure_keys" || return 1
	done
	run "$cli" check -j --policy missing.policy
	expect_all 1 ENOENT/2 "bpfsign-policy check:$rc:out" &&
		keyset "bpfsign-policy check" out "$failure_keys"
}

# A batch exits with its worst result, not its first (3 > 4 > 9 > 1).
t_batch_worst() {
	payload_and_sig || return 1
	cp p q && cp p.p7s q.p7s && echo x >> q
	run "$bpfsign" verify -j --cert "$keys/signing.crt" missing.p7s p.p7s q.p7s
	# missing (1) first, tampered (3) last: 3
	expect_rc 3 "bpfsign verify missing, good, tampered" || return 1
	head -c 2000 /dev/urandom > junk.h
	"$tamper" data last "$signed" t.h || return 1
	run "$gl" verify -j --cert "$keys/signing.crt" missing.h "$unsigned_h" junk.h t.h
	expect_rc 3 "gen-loader verify missing, unsigned, junk, tampered" || return 1
	run "$gl" verify -j --cert "$keys/signing.crt" missing.h "$unsigned_h" junk.h
	# malformed (4) over unsigned (9) over unreadable (1)
	expect_rc 4 "gen-loader verify missing, unsigned, junk" || return 1
	run "$gl" verify -j --cert "$keys/signing.crt" missing.h "$unsigned_h"
	expect_rc 9 "gen-loader verify missing, unsigned"
}

# "-" is standard input and output (bpftool's convention), never a file "-".
t_stdio() {
	payload_and_sig || return 1
	"$bpfsign" sign --key "$keys/signing.key" --cert "$keys/signing.crt" - < p > s.p7s ||
		{ echo "sign - failed"; return 1; }
	cmp -s s.p7s p.p7s || { echo "sign -: not the signature of the payload"; return 1; }
	"$bpfsign" sign --key "$keys/signing.key" --cert "$keys/signing.crt" -o - p > o.p7s &&
		cmp -s o.p7s p.p7s || { echo "sign -o -: not the signature"; return 1; }
	run sh -c '"$1" verify --cert "$2" --payload p - < p.p7s' sh "$bpfsign" "$keys/signing.crt"
	expect_rc 0 "verify SIG -" || return 1
	run sh -c '"$1" verify --cert "$2" --payload - p.p7s < p' sh "$bpfsign" "$keys/signing.crt"
	expect_rc 0 "verify --payload -" || return 1
	run sh -c '"$1" inspect -j - < p.p7s' sh "$bpfsign"
	expect_rc 0 "inspect -" && expect_eq "$(json out file)" - "inspect -: file" || return 1
	run sh -c '"$1" inspect -j - < "$2"' sh "$gl" "$signed"
	expect_rc 0 "gen-loader inspect -" || return 1
	"$gl" "$obj" -o - --name skel_counter --key "$keys/signing.key" --cert "$keys/signing.crt" \
		--btf "$vmlinux" > h.h 2> err || { echo "gen-loader -o - failed"; cat err; return 1; }
	"$gl" "$obj" -o f.h --name skel_counter --key "$keys/signing.key" --cert "$keys/signing.crt" \
		--btf "$vmlinux" || return 1
	cmp -s h.h f.h || { echo "gen-loader -o -: not the header -o FILE writes"; return 1; }
	[ ! -e ./- ] || { echo "a file named '-' was written"; return 1; }
	# stdin is one file: read once
	run "$bpfsign" verify --cert "$keys/signing.crt" --payload - p.p7s p.p7s
	expect_rc 2 "--payload - with two SIG"
}

# -p is -j indented: the same object.
t_pretty() {
	run "$gl" verify -p --cert "$keys/signing.crt" "$signed"
	expect_rc 0 "verify -p" || return 1
	[ "$(wc -l < out)" -gt 10 ] || { echo "-p: not indented"; return 1; }
	mv out p.json
	"$gl" verify -j --cert "$keys/signing.crt" "$signed" > j.json
	python3 -c 'import json, sys; a, b = (json.load(open(f)) for f in sys.argv[1:]); sys.exit(a != b)' \
		p.json j.json || { echo "-p and -j differ"; return 1; }
	payload_and_sig || return 1
	"$bpfsign" inspect --pretty p.p7s > bp.json && python3 -m json.tool bp.json > /dev/null ||
		{ echo "bpfsign inspect --pretty: not JSON"; return 1; }
}

# One version: VERSION, every --version, libbpfsign.h, the man pages, the package.
t_version() {
	local v t
	v=$(cat "$top/VERSION")
	expect_eq "$("$bpfsign" --version | cut -d' ' -f2)" "$v" "bpfsign --version" &&
	expect_eq "$("$gl" --version | cut -d' ' -f2)" "$v" "gen-loader --version" &&
	expect_eq "$("$cli" --version | cut -d' ' -f2)" "$v" "bpfsign-policy --version" &&
	expect_eq "$(sed -n 's/^#define BPFSIGN_VERSION "\(.*\)"/\1/p' "$top/signer/libbpfsign.h")" "$v" \
		"libbpfsign.h BPFSIGN_VERSION" &&
	expect_eq "$(sed -n '1s/^bpfsign (\([^)]*\)).*/\1/p' "$top/debian/changelog")" "$v" \
		"debian/changelog" || return 1
	for t in signer/bpfsign.1 gen-loader/gen-loader.1 gen-loader/bpfsign-bpftool.8 \
		 policies/bpfsign-policy.8; do
		grep -q "^\.TH .* \"bpfsign $v\" " "$top/$t" || { echo "$t: .TH is not bpfsign $v"; return 1; }
	done
}

# Man SYNOPSIS lines are the --help usage lines, which the option table makes.
t_synopsis() {
	"$top/scripts/man-synopsis.sh" --check "$bpfsign" "$top/signer/bpfsign.1" &&
	"$top/scripts/man-synopsis.sh" --check "$gl" "$top/gen-loader/gen-loader.1" &&
	"$top/scripts/man-synopsis.sh" --check "$cli" "$top/policies/bpfsign-policy.8" || return 1
	# the check sees a drift: a page whose SYNOPSIS lacks an option fails it
	sed 's/\[\\-j|\\-\\-json\] //' "$top/signer/bpfsign.1" > drift.1
	! "$top/scripts/man-synopsis.sh" --check "$bpfsign" drift.1 2> /dev/null ||
		{ echo "--check passed a page without -j"; return 1; }
}

# bash completion from --help: commands, then each command's options.
t_completion() {
	complete_words() {	# WORD...: what completing the last word offers
		bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
			_bpfsign_kit; printf "%s\n" "${COMPREPLY[@]}"' sh \
			"$top/common/completion.bash" "$@" | sort | tr '\n' ' '
	}
	expect_eq "$(complete_words "$bpfsign" ver)" "verify " "bpfsign ver" &&
	expect_eq "$(complete_words "$bpfsign" verify --c)" "--ca --cert " "bpfsign verify --c" &&
	expect_eq "$(complete_words "$gl" inspect --)" "--help --json --pretty " "gen-loader inspect --" &&
	expect_eq "$(complete_words "$cli" ch)" "check " "bpfsign-policy ch" &&
	expect_eq "$(complete_words "$cli" check --po)" "--policy " "bpfsign-policy check --po" || return 1
	# installed under each tool's name, where bash-completion looks
	make -s -C "$top/signer" install PREFIX=/usr DESTDIR="$PWD/root" > /dev/null ||
		{ echo "make -C signer install failed"; return 1; }
	[ -f root/usr/share/bash-completion/completions/bpfsign ] ||
		{ echo "no completions/bpfsign installed"; return 1; }
	grep -qx 'usr/share/bash-completion/completions' "$top/debian/bpfsign.install" ||
		{ echo "debian/bpfsign.install does not ship the completions"; return 1; }
}

t "built: bpfsign, gen-loader, bpfsign-policy, the test headers" t_built
t "every JSON key is in common/vocab.h's table, and every entry is used" t_keys_in_table
t "wrong key: ENOKEY (5) from bpfsign and gen-loader, sign refused alike" t_wrong_key
t "junk file: EBADMSG (4) from every command, 9000 bytes EINVAL from both" t_junk
t "unsigned (9) is not tampered (3), in both tools" t_unsigned_vs_tampered
t "modified header: never-computed values are null" t_modified_nulls
t "missing file: ENOENT (1), four keys, from every command" t_missing
t "batch: the worst result's exit code, not the first's" t_batch_worst
t "'-': standard input and output in sign, verify, inspect, gen-loader -o" t_stdio
t "-p/--pretty: the -j object, indented" t_pretty
t "one version: VERSION, --version, libbpfsign.h, man pages, changelog" t_version
t "man SYNOPSIS is --help's usage lines" t_synopsis
t "bash completion: commands and options from --help, installed" t_completion

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
