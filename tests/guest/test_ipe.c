// SPDX-License-Identifier: GPL-2.0
/*
 * IPE's op=BPF_PROG_LOAD and its BPF properties (bpf_signature,
 * bpf_keyring, bpf_kernel, and the kit's bpf_loader), with real policies
 * signed by signing.key (builtin keyring) and loaded through securityfs.
 * IPE policy state persists, so these tests have the boot guest-ipe of
 * their own (scripts/run-tests.sh boots()), with ipe.success_audit=1 so
 * that the kernel's own loads at boot are in the kernel log; each test
 * activates the policy it needs. ipe_vs_sig_enforce raises
 * bpf_sig_enforce, which cannot be undone: it is defined last and so runs
 * last in that boot.
 *
 * The attacker is a root caller who may load BPF but holds no key that
 * signs IPE policies: every property must come from what the kernel
 * established (the verdict, the keyring by keyring_id, the loader's
 * provenance), never from what the caller names or binds.
 * ipe_bpf_permissive_mode pins what such a root can do instead.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <keyutils.h>
#include <linux/audit.h>
#include <bpf/bpf.h>

#include "runner.h"
#include "util.h"
#include "sign.h"
#include "audit.h"
#include "signed.h"
#include "loader.h"
#include "mini_loader.skel.h"
#include "skel_counter.lskel.h"
#include "skel_counter_bt.lskel.h"
#include "skel_counter_untrusted.lskel.h"
#include "wq_loader.skel.h"
#include "timer_loader.skel.h"
#include "token.h"

#ifndef AUDIT_IPE_ACCESS
#define AUDIT_IPE_ACCESS 1420
#endif

#define IPE_FS "/sys/kernel/security/ipe"

/* What kernel.bpf_sig_enforce=1 admits, as Documentation/admin-guide/LSM/ipe.rst writes it */
#define SIGNED_ONLY							\
	"DEFAULT action=ALLOW\n"					\
	"DEFAULT op=BPF_PROG_LOAD action=DENY\n"			\
	"op=BPF_PROG_LOAD bpf_kernel=TRUE action=ALLOW\n"		\
	"op=BPF_PROG_LOAD bpf_signature=VERIFIED bpf_keyring=BUILTIN action=ALLOW\n" \
	"op=BPF_PROG_LOAD bpf_signature=VERIFIED bpf_keyring=SECONDARY action=ALLOW\n" \
	"op=BPF_PROG_LOAD bpf_signature=VERIFIED bpf_keyring=PLATFORM action=ALLOW\n" \
	"op=BPF_PROG_LOAD bpf_signature=VERIFIED bpf_keyring=BPF action=ALLOW\n" \
	"op=BPF_PROG_LOAD bpf_loader=VERIFIED bpf_keyring=BUILTIN action=ALLOW\n" \
	"op=BPF_PROG_LOAD bpf_loader=VERIFIED bpf_keyring=SECONDARY action=ALLOW\n" \
	"op=BPF_PROG_LOAD bpf_loader=VERIFIED bpf_keyring=PLATFORM action=ALLOW\n" \
	"op=BPF_PROG_LOAD bpf_loader=VERIFIED bpf_keyring=BPF action=ALLOW\n"

#define ALLOW_ALL "DEFAULT action=ALLOW\n"
#define DENY_BPF "DEFAULT action=ALLOW\nDEFAULT op=BPF_PROG_LOAD action=DENY\n"

#define DENIED_BY_DEFAULT "rule=\"DEFAULT op=BPF_PROG_LOAD action=DENY\""

static const struct bpf_insn ret0[] = { MOV64_IMM(BPF_REG_0, 0), EXIT_INSN() };

/*
 * IPE refuses to activate a policy of a lower version than the active
 * one, whatever its name: every policy this boot loads gets the next one.
 */
static int policy_rev;

/* write buf to path in one write(): 0 or -errno */
static int write_file(const char *path, const void *buf, size_t len)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, buf, len);
	n = n < 0 ? -errno : (n == (ssize_t)len ? 0 : -EIO);
	close(fd);
	return n;
}

/* Policy text NAME with rules, signed by key (as IPE requires, -nodetach) */
static int signed_policy(const char *key, const char *name, const char *rules,
			 unsigned char **p7)
{
	char text[4096];

	snprintf(text, sizeof(text), "policy_name=%s policy_version=1.0.%d\n%s",
		 name, ++policy_rev, rules);
	return cms_sign_attached(key, text, strlen(text), p7);
}

/* Write a new policy, or update the one of that name: 0 or -errno */
static int ipe_load(const char *key, const char *name, const char *rules)
{
	char path[256];
	unsigned char *p7;
	int len, err;

	len = signed_policy(key, name, rules, &p7);
	if (len < 1)
		return -EINVAL;
	err = write_file(IPE_FS "/new_policy", p7, len);
	if (err == -EEXIST) {
		snprintf(path, sizeof(path), IPE_FS "/policies/%s/update", name);
		err = write_file(path, p7, len);
	}
	free(p7);
	return err;
}

/* Load (or update) policy NAME and make it the active one */
static bool ipe_activate(const char *name, const char *rules)
{
	char path[256];

	if (!ASSERT_OK(ipe_load("signing", name, rules), name))
		return false;
	snprintf(path, sizeof(path), IPE_FS "/policies/%s/active", name);
	return ASSERT_OK(write_file(path, "1", 1), "activate the policy");
}

