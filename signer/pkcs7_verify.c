// SPDX-License-Identifier: GPL-2.0
/*
 * What BPF_PROG_LOAD does with a signature after its size check, as Linux
 * 6.12 with the bpfsign series: verify_pkcs7_signature() with
 * VERIFYING_BPF_SIGNATURE, that is pkcs7_parse_message() (pkcs7_parse.c),
 * the detached data, pkcs7_verify(), is_key_on_revocation_list() and
 * pkcs7_validate_trust(), in this order and with their errnos.  The
 * digests, RSA and ECDSA operations are OpenSSL's; what is the kernel's is
 * the order of the checks, the key lookup and the errno of each failure.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/rsa.h>
#include <openssl/x509v3.h>

#include "internal.h"
#include "pkcs7.h"

enum { has_signing_time = 1 };	/* pkcs7_parse.c's bit */

/* --- the keyring ------------------------------------------------------- */

/* The keyring's certificates, as the kernel holds them: parsed by the
 * kernel's X.509 parser (x509_key_preparse() refuses what it refuses, so
 * such a certificate is no key at all).
 */
struct keyring {
	struct k_x509 *keys;
	int nr;
};

/*
 * find_asymmetric_key(keyring, id_0, id_1, NULL, false): id_0 (or else
 * id_1) must be a key's id[0] (serial || issuer) or id[1] (skid), exactly
 * ("ex:"); with both, the key found by id_0 must have id_1 as its skid, else
 * EKEYREJECTED.  ENOKEY if none; EINVAL for an empty id ("ex:" alone).
 */
static int find_key(const struct keyring *kr, const struct k_id *id_0,
		    const struct k_id *id_1, int *found)
{
	const struct k_id *want = id_0 && id_0->set ? id_0 : id_1;
	int i;

	if (!want || !want->set)
		return -EINVAL;
	if (!(want->a_len + want->b_len))
		return kit_err(-EINVAL, "signature: an empty key identifier (the kernel's key search: EINVAL)");
	for (i = 0; i < kr->nr; i++) {
		if (!kr->keys[i].der)
			continue;
		if (!k_id_same(&kr->keys[i].id, want) && !k_id_same(&kr->keys[i].skid, want))
			continue;
		if (want == id_0 && id_1 && id_1->set && !k_id_same(id_1, &kr->keys[i].skid))
			return -EKEYREJECTED;
		*found = i;
		return 0;
	}
	return -ENOKEY;
}

/* --- digests and public_key_verify_signature() ------------------------ */

/* pkcs7_digest(): the digest the signature value is over */
static int sinfo_digest(struct k_sinfo *s, const void *data, size_t len,
			unsigned char *md, unsigned int *md_len)
{
	const EVP_MD *type = k_hash_md(s->hash_algo);
	unsigned char set = 0x31;	/* ASN1_CONS_BIT | ASN1_SET */
	EVP_MD_CTX *ctx;
	int ok;

	if (!type)
		return kit_err(-ENOPKG, "signature: digest %s: not in the kernel's crypto API (ENOPKG)",
			       s->hash_algo);
	if (!EVP_Digest(data, len, md, md_len, type, NULL))
		return kit_err(-ENOMEM, "digest: %s", strerror(ENOMEM));
	if (!s->authattrs)
		return 0;
	if (!s->msgdigest)
		return kit_err(-EKEYREJECTED, "signature: no messageDigest attribute (EKEYREJECTED)");
	if (s->msgdigest_len != *md_len)
		return kit_err(-EBADMSG, "signature: the messageDigest attribute is %zu bytes, not %u (EBADMSG)",
			       s->msgdigest_len, *md_len);
	if (memcmp(md, s->msgdigest, *md_len))
		return kit_err(-EKEYREJECTED, "signature: digest mismatch: the messageDigest attribute is not the payload's digest (EKEYREJECTED)");
	/* then over the attributes, their [0] turned into a SET */
	ctx = EVP_MD_CTX_new();
	ok = ctx && EVP_DigestInit_ex(ctx, type, NULL) &&
	     EVP_DigestUpdate(ctx, &set, 1) &&
	     EVP_DigestUpdate(ctx, s->authattrs, s->authattrs_len) &&
	     EVP_DigestFinal_ex(ctx, md, md_len);
	EVP_MD_CTX_free(ctx);
	return ok ? 0 : kit_err(-ENOMEM, "digest: %s", strerror(ENOMEM));
}

/* --- pkcs7_verify() and pkcs7_validate_trust() ---------------------------- */

