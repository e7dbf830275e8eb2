// SPDX-License-Identifier: GPL-2.0
/*
 * Regression tests of the hostile review of issue 40 (the key that verified
 * a program, "key allow").  Each was a proof that FAILED on the code that
 * named a key by its subject key identifier; the kernel now records the
 * SHA-256 of the key's public key (sig_key_sha256), which a certificate
 * cannot choose, and "key allow" takes only that digest.
 *
 * Attacker: team B, whose key (signing-ec, in .builtin_trusted_keys) a site
 * shares a keyring with team A (signing), and root on the host (uid 0 may
 * add to .secondary_trusted_keys any certificate a builtin or secondary key
 * signed; no CA bit is asked for).  The site trusts the builtin and secondary
 * keyrings (the audit's default) and admits only team A: "key allow
 * sha256:A".
 *
 * Team B mints, with its own key, a certificate for a fresh key that carries
 * team A's subjectKeyIdentifier, enrols it in .secondary_trusted_keys and
 * signs with the fresh key against keyring 1.  Keys directly in the secondary
 * keyring are searched before the builtin keyring it links, so the trust
 * check finds the clone and verifies with it: the kernel must record the
 * clone's digest, and keyring-allowlist must refuse it (F1).  A caller's
 * self-signed copy of A's skid in its session keyring (F2) likewise.  The
 * live audit must report the kernel's own preloaded programs as the kernel's
 * (F3).  The kernel's record (attack_sig_key_secondary_skid_clone) runs in
 * every "all"; the tests that attach keyring-allowlist or audit the whole
 * host are explicit and run in the guest-policies boot (scripts/run-tests.sh),
 * where an attached policy is expected, the audit first.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <keyutils.h>
#include <openssl/cms.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509v3.h>
#include <bpf/bpf.h>

#include "fixture.h"
#include "runner.h"
#include "util.h"
#include "sign.h"
#include "signed.h"
#include "loader.h"
#include "policy_fixture.h"
#include "sig_key_fixture.h"

#define CLONE_POLICY	"/tmp/attack-clone.policy"
#define CLONE		"attack-clone-a"

/*
 * Team B's certificate for a fresh P-256 key, issued and signed by
 * /tests/keys/signing-ec (team B) or, with self, self-signed, with the
 * subjectKeyIdentifier of /tests/keys/signing (team A) or, when given,
 * skid: /tests/keys/CLONE.{crt,key}.  Its authorityKeyIdentifier is how the
 * secondary keyring finds the issuer: team B's key.
 */
static bool mint_clone(bool self, const ASN1_OCTET_STRING *skid)
{
	return mint_cert(&(struct mint){
		.name = CLONE, .cn = "team B posing as team A", .serial = 40400,
		.issuer = self ? NULL : "signing-ec",
		.skid_of = skid ? NULL : "signing", .skid = skid, .akid = true });
}

/* The clone, enrolled in .secondary_trusted_keys: its serial, or -1 */
static key_serial_t enrol_clone(long *secondary)
{
	key_serial_t k;

	*secondary = secondary_keyring();
	if (!ASSERT_GE(*secondary, 1, ".secondary_trusted_keys in /proc/keys"))
		return -1;
	if (!ASSERT_TRUE(mint_clone(false, NULL), "team B mints a cert with team A's skid"))
		return -1;
	k = cert_enrol(CLONE, "bpfsign-attack-clone", *secondary);
	if (!ASSERT_GE(k, 1, "root adds it to .secondary_trusted_keys (signed by a builtin key)"))
		return -1;
	return k;
}

/*
 * F1, the kernel: team B's program, signed by the clone of team A's skid in
 * .secondary_trusted_keys, is recorded with the clone's public key digest,
 * not team A's; the skid (what the clone's certificate says) stays A's.
 */
TEST(attack_sig_key_secondary_skid_clone)
{
	char a_sha[65], clone_sha[65], v[160], kr[32];
	long secondary;
	key_serial_t clone;
	int fd;

	if (!ASSERT_TRUE(cert_key_sha256("signing", a_sha), "signing.crt digest"))
		return;
	clone = enrol_clone(&secondary);
	if (clone < 0)
		return;
	if (!ASSERT_TRUE(cert_key_sha256(CLONE, clone_sha), "the clone's digest"))
		goto out;
	fd = signed_load(CLONE, SECONDARY);
	if (ASSERT_OK(fd, "the clone verifies against the secondary keyring")) {
		ASSERT_STREQ(prog_fdinfo(fd, "sig_keyring", kr, sizeof(kr)), "secondary",
			     "fdinfo sig_keyring");
		/* the identity is the key that verified, whatever its cert says */
		ASSERT_STREQ(prog_fdinfo(fd, "sig_key_sha256", v, sizeof(v)), clone_sha,
			     "fdinfo sig_key_sha256: the clone's own key");
		ASSERT_TRUE(strcmp(v, a_sha), "fdinfo sig_key_sha256 of team B's program is not team A's");
		ASSERT_EQ(prog_fdinfo_num(fd, "sig_key_builtin"), 0, "the clone is not a builtin key");
		close(fd);
	}
out:
	keyctl_unlink(clone, secondary);
}

