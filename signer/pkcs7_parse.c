// SPDX-License-Identifier: GPL-2.0
/*
 * pkcs7_parse_message() of Linux 6.12, in user space: the kernel's BER
 * decoder and its compiled pkcs7.asn1 grammar (signer/kernel/, copied from
 * the tree) call these callbacks, ported from
 * crypto/asymmetric_keys/pkcs7_parser.c with the same checks in the same
 * order and the same errnos.  Each failure records the kernel's pr_warn()
 * text.  Untrusted input: every length comes from the decoder, which
 * bounds it.  Embedded certificates go to x509_parse.c, the port of the
 * kernel's X.509 parser.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/err.h>

#include "internal.h"
#include "pkcs7.h"

/* kernel/pkcs7.asn1.h and linux/asn1_decoder.h, without linux/asn1.h
 * (whose ASN1_NULL is OpenSSL's too); the callbacks below are its actions
 */
struct asn1_decoder;
extern const struct asn1_decoder pkcs7_decoder;
int asn1_ber_decoder(const struct asn1_decoder *decoder, void *context,
		     const unsigned char *data, size_t datalen);

/* linux/asn1.h */
#define ASN1_UNIV	0
#define ASN1_CONS_BIT	0x20
#define ASN1_SEQ	16
#define ASN1_OTS	4
#define ASN1_UNITIM	23
#define ASN1_GENTIM	24

enum { has_content_type, has_signing_time, has_message_digest, has_smime_caps,
       has_ms_opus_info, has_ms_statement_type };

struct k_ctx {
	struct k_msg *m;
	struct k_sinfo cur;
	enum k_oid last_oid;
	const unsigned char *last_oid_p;
	size_t last_oid_len;
	/* where the optional blocks without an action would start: the end
	 * of digestAlgorithm (authenticatedAttributes) and of encryptedDigest
	 * (unauthenticatedAttributes)
	 */
	const unsigned char *after_digest_algo, *after_sig;
	bool expect_skid;
	int nr_pending;			/* certs not yet in a certificate list */
	int sinfo_index;
	const unsigned char *raw_serial, *raw_issuer, *raw_skid;
	size_t raw_serial_size, raw_issuer_size, raw_skid_size;
};

