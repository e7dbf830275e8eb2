#!/bin/sh
# Host tests of signer/: bpfsign against files, OpenSSL, the kernel tree's
# sign-file and a SoftHSM2 token.  TAP, one line per test, and as the last
# line "N passed, N failed".  Runs from any directory.
#
# Usage: tests/host/signer/run.sh [NAME-FILTER]
set -u

top=$(cd "$(dirname "$0")/../../.." && pwd)
build=${BPFSIGN_BUILD:-$top/build}
keys=$top/keys-example
bpfsign=$top/signer/bpfsign

. "$top/tests/host/lib.sh"
. "$top/tests/host/lib-cms.sh"	# ski, seq_attrs_cms
host_test_init bpfsign "$@"

# --- helpers: each failure message says what broke --------------------------

expect_no_output() {	# FILE: neither the file nor a temporary of it exists
	local left
	left=$(ls -d "$1" "$1".?????? 2>/dev/null)
	[ -z "$left" ] && return 0
	echo "expected no output file, found: $left"
	return 1
}

flip_last_byte() {	# IN OUT
	python3 -c 'import sys; b = bytearray(open(sys.argv[1], "rb").read()); b[-1] ^= 1; open(sys.argv[2], "wb").write(b)' "$1" "$2"
}

# mkcert NAME KEYSPEC EXTENSIONS: NAME.key and NAME.crt issued by the test CA
mkcert() {
	openssl genpkey $2 -out "$1.key" 2>/dev/null &&
	openssl req -new -key "$1.key" -subj "/O=bpfsign TEST ONLY/CN=$1" \
		-out "$1.csr" &&
	printf '%b\n' "$3" > "$1.ext" &&
	openssl x509 -req -in "$1.csr" -CA "$keys/ca.crt" -CAkey "$keys/ca.key" \
		-set_serial "0x$(openssl rand -hex 8)" -days 30 -sha256 \
		-extfile "$1.ext" -out "$1.crt" 2>/dev/null
}
leaf_ext='basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\nsubjectKeyIdentifier=hash\nauthorityKeyIdentifier=keyid'
rsa2048='-algorithm RSA -pkeyopt rsa_keygen_bits:2048'

payload() {	# FILE: some bytes to sign
	head -c 1500 /dev/urandom > "$1"
}

sign_rsa() {	# PAYLOAD [ARGS...]
	local p=$1; shift
	"$bpfsign" sign --key "$keys/signing.key" --cert "$keys/signing.crt" "$@" "$p"
}

ossl_verify() {	# SIG PAYLOAD CERT: the issue's interop command
	openssl cms -verify -binary -inform DER -in "$1" -content "$2" \
		-noverify -certfile "$3" -nointern -out /dev/null 2> ossl.err ||
		{ echo "openssl cms -verify refused $1:"; cat ossl.err; return 1; }
}

# --- build ------------------------------------------------------------------

t_verify_kernel_x509_rules() {
	# an ECDSA value the kernel reads but that is not DER (r without the
	# zero byte that keeps it positive, a byte after the SEQUENCE): verified,
	# as the kernel verifies it, with a warning naming it
	payload p
	for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16; do
		run "$bpfsign" sign --key "$keys/signing-ec.key" --cert "$keys/signing-ec.crt" p
		expect_rc 0 "sign P-256" || return 1
		python3 - p.p7s q.p7s <<'PY' && break
import sys
b = bytearray(open(sys.argv[1], "rb").read())
# the signature value is the message's last TLV: 04 L 30 L' 02 lr r 02 ls s
i = next(i for i in range(len(b) - 8, 0, -1)
         if b[i] == 0x04 and b[i + 2] == 0x30 and i + 2 + b[i + 1] == len(b))
r = i + 4
if b[r] != 0x02 or b[r + 1] != 33 or b[r + 2] != 0:
    sys.exit(1)     # r has no leading zero: sign again
v = b[:i + 3] + bytes([b[i + 3] - 1, 0x02, 32]) + b[r + 3:] + b"\x00"
open(sys.argv[2], "wb").write(v)
PY
	done
	[ -f q.p7s ] || { echo "no ECDSA signature with a 33-byte r in 16"; return 1; }
	run "$bpfsign" verify --cert "$keys/signing-ec.crt" --payload p q.p7s
	expect_rc 0 "non-DER ECDSA (the kernel accepts it)" || return 1
	grep -q "warning: the ECDSA signature value is not DER" out ||
		{ echo "no warning in the report:"; cat out; return 1; }
	run "$bpfsign" verify --cert "$keys/signing-ec.crt" p.p7s
	expect_rc 0 "DER ECDSA" || return 1
	! grep -q "warning" out || { echo "a warning on DER:"; cat out; return 1; }
	# the 16 MiB bound of signed bytes: E2BIG before the signature is read
	head -c $((16 * 1024 * 1024 + 1)) /dev/zero > big
	run sign_rsa big
	expect_rc 0 "sign 16 MiB + 1" || return 1
	run "$bpfsign" verify --ca "$keys/kernel-trusted.pem" big.p7s
	expect_rc 7 "16 MiB + 1 signed bytes (E2BIG)" || return 1
	grep -q "E2BIG" err || { cat err; return 1; }
}

t_build() {
	make -s -C "$top/signer" >/dev/null || { echo "make -C signer failed"; return 1; }
	[ -x "$bpfsign" ] && [ -f "$top/signer/libbpfsign.a" ] ||
		{ echo "no signer/bpfsign or signer/libbpfsign.a after make"; return 1; }
}

# --- the library API ---------------------------------------------------------

t_api() {
	cc -std=c11 -Wall -Wextra -Werror -I"$top/signer" -o api_test \
		"$top/tests/host/signer/api_test.c" "$top/signer/libbpfsign.a" -lcrypto ||
		{ echo "cannot build api_test.c against libbpfsign.a"; return 1; }
	run valgrind -q --leak-check=full --error-exitcode=99 ./api_test "$keys"
	cat out
	expect_rc 0 "api_test (99: valgrind error)"
}

# --- sign and verify --------------------------------------------------------

t_rsa_sign_verify() {
	payload p
	run sign_rsa p; expect_rc 0 "sign" || return 1
	[ -s p.p7s ] || { echo "no p.p7s"; return 1; }
	run "$bpfsign" verify --cert "$keys/signing.crt" p.p7s
	expect_rc 0 "verify --cert" || return 1
	run "$bpfsign" verify --ca "$keys/kernel-trusted.pem" p.p7s
	expect_rc 0 "verify --ca kernel-trusted.pem"
}

t_p256_sign_verify() {
	payload p
	run "$bpfsign" sign --key "$keys/signing-ec.key" --cert "$keys/signing-ec.crt" p
	expect_rc 0 "sign P-256" || return 1
	run "$bpfsign" verify --cert "$keys/signing-ec.crt" p.p7s
	expect_rc 0 "verify P-256" || return 1
	ossl_verify p.p7s p "$keys/signing-ec.crt"
}

t_p384_sign_verify() {
	mkcert p384 "-algorithm EC -pkeyopt ec_paramgen_curve:P-384" "$leaf_ext" ||
		{ echo "cannot make a P-384 test key"; return 1; }
	payload p
	run "$bpfsign" sign --key p384.key --cert p384.crt --digest sha384 p
	expect_rc 0 "sign P-384" || return 1
	run "$bpfsign" verify --cert p384.crt --json p.p7s
	expect_rc 0 "verify P-384" || return 1
	expect_eq "$(json out signature_algorithm)" ecdsa-with-SHA384 "P-384 sig alg" &&
	ossl_verify p.p7s p p384.crt
}

t_digests() {
	local d
	payload p
	for d in sha256 sha384 sha512; do
		run sign_rsa p --digest $d --out $d.p7s; expect_rc 0 "sign --digest $d" || return 1
		run "$bpfsign" inspect --json $d.p7s; expect_rc 0 "inspect $d" || return 1
		expect_eq "$(json out digest_algorithm)" $d "digest_algorithm of $d.p7s" || return 1
		ossl_verify $d.p7s p "$keys/signing.crt" || return 1
	done
}

t_key_formats() {
	payload p
	openssl pkey -in "$keys/signing.key" -outform DER -out k.der &&
	openssl rsa -in "$keys/signing.key" -traditional -out k.rsa 2>/dev/null &&
	openssl pkey -in "$keys/signing.key" -aes256 -passout pass:s3cret -out k.enc &&
	openssl x509 -in "$keys/signing.crt" -outform DER -out c.der ||
		{ echo "cannot convert the test key"; return 1; }
	run sign_rsa p --out pem.p7s; expect_rc 0 "sign PEM" || return 1
	run "$bpfsign" sign --key k.der --cert c.der --out der.p7s p
	expect_rc 0 "sign DER key + DER cert" || return 1
	run "$bpfsign" sign --key k.rsa --cert "$keys/signing.crt" --out rsa.p7s p
	expect_rc 0 "sign traditional RSA PEM" || return 1
	run env BPFSIGN_PIN=s3cret "$bpfsign" sign --key k.enc --cert "$keys/signing.crt" --out enc.p7s p
	expect_rc 0 "sign encrypted PEM, passphrase in BPFSIGN_PIN" || return 1
	cmp pem.p7s der.p7s && cmp pem.p7s rsa.p7s && cmp pem.p7s enc.p7s ||
		{ echo "the same key in other encodings signs differently"; return 1; }
}