struct verifier {
	struct k_msg *m;
	unsigned char (*md)[EVP_MAX_MD_SIZE];	/* one per SignerInfo */
	unsigned int *md_len;
	bool non_der;			/* a verified ECDSA value is not DER */
};

/* public_key_verify_signature() of a SignerInfo's signature: its
 * pkcs7_parser.c encoding, the digest sinfo_digest() made
 */
static int sinfo_verify(struct verifier *v, int i, const struct k_pub *pub)
{
	struct k_sinfo *s = &v->m->sinfos[i];
	struct k_sig sig = {
		.hash_algo = s->hash_algo, .pkey_algo = s->pkey_algo,
		.s = s->sig, .s_size = s->sig_len, .digest_size = v->md_len[i],
	};
	int err;

	sig.encoding = !strcmp(s->pkey_algo, "rsa") ? "pkcs1" :
		       !strcmp(s->pkey_algo, "ecdsa") ? "x962" : "raw";
	memcpy(sig.digest, v->md[i], v->md_len[i] < sizeof(sig.digest) ? v->md_len[i] : sizeof(sig.digest));
	err = k_public_key_verify(pub, &sig);
	if (!err && sig.non_der)
		v->non_der = true;
	return err;
}


/* pkcs7_verify_sig_chain(): link each certificate to its issuer in the
 * message, by the AKID's issuer+serial (and then its keyIdentifier must be
 * the issuer's SKID) or else its keyIdentifier alone
 */
static int verify_chain(struct verifier *v, int x)
{
	struct k_msg *m = v->m;
	int p, err;

	for (p = 0; p < m->nr_certs; p++)
		m->certs[p].seen = false;
	for (;;) {
		struct k_cert *c = &m->certs[x];
		struct k_x509 *cx = &c->x;

		c->seen = true;
		if (cx->self_signed) {
			if (!cx->unsupported_sig)
				c->signer = x;
			return 0;
		}
		if (cx->auth_ids[0].set) {
			for (p = 0; p < m->nr_certs; p++)
				if (k_id_same(&m->certs[p].x.id, &cx->auth_ids[0]))
					break;
			if (p < m->nr_certs && cx->auth_ids[1].set &&
			    !k_id_same(&m->certs[p].x.skid, &cx->auth_ids[1]))
				return kit_err(-EKEYREJECTED, "signature: embedded certificate %d: its AKID's keyIdentifier is not the SKID of the issuer its issuer+serial names (the kernel: 'X.509 chain contains auth-skid nonmatch', EKEYREJECTED)",
					       x + 1);
		} else if (cx->auth_ids[1].set) {
			for (p = 0; p < m->nr_certs; p++)
				if (k_id_same(&m->certs[p].x.skid, &cx->auth_ids[1]))
					break;
		} else {
			p = m->nr_certs;
		}
		if (p == m->nr_certs)
			return 0;	/* the top of the chain in the message */
		if (m->certs[p].seen)
			return 0;	/* a loop */
		err = k_public_key_verify(&m->certs[p].x.pub, &cx->sig);
		if (err)
			return kit_err(err, "signature: embedded certificate %d does not verify with its issuer's key (%s)",
				       x + 1, bpfsign_errno_name(err));
		c->signer = p;
		if (x == p)
			return 0;
		x = p;
	}
}

/* pkcs7_verify_one() */
static int verify_one(struct verifier *v, int i, const void *data, size_t len)
{
	struct k_sinfo *s = &v->m->sinfos[i];
	struct k_cert *c;
	int x, err;

	if (!data)	/* the form only: is the digest one the kernel has? */
		return k_hash_md(s->hash_algo) ? 0 :
		       kit_err(-ENOPKG, "signature: digest %s: not in the kernel's crypto API (ENOPKG)",
			       s->hash_algo);
	err = sinfo_digest(s, data, len, v->md[i], &v->md_len[i]);
	if (err)
		return err;
	for (x = 0; x < v->m->nr_certs; x++)
		if (k_id_same(&v->m->certs[x].x.id, &s->auth_id))
			break;
	if (x == v->m->nr_certs)
		return 0;	/* the signer is not in the message */
	s->signer = x;
	c = &v->m->certs[x];
	if ((s->aa_set & (1ul << has_signing_time)) &&
	    (s->signing_time < c->x.valid_from || s->signing_time > c->x.valid_to))
		return kit_err(-EKEYREJECTED, "signature: signingTime outside the embedded signer certificate's validity (EKEYREJECTED)");
	err = sinfo_verify(v, i, &c->x.pub);
	if (err)
		return kit_err(err, "signature: does not verify with the embedded signer certificate (%s)",
			       bpfsign_errno_name(err));
	return verify_chain(v, x);
}

