// SPDX-License-Identifier: GPL-2.0
/*
 * Which key signed a program: the kernel records the key that verified a
 * signature (prog->aux->sig_key: the SHA-256 of its public key, its
 * identity; its subject key identifier, serial and builtin flag) and,
 * in a loader's programs, the loader's (loader_key).  Each test checks the
 * four places it shows: the AUDIT_BPF record (sig-key=, loader-key=),
 * /proc/self/fdinfo of the program fd, a BPF LSM program reading the fields
 * through CO-RE (progs/sig_key.bpf.c), and the serial of the key itself in
 * /proc/keys.
 *
 * Two keys of the builtin keyring sign: keys-example/signing.key (RSA) and
 * signing-ec.key (P-256).  The expected ids come from the certificates in
 * the guest and, for the skeletons, from the host: gen-loader verify --json
 * of each header at build time (sig_key_ids.h, tests/guest/skeleton.mk), so
 * that the offline audit and the kernel are compared for the same header.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/wait.h>
#include <keyutils.h>
#include <bpf/bpf.h>

#include "runner.h"
#include "util.h"
#include "sign.h"
#include "signed.h"
#include "audit.h"
#include "sig_key_fixture.h"
#include "progs/sig_key.h"
#include "sig_key.skel.h"
#include "sig_key_ids.h"
#include "skel_counter.lskel.h"
#include "skel_counter_ec.lskel.h"

#define HEX_MAX 129

static void hex(const unsigned char *p, size_t n, char *out)
{
	size_t i;

	for (i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", p[i]);
	out[2 * n] = 0;
}

/* The audit record of the load of prog id, into rec. */
static bool audit_load_record(int afd, __u32 id, char *rec, size_t len)
{
	char needle[64];

	snprintf(needle, sizeof(needle), "prog-id=%u op=LOAD ", id);
	if (!audit_find(afd, needle, rec, len, 2000))
		return true;
	FAIL("no AUDIT_BPF record with \"%s\"", needle);
	return false;
}