t_rsa_reproducible() {
	payload p
	run sign_rsa p --out a.p7s; expect_rc 0 "first sign" || return 1
	run sign_rsa p --out b.p7s; expect_rc 0 "second sign" || return 1
	cmp a.p7s b.p7s || { echo "two RSA signatures of the same bytes differ"; return 1; }
}

t_multi_payload() {
	local f
	payload a; payload b; payload c
	run sign_rsa a b c; expect_rc 0 "sign a b c" || return 1
	for f in a b c; do
		run "$bpfsign" verify --cert "$keys/signing.crt" $f.p7s
		expect_rc 0 "verify $f.p7s" || return 1
	done
	expect_eq "$(ls | tr '\n' ' ')" "a a.p7s b b.p7s c c.p7s err out " \
		"files after signing (no temporaries left)"
}

t_empty_payload() {
	: > e
	run sign_rsa e; expect_rc 0 "sign an empty payload" || return 1
	run "$bpfsign" verify --cert "$keys/signing.crt" e.p7s
	expect_rc 0 "verify an empty payload"
}

# --- interop ----------------------------------------------------------------

t_openssl_verifies_bpfsign() {
	payload p
	run sign_rsa p; expect_rc 0 "sign" || return 1
	ossl_verify p.p7s p "$keys/signing.crt"
}

t_bpfsign_equals_openssl_keyid() {
	payload p
	openssl cms -sign -binary -noattr -nocerts -md sha256 -outform DER -keyid \
		-signer "$keys/signing.crt" -inkey "$keys/signing.key" \
		-in p -out o.p7s || { echo "openssl cms -sign failed"; return 1; }
	run "$bpfsign" verify --cert "$keys/signing.crt" --payload p o.p7s
	expect_rc 0 "bpfsign verifies openssl cms -sign -keyid" || return 1
	run sign_rsa p; expect_rc 0 "sign" || return 1
	cmp p.p7s o.p7s || { echo "bpfsign and openssl cms -keyid output differ"; return 1; }
}

t_bpfsign_verifies_openssl_issuer_serial() {
	payload p
	openssl cms -sign -binary -noattr -nocerts -md sha256 -outform DER \
		-signer "$keys/signing.crt" -inkey "$keys/signing.key" \
		-in p -out p.p7s || { echo "openssl cms -sign failed"; return 1; }
	run "$bpfsign" verify --ca "$keys/kernel-trusted.pem" --json p.p7s
	expect_rc 0 "verify issuer+serial form" || return 1
	expect_eq "$(json out signer_id)" issuer-and-serial "signer_id"
}

t_sign_file_interop() {
	local src=$build/linux/scripts/sign-file.c
	[ -f "$src" ] || { echo "$src missing: run 'make kernel' first (BPFSIGN_BUILD=$build)"; return 1; }
	cc -O2 -I"$(dirname "$src")" -o sign-file "$src" -lcrypto 2> cc.err ||
		{ echo "cannot compile $src:"; cat cc.err; return 1; }
	payload m
	./sign-file -d sha256 "$keys/signing.key" "$keys/signing.crt" m ||
		{ echo "sign-file -d failed"; return 1; }
	run "$bpfsign" verify --cert "$keys/signing.crt" m.p7s
	expect_rc 0 "bpfsign verifies sign-file -d (issuer+serial)" || return 1
	./sign-file -dk sha256 "$keys/signing.key" "$keys/signing.crt" m ||
		{ echo "sign-file -dk failed"; return 1; }
	run "$bpfsign" verify --ca "$keys/kernel-trusted.pem" m.p7s
	expect_rc 0 "bpfsign verifies sign-file -dk" || return 1
	run sign_rsa m --out b.p7s; expect_rc 0 "sign" || return 1
	cmp b.p7s m.p7s || { echo "bpfsign and sign-file -dk output differ"; return 1; }
}

# VERIFYING_BPF_SIGNATURE refuses signed attributes, as module signatures do
# (a key's signature over any attribute SET would vouch for any program);
# S/MIME capabilities (openssl's default) are refused by the parser first.
t_verify_signed_attrs_form() {
	payload p
	openssl cms -sign -binary -md sha256 -outform DER -signer "$keys/signing.crt" \
		-inkey "$keys/signing.key" -in p -out caps.p7s &&
	openssl cms -sign -binary -nosmimecap -md sha256 -outform DER -signer "$keys/signing.crt" \
		-inkey "$keys/signing.key" -in p -out p.p7s || { echo "openssl cms -sign failed"; return 1; }
	# pins the parser's S/MIME capabilities check
	run "$bpfsign" verify --cert "$keys/signing.crt" --json --payload p caps.p7s
	expect_rc 3 "verify a signature with S/MIME capabilities" || return 1
	expect_eq "$(json out error)" EKEYREJECTED "error of S/MIME capabilities" || return 1
	expect_err "S/MIME capabilities" || return 1
	# pins VERIFYING_BPF_SIGNATURE's signed-attributes refusal (the signature itself is good)
	run "$bpfsign" verify --cert "$keys/signing.crt" --json --payload p p.p7s
	expect_rc 3 "verify a signature with signed attributes" || return 1
	expect_eq "$(json out error)" EKEYREJECTED "error of signed attributes" || return 1
	expect_eq "$(json out kernel_ok)" False "kernel_ok of a signed-attribute form" || return 1
	expect_eq "$(json out signed_attributes)" True "signed_attributes" || return 1
	expect_err "has signed attributes" || return 1
	expect_err "sign with -noattr" || return 1
	# the same bytes signed without attributes verify
	openssl cms -sign -binary -noattr -md sha256 -outform DER -signer "$keys/signing.crt" \
		-inkey "$keys/signing.key" -in p -out n.p7s || { echo "openssl cms -sign failed"; return 1; }
	run "$bpfsign" verify --cert "$keys/signing.crt" --payload p n.p7s
	expect_rc 0 "the same payload signed with -noattr"
}

# --- refusals when signing: exit 1, a message naming the file, no output ----

t_refuse_sha1() {
	payload p
	# the digest allow-list (sha256/384/512) is checked before any key is read
	run sign_rsa p --digest sha1
	expect_rc 1 "sign --digest sha1" && expect_err "digest 'sha1' refused" &&
	expect_no_output p.p7s
}

t_refuse_rsa1024() {
	mkcert small "-algorithm RSA -pkeyopt rsa_keygen_bits:1024" "$leaf_ext" ||
		{ echo "cannot make an RSA-1024 test key"; return 1; }
	payload p
	# the key-size check: the cert matches and has digitalSignature
	run "$bpfsign" sign --key small.key --cert small.crt p
	expect_rc 1 "sign with RSA-1024" &&
	expect_err "small.key: RSA key of 1024 bits refused" && expect_no_output p.p7s
}

t_refuse_mismatch() {
	payload p
	# the key/cert match: team.crt is a valid RSA-2048 signing cert, just not signing.key's
	run "$bpfsign" sign --key "$keys/signing.key" --cert "$keys/team.crt" p
	expect_rc 1 "sign with a mismatched cert" &&
	expect_err "signing.key: key does not match certificate" && expect_no_output p.p7s
}

t_refuse_no_digital_signature() {
	mkcert nods "$rsa2048" 'basicConstraints=critical,CA:FALSE\nkeyUsage=critical,keyEncipherment\nsubjectKeyIdentifier=hash' ||
		{ echo "cannot make a keyEncipherment-only cert"; return 1; }
	payload p
	# the keyUsage check: key and cert match, RSA-2048, SKI present
	run "$bpfsign" sign --key nods.key --cert nods.crt p
	expect_rc 1 "sign with a cert without digitalSignature" &&
	expect_err "nods.crt: certificate refused: its keyUsage lacks digitalSignature" &&
	expect_no_output p.p7s
}

t_refuse_no_ski() {
	mkcert noski "$rsa2048" 'basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\nsubjectKeyIdentifier=none' ||
		{ echo "cannot make a cert without SKI"; return 1; }
	payload p
	# the SKI check: without it the kernel cannot find the signer
	run "$bpfsign" sign --key noski.key --cert noski.crt p
	expect_rc 1 "sign with a cert without SKI" &&
	expect_err "noski.crt: certificate refused: no subjectKeyIdentifier" &&
	expect_no_output p.p7s
}