/* pkcs7_validate_trust_one() against the keys of kr */
static int trust_one(struct verifier *v, int i, const struct keyring *kr, int *matched,
		     int *data_key)
{
	struct k_sinfo *s = &v->m->sinfos[i];
	struct k_cert *last = NULL, *c = NULL;
	int x, k, err, top = -1;
	bool data = false;

	if (s->unsupported_crypto)
		return -ENOPKG;
	for (x = s->signer; x >= 0; x = c->signer) {
		c = &v->m->certs[x];
		if (c->seen) {
			if (c->verified)
				return 0;
			return -ENOKEY;
		}
		c->seen = true;
		err = find_key(kr, &c->x.id, &c->x.skid, &k);
		if (!err) {
			/* the trusted copy must verify what this one signs */
			top = x;
			data = !last;
			err = last ? k_public_key_verify(&kr->keys[k].pub, &last->x.sig) :
				     sinfo_verify(v, i, &kr->keys[k].pub);
			goto matched;
		}
		if (c->signer == x)
			return -ENOKEY;	/* an unknown self-signed root */
		last = c;
		if (c->signer < 0)
			break;
	}
	/* the root's issuer among the keys, by its AKID */
	if (last && (last->x.auth_ids[0].set || last->x.auth_ids[1].set)) {
		err = find_key(kr, &last->x.auth_ids[0], &last->x.auth_ids[1], &k);
		if (!err) {
			top = (int)(last - v->m->certs);
			err = k_public_key_verify(&kr->keys[k].pub, &last->x.sig);
			goto matched;
		}
		if (err != -ENOKEY)
			return err;
	}
	/* as a last resort, a trusted key that is the signer itself */
	err = find_key(kr, &s->auth_id, NULL, &k);
	if (err)
		return err;
	data = true;
	err = sinfo_verify(v, i, &kr->keys[k].pub);
matched:
	if (err)
		return -EKEYREJECTED;
	if (top >= 0) {
		v->m->certs[top].verified = true;
		for (x = s->signer; x >= 0 && x != top; x = v->m->certs[x].signer)
			v->m->certs[x].verified = true;
	}
	*matched = k;
	/* as pkcs7_get_trusted_key(): the first key that signed the data
	 * itself; one that only issued the signer's certificate is none
	 */
	if (data && *data_key < 0)
		*data_key = k;
	return 0;
}

static void keyring_free(struct keyring *kr)
{
	int i;

	for (i = 0; i < kr->nr; i++)
		k_x509_free(&kr->keys[i]);
	free(kr->keys);
}

/* the certificates as keys: each through the kernel's X.509 parser */
static int keyring_load(struct keyring *kr, STACK_OF(X509) *certs)
{
	unsigned char *der;
	int i, n;

	kr->nr = sk_X509_num(certs);
	kr->keys = calloc(kr->nr ? kr->nr : 1, sizeof(*kr->keys));
	if (!kr->keys)
		return kit_err(-ENOMEM, "keyring: %s", strerror(ENOMEM));
	for (i = 0; i < kr->nr; i++) {
		der = NULL;
		n = i2d_X509(sk_X509_value(certs, i), &der);
		/* a certificate the kernel would not load is no key */
		if (n <= 0 || k_x509_parse(der, (size_t)n, &kr->keys[i]))
			k_x509_free(&kr->keys[i]);
		OPENSSL_free(der);
	}
	return 0;
}

/* pkcs7_validate_trust(): 0 if one SignerInfo chains to a key of certs */
static int validate_trust(struct verifier *v, STACK_OF(X509) *certs, int *matched,
			  int *data_key)
{
	struct keyring kr;
	int i, ret = -ENOKEY, err;

	err = keyring_load(&kr, certs);
	if (err)
		return err;
	for (i = 0; i < v->m->nr_certs; i++)
		v->m->certs[i].seen = false;
	for (i = 0; i < v->m->nr_sinfos && !err; i++) {
		err = trust_one(v, i, &kr, matched, data_key);
		if (err == -ENOKEY || err == -ENOPKG) {
			if (ret == -ENOKEY)
				ret = err;
			err = 0;
		} else if (!err) {
			ret = 0;
		}
	}
	keyring_free(&kr);
	return err ? err : ret;
}

