// SPDX-License-Identifier: GPL-2.0
/*
 * Second hostile review of the fix to issue 40's first review: the kernel
 * records (fdinfo sig_key_sha256, audit sig-key-sha256=) only a trusted key
 * that verified a SignerInfo's signature itself (pkcs7_trust.c,
 * "sig == sinfo->sig"), and "key allow sha256:X" admits by that record.
 * Property attacked: a program is recorded as X only if X's private key
 * signed exactly the loaded bytes.
 *
 * Attacker: the signing oracle of the first review (attack_sig_key_chain_
 * signing_oracle): whoever gets team A's signing step ("bpfsign sign FILE":
 * detached CMS, no signed attributes) to sign one file of its choosing, once.
 * It never holds A's key.  The first review's oracle made a certificate A
 * issued, which the fix now records as no key.  Here the file is not a
 * certificate but a CMS signed-attributes SET whose messageDigest is the
 * SHA-256 of the attacker's program: BPF signatures could carry signed
 * attributes (pkcs7_verify(), VERIFYING_BPF_SIGNATURE), the kernel then
 * verified the signature over 0x31 || attributes, and A's payload signature
 * of that file is, byte for byte, the signature of a SignerInfo over the
 * attacker's program.  It is A's own signature of "the signed data", so the
 * fix's rule records A.  A's private key never saw the program's bytes, only
 * a 107-byte DER blob that names their digest, which "bpfsign sign" signs
 * without complaint.  The offline verifier agrees with the kernel (host:
 * "bpfsign verify --ca keys-example/signing.crt" of the same construction
 * said verified, key_sha256 A), so no tool flagged it.
 *
 * Closed: BPF signatures, like module signatures, may not carry signed
 * attributes (-EKEYREJECTED, "signature has signed attributes"), in the
 * kernel and in the offline verifier alike; A's key then signs only the
 * bytes the kernel hashes itself, insns || metadata.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <openssl/cms.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509v3.h>
#include <bpf/bpf.h>

#include "fixture.h"
#include "runner.h"
#include "util.h"
#include "sign.h"
#include "signed.h"

/*
 * The signed attributes of the CMS DER der as the kernel hashes them: the
 * [0] IMPLICIT SET re-tagged 0x31.  OpenSSL sorts the SET OF, so the
 * contentType attribute (30 18 ...) comes first.  Returns the length, or -1.
 */
static int attrs_as_set(const unsigned char *der, int len, unsigned char *set, int max)
{
	static const unsigned char ct[] = { 0x30, 0x18, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86,
					    0xf7, 0x0d, 0x01, 0x09, 0x03 };
	int i, n;

	for (i = 2; i + (int)sizeof(ct) <= len; i++) {
		if (memcmp(der + i, ct, sizeof(ct)) || der[i - 2] != 0xa0 || der[i - 1] >= 0x80)
			continue;
		n = der[i - 1];
		if (i + n > len || n + 2 > max)
			return -1;
		set[0] = 0x31;
		memcpy(set + 1, der + i - 1, n + 1);
		return n + 2;
	}
	return -1;
}

/*
 * The attacker's CMS over payload: a SignerInfo with signed attributes,
 * built with the attacker's own RSA key (team.key, in no keyring here), its
 * identifier rewritten to team A's subjectKeyIdentifier and its signature
 * replaced by the oracle's signature of the attributes.  *sig, its length.
 */