t_refuse_unreadable() {
	payload p
	mkdir d
	echo "not a key" > junk
	# open() of a missing key file
	run "$bpfsign" sign --key missing.key --cert "$keys/signing.crt" p
	expect_rc 1 "missing key" && expect_err "missing.key: No such file or directory" &&
	expect_no_output p.p7s || return 1
	# read of a directory given as the cert
	run "$bpfsign" sign --key "$keys/signing.key" --cert d p
	expect_rc 1 "directory as cert" && expect_err "d: Is a directory" &&
	expect_no_output p.p7s || return 1
	# the key decoder: the file reads fine but holds no key
	run "$bpfsign" sign --key junk --cert "$keys/signing.crt" p
	expect_rc 1 "junk key" && expect_err "junk: not a PEM or DER private key" &&
	expect_no_output p.p7s || return 1
	# the cert parser: a key file is not a certificate
	run "$bpfsign" sign --key "$keys/signing.key" --cert "$keys/signing.key" p
	expect_rc 1 "key as cert" && expect_err "signing.key: not a PEM or DER certificate" &&
	expect_no_output p.p7s || return 1
	# reading a payload: the signer loaded fine
	run sign_rsa nopayload
	expect_rc 1 "missing payload" && expect_err "nopayload: No such file or directory" &&
	expect_no_output nopayload.p7s
}

t_refuse_all_or_nothing() {
	payload a; payload b
	# one unreadable payload among readable ones: nothing is written at all
	run sign_rsa a missing b
	expect_rc 1 "sign a missing b" && expect_err "missing: No such file" &&
	expect_no_output a.p7s && expect_no_output b.p7s
}

t_refuse_bad_out_dir() {
	payload p
	# creating the temporary output file: the signing itself succeeded
	run sign_rsa p --out nodir/p.p7s
	expect_rc 1 "--out in a missing directory" &&
	expect_err "nodir/p.p7s: No such file or directory" && expect_no_output nodir/p.p7s
}

t_usage_errors() {
	payload p; payload q
	# the option table: --out with several payloads is a usage error
	run sign_rsa p q --out x.p7s
	expect_rc 2 "--out with two payloads" && expect_err "Usage: bpfsign sign" &&
	expect_no_output x.p7s || return 1
	# the { --cert | --ca } group: exactly one
	run "$bpfsign" verify --cert "$keys/signing.crt" --ca "$keys/ca.crt" x.p7s
	expect_rc 2 "verify with --cert and --ca" && expect_err "exactly one" || return 1
	# the required --key of the table
	run "$bpfsign" sign --cert "$keys/signing.crt" p
	expect_rc 2 "sign without --key" && expect_err "--key is required" || return 1
	# unknown options are refused, not ignored
	run "$bpfsign" inspect --bogus x
	expect_rc 2 "inspect --bogus" && expect_err "bad option '--bogus'"
}

# --- refusals when verifying: one exit code per failure class ----------------

t_verify_tampered_payload() {
	payload p
	run sign_rsa p; expect_rc 0 "sign" || return 1
	echo x >> p
	# the signature check itself: parse, signer lookup and key type all pass
	run "$bpfsign" verify --cert "$keys/signing.crt" p.p7s
	expect_rc 3 "tampered payload" && expect_err "digest mismatch"
}

t_verify_tampered_sig() {
	payload p
	run sign_rsa p; expect_rc 0 "sign" || return 1
	flip_last_byte p.p7s t.p7s
	# the last byte is inside the signature value: the DER still parses
	run "$bpfsign" verify --cert "$keys/signing.crt" --payload p t.p7s
	expect_rc 3 "tampered signature value" && expect_err "digest mismatch"
}

t_verify_wrong_cert() {
	payload p
	run sign_rsa p; expect_rc 0 "sign" || return 1
	# the signer lookup by SKI: team.crt is a fine RSA cert, just not the signer
	run "$bpfsign" verify --cert "$keys/team.crt" p.p7s
	expect_rc 5 "wrong cert" && expect_err "unknown signer" || return 1
	"$bpfsign" sign --key "$keys/untrusted.key" --cert "$keys/untrusted.crt" p 2>/dev/null
	# the keyring lookup: untrusted.crt is not in kernel-trusted.pem
	run "$bpfsign" verify --ca "$keys/kernel-trusted.pem" p.p7s
	expect_rc 5 "untrusted signer against the keyring" && expect_err "unknown signer"
}

t_verify_wrong_key_type() {
	local id
	id=$(openssl x509 -in "$keys/signing-ec.crt" -noout -ext subjectKeyIdentifier | sed -n 2p | tr -d ' ')
	mkcert fake "$rsa2048" "keyUsage=critical,digitalSignature\nsubjectKeyIdentifier=$id" ||
		{ echo "cannot make an RSA cert with the EC cert's SKI"; return 1; }
	payload p
	"$bpfsign" sign --key "$keys/signing-ec.key" --cert "$keys/signing-ec.crt" p
	# public_key_verify_signature(): the SKI matches, so the key is found;
	# an ECDSA signature with an RSA key is EKEYREJECTED, as the kernel says
	run "$bpfsign" verify --cert fake.crt p.p7s
	expect_rc 3 "ECDSA signature, RSA cert with the same SKI" &&
	expect_err "does not verify with the keyring's key"
}

t_verify_sha1_refused() {
	payload p
	openssl cms -sign -binary -noattr -nocerts -md sha1 -outform DER -keyid \
		-signer "$keys/signing.crt" -inkey "$keys/signing.key" -in p -out p.p7s 2>/dev/null ||
		{ echo "openssl cms -sign -md sha1 failed"; return 1; }
	# the digest allow-list on verify: the signer and key type are right
	run "$bpfsign" verify --cert "$keys/signing.crt" p.p7s
	expect_rc 6 "SHA-1 signature" && expect_err "digest sha1: not in the kernel's crypto API"
}

t_verify_malformed() {
	payload p
	head -c 400 /dev/urandom > r.p7s
	# the DER parser: random bytes
	run "$bpfsign" verify --cert "$keys/signing.crt" --payload p r.p7s
	expect_rc 4 "random bytes" && expect_err "not BER the kernel's decoder takes" || return 1
	printf '\060\003\002\001\001' > s.p7s
	# the DER parser: a well-formed SEQUENCE that is no ContentInfo
	run "$bpfsign" verify --cert "$keys/signing.crt" --payload p s.p7s
	expect_rc 4 "a DER INTEGER in a SEQUENCE" && expect_err "not BER the kernel's decoder takes"
}

t_verify_truncated() {
	payload p
	run sign_rsa p; expect_rc 0 "sign" || return 1
	head -c -10 p.p7s > t.p7s
	# the DER parser: the outer length runs past the end
	run "$bpfsign" verify --cert "$keys/signing.crt" --payload p t.p7s
	expect_rc 4 "truncated signature" && expect_err "not BER the kernel's decoder takes" || return 1
	{ cat p.p7s; printf 'X'; } > g.p7s
	# the kernel's decoder stops at the end of the message: trailing bytes pass
	run "$bpfsign" verify --cert "$keys/signing.crt" --payload p g.p7s
	expect_rc 0 "trailing bytes after the message"
}

t_verify_unreadable() {
	payload p
	run sign_rsa p; expect_rc 0 "sign" || return 1
	# reading the signature file
	run "$bpfsign" verify --cert "$keys/signing.crt" --payload p missing.p7s
	expect_rc 1 "missing signature" && expect_err "missing.p7s: No such file" || return 1
	# the certificate parser in verify
	run "$bpfsign" verify --cert "$keys/signing.key" p.p7s
	# not a certificate: EBADMSG (4), not the kernel parser's EINVAL (7)
	expect_rc 4 "key given as cert" && expect_err "not a PEM or DER certificate"
}

t_verify_json_failure() {
	payload p
	run sign_rsa p; expect_rc 0 "sign" || return 1
	echo x >> p
	# the same digest mismatch as above, reported through --json
	run "$bpfsign" verify --cert "$keys/signing.crt" --json p.p7s
	expect_rc 3 "--json tampered" || return 1
	expect_eq "$(json out verified)" False "verified" &&
	expect_eq "$(json out error)" EKEYREJECTED "error" &&
	case $(json out reason) in *"digest mismatch"*) ;; *) echo "reason: $(json out reason)"; false ;; esac
}

# --- the kernel's rules (bpfsign.1, KERNEL RULES) ---------------------------

# patch IN OUT N OLD NEW: replace the Nth (0-based) occurrence of the hex
# bytes OLD by NEW (same length: the DER lengths stay right)
patch() {
	python3 - "$@" <<-'EOF'
	import sys
	src, dst, n, old, new = sys.argv[1], sys.argv[2], int(sys.argv[3]), bytes.fromhex(sys.argv[4]), bytes.fromhex(sys.argv[5])
	b = open(src, "rb").read()
	i = -1
	for _ in range(n + 1):
	    i = b.index(old, i + 1)
	open(dst, "wb").write(b[:i] + new + b[i + len(old):])
	EOF
}
sha256_oid=608648016503040201