/*
 * F1, the policy: "keyring allow builtin / keyring allow secondary / key
 * allow sha256:A" (safe beside the secondary keyring now): team B's own key
 * is refused (the key rule is live), its clone of A's skid must be too.
 */
TEST_EXPLICIT(attack_key_allow_secondary_skid_clone)
{
	char a_sha[65], text[512];
	long secondary;
	key_serial_t clone;
	int fd;

	if (!ASSERT_TRUE(cert_key_sha256("signing", a_sha), "signing.crt digest"))
		return;
	policy_unload("keyring-allowlist");
	clone = enrol_clone(&secondary);
	if (clone < 0)
		return;
	snprintf(text, sizeof(text),
		 "keyring allow builtin\nkeyring allow secondary\nkey allow sha256:%s\n", a_sha);
	/* load keyring-allowlist: builtin, secondary, key allow A */
	if (!policy_load_allowlist(CLONE_POLICY, text))
		goto out;

	/* control: team A passes, team B's own key is refused by the key rule */
	fd = signed_load("signing", BUILTIN);
	ASSERT_OK(fd, "team A's program, keyring builtin");
	if (fd >= 0)
		close(fd);
	fd = signed_load("signing-ec", BUILTIN);
	ASSERT_ERR(fd, EPERM, "team B's own key: refused by key allow");
	if (fd >= 0)
		close(fd);

	/* the attack: team B's clone of A's skid, refused by the key rule */
	fd = signed_load(CLONE, SECONDARY);
	ASSERT_ERR(fd, EPERM, "team B's program signed by a clone of A's skid");
	if (fd >= 0) {
		if (policy_cli("audit", "--policy", CLONE_POLICY, NULL) >= 0)
			printf("  audit of the host: %.*s\n", 1500, policy_out);
		close(fd);
	}
	policy_unload("keyring-allowlist");
out:
	keyctl_unlink(clone, secondary);
}

/*
 * F2.  Attacker: any CAP_BPF caller (or BPF-token holder) with its own
 * session keyring, no root, no trusted key.  A site that allows caller
 * keyrings ("keyring allow user", bpf_sig_enforce off) and restricts by "key
 * allow sha256:A" must refuse a self-signed certificate that merely copies
 * A's skid: its key, and so its digest, is the caller's.
 */
TEST_EXPLICIT(attack_key_allow_user_keyring_skid_forgery)
{
	char a_sha[65], text[512];
	key_serial_t forged;
	int fd;

	if (!ASSERT_TRUE(cert_key_sha256("signing", a_sha), "signing.crt digest"))
		return;
	policy_unload("keyring-allowlist");
	if (!ASSERT_TRUE(mint_clone(true, NULL), "a self-signed cert with A's skid"))
		return;
	forged = cert_enrol(CLONE, "bpfsign-attack-forged", KEY_SPEC_SESSION_KEYRING);
	if (!ASSERT_GE(forged, 1, "enrol it in the caller's session keyring"))
		return;
	snprintf(text, sizeof(text),
		 "keyring allow builtin\nkeyring allow user\nkey allow sha256:%s\n", a_sha);
	/* load keyring-allowlist: builtin, user, key allow A */
	if (!policy_load_allowlist(CLONE_POLICY, text))
		goto out;
	/* control: the key rule is live */
	fd = signed_load("signing-ec", BUILTIN);
	ASSERT_ERR(fd, EPERM, "team B's builtin key: refused by key allow");
	if (fd >= 0)
		close(fd);
	fd = signed_load(CLONE, KEY_SPEC_SESSION_KEYRING);
	ASSERT_ERR(fd, EPERM, "a forged cert with A's skid in the caller's keyring");
	if (fd >= 0)
		close(fd);
	policy_unload("keyring-allowlist");
out:
	keyctl_unlink(forged, KEY_SPEC_SESSION_KEYRING);
}