/* The output of a shell command, stdout and stderr; its exit status */
static int sh(char *out, size_t len, const char *fmt, ...)
{
	char cmd[256];
	va_list ap;
	size_t n;
	FILE *f;
	int rc;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	f = popen(cmd, "r");
	if (!f)
		return -1;
	n = fread(out, 1, len - 1, f);
	out[n] = 0;
	rc = pclose(f);
	return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

/* bpftool prog show, plain and JSON, from the fdinfo of program id */
static void check_bpftool(__u32 id, const char *plain, const char *json)
{
	char out[4096];

	if (ASSERT_EQ(sh(out, sizeof(out), "bpftool prog show id %u 2>&1", id), 0,
		      "bpftool prog show"))
		ASSERT_HAS(out, plain, "bpftool prog show: signed:");
	if (ASSERT_EQ(sh(out, sizeof(out), "bpftool -j prog show id %u 2>&1", id), 0,
		      "bpftool -j prog show"))
		ASSERT_HAS(out, json, "bpftool -j prog show: signature");
}

static struct sig_key *lsm_open(void)
{
	struct sig_key *skel = sig_key__open_and_load();

	if (!ASSERT_TRUE(skel, "sig_key LSM skeleton"))
		return NULL;
	skel->bss->target_tgid = getpid();
	if (!ASSERT_OK(sig_key__attach(skel), "attach lsm/bpf_prog_load")) {
		sig_key__destroy(skel);
		return NULL;
	}
	return skel;
}

/* The key id the LSM read for load i of this process, hex */
static void lsm_key(struct sig_key *skel, int i, bool loader, char *out)
{
	const struct seen_key *k = &skel->bss->loads[i];
	int n = loader ? k->loader_id_len : k->id_len;

	hex(loader ? k->loader_key : k->id, n > 0 && n <= 64 ? n : 0, out);
}

/* A signed load by key NAME of the builtin keyring: every view of its key */
static void check_builtin_key(struct sig_key *lsm, int afd, const char *name, char *skid,
			      long *serial)
{
	char v[HEX_MAX], rec[2048], want[512], got[HEX_MAX], sha[HEX_MAX];
	struct load l;
	int fd, i;

	*serial = -1;
	if (!ASSERT_TRUE(cert_skid(name, skid, false), "the certificate has a subjectKeyIdentifier") ||
	    !ASSERT_TRUE(cert_key_sha256(name, sha), "the certificate's public key digest"))
		return;
	*serial = key_serial_by_skid(skid);
	if (!ASSERT_GE(*serial, 1, "the builtin key is in /proc/keys"))
		return;
	if (!make_load(&l, 1, name, BUILTIN))
		return;
	i = lsm->bss->seen;
	fd = sys_prog_load(&l);
	if (!ASSERT_OK(fd, name))
		goto out;
	ASSERT_STREQ(prog_fdinfo(fd, "sig_verdict", v, sizeof(v)), "verified", "fdinfo sig_verdict");
	ASSERT_STREQ(prog_fdinfo(fd, "sig_keyring", v, sizeof(v)), "builtin", "fdinfo sig_keyring");
	ASSERT_STREQ(prog_fdinfo(fd, "sig_key", v, sizeof(v)), skid, "fdinfo sig_key: the cert's skid");
	ASSERT_EQ(prog_fdinfo_num(fd, "sig_key_serial"), *serial, "fdinfo sig_key_serial: the builtin key's");
	ASSERT_STREQ(prog_fdinfo(fd, "sig_key_sha256", v, sizeof(v)), sha,
		     "fdinfo sig_key_sha256: the cert's public key digest");
	ASSERT_EQ(prog_fdinfo_num(fd, "sig_key_builtin"), 1, "fdinfo sig_key_builtin");
	ASSERT_EQ(prog_fdinfo_num(fd, "kernel_load"), 0, "fdinfo kernel_load: a caller's load");
	ASSERT_STREQ(prog_fdinfo(fd, "loader_id", v, sizeof(v)), "", "no loader_id line");

	if (audit_load_record(afd, prog_id(fd), rec, sizeof(rec))) {
		snprintf(want, sizeof(want), "verdict=verified keyring=builtin keyring-serial=0 ");
		ASSERT_HAS(rec, want, "audit verdict");
		snprintf(want, sizeof(want), " sig-key=%s sig-key-serial=%ld sig-key-sha256=%s", skid,
			 *serial, sha);
		ASSERT_HAS(rec, want, "audit sig-key");
	}

	if (ASSERT_EQ(lsm->bss->seen, i + 1, "the LSM saw the load")) {
		lsm_key(lsm, i, false, got);
		ASSERT_STREQ(got, skid, "LSM: aux->sig_key.id");
		ASSERT_EQ(lsm->bss->loads[i].serial, *serial, "LSM: aux->sig_key.serial");
		hex(lsm->bss->loads[i].sha256, 32, got);
		ASSERT_STREQ(got, sha, "LSM: aux->sig_key.sha256");
		ASSERT_EQ(lsm->bss->loads[i].builtin, 1, "LSM: aux->sig_key.builtin");
	}

	snprintf(want, sizeof(want), "signed: verified keyring builtin key sha256:%s", sha);
	snprintf(rec, sizeof(rec),
		 "\"signature\":{\"verdict\":\"verified\",\"keyring\":\"builtin\",\"keyring_serial\":0,\"key_id\":\"%s\",\"key_serial\":%ld,\"key_sha256\":\"%s\",\"key_builtin\":true}",
		 skid, *serial, sha);
	check_bpftool(prog_id(fd), want, rec);
	close(fd);
out:
	free_load(&l);
}

TEST(sig_key_two_builtin_keys)
{
	char rsa[HEX_MAX], ec[HEX_MAX];
	long rsa_serial, ec_serial;
	struct sig_key *lsm = lsm_open();
	int afd;

	if (!lsm)
		return;
	afd = audit_open();
	if (ASSERT_OK(afd, "register as the audit daemon")) {
		check_builtin_key(lsm, afd, "signing", rsa, &rsa_serial);
		check_builtin_key(lsm, afd, "signing-ec", ec, &ec_serial);
		/* one keyring, two keys: the record tells them apart */
		ASSERT_TRUE(strcmp(rsa, ec), "two keys, two ids");
		ASSERT_TRUE(rsa_serial != ec_serial, "two keys, two serials");
		audit_close(afd);
	}
	sig_key__destroy(lsm);
}

TEST(sig_key_unsigned)
{
	struct sig_key *lsm = lsm_open();
	char v[HEX_MAX], rec[2048];
	struct load l;
	int afd, fd, i;

	if (!lsm)
		return;
	afd = audit_open();
	if (!ASSERT_OK(afd, "register as the audit daemon"))
		goto out;
	if (!make_load(&l, 1, "signing", BUILTIN))
		goto out_audit;
	drop_signature(&l);
	i = lsm->bss->seen;
	fd = sys_prog_load(&l);
	if (ASSERT_OK(fd, "unsigned load")) {
		ASSERT_STREQ(prog_fdinfo(fd, "sig_verdict", v, sizeof(v)), "unsigned", "fdinfo sig_verdict");
		ASSERT_STREQ(prog_fdinfo(fd, "sig_keyring", v, sizeof(v)), "none", "fdinfo sig_keyring");
		ASSERT_STREQ(prog_fdinfo(fd, "sig_key", v, sizeof(v)), "none", "fdinfo sig_key");
		ASSERT_EQ(prog_fdinfo_num(fd, "sig_key_serial"), 0, "fdinfo sig_key_serial");
		ASSERT_STREQ(prog_fdinfo(fd, "sig_key_sha256", v, sizeof(v)), "none", "fdinfo sig_key_sha256");
		ASSERT_EQ(prog_fdinfo_num(fd, "sig_key_builtin"), 0, "fdinfo sig_key_builtin");
		ASSERT_STREQ(prog_fdinfo(fd, "loader_id", v, sizeof(v)), "", "no loader_id line");
		if (audit_load_record(afd, prog_id(fd), rec, sizeof(rec))) {
			ASSERT_HAS(rec, "verdict=unsigned keyring=none keyring-serial=0 ", "audit");
			ASSERT_HAS(rec, " sig-key=none sig-key-serial=0 sig-key-sha256=none", "audit sig-key");
		}
		if (ASSERT_EQ(lsm->bss->seen, i + 1, "the LSM saw the load")) {
			ASSERT_EQ(lsm->bss->loads[i].id_len, 0, "LSM: no key id");
			ASSERT_EQ(lsm->bss->loads[i].serial, 0, "LSM: no key serial");
		}
		close(fd);
	}
	free_load(&l);
out_audit:
	audit_close(afd);
out:
	sig_key__destroy(lsm);
}

/*
 * A signed skeleton of the host: its loader's key, as the kernel records it
 * in the audit record, to the LSM and in its children's fdinfo, equals what
 * gen-loader verify printed for the header on the host (offline_id).
 */
#define CHECK_SKELETON(NAME, offline_id, offline_sha, cert)				\
	do {										\
		struct NAME *s;								\
		int first = lsm->bss->seen, fd;						\
											\
		s = NAME##__open_and_load();						\
		if (!ASSERT_TRUE(s, #NAME " loads"))					\
			break;								\
		fd = s->progs.count_getppid.prog_fd;					\
		check_child(lsm, afd, fd, first, offline_id, offline_sha, cert);	\
		NAME##__destroy(s);							\
	} while (0)

static void check_child(struct sig_key *lsm, int afd, int fd, int first, const char *offline_id,
			const char *offline_sha, const char *cert)
{
	char v[HEX_MAX], skid[HEX_MAX], sha[HEX_MAX], rec[2048], want[512], got[HEX_MAX];
	long loader_id, serial;

	ASSERT_TRUE(cert_skid(cert, skid, false), "the certificate has a subjectKeyIdentifier");
	ASSERT_TRUE(cert_key_sha256(cert, sha), "the certificate's public key digest");
	/* offline and the certificate agree: the header names its signer's key */
	ASSERT_STREQ(offline_id, skid, "gen-loader verify's key_id is the cert's skid");
	ASSERT_STREQ(offline_sha, sha, "gen-loader verify's key_sha256 is the cert's key digest");
	serial = key_serial_by_skid(skid);

	/* the child: unsigned itself, loaded by a verified loader of that key */
	ASSERT_STREQ(prog_fdinfo(fd, "sig_verdict", v, sizeof(v)), "unsigned", "child: sig_verdict");
	ASSERT_STREQ(prog_fdinfo(fd, "sig_key", v, sizeof(v)), "none", "child: sig_key");
	loader_id = prog_fdinfo_num(fd, "loader_id");
	ASSERT_GE(loader_id, 1, "child: loader_id");
	ASSERT_STREQ(prog_fdinfo(fd, "loader_verdict", v, sizeof(v)), "verified", "child: loader_verdict");
	ASSERT_STREQ(prog_fdinfo(fd, "loader_keyring", v, sizeof(v)), "builtin", "child: loader_keyring");
	ASSERT_STREQ(prog_fdinfo(fd, "loader_key", v, sizeof(v)), offline_id,
		     "child: loader_key is gen-loader verify's key_id");
	ASSERT_EQ(prog_fdinfo_num(fd, "loader_key_serial"), serial, "child: loader_key_serial");
	ASSERT_STREQ(prog_fdinfo(fd, "loader_key_sha256", v, sizeof(v)), offline_sha,
		     "child: loader_key_sha256 is gen-loader verify's key_sha256");
	ASSERT_STREQ(prog_fdinfo(fd, "sig_key_sha256", v, sizeof(v)), "none", "child: sig_key_sha256");

	/* the loader's own record and its child's */
	if (loader_id > 0 && audit_load_record(afd, loader_id, rec, sizeof(rec))) {
		snprintf(want, sizeof(want), " sig-key=%s sig-key-serial=%ld sig-key-sha256=%s",
			 offline_id, serial, offline_sha);
		ASSERT_HAS(rec, want, "loader's audit record: sig-key");
	}
	if (audit_load_record(afd, prog_id(fd), rec, sizeof(rec))) {
		snprintf(want, sizeof(want), "loader-id=%ld loader-verdict=verified loader-key=%s loader-key-serial=%ld loader-key-sha256=%s",
			 loader_id, offline_id, serial, offline_sha);
		ASSERT_HAS(rec, want, "child's audit record: loader-key");
		ASSERT_HAS(rec, " sig-key=none sig-key-serial=0", "child's audit record: sig-key");
	}

	snprintf(want, sizeof(want),
		 "signed: unsigned  loader %ld verified keyring builtin key sha256:%s", loader_id,
		 offline_sha);
	snprintf(rec, sizeof(rec),
		 "\"loader\":{\"id\":%ld,\"verdict\":\"verified\",\"keyring\":\"builtin\",\"key_id\":\"%s\"",
		 loader_id, offline_id);
	check_bpftool(prog_id(fd), want, rec);

	/* the LSM: the loader first, then its child */
	if (ASSERT_GE(lsm->bss->seen, first + 2, "the LSM saw the loader and its child")) {
		lsm_key(lsm, first, false, got);
		ASSERT_STREQ(got, offline_id, "LSM: the loader's aux->sig_key.id");
		lsm_key(lsm, first + 1, true, got);
		ASSERT_STREQ(got, offline_id, "LSM: the child's aux->loader_key.id");
		ASSERT_EQ(lsm->bss->loads[first + 1].loader_serial, serial,
			  "LSM: the child's aux->loader_key.serial");
		hex(lsm->bss->loads[first + 1].loader_sha256, 32, got);
		ASSERT_STREQ(got, offline_sha, "LSM: the child's aux->loader_key.sha256");
	}
}

TEST(sig_key_skeletons_offline_equals_kernel)
{
	struct sig_key *lsm = lsm_open();
	int afd;

	if (!lsm)
		return;
	afd = audit_open();
	if (ASSERT_OK(afd, "register as the audit daemon")) {
		CHECK_SKELETON(skel_counter, skel_counter_KEY_ID, skel_counter_KEY_SHA256, "signing");
		CHECK_SKELETON(skel_counter_ec, skel_counter_ec_KEY_ID, skel_counter_ec_KEY_SHA256,
			       "signing-ec");
		audit_close(afd);
	}
	sig_key__destroy(lsm);
}

/*
 * Attacker: a caller with CAP_BPF and its own keyring makes a certificate
 * whose subjectKeyIdentifier is the builtin signing key's, enrols it in its
 * session keyring and signs with it.  The record must not pass it off as the
 * builtin key: keyring=user with the session keyring's serial, and the
 * serial of the caller's key, not the builtin one's.  Against the builtin
 * keyring the same signature finds the real key by that skid and fails.
 */
TEST(sig_key_caller_keyring_same_skid)
{
	char skid[HEX_MAX], v[HEX_MAX], rec[2048], want[256], got[HEX_MAX];
	char a_sha[HEX_MAX], forged_sha[HEX_MAX];
	long builtin_serial, session;
	struct sig_key *lsm;
	key_serial_t forged;
	struct load l;
	int afd, fd, i;

	if (!ASSERT_TRUE(cert_skid("signing", skid, false), "signing.crt skid"))
		return;
	builtin_serial = key_serial_by_skid(skid);
	if (!ASSERT_GE(builtin_serial, 1, "the builtin key is in /proc/keys"))
		return;
	if (!ASSERT_TRUE(mint_cert(&(struct mint){ .name = "forged-skid", .cn = "bpfsign attacker",
						   .serial = 4242, .skid_of = "signing" }),
			 "a certificate with the builtin skid"))
		return;
	if (!ASSERT_TRUE(cert_key_sha256("signing", a_sha) &&
			 cert_key_sha256("forged-skid", forged_sha), "the two keys' digests"))
		return;
	forged = cert_enrol("forged-skid", "bpfsign-forged-skid", KEY_SPEC_SESSION_KEYRING);
	if (!ASSERT_OK(forged, "enrol it in the session keyring"))
		return;
	session = keyctl_get_keyring_ID(KEY_SPEC_SESSION_KEYRING, 0);

	lsm = lsm_open();
	afd = audit_open();
	if (!lsm || !ASSERT_OK(afd, "register as the audit daemon"))
		goto out;

	/* the builtin key has that skid but not this key: -EKEYREJECTED */
	if (make_load(&l, 1, "forged-skid", BUILTIN))
		expect_load(&l, EKEYREJECTED, "signature verification failed",
			    "forged skid against the builtin keyring");
	free_load(&l);

	if (!make_load(&l, 1, "forged-skid", KEY_SPEC_SESSION_KEYRING))
		goto out;
	i = lsm->bss->seen;
	fd = sys_prog_load(&l);
	if (ASSERT_OK(fd, "forged skid, verified by the caller's keyring")) {
		ASSERT_STREQ(prog_fdinfo(fd, "sig_keyring", v, sizeof(v)), "user", "fdinfo: keyring user");
		ASSERT_EQ(prog_fdinfo_num(fd, "sig_keyring_serial"), session, "fdinfo: the session keyring");
		ASSERT_STREQ(prog_fdinfo(fd, "sig_key", v, sizeof(v)), skid, "fdinfo: the forged skid, as it is");
		ASSERT_EQ(prog_fdinfo_num(fd, "sig_key_serial"), forged, "fdinfo: the caller's key serial");
		ASSERT_TRUE(prog_fdinfo_num(fd, "sig_key_serial") != builtin_serial,
			    "fdinfo: not the builtin key's serial");
		/* the identity: the forged key's own digest, not the builtin's */
		ASSERT_STREQ(prog_fdinfo(fd, "sig_key_sha256", v, sizeof(v)), forged_sha,
			     "fdinfo: the forged key's digest");
		ASSERT_TRUE(strcmp(v, a_sha), "fdinfo: not the builtin key's digest");
		ASSERT_EQ(prog_fdinfo_num(fd, "sig_key_builtin"), 0, "fdinfo: not a builtin key");
		if (audit_load_record(afd, prog_id(fd), rec, sizeof(rec))) {
			snprintf(want, sizeof(want), "verdict=verified keyring=user keyring-serial=%ld ",
				 session);
			ASSERT_HAS(rec, want, "audit: keyring user");
			snprintf(want, sizeof(want), " sig-key=%s sig-key-serial=%d", skid, forged);
			ASSERT_HAS(rec, want, "audit: the caller's key");
		}
		if (ASSERT_EQ(lsm->bss->seen, i + 1, "the LSM saw the load")) {
			ASSERT_EQ(lsm->bss->loads[i].keyring, 4, "LSM: BPF_SIG_KEYRING_USER");
			lsm_key(lsm, i, false, got);
			ASSERT_STREQ(got, skid, "LSM: the forged skid");
			ASSERT_EQ(lsm->bss->loads[i].serial, forged, "LSM: the caller's key serial");
		}
		close(fd);
	}
	free_load(&l);
out:
	if (afd >= 0)
		audit_close(afd);
	sig_key__destroy(lsm);
	keyctl_unlink(forged, KEY_SPEC_SESSION_KEYRING);
}
