// SPDX-License-Identifier: GPL-2.0
/*
 * public_key_verify_signature() of Linux 6.12 (crypto/asymmetric_keys/
 * public_key.c) with the test kernel's algorithms: rsa.c's key sizes,
 * rsa-pkcs1pad.c's padding checks, ecdsa.c's key checks and its signature
 * decoding (the kernel's BER decoder running the compiled
 * ecdsasignature.asn1, signer/kernel/), each with the kernel's errno.
 * OpenSSL does the modular arithmetic and nothing else.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/rsa.h>

#include "internal.h"
#include "pkcs7.h"

struct asn1_decoder;
extern const struct asn1_decoder ecdsasignature_decoder;
int asn1_ber_decoder(const struct asn1_decoder *decoder, void *context,
		     const unsigned char *data, size_t datalen);

const EVP_MD *k_hash_md(const char *name)
{
	static const struct {
		const char *kname, *ossl;
	} mds[] = {
		{ "sha224", "SHA224" }, { "sha256", "SHA256" }, { "sha384", "SHA384" },
		{ "sha512", "SHA512" }, { "sha3-256", "SHA3-256" },
		{ "sha3-384", "SHA3-384" }, { "sha3-512", "SHA3-512" },
	};
	size_t i;

	for (i = 0; name && i < ARRAY_SIZE(mds); i++)
		if (!strcmp(name, mds[i].kname))
			return EVP_get_digestbyname(mds[i].ossl);
	return NULL;
}

/* --- RSA ------------------------------------------------------------------ */

/* rsa-pkcs1pad.c's DigestInfo prefixes */
static const unsigned char *digest_info(const char *hash, size_t *len)
{
#define DI(n, oidlast, dlen) { n, { 0x30, (unsigned char)(0x11 + (dlen)), 0x30, 0x0d, 0x06, 0x09, \
	0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, oidlast, 0x05, 0x00, 0x04, dlen } }
	static const struct {
		const char *name;
		unsigned char p[19];
	} t[] = {
		DI("sha256", 0x01, 0x20), DI("sha384", 0x02, 0x30), DI("sha512", 0x03, 0x40),
		DI("sha224", 0x04, 0x1c), DI("sha3-256", 0x08, 0x20), DI("sha3-384", 0x09, 0x30),
		DI("sha3-512", 0x0a, 0x40),
	};
#undef DI
	size_t i;

	for (i = 0; hash && i < ARRAY_SIZE(t); i++)
		if (!strcmp(hash, t[i].name)) {
			*len = sizeof(t[i].p);
			return t[i].p;
		}
	return NULL;
}

/*
 * rsa_set_pub_key(): an RSAPublicKey whose modulus, in 64-bit limbs, is
 * 512, 1024, 1536 (not in FIPS mode), 2048, 3072 or 4096 bits; else EINVAL
 * (2560 or 8192 bits are keys the kernel cannot hold).
 */
static int rsa_key(const struct k_pub *pub, EVP_PKEY **pk, size_t *key_size)
{
	const unsigned char *p = pub->key;
	BIGNUM *n = NULL;
	size_t bits;

	*pk = d2i_PublicKey(EVP_PKEY_RSA, NULL, &p, (long)pub->keylen);
	if (!*pk)
		return -EBADMSG;
	if (!EVP_PKEY_get_bn_param(*pk, OSSL_PKEY_PARAM_RSA_N, &n)) {
		EVP_PKEY_free(*pk);
		return -ENOMEM;
	}
	*key_size = (size_t)BN_num_bytes(n);
	BN_free(n);
	bits = (*key_size + 7) / 8 * 64;
	if (bits != 512 && bits != 1024 && bits != 1536 && bits != 2048 && bits != 3072 &&
	    bits != 4096) {
		EVP_PKEY_free(*pk);
		return -EINVAL;
	}
	return 0;
}

/* pkcs1pad_verify() and its completion */
static int rsa_verify(const struct k_pub *pub, const struct k_sig *s)
{
	unsigned char out[1024], *b = out;
	size_t n, dst, out_len = sizeof(out), pos, dl;
	const unsigned char *di = digest_info(s->hash_algo, &dl);
	EVP_PKEY_CTX *ctx;
	EVP_PKEY *pk;
	int ok, err;

	err = rsa_key(pub, &pk, &n);
	if (err)
		return err;
	/* pkcs1pad_verify(): a digest (a certificate signed with a hash the
	 * kernel lacks has none), a signature of the modulus' size; every hash
	 * with a digest here has its DigestInfo
	 */
	if (!s->digest_size || !di || n > sizeof(out) || s->s_size != n) {
		EVP_PKEY_free(pk);
		return -EINVAL;
	}
	ctx = EVP_PKEY_CTX_new(pk, NULL);
	ok = ctx && EVP_PKEY_verify_recover_init(ctx) > 0 &&
	     EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_NO_PADDING) > 0 &&
	     EVP_PKEY_verify_recover(ctx, out, &out_len, s->s, s->s_size) > 0;
	EVP_PKEY_CTX_free(ctx);
	EVP_PKEY_free(pk);
	if (!ok || out_len != n)
		return -EINVAL;	/* the signature is not below the modulus */
	/* the kernel's result has no leading zero bytes (mpi_read_buffer()) */
	for (dst = n; dst && !*b; dst--, b++)
		;
	if (dst < n - 1)
		return -EINVAL;
	if (dst == n) {
		if (b[0] != 0x00)
			return -EINVAL;	/* no leading zero byte */
		dst--;
		b++;
	}
	if (b[0] != 0x01)
		return -EBADMSG;
	for (pos = 1; pos < dst && b[pos] == 0xff; pos++)
		;
	if (pos < 9 || pos == dst || b[pos] != 0x00)
		return -EBADMSG;
	pos++;
	if (dl > dst - pos || memcmp(b + pos, di, dl))
		return -EBADMSG;
	pos += dl;
	if (s->digest_size != dst - pos || memcmp(s->digest, b + pos, s->digest_size))
		return -EKEYREJECTED;
	return 0;
}

