// SPDX-License-Identifier: GPL-2.0
/*
 * Keys and certificates: private keys from PEM/DER files or PKCS#11 URIs,
 * certificates from PEM/DER files, and the checks a signer must pass.
 */
/* The PKCS#11 engine is an ENGINE, deprecated in OpenSSL 3 but the only
 * PKCS#11 support Debian 12 ships (libengine-pkcs11-openssl), as in
 * scripts/sign-file.c. */
#define OPENSSL_SUPPRESS_DEPRECATED

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <openssl/decoder.h>
#include <openssl/engine.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509v3.h>

#include "internal.h"

#define MAX_KEY_FILE (1u << 20)

/* The PIN of a token, or the passphrase of an encrypted PEM key. */
static const char *key_pin(void)
{
	const char *pin = getenv("BPFSIGN_PIN");

	return pin ? pin : getenv("KBUILD_SIGN_PIN");
}

static int load_pkcs11_key(const char *uri, EVP_PKEY **pkey, ENGINE **engp)
{
	const char *module = getenv("BPFSIGN_PKCS11_MODULE");
	const char *pin = key_pin();
	ENGINE *e;

	if (!pin)
		return kit_err(-EINVAL,
			"%s: no PIN: set BPFSIGN_PIN (never on the command line)",
			uri);
	/* the engine would report a missing module as a missing key */
	if (module && access(module, R_OK) < 0)
		return kit_err(-errno, "%s: PKCS#11 module %s: %s", uri, module,
			       strerror(errno));
	ENGINE_load_builtin_engines();
	e = ENGINE_by_id("pkcs11");
	if (!e)
		return kit_err(-EINVAL,
			"%s: no OpenSSL engine 'pkcs11' (install libengine-pkcs11-openssl)",
			uri);
	if (module && !ENGINE_ctrl_cmd_string(e, "MODULE_PATH", module, 0)) {
		ENGINE_free(e);
		return kit_err(-EINVAL, "%s: cannot use PKCS#11 module %s",
			       uri, module);
	}
	if (!ENGINE_init(e)) {
		ENGINE_free(e);
		return kit_err(-EIO, "%s: cannot initialise the pkcs11 engine",
			       uri);
	}
	if (!ENGINE_ctrl_cmd_string(e, "PIN", pin, 0)) {
		bpfsign__put_engine(e);
		return kit_err(-EIO, "%s: cannot pass the PIN to the token",
			       uri);
	}
	*pkey = ENGINE_load_private_key(e, uri, NULL, NULL);
	if (!*pkey) {
		bpfsign__put_engine(e);
		return kit_err(-ENOENT,
			"%s: cannot load the private key from the token (no such object, or wrong PIN)",
			uri);
	}
	*engp = e;
	return 0;
}

void bpfsign__put_engine(ENGINE *e)
{
	if (!e)
		return;
	ENGINE_finish(e);
	ENGINE_free(e);
}

/* Without BPFSIGN_PIN: the decoder asks for a passphrase only for an
 * encrypted key (PEM or DER, PKCS#8 or traditional); refuse, and say so. */
static int no_passphrase(char *pass, size_t size, size_t *len, const OSSL_PARAM params[],
			 void *asked)
{
	(void)pass;
	(void)size;
	(void)len;
	(void)params;
	*(bool *)asked = true;
	return 0;
}

static int load_file_key(const char *path, EVP_PKEY **pkey)
{
	OSSL_DECODER_CTX *dctx;
	const unsigned char *p;
	const char *pin = key_pin();
	unsigned char *buf;
	size_t len, left;
	bool asked = false;
	int err, ok;

	err = read_file(path, MAX_KEY_FILE, &buf, &len);
	if (err)
		return err;
	*pkey = NULL;
	dctx = OSSL_DECODER_CTX_new_for_pkey(pkey, NULL, NULL, NULL,
					     EVP_PKEY_KEYPAIR, NULL, NULL);
	if (!dctx) {
		OPENSSL_cleanse(buf, len);
		free(buf);
		return kit_err(-ENOMEM, "%s: no key decoder", path);
	}
	if (pin)
		OSSL_DECODER_CTX_set_passphrase(dctx, (const unsigned char *)pin,
						strlen(pin));
	else
		OSSL_DECODER_CTX_set_passphrase_cb(dctx, no_passphrase, &asked);
	p = buf;
	left = len;
	ERR_set_mark();
	ok = OSSL_DECODER_from_data(dctx, &p, &left);
	OSSL_DECODER_CTX_free(dctx);
	OPENSSL_cleanse(buf, len);
	free(buf);
	if (ok && *pkey)
		ERR_clear_last_mark();
	if (!ok || !*pkey) {
		EVP_PKEY_free(*pkey);
		*pkey = NULL;
		if (asked) {	/* else the failure would read as "not a key" */
			ERR_pop_to_mark();	/* "unable to get passphrase": said here */
			return kit_err(-EINVAL, "%s: an encrypted key: set BPFSIGN_PIN to its passphrase",
				       path);
		}
		ERR_clear_last_mark();
		return kit_err(-EINVAL,
			"%s: not a PEM or DER private key (or a wrong passphrase in BPFSIGN_PIN)",
			path);
	}
	return 0;
}