static const struct {
	enum k_oid oid;
	const char *dotted;
} oids[] = {
	{ K_OID_data, "1.2.840.113549.1.7.1" },
	{ K_OID_signed_data, "1.2.840.113549.1.7.2" },
	{ K_OID_msIndirectData, "1.3.6.1.4.1.311.2.1.4" },
	{ K_OID_contentType, "1.2.840.113549.1.9.3" },
	{ K_OID_messageDigest, "1.2.840.113549.1.9.4" },
	{ K_OID_signingTime, "1.2.840.113549.1.9.5" },
	{ K_OID_smimeCapabilites, "1.2.840.113549.1.9.15" },
	{ K_OID_msStatementType, "1.3.6.1.4.1.311.2.1.11" },
	{ K_OID_msSpOpusInfo, "1.3.6.1.4.1.311.2.1.12" },
	{ K_OID_sha1, "1.3.14.3.2.26" },
	{ K_OID_sha256, "2.16.840.1.101.3.4.2.1" },
	{ K_OID_sha384, "2.16.840.1.101.3.4.2.2" },
	{ K_OID_sha512, "2.16.840.1.101.3.4.2.3" },
	{ K_OID_sha224, "2.16.840.1.101.3.4.2.4" },
	{ K_OID_sha3_256, "2.16.840.1.101.3.4.2.8" },
	{ K_OID_sha3_384, "2.16.840.1.101.3.4.2.9" },
	{ K_OID_sha3_512, "2.16.840.1.101.3.4.2.10" },
	{ K_OID_sm3, "1.2.156.10197.1.401" },
	{ K_OID_gost2012Digest256, "1.2.643.7.1.1.2.2" },
	{ K_OID_gost2012Digest512, "1.2.643.7.1.1.2.3" },
	{ K_OID_rsaEncryption, "1.2.840.113549.1.1.1" },
	{ K_OID_ecdsa_sha1, "1.2.840.10045.4.1" },
	{ K_OID_ecdsa_sha224, "1.2.840.10045.4.3.1" },
	{ K_OID_ecdsa_sha256, "1.2.840.10045.4.3.2" },
	{ K_OID_ecdsa_sha384, "1.2.840.10045.4.3.3" },
	{ K_OID_ecdsa_sha512, "1.2.840.10045.4.3.4" },
	{ K_OID_ecdsa_sha3_256, "2.16.840.1.101.3.4.3.10" },
	{ K_OID_ecdsa_sha3_384, "2.16.840.1.101.3.4.3.11" },
	{ K_OID_ecdsa_sha3_512, "2.16.840.1.101.3.4.3.12" },
	{ K_OID_gost2012PKey256, "1.2.643.7.1.1.1.1" },
	{ K_OID_gost2012PKey512, "1.2.643.7.1.1.1.2" },
	{ K_OID_sha1WithRSA, "1.2.840.113549.1.1.5" },
	{ K_OID_sha256WithRSA, "1.2.840.113549.1.1.11" },
	{ K_OID_sha384WithRSA, "1.2.840.113549.1.1.12" },
	{ K_OID_sha512WithRSA, "1.2.840.113549.1.1.13" },
	{ K_OID_sha224WithRSA, "1.2.840.113549.1.1.14" },
	{ K_OID_rsa_sha3_256, "2.16.840.1.101.3.4.3.14" },
	{ K_OID_rsa_sha3_384, "2.16.840.1.101.3.4.3.15" },
	{ K_OID_rsa_sha3_512, "2.16.840.1.101.3.4.3.16" },
	{ K_OID_gost2012Signature256, "1.2.643.7.1.1.3.2" },
	{ K_OID_gost2012Signature512, "1.2.643.7.1.1.3.3" },
	{ K_OID_id_ecPublicKey, "1.2.840.10045.2.1" },
	{ K_OID_prime192v1, "1.2.840.10045.3.1.1" },
	{ K_OID_prime256v1, "1.2.840.10045.3.1.7" },
	{ K_OID_ansip384r1, "1.3.132.0.34" },
	{ K_OID_ansip521r1, "1.3.132.0.35" },
	{ K_OID_commonName, "2.5.4.3" },
	{ K_OID_organizationName, "2.5.4.10" },
	{ K_OID_email_address, "1.2.840.113549.1.9.1" },
	{ K_OID_subjectKeyIdentifier, "2.5.29.14" },
	{ K_OID_keyUsage, "2.5.29.15" },
	{ K_OID_basicConstraints, "2.5.29.19" },
	{ K_OID_authorityKeyIdentifier, "2.5.29.35" },
};

/* The BER content of a dotted OID: 0, or -1 if it does not fit. */
static int oid_encode(const char *dotted, unsigned char *out, size_t size, size_t *len)
{
	unsigned long arc[32];
	size_t n = 0, o = 0;
	const char *p = dotted;
	char *end;
	int i, k;

	while (*p && n < ARRAY_SIZE(arc)) {
		arc[n++] = strtoul(p, &end, 10);
		p = *end == '.' ? end + 1 : end;
	}
	if (n < 2)
		return -1;
	arc[1] += arc[0] * 40;
	for (i = 1; i < (int)n; i++) {
		for (k = 4; k > 0 && !(arc[i] >> (7 * k)); k--)
			;
		for (; k >= 0; k--) {
			if (o == size)
				return -1;
			out[o++] = (unsigned char)((arc[i] >> (7 * k)) & 0x7f) | (k ? 0x80 : 0);
		}
	}
	*len = o;
	return 0;
}

/* v in decimal at *o in buf[0..size), NUL-terminated: -1 if it does not
 * fit (snprintf() per arc was most of an OID lookup)
 */
static int put_ulong(char *buf, size_t size, size_t *o, unsigned long v)
{
	char t[3 * sizeof(v)];
	int i = 0;

	do
		t[i++] = '0' + v % 10;
	while (v /= 10);
	if (size - *o <= (size_t)i)
		return -1;
	while (i)
		buf[(*o)++] = t[--i];
	buf[*o] = '\0';
	return 0;
}

/* sprint_oid() of lib/oid_registry.c: the dotted text of an OID's bytes,
 * 0, or -1 if they are malformed or do not fit
 */
