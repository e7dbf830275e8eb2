// SPDX-License-Identifier: GPL-2.0
/*
 * What BPF_PROG_LOAD does with a signature after its size check, as Linux
 * 6.12 with the bpfsign series: verify_pkcs7_signature() with
 * VERIFYING_BPF_SIGNATURE, that is pkcs7_parse_message() (pkcs7_parse.c),
 * the detached data, pkcs7_verify(), is_key_on_revocation_list() and
 * pkcs7_validate_trust(), in this order and with their errnos.  The
 * digests, RSA and ECDSA operations are OpenSSL's; what is the kernel's is
 * the order of the checks, the key lookup and the errno of each failure.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/rsa.h>
#include <openssl/x509v3.h>

#include "internal.h"
#include "pkcs7.h"

enum { has_signing_time = 1 };	/* pkcs7_parse.c's bit */

/* --- key identifiers ------------------------------------------------------ */

static bool id_same(const struct k_id *x, const struct k_id *y)
{
	return x->a_len + x->b_len == y->a_len + y->b_len &&
	       x->a_len + x->b_len > 0 &&
	       /* compare the concatenations */
	       ({
		       size_t i, n = x->a_len + x->b_len;
		       bool same = true;

		       for (i = 0; i < n && same; i++)
			       same = (i < x->a_len ? x->a[i] : x->b[i - x->a_len]) ==
				      (i < y->a_len ? y->a[i] : y->b[i - y->a_len]);
		       same;
	       });
}

/* One DER TLV at *p (bounded by end): its content; false if malformed. */
static bool der_next(const unsigned char **p, const unsigned char *end, unsigned char *tag,
		     const unsigned char **val, size_t *len)
{
	const unsigned char *q = *p;
	size_t n, l = 0;

	if (end - q < 2)
		return false;
	*tag = *q++;
	n = *q++;
	if (n & 0x80) {
		n &= 0x7f;
		if (!n || n > 3 || (size_t)(end - q) < n)
			return false;
		while (n--)
			l = l << 8 | *q++;
	} else {
		l = n;
	}
	if ((size_t)(end - q) < l)
		return false;
	*val = q;
	*len = l;
	*p = q + l;
	return true;
}

/* x509->id (serial || issuer), x509->skid and the subject, as the kernel's
 * X.509 parser takes them: raw bytes of the certificate's DER.
 */
struct cert_raw {
	unsigned char *der;
	struct k_id id, skid, subject;
};

static int cert_raw(X509 *x, struct cert_raw *c)
{
	const unsigned char *p, *end, *v, *tbs, *tbs_end;
	const ASN1_OCTET_STRING *skid;
	unsigned char tag;
	size_t len;
	int n;

	memset(c, 0, sizeof(*c));
	n = i2d_X509(x, &c->der);
	if (n <= 0)
		return kit_err(-ENOMEM, "certificate: %s", strerror(ENOMEM));
	p = c->der;
	end = p + n;
	if (!der_next(&p, end, &tag, &tbs, &len))
		goto bad;
	p = tbs;
	end = tbs + len;
	if (!der_next(&p, end, &tag, &tbs, &len))
		goto bad;
	p = tbs;
	tbs_end = tbs + len;
	if (!der_next(&p, tbs_end, &tag, &v, &len))
		goto bad;
	if (tag == 0xa0 && !der_next(&p, tbs_end, &tag, &v, &len))	/* version */
		goto bad;
	c->id.a = v;			/* serialNumber */
	c->id.a_len = len;
	if (!der_next(&p, tbs_end, &tag, &v, &len) ||	/* signature */
	    !der_next(&p, tbs_end, &tag, &v, &len))	/* issuer */
		goto bad;
	c->id.b = v;
	c->id.b_len = len;
	if (!der_next(&p, tbs_end, &tag, &v, &len) ||	/* validity */
	    !der_next(&p, tbs_end, &tag, &v, &len))	/* subject */
		goto bad;
	c->subject.a = v;
	c->subject.a_len = len;
	skid = X509_get0_subject_key_id(x);
	if (skid) {
		c->skid.a = ASN1_STRING_get0_data(skid);
		c->skid.a_len = (size_t)ASN1_STRING_length(skid);
	}
	return 0;
bad:
	OPENSSL_free(c->der);
	c->der = NULL;
	return kit_err(-EINVAL, "certificate: not DER the kernel's X.509 parser takes");
}

