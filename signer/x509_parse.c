// SPDX-License-Identifier: GPL-2.0
/*
 * x509_cert_parse() of Linux 6.12, in user space: the kernel's BER decoder
 * runs its compiled x509.asn1 and x509_akid.asn1 grammars (signer/kernel/,
 * made by the kernel's scripts/asn1_compiler) and calls these callbacks,
 * ported from crypto/asymmetric_keys/x509_cert_parser.c with the same
 * checks and errnos; then x509_get_sig_params() and
 * x509_check_for_self_signed() of x509_public_key.c.  What the kernel
 * accepts here, and only that, is a certificate offline: times, algorithms,
 * curves, SKID, keyUsage, basicConstraints and AKID as the kernel reads them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/evp.h>

#include "internal.h"
#include "pkcs7.h"

/* kernel/x509.asn1.h and kernel/x509_akid.asn1.h: their actions are below */
struct asn1_decoder;
extern const struct asn1_decoder x509_decoder;
extern const struct asn1_decoder x509_akid_decoder;
int asn1_ber_decoder(const struct asn1_decoder *decoder, void *context,
		     const unsigned char *data, size_t datalen);

/* linux/asn1.h */
#define ASN1_CONT	2
#define ASN1_CONS_BIT	0x20
#define ASN1_BOOL	1
#define ASN1_BTS	3
#define ASN1_OTS	4
#define ASN1_OID	6
#define ASN1_SEQ	16

struct x509_ctx {
	struct k_x509 *cert;
	const unsigned char *key, *params;
	size_t key_size, params_size;
	enum k_oid last_oid, sig_algo;
	const unsigned char *raw_akid;
	size_t raw_akid_size;
	const unsigned char *akid_raw_issuer;
	size_t akid_raw_issuer_size;
	const char *why;		/* the check that failed, for the message */
};

static struct k_id make_id(const unsigned char *a, size_t a_len, const unsigned char *b,
			   size_t b_len)
{
	return (struct k_id){ .a = a, .a_len = a_len, .b = b, .b_len = b_len, .set = true };
}

/* asymmetric_key_id_same(): both present, the same bytes */
bool k_id_same(const struct k_id *x, const struct k_id *y)
{
	size_t i, n = x->a_len + x->b_len;

	if (!x->set || !y->set || n != y->a_len + y->b_len)
		return false;
	for (i = 0; i < n; i++)
		if ((i < x->a_len ? x->a[i] : x->b[i - x->a_len]) !=
		    (i < y->a_len ? y->a[i] : y->b[i - y->a_len]))
			return false;
	return true;
}

static int fail(struct x509_ctx *ctx, int err, const char *why)
{
	ctx->why = why;
	return err;
}

int x509_note_OID(void *context, size_t hdrlen, unsigned char tag, const void *value,
		  size_t vlen)
{
	struct x509_ctx *ctx = context;

	(void)hdrlen, (void)tag;
	ctx->last_oid = k_look_up_oid(value, vlen);
	return 0;
}

int x509_note_tbs_certificate(void *context, size_t hdrlen, unsigned char tag,
			      const void *value, size_t vlen)
{
	struct x509_ctx *ctx = context;

	(void)tag;
	ctx->cert->tbs = (const unsigned char *)value - hdrlen;
	ctx->cert->tbs_size = vlen + hdrlen;
	return 0;
}