static int oid_text(const unsigned char *v, size_t n, char *buf, size_t size)
{
	const unsigned char *end = v + n;
	unsigned long num;
	unsigned char c;
	size_t o = 0;

	if (v >= end)
		return -1;
	c = *v++;
	if (put_ulong(buf, size, &o, c / 40))
		return -1;
	num = c % 40;
	for (;;) {
		if (o + 1 >= size)
			return -1;
		buf[o++] = '.';
		if (put_ulong(buf, size, &o, num))
			return -1;
		if (v >= end)
			return 0;
		c = *v++;
		num = c & 0x7f;
		while (c & 0x80) {
			if (v >= end || num >> (sizeof(num) * 8 - 7))
				return -1;
			c = *v++;
			num = num << 7 | (c & 0x7f);
		}
	}
}

/*
 * look_up_OID(): the exact bytes of a known OID, as the kernel's table.
 * The bytes' dotted text names the one entry that can match, so only that
 * entry is encoded (encoding the whole table for each of a signature's
 * dozen OIDs was a fifth of a batch verification); comparing its encoding
 * keeps the kernel's rule that a non-minimal encoding of a known value is
 * not that OID.
 */
enum k_oid k_look_up_oid(const unsigned char *p, size_t n)
{
	unsigned char enc[32];
	char dotted[128];
	size_t len, k;

	if (oid_text(p, n, dotted, sizeof(dotted)))
		return K_OID_NR;
	for (k = 0; k < ARRAY_SIZE(oids); k++)
		if (!strcmp(oids[k].dotted, dotted))
			return !oid_encode(oids[k].dotted, enc, sizeof(enc), &len) &&
			       len == n && !memcmp(enc, p, n) ? oids[k].oid : K_OID_NR;
	return K_OID_NR;
}

int pkcs7_note_OID(void *context, size_t hdrlen, unsigned char tag,
		   const void *value, size_t vlen)
{
	struct k_ctx *ctx = context;

	(void)hdrlen;
	(void)tag;
	ctx->last_oid = k_look_up_oid(value, vlen);
	ctx->last_oid_p = value;
	ctx->last_oid_len = vlen;
	return 0;
}

/* The end of the element whose contents are value[0..vlen): past the EOC
 * of an indefinite length (the decoder's vlen stops before it).
 */
static const unsigned char *tlv_end(const void *value, size_t hdrlen, size_t vlen)
{
	const unsigned char *p = value;

	return p + vlen + (p[-(long)hdrlen + 1] == 0x80 ? 2 : 0);
}

int pkcs7_sig_note_digest_algo(void *context, size_t hdrlen, unsigned char tag,
			       const void *value, size_t vlen)
{
	static const char *const names[] = {
		[K_OID_sha1] = "sha1", [K_OID_sha256] = "sha256",
		[K_OID_sha384] = "sha384", [K_OID_sha512] = "sha512",
		[K_OID_sha224] = "sha224", [K_OID_sm3] = "sm3",
		[K_OID_gost2012Digest256] = "streebog256",
		[K_OID_gost2012Digest512] = "streebog512",
		[K_OID_sha3_256] = "sha3-256", [K_OID_sha3_384] = "sha3-384",
		[K_OID_sha3_512] = "sha3-512",
	};
	struct k_ctx *ctx = context;

	(void)tag;
	if (ctx->last_oid >= (int)ARRAY_SIZE(names) || !names[ctx->last_oid])
		return kit_err(-ENOPKG, "signature: unsupported digest algorithm in the SignerInfo (the kernel: ENOPKG)");
	ctx->cur.hash_algo = names[ctx->last_oid];
	ctx->cur.digest_oid = ctx->last_oid_p;
	ctx->cur.digest_oid_len = ctx->last_oid_len;
	ctx->after_digest_algo = tlv_end(value, hdrlen, vlen);
	return 0;
}