/*
 * Held by the review: the kernel keeps no prefix of a skid longer than 64
 * bytes.  A caller keyring key whose skid is a 64-byte X followed by one
 * more byte is not recorded as X (truncation); its identity is its own
 * digest, and "key allow X" is not a rule at all any more.
 */
TEST_EXPLICIT(attack_key_allow_long_skid_prefix)
{
	unsigned char inner[65], *der = NULL, *p;
	char x_hex[160], v[160], text[512], sha[65];
	ASN1_OCTET_STRING *os = ASN1_OCTET_STRING_new(), *wrapped = NULL;
	key_serial_t forged = -1;
	int fd, len, i;

	for (i = 0; i < 65; i++)
		inner[i] = 0xa0 + (i % 16);
	for (i = 0; i < 64; i++)
		sprintf(x_hex + 2 * i, "%02x", inner[i]);
	/* the extension's value is the DER of an OCTET STRING holding the id */
	if (!ASSERT_TRUE(os && ASN1_OCTET_STRING_set(os, inner, 65), "a 65-byte skid"))
		goto out;
	len = i2d_ASN1_OCTET_STRING(os, NULL);
	der = OPENSSL_malloc(len);
	p = der;
	i2d_ASN1_OCTET_STRING(os, &p);
	wrapped = ASN1_OCTET_STRING_new();
	ASN1_OCTET_STRING_set(wrapped, der, len);
	OPENSSL_free(der);
	der = NULL;
	policy_unload("keyring-allowlist");
	if (!ASSERT_TRUE(mint_clone(true, wrapped), "a self-signed cert with a 65-byte skid"))
		goto out;
	forged = cert_enrol(CLONE, "bpfsign-attack-long", KEY_SPEC_SESSION_KEYRING);
	if (!ASSERT_GE(forged, 1, "enrol it in the caller's session keyring"))
		goto out;
	snprintf(text, sizeof(text), "keyring allow builtin\nkeyring allow user\nkey allow %s\n", x_hex);
	if (!ASSERT_OK(policy_write_file(CLONE_POLICY, text), "write the policy"))
		goto out;

	/* what the kernel records for it */
	fd = signed_load(CLONE, KEY_SPEC_SESSION_KEYRING);
	if (ASSERT_OK(fd, "the long-skid key verifies against the caller keyring")) {
		ASSERT_STREQ(prog_fdinfo(fd, "sig_key", v, sizeof(v)), "none", "no prefix of a long skid recorded");
		if (ASSERT_TRUE(cert_key_sha256(CLONE, sha), "the key's digest"))
			ASSERT_STREQ(prog_fdinfo(fd, "sig_key_sha256", v, sizeof(v)), sha,
				     "its identity: its own digest");
		close(fd);
	}
	/* a skid is no key rule: load refuses the file, nothing is attached */
	ASSERT_TRUE(policy_cli("load", "--policy", CLONE_POLICY, "keyring-allowlist", NULL) != 0,
		    "load keyring-allowlist: key allow X (a skid) is refused");
	ASSERT_HAS(policy_out, "not 'sha256:HEX'", "load says why");
	ASSERT_TRUE(!policy_pinned("keyring-allowlist"), "nothing attached");
out:
	if (forged > 0)
		keyctl_unlink(forged, KEY_SPEC_SESSION_KEYRING);
	ASN1_OCTET_STRING_free(os);
	ASN1_OCTET_STRING_free(wrapped);
}

/*
 * Held by the review: a signature with two SignerInfos, team B's first and
 * team A's second, both keys of the builtin keyring.  Both verify; the
 * kernel records the first accepted one, B, and "key allow sha256:A"
 * therefore refuses the program (fail closed): a second signer cannot lend
 * its key.
 */
static int two_signers(const unsigned char *data, size_t len, unsigned char **sig)
{
	unsigned int flags = CMS_BINARY | CMS_DETACHED | CMS_NOCERTS | CMS_PARTIAL |
			     CMS_NOSMIMECAP | CMS_USE_KEYID | CMS_NOATTR;
	const char *names[] = { "signing-ec", "signing" };
	CMS_ContentInfo *cms = CMS_sign(NULL, NULL, NULL, NULL, flags);
	BIO *in = BIO_new_mem_buf(data, len);
	int i, ret = -1;

	for (i = 0; cms && i < 2; i++) {
		EVP_PKEY *key = key_read(names[i]);
		X509 *cert = cert_read(names[i]);

		if (!cert || !key || !CMS_add1_signer(cms, cert, key, EVP_sha256(), flags))
			i = 3;
		X509_free(cert);
		EVP_PKEY_free(key);
	}
	if (cms && in && i == 2 && CMS_final(cms, in, NULL, flags) == 1) {
		*sig = NULL;
		ret = i2d_CMS_ContentInfo(cms, sig);
	}
	CMS_ContentInfo_free(cms);
	BIO_free(in);
	return ret;
}