static int forge(const unsigned char *payload, size_t len, unsigned char **sig,
		 unsigned char *file, int *file_len)
{
	unsigned int flags = CMS_BINARY | CMS_DETACHED | CMS_NOCERTS | CMS_PARTIAL |
			     CMS_NOSMIMECAP | CMS_USE_KEYID;
	X509 *a = cert_read("signing"), *t = cert_read("team");
	EVP_PKEY *tkey = key_read("team");
	BIO *in = BIO_new_mem_buf(payload, len);
	CMS_ContentInfo *cms = CMS_sign(NULL, NULL, NULL, NULL, flags);
	const ASN1_OCTET_STRING *askid = a ? X509_get0_subject_key_id(a) : NULL;
	ASN1_OCTET_STRING *keyid = NULL, *sv = NULL;
	unsigned char *der = NULL, again[256];
	CMS_SignerInfo *si;
	int der_len, ret = -1;

	if (!cms || !t || !tkey || !askid || !in ||
	    !CMS_add1_signer(cms, t, tkey, EVP_sha256(), flags) ||
	    CMS_final(cms, in, NULL, flags) != 1)
		goto out;
	der_len = i2d_CMS_ContentInfo(cms, &der);
	*file_len = der_len > 0 ? attrs_as_set(der, der_len, file, 256) : -1;
	OPENSSL_free(der);
	der = NULL;
	if (*file_len < 0)
		goto out;
	/* the oracle: A's "bpfsign sign FILE" of the one file A signs,
	 * contentType, signingTime, messageDigest
	 */
	sv = cms_sign_value("signing", file, *file_len);
	si = sk_CMS_SignerInfo_value(CMS_get0_SignerInfos(cms), 0);
	if (!sv || !si || CMS_SignerInfo_get0_signer_id(si, &keyid, NULL, NULL) != 1 || !keyid)
		goto out;
	if (!ASN1_OCTET_STRING_set(keyid, ASN1_STRING_get0_data(askid), ASN1_STRING_length(askid)) ||
	    !ASN1_OCTET_STRING_set(CMS_SignerInfo_get0_signature(si), ASN1_STRING_get0_data(sv),
				   ASN1_STRING_length(sv)))
		goto out;
	der_len = i2d_CMS_ContentInfo(cms, &der);
	/* the attributes re-encode to the very file A signed */
	if (der_len <= 0 || attrs_as_set(der, der_len, again, sizeof(again)) != *file_len ||
	    memcmp(again, file, *file_len))
		goto out;
	*sig = der;
	der = NULL;
	ret = der_len;
out:
	OPENSSL_free(der);
	ASN1_OCTET_STRING_free(sv);
	CMS_ContentInfo_free(cms);
	BIO_free(in);
	EVP_PKEY_free(tkey);
	X509_free(a);
	X509_free(t);
	return ret;
}

/* The fixture load l, its signature forged through the attributes oracle */
static bool forged_load(struct load *l, unsigned char *file, int *file_len)
{
	unsigned char payload[LOAD_PAYLOAD_MAX];

	if (!make_load(l, 1, "signing", BUILTIN))
		return false;
	/* a program of the attacker's: A never signs these bytes */
	drop_signature(l);
	l->sig_len = forge(payload, load_payload(l, 0, payload), &l->sig, file, file_len);
	return ASSERT_GE(l->sig_len, 1, "the attacker's CMS, A's oracle signature of its attributes");
}

/*
 * The kernel refuses every BPF signature with signed attributes, as it does
 * module signatures (VERIFYING_BPF_SIGNATURE): the forged load fails with
 * -EKEYREJECTED and the verifier log names the cause, nothing is loaded, so
 * nothing is recorded as A's and no key allowlist is ever asked.  Ran on
 * the kernel that took signed attributes: the load verified, fdinfo
 * sig_key_sha256 was A's and "key allow sha256:A" admitted it (BYPASS).
 */
TEST(attack_round2_sig_key_attrs_oracle)
{
	unsigned char file[256];
	int file_len = -1;
	struct load l = {};

	if (!forged_load(&l, file, &file_len))
		goto out;
	printf("  # A signed one %d-byte file (first byte %02x), never the %zu program bytes\n",
	       file_len, file[0], l.cnt * sizeof(l.insns[0]) + META_SZ);
	/* pins pkcs7_verify()'s signed-attributes refusal for VERIFYING_BPF_SIGNATURE */
	expect_load(&l, EKEYREJECTED, SIGNED_ATTRS_LOG,
		    "the attacker's program, A's signature of its attribute SET");
out:
	free_load(&l);
}