int x509_note_sig_algo(void *context, size_t hdrlen, unsigned char tag, const void *value,
		       size_t vlen)
{
	static const struct {
		enum k_oid oid;
		const char *hash, *pkey, *encoding;
	} algos[] = {
		{ K_OID_sha1WithRSA, "sha1", "rsa", "pkcs1" },
		{ K_OID_sha256WithRSA, "sha256", "rsa", "pkcs1" },
		{ K_OID_sha384WithRSA, "sha384", "rsa", "pkcs1" },
		{ K_OID_sha512WithRSA, "sha512", "rsa", "pkcs1" },
		{ K_OID_sha224WithRSA, "sha224", "rsa", "pkcs1" },
		{ K_OID_ecdsa_sha1, "sha1", "ecdsa", "x962" },
		{ K_OID_rsa_sha3_256, "sha3-256", "rsa", "pkcs1" },
		{ K_OID_rsa_sha3_384, "sha3-384", "rsa", "pkcs1" },
		{ K_OID_rsa_sha3_512, "sha3-512", "rsa", "pkcs1" },
		{ K_OID_ecdsa_sha224, "sha224", "ecdsa", "x962" },
		{ K_OID_ecdsa_sha256, "sha256", "ecdsa", "x962" },
		{ K_OID_ecdsa_sha384, "sha384", "ecdsa", "x962" },
		{ K_OID_ecdsa_sha512, "sha512", "ecdsa", "x962" },
		{ K_OID_ecdsa_sha3_256, "sha3-256", "ecdsa", "x962" },
		{ K_OID_ecdsa_sha3_384, "sha3-384", "ecdsa", "x962" },
		{ K_OID_ecdsa_sha3_512, "sha3-512", "ecdsa", "x962" },
		{ K_OID_gost2012Signature256, "streebog256", "ecrdsa", "raw" },
		{ K_OID_gost2012Signature512, "streebog512", "ecrdsa", "raw" },
	};
	struct x509_ctx *ctx = context;
	size_t i;

	(void)hdrlen, (void)tag, (void)value, (void)vlen;
	for (i = 0; i < ARRAY_SIZE(algos); i++)
		if (algos[i].oid == ctx->last_oid) {
			ctx->cert->sig.hash_algo = algos[i].hash;
			ctx->cert->sig.pkey_algo = algos[i].pkey;
			ctx->cert->sig.encoding = algos[i].encoding;
			ctx->sig_algo = ctx->last_oid;
			return 0;
		}
	return fail(ctx, -ENOPKG, "its signature algorithm is not one the kernel has (RSA PKCS#1 v1.5 or ECDSA with SHA-1/2/3, GOST; not RSA-PSS, Ed25519, DSA)");
}

int x509_note_signature(void *context, size_t hdrlen, unsigned char tag, const void *value,
			size_t vlen)
{
	struct x509_ctx *ctx = context;
	const unsigned char *v = value;

	(void)hdrlen, (void)tag;
	/* the algorithm is in the TBS and outside it: they must match */
	if (ctx->last_oid != ctx->sig_algo)
		return fail(ctx, -EINVAL, "signatureAlgorithm differs from tbsCertificate.signature");
	/* every algorithm x509_note_sig_algo() takes: drop the unused-bits byte */
	if (vlen < 1 || v[0] != 0)
		return fail(ctx, -EBADMSG, "its signature BIT STRING has unused bits");
	ctx->cert->sig.s = v + 1;
	ctx->cert->sig.s_size = vlen - 1;
	return 0;
}

int x509_note_serial(void *context, size_t hdrlen, unsigned char tag, const void *value,
		     size_t vlen)
{
	struct x509_ctx *ctx = context;

	(void)hdrlen, (void)tag;
	ctx->cert->id.a = value;
	ctx->cert->id.a_len = vlen;
	return 0;
}

/* The kernel fabricates a name from CN, O and emailAddress; only the
 * bytes of the names matter to a verdict, so the segments are not kept.
 */
int x509_extract_name_segment(void *context, size_t hdrlen, unsigned char tag,
			      const void *value, size_t vlen)
{
	(void)context, (void)hdrlen, (void)tag, (void)value, (void)vlen;
	return 0;
}

int x509_note_issuer(void *context, size_t hdrlen, unsigned char tag, const void *value,
		     size_t vlen)
{
	struct x509_ctx *ctx = context;

	(void)hdrlen, (void)tag;
	ctx->cert->raw_issuer = value;
	ctx->cert->raw_issuer_size = vlen;
	return 0;
}

int x509_note_subject(void *context, size_t hdrlen, unsigned char tag, const void *value,
		      size_t vlen)
{
	struct x509_ctx *ctx = context;

	(void)hdrlen, (void)tag;
	ctx->cert->raw_subject = value;
	ctx->cert->raw_subject_size = vlen;
	return 0;
}

int x509_note_params(void *context, size_t hdrlen, unsigned char tag, const void *value,
		     size_t vlen)
{
	struct x509_ctx *ctx = context;

	(void)tag;
	/* the second AlgorithmIdentifier: the key's, after the subject */
	if (!ctx->cert->raw_subject || ctx->key)
		return 0;
	ctx->params = (const unsigned char *)value - hdrlen;
	ctx->params_size = vlen + hdrlen;
	return 0;
}