int pkcs7_sig_note_pkey_algo(void *context, size_t hdrlen, unsigned char tag,
			     const void *value, size_t vlen)
{
	struct k_ctx *ctx = context;
	const unsigned char *start = (const unsigned char *)value - hdrlen;

	(void)tag, (void)vlen;
	/*
	 * Between digestAlgorithm and here the grammar has only the optional
	 * authenticatedAttributes: a [0] SET ran its action and set authattrs;
	 * bytes here without it are the [2] EXPLICIT SEQUENCE, which has no
	 * action (its attributes' actions ran, but have_authattrs stays
	 * false and the signature is over the data).
	 */
	ctx->cur.seq_attrs = !ctx->cur.authattrs && ctx->after_digest_algo &&
			     start > ctx->after_digest_algo;
	ctx->cur.sig_alg_oid = ctx->last_oid_p;
	ctx->cur.sig_alg_oid_len = ctx->last_oid_len;
	switch (ctx->last_oid) {
	case K_OID_rsaEncryption:
		ctx->cur.pkey_algo = "rsa";
		return 0;
	case K_OID_ecdsa_sha1: case K_OID_ecdsa_sha224: case K_OID_ecdsa_sha256:
	case K_OID_ecdsa_sha384: case K_OID_ecdsa_sha512: case K_OID_ecdsa_sha3_256:
	case K_OID_ecdsa_sha3_384: case K_OID_ecdsa_sha3_512:
		ctx->cur.pkey_algo = "ecdsa";
		return 0;
	case K_OID_gost2012PKey256:
	case K_OID_gost2012PKey512:
		ctx->cur.pkey_algo = "ecrdsa";
		return 0;
	default:
		return kit_err(-ENOPKG, "signature: unsupported public key algorithm in the SignerInfo (rsaEncryption or ecdsa-with-*; the kernel: ENOPKG)");
	}
}

int pkcs7_check_content_type(void *context, size_t hdrlen, unsigned char tag,
			     const void *value, size_t vlen)
{
	struct k_ctx *ctx = context;

	(void)hdrlen, (void)tag, (void)value, (void)vlen;
	if (ctx->last_oid != K_OID_signed_data)
		return kit_err(-EINVAL, "signature: not a SignedData (the kernel: 'Only support pkcs7_signedData type', EINVAL)");
	return 0;
}

int pkcs7_note_signeddata_version(void *context, size_t hdrlen, unsigned char tag,
				  const void *value, size_t vlen)
{
	struct k_ctx *ctx = context;
	unsigned int version;

	(void)hdrlen, (void)tag;
	if (vlen != 1)
		goto unsupported;
	ctx->m->version = version = *(const unsigned char *)value;
	if (version == 1 || version == 3)
		return 0;
unsupported:
	return kit_err(-EINVAL, "signature: SignedData version is not 1 or 3 (the kernel: 'Unsupported SignedData version', EINVAL)");
}

int pkcs7_note_signerinfo_version(void *context, size_t hdrlen, unsigned char tag,
				  const void *value, size_t vlen)
{
	struct k_ctx *ctx = context;
	unsigned int version;

	(void)hdrlen, (void)tag;
	if (vlen != 1)
		goto unsupported;
	version = *(const unsigned char *)value;
	switch (version) {
	case 1:
		if (ctx->m->version != 1)
			goto mismatch;
		ctx->expect_skid = false;
		return 0;
	case 3:
		if (ctx->m->version == 1)
			goto mismatch;
		ctx->expect_skid = true;
		return 0;
	}
unsupported:
	return kit_err(-EINVAL, "signature: SignerInfo version is not 1 or 3 (the kernel: 'Unsupported SignerInfo version', EINVAL)");
mismatch:
	return kit_err(-EBADMSG, "signature: SignerInfo version %u does not go with SignedData version %d (the kernel: 'SignedData-SignerInfo version mismatch', EBADMSG)",
		       version, ctx->m->version);
}

/* room for one more element of a message's array: no bound but memory,
 * as the kernel's lists (the 8192-byte signature bounds them)
 */
static int grow(void **arr, int *cap, int nr, size_t size)
{
	void *p;

	if (nr < *cap)
		return 0;
	p = realloc(*arr, (size_t)(*cap ? *cap * 2 : 8) * size);
	if (!p)
		return kit_err(-ENOMEM, "signature: %s", strerror(ENOMEM));
	*arr = p;
	*cap = *cap ? *cap * 2 : 8;
	return 0;
}

int pkcs7_extract_cert(void *context, size_t hdrlen, unsigned char tag,
		       const void *value, size_t vlen)
{
	struct k_ctx *ctx = context;
	const unsigned char *p = (const unsigned char *)value - hdrlen;
	struct k_msg *m = ctx->m;
	struct k_cert *c;
	int err;

	if (tag != ((ASN1_UNIV << 6) | ASN1_CONS_BIT | ASN1_SEQ))
		return kit_err(-EBADMSG, "signature: an embedded certificate is not a SEQUENCE (EBADMSG)");
	vlen += hdrlen;
	if (p[1] == 0x80)
		vlen += 2;	/* indefinite length: the EOC */
	err = grow((void **)&m->certs, &m->certs_cap, m->nr_certs, sizeof(*m->certs));
	if (err)
		return err;
	c = &m->certs[m->nr_certs];
	memset(c, 0, sizeof(*c));
	err = k_x509_parse(p, vlen, &c->x);
	if (err) {
		k_x509_free(&c->x);
		return kit_err(err, "signature: embedded certificate %d: %s", m->nr_certs + 1,
			       kit_last_error());
	}
	c->signer = -1;
	m->nr_certs++;
	ctx->nr_pending++;
	return 0;
}