# reoid IN OUT N OLD NEW: give the Nth (0-based) OBJECT IDENTIFIER whose
# content is the hex OLD the content NEW, of any length: every element around
# it is re-lengthed, so only the OID's own encoding differs
reoid() {
	python3 - "$@" <<-'EOF'
	import sys
	src, dst, n, old, new = sys.argv[1], sys.argv[2], int(sys.argv[3]), bytes.fromhex(sys.argv[4]), bytes.fromhex(sys.argv[5])
	seen = [0]
	def length(k):
	    if k < 0x80:
	        return bytes([k])
	    b = k.to_bytes((k.bit_length() + 7) // 8, "big")
	    return bytes([0x80 | len(b)]) + b
	def walk(b):
	    out, i = b"", 0
	    while i < len(b):
	        tag, k, i = b[i], b[i + 1], i + 2
	        if k & 0x80:
	            k, i = int.from_bytes(b[i:i + (k & 0x7f)], "big"), i + (k & 0x7f)
	        body, i = b[i:i + k], i + k
	        if tag & 0x20:
	            body = walk(body)
	        elif tag == 0x06 and body == old:
	            if seen[0] == n:
	                body = new
	            seen[0] += 1
	        out += bytes([tag]) + length(len(body)) + body
	    return out
	b = walk(open(src, "rb").read())
	if seen[0] <= n:
	    sys.exit("reoid: no OID %s number %d" % (old.hex(), n))
	open(dst, "wb").write(b)
	EOF
}

t_kernel_versions() {
	payload p
	run sign_rsa p; expect_rc 0 "sign" || return 1
	# pkcs7_note_signeddata_version(): SignedData version 2 is neither 1 nor 3
	patch p.p7s v2.p7s 0 020103 020102 || return 1
	run "$bpfsign" verify --json --cert "$keys/signing.crt" --payload p v2.p7s
	expect_rc 7 "SignedData version 2" && expect_err "SignedData version is not 1 or 3" &&
	expect_eq "$(json out error)" EINVAL "error of SignedData version 2" || return 1
	# pkcs7_note_signerinfo_version(): SignerInfo 1 inside SignedData 3 (skid form)
	patch p.p7s si1.p7s 1 020103 020101 || return 1
	run "$bpfsign" verify --cert "$keys/signing.crt" --payload p si1.p7s
	expect_rc 4 "SignerInfo version 1 in SignedData 3" && expect_err "version mismatch" || return 1
	# SignerInfo version 4: unsupported
	patch p.p7s si4.p7s 1 020103 020104 || return 1
	run "$bpfsign" verify --cert "$keys/signing.crt" --payload p si4.p7s
	expect_rc 7 "SignerInfo version 4" && expect_err "SignerInfo version is not 1 or 3"
}

t_kernel_digest_algorithms() {
	payload p
	run sign_rsa p; expect_rc 0 "sign" || return 1
	# the outer digestAlgorithms set is only noted, never checked
	patch p.p7s outer.p7s 0 $sha256_oid 60864801650304027f || return 1
	run "$bpfsign" verify --cert "$keys/signing.crt" --payload p outer.p7s
	expect_rc 0 "an unknown OID in the outer digestAlgorithms" || return 1
	# pkcs7_sig_note_digest_algo(): the SignerInfo's own digest OID, unknown
	patch p.p7s inner.p7s 1 $sha256_oid 60864801650304027f || return 1
	run "$bpfsign" verify --cert "$keys/signing.crt" --payload p inner.p7s
	expect_rc 6 "an unknown SignerInfo digest" && expect_err "unsupported digest algorithm" || return 1
	# SHA-224 is in the kernel's crypto API (with sha256): it verifies
	openssl cms -sign -binary -noattr -nocerts -keyid -md sha224 -outform DER \
		-signer "$keys/signing.crt" -inkey "$keys/signing.key" -in p -out s224.p7s ||
		{ echo "openssl cms -sign -md sha224 failed"; return 1; }
	run "$bpfsign" verify --cert "$keys/signing.crt" --payload p s224.p7s
	expect_rc 0 "a SHA-224 signature"
}

# pkcs7_validate_trust(): a signer outside the keyring whose certificate is
# embedded and issued by a keyring key is trusted; without it, ENOKEY.
t_kernel_chain() {
	payload p
	openssl cms -sign -binary -noattr -md sha256 -outform DER -signer "$keys/team.crt" \
		-inkey "$keys/team.key" -in p -out chain.p7s &&
	openssl cms -sign -binary -noattr -nocerts -keyid -md sha256 -outform DER \
		-signer "$keys/team.crt" -inkey "$keys/team.key" -in p -out direct.p7s ||
		{ echo "openssl cms -sign failed"; return 1; }
	run "$bpfsign" verify --json --ca "$keys/kernel-trusted.pem" --payload p chain.p7s
	expect_rc 0 "team.crt embedded, the CA in the keyring" || return 1
	case $(json out signer) in *"test CA"*) ;; *) echo "signer: $(json out signer)"; return 1 ;; esac
	# the same key by subject key identifier, no certificate: no key to find
	run "$bpfsign" verify --ca "$keys/kernel-trusted.pem" --payload p direct.p7s
	expect_rc 5 "team.key without its certificate" && expect_err "unknown signer"
}

# look_up_OID() compares the encoded bytes: a non-minimal encoding (0x80
# before a subidentifier's first byte, which X.690 8.19.2 forbids) of a
# known OID is an unknown OID, as in the kernel
t_kernel_oid_encoding() {
	payload p
	run sign_rsa p; expect_rc 0 "sign" || return 1
	# pins look_up_oid()'s exact match: SignerInfo digest sha256, padded
	reoid p.p7s digest.p7s 1 $sha256_oid 60808648016503040201 || return 1
	run "$bpfsign" verify --json --cert "$keys/signing.crt" --payload p digest.p7s
	expect_rc 6 "a padded SignerInfo digest OID" && expect_err "unsupported digest algorithm" &&
	expect_eq "$(json out error)" ENOPKG "error of a padded digest OID" || return 1
	# pins that the outer digestAlgorithms set is only noted, padded or not
	reoid p.p7s outer.p7s 0 $sha256_oid 60808648016503040201 || return 1
	run "$bpfsign" verify --cert "$keys/signing.crt" --payload p outer.p7s
	expect_rc 0 "a padded OID in the outer digestAlgorithms" || return 1
	# pins pkcs7_sig_note_pkey_algo(): rsaEncryption, padded
	reoid p.p7s pkey.p7s 0 2a864886f70d010101 2a864886f70d01800101 || return 1
	run "$bpfsign" verify --json --cert "$keys/signing.crt" --payload p pkey.p7s
	expect_rc 6 "a padded signature algorithm OID" &&
	expect_eq "$(json out error)" ENOPKG "error of a padded signature OID" || return 1
	# the helper itself: the same OID back gives the same bytes
	reoid p.p7s same.p7s 1 $sha256_oid $sha256_oid && cmp -s p.p7s same.p7s ||
		{ echo "reoid changed bytes it should have kept"; return 1; }
}

# bpf_prog_verify_signature(): at most KMALLOC_MAX_CACHE_SIZE bytes
t_kernel_size_bound() {
	payload p
	run sign_rsa p; expect_rc 0 "sign" || return 1
	{ cat p.p7s; head -c $((8192 - $(stat -c %s p.p7s))) /dev/zero; } > max.p7s
	run "$bpfsign" verify --cert "$keys/signing.crt" --payload p max.p7s
	expect_rc 0 "8192 bytes (trailing zeros)" || return 1
	{ cat max.p7s; printf 'X'; } > big.p7s
	run "$bpfsign" verify --cert "$keys/signing.crt" --payload p big.p7s
	expect_rc 7 "8193 bytes" && expect_err "BPF_PROG_LOAD takes 1 to 8192"
}

# Batch mode: many SIGs, the certificates read once, one JSON line each.
t_verify_batch() {
	local i
	for i in 1 2 3; do payload p$i; sign_rsa p$i || return 1; done
	echo x >> p2
	# the first cannot be read (1), the third is a digest mismatch (3)
	run "$bpfsign" verify --json --ca "$keys/kernel-trusted.pem" missing.p7s p1.p7s p2.p7s p3.p7s
	# the worst failure's code, not the first one's (vocab.h exit_rank())
	expect_rc 3 "batch: the exit code of the worst failure (EKEYREJECTED)" || return 1
	expect_eq "$(wc -l < out)" 4 "one JSON line per signature" || return 1
	python3 - out <<-'EOF' || return 1
	import json, sys
	rows = [json.loads(l) for l in open(sys.argv[1])]
	got = [(r.get("verified"), r["error"], r["errno"]) for r in rows]
	want = [(None, "ENOENT", 2), (True, "OK", 0), (False, "EKEYREJECTED", 129), (True, "OK", 0)]
	if got != want:
	    sys.exit("batch verdicts: %s, expected %s" % (got, want))
	EOF
	expect_err "2 of 4 signatures failed; the worst: signature: digest mismatch"
}

