// SPDX-License-Identifier: GPL-2.0
/* Signers and signing: the CMS calls of scripts/sign-file.c, to memory. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/cms.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/x509.h>

#include "internal.h"

struct bpfsign_signer {
	EVP_PKEY *pkey;
	X509 *cert;
	char *cert_name;	/* the certificate's file, for messages */
	const EVP_MD *md;
	ENGINE *engine;		/* holds a pkcs11: key's token open */
};

/* Fields past what the caller knows of must be zero, as in libbpf. */
static bool opts_valid(const struct bpfsign_sign_opts *opts)
{
	const char *p = (const char *)opts;
	size_t i;

	if (opts->sz < offsetofend(struct bpfsign_sign_opts, sz))
		return false;
	for (i = sizeof(*opts); i < opts->sz; i++)
		if (p[i])
			return false;
	return true;
}

static const char *opts_digest(const struct bpfsign_sign_opts *opts)
{
	if (!opts || opts->sz < offsetofend(struct bpfsign_sign_opts, digest) ||
	    !opts->digest)
		return "sha256";
	return opts->digest;
}

int bpfsign_signer_load(const char *key, const char *cert,
			const struct bpfsign_sign_opts *opts,
			struct bpfsign_signer **out)
{
	STACK_OF(X509) *certs = NULL;
	struct bpfsign_signer *s;
	const char *digest;
	int err;

	if (!key || !cert || !out)
		return kit_err(-EINVAL, "signer: key and cert are required");
	if (opts && !opts_valid(opts))
		return kit_err(-EINVAL, "signer: bad bpfsign_sign_opts size");
	digest = opts_digest(opts);
	s = calloc(1, sizeof(*s));
	if (!s)
		return kit_err(-ENOMEM, "signer: %s", strerror(ENOMEM));

	s->md = bpfsign__digest(digest);
	if (!s->md) {
		err = kit_err(-EINVAL,
			"digest '%s' refused: use sha256, sha384 or sha512",
			digest);
		goto fail;
	}
	err = bpfsign__load_key(key, &s->pkey, &s->engine);
	if (err)
		goto fail;
	err = bpfsign__check_key(key, s->pkey);
	if (err)
		goto fail;
	err = bpfsign__load_certs(cert, 1, &certs);
	if (err)
		goto fail;
	s->cert = sk_X509_shift(certs);
	sk_X509_pop_free(certs, X509_free);
	s->cert_name = strdup(cert);
	if (!s->cert_name) {
		err = kit_err(-ENOMEM, "signer: %s", strerror(ENOMEM));
		goto fail;
	}
	err = bpfsign__check_cert(cert, s->cert);
	if (err)
		goto fail;
	ERR_set_mark();
	if (X509_check_private_key(s->cert, s->pkey) != 1) {
		ERR_pop_to_mark();
		err = kit_err(-EKEYREJECTED,
			"%s: key does not match certificate %s", key, cert);
		goto fail;
	}
	ERR_pop_to_mark();
	*out = s;
	return 0;
fail:
	bpfsign_signer_free(s);
	return err;
}

void bpfsign_signer_free(struct bpfsign_signer *s)
{
	if (!s)
		return;
	EVP_PKEY_free(s->pkey);
	X509_free(s->cert);
	free(s->cert_name);
	bpfsign__put_engine(s->engine);
	free(s);
}

int bpfsign_signer_verifier(const struct bpfsign_signer *s,
			    struct bpfsign_verifier **out)
{
	if (!s || !out)
		return kit_err(-EINVAL, "verify: bad arguments");
	return bpfsign__signer_verifier(s->cert, s->cert_name, out);
}

int bpfsign_sign(struct bpfsign_signer *s, const void *data, size_t len,
		 unsigned char **sig, size_t *sig_len)
{
	const unsigned int flags = CMS_NOCERTS | CMS_BINARY | CMS_DETACHED;
	CMS_ContentInfo *cms = NULL;
	unsigned char *buf = NULL, *p;
	BIO *in = NULL;
	int n, err = 0;

	if (!s || (!data && len) || !sig || !sig_len)
		return kit_err(-EINVAL, "sign: bad arguments");
	if (len > INT_MAX)
		return kit_err(-EFBIG, "sign: payload of %zu bytes is too large",
			       len);
	in = BIO_new_mem_buf(len ? data : "", (int)len);
	if (!in)
		return kit_err(-ENOMEM, "sign: %s", strerror(ENOMEM));

	cms = CMS_sign(NULL, NULL, NULL, NULL, flags | CMS_PARTIAL);
	if (!cms) {
		err = kit_err(-EIO, "sign: CMS_sign failed");
		goto out;
	}
	if (!CMS_add1_signer(cms, s->cert, s->pkey, s->md,
			     flags | CMS_NOSMIMECAP | CMS_NOATTR |
			     CMS_USE_KEYID)) {
		err = kit_err(-EIO, "sign: CMS_add1_signer failed");
		goto out;
	}
	if (CMS_final(cms, in, NULL, flags) != 1) {
		err = kit_err(-EIO, "sign: signing failed");
		goto out;
	}
	n = i2d_CMS_ContentInfo(cms, NULL);
	if (n <= 0) {
		err = kit_err(-EIO, "sign: cannot encode the SignedData");
		goto out;
	}
	buf = malloc(n);
	if (!buf) {
		err = kit_err(-ENOMEM, "sign: %s", strerror(ENOMEM));
		goto out;
	}
	p = buf;
	if (i2d_CMS_ContentInfo(cms, &p) != n) {
		free(buf);
		err = kit_err(-EIO, "sign: cannot encode the SignedData");
		goto out;
	}
	*sig = buf;
	*sig_len = n;
out:
	CMS_ContentInfo_free(cms);
	BIO_free(in);
	return err;
}
