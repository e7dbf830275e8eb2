#!/bin/sh
# Signatures per second for N small payloads: one bpfsign call against N
# `openssl cms -sign` processes, side by side in one run, and their ratio;
# then the audit of the same N signatures: one `bpfsign verify` call (batch
# mode) against N `openssl cms -verify` processes.
# Usage: bench.sh [N]    (from anywhere, after make)
set -eu
n=${1:-1000}
here=$(cd "$(dirname "$0")" && pwd)
keys=$here/../keys-example
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

mkdir "$tmp/a" "$tmp/b"
i=0
while [ $i -lt "$n" ]; do
	head -c 256 /dev/urandom > "$tmp/a/p$i"
	i=$((i + 1))
done
cp "$tmp"/a/p* "$tmp/b/"

now() { date +%s.%N; }

t0=$(now)
(cd "$tmp/a" && "$here/bpfsign" sign --key "$keys/signing.key" \
	--cert "$keys/signing.crt" p*)
t1=$(now)
i=0
while [ $i -lt "$n" ]; do
	openssl cms -sign -binary -noattr -nocerts -outform DER -md sha256 \
		-keyid -signer "$keys/signing.crt" -inkey "$keys/signing.key" \
		-in "$tmp/b/p$i" -out "$tmp/b/p$i.p7s"
	i=$((i + 1))
done
t2=$(now)

# Same key, same bytes: RSA signatures must be identical.
i=0
while [ $i -lt "$n" ]; do
	cmp -s "$tmp/a/p$i.p7s" "$tmp/b/p$i.p7s" ||
		{ echo "bench: p$i.p7s differs from openssl's" >&2; exit 1; }
	i=$((i + 1))
done

# Batch verification: every verdict must be "verified" in both.
t3=$(now)
(cd "$tmp/a" && "$here/bpfsign" verify --json --cert "$keys/signing.crt" p*.p7s) \
	> "$tmp/verdicts"
t4=$(now)
i=0
while [ $i -lt "$n" ]; do
	openssl cms -verify -binary -inform DER -in "$tmp/b/p$i.p7s" -content "$tmp/b/p$i" \
		-noverify -certfile "$keys/signing.crt" -nointern -out /dev/null 2>/dev/null ||
		{ echo "bench: openssl cms -verify refused p$i.p7s" >&2; exit 1; }
	i=$((i + 1))
done
t5=$(now)
[ "$(grep -c '"verified": true' "$tmp/verdicts")" = "$n" ] ||
	{ echo "bench: bpfsign verify did not verify all $n signatures" >&2; exit 1; }

awk -v n="$n" -v t0="$t0" -v t1="$t1" -v t2="$t2" -v t3="$t3" -v t4="$t4" -v t5="$t5" 'BEGIN {
	a = t1 - t0; b = t2 - t1; c = t4 - t3; d = t5 - t4
	printf "bench: %d payloads of 256 bytes, RSA-2048, SHA-256\n", n
	printf "  bpfsign sign (1 process):         %8.3f s  %9.1f sig/s\n", a, n / a
	printf "  openssl cms -sign (%d procs):   %8.3f s  %9.1f sig/s\n", n, b, n / b
	printf "  ratio: bpfsign is %.1fx faster (outputs byte-identical)\n", b / a
	printf "  bpfsign verify (1 process):       %8.3f s  %9.1f verify/s\n", c, n / c
	printf "  openssl cms -verify (%d procs): %8.3f s  %9.1f verify/s\n", n, d, n / d
	printf "  batch verify: %.1fx (bpfsign verify, one process, vs one openssl per file)\n", d / c
}'