# --json: a failure before any report is still one JSON object
t_verify_json_error_object() {
	payload p
	sign_rsa p || return 1
	run "$bpfsign" verify --json --cert missing.crt p.p7s
	expect_rc 1 "a missing certificate" || return 1
	expect_eq "$(json out error)" ENOENT "error" &&
	expect_eq "$(json out errno)" 2 "errno" &&
	expect_eq "$(wc -l < out)" 1 "one JSON object"
}

# --- inspect ----------------------------------------------------------------

t_inspect_json() {
	payload p
	run sign_rsa p; expect_rc 0 "sign" || return 1
	run "$bpfsign" inspect --json p.p7s; expect_rc 0 "inspect" || return 1
	expect_eq "$(json out digest_algorithm)" sha256 digest_algorithm &&
	expect_eq "$(json out signature_algorithm)" rsaEncryption signature_algorithm &&
	expect_eq "$(json out key_type)" RSA key_type &&
	expect_eq "$(json out signer_id)" subject-key-identifier signer_id &&
	expect_eq "$(json out key_id)" "$(ski "$keys/signing.crt")" "key_id = SKI of signing.crt" &&
	# signature_size is the blob, as BPF_PROG_LOAD's; the raw RSA value is 256
	expect_eq "$(json out signature_size)" "$(stat -c %s p.p7s)" signature_size &&
	expect_eq "$(json out signature_value_size)" 256 signature_value_size &&
	expect_eq "$(json out signers)" 1 signers &&
	expect_eq "$(json out certificates)" 0 certificates &&
	expect_eq "$(json out signed_attributes)" False signed_attributes &&
	expect_eq "$(json out detached)" True detached &&
	expect_eq "$(json out kernel_ok)" True kernel_ok &&
	expect_eq "$(json out kernel_reason)" "" kernel_reason &&
	# no key given: who signed is the key id; no issuer, no subject
	expect_eq "$(json out issuer)" None issuer &&
	expect_eq "$(json out signer)" None signer
}

# The key's identity as the kernel records it (fdinfo sig_key_sha256):
# SHA-256 of the subjectPublicKey BIT STRING contents, here from openssl
key_sha256() {	# CERT
	case $(openssl x509 -in "$1" -noout -text | grep -m1 'Public Key Algorithm') in
	*rsaEncryption*)
		openssl x509 -in "$1" -noout -pubkey |
			openssl rsa -pubin -RSAPublicKey_out -outform DER 2>/dev/null ;;
	*)
		openssl x509 -in "$1" -noout -pubkey |
			openssl ec -pubin -outform DER -conv_form uncompressed 2>/dev/null |
			tail -c 65 ;;
	esac | sha256sum | cut -c1-64
}

t_key_sha256() {
	local rsa ec
	rsa=$(key_sha256 "$keys/signing.crt") && ec=$(key_sha256 "$keys/signing-ec.crt") || return 1
	payload p
	run sign_rsa p; expect_rc 0 "sign" || return 1
	# verify: the key that verified it, by --cert and as one key of a bundle
	run "$bpfsign" verify --json --cert "$keys/signing.crt" p.p7s
	expect_rc 0 "verify --cert" && expect_eq "$(json out key_sha256)" "$rsa" "verify --cert key_sha256" ||
		return 1
	run "$bpfsign" verify --json --ca "$keys/kernel-trusted.pem" p.p7s
	expect_rc 0 "verify --ca" && expect_eq "$(json out key_sha256)" "$rsa" "verify --ca key_sha256" ||
		return 1
	# not verified: no key's digest
	run "$bpfsign" verify --json --cert "$keys/signing-ec.crt" p.p7s
	expect_eq "$(json out key_sha256)" None "failed verify: key_sha256 null" || return 1
	# inspect: of the certificate given, null without one
	"$bpfsign" sign --key "$keys/signing-ec.key" --cert "$keys/signing-ec.crt" --out e.p7s p ||
		return 1
	run "$bpfsign" inspect --json --cert "$keys/signing-ec.crt" e.p7s
	expect_rc 0 "inspect --cert" && expect_eq "$(json out key_sha256)" "$ec" "inspect --cert (P-256)" ||
		return 1
	# pins cert_is_signer(): a certificate the SignerInfo does not name gets
	# no digest, ENOKEY (5), whether named by key id or issuer and serial
	run "$bpfsign" inspect --json --cert "$keys/signing-ec.crt" p.p7s
	expect_rc 5 "inspect --cert of another signer" &&
	expect_eq "$(json out key_sha256)" None "no key_sha256 for another signer" &&
	expect_eq "$(json out error)" ENOKEY "its error" &&
	expect_err "not the signer the signature names" || return 1
	openssl cms -sign -binary -noattr -nocerts -md sha256 -outform DER \
		-signer "$keys/signing.crt" -inkey "$keys/signing.key" -in p -out is.p7s || return 1
	run "$bpfsign" inspect --json --cert "$keys/signing.crt" is.p7s
	expect_rc 0 "inspect --cert, issuer and serial" &&
	expect_eq "$(json out key_sha256)" "$rsa" "inspect --cert, issuer and serial" || return 1
	run "$bpfsign" inspect --json --cert "$keys/signing-ec.crt" is.p7s
	expect_rc 5 "inspect --cert of another issuer and serial" || return 1
	run "$bpfsign" inspect --json p.p7s
	expect_eq "$(json out key_sha256)" None "inspect without --cert: null" || return 1
	run "$bpfsign" inspect --cert "$keys/signing.crt" p.p7s
	grep -qx "key_sha256: $rsa" out || { echo "text output:"; cat out; return 1; }
	# an unreadable certificate: the file is named, exit 1
	run "$bpfsign" inspect --cert nosuch.crt p.p7s
	expect_rc 1 "inspect --cert nosuch.crt" && expect_err "nosuch.crt" || return 1
	# not a certificate: EBADMSG (4), the file named in the failure object
	run "$bpfsign" inspect --json --cert "$keys/signing.key" p.p7s
	expect_rc 4 "inspect --cert KEY" && expect_eq "$(json out file)" "$keys/signing.key" "failure file" &&
		expect_eq "$(json out error)" EBADMSG "failure error"
}

# A signer trusted through its issuer: team A's key certified a leaf that
# signed; A never signed the data, so no key is recorded (as the kernel's
# pkcs7_get_trusted_key(); guest: attack_sig_key_chain_names_issuer)
t_key_sha256_chain() {
	openssl ecparam -name prime256v1 -genkey -noout -out leaf.key &&
	openssl req -new -key leaf.key -subj "/CN=leaf of A" -out leaf.csr &&
	printf 'subjectKeyIdentifier=hash\nauthorityKeyIdentifier=keyid\n' > ext.cnf &&
	openssl x509 -req -in leaf.csr -CA "$keys/signing.crt" -CAkey "$keys/signing.key" \
		-set_serial 7 -days 30 -extfile ext.cnf -out leaf.crt 2>/dev/null ||
		{ echo "openssl: no leaf"; return 1; }
	payload p
	openssl cms -sign -binary -noattr -md sha256 -in p -signer leaf.crt -inkey leaf.key \
		-outform DER -out p.p7s || { echo "openssl cms -sign failed"; return 1; }
	run "$bpfsign" verify --json --cert "$keys/signing.crt" p.p7s
	expect_rc 0 "verify of the leaf's signature" &&
	expect_eq "$(json out verified)" True "verified through A" &&
	expect_eq "$(json out key_sha256)" None "no key recorded: A did not sign the data"
}

t_inspect_human_matches_json() {
	payload p
	run sign_rsa p; expect_rc 0 "sign" || return 1
	"$bpfsign" inspect --json p.p7s > j && "$bpfsign" inspect p.p7s > h ||
		{ echo "inspect failed"; return 1; }
	# one code path: the same keys, in the same order ("key: value" lines)
	expect_eq "$(sed 's/: .*//' h | tr '\n' ' ')" \
		"$(python3 -c 'import json,sys; print(" ".join(json.load(open(sys.argv[1]))) + " ")' j)" \
		"human keys vs JSON keys" || return 1
	# booleans: yes/no for people, true/false for JSON
	grep -qx 'kernel_ok: yes' h && grep -qF '"kernel_ok": true' j ||
		{ echo "kernel_ok, human and JSON:"; grep kernel_ok h; cat j; return 1; }
}

t_report_escapes() {
	local name
	name=$(printf 'caf\303\251\tx\177.p7s')
	payload p
	run sign_rsa p --out "$name"; expect_rc 0 "sign --out '$name'" || return 1
	run "$bpfsign" inspect --json "$name"; expect_rc 0 "inspect" || return 1
	# UTF-8 passes through as it is; a tab and DEL are escaped
	grep -qF "$(printf '"file": "caf\303\251\\u0009x\\u007f.p7s"')" out ||
		{ echo "file not escaped as expected:"; cat out; return 1; }
	expect_eq "$(json out file)" "$name" "the name read back from the JSON"
}