int bpfsign__load_key(const char *uri, EVP_PKEY **pkey, ENGINE **engine)
{
	*engine = NULL;
	if (!strncmp(uri, "pkcs11:", 7))
		return load_pkcs11_key(uri, pkey, engine);
	return load_file_key(uri, pkey);
}

/* Did the last PEM_read_bio_X509() fail only for want of another block? */
static bool pem_at_end(void)
{
	unsigned long e = ERR_peek_last_error();

	return ERR_GET_LIB(e) == ERR_LIB_PEM &&
	       ERR_GET_REASON(e) == PEM_R_NO_START_LINE;
}

/* Up to max certificates from a PEM file, or one from a DER file. */
int bpfsign__load_certs(const char *path, int max, STACK_OF(X509) **out)
{
	STACK_OF(X509) *certs;
	unsigned char *buf;
	X509 *x;
	size_t len;
	BIO *bio;
	int err;

	err = read_file(path, BPFSIGN_MAX_SIG_SIZE, &buf, &len);
	if (err)
		return err;
	certs = sk_X509_new_null();
	bio = BIO_new_mem_buf(buf, (int)len);
	if (!certs || !bio) {
		err = kit_err(-ENOMEM, "%s: %s", path, strerror(ENOMEM));
		goto out;
	}
	/* OpenSSL's PEM reader tells the forms apart: a file in which it
	 * finds no certificate block at all is read as DER */
	ERR_set_mark();
	while (sk_X509_num(certs) < max &&
	       (x = PEM_read_bio_X509(bio, NULL, NULL, NULL))) {
		if (!sk_X509_push(certs, x)) {
			X509_free(x);
			err = kit_err(-ENOMEM, "%s: %s", path, strerror(ENOMEM));
			break;
		}
	}
	if (!err && !sk_X509_num(certs) && pem_at_end()) {
		const unsigned char *p = buf;

		x = d2i_X509(NULL, &p, (long)len);
		if (x && !sk_X509_push(certs, x)) {
			X509_free(x);
			err = kit_err(-ENOMEM, "%s: %s", path, strerror(ENOMEM));
		}
	} else if (!err && sk_X509_num(certs) < max && !pem_at_end()) {
		/* only "no more BEGIN lines" ends a bundle: a corrupt
		 * block would silently drop every certificate after it */
		err = kit_err(-EINVAL, "%s: certificate %d of the bundle is corrupt",
			      path, sk_X509_num(certs) + 1);
	}
	/* The end of a PEM file is an error to OpenSSL: not to us. */
	ERR_pop_to_mark();
	if (!err && !sk_X509_num(certs))
		err = kit_err(-EINVAL, "%s: not a PEM or DER certificate",
			      path);
out:
	BIO_free(bio);
	free(buf);
	if (err) {
		sk_X509_pop_free(certs, X509_free);
		return err;
	}
	*out = certs;
	return 0;
}

/* RSA of at least 2048 bits, or ECDSA on P-256 or P-384: nothing else. */
int bpfsign__check_key(const char *name, const EVP_PKEY *pkey)
{
	const char *type;
	char group[64];
	int bits;

	switch (EVP_PKEY_get_base_id(pkey)) {
	case EVP_PKEY_RSA:
		bits = EVP_PKEY_get_bits(pkey);
		if (bits < 2048)
			return kit_err(-EKEYREJECTED,
				"%s: RSA key of %d bits refused: at least 2048 bits are required",
				name, bits);
		return 0;
	case EVP_PKEY_EC:
		if (!EVP_PKEY_get_group_name(pkey, group, sizeof(group), NULL))
			return kit_err(-EKEYREJECTED,
				"%s: EC key without a named curve refused", name);
		if (strcmp(group, "prime256v1") && strcmp(group, "secp384r1"))
			return kit_err(-EKEYREJECTED,
				"%s: EC key on curve %s refused: use P-256 or P-384",
				name, group);
		return 0;
	default:
		type = EVP_PKEY_get0_type_name(pkey);
		return kit_err(-EKEYREJECTED,
			"%s: %s key refused: use RSA (>= 2048 bits) or ECDSA P-256/P-384",
			name, type ? type : "unknown");
	}
}

/* What the kernel needs to find and accept the signer. */
int bpfsign__check_cert(const char *name, X509 *cert)
{
	if ((X509_get_extension_flags(cert) & EXFLAG_KUSAGE) &&
	    !(X509_get_key_usage(cert) & KU_DIGITAL_SIGNATURE))
		return kit_err(-EKEYREJECTED,
			"%s: certificate refused: its keyUsage lacks digitalSignature",
			name);
	if (!X509_get0_subject_key_id(cert))
		return kit_err(-EKEYREJECTED,
			"%s: certificate refused: no subjectKeyIdentifier, by which the kernel finds the signer",
			name);
	return 0;
}

const EVP_MD *bpfsign__digest(const char *name)
{
	static const char *const allowed[] = { "sha256", "sha384", "sha512" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(allowed); i++)
		if (!strcasecmp(name, allowed[i]))
			return EVP_get_digestbyname(allowed[i]);
	return NULL;
}