TEST_EXPLICIT(attack_sig_key_two_signer_infos)
{
	unsigned char payload[LOAD_PAYLOAD_MAX];
	char a_skid[160], b_skid[160], v[160], text[512], a_sha[65], b_sha[65];
	struct load l;
	int fd;

	if (!ASSERT_TRUE(cert_skid("signing", a_skid, false) && cert_skid("signing-ec", b_skid, false),
			 "the two certificates"))
		return;
	if (!ASSERT_TRUE(cert_key_sha256("signing", a_sha) && cert_key_sha256("signing-ec", b_sha),
			 "the two keys' digests"))
		return;
	if (!make_load(&l, 1, "signing", BUILTIN))
		return;
	drop_signature(&l);
	l.sig_len = two_signers(payload, load_payload(&l, 0, payload), &l.sig);
	if (!ASSERT_GE(l.sig_len, 1, "a CMS with two SignerInfos, B then A"))
		goto out;
	fd = sys_prog_load(&l);
	if (ASSERT_OK(fd, "both signers verify")) {
		ASSERT_STREQ(prog_fdinfo(fd, "sig_key", v, sizeof(v)), b_skid,
			     "the first accepted SignerInfo's key (B) is recorded");
		ASSERT_STREQ(prog_fdinfo(fd, "sig_key_sha256", v, sizeof(v)), b_sha,
			     "and its digest");
		close(fd);
	}
	policy_unload("keyring-allowlist");
	snprintf(text, sizeof(text), "keyring allow builtin\nkey allow sha256:%s\n", a_sha);
	/* load keyring-allowlist: builtin, key allow sha256:A */
	if (!policy_load_allowlist(CLONE_POLICY, text))
		goto out;
	fd = sys_prog_load(&l);
	ASSERT_ERR(fd < 0 ? -1 : fd, EPERM, "A's second SignerInfo does not lend A's id");
	if (fd >= 0)
		close(fd);
	policy_unload("keyring-allowlist");
out:
	free_load(&l);
}

/* Whether a JSON line of out about a program named name says "want" */
static bool audit_prog_has(const char *name, const char *want)
{
	char needle[64];
	const char *p = policy_out, *e;

	snprintf(needle, sizeof(needle), "\"name\":\"%s\"", name);
	while ((p = strstr(p, needle))) {
		e = strchr(p, '\n');
		if (!e)
			e = p + strlen(p);
		if (memmem(p, e - p, want, strlen(want)))
			return true;
		p = e;
	}
	return false;
}

/*
 * F3: the kernel's own preloaded programs (CONFIG_BPF_PRELOAD's iterators,
 * loaded when bpffs was first mounted) are what keyring-allowlist admits
 * as kernel_own_load(); the live audit must say so rather than flag every
 * host that has them.  The first test of its boot: the host holds only
 * those, so the audit of an all-signed host exits 0.
 */
TEST_EXPLICIT(attack_audit_kernel_preload)
{
	int rc = policy_cli("audit", NULL);

	ASSERT_EQ(rc, 0, "audit of a host with only the kernel's own programs: exit 0");
	ASSERT_TRUE(audit_prog_has("dump_bpf_prog", "\"kernel_load\":true"),
		    "audit: the preload iterator is the kernel's own load");
	ASSERT_TRUE(audit_prog_has("dump_bpf_prog", "\"admitted\":true,\"reason\":\"kernel\""),
		    "audit: admitted, reason kernel");
	ASSERT_TRUE(audit_prog_has("dump_bpf_map", "\"admitted\":true,\"reason\":\"kernel\""),
		    "audit: both iterators");
	if (rc)
		printf("  audit: %.*s\n", 1500, policy_out);
}

/*
 * R-A review (second hostile review of issue 40): a signature that carries
 * a certificate chain.  The kernel records pkcs7_get_trusted_key(), which
 * for a chain is the key of the first certificate of the chain found in the
 * keyring, i.e. the ISSUER that signed the leaf's certificate, not the leaf
 * key that signed the program.
 *
 * Attacker: the holder of any key that team A's key ever certified (an
 * operator key A signed for enrolment in .secondary_trusted_keys, a
 * sub-key for another purpose): no access to A's private key, no root
 * needed, the certificate need not be enrolled in any keyring.  The leaf
 * signs the program and puts its own certificate into the CMS; against
 * the builtin keyring the trust check finds A as the leaf's issuer and the
 * kernel says sig_key_sha256 = A, sig_key_builtin = 1: team A "signed" it.
 */
