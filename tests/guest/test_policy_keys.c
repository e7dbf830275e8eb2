// SPDX-License-Identifier: GPL-2.0
/*
 * keyring-allowlist's key rules ("key allow sha256:HEX", the digest of the
 * key's public key) and the live audit
 * (bpfsign-policy audit), with the CLI of the guest (/tests/bpfsign-policy):
 * two keys of the builtin keyring, signing.key (RSA) and signing-ec.key
 * (P-256); a policy that allows the builtin keyring and only the RSA key
 * admits the one and refuses the other, for signed programs and for the
 * loaders of signed skeletons, and the audit lists every program loaded
 * with its key and flags what the policy does not admit.
 *
 * Explicit, in the boot of the other policies (scripts/run-tests.sh): an
 * attached policy changes what later tests may load.  Each test unloads
 * keyring-allowlist before and after it.
 */
#include <ctype.h>
#include <stdlib.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "runner.h"
#include "util.h"
#include "policy_fixture.h"
#include "sign.h"
#include "signed.h"
#include "sig_key_fixture.h"
#include "skel_counter.lskel.h"
#include "skel_counter_ec.lskel.h"

#define KEYS_POLICY	"/tmp/keys.policy"

static int write_policy(const char *text)
{
	return policy_write_file(KEYS_POLICY, text);
}

/* The JSON line of the audit output about program id, or NULL */
static const char *audit_line(__u32 id, char *line, size_t len)
{
	char needle[32];
	const char *p, *e;

	snprintf(needle, sizeof(needle), "{\"id\":%u,", id);
	p = strstr(policy_out, needle);
	if (!p)
		return NULL;
	e = strchr(p, '\n');
	snprintf(line, len, "%.*s", (int)(e ? e - p : (long)strlen(p)), p);
	return line;
}

/* hex as "AB:CD:...": the other form check takes */
static void upper_colons(const char *hex, char *out)
{
	int i, n = 0;

	for (i = 0; hex[i] && hex[i + 1]; i += 2)
		n += sprintf(out + n, "%s%c%c", i ? ":" : "", toupper(hex[i]), toupper(hex[i + 1]));
	out[n] = 0;
}

