/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's rules for a BPF program signature, in one place: what
 * BPF_PROG_LOAD does with the signature on Linux 6.12 with the bpfsign
 * series (bpf_prog_verify_signature() -> verify_pkcs7_signature() with
 * VERIFYING_BPF_SIGNATURE), and the errno it returns.  bpfsign(1), KERNEL
 * RULES, lists them.
 *
 *   pkcs7_parse.c   crypto/asymmetric_keys/pkcs7_parser.c: the kernel's own
 *                   BER decoder and grammar (signer/kernel/, copied from the
 *                   tree) with its callbacks ported
 *   pkcs7_verify.c  pkcs7_verify.c, pkcs7_trust.c, the BPF size bound and
 *                   public_key_verify_signature(), on OpenSSL's primitives
 */
#ifndef BPFSIGN_PKCS7_H
#define BPFSIGN_PKCS7_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include <openssl/x509.h>

/* bpf_prog_verify_signature(): 0 < signature_size <= KMALLOC_MAX_CACHE_SIZE */
#define K_MAX_SIG_SIZE		8192
/* signed_fd_array_len(): insns || metadata at most BPF_SIG_MAX_SIGNED_LEN */
#define K_MAX_SIGNED_LEN	(16u << 20)

/* The OIDs of linux/oid_registry.h the rules look at; others are K_OID_NR. */
enum k_oid {
	K_OID_NR = 0,
	K_OID_data, K_OID_signed_data, K_OID_msIndirectData,
	K_OID_contentType, K_OID_messageDigest, K_OID_signingTime,
	K_OID_smimeCapabilites, K_OID_msSpOpusInfo, K_OID_msStatementType,
	K_OID_sha1, K_OID_sha224, K_OID_sha256, K_OID_sha384, K_OID_sha512,
	K_OID_sha3_256, K_OID_sha3_384, K_OID_sha3_512, K_OID_sm3,
	K_OID_gost2012Digest256, K_OID_gost2012Digest512,
	K_OID_rsaEncryption, K_OID_ecdsa_sha1, K_OID_ecdsa_sha224,
	K_OID_ecdsa_sha256, K_OID_ecdsa_sha384, K_OID_ecdsa_sha512,
	K_OID_ecdsa_sha3_256, K_OID_ecdsa_sha3_384, K_OID_ecdsa_sha3_512,
	K_OID_gost2012PKey256, K_OID_gost2012PKey512,
	/* x509_cert_parser.c's */
	K_OID_sha1WithRSA, K_OID_sha256WithRSA, K_OID_sha384WithRSA,
	K_OID_sha512WithRSA, K_OID_sha224WithRSA, K_OID_rsa_sha3_256,
	K_OID_rsa_sha3_384, K_OID_rsa_sha3_512, K_OID_gost2012Signature256,
	K_OID_gost2012Signature512, K_OID_id_ecPublicKey, K_OID_prime192v1,
	K_OID_prime256v1, K_OID_ansip384r1, K_OID_ansip521r1, K_OID_commonName,
	K_OID_organizationName, K_OID_email_address, K_OID_subjectKeyIdentifier,
	K_OID_keyUsage, K_OID_basicConstraints, K_OID_authorityKeyIdentifier,
};

/* look_up_OID() of lib/oid_registry.c: K_OID_NR if not one of the above */
enum k_oid k_look_up_oid(const unsigned char *p, size_t n);
/* x509_decode_time(): 0 or -EBADMSG */
int k_decode_time(int64_t *t, unsigned char tag, const unsigned char *p, size_t vlen);

/* An asymmetric_key_id: two byte strings, concatenated by the kernel;
 * set false is the kernel's NULL id (an empty one is set, of length 0).
 */
struct k_id {
	const unsigned char *a, *b;
	size_t a_len, b_len;
	bool set;
};

bool k_id_same(const struct k_id *x, const struct k_id *y);

/* struct public_key: what the kernel keeps of a certificate's key */
struct k_pub {
	const char *pkey_algo;		/* "rsa", "ecdsa-nist-p256", ... */
	const unsigned char *key, *params;
	size_t keylen, paramlen;
};

/* struct public_key_signature */
struct k_sig {
	const char *hash_algo, *pkey_algo, *encoding;
	const unsigned char *s;
	size_t s_size;
	unsigned char digest[64];
	size_t digest_size;		/* 0: no digest (unsupported hash) */
	bool non_der;			/* set by verify: an ECDSA value read, not DER */
};