/* IPE's access record of the load just made contains needle */
static void expect_ipe_record(int afd, const char *needle, const char *what)
{
	char rec[2048];

	if (!ASSERT_OK(audit_find_type(afd, AUDIT_IPE_ACCESS, needle, rec, sizeof(rec), 2000),
		       what)) {
		printf("#   no IPE record with: %s\n", needle);
		return;
	}
	ASSERT_HAS(rec, "ipe_op=BPF_PROG_LOAD ipe_hook=BPF_PROG_LOAD enforcing=1", what);
}

/* A signed load of the fixture by key name, against keyring_id: fd or -errno */
static int signed_fixture(const char *name, int keyring_id)
{
	struct load l;
	int fd;

	if (!make_load(&l, 1, name, keyring_id))
		return -EINVAL;
	fd = sys_prog_load(&l);
	fd = fd < 0 ? -errno : fd;
	free_load(&l);
	return fd;
}

/* The same instructions and metadata maps, loaded without the signature */
static int unsigned_fixture(void)
{
	struct load l;
	int fd;

	if (!make_load(&l, 1, "signing", BUILTIN))
		return -EINVAL;
	drop_signature(&l);
	fd = sys_prog_load(&l);
	fd = fd < 0 ? -errno : fd;
	free_load(&l);
	return fd;
}

/* ASSERT_OK and close, or ASSERT_ERR, of an fd-or--errno */
static bool expect_fd(int fd, int err, const char *what)
{
	bool ok;

	if (!err) {
		ok = ASSERT_OK(fd, what);
		if (!ok)
			printf("#   log: %.300s\n", vlog);
	} else {
		ok = ASSERT_ERR(fd, err, what);
	}
	if (fd >= 0)
		close(fd);
	return ok;
}

/* The caller's own certificate in its session keyring: its serial, or -1 */
static key_serial_t session_cert(void)
{
	unsigned char *der;
	key_serial_t key;
	int len;

	len = cert_der("untrusted", &der);
	if (len < 1)
		return -1;
	key = add_key("asymmetric", "bpfsign-ipe-untrusted", der, len, KEY_SPEC_SESSION_KEYRING);
	free(der);
	return key;
}

static int audit_start(void)
{
	int afd = audit_open();

	ASSERT_OK(afd, "register as the audit daemon");
	ASSERT_OK(write_file(IPE_FS "/success_audit", "1", 1), "IPE success auditing");
	return afd;
}

/*
 * The kernel's own loads (CONFIG_BPF_PRELOAD's skeleton, at boot) were
 * admitted by bpf_kernel=TRUE of the boot policy (qemu/ipe-boot.policy),
 * before any user space ran: the boot's kernel log has IPE's record.
 */
TEST_EXPLICIT(ipe_bpf_kernel_load_at_boot)
{
	static const char needle[] = "ipe_op=BPF_PROG_LOAD ipe_hook=BPF_PROG_LOAD enforcing=1 pid=1 ";
	static const char props[] = "bpf_signature=UNSIGNED bpf_keyring=NONE bpf_kernel=TRUE "
		"bpf_loader=NONE rule=\"op=BPF_PROG_LOAD bpf_kernel=TRUE action=ALLOW\"";
	char rec[2048];
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK), found = 0;
	ssize_t n;

	if (!ASSERT_OK(fd, "/dev/kmsg"))
		return;
	while ((n = read(fd, rec, sizeof(rec) - 1)) > 0 || (n < 0 && errno == EPIPE)) {
		if (n <= 0)
			continue;
		rec[n] = 0;
		if (strstr(rec, needle) && strstr(rec, props))
			found++;
	}
	close(fd);
	/* bpf_preload's light skeleton: its loader, then its two iterators */
	ASSERT_EQ(found, 3, "IPE records of the kernel's three preloaded programs, bpf_kernel=TRUE");
}

/* The parser takes the BPF properties in BPF_PROG_LOAD rules only */
TEST_EXPLICIT(ipe_bpf_policy_parse)
{
	ASSERT_OK(ipe_load("signing", "parse_ok", SIGNED_ONLY), "the signed-only policy parses");
	/* a BPF property in a file operation's rule: the op/property check */
	ASSERT_ERR(ipe_load("signing", "parse_exec",
			    "DEFAULT action=ALLOW\nop=EXECUTE bpf_signature=VERIFIED action=ALLOW\n"),
		   EBADMSG, "bpf_signature in an op=EXECUTE rule");
	/* boot_verified=FALSE would be true for every program: the same check */
	ASSERT_ERR(ipe_load("signing", "parse_file",
			    "DEFAULT action=ALLOW\nop=BPF_PROG_LOAD boot_verified=FALSE action=ALLOW\n"),
		   EBADMSG, "a file property in an op=BPF_PROG_LOAD rule");
	/* no such value: the property table */
	ASSERT_ERR(ipe_load("signing", "parse_value",
			    "DEFAULT action=ALLOW\nop=BPF_PROG_LOAD bpf_keyring=ANY action=ALLOW\n"),
		   EBADMSG, "bpf_keyring=ANY");
	ASSERT_ERR(ipe_load("signing", "parse_loader",
			    "DEFAULT action=ALLOW\nop=BPF_PROG_LOAD bpf_loader=UNSIGNED action=ALLOW\n"),
		   EBADMSG, "bpf_loader takes VERIFIED only");
	/* the caller cannot bring its own policy: IPE's signature check */
	ASSERT_TRUE(ipe_load("untrusted", "parse_untrusted", ALLOW_ALL) < 0,
		    "a policy signed by a key the kernel does not trust");
}

