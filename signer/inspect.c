// SPDX-License-Identifier: GPL-2.0
/*
 * Parse a signature and say what it is made of.  Untrusted input: all ASN.1
 * is OpenSSL's, and every copy into struct bpfsign_info is bounded.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <openssl/cms.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/objects.h>
#include <openssl/x509.h>

#include "hex.h"		/* common/ */
#include "internal.h"
#include "pkcs7.h"

static void copy_str(char *dst, size_t size, const char *src)
{
	snprintf(dst, size, "%s", src ? src : "");
}

/* the new fields live in 1.1.0's padding: its size and offsets stand */
_Static_assert(offsetof(struct bpfsign_info, kernel_err) ==
	       ((offsetofend(struct bpfsign_info, reason) + sizeof(int) - 1) & ~(sizeof(int) - 1)),
	       "struct bpfsign_info: has_seq_attrs and kernel_parsed moved kernel_err");

static void obj_name(char *dst, size_t size, const ASN1_OBJECT *obj)
{
	int nid = OBJ_obj2nid(obj);

	if (nid != NID_undef)
		copy_str(dst, size, OBJ_nid2ln(nid));
	else if (OBJ_obj2txt(dst, (int)size, obj, 1) <= 0)
		copy_str(dst, size, "?");
}

static void alg_name(char *dst, size_t size, const X509_ALGOR *alg)
{
	const ASN1_OBJECT *obj;

	X509_ALGOR_get0(&obj, NULL, NULL, alg);
	obj_name(dst, size, obj);
}

/* "RSA" or "EC" for the public-key half of a signature algorithm. */
static const char *obj_key_type(const ASN1_OBJECT *obj)
{
	int nid = OBJ_obj2nid(obj), md, pk;

	if (nid == NID_rsaEncryption)
		return "RSA";
	if (nid == NID_X9_62_id_ecPublicKey)
		return "EC";
	if (!OBJ_find_sigid_algs(nid, &md, &pk))
		return "?";
	if (pk == NID_rsaEncryption)
		return "RSA";
	if (pk == NID_X9_62_id_ecPublicKey)
		return "EC";
	return "?";
}

static const char *alg_key_type(const X509_ALGOR *alg)
{
	const ASN1_OBJECT *obj;

	X509_ALGOR_get0(&obj, NULL, NULL, alg);
	return obj_key_type(obj);
}

/* The one form of a name the library prints: RFC 2253, "CN=...,O=..." */
void bpfsign__name_str(char *dst, size_t size, const X509_NAME *name)
{
	BIO *bio = BIO_new(BIO_s_mem());
	char *p;
	long n;

	dst[0] = 0;
	if (!bio)
		return;
	if (X509_NAME_print_ex(bio, name, 0, XN_FLAG_RFC2253) >= 0) {
		n = BIO_get_mem_data(bio, &p);
		if (n > 0 && n < INT_MAX)
			snprintf(dst, size, "%.*s", (int)n, p);
	}
	BIO_free(bio);
}

int bpfsign__key_sha256(const X509 *cert, char hex[2 * 32 + 1])
{
	const ASN1_BIT_STRING *key = X509_get0_pubkey_bitstr(cert);
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int n = 0;

	hex[0] = 0;
	if (!key)
		return kit_err(-EINVAL, "certificate: no public key");
	if (!EVP_Digest(ASN1_STRING_get0_data(key), ASN1_STRING_length(key), md, &n,
			EVP_sha256(), NULL) || n != 32)
		return kit_err(-ENOMEM, "certificate: SHA-256 of its public key failed");
	hex_str(hex, 2 * 32 + 1, md, n);
	return 0;
}

static void signer_id(struct bpfsign_info *info, CMS_SignerInfo *si)
{
	ASN1_OCTET_STRING *keyid = NULL;
	X509_NAME *issuer = NULL;
	ASN1_INTEGER *serial = NULL;
	size_t n;

	if (CMS_SignerInfo_get0_signer_id(si, &keyid, &issuer, &serial) != 1)
		return;
	if (keyid) {
		info->id_type = BPFSIGN_ID_KEYID;
		n = ASN1_STRING_length(keyid);
		info->keyid_len = n < sizeof(info->keyid) ? n : sizeof(info->keyid);
		memcpy(info->keyid, ASN1_STRING_get0_data(keyid), info->keyid_len);
	} else if (issuer && serial) {
		info->id_type = BPFSIGN_ID_ISSUER_SERIAL;
		bpfsign__name_str(info->issuer, sizeof(info->issuer), issuer);
		hex_str(info->serial, sizeof(info->serial),
		    ASN1_STRING_get0_data(serial), ASN1_STRING_length(serial));
	}
}

