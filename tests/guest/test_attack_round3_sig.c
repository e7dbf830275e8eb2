// SPDX-License-Identifier: GPL-2.0
/*
 * Third hostile review of issue 40's fix: BPF signatures with CMS signed
 * attributes are refused (pkcs7_verify(), VERIFYING_BPF_SIGNATURE checks
 * pkcs7->have_authattrs, set by pkcs7_check_authattrs() from the first
 * SignerInfo's [0] IMPLICIT attribute SET).
 * Property attacked: a program (insns || metadata) loads as verified by key
 * K, recorded with K's sha256, only if K's private key signed exactly those
 * bytes, as the data itself.
 *
 * Attacker: the signing oracle of round 2 (attack_round2_sig_key_attrs_
 * oracle): it gets team A's signing step (no signed attributes) to sign
 * one file of its choosing, and never holds A's key.  Here the oracle's
 * file is the attribute SET naming the digest of the attacker's program, and
 * the attacker hides the attributes where have_authattrs is not set: the
 * [2] EXPLICIT SEQUENCE OF alternative of pkcs7.asn1 (no action: the kernel
 * parses its attributes but keeps no authattrs), a BER indefinite length, a
 * second SignerInfo, or the program embedded in the message.
 *
 * Each message is built here byte by byte (DER, SignerInfo version 3 naming
 * A's subjectKeyIdentifier); "A's oracle signature of FILE" is what
 * "bpfsign sign FILE" makes with A's key: RSA PKCS#1 v1.5 over SHA-256(FILE).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/sha.h>
#include <openssl/x509v3.h>
#include <bpf/bpf.h>
#include <keyutils.h>

#include "fixture.h"
#include "runner.h"
#include "util.h"
#include "sign.h"
#include "signed.h"

static const unsigned char OID_SIGNED[] = { 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x02 };
static const unsigned char OID_DATA[] = { 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x01 };
static const unsigned char OID_SHA256[] = { 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01 };
static const unsigned char OID_RSA[] = { 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01 };
static const unsigned char OID_ECDSA_SHA256[] = { 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x04, 0x03, 0x02 };
static const unsigned char OID_CT[] = { 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x09, 0x03 };
static const unsigned char OID_MD[] = { 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x09, 0x04 };

struct der {
	unsigned char *p;
	int n;
};

static void put(struct der *d, const void *b, int n)
{
	unsigned char *q = realloc(d->p, d->n + n + 1);

	if (!q)
		abort();
	d->p = q;
	memcpy(d->p + d->n, b, n);
	d->n += n;
}

static void hdr(struct der *d, int tag, int len)
{
	unsigned char h[4];
	int k = 0;

	h[k++] = tag;
	if (len < 0x80) {
		h[k++] = len;
	} else if (len < 0x100) {
		h[k++] = 0x81;
		h[k++] = len;
	} else {
		h[k++] = 0x82;
		h[k++] = len >> 8;
		h[k++] = len;
	}
	put(d, h, k);
}

static void tlv(struct der *d, int tag, const void *c, int n)
{
	hdr(d, tag, n);
	put(d, c, n);
}

/* d becomes TAG { d } */
static void wrap(struct der *d, int tag)
{
	struct der o = {};

	hdr(&o, tag, d->n);
	put(&o, d->p, d->n);
	free(d->p);
	*d = o;
}

/* d += c; c is emptied */
static void add(struct der *d, struct der *c)
{
	put(d, c->p, c->n);
	free(c->p);
	c->p = NULL;
	c->n = 0;
}

static void alg(struct der *d, const unsigned char *oid)
{
	struct der a = {};
	static const unsigned char null[] = { 0x05, 0x00 };

	tlv(&a, 0x06, oid, 9);
	put(&a, null, 2);
	wrap(&a, 0x30);
	add(d, &a);
}

static EVP_PKEY *read_key(const char *name)
{
	char path[128];
	EVP_PKEY *key;
	FILE *f;

	snprintf(path, sizeof(path), "/tests/keys/%s.key", name);
	f = fopen(path, "r");
	key = f ? PEM_read_PrivateKey(f, NULL, NULL, NULL) : NULL;
	if (f)
		fclose(f);
	return key;
}