/* Unsigned: refused with IPE's -EACCES, and audited */
TEST_EXPLICIT(ipe_bpf_unsigned_denied)
{
	int afd = audit_start(), fd;

	if (!ipe_activate("signed_only", SIGNED_ONLY))
		goto out;
	fd = load_prog(ret0, ARRAY_LEN(ret0), NULL);
	/* nothing else in the load fails: another policy admits it (ipe_bpf_policy_switch) */
	expect_fd(fd, EACCES, "unsigned program under the signed-only policy");
	/* the log line of security_bpf_prog_load()'s refusal names IPE */
	ASSERT_HAS(vlog, "program load refused by security module ipe (", "verifier log names IPE");
	expect_ipe_record(afd, "bpf_signature=UNSIGNED bpf_keyring=NONE bpf_kernel=FALSE "
			  "bpf_loader=NONE " DENIED_BY_DEFAULT, "record of the refused unsigned load");

	/*
	 * An unsigned program bound to the frozen exclusive metadata maps of
	 * a signed one (the same instructions, so the exclusivity check
	 * passes): binding verified objects proves nothing.
	 */
	expect_fd(signed_fixture("signing", BUILTIN), 0, "the signed fixture itself loads");
	expect_ipe_record(afd, "bpf_signature=VERIFIED bpf_keyring=BUILTIN bpf_kernel=FALSE "
			  "bpf_loader=NONE rule=\"op=BPF_PROG_LOAD bpf_signature=VERIFIED "
			  "bpf_keyring=BUILTIN action=ALLOW\"", "record of the signed fixture");
	expect_fd(unsigned_fixture(), EACCES, "unsigned, with fd_array at signed metadata maps");
	expect_ipe_record(afd, "bpf_signature=UNSIGNED bpf_keyring=NONE bpf_kernel=FALSE "
			  "bpf_loader=NONE " DENIED_BY_DEFAULT, "record of the unsigned fd_array load");
out:
	audit_close(afd);
}

/* Builtin (and secondary) keyring signatures are allowed, by their rules */
TEST_EXPLICIT(ipe_bpf_builtin_signed_allowed)
{
	int afd = audit_start();

	if (!ipe_activate("signed_only", SIGNED_ONLY))
		goto out;
	expect_fd(signed_fixture("signing", BUILTIN), 0, "builtin-signed fixture");
	expect_ipe_record(afd, "bpf_signature=VERIFIED bpf_keyring=BUILTIN bpf_kernel=FALSE "
			  "bpf_loader=NONE rule=\"op=BPF_PROG_LOAD bpf_signature=VERIFIED "
			  "bpf_keyring=BUILTIN action=ALLOW\"", "record of the builtin-signed load");
	expect_fd(signed_fixture("signing-ec", SECONDARY), 0, "ECDSA, keyring_id 1");
	expect_ipe_record(afd, "bpf_signature=VERIFIED bpf_keyring=SECONDARY bpf_kernel=FALSE "
			  "bpf_loader=NONE rule=\"op=BPF_PROG_LOAD bpf_signature=VERIFIED "
			  "bpf_keyring=SECONDARY action=ALLOW\"", "record of the keyring_id 1 load");

	/* the kit's skeletons: gen-loader's and bpftool's (upstream's form) */
	skel_counter_counts("gen-loader's signed skeleton under the signed-only policy");
	{
		struct skel_counter_bt *bt = skel_counter_bt__open();

		if (ASSERT_TRUE(bt, "open bpftool-signed skeleton")) {
			ASSERT_EQ(skel_counter_bt__load(bt), 0,
				  "bpftool-signed skeleton under the signed-only policy");
			skel_counter_bt__destroy(bt);
		}
	}
out:
	audit_close(afd);
}

/*
 * A signature that verified against a keyring of the caller is USER: a
 * rule for it decides, and no system keyring rule admits it, however the
 * caller names its keyring.
 */
