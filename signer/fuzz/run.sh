#!/bin/sh
# Bounded libFuzzer runs of the parsers, seeded with real signatures.
# Usage: fuzz/run.sh [SECONDS per target]    (from signer/, after make)
set -eu
secs=${1:-30}
here=$(cd "$(dirname "$0")/.." && pwd)
keys=$here/../keys-example
. "$here/../tests/host/lib-cms.sh"	# seq_attrs_cms, shared with the signer tests
cd "$here"

corpus=fuzz-corpus
rm -rf "$corpus"
mkdir -p "$corpus/inspect" "$corpus/verify"
printf 'fuzz payload' > "$corpus/payload"
for k in signing signing-ec; do
	./bpfsign sign --key "$keys/$k.key" --cert "$keys/$k.crt" \
		--out "$corpus/inspect/$k" "$corpus/payload"
	# verify input: length byte (12), payload, signature
	{ printf '\014'; cat "$corpus/payload" "$corpus/inspect/$k"; } \
		> "$corpus/verify/$k"
done
# A form the kernel refuses: signed attributes and an embedded certificate.
openssl cms -sign -binary -outform DER -md sha256 -in "$corpus/payload" \
	-signer "$keys/signing.crt" -inkey "$keys/signing.key" \
	-out "$corpus/inspect/attrs"
# Certificates for the kernel's X.509 parser (x509_parse.c): an ECDSA
# signer, its CA, issuer+serial ids, in both targets.
openssl cms -sign -binary -outform DER -md sha256 -noattr -in "$corpus/payload" \
	-signer "$keys/signing-ec.crt" -inkey "$keys/signing-ec.key" \
	-certfile "$keys/ca.crt" -out "$corpus/inspect/chain"
{ printf '\014'; cat "$corpus/payload" "$corpus/inspect/chain"; } > "$corpus/verify/chain"
# The [2] EXPLICIT SEQUENCE attribute form OpenSSL cannot read, with
# unsigned attributes ([1] SET) and rsaEncryption without its NULL:
# reported from the kernel's parser (inspect.c).
seq_attrs_cms "$corpus/inspect/seq" "$keys/signing.key" "$keys/signing.crt" \
	"$corpus/payload" "$corpus/payload" ua-set no-null
{ printf '\014'; cat "$corpus/payload" "$corpus/inspect/seq"; } > "$corpus/verify/seq"
rm -f "$corpus/payload"

export BPFSIGN_FUZZ_CERTS="$keys/kernel-trusted.pem"
rc=0
for t in inspect verify; do
	log=$corpus/$t.log
	if ./fuzz-$t -max_total_time="$secs" -max_len=4096 -print_final_stats=1 \
		"$corpus/$t" > "$log" 2>&1; then
		echo "fuzz-$t: clean, $(grep -E '^stat::number_of_executed_units' "$log" |
			awk '{print $2}') runs in $secs s"
	else
		echo "fuzz-$t: FAILED (log: signer/$log)"
		grep -E '^(==|SUMMARY|artifact_prefix|Test unit)' "$log" | head -n 20
		rc=1
	fi
done
exit $rc