#define LEAF	"attack-leaf-of-a"

/*
 * Replace x's signature by team A's bpfsign-style signature of its TBS: a
 * detached CMS, no signed attributes (bpfsign sign PAYLOAD, sign-file), made
 * by cms_sign("signing") over the TBSCertificate DER as if it were a
 * payload.  RSA PKCS#1 v1.5 over SHA-256(payload) is the X.509 signature
 * sha256WithRSAEncryption over that TBS, so the result is a certificate
 * issued by A; X509_verify() with A's public key checks it.
 */
static bool oracle_signature(X509 *x)
{
	const ASN1_BIT_STRING *psig;
	const X509_ALGOR *palg;
	ASN1_BIT_STRING *bits;
	ASN1_OCTET_STRING *sv = NULL;
	X509 *a = cert_read("signing");
	unsigned char *tbs = NULL;
	int tbs_len;
	bool ok = false;

	tbs_len = i2d_re_X509_tbs(x, &tbs);
	if (!a || tbs_len <= 0)
		goto out;
	sv = cms_sign_value("signing", tbs, tbs_len);
	if (!sv)
		goto out;
	X509_get0_signature(&psig, &palg, x);
	bits = (ASN1_BIT_STRING *)psig;
	if (!ASN1_BIT_STRING_set(bits, (unsigned char *)ASN1_STRING_get0_data(sv), ASN1_STRING_length(sv)))
		goto out;
	bits->flags &= ~(ASN1_STRING_FLAG_BITS_LEFT | 0x07);
	bits->flags |= ASN1_STRING_FLAG_BITS_LEFT;
	ok = X509_verify(x, X509_get0_pubkey(a)) == 1;
out:
	ASN1_OCTET_STRING_free(sv);
	OPENSSL_free(tbs);
	X509_free(a);
	return ok;
}

/*
 * A fresh P-256 key certified by /tests/keys/ISSUER: /tests/keys/LEAF.{crt,key}.
 * With oracle, ISSUER only fixes the algorithm (an RSA key) and the
 * signature is team A's signature of the TBS as a payload: the oracle
 * attacker never holds A's key and signs first with team.key, any RSA key.
 */
static bool mint_leaf_as(const char *issuer_name, bool oracle)
{
	return mint_cert(&(struct mint){
		.name = LEAF, .cn = "an operator key team A certified", .serial = 40401,
		.issuer = issuer_name, .signer = oracle ? "team" : NULL, .akid = true,
		.resign = oracle ? oracle_signature : NULL });
}

static bool mint_leaf(const char *issuer_name)
{
	return mint_leaf_as(issuer_name, false);
}

/* The fixture load l, re-signed by NAME with its certificate in the CMS */
static bool cert_load(struct load *l, const char *name)
{
	unsigned char payload[LOAD_PAYLOAD_MAX];

	if (!make_load(l, 1, "signing", BUILTIN))
		return false;
	drop_signature(l);
	l->sig_len = cms_sign_with_cert(name, payload, load_payload(l, 0, payload), &l->sig);
	return ASSERT_GE(l->sig_len, 1, "the key signs insns || metadata, its cert inside");
}

/*
 * Load l, chain-signed by who: refused is held (-1); else fdinfo's
 * sig_key_sha256 (into v, 160 bytes) must not be posed_sha, the key the
 * attacker poses as, but no key at all, and the fd is returned.
 */
static int load_expect_no_key(struct load *l, const char *who, const char *posed_sha, char *v,
			      const char *not_posed, const char *none)
{
	int fd = sys_prog_load(l);

	if (fd < 0) {
		printf("  # %s's load against builtin was refused (errno %d): held\n", who, errno);
		return -1;
	}
	prog_fdinfo(fd, "sig_key_sha256", v, 160);
	ASSERT_TRUE(strcmp(v, posed_sha), not_posed);
	ASSERT_STREQ(v, "none", none);
	return fd;
}

/* The fixture load l, re-signed by a fresh leaf key team A certified */
static bool leaf_load(struct load *l)
{
	if (!ASSERT_TRUE(mint_leaf("signing"), "team A's key certifies a fresh leaf key"))
		return false;
	return cert_load(l, LEAF);
}