t_inspect_flags_kernel_refusals() {
	payload p
	openssl cms -sign -binary -md sha256 -outform DER -signer "$keys/signing.crt" \
		-inkey "$keys/signing.key" -in p -out attrs.p7s &&
	openssl cms -sign -binary -noattr -md sha256 -outform DER -signer "$keys/signing.crt" \
		-inkey "$keys/signing.key" -in p -out certs.p7s ||
		{ echo "openssl cms -sign failed"; return 1; }
	# openssl's default attributes include S/MIME capabilities: the parser refuses them
	run "$bpfsign" inspect --json attrs.p7s
	expect_rc 3 "inspect of a form with S/MIME capabilities" || return 1
	expect_eq "$(json out kernel_ok)" False kernel_ok &&
	expect_eq "$(json out signed_attributes)" True signed_attributes &&
	expect_eq "$(json out kernel_error)" EKEYREJECTED kernel_error &&
	case $(json out kernel_reason) in *"S/MIME capabilities"*) ;; *) echo "reason: $(json out kernel_reason)"; false ;; esac || return 1
	# pins VERIFYING_BPF_SIGNATURE's signed-attributes refusal: a form report, refused
	openssl cms -sign -binary -nosmimecap -md sha256 -outform DER -signer "$keys/signing.crt" \
		-inkey "$keys/signing.key" -in p -out sa.p7s || { echo "openssl cms -sign failed"; return 1; }
	run "$bpfsign" inspect --json sa.p7s
	expect_rc 3 "inspect of a form with signed attributes" || return 1
	expect_eq "$(json out kernel_ok)" False kernel_ok &&
	expect_eq "$(json out signed_attributes)" True signed_attributes &&
	expect_eq "$(json out kernel_error)" EKEYREJECTED kernel_error &&
	case $(json out kernel_reason) in *"has signed attributes"*"-noattr"*) ;; *) echo "reason: $(json out kernel_reason)"; false ;; esac || return 1
	# embedded certificates: the kernel takes them (and may chain through them)
	run "$bpfsign" inspect --json certs.p7s
	expect_rc 0 "inspect of a form with certificates" || return 1
	expect_eq "$(json out certificates)" 1 certificates &&
	expect_eq "$(json out kernel_ok)" True kernel_ok
}

# same_fields A B KEY...: the JSON reports A and B have the same keys and
# agree on every value but those of KEYs
same_fields() {
	python3 - "$@" <<-'EOF'
	import json, sys
	a, b = (json.load(open(f)) for f in sys.argv[1:3])
	diff = [k for k in a if k not in sys.argv[3:] and a[k] != b.get(k)]
	for k in diff:
	    print("%s: %r in %s, %r in %s" % (k, b.get(k), sys.argv[2], a[k], sys.argv[1]))
	sys.exit(1 if diff or a.keys() != b.keys() else 0)
	EOF
}

t_attrs_seq_form() {
	# the attacker of tests/guest attack_round3_sig_attrs_explicit_seq_over_data:
	# attributes naming its program (attacker.bin) in the [2] form, next to
	# A's signature of A's own payload.  The kernel loads it as A's, over
	# A's payload only; the tools must say that, not "signed attributes"
	# nor nulls (OpenSSL cannot read the [2] form).
	payload p
	payload attacker.bin
	local k="$keys/signing.key" c="$keys/signing.crt"
	seq_attrs_cms plain.p7s "$k" "$c" p - && seq_attrs_cms seq.p7s "$k" "$c" p attacker.bin &&
	seq_attrs_cms smime.p7s "$k" "$c" p attacker.bin smime &&
	seq_attrs_cms ua.p7s "$k" "$c" p - ua-seq || return 1
	run "$bpfsign" inspect --json --cert "$keys/signing.crt" plain.p7s
	expect_rc 0 "inspect the form without attributes" || return 1
	mv out plain.json
	expect_eq "$(json plain.json ignored_attributes)" False "ignored_attributes without a [2] block" || return 1
	# pins the report from the kernel's parser: the [2] form is not signed attributes
	run "$bpfsign" inspect --json --cert "$keys/signing.crt" seq.p7s
	expect_rc 0 "inspect the [2] form (the kernel takes it)" || return 1
	expect_eq "$(json out signed_attributes)" False "signed_attributes of the [2] form" &&
	expect_eq "$(json out ignored_attributes)" True "ignored_attributes of the [2] form" &&
	expect_eq "$(json out kernel_ok)" True "kernel_ok of the [2] form" &&
	expect_eq "$(json out crls)" None "crls: the kernel's parser does not count them" &&
	same_fields plain.json out file signature_size crls ignored_attributes || return 1
	# pins verify: over A's payload it verifies, as A's key, with a warning
	run "$bpfsign" verify --json --cert "$keys/signing.crt" --payload p seq.p7s
	expect_rc 0 "verify the [2] form over the signed payload" || return 1
	expect_eq "$(json out verified)" True verified &&
	expect_eq "$(json out signed_attributes)" False "verify: signed_attributes" &&
	expect_eq "$(json out ignored_attributes)" True "verify: ignored_attributes" &&
	expect_eq "$(json out kernel_ok)" True "verify: kernel_ok" &&
	expect_eq "$(json out signer_id)" subject-key-identifier "verify: signer_id" &&
	expect_eq "$(json out key_id)" "$(ski "$keys/signing.crt")" "verify: key_id" &&
	expect_eq "$(json out key_sha256)" "$(json plain.json key_sha256)" "verify: key_sha256" &&
	case $(json out reason) in *"[2] attribute SEQUENCE the kernel parses and ignores"*) ;;
		*) echo "reason: $(json out reason)"; false ;; esac || return 1
	# pins the data digest: the block's messageDigest names attacker.bin, not signed
	run "$bpfsign" verify --json --cert "$keys/signing.crt" --payload attacker.bin seq.p7s
	expect_rc 3 "verify the [2] form over the payload its attributes name" || return 1
	expect_eq "$(json out error)" EKEYREJECTED "error over the named payload" &&
	expect_eq "$(json out ignored_attributes)" True "ignored_attributes when refused" || return 1
	# pins the gap check: unsigned attributes, read by the kernel's parser, are not a [2] block
	run "$bpfsign" inspect --json --cert "$keys/signing.crt" ua.p7s
	expect_rc 0 "inspect [3] unsigned attributes" || return 1
	expect_eq "$(json out ignored_attributes)" False "ignored_attributes of [3] unsigned attributes" &&
	expect_eq "$(json out unsigned_attributes)" True "unsigned_attributes of [3]" &&
	same_fields plain.json out file signature_size crls unsigned_attributes || return 1
	# pins pkcs7_sig_note_authenticated_attr(): it runs on the [2] block's attributes too
	run "$bpfsign" inspect --json smime.p7s
	expect_rc 3 "inspect S/MIME capabilities in a [2] block" || return 1
	expect_eq "$(json out kernel_error)" EKEYREJECTED "kernel_error of S/MIME capabilities in [2]" &&
	expect_err "S/MIME capabilities"
}

t_inspect_malformed() {
	head -c 100 /dev/urandom > r.p7s
	# the DER parser of inspect
	run "$bpfsign" inspect r.p7s
	expect_rc 4 "inspect random bytes" && expect_err "not BER the kernel's decoder takes"
}

# --- help, version, man page, install ---------------------------------------

t_help_and_version() {
	local c
	run "$bpfsign" --version; expect_rc 0 "--version" || return 1
	grep -q '^bpfsign [0-9]' out || { echo "--version: $(cat out)"; return 1; }
	run "$bpfsign" --help; expect_rc 0 "--help" || return 1
	mv out top
	for c in sign verify inspect; do
		grep -q "^Usage: bpfsign $c " top || { echo "top --help lacks $c"; return 1; }
		run "$bpfsign" $c --help; expect_rc 0 "$c --help" || return 1
		grep -q "^Usage: bpfsign $c " out && grep -q '^Exit status:' out ||
			{ echo "$c --help:"; cat out; return 1; }
	done
	# no command at all is a usage error
	run "$bpfsign"; expect_rc 2 "no command"
}

t_man_page_matches_help() {
	local c o
	for c in sign verify inspect; do
		for o in $("$bpfsign" $c --help | grep -o '^  --[a-z]*' | tr -d ' '); do
			grep -qF -- "$(printf '%s' "$o" | sed 's/-/\\-/g')" "$top/signer/bpfsign.1" ||
				{ echo "bpfsign.1 does not document $c $o"; return 1; }
		done
	done
	man -l "$top/signer/bpfsign.1" > /dev/null 2> man.err || { cat man.err; return 1; }
	[ ! -s man.err ] || { echo "man warnings:"; cat man.err; return 1; }
}