/* An OID's contents as OpenSSL's object (NULL if it does not take them) */
static ASN1_OBJECT *oid_obj(const unsigned char *p, size_t n)
{
	unsigned char der[2 + 127];
	const unsigned char *q = der;

	/* a known algorithm's OID is a few bytes: a longer one has no name */
	if (!p || !n || n > sizeof(der) - 2)
		return NULL;
	der[0] = 0x06;
	der[1] = (unsigned char)n;
	memcpy(der + 2, p, n);
	return d2i_ASN1_OBJECT(NULL, &q, (long)(n + 2));
}

/* What the kernel's parser and form checks say (pkcs7.h): no key needed. */
static void kernel_form(struct bpfsign_info *info, const unsigned char *sig, size_t len)
{
	struct k_result res;

	info->kernel_err = k_verify(sig, len, NULL, 0, NULL, NULL, &res);
	info->kernel_ok = !info->kernel_err;
	snprintf(info->reason, sizeof(info->reason), "%s",
		 info->kernel_ok ? "" : bpfsign_last_error());
}

/*
 * The report's fields from the kernel's parser, for a message OpenSSL
 * cannot read (the [2] attribute SEQUENCE, BER it refuses): what the
 * kernel acts on is described as the kernel sees it, with its form
 * checks' verdict.  Nothing if the kernel's parser refuses it too.  CRLs
 * are not counted (no action).
 */
void bpfsign__kernel_fields(const unsigned char *sig, size_t len, struct bpfsign_info *info)
{
	const struct k_sinfo *s;
	const unsigned char *q;
	ASN1_OBJECT *obj;
	X509_NAME *name;
	struct k_msg m;
	size_t off;

	memset(info, 0, sizeof(*info));
	info->der_len = len;
	if (!sig || !len || len > BPFSIGN_MAX_SIG_SIZE)
		return;
	ERR_set_mark();
	if (k_parse(sig, len, &m))
		goto out;
	info->kernel_parsed = true;
	info->detached = !m.has_data;
	info->data_content = m.data_type == K_OID_data;
	info->nr_certs = m.nr_certs;
	info->nr_signers = m.nr_sinfos;
	copy_str(info->key_type, sizeof(info->key_type), "?");
	if (!m.nr_sinfos)
		goto out;
	s = &m.sinfos[0];
	if ((obj = oid_obj(s->digest_oid, s->digest_oid_len))) {
		obj_name(info->digest, sizeof(info->digest), obj);
		ASN1_OBJECT_free(obj);
	}
	if ((obj = oid_obj(s->sig_alg_oid, s->sig_alg_oid_len))) {
		obj_name(info->sig_alg, sizeof(info->sig_alg), obj);
		copy_str(info->key_type, sizeof(info->key_type), obj_key_type(obj));
		ASN1_OBJECT_free(obj);
	}
	info->sig_value_len = s->sig_len;
	info->has_signed_attrs = s->authattrs != NULL;
	info->has_seq_attrs = s->seq_attrs;
	info->has_unsigned_attrs = s->unsigned_attrs;
	if (s->by_skid) {
		info->id_type = BPFSIGN_ID_KEYID;
		info->keyid_len = s->auth_id.a_len < sizeof(info->keyid) ?
				  s->auth_id.a_len : sizeof(info->keyid);
		if (info->keyid_len)
			memcpy(info->keyid, s->auth_id.a, info->keyid_len);
	} else if (s->issuer_der && s->issuer_der_len <= LONG_MAX) {
		q = s->issuer_der;
		name = d2i_X509_NAME(NULL, &q, (long)s->issuer_der_len);
		if (!name)
			goto out;
		info->id_type = BPFSIGN_ID_ISSUER_SERIAL;
		bpfsign__name_str(info->issuer, sizeof(info->issuer), name);
		X509_NAME_free(name);
		/* as OpenSSL's INTEGER: without the zero byte of a positive sign */
		off = s->auth_id.a_len > 1 && !s->auth_id.a[0] && (s->auth_id.a[1] & 0x80);
		hex_str(info->serial, sizeof(info->serial), s->auth_id.a + off,
			s->auth_id.a_len - off);
	}
out:
	k_msg_free(&m);
	ERR_pop_to_mark();
	if (info->kernel_parsed)
		kernel_form(info, sig, len);
}

