/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the tests of "which key signed a program" share (test_sig_key.c,
 * test_policy_keys.c, test_attack_sig_key.c): signed loads of the fixture
 * by a key of /tests/keys, the kernel's keys as /proc/keys lists them, and
 * certificates minted in the guest for the attacks (a copied skid, a leaf a
 * team certified), written beside the kit's keys.  The certificate and key
 * readers themselves are sign.h's.
 */
#ifndef BPFSIGN_SIG_KEY_FIXTURE_H
#define BPFSIGN_SIG_KEY_FIXTURE_H

#include <stdbool.h>
#include <keyutils.h>
#include <openssl/types.h>

/* A load of the fixture signed by key NAME against keyring: fd, or -errno */
int signed_load(const char *name, int keyring);

/*
 * The serial of the first key in /proc/keys (every key root may view)
 * whose line holds both a and b (b may be NULL), other than skip: -1 if
 * none.
 */
long proc_keys_serial(const char *a, const char *b, long skip);
/* The serial of an asymmetric key whose description ends in skid
 * (x509_key_preparse(): "SUBJECT: SKID"), or -1
 */
long key_serial_by_skid(const char *skid);
/* The serial of .secondary_trusted_keys, or -1 */
long secondary_keyring(void);

/* /tests/keys/NAME.crt added to keyring as an asymmetric key desc: its
 * serial, or -1
 */
key_serial_t cert_enrol(const char *name, const char *desc, key_serial_t keyring);

/* A certificate for a fresh P-256 key, /tests/keys/NAME.{crt,key} */
struct mint {
	const char *name;
	const char *cn;
	long serial;
	/* its issuer's certificate, NULL: self-signed */
	const char *issuer;
	/* the key that signs it, when not the issuer's (or the fresh one) */
	const char *signer;
	/* its subjectKeyIdentifier: this certificate's, verbatim; else this
	 * extension value (the DER of an OCTET STRING); else the key's hash
	 */
	const char *skid_of;
	const ASN1_OCTET_STRING *skid;
	/* an authorityKeyIdentifier (keyid:always) naming the issuer */
	bool akid;
	/* run on the signed certificate before it is written, false fails */
	bool (*resign)(X509 *x);
};
bool mint_cert(const struct mint *m);

#endif