TEST_EXPLICIT(ipe_bpf_user_keyring)
{
	int afd = audit_start();
	key_serial_t key = session_cert(), builtin;

	if (!ASSERT_GE(key, 1, "untrusted.crt into the session keyring"))
		goto out;
	if (!ipe_activate("signed_only", SIGNED_ONLY))
		goto out;
	/* verifies against the session keyring; refused by the keyring rules */
	expect_fd(signed_fixture("untrusted", KEY_SPEC_SESSION_KEYRING), EACCES,
		  "session-key signature under the signed-only policy");
	expect_ipe_record(afd, "bpf_signature=VERIFIED bpf_keyring=USER bpf_kernel=FALSE "
			  "bpf_loader=NONE " DENIED_BY_DEFAULT, "record of the session-key load");

	/*
	 * The builtin keyring named by its serial, not by keyring_id 0: the
	 * signature does verify against it, but keyring_type is derived from
	 * keyring_id, so it is USER and BUILTIN does not match.
	 */
	builtin = find_key_by_type_and_desc("keyring", ".builtin_trusted_keys", 0);
	if (ASSERT_GE(builtin, 1, ".builtin_trusted_keys in /proc/keys")) {
		expect_fd(signed_fixture("signing", builtin), EACCES,
			  "builtin keyring by serial: not a system keyring id");
		expect_ipe_record(afd, "bpf_signature=VERIFIED bpf_keyring=USER bpf_kernel=FALSE "
				  "bpf_loader=NONE " DENIED_BY_DEFAULT,
				  "record of the load against the builtin keyring's serial");
	}
	/* user space cannot make a keyring named like a system one */
	ASSERT_ERR(add_key("keyring", ".builtin_trusted_keys", NULL, 0, KEY_SPEC_SESSION_KEYRING),
		   EPERM, "a caller keyring named .builtin_trusted_keys");

	/* a policy that trusts caller keyrings admits it, by bpf_keyring=USER */
	if (ipe_activate("user_keys", SIGNED_ONLY
			 "op=BPF_PROG_LOAD bpf_signature=VERIFIED bpf_keyring=USER action=ALLOW\n")) {
		expect_fd(signed_fixture("untrusted", KEY_SPEC_SESSION_KEYRING), 0,
			  "session-key signature with a bpf_keyring=USER rule");
		expect_ipe_record(afd, "bpf_signature=VERIFIED bpf_keyring=USER bpf_kernel=FALSE "
				  "bpf_loader=NONE rule=\"op=BPF_PROG_LOAD bpf_signature=VERIFIED "
				  "bpf_keyring=USER action=ALLOW\"", "record of the admitted session-key load");
		/* the signed skeleton whose header names the session keyring */
		{
			struct skel_counter_untrusted *u = skel_counter_untrusted__open();

			if (ASSERT_TRUE(u, "open session-keyring skeleton")) {
				/* its loader is USER-signed; its child has no USER loader rule */
				ASSERT_EQ(skel_counter_untrusted__load(u), -EACCES,
					  "session-keyring skeleton: the loader loads, its child does not");
				skel_counter_untrusted__destroy(u);
			}
		}
	}
out:
	if (key > 0)
		keyctl_unlink(key, KEY_SPEC_SESSION_KEYRING);
	audit_close(afd);
}

/*
 * Loaders' children: admitted by bpf_loader=VERIFIED with the loader's
 * keyring, and by nothing else. bpf_kernel=TRUE, though the LSM hook's
 * "kernel" is true for every bpf_sys_bpf() load, admits none of them.
 */
TEST_EXPLICIT(ipe_bpf_loader_children)
{
	int afd = audit_start(), builtin = -1, user = -1;
	struct mini_loader *mini = NULL;
	key_serial_t key = session_cert();

	/* the loaders, loaded while BPF is allowed */
	if (!ipe_activate("allow_all", ALLOW_ALL))
		goto out;
	builtin = load_signed_loader("signing", BUILTIN);
	user = load_signed_loader("untrusted", KEY_SPEC_SESSION_KEYRING);
	mini = mini_loader__open_and_load();
	if (!ASSERT_OK(builtin, "builtin-signed loader") ||
	    !ASSERT_OK(user, "session-key-signed loader") || !ASSERT_TRUE(mini, "mini loader"))
		goto out;

	if (!ipe_activate("signed_only", SIGNED_ONLY))
		goto out;
	expect_fd(loader_run(builtin), 0, "builtin-signed loader's child");
	expect_ipe_record(afd, "bpf_signature=UNSIGNED bpf_keyring=BUILTIN bpf_kernel=FALSE "
			  "bpf_loader=VERIFIED rule=\"op=BPF_PROG_LOAD bpf_loader=VERIFIED "
			  "bpf_keyring=BUILTIN action=ALLOW\"", "record of the verified loader's child");
	/* the loader rules name system keyrings only */
	expect_fd(loader_run(user), EACCES, "session-key-signed loader's child");
	expect_ipe_record(afd, "bpf_signature=UNSIGNED bpf_keyring=USER bpf_kernel=FALSE "
			  "bpf_loader=VERIFIED " DENIED_BY_DEFAULT,
			  "record of the session-key loader's child");
	/* user space chose this loader: its children are no kernel load */
	expect_fd(mini_loader_run(mini), EACCES, "unsigned loader's child");
	expect_ipe_record(afd, "bpf_signature=UNSIGNED bpf_keyring=NONE bpf_kernel=FALSE "
			  "bpf_loader=UNSIGNED " DENIED_BY_DEFAULT, "record of the unsigned loader's child");

	/* only their property admits them: without the loader rules ... */
	if (!ipe_activate("no_loader_rules", DENY_BPF
			  "op=BPF_PROG_LOAD bpf_signature=VERIFIED bpf_keyring=BUILTIN action=ALLOW\n"
			  "op=BPF_PROG_LOAD bpf_kernel=TRUE action=ALLOW\n"))
		goto out;
	expect_fd(load_signed_loader("signing", BUILTIN), 0, "the builtin-signed loader itself");
	expect_fd(loader_run(builtin), EACCES, "its child, without a bpf_loader rule");
	expect_ipe_record(afd, "bpf_signature=UNSIGNED bpf_keyring=BUILTIN bpf_kernel=FALSE "
			  "bpf_loader=VERIFIED " DENIED_BY_DEFAULT, "record of the child refused");
	/* ... and bpf_kernel=TRUE does not stand in for them */
	expect_fd(mini_loader_run(mini), EACCES, "unsigned loader's child under bpf_kernel=TRUE");
	expect_ipe_record(afd, "bpf_kernel=FALSE bpf_loader=UNSIGNED " DENIED_BY_DEFAULT,
			  "record: a bpf_sys_bpf() load is no kernel load");

	/* a rule that trusts the caller's keyrings says so: then the USER-signed loader's child */
	if (!ipe_activate("any_loader", DENY_BPF
			  "op=BPF_PROG_LOAD bpf_loader=VERIFIED bpf_keyring=USER action=ALLOW\n"))
		goto out;
	expect_fd(loader_run(user), 0, "session-key loader's child by bpf_loader=VERIFIED bpf_keyring=USER");
	expect_fd(mini_loader_run(mini), EACCES, "unsigned loader's child still refused");
out:
	if (builtin >= 0)
		close(builtin);
	if (user >= 0)
		close(user);
	mini_loader__destroy(mini);
	if (key > 0)
		keyctl_unlink(key, KEY_SPEC_SESSION_KEYRING);
	audit_close(afd);
}