/*
 * The kernel: fdinfo must not name team A's key for a program A's private
 * key never signed.  The kernel records no key for a signer trusted through
 * its issuer (the kit fails closed; the leaf is in no keyring).
 */
TEST(attack_sig_key_chain_names_issuer)
{
	char a_sha[65], leaf_sha[65], v[160];
	struct load l = {};
	int fd;

	if (!ASSERT_TRUE(cert_key_sha256("signing", a_sha), "signing.crt digest"))
		return;
	if (!leaf_load(&l))
		goto out;
	if (!ASSERT_TRUE(cert_key_sha256(LEAF, leaf_sha), "the leaf's digest"))
		goto out;
	/* pkcs7_get_trusted_key(): only a trusted key that signed the data is recorded */
	fd = load_expect_no_key(&l, "the leaf", a_sha, v,
				"fdinfo does not say team A's key signed the leaf's program",
				"no key recorded for a signer trusted through its issuer");
	if (fd < 0)
		goto out;
	printf("  # leaf loads against builtin: sig_key_sha256 %s (A %s, leaf %s), builtin %lld\n",
	       v, a_sha, leaf_sha, (long long)prog_fdinfo_num(fd, "sig_key_builtin"));
	close(fd);
out:
	free_load(&l);
}

/*
 * The policy: "keyring allow builtin / key allow sha256:A" (team A's key
 * only) must refuse the leaf's program; team B's own builtin key is the
 * control that the key rule is live.
 */
TEST_EXPLICIT(attack_key_allow_chain_issuer)
{
	char a_sha[65], text[512];
	struct load l = {};
	int fd;

	if (!ASSERT_TRUE(cert_key_sha256("signing", a_sha), "signing.crt digest"))
		return;
	if (!leaf_load(&l))
		goto out;
	policy_unload("keyring-allowlist");
	snprintf(text, sizeof(text), "keyring allow builtin\nkey allow sha256:%s\n", a_sha);
	/* load keyring-allowlist: builtin, key allow sha256:A */
	if (!policy_load_allowlist(CLONE_POLICY, text))
		goto out;
	fd = signed_load("signing-ec", BUILTIN);
	ASSERT_ERR(fd, EPERM, "control: team B's own builtin key is refused by key allow");
	if (fd >= 0)
		close(fd);
	fd = signed_load("signing", BUILTIN);
	ASSERT_OK(fd, "control: team A's own program passes");
	if (fd >= 0)
		close(fd);
	/* the attack: a key A certified loads as A */
	fd = sys_prog_load(&l);
	ASSERT_ERR(fd < 0 ? -1 : fd, EPERM, "the leaf A certified is not admitted as A");
	if (fd >= 0) {
		if (policy_cli("audit", "--policy", CLONE_POLICY, NULL) >= 0)
			printf("  # audit: %.*s\n", 1200, policy_out);
		close(fd);
	}
	policy_unload("keyring-allowlist");
out:
	free_load(&l);
}

/*
 * The same hole with the kit's own keys: the builtin keyring holds the test
 * CA and the keys it issued for signing; team.crt, which the CA issued for
 * the secondary keyring and which is in no keyring here, signs with its
 * certificate inside and loads against the builtin keyring as the CA's own
 * builtin key (sig_key_builtin 1).  Unlinking a key from the secondary
 * keyring therefore does not stop it either.  A correct kernel refuses the
 * load or records team.crt's key.
 */
TEST(attack_sig_key_chain_team_as_ca)
{
	char ca_sha[65], team_sha[65], v[160];
	struct load l = {};
	int fd;

	if (!ASSERT_TRUE(cert_key_sha256("ca", ca_sha) && cert_key_sha256("team", team_sha),
			 "ca.crt and team.crt digests"))
		return;
	if (!cert_load(&l, "team"))
		goto out;
	/* pkcs7_get_trusted_key(): the CA did not sign the data, team's key is in no keyring */
	fd = load_expect_no_key(&l, "team", ca_sha, v,
				"fdinfo does not say the CA's key signed team's program",
				"no key recorded for team's certificate the CA issued");
	if (fd < 0)
		goto out;
	printf("  # team's key %s, recorded %s\n", team_sha, v);
	close(fd);
out:
	free_load(&l);
}

