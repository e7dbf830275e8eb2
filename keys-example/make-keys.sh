#!/bin/sh
# Make the kit's TEST-ONLY keys: a CA, signing certificates issued by it, and
# one untrusted self-signed certificate.  The private keys are committed so
# that CI and every checkout sign the same way: never use them for anything
# but tests.  See README.md for making real keys.
#
# Usage: make-keys.sh [OUTDIR]      (default: the folder of this script)
#
# Existing keys are kept: the test kernel has their certificates built in,
# so re-running the script only adds what is missing.
set -eu

out=${1:-$(dirname "$0")}
days=36500
cd "$out"

# The kernel finds a signer by subject key identifier and loads certificates
# into its keyrings only with the extensions of certs/default_x509.genkey.
leaf_ext() {
	cat <<-EOT
	basicConstraints=critical,CA:FALSE
	keyUsage=critical,digitalSignature
	extendedKeyUsage=codeSigning
	subjectKeyIdentifier=hash
	authorityKeyIdentifier=keyid
	EOT
}

ca_ext() {
	cat <<-EOT
	basicConstraints=critical,CA:TRUE
	keyUsage=critical,keyCertSign,cRLSign,digitalSignature
	subjectKeyIdentifier=hash
	authorityKeyIdentifier=keyid
	EOT
}

# issue NAME SUBJECT KEYSPEC: a leaf key and a certificate signed by the CA
issue() {
	[ -f "$1.crt" ] && return 0
	openssl genpkey $3 -out "$1.key" 2>/dev/null
	openssl req -new -key "$1.key" -subj "$2" -out "$1.csr"
	leaf_ext > "$1.ext"
	openssl x509 -req -in "$1.csr" -CA ca.crt -CAkey ca.key \
		-set_serial "0x$(openssl rand -hex 8)" -days $days -sha256 \
		-extfile "$1.ext" -out "$1.crt" 2>/dev/null
	rm -f "$1.csr" "$1.ext"
}

rsa="-algorithm RSA -pkeyopt rsa_keygen_bits:2048"
ec="-algorithm EC -pkeyopt ec_paramgen_curve:P-256"

if [ ! -f ca.crt ]; then
openssl genpkey $rsa -out ca.key 2>/dev/null
ca_ext > ca.ext
openssl req -new -x509 -key ca.key -subj "/O=bpfsign TEST ONLY/CN=bpfsign test CA" \
	-days $days -sha256 -extensions v3 \
	-config /dev/stdin -out ca.crt <<-EOT
	[req]
	distinguished_name=dn
	[dn]
	[v3]
	$(ca_ext)
	EOT
rm -f ca.ext
fi

issue signing "/O=bpfsign TEST ONLY/CN=bpfsign test signing key (RSA)" "$rsa"
issue signing-ec "/O=bpfsign TEST ONLY/CN=bpfsign test signing key (P-256)" "$ec"
issue team "/O=bpfsign TEST ONLY/CN=bpfsign test team key (secondary keyring)" "$rsa"
# Built in as trusted and listed as revoked: its signatures must fail.
issue revoked "/O=bpfsign TEST ONLY/CN=bpfsign test revoked key" "$rsa"

# Not issued by the CA and not built in: the kernel must refuse its signatures.
[ -f untrusted.crt ] || openssl req -new -x509 -newkey rsa:2048 -nodes -keyout untrusted.key \
	-subj "/O=bpfsign TEST ONLY/CN=bpfsign untrusted key" -days $days -sha256 \
	-addext basicConstraints=critical,CA:FALSE \
	-addext keyUsage=critical,digitalSignature \
	-addext subjectKeyIdentifier=hash -out untrusted.crt 2>/dev/null

# What the test kernel builds into .builtin_trusted_keys.  The signing certs
# are listed themselves: signatures carry no certificates, so the kernel can
# only find a signer that sits in the keyring.
cat ca.crt signing.crt signing-ec.crt revoked.crt > kernel-trusted.pem
# What the test kernel builds into .blacklist (CONFIG_SYSTEM_REVOCATION_KEYS)
cat revoked.crt > kernel-revoked.pem