/* The subjectKeyIdentifier of /tests/keys/NAME.crt into skid; its length */
static int read_skid(const char *name, unsigned char *skid)
{
	unsigned char *der = NULL;
	const unsigned char *p;
	const ASN1_OCTET_STRING *s;
	int len = cert_der(name, &der), n = -1;
	X509 *x;

	if (len < 0)
		return -1;
	p = der;
	x = d2i_X509(NULL, &p, len);
	s = x ? X509_get0_subject_key_id(x) : NULL;
	if (s && ASN1_STRING_length(s) <= 64) {
		n = ASN1_STRING_length(s);
		memcpy(skid, ASN1_STRING_get0_data(s), n);
	}
	X509_free(x);
	OPENSSL_free(der);
	return n;
}

/* NAME's signature of FILE without attributes ("bpfsign sign FILE"): RSA
 * PKCS#1 v1.5 over SHA-256(FILE).  For "signing" this is A's oracle.
 */
static int key_sign(const char *name, const void *file, size_t len, unsigned char *sig)
{
	EVP_PKEY *key = read_key(name);
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	size_t n = 1024;
	int ret = -1;

	if (key && ctx && EVP_DigestSignInit(ctx, NULL, EVP_sha256(), NULL, key) == 1 &&
	    EVP_DigestSign(ctx, sig, &n, file, len) == 1)
		ret = (int)n;
	EVP_MD_CTX_free(ctx);
	EVP_PKEY_free(key);
	return ret;
}

/* The attributes contentType = id-data, messageDigest = md, in DER order */
static struct der attrs_of(const unsigned char *md)
{
	struct der a = {}, at = {}, v = {};

	tlv(&at, 0x06, OID_CT, 9);
	tlv(&v, 0x06, OID_DATA, 9);
	wrap(&v, 0x31);
	add(&at, &v);
	wrap(&at, 0x30);
	add(&a, &at);
	tlv(&at, 0x06, OID_MD, 9);
	tlv(&v, 0x04, md, 32);
	wrap(&v, 0x31);
	add(&at, &v);
	wrap(&at, 0x30);
	add(&a, &at);
	return a;
}

/* NAME's signature of ATTRS wrapped in TAG: 0x31, the SET a signer of
 * RFC 5652 signed attributes signs (A's oracle), or 0x30, a SEQUENCE
 */
static int attrs_sign(const char *name, const struct der *attrs, int tag, unsigned char *sig)
{
	struct der set = {};
	int n;

	put(&set, attrs->p, attrs->n);
	wrap(&set, tag);
	n = key_sign(name, set.p, set.n, sig);
	free(set.p);
	return n;
}

enum form { NO_ATTRS, ATTRS_SET, ATTRS_SEQ, ATTRS_SET_INDEF };

/* A SignerInfo version 3 naming the key of NAME.crt by its SKID */
static bool signer_info(struct der *out, const char *name, enum form form,
			const struct der *attrs, const unsigned char *sig, int sig_len)
{
	static const unsigned char v3 = 3, eoc[] = { 0, 0 }, indef[] = { 0xa0, 0x80 };
	unsigned char skid[64];
	int skid_len = read_skid(name, skid);
	struct der si = {}, t = {};

	if (skid_len < 0 || sig_len < 0)
		return false;
	tlv(&si, 0x02, &v3, 1);
	tlv(&si, 0x80, skid, skid_len);
	alg(&si, OID_SHA256);
	switch (form) {
	case NO_ATTRS:
		break;
	case ATTRS_SET:
		tlv(&si, 0xa0, attrs->p, attrs->n);
		break;
	case ATTRS_SEQ:
		put(&t, attrs->p, attrs->n);
		wrap(&t, 0x30);
		wrap(&t, 0xa2);
		add(&si, &t);
		break;
	case ATTRS_SET_INDEF:
		put(&si, indef, 2);
		put(&si, attrs->p, attrs->n);
		put(&si, eoc, 2);
		break;
	}
	if (strstr(name, "-ec")) {
		tlv(&t, 0x06, OID_ECDSA_SHA256, sizeof(OID_ECDSA_SHA256));
		wrap(&t, 0x30);
		add(&si, &t);
	} else {
		alg(&si, OID_RSA);
	}
	tlv(&si, 0x04, sig, sig_len);
	wrap(&si, 0x30);
	add(out, &si);
	return true;
}