/*
 * public_key_verify_signature() of crypto/asymmetric_keys/public_key.c with
 * the test kernel's rsa, pkcs1pad and ecdsa (P-192, P-256, P-384, P-521):
 * 0 or the kernel's errno.  OpenSSL does the arithmetic only.
 */
int k_public_key_verify(const struct k_pub *pub, struct k_sig *sig);

/*
 * The hash of the kernel's name ("sha256") that the test kernel's crypto API
 * has, or NULL (sha1, sm3, streebog: not built in): the one table of the
 * X.509 TBS digest (x509_get_sig_params()) and pkcs7_digest().
 */
const EVP_MD *k_hash_md(const char *name);

/* struct x509_certificate, as x509_cert_parse() leaves it */
struct k_x509 {
	unsigned char *der;		/* the certificate's bytes, owned */
	size_t der_len;
	const unsigned char *tbs;
	size_t tbs_size;
	struct k_pub pub;
	struct k_sig sig;
	struct k_id id;			/* serial || issuer */
	struct k_id skid;
	struct k_id auth_ids[2];	/* AKID serial || directoryName, keyIdentifier */
	struct k_id subject;		/* raw subject, the key's id[2] */
	const unsigned char *raw_subject, *raw_issuer;
	size_t raw_subject_size, raw_issuer_size;
	int64_t valid_from, valid_to;
	bool self_signed, unsupported_sig;
};

/* x509_cert_parse(): 0 or the kernel's errno, kit_last_error() saying why */
int k_x509_parse(const unsigned char *data, size_t len, struct k_x509 *c);
void k_x509_free(struct k_x509 *c);

struct k_sinfo {
	int index;
	unsigned long aa_set;		/* the kernel's sinfo_has_* bits */
	const char *hash_algo;
	const char *pkey_algo;		/* "rsa", "ecdsa", "ecrdsa" */
	const unsigned char *sig;
	size_t sig_len;
	const unsigned char *msgdigest;
	size_t msgdigest_len;
	const unsigned char *authattrs;	/* after the [0] tag byte */
	size_t authattrs_len;
	int64_t signing_time;
	bool by_skid;			/* SignerInfo version 3 */
	struct k_id auth_id;		/* sig->auth_ids[0] */
	/* for a report only, no rule reads them (inspect.c: the fields of a
	 * message OpenSSL cannot read): the OIDs' contents, the issuer Name's
	 * whole TLV, and what lies where the grammar has no action
	 */
	const unsigned char *digest_oid, *sig_alg_oid, *issuer_der;
	size_t digest_oid_len, sig_alg_oid_len, issuer_der_len;
	bool seq_attrs;			/* an aaSequence [2] block: parsed, not kept */
	bool unsigned_attrs;		/* a [1] or [3] block: parsed, not kept */
	int signer;			/* index into certs, or -1 */
	bool unsupported_crypto;
};

struct k_cert {
	struct k_x509 x;
	int signer;			/* issuer in the message, or -1 */
	bool seen, verified;
};

/* A parsed message, as pkcs7_parse_message() leaves it. */
struct k_msg {
	int version;
	enum k_oid data_type;
	bool has_data;			/* content embedded */
	bool have_authattrs;
	int nr_certs, nr_sinfos;		/* no bound but the message's size, as the kernel */
	struct k_cert *certs;
	struct k_sinfo *sinfos;
	int certs_cap, sinfos_cap;
};

/*
 * pkcs7_parse_message(): 0, or the kernel's errno with the kernel's
 * message in kit_last_error().  Free with k_msg_free() either way.
 */
int k_parse(const unsigned char *sig, size_t len, struct k_msg *m);
void k_msg_free(struct k_msg *m);

struct k_result {
	int signer_cert;		/* index in keyring that matched, or -1 */
	int data_signer_cert;		/* of those, one that signed the data itself, or -1 */
	bool non_der_ecdsa;		/* a SignerInfo's ECDSA value is not DER */
};

/*
 * verify_pkcs7_signature(data, len, sig, VERIFYING_BPF_SIGNATURE) against
 * keyring (certificates, as the keys of a keyring), after revoked (the
 * revocation list, may be NULL).  data and keyring NULL: the rules of the
 * form only, no digest, signature or trust (inspect).  0 or the kernel's
 * errno, kit_last_error() saying why.
 */
int k_verify(const unsigned char *sig, size_t sig_len, const void *data, size_t len,
	     STACK_OF(X509) *keyring, STACK_OF(X509) *revoked, struct k_result *res);

#endif /* BPFSIGN_PKCS7_H */