/* DEFAULT op=BPF_PROG_LOAD action=DENY and no rule: nothing loads */
TEST_EXPLICIT(ipe_bpf_default_deny)
{
	int afd = audit_start(), builtin = -1;

	if (!ipe_activate("allow_all", ALLOW_ALL))
		goto out;
	builtin = load_signed_loader("signing", BUILTIN);
	if (!ASSERT_OK(builtin, "builtin-signed loader, while BPF is allowed"))
		goto out;
	if (!ipe_activate("deny_bpf", DENY_BPF))
		goto out;
	expect_fd(load_prog(ret0, ARRAY_LEN(ret0), NULL), EACCES, "unsigned");
	expect_ipe_record(afd, "bpf_signature=UNSIGNED bpf_keyring=NONE bpf_kernel=FALSE "
			  "bpf_loader=NONE " DENIED_BY_DEFAULT, "record of the unsigned load");
	expect_fd(signed_fixture("signing", BUILTIN), EACCES, "builtin-signed");
	expect_ipe_record(afd, "bpf_signature=VERIFIED bpf_keyring=BUILTIN bpf_kernel=FALSE "
			  "bpf_loader=NONE " DENIED_BY_DEFAULT, "record of the builtin-signed load");
	expect_fd(loader_run(builtin), EACCES, "a verified loader's child");
	expect_ipe_record(afd, "bpf_signature=UNSIGNED bpf_keyring=BUILTIN bpf_kernel=FALSE "
			  "bpf_loader=VERIFIED " DENIED_BY_DEFAULT, "record of the child");
	ASSERT_TRUE(!skel_counter__open_and_load(), "the signed skeleton is refused");
out:
	if (builtin >= 0)
		close(builtin);
	audit_close(afd);
}

/* A new policy, activated or updated at run time, decides the next load */
TEST_EXPLICIT(ipe_bpf_policy_switch)
{
	int afd = audit_start();

	if (!ipe_activate("signed_only", SIGNED_ONLY))
		goto out;
	expect_fd(load_prog(ret0, ARRAY_LEN(ret0), NULL), EACCES, "unsigned, signed-only policy");
	if (!ipe_activate("allow_all", ALLOW_ALL))
		goto out;
	expect_fd(load_prog(ret0, ARRAY_LEN(ret0), NULL), 0, "unsigned, another policy activated");
	expect_ipe_record(afd, "bpf_signature=UNSIGNED bpf_keyring=NONE bpf_kernel=FALSE "
			  "bpf_loader=NONE rule=\"DEFAULT action=ALLOW\"",
			  "record of the load the global default allows");
	expect_fd(unsigned_fixture(), 0, "unsigned with signed metadata maps, allowed");
	/* the active policy updated in place */
	if (!ASSERT_OK(ipe_load("signing", "allow_all", DENY_BPF), "update the active policy"))
		goto out;
	expect_fd(load_prog(ret0, ARRAY_LEN(ret0), NULL), EACCES, "unsigned, after the update");
	expect_fd(signed_fixture("signing", BUILTIN), EACCES, "signed, after the update");
	if (!ipe_activate("signed_only", SIGNED_ONLY))
		goto out;
	expect_fd(signed_fixture("signing", BUILTIN), 0, "signed, signed-only policy again");
out:
	audit_close(afd);
}

/*
 * Not a property, but what an attacker with root does instead: IPE's
 * permissive mode (securityfs, CAP_MAC_ADMIN) lets the load through and
 * only audits it. Pinned so that the docs' advice (raise bpf_sig_enforce
 * where root must not undo enforcement) stays true to the kernel.
 */
TEST_EXPLICIT(ipe_bpf_permissive_mode)
{
	int afd = audit_start();
	char rec[2048];

	if (!ipe_activate("signed_only", SIGNED_ONLY))
		goto out;
	if (!ASSERT_OK(write_file(IPE_FS "/enforce", "0", 1), "IPE permissive"))
		goto out;
	expect_fd(load_prog(ret0, ARRAY_LEN(ret0), NULL), 0, "unsigned, IPE permissive");
	if (ASSERT_OK(audit_find_type(afd, AUDIT_IPE_ACCESS, "bpf_signature=UNSIGNED bpf_keyring=NONE "
				      "bpf_kernel=FALSE bpf_loader=NONE " DENIED_BY_DEFAULT,
				      rec, sizeof(rec), 2000), "record of the load let through"))
		ASSERT_HAS(rec, "ipe_op=BPF_PROG_LOAD ipe_hook=BPF_PROG_LOAD enforcing=0",
			   "the record says IPE did not enforce");
	ASSERT_OK(write_file(IPE_FS "/enforce", "1", 1), "IPE enforcing again");
	expect_fd(load_prog(ret0, ARRAY_LEN(ret0), NULL), EACCES, "unsigned, IPE enforcing");
out:
	audit_close(afd);
}