/* ContentInfo { signedData v3 { sha256, id-data [content], sinfos } } */
static int message(struct der *sinfos, const void *content, int clen, unsigned char **sig)
{
	static const unsigned char v3 = 3;
	struct der sd = {}, t = {}, c = {}, ci = {};

	tlv(&sd, 0x02, &v3, 1);
	alg(&t, OID_SHA256);
	wrap(&t, 0x31);
	add(&sd, &t);
	tlv(&t, 0x06, OID_DATA, 9);
	if (content) {
		tlv(&c, 0x04, content, clen);
		wrap(&c, 0xa0);
		add(&t, &c);
	}
	wrap(&t, 0x30);
	add(&sd, &t);
	add(&t, sinfos);
	wrap(&t, 0x31);
	add(&sd, &t);
	wrap(&sd, 0x30);
	wrap(&sd, 0xa0);
	tlv(&ci, 0x06, OID_SIGNED, 9);
	add(&ci, &sd);
	wrap(&ci, 0x30);
	*sig = ci.p;
	return ci.n;
}

/* The attacker's program: the fixture load l, insns || metadata into
 * payload.  A never signs these bytes in the attacks below.
 */
static int attacker_load(struct load *l, unsigned char *payload)
{
	size_t len;
	int i;

	if (!make_load(l, 1, "signing", BUILTIN))
		return -1;
	len = l->cnt * sizeof(l->insns[0]);
	memcpy(payload, l->insns, len);
	for (i = 0; i < META_SZ; i++)
		payload[len++] = fixture_meta(0, i);
	free(l->sig);
	l->sig = NULL;
	l->sig_len = 0;
	return (int)len;
}

static void set_sig(struct load *l, unsigned char *sig, int len)
{
	free(l->sig);
	l->sig = sig;
	l->sig_len = len;
}

#define PAYLOAD_MAX (sizeof(((struct load *)0)->insns) + META_SZ)

/* The builder's own message of A's signature over the program, no
 * attributes, loads as A: the refusals below are the forms', not the
 * builder's.
 */
static bool control_load_by(struct load *l, const char *name, const unsigned char *payload, int len)
{
	unsigned char sig[1024], *msg;
	struct der sinfos = {};
	int sig_len = key_sign(name, payload, len, sig), n;

	if (!ASSERT_TRUE(signer_info(&sinfos, name, NO_ATTRS, NULL, sig, sig_len), "control SignerInfo"))
		return false;
	n = message(&sinfos, NULL, 0, &msg);
	set_sig(l, msg, n);
	expect_load(l, 0, NULL, "control: A's signature of the program, built here");
	return !test_failed();
}

static bool control_load(struct load *l, const unsigned char *payload, int len)
{
	return control_load_by(l, "signing", payload, len);
}

/*
 * The attribute SET hidden as [2] EXPLICIT SEQUENCE OF (pkcs7.asn1's
 * aaSequence, which has no action): have_authattrs stays false, so the
 * signed-attributes refusal does not fire.  A's oracle signature of the
 * SET (0x31 ...) and of the SEQUENCE (0x30 ...) as the SignerInfo's
 * signature: the kernel must verify it over SHA-256(insns || metadata),
 * which A never signed: -EKEYREJECTED, nothing loaded or recorded.
 */
TEST_EXPLICIT(attack_round3_sig_attrs_explicit_seq)
{
	unsigned char payload[PAYLOAD_MAX], md[32], sig[1024], *msg;
	struct der attrs = {}, sinfos = {};
	struct load l = {};
	int len = attacker_load(&l, payload), sig_len, tag, n;

	if (!ASSERT_GE(len, 1, "the attacker's program") || !control_load(&l, payload, len))
		goto out;
	SHA256(payload, len, md);
	attrs = attrs_of(md);
	for (tag = 0x31; tag >= 0x30; tag--) {
		sig_len = attrs_sign("signing", &attrs, tag, sig);
		if (!ASSERT_TRUE(signer_info(&sinfos, "signing", ATTRS_SEQ, &attrs, sig, sig_len),
				 "SignerInfo with [2] attributes"))
			goto out;
		n = message(&sinfos, NULL, 0, &msg);
		set_sig(&l, msg, n);
		printf("  # [2] EXPLICIT attributes, A's oracle signature of the %s\n",
		       tag == 0x31 ? "SET" : "SEQUENCE");
		/* pins pkcs7_digest(): without sinfo->authattrs the key signs the data */
		expect_load(&l, EKEYREJECTED, "signature verification failed (-129)",
			    "[2] attributes naming the attacker's program, A's signature of them");
	}
out:
	free(attrs.p);
	free_load(&l);
}