t_install() {
	make -s -C "$top/signer" install PREFIX=/usr DESTDIR="$PWD/root" > /dev/null ||
		{ echo "make install failed"; return 1; }
	[ -x root/usr/bin/bpfsign ] && [ -f root/usr/share/man/man1/bpfsign.1 ] ||
		{ echo "installed: $(find root -type f)"; return 1; }
}

# --- PKCS#11: a key that never leaves a SoftHSM2 token -----------------------

t_softhsm() {
	local module=/usr/lib/softhsm/libsofthsm2.so uri
	[ -f "$module" ] || { echo "$module missing: install softhsm2"; return 1; }
	command -v pkcs11-tool > /dev/null || { echo "pkcs11-tool missing: install opensc"; return 1; }
	mkdir tokens
	printf 'directories.tokendir = %s/tokens\nobjectstore.backend = file\nlog.level = ERROR\n' \
		"$PWD" > softhsm2.conf
	export SOFTHSM2_CONF=$PWD/softhsm2.conf
	softhsm2-util --init-token --free --label bpfsign-test --pin 123456 \
		--so-pin 654321 > /dev/null || { echo "cannot make a token"; return 1; }
	pkcs11-tool --module "$module" --token-label bpfsign-test --login --pin 123456 \
		--keypairgen --key-type rsa:2048 --label signer --id 42 --usage-sign > /dev/null ||
		{ echo "cannot generate a key in the token"; return 1; }
	pkcs11-tool --module "$module" --token-label bpfsign-test --login --pin 123456 -O > objects 2>&1
	grep -q 'never extractable' objects ||
		{ echo "the token key is extractable:"; cat objects; return 1; }
	uri='pkcs11:token=bpfsign-test;object=signer;type=private'
	openssl req -new -engine pkcs11 -keyform engine -key "$uri" -passin pass:123456 \
		-subj "/O=bpfsign TEST ONLY/CN=hsm" -out hsm.csr > /dev/null 2>&1 &&
	printf '%b\n' "$leaf_ext" > hsm.ext &&
	openssl x509 -req -in hsm.csr -CA "$keys/ca.crt" -CAkey "$keys/ca.key" \
		-set_serial 0x42 -days 30 -sha256 -extfile hsm.ext -out hsm.crt 2>/dev/null ||
		{ echo "cannot certify the token key"; return 1; }
	payload p
	run env BPFSIGN_PIN=123456 "$bpfsign" sign --key "$uri" --cert hsm.crt p
	expect_rc 0 "sign with the token key" || return 1
	ossl_verify p.p7s p hsm.crt || return 1
	run "$bpfsign" verify --cert hsm.crt p.p7s; expect_rc 0 "bpfsign verify" || return 1
	rm -f p.p7s
	# the token login: the key exists, the PIN is wrong
	run env BPFSIGN_PIN=000000 "$bpfsign" sign --key "$uri" --cert hsm.crt p
	expect_rc 1 "wrong PIN" && expect_err "cannot load the private key from the token" &&
	expect_no_output p.p7s || return 1
	# the PIN comes from the environment only
	run env -u BPFSIGN_PIN -u KBUILD_SIGN_PIN "$bpfsign" sign --key "$uri" --cert hsm.crt p
	expect_rc 1 "no PIN" && expect_err "no PIN: set BPFSIGN_PIN" && expect_no_output p.p7s
}

# --- the tools' rough edges (issue 15) ----------------------------------------

# Outputs: never an input, never renamed over a FIFO, the old mode kept.
t_edge_outputs() {
	local before
	payload p && before=$(sha256sum p)
	run sign_rsa p --out p
	# check_dest(): --out the payload would replace it with its signature
	expect_rc 1 "--out PAYLOAD" && expect_err "the output is an input" || return 1
	expect_eq "$(sha256sum p)" "$before" "the payload after --out PAYLOAD" || return 1
	cp "$keys/signing.crt" c.crt
	run "$bpfsign" sign --key "$keys/signing.key" --cert c.crt --out c.crt p
	# check_dest(): --out the certificate
	expect_rc 1 "--out CERT" && expect_err "the output is an input" || return 1
	cmp -s c.crt "$keys/signing.crt" || { echo "--out CERT changed it"; return 1; }
	mkfifo fifo
	run sign_rsa p --out fifo
	# write_temp(): a FIFO is not a file to replace
	expect_rc 1 "--out FIFO" && expect_err "not a regular file" || return 1
	[ -p fifo ] || { echo "the FIFO was replaced"; return 1; }
	: > p.p7s && chmod 640 p.p7s
	run sign_rsa p
	expect_rc 0 "sign over an existing 0640 p.p7s" || return 1
	expect_eq "$(stat -c %a p.p7s)" 640 "the mode of a replaced signature"
}

# A PEM bundle with a corrupt block is refused, not cut short there.
t_edge_pem_bundle() {
	payload p && sign_rsa p --out p.p7s || return 1
	{ sed -n '/BEGIN/,/END/p' "$keys/untrusted.crt"
	  printf -- '-----BEGIN CERTIFICATE-----\nnot!base64\n-----END CERTIFICATE-----\n'
	  cat "$keys/signing.crt"; } > bundle.pem
	run "$bpfsign" verify --ca bundle.pem p.p7s
	# bpfsign__load_certs(): only "no more BEGIN lines" ends a bundle
	# not a certificate: ENOEXEC (4), as a key given as --cert
	expect_rc 4 "a bundle with a corrupt second block" &&
	expect_err "bundle.pem: certificate 2 of the bundle is corrupt" || return 1
	{ cat "$keys/untrusted.crt" "$keys/signing.crt"; } > good.pem
	run "$bpfsign" verify --ca good.pem p.p7s
	expect_rc 0 "the same bundle without the corrupt block"
}

# Messages that name the cause.
t_edge_messages() {
	local esc
	payload p
	openssl pkey -in "$keys/signing.key" -aes256 -passout pass:s3cret -out k.enc || return 1
	run env -u BPFSIGN_PIN -u KBUILD_SIGN_PIN "$bpfsign" sign --key k.enc \
		--cert "$keys/signing.crt" p
	# load_file_key(): an encrypted key without its passphrase says so
	expect_rc 1 "encrypted key, no BPFSIGN_PIN" &&
	expect_err "k.enc: an encrypted key: set BPFSIGN_PIN" || return 1
	run env BPFSIGN_PIN=1 BPFSIGN_PKCS11_MODULE=/nonexistent/p11.so "$bpfsign" sign \
		--key 'pkcs11:object=x;type=private' --cert "$keys/signing.crt" p
	# load_pkcs11_key(): a missing module is not "no such object"
	expect_rc 1 "a missing PKCS#11 module" &&
	expect_err "PKCS#11 module /nonexistent/p11.so: No such file or directory" || return 1
	esc=$(printf 'p\033[2J.p7s')
	run "$bpfsign" verify --cert "$keys/signing.crt" "$esc"
	# kit_err(): a control character in a file name is printed as \xHH
	expect_rc 1 "an unreadable SIG named with an escape sequence" || return 1
	! grep -q "$(printf '\033')" err || { echo "ESC reached the terminal raw"; return 1; }
	expect_err 'p\x1b[2J.p7s' || return 1
	run "$bpfsign" "$(printf 'x\033[2J')"
	# main(): the unknown command is escaped as well
	expect_rc 2 "an unknown command with an escape sequence" || return 1
	! grep -q "$(printf '\033')" err || { echo "ESC reached the terminal raw"; return 1; }
}

# A 2 GiB input is refused by its size, before a byte of it is read.
t_edge_big_input() {
	truncate -s 2G big || return 1
	run sh -c 'ulimit -v 400000; exec "$@"' sh "$bpfsign" sign --key "$keys/signing.key" \
		--cert "$keys/signing.crt" big
	# read_file(): st_size against the bound (the old loop ran out of memory)
	expect_rc 1 "a 2 GiB payload" && expect_err "big: larger than 2147483647 bytes" &&
	expect_no_output big.p7s
}

# inspect --json: a failure is one JSON object too, with the errno's name.
t_edge_inspect_json_error() {
	head -c 200 /dev/urandom > junk
	run "$bpfsign" inspect --json junk
	# report_error(): the malformed signature as a JSON object
	expect_rc 4 "inspect --json of random bytes" || return 1
	expect_eq "$(json out error)/$(json out errno)" "EBADMSG/74" "inspect --json error" ||
		return 1
	run "$bpfsign" inspect --json missing.p7s
	# report_error(): the unreadable file as well
	expect_rc 1 "inspect --json of a missing file" || return 1
	expect_eq "$(json out error)/$(json out errno)" "ENOENT/2" "inspect --json error"
}

# -h is --help, for the program and each command.
t_edge_help() {
	local c
	for c in "" sign verify inspect; do
		run "$bpfsign" $c -h
		expect_rc 0 "bpfsign $c -h" || return 1
		grep -q "^Usage: bpfsign" out || { echo "bpfsign $c -h: no usage"; return 1; }
	done
}