int k_verify(const unsigned char *sig, size_t sig_len, const void *data, size_t len,
	     STACK_OF(X509) *keyring, STACK_OF(X509) *revoked, struct k_result *res)
{
	struct verifier *vp;
	struct k_msg *m;
	int i, err, ret = -ENOPKG, k = -1, dk = -1;

	res->signer_cert = -1;
	res->data_signer_cert = -1;
	res->non_der_ecdsa = false;
	if (!sig_len || sig_len > K_MAX_SIG_SIZE)
		return kit_err(-EINVAL, "signature: %zu bytes: BPF_PROG_LOAD takes 1 to %d (invalid signature_size, EINVAL)",
			       sig_len, K_MAX_SIG_SIZE);
	/* signed_fd_array_len(): before the signature is read */
	if (data && len > K_MAX_SIGNED_LEN)
		return kit_err(-E2BIG, "payload: %zu bytes: the kernel signs at most %u bytes of insns || metadata (the kernel: 'signed instructions and metadata exceed', E2BIG)",
			       len, K_MAX_SIGNED_LEN);
	m = calloc(1, sizeof(*m));
	vp = calloc(1, sizeof(*vp));
	if (!m || !vp) {
		free(m);
		free(vp);
		return kit_err(-ENOMEM, "verify: %s", strerror(ENOMEM));
	}
	vp->m = m;
	err = k_parse(sig, sig_len, m);
	if (err)
		goto out;
	vp->md = calloc(m->nr_sinfos ? m->nr_sinfos : 1, sizeof(*vp->md));
	vp->md_len = calloc(m->nr_sinfos ? m->nr_sinfos : 1, sizeof(*vp->md_len));
	if (!vp->md || !vp->md_len) {
		err = kit_err(-ENOMEM, "verify: %s", strerror(ENOMEM));
		goto out;
	}
	if (m->has_data) {
		err = kit_err(-EBADMSG, "signature: the payload is embedded, not detached (the kernel: 'PKCS#7 signature with non-detached data', EBADMSG)");
		goto out;
	}
	/* pkcs7_verify(pkcs7, VERIFYING_BPF_SIGNATURE): with signed attributes
	 * the key signs only the attribute set, so any signature of its owner
	 * over bytes that parse as one would vouch for any program.
	 */
	if (m->have_authattrs) {
		/* bpf_prog_verify_signature(): pkcs7_get_content_digest() of the
		 * first SignerInfo comes before pkcs7_verify(), so a messageDigest
		 * of the wrong size is still EBADMSG (ENOPKG is left to go on)
		 */
		if (data && m->nr_sinfos) {
			err = sinfo_digest(&m->sinfos[0], data, len, vp->md[0], &vp->md_len[0]);
			if (err && err != -ENOPKG)
				goto out;
		}
		err = kit_err(-EKEYREJECTED, "signature: has signed attributes: BPF signatures sign the data directly, sign with -noattr (the kernel: 'signature has signed attributes', EKEYREJECTED)");
		goto out;
	}
	if (m->data_type != K_OID_data) {
		err = kit_err(-EKEYREJECTED, "signature: not pkcs7-data (the kernel: 'Invalid BPF sig', EKEYREJECTED)");
		goto out;
	}
	for (i = 0; i < m->nr_sinfos; i++) {
		err = verify_one(vp, i, data, len);
		if (err == -ENOPKG) {
			m->sinfos[i].unsupported_crypto = true;
			continue;
		}
		if (err)
			goto out;
		ret = 0;
	}
	err = ret;
	if (err) {
		kit_err(err, "signature: no SignerInfo uses a digest the kernel has (ENOPKG): %s",
			kit_last_error());
		goto out;
	}
	if (revoked && sk_X509_num(revoked) && !validate_trust(vp, revoked, &k, &dk)) {
		err = kit_err(-EKEYREJECTED, "signature: the signer's key is on the revocation list (EKEYREJECTED)");
		goto out;
	}
	if (!keyring)
		goto out;
	err = validate_trust(vp, keyring, &res->signer_cert, &res->data_signer_cert);
	if (err == -ENOKEY)
		kit_err(err, "signature: unknown signer: no key of the keyring is the signer or its issuer (ENOKEY)");
	else if (err == -EKEYREJECTED)
		kit_err(err, "signature: digest mismatch: the signature does not verify with the keyring's key (EKEYREJECTED)");
	else if (err == -ENOPKG)
		kit_err(err, "signature: the SignerInfo's digest is not in the kernel's crypto API (ENOPKG)");
	else if (err == -EINVAL && !strstr(kit_last_error(), "key identifier"))
		kit_err(err, "signature: a key of the keyring cannot take the signature (EINVAL)");
out:
	res->non_der_ecdsa = vp->non_der;
	free(vp->md);
	free(vp->md_len);
	k_msg_free(m);
	free(m);
	free(vp);
	return err;
}