/*
 * What the kernel does with a [2] attribute SEQUENCE when A did sign the
 * program itself: the attributes are parsed (contentType checked) and
 * ignored, the signature is over the data, so the load is A's and the
 * property holds; the kit's claim "signatures with signed attributes are
 * refused" does not cover this form.  Pins the kernel's answer so that the
 * offline verifier can be compared with it (host: bpfsign verify).
 */
TEST_EXPLICIT(attack_round3_sig_attrs_explicit_seq_over_data)
{
	unsigned char payload[PAYLOAD_MAX], md[32], sig[1024], *msg;
	char v[80], a_sha[65];
	struct der attrs = {}, sinfos = {};
	struct load l = {};
	int len = attacker_load(&l, payload), sig_len, n, fd;

	if (!ASSERT_GE(len, 1, "the program") || !ASSERT_TRUE(cert_key_sha256("signing", a_sha), "A's sha256") ||
	    !control_load(&l, payload, len))
		goto out;
	SHA256(payload, len, md);
	attrs = attrs_of(md);
	sig_len = key_sign("signing", payload, len, sig);
	if (!ASSERT_TRUE(signer_info(&sinfos, "signing", ATTRS_SEQ, &attrs, sig, sig_len), "SignerInfo"))
		goto out;
	n = message(&sinfos, NULL, 0, &msg);
	set_sig(&l, msg, n);
	fd = sys_prog_load(&l);
	printf("  # [2] attributes, A's signature of the program itself: load %d (errno %d), log: %.200s\n",
	       fd, fd < 0 ? errno : 0, vlog);
	if (ASSERT_OK(fd, "A signed the program: [2] attributes are inert")) {
		ASSERT_STREQ(prog_fdinfo(fd, "sig_key_sha256", v, sizeof(v)), a_sha,
			     "recorded as A, who signed the program");
		close(fd);
	}
out:
	free(attrs.p);
	free_load(&l);
}

/*
 * The [0] attribute SET with a BER indefinite length (a0 80 ... 00 00): the
 * kernel's decoder still runs pkcs7_sig_note_set_of_authattrs, so the
 * refusal stands.  A's oracle signature of the definite SET.
 */
TEST_EXPLICIT(attack_round3_sig_attrs_indefinite)
{
	unsigned char payload[PAYLOAD_MAX], md[32], sig[1024], *msg;
	struct der attrs = {}, sinfos = {};
	struct load l = {};
	int len = attacker_load(&l, payload), sig_len, n;

	if (!ASSERT_GE(len, 1, "the attacker's program") || !control_load(&l, payload, len))
		goto out;
	SHA256(payload, len, md);
	attrs = attrs_of(md);
	sig_len = attrs_sign("signing", &attrs, 0x31, sig);
	if (!ASSERT_TRUE(signer_info(&sinfos, "signing", ATTRS_SET_INDEF, &attrs, sig, sig_len),
			 "SignerInfo"))
		goto out;
	n = message(&sinfos, NULL, 0, &msg);
	set_sig(&l, msg, n);
	/* pins pkcs7_check_authattrs() for an indefinite-length [0] */
	expect_load(&l, EKEYREJECTED, SIGNED_ATTRS_LOG,
		    "indefinite-length attributes, A's signature of them");
out:
	free(attrs.p);
	free_load(&l);
}

/*
 * Two SignerInfos: the attacker's own (team.key, in no keyring) without
 * attributes over its program, and A's oracle SignerInfo with attributes,
 * in both orders, so that have_authattrs (taken from the first) is false
 * while the second carries them.  Then A's genuine signature of other bytes
 * next to the attacker's own: A must not be recorded for a SignerInfo that
 * does not verify.
 */