/*
 * The signed-only IPE policy against kernel.bpf_sig_enforce=1 over the
 * signed-load cases the other guest tests make: both admit the same loads.
 * The refusals differ in errno only where the policy refuses (IPE -EACCES,
 * enforcement -EPERM); a load that fails before either decides fails alike.
 */
static int builtin_loader = -1, user_loader = -1;
static struct mini_loader *mini;
static key_serial_t builtin_serial;

static int case_unsigned(void) { return unsigned_fixture(); }
static int case_builtin(void) { return signed_fixture("signing", BUILTIN); }
static int case_secondary(void) { return signed_fixture("signing", SECONDARY); }
static int case_ec(void) { return signed_fixture("signing-ec", BUILTIN); }
static int case_team(void) { return signed_fixture("team", SECONDARY); }
static int case_session(void) { return signed_fixture("untrusted", KEY_SPEC_SESSION_KEYRING); }
static int case_untrusted_builtin(void) { return signed_fixture("untrusted", BUILTIN); }
static int case_builtin_serial(void) { return signed_fixture("signing", builtin_serial); }
static int case_raw(void)
{
	int fd = load_prog(ret0, ARRAY_LEN(ret0), NULL);

	return fd < 0 ? -errno : fd;
}

static int case_loader_builtin(void) { return load_signed_loader("signing", BUILTIN); }
static int case_loader_session(void)
{
	return load_signed_loader("untrusted", KEY_SPEC_SESSION_KEYRING);
}

static int case_child_builtin(void) { return loader_run(builtin_loader); }
static int case_child_session(void) { return loader_run(user_loader); }
static int case_child_unsigned(void) { return mini_loader_run(mini); }

#define SKEL_CASE(name)							\
	static int case_##name(void)					\
	{								\
		struct name *s = name##__open();			\
		int err;						\
									\
		if (!s)							\
			return -ENOMEM;					\
		err = name##__load(s);					\
		name##__destroy(s);					\
		return err ? err : 0;					\
	}
SKEL_CASE(skel_counter)
SKEL_CASE(skel_counter_bt)
SKEL_CASE(skel_counter_untrusted)

static int case_mini_loader(void)
{
	struct mini_loader *m = mini_loader__open_and_load();
	int err = m ? 0 : -errno;

	mini_loader__destroy(m);
	return err;
}

static const struct {
	const char *name;
	int (*run)(void);
	bool admit;	/* what a signed-only policy must do */
} cases[] = {
	{ "raw unsigned program", case_raw, false },
	{ "unsigned fixture on signed metadata maps", case_unsigned, false },
	{ "fixture, builtin", case_builtin, true },
	{ "fixture, keyring_id 1 (secondary)", case_secondary, true },
	{ "fixture, ECDSA, builtin", case_ec, true },
	{ "fixture, team key (not enrolled), keyring_id 1", case_team, false },
	{ "fixture, session keyring", case_session, false },
	{ "fixture, untrusted key against builtin", case_untrusted_builtin, false },
	{ "fixture, builtin keyring by its serial", case_builtin_serial, false },
	{ "signed loader, builtin", case_loader_builtin, true },
	{ "signed loader, session keyring", case_loader_session, false },
	{ "child of the builtin-signed loader", case_child_builtin, true },
	{ "child of the session-key-signed loader", case_child_session, false },
	{ "child of the unsigned mini loader", case_child_unsigned, false },
	{ "unsigned mini loader (libbpf skeleton)", case_mini_loader, false },
	{ "gen-loader skeleton, builtin", case_skel_counter, true },
	{ "bpftool-signed skeleton, builtin", case_skel_counter_bt, true },
	{ "gen-loader skeleton, session keyring", case_skel_counter_untrusted, false },
};

static void run_cases(int *res)
{
	unsigned int i;

	for (i = 0; i < ARRAY_LEN(cases); i++) {
		res[i] = cases[i].run();
		if (res[i] >= 0) {
			/* skeleton cases return 0 and hold no fd */
			if (res[i] > 2)
				close(res[i]);
			res[i] = 0;
		}
	}
}

TEST_EXPLICIT(ipe_vs_sig_enforce)
{
	int ipe[ARRAY_LEN(cases)], enf[ARRAY_LEN(cases)], admitted = 0, refused = 0;
	key_serial_t key = session_cert();
	unsigned int i;

	builtin_serial = find_key_by_type_and_desc("keyring", ".builtin_trusted_keys", 0);
	if (!ASSERT_GE(key, 1, "untrusted.crt into the session keyring") ||
	    !ASSERT_GE(builtin_serial, 1, ".builtin_trusted_keys") ||
	    !ipe_activate("allow_all", ALLOW_ALL))
		goto out;
	builtin_loader = load_signed_loader("signing", BUILTIN);
	user_loader = load_signed_loader("untrusted", KEY_SPEC_SESSION_KEYRING);
	mini = mini_loader__open_and_load();
	if (!ASSERT_OK(builtin_loader, "builtin-signed loader") ||
	    !ASSERT_OK(user_loader, "session-key-signed loader") || !ASSERT_TRUE(mini, "mini loader"))
		goto out;

	if (!ipe_activate("signed_only", SIGNED_ONLY))
		goto out;
	run_cases(ipe);

	if (!ipe_activate("allow_all", ALLOW_ALL) ||
	    !ASSERT_OK(sysctl_write("/proc/sys/kernel/bpf_sig_enforce", "1", NULL, 0),
		       "raise kernel.bpf_sig_enforce"))
		goto out;
	run_cases(enf);

	for (i = 0; i < ARRAY_LEN(cases); i++) {
		printf("#   %-48s IPE %-14s bpf_sig_enforce %s\n", cases[i].name,
		       ipe[i] ? strerrorname_np(-ipe[i]) : "admitted",
		       enf[i] ? strerrorname_np(-enf[i]) : "admitted");
		ASSERT_EQ(!ipe[i], cases[i].admit, cases[i].name);
		if (!ASSERT_EQ(!ipe[i], !enf[i], cases[i].name))
			continue;
		if (!ipe[i]) {
			admitted++;
		} else {
			refused++;
			/* the policy's refusal, or the same earlier failure */
			if (ipe[i] == -EACCES)
				ASSERT_EQ(enf[i], -EPERM, cases[i].name);
			else
				ASSERT_EQ(enf[i], ipe[i], cases[i].name);
		}
	}
	/* the set has both sides: neither policy admits or refuses all */
	ASSERT_EQ(admitted + refused, ARRAY_LEN(cases), "every case compared");
	ASSERT_GE(admitted, 1, "loads both admit");
	ASSERT_GE(refused, 1, "loads both refuse");
out:
	if (builtin_loader >= 0)
		close(builtin_loader);
	if (user_loader >= 0)
		close(user_loader);
	mini_loader__destroy(mini);
	if (key > 0)
		keyctl_unlink(key, KEY_SPEC_SESSION_KEYRING);
}

