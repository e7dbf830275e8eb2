// SPDX-License-Identifier: GPL-2.0
/*
 * Offline verification: the kernel's rules (pkcs7.h), each failure with the
 * errno BPF_PROG_LOAD gives the same signature.
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
#include "pkcs7.h"

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

/*
 * The kernel's verdict (pkcs7.h), against the certificates as the keys of a
 * keyring; the fields of the report are OpenSSL's reading of the message.
 */
int bpfsign__verify_certs(const void *data, size_t len,
			  const unsigned char *sig, size_t sig_len,
			  STACK_OF(X509) *certs, const char *certs_name,
			  struct bpfsign_report *rep)
{
	struct bpfsign_info *info = &rep->info;
	struct k_result res;
	char who[400], why[256];
	int err;

	memset(rep, 0, sizeof(*rep));
	if (bpfsign__parse(sig, sig_len, info, NULL))
		memset(info, 0, sizeof(*info));
	info->der_len = sig_len;
	err = k_verify(sig, sig_len, data ? data : "", len, certs, NULL, &res);
	rep->checked = true;
	if (err == -ENOKEY) {
		describe_signer(who, sizeof(who), info);
		kit_err(err, "signature: unknown signer: %s is not in %s, nor its issuer (the kernel: ENOKEY)",
			who, certs_name);
	} else if (err) {
		snprintf(why, sizeof(why), "%s", bpfsign_last_error());
		kit_err(err, "%s (with %s)", why, certs_name);
	}
	if (err)
		return fail(rep, err);
	X509_NAME_oneline(X509_get_subject_name(sk_X509_value(certs, res.signer_cert)),
			  rep->signer, sizeof(rep->signer));
	rep->verified = true;
	return 0;
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
