// SPDX-License-Identifier: GPL-2.0
/* The shared fixture of the sig-key tests: sig_key_fixture.h */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509v3.h>

#include "runner.h"
#include "sign.h"
#include "signed.h"
#include "sig_key_fixture.h"

int signed_load(const char *name, int keyring)
{
	struct load l;
	int fd;

	if (!make_load(&l, 1, name, keyring))
		return -EINVAL;
	fd = sys_prog_load(&l);
	if (fd < 0)
		fd = -errno;
	free_load(&l);
	return fd;
}

long proc_keys_serial(const char *a, const char *b, long skip)
{
	char line[512];
	unsigned long serial;
	long found = -1;
	FILE *f = fopen("/proc/keys", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strstr(line, a) || (b && !strstr(line, b)))
			continue;
		if (sscanf(line, "%lx", &serial) == 1 && (long)serial != skip) {
			found = serial;
			break;
		}
	}
	fclose(f);
	return found;
}

long key_serial_by_skid(const char *skid)
{
	char needle[160];

	snprintf(needle, sizeof(needle), ": %s:", skid);
	/* the type column is 9 characters wide */
	return proc_keys_serial(" asymmetri ", needle, -1);
}

long secondary_keyring(void)
{
	return proc_keys_serial(" .secondary_trusted_keys", NULL, -1);
}

key_serial_t cert_enrol(const char *name, const char *desc, key_serial_t keyring)
{
	unsigned char *der = NULL;
	key_serial_t k;
	int len = cert_der(name, &der);

	if (len < 0)
		return -1;
	k = add_key("asymmetric", desc, der, len, keyring);
	OPENSSL_free(der);
	return k;
}

static bool add_ext(X509 *x, X509_EXTENSION *ext)
{
	bool ok = ext && X509_add_ext(x, ext, -1);

	X509_EXTENSION_free(ext);
	return ok;
}

static bool write_pem(const char *name, const char *ext, X509 *x, EVP_PKEY *key)
{
	char path[128];
	bool ok;
	FILE *f;

	snprintf(path, sizeof(path), "/tests/keys/%s.%s", name, ext);
	f = fopen(path, "w");
	ok = f && (x ? PEM_write_X509(f, x) : PEM_write_PrivateKey(f, key, NULL, NULL, 0, NULL, NULL));
	if (f)
		fclose(f);
	return ok;
}

bool mint_cert(const struct mint *m)
{
	X509 *issuer = m->issuer ? cert_read(m->issuer) : NULL, *x = X509_new();
	X509 *from = m->skid_of ? cert_read(m->skid_of) : NULL;
	const char *signer = m->signer ? m->signer : m->issuer;
	EVP_PKEY *key = EVP_EC_gen("P-256"), *skey = signer ? key_read(signer) : NULL;
	X509V3_CTX ctx;
	bool ok = false;

	if (!x || !key || (m->issuer && !issuer) || (signer && !skey) || (m->skid_of && !from))
		goto out;
	X509_set_version(x, 2);
	ASN1_INTEGER_set(X509_get_serialNumber(x), m->serial);
	X509_NAME_add_entry_by_txt(X509_get_subject_name(x), "CN", MBSTRING_ASC,
				   (const unsigned char *)m->cn, -1, -1, 0);
	X509_set_issuer_name(x, X509_get_subject_name(issuer ? issuer : x));
	X509_gmtime_adj(X509_getm_notBefore(x), -3600);
	X509_gmtime_adj(X509_getm_notAfter(x), 3600L * 24 * 365);
	X509_set_pubkey(x, key);
	X509V3_set_ctx(&ctx, issuer ? issuer : x, x, NULL, NULL, 0);
	if (from)
		ok = add_ext(x, X509_EXTENSION_create_by_NID(NULL, NID_subject_key_identifier, 0,
			X509_EXTENSION_get_data(X509_get_ext(from,
				X509_get_ext_by_NID(from, NID_subject_key_identifier, -1)))));
	else if (m->skid)
		ok = add_ext(x, X509_EXTENSION_create_by_NID(NULL, NID_subject_key_identifier, 0,
							     (ASN1_OCTET_STRING *)m->skid));
	else
		ok = add_ext(x, X509V3_EXT_conf_nid(NULL, &ctx, NID_subject_key_identifier, "hash"));
	/* a keyring finds the issuer by this */
	ok = ok && (!m->akid ||
		    add_ext(x, X509V3_EXT_conf_nid(NULL, &ctx, NID_authority_key_identifier, "keyid:always")));
	ok = ok && add_ext(x, X509V3_EXT_conf_nid(NULL, &ctx, NID_key_usage, "critical,digitalSignature"));
	ok = ok && X509_sign(x, skey ? skey : key, EVP_sha256()) &&
	     (!m->resign || m->resign(x)) &&
	     write_pem(m->name, "crt", x, NULL) && write_pem(m->name, "key", NULL, key);
out:
	X509_free(issuer);
	X509_free(from);
	X509_free(x);
	EVP_PKEY_free(key);
	EVP_PKEY_free(skey);
	return ok;
}