# Unknown digest OIDs, where OpenSSL 3.0's CMS_verify() leaks: refused before it.
t_edge_unknown_digest() {
	payload p
	run sign_rsa p; expect_rc 0 "sign" || return 1
	patch p.p7s outer.p7s 0 $sha256_oid 60864801650304027f &&
	patch p.p7s inner.p7s 1 $sha256_oid 60864801650304027f || return 1
	run vg "$bpfsign" verify --cert "$keys/signing.crt" --payload p inner.p7s
	# no leak, and the kernel's answer: ENOPKG
	expect_rc 6 "valgrind, an unknown SignerInfo digest" || return 1
	run vg "$bpfsign" verify --cert "$keys/signing.crt" --payload p outer.p7s
	expect_rc 0 "valgrind, an unknown outer digest"
}

# --- valgrind ---------------------------------------------------------------

vg() {	# valgrind with leak checks; its own errors exit 99
	valgrind -q --leak-check=full --error-exitcode=99 "$@"
}

t_valgrind() {
	command -v valgrind > /dev/null || { echo "valgrind missing"; return 1; }
	payload p; payload q
	run valgrind -q --leak-check=full --error-exitcode=1 "$bpfsign" sign \
		--key "$keys/signing.key" --cert "$keys/signing.crt" p q
	expect_rc 0 "valgrind sign (RSA, two payloads)" || return 1
	run valgrind -q --leak-check=full --error-exitcode=1 "$bpfsign" sign \
		--key "$keys/signing-ec.key" --cert "$keys/signing-ec.crt" --out e.p7s p
	expect_rc 0 "valgrind sign (P-256)" || return 1
	run valgrind -q --leak-check=full --error-exitcode=1 "$bpfsign" verify \
		--ca "$keys/kernel-trusted.pem" --json p.p7s
	expect_rc 0 "valgrind verify" || return 1
	run valgrind -q --leak-check=full --error-exitcode=1 "$bpfsign" inspect q.p7s
	expect_rc 0 "valgrind inspect" || return 1
	# failure paths: the tool's own exit code, and no valgrind error (99)
	echo x >> q
	run vg "$bpfsign" verify --cert "$keys/signing.crt" q.p7s
	expect_rc 3 "valgrind verify, tampered payload" || return 1
	run vg "$bpfsign" verify --cert "$keys/team.crt" p.p7s
	expect_rc 5 "valgrind verify, unknown signer" || return 1
	head -c -10 p.p7s > t.p7s
	run vg "$bpfsign" verify --cert "$keys/signing.crt" --payload p t.p7s
	expect_rc 4 "valgrind verify, truncated" || return 1
	run vg "$bpfsign" sign --key "$keys/signing.key" --cert "$keys/team.crt" --out x.p7s p
	expect_rc 1 "valgrind sign, key/cert mismatch"
}

# signer/kernel/ is the kernel's own decoder: a copy that drifts from the
# patched tree would give an offline verdict that is not the kernel's
t_kernel_copies() {
	local check=$top/tests/host/signer/kernel_copies.sh
	run sh "$check" "$top/signer/kernel" "$build"
	expect_rc 0 "signer/kernel/ against $build/linux and $build/kbuild" || { cat out; return 1; }
	# the check itself: one changed byte, one SPDX line, one stray file
	cp -r "$top/signer/kernel" copy
	printf '\n' >> copy/x509.asn1
	sed -i 's/GPL-2.0 \*/GPL-2.0-only */' copy/include/linux/types.h
	touch copy/stray.c
	run sh "$check" copy "$build"
	expect_rc 1 "a changed copy" || return 1
	grep -q "copy/x509.asn1: differs from $build/linux/crypto/asymmetric_keys/x509.asn1" out &&
	grep -q "copy/include/linux/types.h: SPDX 'GPL-2.0-only', SOURCES says 'GPL-2.0'" out &&
	grep -q "copy/stray.c: not listed in SOURCES" out ||
		{ echo "findings not named:"; cat out; return 1; }
}

# --- run --------------------------------------------------------------------

t build t_build
if [ ! -x "$bpfsign" ]; then
	echo "$passed passed, $failed failed"
	exit 1
fi
t "libbpfsign API: sign, verify, inspect, errnos (valgrind)" t_api
t "sign and verify, RSA-2048" t_rsa_sign_verify
t "sign and verify, P-256" t_p256_sign_verify
t "sign and verify, P-384 (key made here)" t_p384_sign_verify
t "digests sha256, sha384, sha512" t_digests
t "key formats: PEM, DER, traditional, encrypted" t_key_formats
t "RSA signatures are reproducible" t_rsa_reproducible
t "several payloads sign to PAYLOAD.p7s" t_multi_payload
t "empty payload" t_empty_payload
t "openssl cms -verify accepts bpfsign signatures" t_openssl_verifies_bpfsign
t "bpfsign verifies, and equals, openssl cms -sign -keyid" t_bpfsign_equals_openssl_keyid
t "bpfsign verifies openssl cms -sign issuer+serial" t_bpfsign_verifies_openssl_issuer_serial
t "interop with the kernel's scripts/sign-file -d" t_sign_file_interop
t "verify: S/MIME capabilities and signed attributes refused" t_verify_signed_attrs_form
t "sign refuses SHA-1" t_refuse_sha1
t "sign refuses RSA-1024" t_refuse_rsa1024
t "sign refuses a key/cert mismatch" t_refuse_mismatch
t "sign refuses a cert without digitalSignature" t_refuse_no_digital_signature
t "sign refuses a cert without subjectKeyIdentifier" t_refuse_no_ski
t "sign refuses unreadable or unparsable files" t_refuse_unreadable
t "sign writes nothing if one payload fails" t_refuse_all_or_nothing
t "sign leaves nothing when the output cannot be made" t_refuse_bad_out_dir
t "usage errors exit 2" t_usage_errors
t "verify: tampered payload exits 3 (EKEYREJECTED)" t_verify_tampered_payload
t "verify: tampered signature exits 3 (EKEYREJECTED)" t_verify_tampered_sig
t "verify: wrong cert exits 5 (ENOKEY)" t_verify_wrong_cert
t "verify: wrong key type exits 3 (EKEYREJECTED)" t_verify_wrong_key_type
t "verify: SHA-1 signature exits 6 (ENOPKG)" t_verify_sha1_refused
t "verify: malformed DER exits 4 (EBADMSG)" t_verify_malformed
t "verify: many SIGs, one JSON line each" t_verify_batch
t "verify --json: a failure is one JSON object" t_verify_json_error_object
t "kernel rules: SignedData and SignerInfo versions" t_kernel_versions
t "kernel rules: outer and SignerInfo digest algorithms" t_kernel_digest_algorithms
t "kernel rules: a non-minimal OID encoding is unknown" t_kernel_oid_encoding
t "kernel rules: the chain to the keyring, ENOKEY" t_kernel_chain
t "kernel rules: the BPF size bound" t_kernel_size_bound
t "verify: truncated DER exits 4 (EBADMSG)" t_verify_truncated
t "verify: unreadable input exits 1, a key as --cert 4" t_verify_unreadable
t "verify --json reports the failure" t_verify_json_failure
t "inspect --json fields" t_inspect_json
t "key_sha256: verify and inspect --cert print the kernel's key digest" t_key_sha256
t "key_sha256: null for a signer trusted through its issuer" t_key_sha256_chain
t "inspect human and JSON share one path" t_inspect_human_matches_json
t "reports: UTF-8 kept, control characters escaped" t_report_escapes
t "inspect: S/MIME capabilities refused, embedded certs taken" t_inspect_flags_kernel_refusals
t "inspect, verify: a [2] attribute SEQUENCE is reported as the kernel reads it" t_attrs_seq_form
t "inspect: malformed DER exits 4 (EBADMSG)" t_inspect_malformed
t "--help on every command, --version" t_help_and_version
t "man page documents every option" t_man_page_matches_help
t "make install PREFIX DESTDIR" t_install
t "SoftHSM2: sign with a key that never leaves the token" t_softhsm
t "edges: outputs never an input or a FIFO, mode kept" t_edge_outputs
t "edges: a corrupt block in a PEM bundle" t_edge_pem_bundle
t "edges: messages name the cause, control characters escaped" t_edge_messages
t "edges: a 2 GiB input refused before it is read" t_edge_big_input
t "edges: -h on every command" t_edge_help
t "edges: inspect --json, a failure is one JSON object" t_edge_inspect_json_error
t "edges: unknown digest OIDs refused before OpenSSL, no leak" t_edge_unknown_digest
t "verify: non-DER ECDSA verified with a warning, the 16 MiB bound" t_verify_kernel_x509_rules
t "valgrind: sign, verify, inspect without leaks" t_valgrind
t "signer/kernel/: the patched tree's files, pinned, licences stated" t_kernel_copies

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
