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
#include <time.h>
#include <openssl/x509.h>

/* bpf_prog_verify_signature(): 0 < signature_size <= KMALLOC_MAX_CACHE_SIZE */
#define K_MAX_SIG_SIZE		8192
#define K_MAX_SINFOS		16
#define K_MAX_CERTS		16

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
};

/* An asymmetric_key_id: two byte strings, concatenated by the kernel. */
struct k_id {
	const unsigned char *a, *b;
	size_t a_len, b_len;
};

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
	time_t signing_time;
	bool by_skid;			/* SignerInfo version 3 */
	struct k_id auth_id;		/* sig->auth_ids[0] */
	int signer;			/* index into certs, or -1 */
	bool unsupported_crypto;
};

struct k_cert {
	X509 *x;
	struct k_id id;			/* serial || issuer */
	struct k_id skid;		/* a_len 0: none */
	struct k_id subject;
	int signer;			/* issuer in the message, or -1 */
	bool self_signed, seen, verified;
};

/* A parsed message, as pkcs7_parse_message() leaves it. */
struct k_msg {
	int version;
	enum k_oid data_type;
	bool has_data;			/* content embedded */
	bool have_authattrs;
	int nr_certs, nr_sinfos;
	struct k_cert certs[K_MAX_CERTS];
	struct k_sinfo sinfos[K_MAX_SINFOS];
};

/*
 * pkcs7_parse_message(): 0, or the kernel's errno with the kernel's
 * message in kit_last_error().  Free with k_msg_free() either way.
 */
int k_parse(const unsigned char *sig, size_t len, struct k_msg *m);
void k_msg_free(struct k_msg *m);

struct k_result {
	int signer_cert;		/* index in keyring that matched, or -1 */
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