/*
 * The second review's proofs (attack_*), kept as regression tests: each
 * asserts the property its bypass broke. In the guest-ipe boot, first,
 * while the boot policy is active: the verifier's refusals before any
 * signed-only policy, and the boot policy one before the suite's own
 * policies (the signed-only example is version 1.0.0, above the boot
 * policy and below the suite's 1.0.N ones).
 */

/* Run a syscall program without ctx: its return value or -errno */
static int run_syscall_prog(int fd)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts);

	if (bpf_prog_test_run_opts(fd, &opts))
		return -errno;
	return opts.retval;
}

/* The verifier's refusal of a bpf() helper in an async callback */
static void expect_async_refused(int err, const char *log, const char *what)
{
	ASSERT_EQ(err, -EINVAL, what);
	ASSERT_HAS(log, "cannot be called from an async callback", what);
}

/*
 * Attacker: a CAP_BPF holder with one unsigned syscall program loaded
 * before the signed-only policy was activated (or under any policy that
 * admits one). Its bpf_wq callback ran in a kworker, where
 * current->bpf_ctx is NULL: a bpf_sys_bpf(BPF_PROG_LOAD) there had no
 * loader and counted as the kernel's own load (bpf_kernel=TRUE, and
 * bpf_sig_enforce's exemption). Pins: the verifier refuses bpf_sys_bpf()
 * in an async callback, so no such program loads.
 */
TEST_EXPLICIT(attack_ipe_wq_kernel_load)
{
	struct wq_loader *skel = wq_loader__open();
	char log[16384] = "";

	if (!ASSERT_TRUE(skel, "open wq_loader"))
		return;
	bpf_program__set_log_buf(skel->progs.start, log, sizeof(log));
	expect_async_refused(wq_loader__load(skel), log, "bpf_sys_bpf() in a bpf_wq callback");
	wq_loader__destroy(skel);
}

static int grab_with_token(int token_fd, void *arg)
{
	LIBBPF_OPTS(bpf_object_open_opts, opts);
	__u32 id = *(__u32 *)arg;
	struct wq_loader *skel;
	char path[64];
	int fd, i, rc;

	/* the token grants no capable(CAP_SYS_ADMIN): no map by id */
	fd = bpf_map_get_fd_by_id(id);
	printf("#   token holder's own BPF_MAP_GET_FD_BY_ID: %d (errno %d)\n", fd, errno);
	if (fd >= 0 || errno != EPERM)
		return 10;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", token_bpffs_fd);
	opts.bpf_token_path = path;
	skel = wq_loader__open_opts(&opts);
	if (!skel)
		return 11;
	if (wq_loader__load(skel)) {
		wq_loader__destroy(skel);
		return 12;
	}
	skel->bss->mode = 1;
	skel->bss->victim_id = id;
	rc = run_syscall_prog(bpf_program__fd(skel->progs.start));
	for (i = 0; i < 500 && !*(volatile int *)&skel->bss->wq_done; i++)
		usleep(10000);
	printf("#   queue %d, callback ran %d, its GET_FD_BY_ID + UPDATE_ELEM: %d\n",
	       rc, skel->bss->wq_done, skel->data->grab_ret);
	fflush(stdout);
	rc = skel->data->grab_ret == 0 ? 0 : 13;
	wq_loader__destroy(skel);
	return rc;
}

/*
 * Attacker: root of a user namespace with a BPF token (no capability in
 * the init namespace). Its syscall program's bpf_wq callback runs in a
 * kworker with init_cred: its bpf_sys_bpf() passes capable() checks the
 * caller fails, e.g. BPF_MAP_GET_FD_BY_ID of init root's map, and writes
 * it. Pins: a program's bpf_sys_bpf() acts with its caller's rights.
 */