/*
 * find_asymmetric_key(keyring, id_0, id_1, NULL, false): not partial, so
 * id_0 matches any id of the key exactly ("ex:"); then id_1 must be the
 * key's skid.  Without id_0, id_1 matches any id of the key.  -ENOKEY if
 * none; -EINVAL for an empty id (the kernel cannot search for "ex:").
 */
static int find_key(struct cert_raw *keys, int nr, const struct k_id *id_0,
		    const struct k_id *id_1, int *found)
{
	int i;

	if ((id_0 && !(id_0->a_len + id_0->b_len)) ||
	    (!id_0 && id_1 && !(id_1->a_len + id_1->b_len)))
		return kit_err(-EINVAL, "signature: an empty key identifier (the kernel's key search: EINVAL)");
	for (i = 0; i < nr; i++) {
		if (!keys[i].der)
			continue;
		if (id_0) {
			if (!id_same(&keys[i].id, id_0) && !id_same(&keys[i].skid, id_0) &&
			    !id_same(&keys[i].subject, id_0))
				continue;
			if (id_1 && !id_same(&keys[i].skid, id_1))
				continue;
		} else if (id_1) {
			if (!id_same(&keys[i].id, id_1) && !id_same(&keys[i].skid, id_1) &&
			    !id_same(&keys[i].subject, id_1))
				continue;
		} else {
			continue;
		}
		*found = i;
		return 0;
	}
	return -ENOKEY;
}

/* --- digests and public_key_verify_signature() ------------------------ */

/* The kernel's hash algorithms that the test kernel's crypto API has. */
static const EVP_MD *kernel_md(const char *name)
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

/* pkcs7_digest(): the digest the signature value is over */
static int sinfo_digest(struct k_sinfo *s, const void *data, size_t len,
			unsigned char *md, unsigned int *md_len)
{
	const EVP_MD *type = kernel_md(s->hash_algo);
	unsigned char set = 0x31;	/* ASN1_CONS_BIT | ASN1_SET */
	EVP_MD_CTX *ctx;
	int ok;

	if (!type)
		return kit_err(-ENOPKG, "signature: digest %s: not in the kernel's crypto API (ENOPKG)",
			       s->hash_algo);
	if (!EVP_Digest(data, len, md, md_len, type, NULL))
		return kit_err(-ENOMEM, "digest: %s", strerror(ENOMEM));
	if (!s->authattrs)
		return 0;
	if (!s->msgdigest)
		return kit_err(-EKEYREJECTED, "signature: no messageDigest attribute (EKEYREJECTED)");
	if (s->msgdigest_len != *md_len)
		return kit_err(-EBADMSG, "signature: the messageDigest attribute is %zu bytes, not %u (EBADMSG)",
			       s->msgdigest_len, *md_len);
	if (memcmp(md, s->msgdigest, *md_len))
		return kit_err(-EKEYREJECTED, "signature: digest mismatch: the messageDigest attribute is not the payload's digest (EKEYREJECTED)");
	/* then over the attributes, their [0] turned into a SET */
	ctx = EVP_MD_CTX_new();
	ok = ctx && EVP_DigestInit_ex(ctx, type, NULL) &&
	     EVP_DigestUpdate(ctx, &set, 1) &&
	     EVP_DigestUpdate(ctx, s->authattrs, s->authattrs_len) &&
	     EVP_DigestFinal_ex(ctx, md, md_len);
	EVP_MD_CTX_free(ctx);
	return ok ? 0 : kit_err(-ENOMEM, "digest: %s", strerror(ENOMEM));
}

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

	for (i = 0; i < ARRAY_SIZE(t); i++)
		if (!strcmp(hash, t[i].name)) {
			*len = sizeof(t[i].p);
			return t[i].p;
		}
	return NULL;
}

