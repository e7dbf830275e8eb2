// SPDX-License-Identifier: GPL-2.0
/*
 * Offline verification, one check after another, each failing with the
 * errno the kernel's PKCS#7 verifier gives the same case.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <openssl/cms.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/x509.h>

#include "internal.h"

/* "keyid df:51:..." or "issuer 'CN=...' serial 01ab..." */
static void describe_signer(char *buf, size_t size,
			    const struct bpfsign_info *info)
{
	size_t i, off;

	switch (info->id_type) {
	case BPFSIGN_ID_KEYID:
		off = snprintf(buf, size, "keyid ");
		for (i = 0; i < info->keyid_len && off + 3 < size; i++)
			off += snprintf(buf + off, size - off, "%s%02x",
					i ? ":" : "", info->keyid[i]);
		break;
	case BPFSIGN_ID_ISSUER_SERIAL:
		snprintf(buf, size, "issuer '%s' serial %s", info->issuer,
			 info->serial);
		break;
	default:
		snprintf(buf, size, "no signer id");
	}
}

static int fail(struct bpfsign_report *rep, int err)
{
	rep->err = err;
	snprintf(rep->reason, sizeof(rep->reason), "%s", bpfsign_last_error());
	return err;
}

/* The signature algorithm must be the signer key's, and an accepted one. */
static int check_algs(X509 *x, const char *certs_name,
		      const struct bpfsign_info *info)
{
	EVP_PKEY *pk = X509_get0_pubkey(x);
	const char *want;

	if (!pk)
		return kit_err(-ENOPKG, "%s: signer's public key unreadable",
			       certs_name);
	want = EVP_PKEY_get_base_id(pk) == EVP_PKEY_RSA ? "RSA" :
	       EVP_PKEY_get_base_id(pk) == EVP_PKEY_EC ? "EC" : "?";
	if (strcmp(info->key_type, want) || !strcmp(want, "?"))
		return kit_err(-ENOPKG,
			"signature: wrong key type: algorithm %s does not fit the signer's %s key in %s",
			info->sig_alg, EVP_PKEY_get0_type_name(pk), certs_name);
	if (!bpfsign__digest(info->digest))
		return kit_err(-ENOPKG,
			"signature: digest %s refused: only sha256, sha384 and sha512 are accepted",
			info->digest);
	if (bpfsign__check_key(certs_name, pk))
		return -ENOPKG;
	return 0;
}

int bpfsign__verify_certs(const void *data, size_t len,
			  const unsigned char *sig, size_t sig_len,
			  STACK_OF(X509) *certs, const char *certs_name,
			  struct bpfsign_report *rep)
{
	struct bpfsign_info *info = &rep->info;
	STACK_OF(X509) *one = NULL;
	CMS_ContentInfo *cms = NULL;
	CMS_SignerInfo *si;
	char who[400];
	BIO *in = NULL;
	X509 *x = NULL;
	int i, err;

	memset(rep, 0, sizeof(*rep));
	err = bpfsign__parse(sig, sig_len, info, &cms);
	if (err)
		return fail(rep, err);
	if (info->nr_signers != 1) {
		err = kit_err(-EBADMSG,
			"signature: %d SignerInfos: exactly one is expected",
			info->nr_signers);
		goto out;
	}
	if (!info->detached) {
		err = kit_err(-EBADMSG,
			"signature: the payload is embedded, not detached");
		goto out;
	}

	si = sk_CMS_SignerInfo_value(CMS_get0_SignerInfos(cms), 0);
	for (i = 0; i < sk_X509_num(certs) && !x; i++)
		if (!CMS_SignerInfo_cert_cmp(si, sk_X509_value(certs, i)))
			x = sk_X509_value(certs, i);
	if (!x) {
		describe_signer(who, sizeof(who), info);
		err = kit_err(-ENOKEY,
			"signature: unknown signer: %s is not in %s",
			who, certs_name);
		goto out;
	}
	X509_NAME_oneline(X509_get_subject_name(x), rep->signer,
			  sizeof(rep->signer));
	err = check_algs(x, certs_name, info);
	if (err)
		goto out;

	if (len > INT_MAX) {
		err = kit_err(-EFBIG, "payload: %zu bytes is too large", len);
		goto out;
	}
	one = sk_X509_new_null();
	in = BIO_new_mem_buf(len ? data : "", (int)len);
	if (!one || !in || !sk_X509_push(one, x)) {
		err = kit_err(-ENOMEM, "verify: %s", strerror(ENOMEM));
		goto out;
	}
	/* Only the signature is left to check: the signer is known. */
	if (CMS_verify(cms, one, NULL, in, NULL,
		       CMS_BINARY | CMS_NOINTERN | CMS_NO_SIGNER_CERT_VERIFY |
		       CMS_NOCRL) != 1) {
		err = kit_err(-EKEYREJECTED,
			"signature: digest mismatch: the signature of %s does not match the payload",
			rep->signer);
		goto out;
	}
	rep->verified = true;
out:
	sk_X509_free(one);
	BIO_free(in);
	CMS_ContentInfo_free(cms);
	return err ? fail(rep, err) : 0;
}

int bpfsign_verify(const void *data, size_t len,
		   const unsigned char *sig, size_t sig_len,
		   const char *cert, const char *ca_bundle,
		   struct bpfsign_report *rep)
{
	struct bpfsign_report local;
	STACK_OF(X509) *certs = NULL;
	const char *path = cert ? cert : ca_bundle;
	int err;

	if (!rep)
		rep = &local;
	memset(rep, 0, sizeof(*rep));
	if (!cert == !ca_bundle || (!data && len)) {
		kit_err(-EINVAL, "verify: give exactly one of cert and ca_bundle");
		return fail(rep, -EINVAL);
	}
	err = bpfsign__load_certs(path, cert ? 1 : INT_MAX, &certs);
	if (err)
		return fail(rep, err);
	err = bpfsign__verify_certs(data, len, sig, sig_len, certs, path, rep);
	sk_X509_pop_free(certs, X509_free);
	return err;
}