TEST_EXPLICIT(attack_token_wq_init_creds)
{
	struct bpf_map_info info = {};
	__u32 len = sizeof(info), key = 0;
	__u64 val = 7;
	int map, rc;

	if (!ipe_activate("allow_all", ALLOW_ALL))
		return;
	map = bpf_map_create(BPF_MAP_TYPE_ARRAY, "victim", 4, 8, 1, NULL);
	if (!ASSERT_OK(map, "init root's map") ||
	    !ASSERT_OK(bpf_map_update_elem(map, &key, &val, 0), "its value 7") ||
	    !ASSERT_OK(bpf_map_get_info_by_fd(map, &info, &len), "its id"))
		return;
	rc = run_with_token(grab_with_token, &info.id);
	printf("#   token holder's run: %d\n", rc);
	/* 12: its program, bpf_sys_bpf() in a bpf_wq callback, does not load */
	ASSERT_EQ(rc, 12, "the token holder's program refused by the verifier");
	ASSERT_OK(bpf_map_lookup_elem(map, &key, &val), "read it back");
	printf("#   init root's map now holds 0x%llx\n", (unsigned long long)val);
	ASSERT_EQ(val, 7, "init root's map unchanged by the token holder");
	close(map);
}

/*
 * Attacker: a CAP_BPF holder (here under a policy that admits its
 * program). libbpf loads "syscall" programs sleepable, so the verifier
 * lets their bpf_timer callback, which runs in softirq context, call
 * bpf_sys_bpf(): the load runs atomically, as the interrupted task (its
 * creds, fd table and bpf_ctx, e.g. a verified loader's run). Pins: a
 * non-sleepable async callback cannot call bpf_sys_bpf(). Today the load
 * BUG()s in vmalloc from softirq and panics the guest: run it alone.
 */
TEST_EXPLICIT(attack_timer_softirq_load)
{
	struct timer_loader *skel = timer_loader__open();
	char log[16384] = "";

	if (!ASSERT_TRUE(skel, "open timer_loader"))
		return;
	bpf_program__set_log_buf(skel->progs.start, log, sizeof(log));
	expect_async_refused(timer_loader__load(skel), log, "bpf_sys_bpf() in a bpf_timer callback");
	timer_loader__destroy(skel);
}

/*
 * Attacker: root without the IPE policy key, IPE enforcing. The kit's
 * boot policy (qemu/ipe-boot.policy: bpfsign_boot 0.0.1, DEFAULT
 * action=ALLOW) stays loaded, and ipe.rst's signed-only example is
 * policy_version=0.0.1 too: root re-activates the boot policy, which IPE
 * allows at an equal version, and loads unsigned programs without
 * switching IPE to permissive mode. Pins: the signed-only policy as
 * documented cannot be replaced by the allow-all boot policy.
 */
TEST_EXPLICIT(attack_ipe_boot_policy_reactivate)
{
	static const char text[] = "policy_name=Signed_BPF_Only policy_version=1.0.0\n"
		SIGNED_ONLY;
	unsigned char *p7;
	int len, err;

	len = cms_sign_attached("signing", text, strlen(text), &p7);
	if (!ASSERT_GE(len, 1, "sign ipe.rst's example policy"))
		return;
	err = write_file(IPE_FS "/new_policy", p7, len);
	free(p7);
	if (!ASSERT_OK(err, "load it") ||
	    !ASSERT_OK(write_file(IPE_FS "/policies/Signed_BPF_Only/active", "1", 1),
		       "activate it"))
		return;
	expect_fd(load_prog(ret0, ARRAY_LEN(ret0), NULL), EACCES, "unsigned, example policy");
	err = write_file(IPE_FS "/policies/bpfsign_boot/active", "1", 1);
	printf("#   root re-activates the boot policy: %d\n", err);
	expect_fd(load_prog(ret0, ARRAY_LEN(ret0), NULL), EACCES,
		  "unsigned, after root wrote bpfsign_boot/active");
}

/*
 * Attacker: any CAP_BPF holder (no key of any system keyring). A policy
 * that reads naturally as signed-only, "bpf_signature=VERIFIED" (or
 * "bpf_loader=VERIFIED") without bpf_keyring, is satisfied by a signature
 * the caller made with its own key in its session keyring: the verdict is
 * VERIFIED whatever keyring the caller named. Pins: bpf_signature=VERIFIED
 * names no signature the caller controls (the keyring rule).
 */
TEST_EXPLICIT(attack_ipe_verified_alone)
{
	/* an allow rule on a verdict must name the keyrings it trusts */
	ASSERT_EQ(ipe_load("signing", "verified_alone", DENY_BPF
			   "op=BPF_PROG_LOAD bpf_signature=VERIFIED action=ALLOW\n"),
		  -EBADMSG, "bpf_signature=VERIFIED without bpf_keyring refused");
	/* the same for a loader's verdict */
	ASSERT_EQ(ipe_load("signing", "loader_alone", DENY_BPF
			   "op=BPF_PROG_LOAD bpf_loader=VERIFIED action=ALLOW\n"),
		  -EBADMSG, "bpf_loader=VERIFIED without bpf_keyring refused");
	/* a deny rule on the verdict alone narrows, and parses */
	ASSERT_OK(ipe_load("signing", "verified_deny", DENY_BPF
			   "op=BPF_PROG_LOAD bpf_signature=VERIFIED action=DENY\n"),
		  "a deny rule on bpf_signature=VERIFIED alone");
	/* trusting the caller's keyrings is said in so many words */
	ASSERT_OK(ipe_load("signing", "verified_user", DENY_BPF
			   "op=BPF_PROG_LOAD bpf_signature=VERIFIED bpf_keyring=USER action=ALLOW\n"),
		  "bpf_signature=VERIFIED bpf_keyring=USER");
}