/* --- ECDSA ---------------------------------------------------------------- */

static const struct {
	const char *kname, *group;
	unsigned int ndigits;		/* 64-bit digits of the curve */
} curves[] = {
	{ "ecdsa-nist-p192", "P-192", 3 }, { "ecdsa-nist-p256", "P-256", 4 },
	{ "ecdsa-nist-p384", "P-384", 6 }, { "ecdsa-nist-p521", "P-521", 9 },
};

struct ecdsa_ctx {
	unsigned int ndigits;
	unsigned char r[72], s[72];
	size_t r_len, s_len;
};

/* ecdsa_get_signature_rs(): up to ndigits * 8 bytes, one more only for a
 * leading zero; read unsigned, whatever the sign bit, padding or length
 * form (the kernel's decoding is not DER's)
 */
static int get_rs(struct ecdsa_ctx *ctx, unsigned char *dest, size_t *dlen,
		  const unsigned char *d, size_t vlen)
{
	size_t bufsize = ctx->ndigits * 8;

	if (!d || !vlen || vlen > bufsize + 1)
		return -EINVAL;
	if (vlen > bufsize) {
		if (*d)
			return -EINVAL;
		vlen--;
		d++;
	}
	memcpy(dest, d, vlen);
	*dlen = vlen;
	return 0;
}

int ecdsa_get_signature_r(void *context, size_t hdrlen, unsigned char tag,
			  const void *value, size_t vlen)
{
	struct ecdsa_ctx *ctx = context;

	(void)tag;
	(void)hdrlen;
	return get_rs(ctx, ctx->r, &ctx->r_len, value, vlen);
}

int ecdsa_get_signature_s(void *context, size_t hdrlen, unsigned char tag,
			  const void *value, size_t vlen)
{
	struct ecdsa_ctx *ctx = context;

	(void)tag;
	(void)hdrlen;
	return get_rs(ctx, ctx->s, &ctx->s_len, value, vlen);
}

/* ecdsa_set_pub_key(): an uncompressed point of the curve's size, on it */
static int ec_key(const struct k_pub *pub, const char *group, unsigned int ndigits,
		  EVP_PKEY **pk)
{
	OSSL_PARAM_BLD *bld;
	OSSL_PARAM *params = NULL;
	EVP_PKEY_CTX *ctx = NULL;
	size_t digitlen;
	int err = -EINVAL;

	if (pub->keylen < 1 || ((pub->keylen - 1) & 1) || pub->key[0] != 4)
		return -EINVAL;
	digitlen = (pub->keylen - 1) / 2;
	if ((digitlen + 7) / 8 != ndigits)
		return -EINVAL;
	bld = OSSL_PARAM_BLD_new();
	if (bld && OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_GROUP_NAME, group, 0) &&
	    OSSL_PARAM_BLD_push_octet_string(bld, OSSL_PKEY_PARAM_PUB_KEY, pub->key, pub->keylen))
		params = OSSL_PARAM_BLD_to_param(bld);
	ctx = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
	*pk = NULL;
	/* fromdata refuses a point not on the curve: ecc_is_pubkey_valid_full() */
	if (params && ctx && EVP_PKEY_fromdata_init(ctx) > 0 &&
	    EVP_PKEY_fromdata(ctx, pk, EVP_PKEY_PUBLIC_KEY, params) > 0)
		err = 0;
	EVP_PKEY_CTX_free(ctx);
	OSSL_PARAM_free(params);
	OSSL_PARAM_BLD_free(bld);
	if (!err) {
		ctx = EVP_PKEY_CTX_new(*pk, NULL);
		if (!ctx || EVP_PKEY_public_check(ctx) != 1)
			err = -EINVAL;
		EVP_PKEY_CTX_free(ctx);
	}
	if (err) {
		EVP_PKEY_free(*pk);
		*pk = NULL;
	}
	return err;
}