/*
 * Held, recorded: one RSA key, two encodings.  Any caller puts into its
 * session keyring a certificate (not self-signed, so the kernel checks no
 * signature on it) with team A's skid and team A's modulus, its exponent
 * re-encoded with a leading zero byte (02 04 00 01 00 01).  The kernel
 * parses the same (n, e), so team A's genuine signature verifies with it,
 * and records the digest of the bytes it holds: another identity than A's
 * for a program A's private key did sign.  Nothing is admitted that A did
 * not sign ("key allow sha256:A" fails closed), and the offline digest of
 * that certificate (X509_get0_pubkey_bitstr, as bpfsign inspect) is the
 * kernel's: offline and online agree on a non-canonical encoding.
 */
#define REENC	"attack-reenc-a"

static bool mint_reencoded(void)
{
	X509 *a = cert_read("signing"), *x = X509_new();
	EVP_PKEY *key = EVP_EC_gen("P-256");
	const ASN1_BIT_STRING *bits = a ? X509_get0_pubkey_bitstr(a) : NULL;
	static const unsigned char e65537[] = { 0x02, 0x03, 0x01, 0x00, 0x01 };
	static const unsigned char e_pad[] = { 0x02, 0x04, 0x00, 0x01, 0x00, 0x01 };
	const unsigned char *k;
	unsigned char *enc = NULL;
	X509_EXTENSION *ext;
	int n, seq;
	bool ok = false;
	FILE *f;

	if (!x || !key || !bits)
		goto out;
	k = ASN1_STRING_get0_data(bits);
	n = ASN1_STRING_length(bits);
	/* SEQUENCE (82 LL LL) { INTEGER n, INTEGER 65537 } */
	if (n < 10 || k[0] != 0x30 || k[1] != 0x82 || memcmp(k + n - 5, e65537, 5))
		goto out;
	seq = (k[2] << 8 | k[3]) + 1;
	enc = OPENSSL_malloc(n + 1);
	if (!enc)
		goto out;
	enc[0] = 0x30;
	enc[1] = 0x82;
	enc[2] = seq >> 8;
	enc[3] = seq & 0xff;
	memcpy(enc + 4, k + 4, n - 9);
	memcpy(enc + n - 5, e_pad, sizeof(e_pad));
	X509_set_version(x, 2);
	ASN1_INTEGER_set(X509_get_serialNumber(x), 40402);
	X509_NAME_add_entry_by_txt(X509_get_subject_name(x), "CN", MBSTRING_ASC,
				   (const unsigned char *)"team A's key, re-encoded", -1, -1, 0);
	X509_NAME_add_entry_by_txt(X509_get_issuer_name(x), "CN", MBSTRING_ASC,
				   (const unsigned char *)"nobody", -1, -1, 0);
	X509_gmtime_adj(X509_getm_notBefore(x), -3600);
	X509_gmtime_adj(X509_getm_notAfter(x), 3600L * 24 * 365);
	if (!X509_PUBKEY_set0_param(X509_get_X509_PUBKEY(x), OBJ_nid2obj(NID_rsaEncryption),
				    V_ASN1_NULL, NULL, enc, n + 1))
		goto out;
	enc = NULL;
	ext = X509_EXTENSION_create_by_NID(NULL, NID_subject_key_identifier, 0,
		X509_EXTENSION_get_data(X509_get_ext(a, X509_get_ext_by_NID(a, NID_subject_key_identifier, -1))));
	if (!ext || !X509_add_ext(x, ext, -1))
		goto out;
	X509_EXTENSION_free(ext);
	if (!X509_sign(x, key, EVP_sha256()))
		goto out;
	f = fopen("/tests/keys/" REENC ".crt", "w");
	ok = f && PEM_write_X509(f, x);
	if (f)
		fclose(f);
out:
	OPENSSL_free(enc);
	X509_free(a);
	X509_free(x);
	EVP_PKEY_free(key);
	return ok;
}

TEST(attack_sig_key_reencoded_rsa_copy)
{
	char a_sha[65], re_sha[65], v[160];
	key_serial_t copy;
	int fd;

	if (!ASSERT_TRUE(cert_key_sha256("signing", a_sha), "signing.crt digest"))
		return;
	if (!ASSERT_TRUE(mint_reencoded(), "a cert with A's key, exponent re-encoded"))
		return;
	if (!ASSERT_TRUE(cert_key_sha256(REENC, re_sha), "its offline digest"))
		return;
	ASSERT_TRUE(strcmp(a_sha, re_sha), "two encodings, two digests offline");
	copy = cert_enrol(REENC, "bpfsign-attack-reenc", KEY_SPEC_SESSION_KEYRING);
	/* the kernel takes it: its ASN.1 and MPI readers accept the padding */
	if (!ASSERT_GE(copy, 1, "the caller enrols the re-encoded copy of A's key"))
		return;
	fd = signed_load("signing", KEY_SPEC_SESSION_KEYRING);
	if (ASSERT_OK(fd, "team A's signature verifies with the re-encoded copy")) {
		ASSERT_STREQ(prog_fdinfo(fd, "sig_key_sha256", v, sizeof(v)), re_sha,
			     "the kernel's digest is the offline digest of the same certificate");
		close(fd);
	}
	keyctl_unlink(copy, KEY_SPEC_SESSION_KEYRING);
}