int pkcs7_note_certificate_list(void *context, size_t hdrlen, unsigned char tag,
				const void *value, size_t vlen)
{
	struct k_ctx *ctx = context;

	(void)hdrlen, (void)tag, (void)value, (void)vlen;
	ctx->nr_pending = 0;	/* they are the message's now */
	return 0;
}

int pkcs7_note_content(void *context, size_t hdrlen, unsigned char tag,
		       const void *value, size_t vlen)
{
	struct k_ctx *ctx = context;

	(void)hdrlen, (void)tag, (void)value, (void)vlen;
	if (ctx->last_oid != K_OID_data && ctx->last_oid != K_OID_msIndirectData)
		return kit_err(-EINVAL, "signature: eContentType is not pkcs7-data (the kernel: 'Unsupported data type', EINVAL)");
	ctx->m->data_type = ctx->last_oid;
	return 0;
}

int pkcs7_note_data(void *context, size_t hdrlen, unsigned char tag,
		    const void *value, size_t vlen)
{
	struct k_ctx *ctx = context;

	(void)hdrlen, (void)tag, (void)value, (void)vlen;
	ctx->m->has_data = true;
	return 0;
}

/* x509_decode_time() of x509_cert_parser.c: for signingTime here, and for
 * certificate validity in x509_parse.c
 */
int k_decode_time(int64_t *t, unsigned char tag, const unsigned char *p, size_t vlen)
{
	static const unsigned char month_lengths[] = { 31, 28, 31, 30, 31, 30,
						       31, 31, 30, 31, 30, 31 };
	unsigned int v[7], year, mon_len, i, n;
	struct tm tm = { 0 };

	n = tag == ASN1_UNITIM ? 13 : 15;
	if ((tag != ASN1_UNITIM && tag != ASN1_GENTIM) || vlen != n || p[n - 1] != 'Z')
		return -EBADMSG;
	for (i = 0; i < n - 1; i += 2) {
		if ((unsigned char)(p[i] - '0') > 9 || (unsigned char)(p[i + 1] - '0') > 9)
			return -EBADMSG;
		v[i / 2] = (p[i] - '0') * 10 + (p[i + 1] - '0');
	}
	if (tag == ASN1_UNITIM) {
		/* YYMMDDhhmmss: as YYYYMMDDhhmmss, v[1] the year */
		year = v[0] >= 50 ? 1900 + v[0] : 2000 + v[0];
		v[6] = v[5], v[5] = v[4], v[4] = v[3], v[3] = v[2], v[2] = v[1], v[1] = v[0];
	} else {
		year = v[0] * 100 + v[1];
		/* RFC 5280: 1950 to 2049 are UTCTime */
		if (year >= 1950 && year <= 2049)
			return -EBADMSG;
	}
	/* v[2..6]: month, day, hour, minute, second */
	if (year < 1970 || v[2] < 1 || v[2] > 12)
		return -EBADMSG;
	mon_len = month_lengths[v[2] - 1];
	if (v[2] == 2 && year % 4 == 0)
		mon_len = year % 100 == 0 && year % 400 != 0 ? 28 : 29;
	if (v[3] < 1 || v[3] > mon_len || v[4] > 24 || v[5] > 59 || v[6] > 60)
		return -EBADMSG;
	tm.tm_year = (int)year - 1900;
	tm.tm_mon = (int)v[2] - 1;
	tm.tm_mday = (int)v[3];
	tm.tm_hour = (int)v[4];
	tm.tm_min = (int)v[5];
	tm.tm_sec = (int)v[6];
	*t = (int64_t)timegm(&tm);
	return 0;
}

static int decode_time(int64_t *t, unsigned char tag, const unsigned char *p, size_t vlen)
{
	if (k_decode_time(t, tag, p, vlen))
		return kit_err(-EBADMSG, "signature: signingTime is not a time the kernel reads (EBADMSG)");
	return 0;
}

