# SPDX-License-Identifier: GPL-2.0
# CMS forms the kernel's PKCS#7 parser reads and OpenSSL can neither write
# nor read, built by `openssl asn1parse -genconf` rather than by the kit, so
# that the kit's parsers are tested against bytes they did not make.
# Sourced by tests/host/signer/run.sh and signer/fuzz/run.sh (its seeds);
# POSIX sh plus local, safe under set -eu.
#
#   ski CERT                  CERT's subject key identifier, lowercase hex
#   seq_attrs_cms OUT KEY CERT PAYLOAD NAMED [WORD...]
#                             a SignedData with its attributes in the [2] form

ski() {		# CERT: its subject key identifier, lowercase hex
	openssl x509 -in "$1" -noout -ext subjectKeyIdentifier |
		sed -n 2p | tr -d ' :' | tr 'A-F' 'a-f'
}

# seq_attrs_cms OUT KEY CERT PAYLOAD NAMED [WORD...]: a detached SignedData
# by KEY over PAYLOAD (RSA PKCS#1 v1.5 of its SHA-256, as bpfsign sign makes
# it), naming CERT's key by SKID, with the attributes contentType and
# messageDigest = SHA-256(NAMED) in pkcs7.asn1's other alternative,
# aaSequence [2] EXPLICIT SEQUENCE OF (no action: have_authattrs stays
# false).  NAMED "-": no attribute block.  WORDs:
#   smime     an S/MIME capabilities attribute in the block too
#   ua-set    the same attributes as unauthenticatedAttributes too, in the
#             uaSet form [1] IMPLICIT SET OF
#   ua-seq    the same, as [3] IMPLICIT SEQUENCE OF (OpenSSL cannot read
#             that either)
#   no-null   rsaEncryption without its NULL parameters
# OUT.cnf is the template; it is removed on success, kept when openssl fails.
seq_attrs_cms() {
	local out="$1" key="$2" cert="$3" payload="$4" named="$5" w skid sig md=00
	local attrs="attrs=EXPLICIT:2,SEQUENCE:attrs" extra='' ua='' null="null=NULL"
	shift 5
	for w; do
		case $w in
		smime) extra="sc=SEQUENCE:sc" ;;
		ua-set) ua="ua=IMPLICIT:1,SET:attrs" ;;
		ua-seq) ua="ua=IMPLICIT:3,SEQUENCE:attrs" ;;
		no-null) null= ;;
		*) echo "seq_attrs_cms: unknown word '$w'" >&2; return 1 ;;
		esac
	done
	skid=$(ski "$cert")
	[ -n "$skid" ] || { echo "seq_attrs_cms: $cert: no subject key identifier" >&2; return 1; }
	sig=$(openssl dgst -sha256 -sign "$key" "$payload" | od -An -v -tx1 | tr -d ' \n')
	[ -n "$sig" ] || { echo "seq_attrs_cms: openssl dgst -sign with $key over $payload failed" >&2; return 1; }
	if [ "$named" = - ]; then
		attrs=
	else
		md=$(openssl dgst -sha256 -r "$named" | cut -c1-64)
		[ -n "$md" ] || { echo "seq_attrs_cms: $named: cannot digest it" >&2; return 1; }
	fi
	cat > "$out.cnf" <<-EOF
	asn1=SEQUENCE:ci
	[ci]
	type=OID:pkcs7-signedData
	content=EXPLICIT:0,SEQUENCE:sd
	[sd]
	version=INT:3
	digestAlgorithms=SET:das
	encap=SEQUENCE:eci
	signerInfos=SET:sis
	[das]
	a=SEQUENCE:sha256alg
	[sha256alg]
	oid=OID:sha256
	[eci]
	type=OID:pkcs7-data
	[sis]
	si=SEQUENCE:si
	[si]
	version=INT:3
	sid=IMPLICIT:0,FORMAT:HEX,OCTETSTRING:$skid
	digestAlgorithm=SEQUENCE:sha256alg
	$attrs
	sigAlg=SEQUENCE:rsaalg
	sig=FORMAT:HEX,OCTETSTRING:$sig
	$ua
	[rsaalg]
	oid=OID:rsaEncryption
	$null
	[attrs]
	ct=SEQUENCE:ct
	md=SEQUENCE:md
	$extra
	[ct]
	type=OID:contentType
	v=SET:ctv
	[ctv]
	v=OID:pkcs7-data
	[md]
	type=OID:messageDigest
	v=SET:mdv
	[mdv]
	v=FORMAT:HEX,OCTETSTRING:$md
	[sc]
	type=OID:SMIME-CAPS
	v=SET:scv
	[scv]
	v=INT:0
	EOF
	openssl asn1parse -genconf "$out.cnf" -out "$out" -noout > /dev/null ||
		{ echo "seq_attrs_cms: openssl asn1parse -genconf $out.cnf failed" >&2; return 1; }
	rm -f "$out.cnf"
}