/* ecdsa_verify(): the kernel's decoding, its range checks, then the math */
static int ecdsa_verify(const struct k_pub *pub, struct k_sig *s, const char *group,
			unsigned int ndigits)
{
	struct ecdsa_ctx ctx = { .ndigits = ndigits };
	BIGNUM *r = NULL, *sv = NULL, *order = NULL;
	unsigned char *der = NULL, md[72];
	ECDSA_SIG *es = NULL;
	EVP_PKEY_CTX *vctx = NULL;
	EC_GROUP *g = NULL;
	EVP_PKEY *pk;
	size_t md_len;
	int err, n;

	err = ec_key(pub, group, ndigits, &pk);
	if (err)
		return err;
	err = asn1_ber_decoder(&ecdsasignature_decoder, &ctx, s->s, s->s_size);
	if (err)
		goto out;
	err = -ENOMEM;
	g = EC_GROUP_new_by_curve_name(EC_curve_nist2nid(group));
	r = BN_bin2bn(ctx.r, (int)ctx.r_len, NULL);
	sv = BN_bin2bn(ctx.s, (int)ctx.s_len, NULL);
	if (!g || !r || !sv || !(order = BN_dup(EC_GROUP_get0_order(g))))
		goto out;
	/* 0 < r < n and 0 < s < n */
	err = -EBADMSG;
	if (BN_is_zero(r) || BN_cmp(r, order) >= 0 || BN_is_zero(sv) || BN_cmp(sv, order) >= 0)
		goto out;
	err = -ENOMEM;
	es = ECDSA_SIG_new();
	if (!es || !ECDSA_SIG_set0(es, r, sv))
		goto out;
	r = sv = NULL;
	n = i2d_ECDSA_SIG(es, &der);
	if (n <= 0)
		goto out;
	/* what the kernel read, but not its DER: another encoding of (r, s) */
	s->non_der = (size_t)n != s->s_size || memcmp(der, s->s, s->s_size);
	/* the hash's first ndigits * 8 bytes, as OpenSSL truncates it too */
	md_len = s->digest_size < ndigits * 8 ? s->digest_size : ndigits * 8;
	memcpy(md, s->digest, md_len);
	vctx = EVP_PKEY_CTX_new(pk, NULL);
	if (!vctx || EVP_PKEY_verify_init(vctx) <= 0)
		goto out;
	err = EVP_PKEY_verify(vctx, der, (size_t)n, md, md_len) == 1 ? 0 : -EKEYREJECTED;
out:
	EVP_PKEY_CTX_free(vctx);
	OPENSSL_free(der);
	ECDSA_SIG_free(es);
	BN_free(r);
	BN_free(sv);
	BN_free(order);
	EC_GROUP_free(g);
	EVP_PKEY_free(pk);
	return err;
}

/* --- public_key_verify_signature() ---------------------------------------- */

static bool one_of(const char *s, const char *const *list, size_t n)
{
	size_t i;

	for (i = 0; s && i < n; i++)
		if (!strcmp(s, list[i]))
			return true;
	return false;
}

static int verify(const struct k_pub *pub, struct k_sig *sig)
{
	static const char *const ecdsa_hashes[] = {
		"sha1", "sha224", "sha256", "sha384", "sha512", "sha3-256", "sha3-384", "sha3-512",
	};
	size_t i;

	if (!pub->pkey_algo)
		return -ENOPKG;
	/* the signature's algorithm must be the key's ("ecdsa" for any curve) */
	if (sig->pkey_algo && strcmp(pub->pkey_algo, sig->pkey_algo) &&
	    (strncmp(pub->pkey_algo, "ecdsa-", 6) || strcmp(sig->pkey_algo, "ecdsa")))
		return -EKEYREJECTED;
	/* software_key_determine_akcipher() */
	if (!sig->encoding)
		return -EINVAL;
	if (!strcmp(pub->pkey_algo, "rsa")) {
		if (strcmp(sig->encoding, "pkcs1"))
			return -EINVAL;
		/* pkcs1pad(rsa,HASH) exists for every hash an X.509 or PKCS#7
		 * signature can name (its DigestInfo table); a certificate
		 * signed with a hash the kernel lacks (SHA-1) has no digest,
		 * which pkcs1pad_verify() refuses with EINVAL
		 */
		return rsa_verify(pub, sig);
	}
	if (!strncmp(pub->pkey_algo, "ecdsa", 5)) {
		if (strcmp(sig->encoding, "x962") ||
		    !one_of(sig->hash_algo, ecdsa_hashes, ARRAY_SIZE(ecdsa_hashes)))
			return -EINVAL;
		for (i = 0; i < ARRAY_SIZE(curves); i++)
			if (!strcmp(pub->pkey_algo, curves[i].kname))
				return ecdsa_verify(pub, sig, curves[i].group, curves[i].ndigits);
		return -ENOPKG;
	}
	/* ecrdsa: not built into the test kernel (CONFIG_CRYPTO_ECRDSA=n) */
	return -ENOPKG;
}

int k_public_key_verify(const struct k_pub *pub, struct k_sig *sig)
{
	int err;

	/* a refusal is a verdict, not an OpenSSL error to report */
	ERR_set_mark();
	err = verify(pub, sig);
	ERR_pop_to_mark();
	return err;
}