/*
 * The hole grows a signing oracle: team A's key (signing.crt: CA:FALSE,
 * keyUsage digitalSignature only, EKU codeSigning) never certifies anyone,
 * but it signs payloads, and "bpfsign sign PAYLOAD" (no signed attributes)
 * over a TBSCertificate is a certificate A issued.  Attacker: whoever gets
 * A's signing step to sign one file of its choosing, once; it never sees
 * A's key.  The kernel ignores CA:FALSE and keyUsage in the chain, so the
 * certificate vouches for the attacker's key, and every program that key
 * signs loads against the builtin keyring as team A's: sig_key_sha256 = A,
 * "key allow sha256:A" admits it.  A correct kernel refuses the load, or
 * records the attacker's key.
 */
TEST(attack_sig_key_chain_signing_oracle)
{
	char a_sha[65], leaf_sha[65], v[160];
	struct load l = {};
	int fd;

	if (!ASSERT_TRUE(cert_key_sha256("signing", a_sha), "signing.crt digest"))
		return;
	if (!ASSERT_TRUE(mint_leaf_as("signing", true),
			 "A's signature of a TBS payload makes a certificate A issued"))
		return;
	if (!ASSERT_TRUE(cert_key_sha256(LEAF, leaf_sha), "the attacker's key digest") ||
	    !cert_load(&l, LEAF))
		goto out;
	/* pkcs7_get_trusted_key(): A's key only verified the forged certificate */
	fd = load_expect_no_key(&l, "the attacker", a_sha, v,
				"fdinfo does not say team A signed the attacker's program",
				"no key recorded for the certificate A's signature made");
	if (fd < 0)
		goto out;
	printf("  # attacker's key %s, recorded %s\n", leaf_sha, v);
	close(fd);
out:
	free_load(&l);
}

/*
 * A signed loader whose own signature is a chain signature (the leaf, in no
 * keyring, certified by team A's builtin key): the loader verifies and has
 * no key (above), and its children inherit exactly that: loader_verdict
 * verified against builtin, loader_key none.  Attacker: the holder of a
 * certificate A issued, hoping a policy that admits children by their
 * loader's key ("key allow sha256:A") reads A for them.  Pins
 * bpf_prog_load()'s copy of the loader's sig_key into loader_key.
 */
TEST(attack_sig_key_chain_loader_children)
{
	unsigned char *sig = NULL;
	const void *insns;
	int fd, child, len;
	char v[160];
	size_t n;

	if (!ASSERT_TRUE(mint_leaf("signing"), "team A's key certifies a fresh leaf key"))
		return;
	insns = loader_payload(&n);
	len = cms_sign_with_cert(LEAF, insns, n, &sig);
	if (!ASSERT_GE(len, 1, "the leaf signs the loader, its cert inside"))
		return;
	fd = load_loader_sig(sig, len, BUILTIN);
	free(sig);
	if (!ASSERT_GE(fd, 0, "the chain-signed loader verifies against builtin")) {
		printf("#   log: %.300s\n", vlog);
		return;
	}
	prog_fdinfo(fd, "sig_key_sha256", v, sizeof(v));
	ASSERT_STREQ(v, "none", "the loader itself records no key");
	child = loader_run(fd);
	if (ASSERT_GE(child, 0, "the loader loads its child")) {
		prog_fdinfo(child, "loader_verdict", v, sizeof(v));
		ASSERT_STREQ(v, "verified", "the child's loader_verdict");
		prog_fdinfo(child, "loader_keyring", v, sizeof(v));
		ASSERT_STREQ(v, "builtin", "the child's loader_keyring");
		prog_fdinfo(child, "loader_key_sha256", v, sizeof(v));
		ASSERT_STREQ(v, "none", "the child's loader_key: none, not team A's");
		prog_fdinfo(child, "loader_key", v, sizeof(v));
		ASSERT_STREQ(v, "none", "the child's loader_key id: none");
		close(child);
	}
	close(fd);
}
