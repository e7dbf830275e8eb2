// SPDX-License-Identifier: GPL-2.0
/*
 * Offline verification: the kernel's rules (pkcs7.h), each failure with the
 * errno BPF_PROG_LOAD gives the same signature.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/cms.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/x509.h>

#include "hex.h"		/* common/ */
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
		for (i = 0; i < info->keyid_len && off + 3 < size; i++) {
			if (i)
				buf[off++] = ':';
			hex_str(buf + off, size - off, &info->keyid[i], 1);
			off += 2;
		}
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
	/* a message OpenSSL cannot read: the fields as the kernel reads them */
	if (bpfsign__parse(sig, sig_len, info, NULL))
		bpfsign__kernel_fields(sig, sig_len, info);
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
	bpfsign__name_str(rep->signer, sizeof(rep->signer),
			  X509_get_subject_name(sk_X509_value(certs, res.signer_cert)));
	/* the key the kernel would record: a key of certs that signed the
	 * data itself; a signer whose certificate a key of certs issued
	 * loads with no key recorded (key_sha256 null)
	 */
	if (res.data_signer_cert >= 0 &&
	    bpfsign__key_sha256(sk_X509_value(certs, res.data_signer_cert), rep->key_sha256))
		return fail(rep, -ENOMEM);
	rep->verified = true;
	/* the kernel takes another encoding of the same (r, s): say so */
	if (res.non_der_ecdsa)
		snprintf(rep->reason, sizeof(rep->reason),
			 "warning: the ECDSA signature value is not DER (a non-canonical encoding the kernel accepts: malleable, not forged)");
	/* the kernel ignores the block: what it names was not signed */
	else if (info->has_seq_attrs)
		snprintf(rep->reason, sizeof(rep->reason),
			 "warning: a [2] attribute SEQUENCE the kernel parses and ignores (not signed attributes: the signature is over the payload itself)");
	return 0;
}

struct bpfsign_verifier {
	STACK_OF(X509) *certs;	/* as the keys of a keyring */
	char *name;		/* the file they came from, for messages */
};

static int verifier_new(STACK_OF(X509) *certs, const char *name,
			struct bpfsign_verifier **out)
{
	struct bpfsign_verifier *v = calloc(1, sizeof(*v));

	if (!v || !(v->name = strdup(name))) {
		free(v);
		sk_X509_pop_free(certs, X509_free);
		return kit_err(-ENOMEM, "%s: %s", name, strerror(ENOMEM));
	}
	v->certs = certs;
	*out = v;
	return 0;
}

int bpfsign_verifier_load(const char *cert, const char *ca_bundle,
			  struct bpfsign_verifier **out)
{
	const char *path = cert ? cert : ca_bundle;
	STACK_OF(X509) *certs = NULL;
	int err;

	if (!cert == !ca_bundle || !out)
		return kit_err(-EINVAL, "verify: give exactly one of cert and ca_bundle");
	err = bpfsign__load_certs(path, cert ? 1 : INT_MAX, &certs);
	if (err)
		return err;
	return verifier_new(certs, path, out);
}

int bpfsign__signer_verifier(X509 *cert, const char *name,
			     struct bpfsign_verifier **out)
{
	STACK_OF(X509) *certs = sk_X509_new_null();

	if (!certs || !sk_X509_push(certs, cert)) {
		sk_X509_free(certs);
		return kit_err(-ENOMEM, "%s: %s", name, strerror(ENOMEM));
	}
	X509_up_ref(cert);
	return verifier_new(certs, name, out);
}

void bpfsign_verifier_free(struct bpfsign_verifier *v)
{
	if (!v)
		return;
	sk_X509_pop_free(v->certs, X509_free);
	free(v->name);
	free(v);
}

int bpfsign_verifier_verify(const struct bpfsign_verifier *v,
			    const void *data, size_t len,
			    const unsigned char *sig, size_t sig_len,
			    struct bpfsign_report *rep)
{
	struct bpfsign_report local;

	if (!rep)
		rep = &local;
	memset(rep, 0, sizeof(*rep));
	if (!v || (!data && len) || (!sig && sig_len)) {
		kit_err(-EINVAL, "verify: bad arguments");
		return fail(rep, -EINVAL);
	}
	return bpfsign__verify_certs(data, len, sig, sig_len, v->certs, v->name, rep);
}

/* The one-shot form: the certificates are read for this signature only. */
int bpfsign_verify(const void *data, size_t len,
		   const unsigned char *sig, size_t sig_len,
		   const char *cert, const char *ca_bundle,
		   struct bpfsign_report *rep)
{
	struct bpfsign_verifier *v;
	struct bpfsign_report local;
	int err;

	if (!rep)
		rep = &local;
	memset(rep, 0, sizeof(*rep));
	err = bpfsign_verifier_load(cert, ca_bundle, &v);
	if (err)
		return fail(rep, err);
	err = bpfsign_verifier_verify(v, data, len, sig, sig_len, rep);
	bpfsign_verifier_free(v);
	return err;
}
