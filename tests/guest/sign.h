/* SPDX-License-Identifier: GPL-2.0 */
/* CMS signing in the guest, with the kit's test-only keys in /tests/keys. */
#ifndef BPFSIGN_SIGN_H
#define BPFSIGN_SIGN_H

#include <stdbool.h>
#include <stddef.h>

/* Sign like openssl cms -sign -binary -nocerts -outform DER -keyid, with
 * (-noattr) or without signed attributes.  Returns the DER length, or -1.
 */
int cms_sign(const char *name, const void *data, size_t len, int signed_attrs,
	     unsigned char **sig);
/* The same with the data inside (-nodetach), as IPE takes its policies. */
int cms_sign_attached(const char *name, const void *data, size_t len,
		      unsigned char **sig);
/* The DER of /tests/keys/NAME.crt, for add_key("asymmetric"). */
int cert_der(const char *name, unsigned char **der);
/* The identity of the key of /tests/keys/NAME.crt as the kernel records it
 * (fdinfo sig_key_sha256): SHA-256 of the subjectPublicKey BIT STRING
 * contents, lowercase hex into hex (65 bytes).  false if unreadable.
 */
bool cert_key_sha256(const char *name, char *hex);
/* Read a whole file; returns its length or -1. */
long read_file(const char *path, unsigned char **buf);

#endif