int bpfsign__parse(const unsigned char *sig, size_t len,
		   struct bpfsign_info *info, CMS_ContentInfo **out)
{
	STACK_OF(CMS_SignerInfo) *sis;
	const unsigned char *p = sig;
	STACK_OF(X509_CRL) *crls;
	X509_ALGOR *dig, *alg;
	STACK_OF(X509) *certs;
	CMS_ContentInfo *cms;
	CMS_SignerInfo *si;

	memset(info, 0, sizeof(*info));
	info->der_len = len;
	if (!sig || !len || len > BPFSIGN_MAX_SIG_SIZE)
		return kit_err(-EBADMSG,
			"signature: %zu bytes is not a CMS SignedData", len);

	ERR_set_mark();
	cms = d2i_CMS_ContentInfo(NULL, &p, (long)len);
	ERR_pop_to_mark();
	if (!cms)
		return kit_err(-EBADMSG,
			"signature: not a DER CMS message (malformed or truncated)");
	/* bytes after the message: the kernel's decoder ignores them too */
	if (OBJ_obj2nid(CMS_get0_type(cms)) != NID_pkcs7_signed) {
		CMS_ContentInfo_free(cms);
		return kit_err(-EBADMSG,
			"signature: CMS message is not a SignedData");
	}

	info->data_content = OBJ_obj2nid(CMS_get0_eContentType(cms)) ==
			     NID_pkcs7_data;
	info->detached = CMS_is_detached(cms) == 1;
	ERR_set_mark();
	certs = CMS_get1_certs(cms);
	crls = CMS_get1_crls(cms);
	ERR_pop_to_mark();
	info->nr_certs = certs ? sk_X509_num(certs) : 0;
	info->nr_crls = crls ? sk_X509_CRL_num(crls) : 0;
	sk_X509_pop_free(certs, X509_free);
	sk_X509_CRL_pop_free(crls, X509_CRL_free);

	sis = CMS_get0_SignerInfos(cms);
	info->nr_signers = sis ? sk_CMS_SignerInfo_num(sis) : 0;
	copy_str(info->key_type, sizeof(info->key_type), "?");
	if (info->nr_signers > 0) {
		si = sk_CMS_SignerInfo_value(sis, 0);
		CMS_SignerInfo_get0_algs(si, NULL, NULL, &dig, &alg);
		alg_name(info->digest, sizeof(info->digest), dig);
		alg_name(info->sig_alg, sizeof(info->sig_alg), alg);
		copy_str(info->key_type, sizeof(info->key_type),
			 alg_key_type(alg));
		info->sig_value_len =
			ASN1_STRING_length(CMS_SignerInfo_get0_signature(si));
		info->has_signed_attrs = CMS_signed_get_attr_count(si) > 0;
		info->has_unsigned_attrs = CMS_unsigned_get_attr_count(si) > 0;
		signer_id(info, si);
	}
	kernel_form(info, sig, len);
	if (out)
		*out = cms;
	else
		CMS_ContentInfo_free(cms);
	return 0;
}

int bpfsign_inspect(const unsigned char *sig, size_t len,
		    struct bpfsign_info *info)
{
	int err;

	if (!info)
		return kit_err(-EINVAL, "inspect: no info to fill");
	err = bpfsign__parse(sig, len, info, NULL);
	if (err != -EBADMSG || !len || len > BPFSIGN_MAX_SIG_SIZE)
		return err;
	/* BER that OpenSSL does not read may still be what the kernel takes;
	 * if not, the kernel's errno, as verify returns it for these bytes */
	bpfsign__kernel_fields(sig, len, info);
	if (!info->kernel_parsed)
		kernel_form(info, sig, len);
	return info->kernel_ok ? 0 : info->kernel_err;
}