int x509_extract_key_data(void *context, size_t hdrlen, unsigned char tag,
			  const void *value, size_t vlen)
{
	struct x509_ctx *ctx = context;
	struct k_pub *pub = &ctx->cert->pub;
	const unsigned char *v = value;
	enum k_oid curve;

	(void)hdrlen, (void)tag;
	switch (ctx->last_oid) {
	case K_OID_rsaEncryption:
		pub->pkey_algo = "rsa";
		break;
	case K_OID_gost2012PKey256:
	case K_OID_gost2012PKey512:
		pub->pkey_algo = "ecrdsa";
		break;
	case K_OID_id_ecPublicKey:
		/* parse_OID(): one OID, or EBADMSG (named curves only) */
		if (ctx->params_size < 3 || ctx->params[0] != ASN1_OID ||
		    ctx->params[1] != ctx->params_size - 2)
			return fail(ctx, -EBADMSG, "its EC key parameters are not a named curve");
		curve = k_look_up_oid(ctx->params + 2, ctx->params_size - 2);
		switch (curve) {
		case K_OID_prime192v1:
			pub->pkey_algo = "ecdsa-nist-p192";
			break;
		case K_OID_prime256v1:
			pub->pkey_algo = "ecdsa-nist-p256";
			break;
		case K_OID_ansip384r1:
			pub->pkey_algo = "ecdsa-nist-p384";
			break;
		case K_OID_ansip521r1:
			pub->pkey_algo = "ecdsa-nist-p521";
			break;
		default:
			return fail(ctx, -ENOPKG, "its EC curve is not one the kernel has (P-192, P-256, P-384, P-521)");
		}
		break;
	default:
		return fail(ctx, -ENOPKG, "its key algorithm is not one the kernel has (RSA, ECDSA; not Ed25519, DSA, RSA-PSS)");
	}
	if (vlen < 1 || v[0] != 0)
		return fail(ctx, -EBADMSG, "its key BIT STRING has unused bits");
	ctx->key = v + 1;
	ctx->key_size = vlen - 1;
	return 0;
}

int x509_process_extension(void *context, size_t hdrlen, unsigned char tag,
			   const void *value, size_t vlen)
{
	struct x509_ctx *ctx = context;
	const unsigned char *v = value;

	(void)hdrlen, (void)tag;
	switch (ctx->last_oid) {
	case K_OID_subjectKeyIdentifier:
		/* one, a short-form OCTET STRING of at least one byte */
		if (ctx->cert->skid.set || vlen < 3)
			return fail(ctx, -EBADMSG, "a second or empty subjectKeyIdentifier");
		if (v[0] != ASN1_OTS || v[1] != vlen - 2)
			return fail(ctx, -EBADMSG, "its subjectKeyIdentifier is not an OCTET STRING with a one-byte length");
		ctx->cert->skid = make_id(v + 2, vlen - 2, NULL, 0);
		return 0;
	case K_OID_keyUsage:
		if (vlen < 4 || v[0] != ASN1_BTS || v[2] >= 8)
			return fail(ctx, -EBADMSG, "its keyUsage is empty or not a BIT STRING");
		return 0;
	case K_OID_authorityKeyIdentifier:
		ctx->raw_akid = v;
		ctx->raw_akid_size = vlen;
		return 0;
	case K_OID_basicConstraints:
		/* an empty SEQUENCE (CA:FALSE, DER) or CA:TRUE first */
		if (vlen < 2 || v[0] != (ASN1_CONS_BIT | ASN1_SEQ) || v[1] != vlen - 2)
			return fail(ctx, -EBADMSG, "its basicConstraints is not a SEQUENCE");
		if (v[1] == 0)
			return 0;
		if (vlen >= 5 && v[2] == ASN1_BOOL && v[3] == 1 && v[4] == 0xff)
			return 0;
		return fail(ctx, -EBADMSG, "its basicConstraints is neither empty nor CA:TRUE (an explicit CA:FALSE, a pathlen alone)");
	default:
		return 0;
	}
}

int x509_note_not_before(void *context, size_t hdrlen, unsigned char tag,
			 const void *value, size_t vlen)
{
	struct x509_ctx *ctx = context;

	(void)hdrlen;
	if (k_decode_time(&ctx->cert->valid_from, tag, value, vlen))
		return fail(ctx, -EBADMSG, "its notBefore is not a time the kernel reads (UTCTime or, from 2050, GeneralizedTime, with seconds, from 1970)");
	return 0;
}

int x509_note_not_after(void *context, size_t hdrlen, unsigned char tag,
			const void *value, size_t vlen)
{
	struct x509_ctx *ctx = context;

	(void)hdrlen;
	if (k_decode_time(&ctx->cert->valid_to, tag, value, vlen))
		return fail(ctx, -EBADMSG, "its notAfter is not a time the kernel reads (UTCTime or, from 2050, GeneralizedTime, with seconds, from 1970)");
	return 0;
}