TEST_EXPLICIT(attack_round3_sig_second_signer)
{
	unsigned char payload[PAYLOAD_MAX], md[32], sig[1024], tsig[1024], *msg;
	static const unsigned char other[] = "bytes team A signed for someone else";
	struct der attrs = {}, sinfos = {};
	struct load l = {};
	int len = attacker_load(&l, payload), sig_len, tsig_len, n, order;

	if (!ASSERT_GE(len, 1, "the attacker's program") || !control_load(&l, payload, len))
		goto out;
	SHA256(payload, len, md);
	attrs = attrs_of(md);
	sig_len = attrs_sign("signing", &attrs, 0x31, sig);
	tsig_len = key_sign("team", payload, len, tsig);
	for (order = 0; order < 2; order++) {
		if (!order)
			signer_info(&sinfos, "team", NO_ATTRS, NULL, tsig, tsig_len);
		if (!ASSERT_TRUE(signer_info(&sinfos, "signing", ATTRS_SET, &attrs, sig, sig_len),
				 "A's SignerInfo"))
			goto out;
		if (order)
			signer_info(&sinfos, "team", NO_ATTRS, NULL, tsig, tsig_len);
		n = message(&sinfos, NULL, 0, &msg);
		set_sig(&l, msg, n);
		printf("  # A's attribute SignerInfo %s the attacker's own\n", order ? "before" : "after");
		/* pins pkcs7_check_authattrs(): attributes in all SignerInfos or none */
		expect_load(&l, EINVAL, "signature verification failed (-22)",
			    "one SignerInfo with attributes, one without");
	}
	/* A's genuine signature of other bytes, the attacker's of its program */
	sig_len = key_sign("signing", other, sizeof(other), sig);
	signer_info(&sinfos, "team", NO_ATTRS, NULL, tsig, tsig_len);
	signer_info(&sinfos, "signing", NO_ATTRS, NULL, sig, sig_len);
	n = message(&sinfos, NULL, 0, &msg);
	set_sig(&l, msg, n);
	/* pins pkcs7_validate_trust(): a trusted key that does not verify rejects */
	expect_load(&l, EKEYREJECTED, "signature verification failed (-129)",
		    "A's signature of other bytes next to the attacker's SignerInfo");
out:
	free(attrs.p);
	free_load(&l);
}

/*
 * The program embedded in the message (not detached), A's signature over
 * it: bpf_prog_verify_signature() must refuse embedded content, not load
 * the embedded bytes' signature for the program (here they are equal; a
 * message whose embedded content differs would otherwise be "A's").
 */
TEST_EXPLICIT(attack_round3_sig_embedded_content)
{
	unsigned char payload[PAYLOAD_MAX], sig[1024], *msg;
	static const unsigned char other[] = "bytes team A signed for someone else";
	struct der sinfos = {};
	struct load l = {};
	int len = attacker_load(&l, payload), sig_len, n;

	if (!ASSERT_GE(len, 1, "the program") || !control_load(&l, payload, len))
		goto out;
	sig_len = key_sign("signing", payload, len, sig);
	signer_info(&sinfos, "signing", NO_ATTRS, NULL, sig, sig_len);
	n = message(&sinfos, payload, len, &msg);
	set_sig(&l, msg, n);
	/* pins pkcs7_supply_detached_data(): content already present */
	expect_load(&l, EBADMSG, "signature verification failed (-74)",
		    "A's signature with the program embedded");
	sig_len = key_sign("signing", other, sizeof(other), sig);
	signer_info(&sinfos, "signing", NO_ATTRS, NULL, sig, sig_len);
	n = message(&sinfos, other, sizeof(other), &msg);
	set_sig(&l, msg, n);
	/* the same: A's genuine message over other bytes, sent with the program */
	expect_load(&l, EBADMSG, "signature verification failed (-74)",
		    "A's message over other embedded bytes");
out:
	free_load(&l);
}

/* A message of one SignerInfo of NAME: mid (attributes as given, raw)
 * after its digest algorithm, tail (unsigned attributes) after its
 * signature, which is NAME's of signed_bytes.  Its length, or -1.
 */
static int attrs_msg(const char *name, const unsigned char *mid, int mid_len,
		     const unsigned char *signed_bytes, int signed_len,
		     const unsigned char *tail, int tail_len, unsigned char **out)
{
	static const unsigned char v3 = 3;
	unsigned char skid[64], sig[1024];
	int skid_len = read_skid(name, skid), sig_len = key_sign(name, signed_bytes, signed_len, sig);
	struct der si = {};

	if (skid_len < 0 || sig_len < 0)
		return -1;
	tlv(&si, 0x02, &v3, 1);
	tlv(&si, 0x80, skid, skid_len);
	alg(&si, OID_SHA256);
	put(&si, mid, mid_len);
	alg(&si, OID_RSA);
	tlv(&si, 0x04, sig, sig_len);
	put(&si, tail, tail_len);
	wrap(&si, 0x30);
	return message(&si, NULL, 0, out);
}

