/* SPDX-License-Identifier: GPL-2.0 */
/* libbpfsign internals: shared by the library files, its tests and fuzzers. */
#ifndef BPFSIGN_INTERNAL_H
#define BPFSIGN_INTERNAL_H

#include <stddef.h>
#include <openssl/cms.h>
#include <openssl/x509.h>

#include "err.h"		/* common/: kit_err(), ARRAY_SIZE */
#include "file.h"		/* common/: read_file() */
#include "libbpfsign.h"

#define offsetofend(TYPE, FIELD) \
	(offsetof(TYPE, FIELD) + sizeof(((TYPE *)0)->FIELD))

/*
 * Failures are recorded with kit_err() (common/err.h), the slot that
 * bpfsign_last_error() returns; files are read with read_file() (common/file.h).
 */

/* key.c */
int bpfsign__load_key(const char *uri, EVP_PKEY **pkey, ENGINE **engine);
void bpfsign__put_engine(ENGINE *engine);
int bpfsign__load_certs(const char *path, int max, STACK_OF(X509) **out);
int bpfsign__check_key(const char *name, const EVP_PKEY *pkey);
int bpfsign__check_cert(const char *name, X509 *cert);
const EVP_MD *bpfsign__digest(const char *name);

/* inspect.c: parse; on success *cms is the parsed message (caller frees). */
int bpfsign__parse(const unsigned char *sig, size_t len,
		   struct bpfsign_info *info, CMS_ContentInfo **cms);

/* inspect.c: *info (reset) as the kernel's parser reads sig, for a message
 * OpenSSL cannot read; info->kernel_parsed false if that parser refuses it.
 */
void bpfsign__kernel_fields(const unsigned char *sig, size_t len,
			    struct bpfsign_info *info);

/* inspect.c: an X.509 name as RFC 2253 ("CN=...,O=..."), in every report. */
void bpfsign__name_str(char *dst, size_t size, const X509_NAME *name);

/* inspect.c: SHA-256 of the certificate's public key as the kernel holds
 * it (struct public_key's key: the subjectPublicKey BIT STRING contents),
 * lowercase hex into hex (65 bytes).  0 or a negative errno.
 */
int bpfsign__key_sha256(const X509 *cert, char hex[2 * 32 + 1]);

/* verify.c: bpfsign_verify() against certificates already loaded. */
int bpfsign__verify_certs(const void *data, size_t len,
			  const unsigned char *sig, size_t sig_len,
			  STACK_OF(X509) *certs, const char *certs_name,
			  struct bpfsign_report *rep);
/* verify.c: a verifier of one certificate already loaded (up-referenced). */
int bpfsign__signer_verifier(X509 *cert, const char *name,
			     struct bpfsign_verifier **out);

#endif /* BPFSIGN_INTERNAL_H */