int x509_akid_note_kid(void *context, size_t hdrlen, unsigned char tag, const void *value,
		       size_t vlen)
{
	struct x509_ctx *ctx = context;

	(void)hdrlen, (void)tag;
	if (!ctx->cert->auth_ids[1].set)
		ctx->cert->auth_ids[1] = make_id(value, vlen, NULL, 0);
	return 0;
}

int x509_akid_note_name(void *context, size_t hdrlen, unsigned char tag, const void *value,
			size_t vlen)
{
	struct x509_ctx *ctx = context;

	(void)hdrlen, (void)tag;
	ctx->akid_raw_issuer = value;
	ctx->akid_raw_issuer_size = vlen;
	return 0;
}

int x509_akid_note_serial(void *context, size_t hdrlen, unsigned char tag,
			  const void *value, size_t vlen)
{
	struct x509_ctx *ctx = context;

	(void)hdrlen, (void)tag;
	if (!ctx->akid_raw_issuer || ctx->cert->auth_ids[0].set)
		return 0;
	ctx->cert->auth_ids[0] = make_id(value, vlen, ctx->akid_raw_issuer,
					 ctx->akid_raw_issuer_size);
	return 0;
}

/* x509_get_sig_params(): the TBS digest; a hash the kernel lacks is not an
 * error but an unsupported signature, checked by no one
 */
static int get_sig_params(struct k_x509 *c)
{
	const EVP_MD *md = k_hash_md(c->sig.hash_algo);
	unsigned int n;

	if (!md) {
		c->unsupported_sig = true;
		return 0;
	}
	if (!EVP_Digest(c->tbs, c->tbs_size, c->sig.digest, &n, md, NULL))
		return -ENOMEM;
	c->sig.digest_size = n;
	return 0;
}

/* x509_check_for_self_signed(): subject == issuer and an AKID (if any)
 * naming itself make a self-signed certificate, whose signature must verify
 */
static int check_for_self_signed(struct k_x509 *c, struct x509_ctx *ctx)
{
	bool a, b;
	int err;

	if (c->raw_subject_size != c->raw_issuer_size ||
	    memcmp(c->raw_subject, c->raw_issuer, c->raw_issuer_size))
		return 0;
	if (c->auth_ids[0].set || c->auth_ids[1].set) {
		a = k_id_same(&c->skid, &c->auth_ids[1]);
		b = k_id_same(&c->id, &c->auth_ids[0]);
		if (!a && !b)
			return 0;
		if (a != b && c->auth_ids[0].set && c->auth_ids[1].set)
			return fail(ctx, -EKEYREJECTED, "self-signed, and its AKID's keyIdentifier and issuer+serial disagree");
	}
	if (c->unsupported_sig)
		return 0;
	err = k_public_key_verify(&c->pub, &c->sig);
	if (err == -ENOPKG) {
		c->unsupported_sig = true;
		return 0;
	}
	if (err)
		return fail(ctx, err, "its subject is its issuer, and its self-signature does not verify");
	c->self_signed = true;
	return 0;
}

void k_x509_free(struct k_x509 *c)
{
	free(c->der);
	memset(c, 0, sizeof(*c));
}

int k_x509_parse(const unsigned char *data, size_t len, struct k_x509 *c)
{
	struct x509_ctx ctx = { .cert = c };
	int err;

	memset(c, 0, sizeof(*c));
	c->der = malloc(len ? len : 1);
	if (!c->der)
		return kit_err(-ENOMEM, "certificate: %s", strerror(ENOMEM));
	memcpy(c->der, data, len);
	c->der_len = len;
	ctx.why = "not DER the kernel's X.509 grammar takes";
	err = asn1_ber_decoder(&x509_decoder, &ctx, c->der, len);
	if (!err && ctx.raw_akid) {
		ctx.why = "its authorityKeyIdentifier does not decode";
		err = asn1_ber_decoder(&x509_akid_decoder, &ctx, ctx.raw_akid, ctx.raw_akid_size);
	}
	if (err)
		goto out;
	c->pub.key = ctx.key;
	c->pub.keylen = ctx.key_size;
	c->pub.params = ctx.params;
	c->pub.paramlen = ctx.params_size;
	err = get_sig_params(c);
	if (err)
		goto out;
	c->id.b = c->raw_issuer;
	c->id.b_len = c->raw_issuer_size;
	c->id.set = true;
	c->subject = make_id(c->raw_subject, c->raw_subject_size, NULL, 0);
	err = check_for_self_signed(c, &ctx);
out:
	if (err)
		return kit_err(err, "certificate: %s (the kernel's X.509 parser: %s)", ctx.why,
			       bpfsign_errno_name(err));
	return 0;
}