/*
 * Attribute sets the kernel's parser refuses before any key is asked (the
 * offline verifier says the same, host: bpfsign verify): messageDigest
 * without contentType (A's oracle signature of that SET), an empty [0]
 * SET, an empty [2] SEQUENCE over the data.  And unsigned attributes [1]
 * naming another digest next to A's signature of the program: inert, the
 * load is A's, as A signed it.
 */
TEST_EXPLICIT(attack_round3_sig_attrs_malformed)
{
	unsigned char payload[PAYLOAD_MAX], md[32], other[32], mid[128], tail[128], set[128], *msg;
	static const unsigned char empty_set[] = { 0xa0, 0x00 }, empty_set_signed[] = { 0x31, 0x00 };
	static const unsigned char empty_seq[] = { 0xa2, 0x02, 0x30, 0x00 };
	struct der a = {}, v = {};
	char sha[80], a_sha[65];
	struct load l = {};
	int len = attacker_load(&l, payload), n, fd;

	if (!ASSERT_GE(len, 1, "the program") || !ASSERT_TRUE(cert_key_sha256("signing", a_sha), "A's sha256") ||
	    !control_load(&l, payload, len))
		goto out;
	SHA256(payload, len, md);
	/* messageDigest alone: no contentType */
	tlv(&a, 0x06, OID_MD, 9);
	tlv(&v, 0x04, md, 32);
	wrap(&v, 0x31);
	add(&a, &v);
	wrap(&a, 0x30);
	memcpy(set + 2, a.p, a.n);
	set[0] = 0x31;
	set[1] = a.n;
	memcpy(mid + 2, a.p, a.n);
	mid[0] = 0xa0;
	mid[1] = a.n;
	n = attrs_msg("signing", mid, a.n + 2, set, a.n + 2, NULL, 0, &msg);
	set_sig(&l, msg, n);
	/* pins pkcs7_sig_note_set_of_authattrs(): contentType and messageDigest required */
	expect_load(&l, EBADMSG, "signature verification failed (-74)", "messageDigest without contentType");
	n = attrs_msg("signing", empty_set, 2, empty_set_signed, 2, NULL, 0, &msg);
	set_sig(&l, msg, n);
	/* pins the decoder/pkcs7_sig_note_set_of_authattrs(): an empty SET */
	expect_load(&l, EBADMSG, "signature verification failed (-74)", "an empty [0] attribute SET");
	n = attrs_msg("signing", empty_seq, 4, payload, len, NULL, 0, &msg);
	set_sig(&l, msg, n);
	/* pins the decoder: an empty [2] SEQUENCE OF */
	expect_load(&l, EBADMSG, "signature verification failed (-74)", "an empty [2] attribute SEQUENCE");
	/* unsigned attributes: [1] { messageDigest of other bytes } */
	SHA256((const unsigned char *)"x", 1, other);
	free(a.p);
	a.p = NULL;
	a.n = 0;
	tlv(&a, 0x06, OID_MD, 9);
	tlv(&v, 0x04, other, 32);
	wrap(&v, 0x31);
	add(&a, &v);
	wrap(&a, 0x30);
	wrap(&a, 0xa1);
	memcpy(tail, a.p, a.n);
	n = attrs_msg("signing", NULL, 0, payload, len, tail, a.n, &msg);
	set_sig(&l, msg, n);
	fd = sys_prog_load(&l);
	if (ASSERT_OK(fd, "unsigned attributes next to A's signature of the program")) {
		ASSERT_STREQ(prog_fdinfo(fd, "sig_key_sha256", sha, sizeof(sha)), a_sha, "recorded as A");
		close(fd);
	}
out:
	free(a.p);
	free_load(&l);
}

/*
 * The round-2 oracle form ([0] attributes naming the attacker's program,
 * A's signature of the SET) through every keyring a caller can name: the
 * secondary keyring, a session keyring holding A's certificate, and with
 * A's ECDSA key (signing-ec) instead of RSA.  The refusal comes before the
 * keyring is searched: -EKEYREJECTED and the log line each time; A's plain
 * signature of the program through the same keyring loads (control).
 */