int pkcs7_sig_note_authenticated_attr(void *context, size_t hdrlen, unsigned char tag,
				      const void *value, size_t vlen)
{
	struct k_ctx *ctx = context;
	struct k_sinfo *s = &ctx->cur;
	int bit;

	(void)hdrlen;
	switch (ctx->last_oid) {
	case K_OID_contentType:
		bit = has_content_type;
		break;
	case K_OID_signingTime:
		bit = has_signing_time;
		break;
	case K_OID_messageDigest:
		bit = has_message_digest;
		break;
	case K_OID_smimeCapabilites:
		bit = has_smime_caps;
		break;
	case K_OID_msSpOpusInfo:
		bit = has_ms_opus_info;
		break;
	case K_OID_msStatementType:
		bit = has_ms_statement_type;
		break;
	default:
		return 0;
	}
	if (s->aa_set & (1ul << bit))
		return kit_err(-EKEYREJECTED, "signature: a repeated or multi-valued signed attribute (the kernel: EKEYREJECTED)");
	s->aa_set |= 1ul << bit;

	switch (ctx->last_oid) {
	case K_OID_contentType:
		if (k_look_up_oid(value, vlen) != ctx->m->data_type)
			return kit_err(-EBADMSG, "signature: the contentType attribute is not the content type (the kernel: EBADMSG)");
		return 0;
	case K_OID_signingTime:
		return decode_time(&s->signing_time, tag, value, vlen);
	case K_OID_messageDigest:
		if (tag != ASN1_OTS)
			return kit_err(-EBADMSG, "signature: the messageDigest attribute is not an OCTET STRING (EBADMSG)");
		s->msgdigest = value;
		s->msgdigest_len = vlen;
		return 0;
	case K_OID_smimeCapabilites:
		if (ctx->m->data_type != K_OID_msIndirectData)
			return kit_err(-EKEYREJECTED, "signature: S/MIME capabilities: the kernel allows them only with Authenticode (EKEYREJECTED; openssl cms -sign -nosmimecap or -noattr)");
		return 0;
	default:
		if (ctx->m->data_type != K_OID_msIndirectData)
			return kit_err(-EKEYREJECTED, "signature: an Authenticode attribute outside Authenticode (EKEYREJECTED)");
		return 0;
	}
}

int pkcs7_sig_note_set_of_authattrs(void *context, size_t hdrlen, unsigned char tag,
				    const void *value, size_t vlen)
{
	struct k_ctx *ctx = context;
	struct k_sinfo *s = &ctx->cur;

	(void)tag;
	if (!(s->aa_set & (1ul << has_content_type)) ||
	    !(s->aa_set & (1ul << has_message_digest)))
		return kit_err(-EBADMSG, "signature: signed attributes without contentType or messageDigest (the kernel: 'Missing required AuthAttr', EBADMSG)");
	if (ctx->m->data_type != K_OID_msIndirectData &&
	    (s->aa_set & (1ul << has_ms_opus_info)))
		return kit_err(-EBADMSG, "signature: an Authenticode attribute outside Authenticode (EBADMSG)");
	s->authattrs = (const unsigned char *)value - (hdrlen - 1);
	s->authattrs_len = vlen + (hdrlen - 1);
	return 0;
}

int pkcs7_sig_note_serial(void *context, size_t hdrlen, unsigned char tag,
			  const void *value, size_t vlen)
{
	struct k_ctx *ctx = context;

	(void)hdrlen, (void)tag;
	ctx->raw_serial = value;
	ctx->raw_serial_size = vlen;
	return 0;
}

int pkcs7_sig_note_issuer(void *context, size_t hdrlen, unsigned char tag,
			  const void *value, size_t vlen)
{
	struct k_ctx *ctx = context;

	(void)tag;
	ctx->raw_issuer = value;
	ctx->raw_issuer_size = vlen;
	ctx->cur.issuer_der = (const unsigned char *)value - hdrlen;
	ctx->cur.issuer_der_len = (size_t)(tlv_end(value, hdrlen, vlen) - ctx->cur.issuer_der);
	return 0;
}

int pkcs7_sig_note_skid(void *context, size_t hdrlen, unsigned char tag,
			const void *value, size_t vlen)
{
	struct k_ctx *ctx = context;

	(void)hdrlen, (void)tag;
	ctx->raw_skid = value;
	ctx->raw_skid_size = vlen;
	return 0;
}