TEST_EXPLICIT(policy_key_allowlist)
{
	char rsa[160], rsa_colons[200], ec[160], text[512], line[2048], want[512];
	char rsa_sha[65], rsa_sha_colons[100], ec_sha[65];
	static const struct bpf_insn ret0[] = { MOV64_IMM(BPF_REG_0, 0), EXIT_INSN() };
	int unsigned_fd = -1, ec_fd = -1, rsa_fd = -1, fd, rc;
	struct skel_counter_ec *sec;
	struct skel_counter *s;

	policy_unload("keyring-allowlist");
	if (!ASSERT_TRUE(cert_skid("signing", rsa, false) && cert_skid("signing", rsa_colons, true) &&
			 cert_skid("signing-ec", ec, false), "the keys' subjectKeyIdentifiers") ||
	    !ASSERT_TRUE(cert_key_sha256("signing", rsa_sha) && cert_key_sha256("signing-ec", ec_sha),
			 "the keys' public key digests"))
		return;
	upper_colons(rsa_sha, rsa_sha_colons);

	/* a subject key identifier names no key (any certificate may claim it): refused */
	snprintf(text, sizeof(text), "keyring allow builtin\nkey allow %s\n", rsa_colons);
	if (!ASSERT_OK(write_policy(text), "write the policy"))
		return;
	rc = policy_cli("check", "--policy", KEYS_POLICY, NULL);
	if (ASSERT_EQ(rc, 4, "check refuses a key rule by skid"))
		ASSERT_HAS(policy_out, "not 'sha256:HEX': a key is named by the SHA-256 of its public key",
			   "check says why and what to give");

	/* check validates the digest and prints it in one form */
	snprintf(text, sizeof(text), "keyring allow builtin\nkey allow sha256:%s\n", rsa_sha_colons);
	if (!ASSERT_OK(write_policy(text), "write the policy"))
		return;
	rc = policy_cli("check", "--policy", KEYS_POLICY, NULL);
	snprintf(want, sizeof(want), "key allow sha256:%s\n", rsa_sha);
	if (ASSERT_EQ(rc, 0, "check of a key rule"))
		ASSERT_HAS(policy_out, want, "check prints the digest as lowercase hex");

	/* loaded before the policy: what the audit must flag */
	unsigned_fd = load_prog(ret0, ARRAY_LEN(ret0), NULL);
	ASSERT_OK(unsigned_fd, "unsigned program, before the policy");
	ec_fd = signed_load("signing-ec", BUILTIN);
	ASSERT_OK(ec_fd, "signed by signing-ec, before the policy");

	if (!ASSERT_EQ(policy_cli("load", "--policy", KEYS_POLICY, "keyring-allowlist", NULL), 0,
		       "load keyring-allowlist with a key rule"))
		goto out;

	rsa_fd = signed_load("signing", BUILTIN);
	ASSERT_OK(rsa_fd, "signed by the allowed key");
	/* the builtin keyring is allowed: -EPERM can only be the key rule */
	fd = signed_load("signing-ec", BUILTIN);
	ASSERT_ERR(fd, EPERM, "signed by the other key of the builtin keyring");
	if (fd >= 0)
		close(fd);

	s = skel_counter__open_and_load();
	ASSERT_TRUE(s, "skeleton signed by the allowed key: loader and child");
	skel_counter__destroy(s);
	sec = skel_counter_ec__open();
	/* the loader is refused at its own load: its key is not listed */
	ASSERT_EQ(sec ? skel_counter_ec__load(sec) : -ENOMEM, -EPERM,
		  "skeleton signed by the other key");
	skel_counter_ec__destroy(sec);

	/* the live audit: every program, flagged against the same policy */
	rc = policy_cli("audit", "--policy", KEYS_POLICY, NULL);
	ASSERT_EQ(rc, 3, "audit: some programs not admitted (exit 3)");
	if (ASSERT_TRUE(audit_line(prog_id(unsigned_fd), line, sizeof(line)), "audit: unsigned")) {
		ASSERT_HAS(line, "\"verdict\":\"unsigned\",\"keyring\":\"none\"", "audit: unsigned verdict");
		ASSERT_HAS(line, "\"key_id\":null,\"key_sha256\":null", "audit: unsigned has no key");
		ASSERT_HAS(line, "\"admitted\":false,\"reason\":\"unsigned\"", "audit: unsigned flagged");
	}
	if (ASSERT_TRUE(audit_line(prog_id(ec_fd), line, sizeof(line)), "audit: signing-ec")) {
		snprintf(want, sizeof(want), "\"verdict\":\"verified\",\"keyring\":\"builtin\",\"keyring_serial\":0,\"key_id\":\"%s\",\"key_sha256\":\"%s\"",
			 ec, ec_sha);
		ASSERT_HAS(line, want, "audit: signing-ec's key");
		ASSERT_HAS(line, "\"admitted\":false,\"reason\":\"key not allowed\"", "audit: flagged");
	}
	if (ASSERT_TRUE(audit_line(prog_id(rsa_fd), line, sizeof(line)), "audit: signing")) {
		snprintf(want, sizeof(want), "\"key_id\":\"%s\",\"key_sha256\":\"%s\"", rsa, rsa_sha);
		ASSERT_HAS(line, want, "audit: signing's key");
		ASSERT_HAS(line, "\"admitted\":true,\"reason\":null", "audit: admitted");
	}
	/* the policy's own program: a child of its signed loader */
	snprintf(want, sizeof(want), "\"name\":\"keyring_allowli\",\"prog_type\":\"lsm\",\"verdict\":\"unsigned\"");
	ASSERT_HAS(policy_out, want, "audit: the policy's program");
	snprintf(want, sizeof(want), "\"loader_verdict\":\"verified\",\"loader_keyring\":\"builtin\",\"loader_key_id\":\"%s\",\"loader_key_sha256\":\"%s\",\"admitted\":true",
		 rsa, rsa_sha);
	ASSERT_HAS(policy_out, want, "audit: a verified loader's child, its loader's key");

	/* the same host under the default policy: the key rule made the difference */
	rc = policy_cli("audit", NULL);
	if (ASSERT_TRUE(audit_line(prog_id(ec_fd), line, sizeof(line)), "default audit: signing-ec"))
		ASSERT_HAS(line, "\"admitted\":true", "default audit: any builtin key");
out:
	policy_unload("keyring-allowlist");
	if (unsigned_fd >= 0)
		close(unsigned_fd);
	if (ec_fd >= 0)
		close(ec_fd);
	if (rsa_fd >= 0)
		close(rsa_fd);
}