TEST_EXPLICIT(attack_round3_sig_attrs_keyrings)
{
	static const char *const names[] = { "signing", "signing", "signing", "signing-ec" };
	static const int keyrings[] = { BUILTIN, SECONDARY, KEY_SPEC_SESSION_KEYRING, BUILTIN };
	unsigned char payload[PAYLOAD_MAX], md[32], sig[1024], *msg, *der = NULL;
	struct der attrs = {}, sinfos = {};
	struct load l = {};
	int len = attacker_load(&l, payload), sig_len, n, i, der_len;

	if (!ASSERT_GE(len, 1, "the attacker's program"))
		goto out;
	der_len = cert_der("signing", &der);
	if (!ASSERT_GE(add_key("asymmetric", "bpfsign-r3-a", der, der_len, KEY_SPEC_SESSION_KEYRING), 1,
		       "A's certificate in the session keyring"))
		goto out;
	SHA256(payload, len, md);
	attrs = attrs_of(md);
	for (i = 0; i < 4; i++) {
		printf("  # key %s, keyring %d\n", names[i], keyrings[i]);
		l.keyring_id = keyrings[i];
		if (!control_load_by(&l, names[i], payload, len))
			goto out;
		sig_len = attrs_sign(names[i], &attrs, 0x31, sig);
		if (!ASSERT_TRUE(signer_info(&sinfos, names[i], ATTRS_SET, &attrs, sig, sig_len),
				 "A's oracle SignerInfo"))
			goto out;
		n = message(&sinfos, NULL, 0, &msg);
		set_sig(&l, msg, n);
		/* pins pkcs7_verify()'s refusal, before the keyring's keys */
		expect_load(&l, EKEYREJECTED, SIGNED_ATTRS_LOG, "A's oracle signature of the attribute SET");
	}
out:
	free(der);
	free(attrs.p);
	free_load(&l);
}

/*
 * ECDSA does not bind the digest algorithm: the kernel takes the
 * SignerInfo's digestAlgorithm and ignores the hash its signatureAlgorithm
 * names.  A's ECDSA signature of SHA-256(program) labelled
 * ecdsa-with-SHA384 (and ecdsa-with-SHA1) loads as A, who did sign those
 * bytes: inert for the property; bpfsign verify says the same (host).  A
 * label cannot move the signature to other bytes: the digest is computed by
 * the kernel with the digestAlgorithm, and a SHA-384 of the program signed
 * as such by A's SHA-256 signature is refused (-EKEYREJECTED).
 */
TEST_EXPLICIT(attack_round3_sig_ecdsa_label)
{
	static const unsigned char labels[][8] = {
		{ 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x04, 0x03, 0x03 },	/* ecdsa-with-SHA384 */
		{ 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x04, 0x01 },		/* ecdsa-with-SHA1 */
	};
	static const unsigned char OID_SHA384[] = { 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x02 };
	static const unsigned char v3 = 3;
	unsigned char payload[PAYLOAD_MAX], sig[1024], skid[64], *msg;
	char v[80], a_sha[65];
	struct load l = {};
	int len = attacker_load(&l, payload), sig_len, skid_len, n, fd, i;

	l.keyring_id = BUILTIN;
	if (!ASSERT_GE(len, 1, "the program") || !ASSERT_TRUE(cert_key_sha256("signing-ec", a_sha), "A-ec") ||
	    !control_load_by(&l, "signing-ec", payload, len))
		goto out;
	skid_len = read_skid("signing-ec", skid);
	sig_len = key_sign("signing-ec", payload, len, sig);
	for (i = 0; i < 3; i++) {
		struct der si = {}, t = {};

		tlv(&si, 0x02, &v3, 1);
		tlv(&si, 0x80, skid, skid_len);
		alg(&si, i < 2 ? OID_SHA256 : OID_SHA384);
		tlv(&t, 0x06, labels[i < 2 ? i : 0], i == 1 ? 7 : 8);
		wrap(&t, 0x30);
		add(&si, &t);
		tlv(&si, 0x04, sig, sig_len);
		wrap(&si, 0x30);
		n = message(&si, NULL, 0, &msg);
		set_sig(&l, msg, n);
		if (i == 2) {
			/* pins pkcs7_digest(): the kernel hashes with digestAlgorithm */
			expect_load(&l, EKEYREJECTED, "signature verification failed (-129)",
				    "A-ec's SHA-256 signature declared as over SHA-384");
			break;
		}
		fd = sys_prog_load(&l);
		if (ASSERT_OK(fd, "A-ec's signature of the program under another label")) {
			ASSERT_STREQ(prog_fdinfo(fd, "sig_key_sha256", v, sizeof(v)), a_sha, "recorded as A-ec");
			close(fd);
		} else {
			printf("#   log: %.300s\n", vlog);
		}
	}
out:
	free_load(&l);
}