/* pkcs1pad_verify() and its completion: the kernel's errno of each case */
static int rsa_verify(EVP_PKEY *pk, const struct k_sinfo *s, const unsigned char *md,
		      size_t md_len)
{
	unsigned char out[1024], *b = out;
	size_t n = (size_t)EVP_PKEY_get_size(pk), dst, out_len = sizeof(out), pos, dl;
	const unsigned char *di = digest_info(s->hash_algo, &dl);
	EVP_PKEY_CTX *ctx;
	int ok;

	if (!di || n > sizeof(out) || s->sig_len != n)
		return -EINVAL;
	ctx = EVP_PKEY_CTX_new(pk, NULL);
	ok = ctx && EVP_PKEY_verify_recover_init(ctx) > 0 &&
	     EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_NO_PADDING) > 0 &&
	     EVP_PKEY_verify_recover(ctx, out, &out_len, s->sig, s->sig_len) > 0;
	EVP_PKEY_CTX_free(ctx);
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
	if (md_len != dst - pos || memcmp(md, b + pos, md_len))
		return -EKEYREJECTED;
	return 0;
}

static int ecdsa_verify(EVP_PKEY *pk, const struct k_sinfo *s, const unsigned char *md,
			size_t md_len)
{
	const unsigned char *p = s->sig;
	ECDSA_SIG *es = d2i_ECDSA_SIG(NULL, &p, (long)s->sig_len);
	EVP_PKEY_CTX *ctx;
	int ok;

	if (!es)
		return -EBADMSG;
	ECDSA_SIG_free(es);
	ctx = EVP_PKEY_CTX_new(pk, NULL);
	ok = ctx && EVP_PKEY_verify_init(ctx) > 0 &&
	     EVP_PKEY_verify(ctx, s->sig, s->sig_len, md, md_len) == 1;
	EVP_PKEY_CTX_free(ctx);
	return ok ? 0 : -EKEYREJECTED;
}

/* public_key_verify_signature() of the sinfo's signature with x's key */
static int pk_verify(X509 *x, const struct k_sinfo *s, const unsigned char *md, size_t md_len)
{
	EVP_PKEY *pk = X509_get0_pubkey(x);
	int type = pk ? EVP_PKEY_get_base_id(pk) : 0;

	if (type == EVP_PKEY_RSA) {
		if (strcmp(s->pkey_algo, "rsa"))
			return -EKEYREJECTED;
		return rsa_verify(pk, s, md, md_len);
	}
	if (type == EVP_PKEY_EC) {
		if (strcmp(s->pkey_algo, "ecdsa"))
			return -EKEYREJECTED;
		return ecdsa_verify(pk, s, md, md_len);
	}
	return -ENOPKG;
}

/* --- pkcs7_verify() and pkcs7_validate_trust() ---------------------------- */

struct verifier {
	struct k_msg *m;
	struct cert_raw msg_raw[K_MAX_CERTS];
	unsigned char md[K_MAX_SINFOS][EVP_MAX_MD_SIZE];
	unsigned int md_len[K_MAX_SINFOS];
};

static time_t asn1_time(const ASN1_TIME *t)
{
	struct tm tm;

	return ASN1_TIME_to_tm(t, &tm) ? timegm(&tm) : 0;
}

/* sig->auth_ids[1] of a certificate: its authority key identifier */
static void akid_keyid(X509 *x, struct k_id *kid)
{
	const ASN1_OCTET_STRING *id = X509_get0_authority_key_id(x);

	memset(kid, 0, sizeof(*kid));
	if (id) {
		kid->a = ASN1_STRING_get0_data(id);
		kid->a_len = (size_t)ASN1_STRING_length(id);
	}
}

/* pkcs7_verify_sig_chain(): link each certificate to its issuer in the message */
static int verify_chain(struct verifier *v, int x)
{
	struct k_msg *m = v->m;
	struct k_id kid;
	int p;

	for (p = 0; p < m->nr_certs; p++)
		m->certs[p].seen = false;
	for (;;) {
		struct k_cert *c = &m->certs[x];

		c->seen = true;
		if (X509_check_issued(c->x, c->x) == X509_V_OK) {
			c->self_signed = true;
			c->signer = x;
			return 0;
		}
		akid_keyid(c->x, &kid);
		for (p = 0; p < m->nr_certs; p++)
			if (kid.a_len && id_same(&v->msg_raw[p].skid, &kid))
				break;
		if (p == m->nr_certs)
			return 0;	/* the top of the chain in the message */
		if (m->certs[p].seen)
			return 0;
		if (X509_verify(c->x, X509_get0_pubkey(m->certs[p].x)) != 1)
			return kit_err(-EKEYREJECTED, "signature: an embedded certificate's signature does not verify with its issuer's key (EKEYREJECTED)");
		c->signer = p;
		x = p;
	}
}

