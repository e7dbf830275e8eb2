// SPDX-License-Identifier: GPL-2.0
/*
 * Signatures by the kit's test keys, made as tests/guest/sign.c's cms_sign()
 * makes them (openssl cms -sign -binary -nocerts -keyid, with or without
 * -noattr) but with the keys parsed once, and cached by payload: RSA signing
 * under TCG costs milliseconds, and the fuzzer signs the same payloads
 * again and again.  ECDSA signatures differ from run to run; no choice of
 * the fuzzer depends on their bytes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/cms.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include "fuzz.h"

const char *const key_names[NKEYS] = {
	[K_SIGNING] = "signing", [K_SIGNING_EC] = "signing-ec", [K_TEAM] = "team",
	[K_UNTRUSTED] = "untrusted", [K_REVOKED] = "revoked", [K_CA] = "ca",
};

static X509 *certs[NKEYS];
static EVP_PKEY *pkeys[NKEYS];
static unsigned char *ders[NKEYS];
static int der_lens[NKEYS];

#define NCACHE 1024
static struct {
	int k;
	bool attrs;
	size_t len;
	u8 hash[32];
	u8 *sig;
	int sig_len;
} cache[NCACHE];
static int cache_next;

bool keys_load(void)
{
	char path[128];
	FILE *f;
	int k;

	for (k = 0; k < NKEYS; k++) {
		snprintf(path, sizeof(path), "/tests/keys/%s.crt", key_names[k]);
		f = fopen(path, "r");
		if (!f)
			return false;
		certs[k] = PEM_read_X509(f, NULL, NULL, NULL);
		fclose(f);
		snprintf(path, sizeof(path), "/tests/keys/%s.key", key_names[k]);
		f = fopen(path, "r");
		if (!f)
			return false;
		pkeys[k] = PEM_read_PrivateKey(f, NULL, NULL, NULL);
		fclose(f);
		ders[k] = NULL;
		der_lens[k] = certs[k] ? i2d_X509(certs[k], &ders[k]) : -1;
		if (!certs[k] || !pkeys[k] || der_lens[k] < 1)
			return false;
	}
	return true;
}

int cert_of(int k, const u8 **der)
{
	*der = ders[k];
	return der_lens[k];
}

static int cms_sign_key(int k, const void *data, size_t len, bool attrs, unsigned char **sig)
{
	unsigned int flags = CMS_BINARY | CMS_DETACHED | CMS_NOCERTS | CMS_PARTIAL |
			     CMS_NOSMIMECAP | CMS_USE_KEYID;
	BIO *in = BIO_new_mem_buf(data, len);
	CMS_ContentInfo *cms = CMS_sign(NULL, NULL, NULL, NULL, flags);
	int ret = -1;

	if (in && cms &&
	    CMS_add1_signer(cms, certs[k], pkeys[k], EVP_sha256(), flags | (attrs ? 0 : CMS_NOATTR)) &&
	    CMS_final(cms, in, NULL, flags) == 1) {
		*sig = NULL;
		ret = i2d_CMS_ContentInfo(cms, sig);
	}
	CMS_ContentInfo_free(cms);
	BIO_free(in);
	return ret;
}

int sig_make(int k, const void *data, size_t len, bool attrs, const u8 **sig)
{
	u8 hash[32];
	unsigned char *s;
	double t0;
	int i, n;

	EVP_Digest(data, len, hash, NULL, EVP_sha256(), NULL);
	for (i = 0; i < NCACHE; i++)
		if (cache[i].sig && cache[i].k == k && cache[i].attrs == attrs &&
		    cache[i].len == len && !memcmp(cache[i].hash, hash, 32)) {
			stat_note("signature cache hits");
			*sig = cache[i].sig;
			return cache[i].sig_len;
		}
	stat_note("signatures made");
	t0 = now();
	n = cms_sign_key(k, data, len, attrs, &s);
	stat_time("cms_sign", now() - t0);
	if (n < 1)
		return -1;
	i = cache_next++ % NCACHE;
	OPENSSL_free(cache[i].sig);
	cache[i].k = k;
	cache[i].attrs = attrs;
	cache[i].len = len;
	memcpy(cache[i].hash, hash, 32);
	cache[i].sig = s;
	cache[i].sig_len = n;
	*sig = s;
	return n;
}

/* The offline verdict: the kernel must refuse what OpenSSL refuses */
bool sig_valid_offline(int k, const void *data, size_t len, const u8 *sig, size_t sig_len)
{
	const unsigned char *p = sig;
	CMS_ContentInfo *cms = d2i_CMS_ContentInfo(NULL, &p, sig_len);
	STACK_OF(X509) *sk = sk_X509_new_null();
	BIO *in = BIO_new_mem_buf(data, len);
	bool ok = false;
	double t0 = now();

	if (cms && sk && in && sk_X509_push(sk, certs[k]))
		ok = CMS_verify(cms, sk, NULL, in, NULL,
				CMS_BINARY | CMS_NO_SIGNER_CERT_VERIFY | CMS_NOINTERN) == 1;
	sk_X509_free(sk);
	BIO_free(in);
	CMS_ContentInfo_free(cms);
	stat_time("offline verification", now() - t0);
	return ok;
}