int pkcs7_sig_note_signature(void *context, size_t hdrlen, unsigned char tag,
			     const void *value, size_t vlen)
{
	struct k_ctx *ctx = context;

	(void)hdrlen, (void)tag;
	ctx->cur.sig = value;
	ctx->cur.sig_len = vlen;
	ctx->after_sig = (const unsigned char *)value + vlen;
	return 0;
}

int pkcs7_note_signed_info(void *context, size_t hdrlen, unsigned char tag,
			   const void *value, size_t vlen)
{
	struct k_ctx *ctx = context;
	struct k_sinfo *s = &ctx->cur;

	(void)hdrlen, (void)tag;
	/* bytes after encryptedDigest: the unauthenticatedAttributes, no action */
	s->unsigned_attrs = ctx->after_sig &&
			    ctx->after_sig < (const unsigned char *)value + vlen;
	if (ctx->m->data_type == K_OID_msIndirectData && !s->authattrs)
		return kit_err(-EBADMSG, "signature: Authenticode without signed attributes (EBADMSG)");
	/* asymmetric_key_generate_id(): serial || issuer, or the skid */
	s->by_skid = ctx->expect_skid;
	if (!ctx->expect_skid) {
		s->auth_id.a = ctx->raw_serial;
		s->auth_id.a_len = ctx->raw_serial_size;
		s->auth_id.b = ctx->raw_issuer;
		s->auth_id.b_len = ctx->raw_issuer_size;
	} else {
		s->auth_id.a = ctx->raw_skid;
		s->auth_id.a_len = ctx->raw_skid_size;
	}
	s->auth_id.set = true;
	if (grow((void **)&ctx->m->sinfos, &ctx->m->sinfos_cap, ctx->m->nr_sinfos,
		 sizeof(*ctx->m->sinfos)))
		return -ENOMEM;
	s->index = ++ctx->sinfo_index;
	s->signer = -1;
	ctx->m->sinfos[ctx->m->nr_sinfos++] = *s;
	memset(s, 0, sizeof(*s));
	ctx->after_digest_algo = ctx->after_sig = NULL;
	return 0;
}

/* pkcs7_check_authattrs(): all SignerInfos with, or all without */
static int check_authattrs(struct k_msg *m)
{
	int i;

	if (!m->nr_sinfos)
		goto inconsistent;
	m->have_authattrs = m->sinfos[0].authattrs != NULL;
	for (i = 1; i < m->nr_sinfos; i++)
		if (!!m->sinfos[i].authattrs != m->have_authattrs)
			goto inconsistent;
	return 0;
inconsistent:
	return kit_err(-EINVAL, m->nr_sinfos ?
		       "signature: signed attributes on some SignerInfos only (the kernel: 'Inconsistently supplied authAttrs', EINVAL)" :
		       "signature: no SignerInfo (the kernel: 'Inconsistently supplied authAttrs', EINVAL)");
}

void k_msg_free(struct k_msg *m)
{
	int i;

	for (i = 0; i < m->nr_certs; i++)
		k_x509_free(&m->certs[i].x);
	free(m->certs);
	free(m->sinfos);
	m->certs = NULL;
	m->sinfos = NULL;
	m->nr_certs = m->nr_sinfos = m->certs_cap = m->sinfos_cap = 0;
}

int k_parse(const unsigned char *sig, size_t len, struct k_msg *m)
{
	struct k_ctx ctx = { .m = m };
	int err;

	memset(m, 0, sizeof(*m));
	kit_err(-EBADMSG, "signature: not BER the kernel's decoder takes (malformed, truncated, unexpected tag; EBADMSG)");
	/* a callback's failure replaces this message with its own */
	err = asn1_ber_decoder(&pkcs7_decoder, &ctx, sig, len);
	if (err == -EMSGSIZE)
		kit_err(err, "signature: %zu bytes: the kernel's decoder takes at most 65535 (EMSGSIZE)",
			len);
	if (!err)
		err = check_authattrs(m);
	/* certificates outside a certificate list (the CRL fields) are dropped */
	while (ctx.nr_pending && m->nr_certs) {
		k_x509_free(&m->certs[--m->nr_certs].x);
		ctx.nr_pending--;
	}
	return err;
}