/* pkcs7_verify_one() */
static int verify_one(struct verifier *v, int i, const void *data, size_t len)
{
	struct k_sinfo *s = &v->m->sinfos[i];
	struct k_cert *c;
	int x, err;

	if (!data)	/* the form only: is the digest one the kernel has? */
		return kernel_md(s->hash_algo) ? 0 :
		       kit_err(-ENOPKG, "signature: digest %s: not in the kernel's crypto API (ENOPKG)",
			       s->hash_algo);
	err = sinfo_digest(s, data, len, v->md[i], &v->md_len[i]);
	if (err)
		return err;
	for (x = 0; x < v->m->nr_certs; x++)
		if (id_same(&v->msg_raw[x].id, &s->auth_id))
			break;
	if (x == v->m->nr_certs)
		return 0;	/* the signer is not in the message */
	s->signer = x;
	c = &v->m->certs[x];
	if ((s->aa_set & (1ul << has_signing_time)) &&
	    (s->signing_time < asn1_time(X509_get0_notBefore(c->x)) ||
	     s->signing_time > asn1_time(X509_get0_notAfter(c->x))))
		return kit_err(-EKEYREJECTED, "signature: signingTime outside the embedded signer certificate's validity (EKEYREJECTED)");
	err = pk_verify(c->x, s, v->md[i], v->md_len[i]);
	if (err)
		return kit_err(err, "signature: does not verify with the embedded signer certificate (%s)",
			       bpfsign_errno_name(err));
	return verify_chain(v, x);
}

/* pkcs7_validate_trust_one() against the certificates keys[] */
static int trust_one(struct verifier *v, int i, X509 **keyx, struct cert_raw *keys, int nr,
		     int *matched)
{
	struct k_sinfo *s = &v->m->sinfos[i];
	struct k_cert *last = NULL;
	struct k_id kid;
	int x, k, err;

	if (s->unsupported_crypto)
		return -ENOPKG;
	for (x = s->signer; x >= 0; x = v->m->certs[x].signer) {
		struct k_cert *c = &v->m->certs[x];

		if (c->seen) {
			if (c->verified)
				return 0;
			return -ENOKEY;
		}
		c->seen = true;
		if (!find_key(keys, nr, &v->msg_raw[x].id,
			      v->msg_raw[x].skid.a_len ? &v->msg_raw[x].skid : NULL, &k)) {
			/* the trusted copy must verify what this one signs */
			err = last ? (X509_verify(last->x, X509_get0_pubkey(keyx[k])) == 1 ? 0 : -EKEYREJECTED) :
				     pk_verify(keyx[k], s, v->md[i], v->md_len[i]);
			goto matched;
		}
		if (c->signer == x)
			return -ENOKEY;	/* an unknown self-signed root */
		last = c;
		if (c->signer < 0)
			break;
	}
	if (last) {
		akid_keyid(last->x, &kid);
		if (kid.a_len) {
			err = find_key(keys, nr, NULL, &kid, &k);
			if (!err) {
				err = X509_verify(last->x, X509_get0_pubkey(keyx[k])) == 1 ? 0 : -EKEYREJECTED;
				goto matched;
			}
			if (err != -ENOKEY)
				return err;
		}
	}
	/* as a last resort, a trusted key that is the signer itself */
	err = find_key(keys, nr, &s->auth_id, NULL, &k);
	if (err)
		return err;
	err = pk_verify(keyx[k], s, v->md[i], v->md_len[i]);
matched:
	if (err)
		return -EKEYREJECTED;
	*matched = k;
	return 0;
}

