/* SPDX-License-Identifier: GPL-2.0 */
/* CMS signing in the guest, with the kit's test-only keys in /tests/keys. */
#ifndef BPFSIGN_SIGN_H
#define BPFSIGN_SIGN_H

#include <stdbool.h>
#include <stddef.h>
#include <openssl/types.h>

/* Sign like openssl cms -sign -binary -nocerts -outform DER -keyid, with
 * (-noattr) or without signed attributes.  Returns the DER length, or -1.
 */
int cms_sign(const char *name, const void *data, size_t len, int signed_attrs,
	     unsigned char **sig);
/* The same with the data inside (-nodetach), as IPE takes its policies. */
int cms_sign_attached(const char *name, const void *data, size_t len,
		      unsigned char **sig);
/* The same with NAME's certificate inside and no signed attributes, as a
 * signer that ships its chain would sign (no -nocerts, no -keyid).
 */
int cms_sign_with_cert(const char *name, const void *data, size_t len,
		       unsigned char **sig);
/* The signature octets of cms_sign(NAME, data) (its one SignerInfo, no
 * signed attributes): what "bpfsign sign" makes of a file, for the tests
 * that use it as a signing oracle.  NULL on failure; the caller frees it.
 */
ASN1_OCTET_STRING *cms_sign_value(const char *name, const void *data, size_t len);
/* /tests/keys/NAME.crt and NAME.key, or NULL; the caller frees them. */
X509 *cert_read(const char *name);
EVP_PKEY *key_read(const char *name);
/* The DER of /tests/keys/NAME.crt, for add_key("asymmetric"). */
int cert_der(const char *name, unsigned char **der);
/* The identity of the key of /tests/keys/NAME.crt as the kernel records it
 * (fdinfo sig_key_sha256): SHA-256 of the subjectPublicKey BIT STRING
 * contents, lowercase hex into hex (65 bytes).  false if unreadable.
 */
bool cert_key_sha256(const char *name, char *hex);
/* The subjectKeyIdentifier of /tests/keys/NAME.crt as hex into hex (at
 * least 129 bytes for the kernel's 64-byte limit): lowercase, or with
 * colons the upper-case "AB:CD" form of openssl x509 -text.  false if the
 * certificate is unreadable or has none.
 */
bool cert_skid(const char *name, char *hex, bool colons);
/* Read a whole file; returns its length or -1. */
long read_file(const char *path, unsigned char **buf);

#endif
