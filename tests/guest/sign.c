// SPDX-License-Identifier: GPL-2.0
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <openssl/cms.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include "sign.h"

/* /tests/keys/NAME.EXT, open for reading, or NULL */
static FILE *key_file(const char *name, const char *ext)
{
	char path[256];

	snprintf(path, sizeof(path), "/tests/keys/%s.%s", name, ext);
	return fopen(path, "r");
}

/*
 * /tests/keys/NAME.crt into *cert and, when key is given, NAME.key into *key
 * (each NULL when missing): whether all asked for were read.
 */
static bool load_keys(const char *name, X509 **cert, EVP_PKEY **key)
{
	FILE *f = key_file(name, "crt");

	*cert = f ? PEM_read_X509(f, NULL, NULL, NULL) : NULL;
	if (f)
		fclose(f);
	if (!key)
		return *cert;
	f = key_file(name, "key");
	*key = f ? PEM_read_PrivateKey(f, NULL, NULL, NULL) : NULL;
	if (f)
		fclose(f);
	return *cert && *key;
}

X509 *cert_read(const char *name)
{
	X509 *cert;

	load_keys(name, &cert, NULL);
	return cert;
}

EVP_PKEY *key_read(const char *name)
{
	FILE *f = key_file(name, "key");
	EVP_PKEY *key = f ? PEM_read_PrivateKey(f, NULL, NULL, NULL) : NULL;

	if (f)
		fclose(f);
	return key;
}

static int sign_flags(const char *name, const void *data, size_t len,
		      unsigned int flags, int signed_attrs, unsigned char **sig)
{
	CMS_ContentInfo *cms = NULL;
	EVP_PKEY *key;
	X509 *cert;
	BIO *in = NULL;
	int ret = -1;

	if (!load_keys(name, &cert, &key))
		goto out;
	in = BIO_new_mem_buf(data, len);
	cms = CMS_sign(NULL, NULL, NULL, NULL, flags);
	if (!in || !cms)
		goto out;
	if (!CMS_add1_signer(cms, cert, key, EVP_sha256(),
			     flags | (signed_attrs ? 0 : CMS_NOATTR)))
		goto out;
	if (CMS_final(cms, in, NULL, flags) != 1)
		goto out;
	*sig = NULL;
	ret = i2d_CMS_ContentInfo(cms, sig);
out:
	CMS_ContentInfo_free(cms);
	BIO_free(in);
	EVP_PKEY_free(key);
	X509_free(cert);
	return ret;
}

int cms_sign(const char *name, const void *data, size_t len, int signed_attrs,
	     unsigned char **sig)
{
	return sign_flags(name, data, len, CMS_BINARY | CMS_DETACHED | CMS_NOCERTS |
			  CMS_PARTIAL | CMS_NOSMIMECAP | CMS_USE_KEYID, signed_attrs, sig);
}

int cms_sign_attached(const char *name, const void *data, size_t len,
		      unsigned char **sig)
{
	return sign_flags(name, data, len, CMS_BINARY | CMS_NOCERTS | CMS_PARTIAL |
			  CMS_NOSMIMECAP | CMS_USE_KEYID, 0, sig);
}

int cms_sign_with_cert(const char *name, const void *data, size_t len,
		       unsigned char **sig)
{
	return sign_flags(name, data, len, CMS_BINARY | CMS_DETACHED | CMS_PARTIAL |
			  CMS_NOSMIMECAP, 0, sig);
}

ASN1_OCTET_STRING *cms_sign_value(const char *name, const void *data, size_t len)
{
	ASN1_OCTET_STRING *sv = NULL;
	CMS_ContentInfo *cms = NULL;
	unsigned char *der = NULL;
	const unsigned char *p;
	int der_len;

	der_len = cms_sign(name, data, len, 0, &der);
	p = der;
	cms = der_len > 0 ? d2i_CMS_ContentInfo(NULL, &p, der_len) : NULL;
	if (cms)
		sv = ASN1_OCTET_STRING_dup(CMS_SignerInfo_get0_signature(
			sk_CMS_SignerInfo_value(CMS_get0_SignerInfos(cms), 0)));
	CMS_ContentInfo_free(cms);
	OPENSSL_free(der);
	return sv;
}

int cert_der(const char *name, unsigned char **der)
{
	X509 *cert;
	int ret;

	if (!load_keys(name, &cert, NULL))
		return -1;
	*der = NULL;
	ret = i2d_X509(cert, der);
	X509_free(cert);
	return ret;
}

bool cert_key_sha256(const char *name, char *hex)
{
	unsigned char md[32];
	const ASN1_BIT_STRING *key;
	unsigned int n = 0;
	X509 *cert;
	bool ok;
	int i;

	hex[0] = 0;
	if (!load_keys(name, &cert, NULL))
		return false;
	key = X509_get0_pubkey_bitstr(cert);
	ok = key && EVP_Digest(ASN1_STRING_get0_data(key), ASN1_STRING_length(key), md, &n,
			       EVP_sha256(), NULL) && n == sizeof(md);
	X509_free(cert);
	for (i = 0; ok && i < (int)sizeof(md); i++)
		sprintf(hex + 2 * i, "%02x", md[i]);
	return ok;
}

bool cert_skid(const char *name, char *hex, bool colons)
{
	const ASN1_OCTET_STRING *skid;
	X509 *cert;
	int i, n = 0;

	hex[0] = 0;
	if (!load_keys(name, &cert, NULL))
		return false;
	skid = X509_get0_subject_key_id(cert);
	for (i = 0; skid && i < ASN1_STRING_length(skid); i++)
		n += sprintf(hex + n, colons ? (i ? ":%02X" : "%02X") : "%02x",
			     ASN1_STRING_get0_data(skid)[i]);
	X509_free(cert);
	return skid;
}

long read_file(const char *path, unsigned char **buf)
{
	FILE *f = fopen(path, "rb");
	long n;

	if (!f)
		return -1;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	*buf = malloc(n > 0 ? n : 1);
	if (!*buf || fread(*buf, 1, n, f) != (size_t)n)
		n = -1;
	fclose(f);
	return n;
}