/* pkcs7_validate_trust(): 0 if one SignerInfo chains to a key of keyring */
static int validate_trust(struct verifier *v, STACK_OF(X509) *keyring, int *matched)
{
	struct cert_raw keys[64];
	X509 *keyx[64];
	int i, nr = sk_X509_num(keyring), ret = -ENOKEY, err = 0;

	if (nr > (int)ARRAY_SIZE(keys))
		nr = ARRAY_SIZE(keys);
	for (i = 0; i < nr; i++) {
		keyx[i] = sk_X509_value(keyring, i);
		if (cert_raw(keyx[i], &keys[i]))
			keys[i].der = NULL;	/* not a key the kernel would hold */
	}
	for (i = 0; i < v->m->nr_certs; i++)
		v->m->certs[i].seen = false;
	for (i = 0; i < v->m->nr_sinfos && !err; i++) {
		err = trust_one(v, i, keyx, keys, nr, matched);
		if (err == -ENOKEY || err == -ENOPKG) {
			if (ret == -ENOKEY)
				ret = err;
			err = 0;
		} else if (!err) {
			ret = 0;
		}
	}
	for (i = 0; i < nr; i++)
		OPENSSL_free(keys[i].der);
	return err ? err : ret;
}

int k_verify(const unsigned char *sig, size_t sig_len, const void *data, size_t len,
	     STACK_OF(X509) *keyring, STACK_OF(X509) *revoked, struct k_result *res)
{
	struct verifier *vp;
	struct k_msg *m;
	int i, err, ret = -ENOPKG, k;

	res->signer_cert = -1;
	if (!sig_len || sig_len > K_MAX_SIG_SIZE)
		return kit_err(-EINVAL, "signature: %zu bytes: BPF_PROG_LOAD takes 1 to %d (invalid signature_size, EINVAL)",
			       sig_len, K_MAX_SIG_SIZE);
	m = calloc(1, sizeof(*m));
	vp = calloc(1, sizeof(*vp));
	if (!m || !vp) {
		free(m);
		free(vp);
		return kit_err(-ENOMEM, "verify: %s", strerror(ENOMEM));
	}
	vp->m = m;
	err = k_parse(sig, sig_len, m);
	if (err)
		goto out;
	for (i = 0; i < m->nr_certs; i++) {
		err = cert_raw(m->certs[i].x, &vp->msg_raw[i]);
		if (err)
			goto out;
	}
	if (m->has_data) {
		err = kit_err(-EBADMSG, "signature: the payload is embedded, not detached (the kernel: 'PKCS#7 signature with non-detached data', EBADMSG)");
		goto out;
	}
	/* pkcs7_verify(pkcs7, VERIFYING_BPF_SIGNATURE) */
	if (m->data_type != K_OID_data) {
		err = kit_err(-EKEYREJECTED, "signature: not pkcs7-data (the kernel: 'Invalid BPF sig', EKEYREJECTED)");
		goto out;
	}
	for (i = 0; i < m->nr_sinfos; i++) {
		err = verify_one(vp, i, data, len);
		if (err == -ENOPKG) {
			m->sinfos[i].unsupported_crypto = true;
			continue;
		}
		if (err)
			goto out;
		ret = 0;
	}
	err = ret;
	if (err) {
		kit_err(err, "signature: no SignerInfo uses a digest the kernel has (ENOPKG): %s",
			kit_last_error());
		goto out;
	}
	if (revoked && sk_X509_num(revoked) && !validate_trust(vp, revoked, &k)) {
		err = kit_err(-EKEYREJECTED, "signature: the signer's key is on the revocation list (EKEYREJECTED)");
		goto out;
	}
	if (!keyring)
		goto out;
	err = validate_trust(vp, keyring, &res->signer_cert);
	if (err == -ENOKEY)
		kit_err(err, "signature: unknown signer: no key of the keyring is the signer or its issuer (ENOKEY)");
	else if (err == -EKEYREJECTED)
		kit_err(err, "signature: digest mismatch: the signature does not verify with the keyring's key (EKEYREJECTED)");
	else if (err == -ENOPKG)
		kit_err(err, "signature: the SignerInfo's digest is not in the kernel's crypto API (ENOPKG)");
out:
	for (i = 0; i < K_MAX_CERTS; i++)
		OPENSSL_free(vp->msg_raw[i].der);
	k_msg_free(m);
	free(m);
	free(vp);
	return err;
}
