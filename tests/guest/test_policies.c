// SPDX-License-Identifier: GPL-2.0
/*
 * The BPF LSM policies of policies/, loaded and pinned by the CLI
 * (/tests/bpfsign-policy) so that they enforce after it exits; then each
 * policy's allow/deny matrix, checked with loads of this process:
 *
 *   unsigned      a socket filter without signature
 *   syscall       an unsigned program of another type (unsigned allow type)
 *   builtin       skel_counter: loader signed by signing.key, builtin keyring,
 *                 then its child loaded by the VERIFIED loader
 *   session       skel_counter_untrusted: signed by untrusted.key, verified by
 *                 this session's keyring (the certificate is enrolled into it)
 *   untrusted/0   the same header against the builtin keyring: -ENOKEY at the
 *                 signature check, before any LSM sees the load
 *   mini child    the child of the unsigned mini loader (loaded before the
 *                 policy: with deny-unsigned attached it could not load)
 *   tampered      skel_counter_bad_signature: -EKEYREJECTED before the LSM
 *
 * The tests are explicit: an attached policy changes what every later
 * test may load, so they run in boots of their own (boots() in
 * scripts/run-tests.sh).  Each one unloads every policy before and after
 * it, also when an assertion failed.
 */
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <unistd.h>
#include <linux/capability.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <grp.h>
#include <keyutils.h>
#include <linux/types.h>
#include <bpf/bpf.h>

#include "runner.h"
#include "util.h"
#include "policy_fixture.h"
#include "sign.h"
#include "signed.h"
#include "loader.h"
#include "token.h"
#include "mini_loader.skel.h"
#include "iter_write_value.skel.h"
#include "skel_counter.lskel.h"
#include "skel_counter_untrusted.lskel.h"
#include "skel_counter_bad_signature.lskel.h"

#define POLICY_FILE	"/tmp/test.policy"

static const struct bpf_insn ret0[] = { MOV64_IMM(BPF_REG_0, 0), EXIT_INSN() };

/* the policy file of the test, written whole */
static int write_policy(const char *text)
{
	return policy_write_file(POLICY_FILE, text);
}

/* --- the loads of the matrix: 0 or -errno ------------------------------- */

static int try_unsigned(void)
{
	int fd = load_prog(ret0, ARRAY_LEN(ret0), NULL);

	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

static int try_builtin(void)
{
	struct skel_counter *s = skel_counter__open();
	int err;

	if (!s)
		return -ENOMEM;
	err = skel_counter__load(s);
	skel_counter__destroy(s);
	return err;
}

static int try_session(void)
{
	struct skel_counter_untrusted *s = skel_counter_untrusted__open();
	int err;

	if (!s)
		return -ENOMEM;
	err = skel_counter_untrusted__load(s);	/* keyring -3: the session's */
	skel_counter_untrusted__destroy(s);
	return err;
}

static int try_untrusted_builtin(void)
{
	struct skel_counter_untrusted *s = skel_counter_untrusted__open();
	int err;

	if (!s)
		return -ENOMEM;
	err = skel_counter_untrusted__load_keyring(s, 0);
	skel_counter_untrusted__destroy(s);
	return err;
}

static int try_tampered(void)
{
	struct skel_counter_bad_signature *s = skel_counter_bad_signature__open();
	int err;

	if (!s)
		return -ENOMEM;
	err = skel_counter_bad_signature__load(s);
	skel_counter_bad_signature__destroy(s);
	return err;
}

/* The unsigned mini loader's child: 0 or -errno (errno set too). */
static int try_mini_child(struct mini_loader *ml)
{
	int fd = mini_loader_run(ml);

	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

/* --- fixtures ------------------------------------------------------------ */

struct fixture {
	struct mini_loader *ml;
	key_serial_t key;
	key_serial_t session;
};

/* Before any policy: the unsigned mini loader (libbpf probes and loads it
 * unsigned) and untrusted.crt in this session's keyring (not once .bpf
 * is active, sealed with keys, which refuses caller keyrings).
 */
static bool setup_session(struct fixture *f, bool session)
{
	unsigned char *der = NULL;
	int len;

	memset(f, 0, sizeof(*f));
	policy_unload_all();
	f->ml = mini_loader__open_and_load();
	if (!ASSERT_TRUE(f->ml, "unsigned mini loader, before any policy"))
		return false;
	ASSERT_EQ(try_unsigned(), 0, "no policy: unsigned load");
	if (!session)
		return !test_failed();
	len = cert_der("untrusted", &der);
	if (!ASSERT_GE(len, 1, "DER of /tests/keys/untrusted.crt"))
		return false;
	f->key = add_key("asymmetric", "policies-untrusted", der, len, KEY_SPEC_SESSION_KEYRING);
	free(der);
	if (!ASSERT_OK(f->key, "add_key asymmetric into the session keyring"))
		return false;
	f->session = keyctl_get_keyring_ID(KEY_SPEC_SESSION_KEYRING, 0);
	/* the baseline: without a policy every load of the matrix passes */
	ASSERT_EQ(try_session(), 0, "no policy: session-keyring skeleton");
	return !test_failed();
}

static bool setup(struct fixture *f)
{
	return setup_session(f, true);
}

static void teardown(struct fixture *f)
{
	policy_unload_all();
	mini_loader__destroy(f->ml);
	if (f->key > 0) {
		ASSERT_OK(keyctl_revoke(f->key), "keyctl revoke");
		ASSERT_OK(keyctl_unlink(f->key, KEY_SPEC_SESSION_KEYRING), "keyctl unlink");
	}
	/* nothing attached any more: unsigned loads pass again */
	ASSERT_EQ(try_unsigned(), 0, "after unload: unsigned load");
}

/* The loads that fail before the LSM hook, whatever the policy. */
static void pre_lsm_failures(void)
{
	/* no key of the builtin keyring names untrusted.key: pkcs7 finds none
	 * and bpf_check() returns before security_bpf_prog_load()
	 */
	ASSERT_ERR(try_untrusted_builtin(), ENOKEY, "untrusted key, builtin keyring");
	/* the signature value does not verify: also before the LSM hook */
	ASSERT_ERR(try_tampered(), EKEYREJECTED, "tampered signature");
}

/* --- deny-unsigned --------------------------------------------------------- */

static int flood_as_cap_bpf_n(int loads);

TEST_EXPLICIT(policy_deny_unsigned)
{
	struct fixture f;

	if (!setup(&f))
		goto out;
	if (!POLICY_CLI_OK("load deny-unsigned", "load", "deny-unsigned"))
		goto out;
	/* the CLI has exited: what follows is enforced by the pinned link */
	ASSERT_HAS(policy_out, "deny-unsigned: loaded, pinned in " POLICY_PIN_DIR "/deny-unsigned",
		   "load output");

	/* the same load passed in setup(): only the policy refuses it */
	ASSERT_ERR(try_unsigned(), EPERM, "unsigned load");
	/* the refusal's log line names the BPF LSM and the policy's program */
	ASSERT_HAS(vlog, "program load refused by security module bpf (-EPERM)\n"
		   "BPF LSM programs on bpf_prog_load: deny_unsigned (id ", "verifier log names the policy");
	skel_counter_counts("builtin-signed skeleton and its child");
	/* any keyring the kernel accepts: deny-unsigned does not look at it */
	ASSERT_EQ(try_session(), 0, "session-keyring skeleton");
	/* the loader is UNSIGNED, so its child is refused like any unsigned load */
	ASSERT_ERR(try_mini_child(f.ml), EPERM, "unsigned loader's child");
	pre_lsm_failures();
	ASSERT_TRUE(!mini_loader__open_and_load(), "a new unsigned loader is refused");

	if (POLICY_CLI_OK("status", "status")) {
		ASSERT_HAS(policy_out, "deny-unsigned: loaded", "status");
		ASSERT_HAS(policy_out, "link_deny_unsigned: link ", "status lists the link");
		ASSERT_HAS(policy_out, "keyring-allowlist: not loaded", "status of the others");
	}
	/* its own log: the refusals */
	if (POLICY_CLI_OK("log deny-unsigned", "log", "deny-unsigned")) {
		ASSERT_HAS(policy_out, "\"decision\":\"deny\",\"stage\":\"lsm\",\"errno\":1,\"error\":\"EPERM\"",
			   "deny-unsigned logs its denials");
		ASSERT_HAS(policy_out, "\"prog_type\":\"socket_filter\",\"signed\":false", "the unsigned load");
	}
	/* a second load replaces the first (make-before-break), still enforcing */
	if (POLICY_CLI_OK("load twice", "load", "deny-unsigned"))
		ASSERT_HAS(policy_out, "deny-unsigned: replaced, pinned in", "load says it replaced");
	ASSERT_ERR(try_unsigned(), EPERM, "unsigned load after the replace");
	/* program names and ids are for CAP_SYS_ADMIN, as BPF_PROG_GET_NEXT_ID */
	ASSERT_EQ(flood_as_cap_bpf_n(-1), 0, "a CAP_BPF caller's log hides the programs");
out:
	teardown(&f);
}

/* --- keyring-allowlist ----------------------------------------------------- */

/* The writing bpf_map_elem iterator attached to keyring-allowlist's pinned
 * map NAME: 0 or -errno.  The link is destroyed at once, never read, so the
 * iterator never runs.
 */
static int iter_write_attach(struct iter_write_value *it, const char *name)
{
	union bpf_iter_link_info linfo = {};
	LIBBPF_OPTS(bpf_iter_attach_opts, opts, .link_info = &linfo,
		    .link_info_len = sizeof(linfo));
	struct bpf_link *link;
	char path[128];
	int fd, err;

	snprintf(path, sizeof(path), POLICY_PIN_DIR "/keyring-allowlist/%s", name);
	fd = bpf_obj_get(path);
	if (fd < 0)
		return -errno;
	linfo.map.map_fd = fd;
	link = bpf_program__attach_iter(it->progs.write_value, &opts);
	err = link ? 0 : -errno;
	bpf_link__destroy(link);
	close(fd);
	return err;
}

/* No --policy: the builtin and the secondary keyring, nothing else. */
TEST_EXPLICIT(policy_keyring_allowlist_default)
{
	struct iter_write_value *it = NULL;
	struct fixture f;

	if (!setup(&f))
		goto out;
	/* unsigned: loaded before the policy, which would refuse it */
	it = iter_write_value__open_and_load();
	if (!ASSERT_TRUE(it, "the writing bpf_map_elem iterator, before the policy") ||
	    !POLICY_CLI_OK("load keyring-allowlist", "load", "keyring-allowlist"))
		goto out;
	ASSERT_ERR(try_unsigned(), EPERM, "unsigned load (unsigned deny by default)");
	skel_counter_counts("builtin keyring allowed, its child (children allow by default)");
	/* verified, but by a user keyring: exactly what the allowlist is for */
	ASSERT_ERR(try_session(), EPERM, "session-keyring skeleton");
	/* an unsigned loader's children count as unsigned */
	ASSERT_ERR(try_mini_child(f.ml), EPERM, "unsigned loader's child");
	pre_lsm_failures();
	if (POLICY_CLI_OK("status", "status"))
		ASSERT_HAS(policy_out, "mode enforce, unsigned deny, children allow", "status: config");
	/* the allowlist is frozen: bpf(2) cannot rewrite it */
	{
		int fd = bpf_obj_get(POLICY_PIN_DIR "/keyring-allowlist/map_keyrings");
		struct { __u32 keyring, any; __s32 serial; } key = { 4, 1, 0 };
		__u32 allowed = 1;

		if (ASSERT_OK(fd, "open the pinned keyrings map")) {
			/* frozen maps refuse syscall writes with EPERM */
			ASSERT_ERR(bpf_map_update_elem(fd, &key, &allowed, 0), EPERM,
				   "allow user keyrings by a map update");
			close(fd);
		}
	}
	/* nor can an iterator: the same program attaches to map_stats (no
	 * BPF_F_RDONLY_PROG, a value as large as its 4-byte write), so
	 * -EACCES on the allowlist can only come from BPF_F_RDONLY_PROG.
	 * map_stats is frozen too, but the policy's programs write it; this
	 * iterator was loaded before the policy, which the guard does not
	 * re-check (policies/README.md; attack_policy_guard_iterator loads one
	 * after it)
	 */
	ASSERT_EQ(iter_write_attach(it, "map_stats"), 0, "writing iterator on map_stats");
	ASSERT_ERR(iter_write_attach(it, "map_keyrings"), EACCES,
		   "writing iterator on the frozen BPF_F_RDONLY_PROG map_keyrings");
	ASSERT_ERR(iter_write_attach(it, "map_config"), EACCES,
		   "writing iterator on the frozen BPF_F_RDONLY_PROG map_config");
	ASSERT_ERR(try_session(), EPERM, "session-keyring skeleton, after the attempt");
out:
	iter_write_value__destroy(it);
	teardown(&f);
}

/* A policy file: the session keyring by serial, unsigned allowed. */
TEST_EXPLICIT(policy_keyring_allowlist_file)
{
	char text[512];
	struct fixture f;

	if (!setup(&f))
		goto out;
	snprintf(text, sizeof(text),
		 "# test policy\n"
		 "mode enforce\n"
		 "unsigned allow weakens-policy\n"
		 "keyring allow builtin\n"
		 "keyring allow user serial %d   # this session\n", f.session);
	if (!ASSERT_OK(write_policy(text), "write " POLICY_FILE) ||
	    !POLICY_CLI_OK("check", "check", "--policy", POLICY_FILE) ||
	    !POLICY_CLI_OK("load", "load", "keyring-allowlist", "--policy", POLICY_FILE))
		goto out;
	ASSERT_EQ(try_unsigned(), 0, "unsigned load (unsigned allow)");
	ASSERT_EQ(try_mini_child(f.ml), 0, "unsigned loader's child (unsigned allow)");
	ASSERT_EQ(try_session(), 0, "session keyring, allowed by serial");
	skel_counter_counts("builtin keyring");
	pre_lsm_failures();
	policy_unload_all();

	/* an exact deny wins over the keyring-wide allow; children deny */
	snprintf(text, sizeof(text),
		 "keyring allow user\n"
		 "keyring deny user serial %d\n"
		 "keyring allow builtin\n"
		 "children deny\n", f.session);
	if (!ASSERT_OK(write_policy(text), "write " POLICY_FILE) ||
	    !POLICY_CLI_OK("load", "load", "keyring-allowlist", "--policy", POLICY_FILE))
		goto out;
	ASSERT_ERR(try_session(), EPERM, "session keyring, denied by serial");
	/* the loader (builtin) is admitted; its child, loaded through
	 * bpf_sys_bpf(), is what children deny refuses
	 */
	ASSERT_ERR(try_builtin(), EPERM, "builtin skeleton with children deny");
	ASSERT_ERR(try_unsigned(), EPERM, "unsigned load (default deny)");
	policy_unload_all();

	/* a signer line is parsed, and refused: LSMs cannot see the signer */
	ASSERT_OK(write_policy("keyring allow builtin\nsigner 0123abcd\n"), "write");
	ASSERT_EQ(policy_cli("load", "keyring-allowlist", "--policy", POLICY_FILE, NULL), 1,
		  "load of a policy with a signer line");
	ASSERT_HAS(policy_out, ":2: signer: not enforceable", "the reason, with the line");
	ASSERT_TRUE(!policy_pinned("keyring-allowlist"), "nothing pinned");
	/* a malformed file: nothing loaded either */
	ASSERT_OK(write_policy("keyring allow builtin\nmode strict\n"), "write");
	ASSERT_EQ(policy_cli("load", "keyring-allowlist", "--policy", POLICY_FILE, NULL), 1,
		  "load of a malformed policy");
	ASSERT_HAS(policy_out, POLICY_FILE ":2: mode: expected enforce or permissive", "the reason");
	ASSERT_TRUE(!policy_pinned("keyring-allowlist"), "nothing pinned");
out:
	teardown(&f);
}

/* --- updates: load of a loaded policy replaces it ------------------------ */

#define POLICY_A	"keyring allow builtin\nkeyring allow secondary\nunsigned deny\n"
#define POLICY_B	POLICY_A "unsigned allow type socket_filter\n"
#define ALLOWLIST_NEW	POLICY_PIN_DIR "/keyring-allowlist_new"

static int count_ids(bool maps)
{
	__u32 id = 0;
	int n = 0;

	while (!(maps ? bpf_map_get_next_id(id, &id) : bpf_prog_get_next_id(id, &id)))
		n++;
	return n;
}

/* the number of programs or maps once it stops changing (or reaches want,
 * if >= 0): a freed program's maps go from a workqueue after its id
 */
static int count_ids_settled(bool maps, int want)
{
	int n = count_ids(maps), last = -1, same = 0, i;

	for (i = 0; i < 100 && (want >= 0 ? n != want : same < 3); i++) {
		usleep(50000);
		last = n;
		n = count_ids(maps);
		same = n == last ? same + 1 : 0;
	}
	return n;
}

/*
 * The update of a policy is a load of it: the new instance is attached
 * before the old one goes (policies/README.md), and nothing of the old one
 * stays behind.
 */
TEST_EXPLICIT(policy_replace)
{
	__u32 a_guard, a_rule, b_guard;
	int progs, maps;
	struct stat st;

	policy_unload_all();
	if (!policy_load_allowlist(POLICY_FILE, POLICY_A))
		return;
	progs = count_ids_settled(false, -1);
	maps = count_ids_settled(true, -1);
	a_guard = policy_link_prog_id("keyring-allowlist", "link_guard");
	a_rule = policy_link_prog_id("keyring-allowlist", "link_keyring_allowlist");
	ASSERT_ERR(try_unsigned(), EPERM, "policy A: unsigned socket filter");
	if (!ASSERT_OK(write_policy(POLICY_B), "write policy B") ||
	    !POLICY_CLI_OK("replace A by B", "load", "keyring-allowlist", "--policy", POLICY_FILE))
		goto out;
	ASSERT_HAS(policy_out, "keyring-allowlist: replaced, pinned in " POLICY_PIN_DIR
		   "/keyring-allowlist (programs ", "load says what it replaced");
	/* A's programs, links and maps are gone: as many of each as with A alone */
	ASSERT_EQ(count_ids_settled(false, progs), progs, "programs: as many as with A alone");
	ASSERT_EQ(count_ids_settled(true, maps), maps, "maps: as many as with A alone");
	ASSERT_ERR(bpf_prog_get_fd_by_id(a_guard), ENOENT, "A's guard unloaded");
	ASSERT_ERR(bpf_prog_get_fd_by_id(a_rule), ENOENT, "A's decision program unloaded");
	b_guard = policy_link_prog_id("keyring-allowlist", "link_guard");
	ASSERT_TRUE(b_guard && b_guard != a_guard, "B's guard is the pinned one");
	ASSERT_TRUE(stat(ALLOWLIST_NEW, &st), "no keyring-allowlist_new left");
	/* B's rules apply, and only B's */
	ASSERT_EQ(try_unsigned(), 0, "policy B: unsigned socket filter (its type rule)");
	ASSERT_ERR(policy_try_unsigned_syscall(), EPERM, "policy B: unsigned syscall program");
	if (POLICY_CLI_OK("status", "status"))
		ASSERT_HAS(policy_out, "unsigned types socket_filter\n", "status shows B's config");
out:
	policy_unload_all();
}

/* A replace that cannot happen changes nothing: the old instance stays. */
TEST_EXPLICIT(policy_replace_failed)
{
	__u32 guard;
	struct stat st;
	int rc;

	policy_unload_all();
	if (!policy_load_allowlist(POLICY_FILE, POLICY_A))
		return;
	guard = policy_link_prog_id("keyring-allowlist", "link_guard");
	/* policy_parse(): the file is refused before anything is loaded */
	ASSERT_OK(write_policy(POLICY_B "mode strict\n"), "write a malformed policy");
	rc = policy_cli("load", "keyring-allowlist", "--policy", POLICY_FILE, NULL);
	ASSERT_EQ(rc, 1, "replace by a malformed policy");
	ASSERT_HAS(policy_out, POLICY_FILE ":5: mode: expected enforce or permissive", "the reason");
	ASSERT_HAS(policy_out, "(not replaced: the loaded keyring-allowlist stays attached",
		   "says the old one stays");
	ASSERT_EQ(policy_link_prog_id("keyring-allowlist", "link_guard"), guard, "A still pinned");
	ASSERT_ERR(try_unsigned(), EPERM, "A still enforces");
	/* pin_mkdir_new(): NAME_new is another replace's, or an interrupted one's */
	if (!ASSERT_OK(mkdir(ALLOWLIST_NEW, 0700), "mkdir " ALLOWLIST_NEW))
		goto out;
	ASSERT_OK(write_policy(POLICY_B), "write policy B");
	rc = policy_cli("load", "keyring-allowlist", "--policy", POLICY_FILE, NULL);
	ASSERT_EQ(rc, 1, "replace while keyring-allowlist_new exists");
	ASSERT_HAS(policy_out, "keyring-allowlist: not replaced, still pinned in", "the reason");
	ASSERT_HAS(policy_out, "keyring-allowlist_new exists", "names the directory");
	ASSERT_EQ(policy_link_prog_id("keyring-allowlist", "link_guard"), guard, "A still pinned");
	ASSERT_ERR(try_unsigned(), EPERM, "A still enforces");
	ASSERT_TRUE(!stat(ALLOWLIST_NEW, &st), "the directory is not the CLI's to remove");
	rmdir(ALLOWLIST_NEW);
out:
	policy_unload_all();
}

/* Permissive: every load passes, what enforce would refuse is logged. */
TEST_EXPLICIT(policy_keyring_allowlist_permissive)
{
	struct iter_write_value *it;
	char pid[32];
	struct fixture f;

	if (!setup(&f))
		goto out;
	if (!ASSERT_OK(write_policy("mode permissive\nkeyring allow builtin\n"), "write") ||
	    !POLICY_CLI_OK("load", "load", "keyring-allowlist", "--policy", POLICY_FILE))
		goto out;
	ASSERT_EQ(try_unsigned(), 0, "unsigned load, permissive");
	ASSERT_EQ(try_session(), 0, "session keyring, permissive");
	skel_counter_counts("builtin keyring, permissive");
	if (POLICY_CLI_OK("status", "status")) {
		ASSERT_HAS(policy_out, "mode permissive", "status: mode");
		/* the unsigned load, the session-keyring loader and its child:
		 * a child counts as its loader's keyring (user), not allowed
		 */
		ASSERT_HAS(policy_out, "would-deny 3 ", "status: three loads would have been denied");
	}
	snprintf(pid, sizeof(pid), "\"pid\":%d,", getpid());
	if (POLICY_CLI_OK("log", "log", "keyring-allowlist")) {
		ASSERT_HAS(policy_out, pid, "records of this process");
		ASSERT_HAS(policy_out, "\"prog_type\":\"socket_filter\",\"signed\":false,\"kernel\":false,\"verdict\":\"unsigned\"",
			   "the unsigned load");
		ASSERT_HAS(policy_out, "\"keyring\":\"user\"", "the session-keyring loader");
		ASSERT_HAS(policy_out, "\"decision\":\"would-deny\",\"stage\":\"lsm\",\"errno\":0",
			   "logged as would-deny, errno 0");
		ASSERT_TRUE(!strstr(policy_out, "\"decision\":\"deny\""), "nothing denied");
	}
	/* the guard follows the mode: a value-writing iterator (refused in
	 * enforce mode, attack_policy_guard_iterator) loads, a would-deny
	 */
	it = iter_write_value__open_and_load();
	if (ASSERT_TRUE(it != NULL, "value-writing iterator, permissive"))
		iter_write_value__destroy(it);
	if (POLICY_CLI_OK("log", "log", "keyring-allowlist"))
		ASSERT_HAS(policy_out, "\"decision\":\"would-deny\",\"stage\":\"guard\",\"errno\":0",
			   "the guard's would-deny");
out:
	teardown(&f);
}

/* unsigned allow type: unsigned programs of the named types only. */
TEST_EXPLICIT(policy_keyring_allowlist_types)
{
	struct fixture f;

	if (!setup_session(&f, false))
		goto out;
	/* the baseline: the other type loads without a policy */
	if (!ASSERT_EQ(policy_try_unsigned_syscall(), 0, "no policy: unsigned syscall program"))
		goto out;
	if (!ASSERT_OK(write_policy("mode enforce\n"
				    "keyring allow builtin\n"
				    "unsigned deny\n"
				    "unsigned allow type socket_filter\n"), "write") ||
	    !POLICY_CLI_OK("check", "check", "--policy", POLICY_FILE) ||
	    !POLICY_CLI_OK("load", "load", "keyring-allowlist", "--policy", POLICY_FILE))
		goto out;
	ASSERT_EQ(try_unsigned(), 0, "unsigned socket filter (its type is allowed)");
	/* an unsigned loader's child counts as unsigned, and is a socket filter */
	ASSERT_EQ(try_mini_child(f.ml), 0, "unsigned loader's socket-filter child");
	/* the type set admits nothing else unsigned: the LSM's deny */
	ASSERT_ERR(policy_try_unsigned_syscall(), EPERM, "unsigned syscall program");
	/* signed loads still go by keyring: the loader is a syscall program too */
	skel_counter_counts("builtin keyring, a syscall-type loader");
	if (POLICY_CLI_OK("status", "status"))
		ASSERT_HAS(policy_out, "mode enforce, unsigned deny, children allow, "
			   "unsigned types socket_filter\n", "status: config with its types");
	if (POLICY_CLI_OK("log", "log", "keyring-allowlist")) {
		ASSERT_HAS(policy_out, "\"prog_type\":\"syscall\",\"signed\":false,\"kernel\":false,\"verdict\":\"unsigned\"",
			   "the refused load's type");
		ASSERT_TRUE(!strstr(policy_out, "\"prog_type\":\"socket_filter\""),
			    "no record of the allowed type");
	}
	policy_unload_all();

	/* permissive: the other type passes, counted as would-deny */
	if (!ASSERT_OK(write_policy("mode permissive\nunsigned allow type socket_filter\n"),
		       "write") ||
	    !POLICY_CLI_OK("load", "load", "keyring-allowlist", "--policy", POLICY_FILE))
		goto out;
	ASSERT_EQ(try_unsigned(), 0, "unsigned socket filter, permissive");
	ASSERT_EQ(policy_try_unsigned_syscall(), 0, "unsigned syscall program, permissive");
	if (POLICY_CLI_OK("status", "status"))
		ASSERT_HAS(policy_out, "would-deny 1 ", "status: only the syscall program would be denied");
	if (POLICY_CLI_OK("log", "log", "keyring-allowlist"))
		ASSERT_HAS(policy_out, "\"prog_type\":\"syscall\",\"signed\":false",
			   "logged as would-deny");
	policy_unload_all();

	/* an unsigned syscall program is a loader: refused without the
	 * line's confirmation, and nothing is loaded
	 */
	if (!ASSERT_OK(write_policy("keyring allow builtin\nunsigned allow type syscall\n"), "write"))
		goto out;
	ASSERT_EQ(policy_cli("load", "keyring-allowlist", "--policy", POLICY_FILE, NULL), 1,
		  "load with an unconfirmed syscall type");
	ASSERT_HAS(policy_out, POLICY_FILE ":2: unsigned: type syscall weakens the policy: ",
		   "the reason, with the line");
	ASSERT_TRUE(!policy_pinned("keyring-allowlist"), "nothing pinned");
	/* confirmed: loaded, with the warning, and enforced as written */
	if (!ASSERT_OK(write_policy("keyring allow builtin\n"
				    "unsigned allow type syscall weakens-policy\n"), "write") ||
	    !POLICY_CLI_OK("load", "load", "keyring-allowlist", "--policy", POLICY_FILE))
		goto out;
	ASSERT_HAS(policy_out, "bpfsign-policy load: " POLICY_FILE ":2: warning: unsigned allow type "
		   "syscall weakens the policy: ", "the warning of load");
	ASSERT_EQ(policy_try_unsigned_syscall(), 0, "unsigned syscall program, confirmed type");
	ASSERT_ERR(try_unsigned(), EPERM, "unsigned socket filter, not allowed");
out:
	teardown(&f);
}

/* --- audit-log ------------------------------------------------------------- */

/* The line of policy_out that holds every needle (NULL-terminated), or NULL. */
static const char *find_line(char *buf, size_t size, const char *needle, ...)
{
	const char *line, *end, *n;
	va_list ap;
	bool all;

	for (line = policy_out; *line; line = *end ? end + 1 : end) {
		end = strchrnul(line, '\n');
		snprintf(buf, size, "%.*s", (int)(end - line), line);
		all = true;
		va_start(ap, needle);
		for (n = needle; n && all; n = va_arg(ap, const char *))
			all = strstr(buf, n) != NULL;
		va_end(ap);
		if (all)
			return buf;
	}
	return NULL;
}

TEST_EXPLICIT(policy_audit_log)
{
	char pid[32], digest[80], line[1024], serial[32];
	unsigned char d[32];
	struct fixture f;
	int i;

	if (!setup(&f))
		goto out;
	if (!POLICY_CLI_OK("load audit-log", "load", "audit-log"))
		goto out;
	/* then deny-unsigned, so that a load is denied; the audit-log sees
	 * its loader as an accepted load of the CLI
	 */
	if (!POLICY_CLI_OK("load deny-unsigned", "load", "deny-unsigned"))
		goto out;

	skel_counter_counts("accepted: builtin-signed skeleton");
	ASSERT_ERR(try_unsigned(), EPERM, "denied: unsigned load");
	ASSERT_ERR(try_tampered(), EKEYREJECTED, "rejected: tampered signature");
	ASSERT_EQ(try_session(), 0, "accepted: session-keyring skeleton");

	snprintf(pid, sizeof(pid), "\"pid\":%d,", getpid());
	prog_digest(ret0, ARRAY_LEN(ret0), d);
	strcpy(digest, "\"digest\":\"");
	for (i = 0; i < 32; i++)
		sprintf(digest + strlen(digest), "%02x", d[i]);
	strcat(digest, "\"}");
	snprintf(serial, sizeof(serial), "\"keyring_serial\":%d,", f.session);

	if (!POLICY_CLI_OK("log", "log"))
		goto out;
	/* accepted: the signed loader and the child it loaded */
	ASSERT_TRUE(find_line(line, sizeof(line), pid, "\"prog_type\":\"syscall\",\"signed\":true,"
			      "\"kernel\":false,\"verdict\":\"verified\",\"keyring\":\"builtin\",\"keyring_serial\":0,"
			      "\"keyring_id\":0,\"loader_id\":0,\"loader_verdict\":null,"
			      "\"loader_keyring\":null,"
			      "\"decision\":\"allow\",\"stage\":\"loaded\",\"errno\":0,\"error\":null",
			      NULL), "accepted loader: its JSON line");
	/* the child names its loader's verdict and keyring type
	 * (aux->loader_keyring_type), and came through bpf_sys_bpf()
	 */
	ASSERT_TRUE(find_line(line, sizeof(line), pid, "\"prog_type\":\"tracing\",\"signed\":false,"
			      "\"kernel\":true,\"verdict\":\"unsigned\"", "\"loader_verdict\":\"verified\","
			      "\"loader_keyring\":\"builtin\",\"decision\":\"allow\"", NULL),
		    "accepted child of the verified loader");
	ASSERT_TRUE(find_line(line, sizeof(line), pid, "\"prog_type\":\"tracing\",\"signed\":false,"
			      "\"kernel\":true,\"verdict\":\"unsigned\"", "\"loader_verdict\":\"verified\","
			      "\"loader_keyring\":\"user\",\"decision\":\"allow\"", NULL),
		    "accepted child of the session-keyring loader");
	ASSERT_TRUE(!find_line(line, sizeof(line), pid, "\"loader_id\":0,\"loader_verdict\":\"", NULL),
		    "loader_verdict is null without a loader");
	/* denied by deny-unsigned at the LSM hook, with the program's digest */
	ASSERT_TRUE(find_line(line, sizeof(line), pid, "\"prog_type\":\"socket_filter\",\"signed\":false,"
			      "\"kernel\":false,\"verdict\":\"unsigned\",\"keyring\":\"none\"",
			      "\"decision\":\"deny\",\"stage\":\"lsm\",\"errno\":1,\"error\":\"EPERM\"",
			      digest, NULL), "denied unsigned load: its JSON line and digest");
	/* tampered: a signed load refused by the signature check itself */
	ASSERT_TRUE(find_line(line, sizeof(line), pid, "\"prog_type\":\"syscall\",\"signed\":true,"
			      "\"kernel\":false,\"verdict\":\"unsigned\",\"keyring\":\"none\"",
			      "\"decision\":\"reject\",\"stage\":\"signature\",\"errno\":129,"
			      "\"error\":\"EKEYREJECTED\"", NULL), "tampered load: its JSON line");
	/* verified by this session's keyring, named by -3 */
	ASSERT_TRUE(find_line(line, sizeof(line), pid, "\"verdict\":\"verified\",\"keyring\":\"user\"",
			      serial, "\"keyring_id\":-3,", "\"decision\":\"allow\"", NULL),
		    "session-keyring loader: keyring, serial and keyring_id");
	/* the CLI's own load of deny-unsigned */
	ASSERT_TRUE(find_line(line, sizeof(line), "\"comm\":\"bpfsign-policy\"",
			      "\"prog_type\":\"syscall\",\"signed\":true,\"kernel\":false,"
			      "\"verdict\":\"verified\"", NULL),
		    "the CLI's signed policy loader");
	ASSERT_HAS(policy_out, "\"time\":\"", "records carry the wall-clock time");
	if (test_failed())
		policy_dump_out();

	/* consumed: a second read has none of them; --count stops early */
	if (POLICY_CLI_OK("log again", "log"))
		ASSERT_TRUE(!strstr(policy_out, pid), "records are consumed by log");
	ASSERT_EQ(try_tampered(), -EKEYREJECTED, "a second tampered load");
	ASSERT_ERR(try_unsigned(), EPERM, "a second unsigned load");
	if (POLICY_CLI_OK("log --count 1", "log", "--count", "1")) {
		ASSERT_TRUE(find_line(line, sizeof(line), "\"error\":\"EKEYREJECTED\"", NULL),
			    "the first record");
		ASSERT_TRUE(!strstr(policy_out, "EPERM"), "only one record");
	}
	if (POLICY_CLI_OK("log --follow --count 1", "log", "--follow", "--count", "1"))
		ASSERT_HAS(policy_out, "\"error\":\"EPERM\"", "--follow returns the buffered record");
out:
	teardown(&f);
}

/* --- a flood of denied loads ------------------------------------------------ */

/*
 * The attacker: a process that may load BPF programs (CAP_BPF, or a BPF
 * token in its user namespace) and wants its denied loads, or the ones
 * after them, to leave no record.  512 records fill a policy's
 * 64 KiB ring buffer; each record that finds it full is counted in the
 * frozen tally, per caller uid and reason, so that every denial is in
 * exactly one of the two, and root cannot reset the counts.
 */
#define FLOOD		1500
#define FLOOD_UID	1000

/* FLOOD unsigned socket filters: 0 if each was refused with EPERM, else 1 */
static int flood_loads_n(int token_fd, int loads)
{
	LIBBPF_OPTS(bpf_prog_load_opts, opts);
	int i, fd;

	if (token_fd >= 0) {
		opts.prog_flags = BPF_F_TOKEN_FD;
		opts.token_fd = token_fd;
	}
	for (i = 0; i < loads; i++) {
		fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, "flood", "GPL", ret0,
				   ARRAY_LEN(ret0), &opts);
		if (fd >= 0 || errno != EPERM) {
			printf("# flood load %d: fd %d, errno %d\n", i, fd, errno);
			return 1;
		}
	}
	return 0;
}

static int flood_loads(int token_fd)
{
	return flood_loads_n(token_fd, FLOOD);
}

static int flood_with_token(int token_fd, void *arg)
{
	(void)arg;
	return flood_loads(token_fd);
}

/* 0 if an unsigned load is refused with EPERM and its log names the BPF
 * LSM but not the programs on its hook, else 1
 */
static int log_hides_progs(void)
{
	int fd = load_prog(ret0, ARRAY_LEN(ret0), NULL);

	if (fd >= 0 || errno != EPERM ||
	    !strstr(vlog, "program load refused by security module bpf (-EPERM)\n"
		    "BPF LSM programs on bpf_prog_load: listed to CAP_SYS_ADMIN only\n") ||
	    strstr(vlog, "deny_unsigned")) {
		printf("# fd %d errno %d log: %s\n", fd, errno, vlog);
		return 1;
	}
	return 0;
}

/* A child with uid and gid FLOOD_UID and no capability but CAP_BPF makes
 * loads denied loads (FLOOD, or 1 from the attack tests), or with -1 checks
 * log_hides_progs(): its exit status, or -1.
 */
static int flood_as_cap_bpf_n(int loads)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct caps[_LINUX_CAPABILITY_U32S_3] = {};
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (!pid) {
		if (prctl(PR_SET_KEEPCAPS, 1) || setgroups(0, NULL) ||
		    setresgid(FLOOD_UID, FLOOD_UID, FLOOD_UID) ||
		    setresuid(FLOOD_UID, FLOOD_UID, FLOOD_UID))
			_exit(100);
		caps[CAP_TO_INDEX(CAP_BPF)].permitted = CAP_TO_MASK(CAP_BPF);
		caps[CAP_TO_INDEX(CAP_BPF)].effective = CAP_TO_MASK(CAP_BPF);
		if (syscall(SYS_capset, &hdr, caps))
			_exit(101);
		_exit(loads < 0 ? log_hides_progs() : flood_loads_n(-1, loads));
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static int flood_as_cap_bpf(void)
{
	return flood_as_cap_bpf_n(FLOOD);
}

struct accounted {
	long events;		/* records of the ring buffer */
	long tallied;		/* the counts of the tally lines */
	long tally_lines;
	long last_pid;		/* of the last tally line */
};

/* The denials of uid in log's output (policy_out), from the ring buffer and
 * from the tally.
 */
static struct accounted accounted(unsigned int uid)
{
	struct accounted a = {};
	char needle[32], buf[4096];
	const char *line, *end, *p;

	snprintf(needle, sizeof(needle), "\"uid\":%u,", uid);
	for (line = policy_out; *line; line = *end ? end + 1 : end) {
		end = strchrnul(line, '\n');
		snprintf(buf, sizeof(buf), "%.*s", (int)(end - line), line);
		if (!strstr(buf, needle) || !strstr(buf, "\"decision\":\"deny\",\"stage\":\"lsm\","
						    "\"errno\":1,\"error\":\"EPERM\""))
			continue;
		if (!strncmp(buf, "{\"tally\":", 9)) {
			a.tallied += strtol(buf + 9, NULL, 10);
			a.tally_lines++;
			p = strstr(buf, "\"last_pid\":");
			a.last_pid = p ? strtol(p + 11, NULL, 10) : -1;
		} else if (!strncmp(buf, "{\"time\":", 8)) {
			a.events++;
		}
	}
	return a;
}

/* The counters of policy name: deny, and lost none; tallied if >= 0. */
static void check_status(const char *name, long deny, long tallied)
{
	__u64 n[BPFSIGN_STAT_MAX];

	if (!POLICY_CLI_OK("status", "status") || !ASSERT_TRUE(policy_parse_counts(name, n), "status: counters"))
		return;
	ASSERT_EQ(n[BPFSIGN_STAT_DENY], deny, "status: deny, every denied load");
	ASSERT_EQ(n[BPFSIGN_STAT_LOST], 0, "status: lost");
	if (tallied >= 0)
		ASSERT_EQ(n[BPFSIGN_STAT_TALLIED], tallied, "status: tallied");
}

/* The flood of uid in log's output: every denial in the ring buffer or in
 * one tally line, and both used (the buffer was full).
 */
static struct accounted check_flood(unsigned int uid, long want, const char *what)
{
	struct accounted a = accounted(uid);

	printf("# %s: %ld in the ring buffer, %ld in %ld tally lines\n", what, a.events,
	       a.tallied, a.tally_lines);
	ASSERT_EQ(a.events + a.tallied, want, what);
	ASSERT_GE(a.events, 1, "records in the ring buffer");
	ASSERT_GE(a.tallied, 1, "records in the tally");
	ASSERT_EQ(a.tally_lines, 1, "one tally line per caller and reason");
	return a;
}

/* Root, with every fd it can get, cannot reset the counters or the tally of
 * policy name: the CLI froze both (map_freeze), so each write command of
 * bpf(2) fails with EPERM.
 */
static void check_counters_frozen(const char *name)
{
	struct bpfsign_tally_key key;
	struct bpfsign_tally val = {};
	struct bpf_map_info info = {};
	__u32 len = sizeof(info), stat = BPFSIGN_STAT_DENY, count = 1;
	__u64 zero = 0, n[BPFSIGN_STAT_MAX], after[BPFSIGN_STAT_MAX];
	char path[128];
	int fd, fd2;

	if (!POLICY_CLI_OK("status", "status") || !ASSERT_TRUE(policy_parse_counts(name, n), "status before"))
		return;
	snprintf(path, sizeof(path), POLICY_PIN_DIR "/%s/map_stats", name);
	fd = bpf_obj_get(path);
	if (ASSERT_OK(fd, "open the pinned stats map")) {
		/* frozen: bpf_map_update_elem() refuses a frozen map */
		ASSERT_ERR(bpf_map_update_elem(fd, &stat, &zero, BPF_ANY), EPERM,
			   "stats: reset deny by update");
		ASSERT_ERR(bpf_map_update_batch(fd, &stat, &zero, &count, NULL), EPERM,
			   "stats: reset deny by update batch");
		/* a new fd by id is as writable as one can get: still frozen */
		if (ASSERT_OK(bpf_map_get_info_by_fd(fd, &info, &len), "stats: info")) {
			fd2 = bpf_map_get_fd_by_id(info.id);
			if (ASSERT_OK(fd2, "stats: fd by id")) {
				ASSERT_ERR(bpf_map_update_elem(fd2, &stat, &zero, BPF_ANY), EPERM,
					   "stats: reset through an fd by id");
				close(fd2);
			}
		}
		close(fd);
	}
	snprintf(path, sizeof(path), POLICY_PIN_DIR "/%s/map_tally", name);
	fd = bpf_obj_get(path);
	if (ASSERT_OK(fd, "open the pinned tally map") &&
	    ASSERT_OK(bpf_map_get_next_key(fd, NULL, &key), "the flood's tally entry")) {
		/* each write command checks the frozen flag: EPERM */
		ASSERT_ERR(bpf_map_delete_elem(fd, &key), EPERM, "tally: delete");
		ASSERT_ERR(bpf_map_update_elem(fd, &key, &val, BPF_EXIST), EPERM, "tally: zero by update");
		ASSERT_ERR(bpf_map_lookup_and_delete_elem(fd, &key, &val), EPERM,
			   "tally: lookup and delete");
		count = 1;
		ASSERT_ERR(bpf_map_delete_batch(fd, &key, &count, NULL), EPERM, "tally: delete batch");
	}
	if (fd >= 0)
		close(fd);
	if (POLICY_CLI_OK("status", "status") && ASSERT_TRUE(policy_parse_counts(name, after), "status after"))
		ASSERT_TRUE(!memcmp(n, after, sizeof(n)), "the counters are unchanged");
}

/* An unprivileged process with CAP_BPF floods deny-unsigned and audit-log. */
TEST_EXPLICIT(policy_flood_cap_bpf)
{
	struct accounted flood = {}, root;
	struct fixture f;

	if (!setup_session(&f, false))
		goto out;
	if (!POLICY_CLI_OK("load deny-unsigned", "load", "deny-unsigned") ||
	    !POLICY_CLI_OK("load audit-log", "load", "audit-log"))
		goto out;
	if (!ASSERT_EQ(flood_as_cap_bpf(), 0, "uid 1000 with CAP_BPF: every load refused, EPERM"))
		goto out;
	/* after the flood, with the ring buffers full: still a record */
	ASSERT_ERR(try_unsigned(), EPERM, "root's unsigned load after the flood");
	check_counters_frozen("deny-unsigned");
	check_counters_frozen("audit-log");

	if (POLICY_CLI_OK("log deny-unsigned", "log", "deny-unsigned")) {
		flood = check_flood(FLOOD_UID, FLOOD, "deny-unsigned: uid 1000's events + tally");
		root = accounted(0);
		ASSERT_EQ(root.events, 0, "root's denial: not in the full ring buffer");
		ASSERT_EQ(root.tallied, 1, "root's denial: in the tally");
		ASSERT_EQ(root.last_pid, getpid(), "root's tally line names this process");
		check_status("deny-unsigned", FLOOD + 1, flood.tallied + root.tallied);
	}
	/* log consumed the ring buffer, not the tally */
	if (POLICY_CLI_OK("log deny-unsigned again", "log", "deny-unsigned")) {
		root = accounted(FLOOD_UID);
		ASSERT_EQ(root.events, 0, "second log: the ring buffer was consumed");
		ASSERT_EQ(root.tallied, flood.tallied, "second log: the same tally");
	}
	if (POLICY_CLI_OK("log audit-log", "log", "audit-log")) {
		check_flood(FLOOD_UID, FLOOD, "audit-log: uid 1000's events + tally");
		ASSERT_EQ(accounted(0).tallied, 1, "audit-log: root's denial, in the tally");
		check_status("audit-log", FLOOD + 1, -1);
	}
	if (test_failed())
		printf("# %.2000s\n", policy_out);
out:
	teardown(&f);
}

/* A BPF-token holder, root of its own user namespace, floods deny-unsigned. */
TEST_EXPLICIT(policy_flood_token)
{
	struct accounted a;
	struct fixture f;

	if (!setup_session(&f, false))
		goto out;
	if (!POLICY_CLI_OK("load deny-unsigned", "load", "deny-unsigned"))
		goto out;
	if (!ASSERT_EQ(run_with_token(flood_with_token, NULL), 0,
		       "token holder: every load refused, EPERM"))
		goto out;
	/* the namespace maps its root to uid 0: root's own denial after the
	 * flood lands on the same tally line, and names this process
	 */
	ASSERT_ERR(try_unsigned(), EPERM, "root's unsigned load after the flood");
	check_counters_frozen("deny-unsigned");
	if (POLICY_CLI_OK("log deny-unsigned", "log", "deny-unsigned")) {
		a = check_flood(0, FLOOD + 1, "token holder's events + tally, and root's denial");
		ASSERT_EQ(a.last_pid, getpid(), "the tally line names the last denied caller");
		check_status("deny-unsigned", FLOOD + 1, a.tallied);
	}
out:
	teardown(&f);
}

/* --- the .bpf keyring ---------------------------------------------------- */

#define KEY_SPEC_BPF_KEYRING	-9

/*
 * keyring allow bpf: the operator's keyring, enrolled and restricted by the
 * shipped policies/initramfs/bpf-keyring-hook (busybox sh, the real keyctl),
 * as at boot.  Sealing cannot be undone: run alone, in a boot with
 * bpf.keyring_unsealed=1 (guest-policies-bpf-keyring, scripts/run-tests.sh).
 */
TEST_EXPLICIT(policy_keyring_allowlist_bpf_keyring)
{
	static const char *const hook[] = {
		"/bin/sh", "/tests/bpf-keyring-hook", "/tests/bpf-certs", NULL
	};
	unsigned char *der = NULL;
	struct fixture f;
	char flag[4] = "";
	int fd, len, err, rc;

	fd = open("/sys/module/bpf/parameters/keyring_unsealed", O_RDONLY);
	if (!ASSERT_OK(fd, "the .bpf keyring's boot parameter"))
		return;
	if (read(fd, flag, sizeof(flag) - 1) < 0)
		flag[0] = 0;
	close(fd);
	if (!ASSERT_TRUE(flag[0] == 'Y', "booted with bpf.keyring_unsealed=1"))
		return;
	if (!setup_session(&f, false))
		goto out;
	rc = policy_run(hook);
	if (!ASSERT_EQ(rc, 0, "bpf-keyring-hook enrols untrusted.der and seals .bpf")) {
		printf("# %s", policy_out);
		goto out;
	}
	ASSERT_HAS(policy_out, "restricted the .bpf keyring (1 certificates)", "the hook's log");
	/* sealed: the reject-all restriction refuses more enrolment */
	len = cert_der("signing-ec", &der);
	ASSERT_ERR(add_key("asymmetric", "late", der, len, KEY_SPEC_BPF_KEYRING), EPERM,
		   "enrolment after the hook");
	free(der);

	/* no policy: the .bpf keyring verifies untrusted.key */
	{
		struct skel_counter_untrusted *s = skel_counter_untrusted__open();

		if (!ASSERT_TRUE(s, "open"))
			goto out;
		err = skel_counter_untrusted__load_keyring(s, KEY_SPEC_BPF_KEYRING);
		skel_counter_untrusted__destroy(s);
		if (!ASSERT_EQ(err, 0, "no policy: signed skeleton, .bpf keyring"))
			goto out;
	}
	/* the default allowlist (builtin, secondary) does not name it */
	if (!POLICY_CLI_OK("load", "load", "keyring-allowlist"))
		goto out;
	{
		struct skel_counter_untrusted *s = skel_counter_untrusted__open();

		err = s ? skel_counter_untrusted__load_keyring(s, KEY_SPEC_BPF_KEYRING) : -ENOMEM;
		skel_counter_untrusted__destroy(s);
		ASSERT_ERR(err, EPERM, "default allowlist: .bpf keyring");
	}
	policy_unload_all();

	/* examples/operator-keyring.policy */
	if (!ASSERT_OK(write_policy("mode enforce\nkeyring allow bpf\nkeyring allow builtin\n"
				    "unsigned deny\nchildren allow\n"), "write") ||
	    !POLICY_CLI_OK("load", "load", "keyring-allowlist", "--policy", POLICY_FILE) ||
	    !POLICY_CLI_OK("load audit-log", "load", "audit-log"))
		goto out;
	{
		struct skel_counter_untrusted *s = skel_counter_untrusted__open();

		err = s ? skel_counter_untrusted__load_keyring(s, KEY_SPEC_BPF_KEYRING) : -ENOMEM;
		skel_counter_untrusted__destroy(s);
		ASSERT_EQ(err, 0, "keyring allow bpf: .bpf keyring");
	}
	/* caller keyrings: refused by the kernel before the LSM, as the
	 * boot parameter makes .bpf the only non-system anchor
	 */
	ASSERT_ERR(try_session(), EPERM, "bpf.keyring_unsealed=1: session keyring");
	skel_counter_counts("keyring allow builtin");
	if (POLICY_CLI_OK("log", "log"))
		ASSERT_HAS(policy_out, "\"verdict\":\"verified\",\"keyring\":\"bpf\",\"keyring_serial\":-9,"
			   "\"keyring_id\":-9,", "the audit record names the .bpf keyring");
out:
	teardown(&f);
}

/* --- attacks on the record (review of issue 42's policies half) ----------
 *
 * Each attack_* test asserts the property "a flood must not erase the
 * record, and nobody but the policy can reset or forge its counters"; a
 * FAIL is the bypass, and its "# BYPASS" line says what the attacker got.
 * They pass on the fixed code and run in the guest-policies boot of
 * scripts/run-tests.sh.
 */
#include <sys/mman.h>

/* The counters `status` prints for name, or all ~0 */
static void status_now(const char *name, __u64 n[BPFSIGN_STAT_MAX])
{
	if (policy_cli("status", NULL) || !policy_parse_counts(name, n))
		memset(n, 0xff, sizeof(*n) * BPFSIGN_STAT_MAX);
}

/* Records of `log` (policy_out) that are ring buffer records, not tally lines */
static long log_records(void)
{
	const char *p;
	long n = 0;

	for (p = policy_out; (p = strstr(p, "{\"time\":")); p++)
		n++;
	return n;
}

/*
 * Root without the signing key, deny-unsigned attached: fill the ring
 * buffer, then one denied load per real uid (setresuid(u, 0, 0) keeps
 * euid 0 and every capability; a token holder whose namespace maps a
 * subuid range of 65536 can do the same with setuid() inside it).  4096
 * uids fill the tally: the next caller's denial, uid 1000's, is neither
 * in the ring buffer nor in the tally, only stats[lost] moves.
 */
#define ATTACK_UID_BASE	20000

/* The denied socket filter loads that deny-unsigned's tally counts for
 * uid, plus those tally_any counts for any caller: what a later denial
 * must add one to, however full the tally is
 */
static long tally_denials(unsigned int uid, long *entries)
{
	struct bpfsign_tally_key key, *prev = NULL, k2;
	const char *pins[] = { POLICY_PIN_DIR "/deny-unsigned/map_tally",
			       POLICY_PIN_DIR "/deny-unsigned/map_tally_any" };
	long total = 0;
	unsigned int i;
	int fd;

	*entries = 0;
	for (i = 0; i < ARRAY_LEN(pins); i++, prev = NULL) {
		fd = bpf_obj_get(pins[i]);
		if (!ASSERT_OK(fd, pins[i]))
			return -1;
		while (!bpf_map_get_next_key(fd, prev, &key)) {
			struct bpfsign_tally v = {};

			if (!i)
				(*entries)++;
			if ((key.uid == uid || key.uid == BPFSIGN_ANY_UID) &&
			    key.decision == BPFSIGN_DENY &&
			    key.prog_type == BPF_PROG_TYPE_SOCKET_FILTER &&
			    !bpf_map_lookup_elem(fd, &key, &v))
				total += v.count;
			k2 = key;
			prev = &k2;
		}
		close(fd);
	}
	return total;
}

static int flood_uids(void)
{
	int i, fd;

	for (i = 0; i < 600; i++) {		/* the ring buffer: 512 */
		fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, "f", "GPL", ret0, 2, NULL);
		if (fd >= 0)
			return 1;
	}
	for (i = 0; i < BPFSIGN_MAX_TALLIES; i++) {
		if (setresuid(ATTACK_UID_BASE + i, 0, 0))
			return 2;
		fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, "f", "GPL", ret0, 2, NULL);
		if (fd >= 0 || errno != EPERM)
			return 3;
	}
	return 0;
}

TEST_EXPLICIT(attack_policy_tally_full_by_uids)
{
	__u64 n[BPFSIGN_STAT_MAX];
	long entries = 0, before, after;
	struct fixture f;
	int status;
	pid_t pid;

	if (!setup_session(&f, false))
		goto out;
	if (!POLICY_CLI_OK("load deny-unsigned", "load", "deny-unsigned"))
		goto out;
	fflush(stdout);
	pid = fork();
	if (!pid)
		_exit(flood_uids());
	if (!ASSERT_TRUE(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
			 !WEXITSTATUS(status), "root floods with 4096 real uids"))
		goto out;
	/* the victim: an unprivileged CAP_BPF caller, after the flood */
	status_now("deny-unsigned", n);
	before = tally_denials(FLOOD_UID, &entries);
	printf("# before the victim: deny %llu tallied %llu lost %llu; tally %ld entries\n",
	       n[BPFSIGN_STAT_DENY], n[BPFSIGN_STAT_TALLIED], n[BPFSIGN_STAT_LOST], entries);
	ASSERT_EQ(entries, BPFSIGN_MAX_TALLIES, "the flood filled the tally");
	ASSERT_EQ(flood_as_cap_bpf_n(1), 0, "uid 1000: its load refused, EPERM");
	status_now("deny-unsigned", n);
	after = tally_denials(FLOOD_UID, &entries);
	printf("# after the victim: deny %llu tallied %llu lost %llu; its reason counted %ld, then %ld\n",
	       n[BPFSIGN_STAT_DENY], n[BPFSIGN_STAT_TALLIED], n[BPFSIGN_STAT_LOST], before, after);
	if (after != before + 1)
		printf("# BYPASS: uid %d's denial left no record (tally full, lost %llu)\n",
		       FLOOD_UID, n[BPFSIGN_STAT_LOST]);
	/* the property: the victim's denial is kept, by its reason at least */
	ASSERT_EQ(after, before + 1, "uid 1000's denial in tally or tally_any");
	ASSERT_EQ(n[BPFSIGN_STAT_LOST], 0, "status: lost");
out:
	teardown(&f);
}

/*
 * Root without the key: unpin map_stats, map_events and map_tally of an
 * attached deny-unsigned and pin maps of its own under the same names.
 * The link stays pinned: the policy still refuses and counts, in its own
 * maps, but `status` and `log` read the attacker's (nothing binds a pin to
 * the program of the link, nor checks that it is frozen).
 */
TEST_EXPLICIT(attack_policy_repin_fake_maps)
{
	LIBBPF_OPTS(bpf_map_create_opts, none);
	__u64 n[BPFSIGN_STAT_MAX], fake = 0;
	struct fixture f;
	__u32 i;
	int fd;

	if (!setup_session(&f, false))
		goto out;
	if (!POLICY_CLI_OK("load deny-unsigned", "load", "deny-unsigned"))
		goto out;
	ASSERT_ERR(try_unsigned(), EPERM, "a denial before the swap");
	if (!ASSERT_OK(unlink(POLICY_PIN_DIR "/deny-unsigned/map_stats"), "rm map_stats") ||
	    !ASSERT_OK(unlink(POLICY_PIN_DIR "/deny-unsigned/map_events"), "rm map_events") ||
	    !ASSERT_OK(unlink(POLICY_PIN_DIR "/deny-unsigned/map_tally"), "rm map_tally"))
		goto out;
	fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "stats", 4, 8, BPFSIGN_STAT_MAX, &none);
	for (i = 0; fd >= 0 && i < BPFSIGN_STAT_MAX; i++)
		bpf_map_update_elem(fd, &i, &fake, BPF_ANY);
	if (!ASSERT_OK(fd, "fake stats") || !ASSERT_OK(bpf_obj_pin(fd, POLICY_PIN_DIR "/deny-unsigned/map_stats"), "pin"))
		goto out;
	close(fd);
	fd = bpf_map_create(BPF_MAP_TYPE_RINGBUF, "events", 0, 0, 4096, &none);
	if (!ASSERT_OK(fd, "fake events") || !ASSERT_OK(bpf_obj_pin(fd, POLICY_PIN_DIR "/deny-unsigned/map_events"), "pin"))
		goto out;
	close(fd);
	fd = bpf_map_create(BPF_MAP_TYPE_HASH, "tally", sizeof(struct bpfsign_tally_key),
			    sizeof(struct bpfsign_tally), 1, &none);
	if (!ASSERT_OK(fd, "fake tally") || !ASSERT_OK(bpf_obj_pin(fd, POLICY_PIN_DIR "/deny-unsigned/map_tally"), "pin"))
		goto out;
	close(fd);
	/* still enforced: the link is pinned */
	ASSERT_ERR(try_unsigned(), EPERM, "a denial after the swap");
	/* status and log read the maps of the link's program, and refuse a
	 * map pin that is not one of them, naming it
	 */
	ASSERT_TRUE(policy_cli("status", NULL) > 0, "status refuses the re-pinned maps");
	if (!ASSERT_HAS(policy_out, "/deny-unsigned/map_events: map ", "status names the pin") ||
	    !ASSERT_HAS(policy_out, "is not the policy's map 'events'", "status: why"))
		policy_dump_out();
	if (policy_parse_counts("deny-unsigned", n))
		printf("# BYPASS: status printed counters from the fake maps: deny %llu\n",
		       n[BPFSIGN_STAT_DENY]);
	ASSERT_TRUE(policy_cli("log", "deny-unsigned", NULL) > 0, "log refuses the re-pinned maps");
	ASSERT_HAS(policy_out, "re-pinned, not reading it", "log: why");
	ASSERT_EQ(log_records(), 0, "log printed no record of the fake ring buffer");
	/* the real maps, pinned back, are read again: the policy's 2 denials */
	unlink(POLICY_PIN_DIR "/deny-unsigned/map_stats");
	unlink(POLICY_PIN_DIR "/deny-unsigned/map_events");
	unlink(POLICY_PIN_DIR "/deny-unsigned/map_tally");
	ASSERT_OK(policy_cli("status", NULL), "status without map pins: read from the program");
	ASSERT_TRUE(policy_parse_counts("deny-unsigned", n) && n[BPFSIGN_STAT_DENY] == 2,
		    "status: the policy's own deny counter, 2");
	ASSERT_OK(policy_cli("log", "deny-unsigned", NULL), "log without map pins");
	ASSERT_EQ(log_records(), 2, "log: the policy's own records");
out:
	teardown(&f);
}

/*
 * The guard (policies/policy.bpf.h, issue 42): the policy's maps are
 * reached only by the policy's own programs.  Each attacker below is a
 * program the policy file admits (unsigned cgroup_skb, tracing or
 * socket_filter; a signed socket filter), loaded by root after the policy
 * was attached, that would write stats[deny] (or the allowlist) by one
 * path: the pin, the map's id, a map-in-map, a value-writing iterator.
 * Each is refused with EACCES when its fd would be made (stage "guard" in
 * the log), the counters keep every record, and the policy still denies
 * what it denied.  On the policies before the guard each writer loaded
 * and zeroed the counter.
 */

#define GUARD_POLICY	"keyring allow builtin\nkeyring allow secondary\nunsigned deny\n" \
			"unsigned allow type cgroup_skb\nunsigned allow type tracing\n" \
			"unsigned allow type socket_filter\nchildren allow\n"

static bool guard_setup(struct fixture *f)
{
	if (!setup_session(f, false))
		return false;
	return ASSERT_OK(write_policy(GUARD_POLICY), "write") &&
	       POLICY_CLI_OK("load", "load", "keyring-allowlist", "--policy", POLICY_FILE);
}

/* Run a writer the guard failed to refuse, so that the bypass shows in the counters */
static void run_writer(int pfd)
{
	LIBBPF_OPTS(bpf_test_run_opts, run, .data_in = policy_out, .data_size_in = 64);

	if (pfd < 0)
		return;
	memset(policy_out, 0, 64);
	ASSERT_OK(bpf_prog_test_run_opts(pfd, &run), "test run of the writer");
	printf("# BYPASS: a writer of the policy's map loaded and ran\n");
	close(pfd);
}

/* stats of keyring-allowlist after the attacks: nothing erased (deny kept
 * every earlier denial and counts the guard's refusals; libbpf's feature
 * probes may add denials of their own), lost unmoved, one guard record per
 * refused writer, and log's counters still add up
 */
static void check_kept(const __u64 before[BPFSIGN_STAT_MAX], long refusals)
{
	__u64 after[BPFSIGN_STAT_MAX];

	status_now("keyring-allowlist", after);
	ASSERT_GE(after[BPFSIGN_STAT_DENY], before[BPFSIGN_STAT_DENY] + refusals,
		  "stats[deny]: every earlier denial, and one per refused writer");
	/* the writers themselves were admitted by the policy (an allowed type, a
	 * good signature): allow counts them
	 */
	ASSERT_GE(after[BPFSIGN_STAT_ALLOW], before[BPFSIGN_STAT_ALLOW], "stats[allow] not reset");
	ASSERT_EQ(after[BPFSIGN_STAT_LOST], before[BPFSIGN_STAT_LOST], "stats[lost] unchanged");
	ASSERT_EQ(after[BPFSIGN_STAT_REJECT], before[BPFSIGN_STAT_REJECT], "stats[reject] unchanged");
	if (!ASSERT_EQ(policy_cli("log", "keyring-allowlist", NULL), 0, "log: consistent, exit 0") ||
	    !ASSERT_EQ(policy_count(policy_out, "\"decision\":\"deny\",\"stage\":\"guard\",\"errno\":13,\"error\":\"EACCES\""),
		       refusals, "log: one guard record (EACCES) per refused writer"))
		policy_dump_out();
	/* the policy itself is untouched: it denies what it denied */
	ASSERT_ERR(policy_try_unsigned_syscall(), EPERM, "unsigned syscall program: still denied");
}

/* An allowed unsigned type binds stats by its pin, by its id, and reads
 * the allowlist by its id: each refused at the fd, EACCES.
 */
TEST_EXPLICIT(attack_policy_unsigned_type_rewrites_counters)
{
	__u64 before[BPFSIGN_STAT_MAX];
	struct fixture f;
	int mfd, pfd, refusals = 0;

	if (!guard_setup(&f))
		goto out;
	ASSERT_ERR(policy_try_unsigned_syscall(), EPERM, "unsigned syscall program: denied");
	status_now("keyring-allowlist", before);
	ASSERT_GE(before[BPFSIGN_STAT_DENY], 1, "a denial to erase");

	/* the pin: bpffs open, any root */
	mfd = bpf_obj_get(POLICY_PIN_DIR "/keyring-allowlist/map_stats");
	if (!ASSERT_OK(mfd, "stats pin"))
		goto out;
	pfd = policy_load_zeroer(mfd, false, BPFSIGN_STAT_DENY);
	close(mfd);
	/* the verifier accepts the writer (cgroup_skb may write a map value):
	 * EACCES is the guard's, at the fd; log shows it below
	 */
	if (!ASSERT_ERR(pfd, EACCES, "unsigned cgroup_skb writing stats by its pin"))
		run_writer(pfd);
	refusals++;

	/* the id: BPF_MAP_GET_FD_BY_ID, as status finds the maps */
	mfd = policy_map_fd_by_id("keyring-allowlist", "map_stats");
	if (!ASSERT_OK(mfd, "stats by id"))
		goto out;
	pfd = policy_load_zeroer(mfd, false, BPFSIGN_STAT_DENY);
	close(mfd);
	if (!ASSERT_ERR(pfd, EACCES, "unsigned cgroup_skb writing stats by its id"))
		run_writer(pfd);
	refusals++;

	/* the allowlist: BPF_F_RDONLY_PROG stops a write in the verifier
	 * ("write into map forbidden"); a program that only looks it up
	 * passes the verifier and is refused by the guard
	 */
	mfd = policy_map_fd_by_id("keyring-allowlist", "map_config");
	if (!ASSERT_OK(mfd, "config by id"))
		goto out;
	{
		const struct bpf_insn read_cfg[] = {
			LD_MAP(BPF_REG_1, BPF_PSEUDO_MAP_FD, mfd),
			ST_MEM(BPF_W, BPF_REG_10, -4, 0),
			MOV64_REG(BPF_REG_2, BPF_REG_10),
			ADD64_IMM(BPF_REG_2, -4),
			CALL(BPF_FUNC_map_lookup_elem),
			MOV64_IMM(BPF_REG_0, 1),
			EXIT_INSN(),
		};

		pfd = load_prog_type(BPF_PROG_TYPE_CGROUP_SKB, read_cfg, ARRAY_LEN(read_cfg), NULL);
		pfd = pfd < 0 ? -errno : pfd;
	}
	close(mfd);
	if (!ASSERT_ERR(pfd, EACCES, "unsigned cgroup_skb reading the allowlist by its id") && pfd >= 0)
		close(pfd);
	refusals++;
	check_kept(before, refusals);
out:
	teardown(&f);
}

/* A map-in-map whose template stats fits, with stats inserted: the
 * insertion itself succeeds (no LSM hook sees it), the program that
 * would reach stats through it is refused, EACCES.
 */
TEST_EXPLICIT(attack_policy_guard_map_in_map)
{
	LIBBPF_OPTS(bpf_map_create_opts, mopts);
	__u64 before[BPFSIGN_STAT_MAX];
	struct fixture f;
	int tmpl = -1, outer = -1, mfd = -1, pfd;
	__u32 zero = 0;

	if (!guard_setup(&f))
		goto out;
	ASSERT_ERR(policy_try_unsigned_syscall(), EPERM, "unsigned syscall program: denied");
	status_now("keyring-allowlist", before);
	/* stats' shape: ARRAY, u32 -> u64, BPFSIGN_STAT_MAX entries, no flags */
	tmpl = bpf_map_create(BPF_MAP_TYPE_ARRAY, "tmpl", 4, 8, BPFSIGN_STAT_MAX, NULL);
	if (!ASSERT_OK(tmpl, "template map"))
		goto out;
	mopts.inner_map_fd = tmpl;
	outer = bpf_map_create(BPF_MAP_TYPE_ARRAY_OF_MAPS, "outer", 4, 4, 1, &mopts);
	mfd = policy_map_fd_by_id("keyring-allowlist", "map_stats");
	if (!ASSERT_OK(outer, "array of maps") || !ASSERT_OK(mfd, "stats by id"))
		goto out;
	ASSERT_OK(bpf_map_update_elem(outer, &zero, &mfd, BPF_ANY),
		  "stats into the outer map (no hook sees it: the program is refused)");
	pfd = policy_load_zeroer(outer, true, BPFSIGN_STAT_DENY);
	if (!ASSERT_ERR(pfd, EACCES, "unsigned cgroup_skb writing stats through the outer map"))
		run_writer(pfd);
	/* before the insertion too: the template alone decides */
	ASSERT_OK(bpf_map_delete_elem(outer, &zero), "empty the outer map");
	pfd = policy_load_zeroer(outer, true, BPFSIGN_STAT_DENY);
	if (!ASSERT_ERR(pfd, EACCES, "the same program, outer map empty") && pfd >= 0)
		close(pfd);
	check_kept(before, 2);
out:
	if (tmpl >= 0)
		close(tmpl);
	if (outer >= 0)
		close(outer);
	if (mfd >= 0)
		close(mfd);
	teardown(&f);
}

/* A bpf_map_elem iterator that writes values, loaded after the policy
 * (unsigned tracing allowed): refused at its fd, whatever map it would
 * be attached to, EACCES.
 */
TEST_EXPLICIT(attack_policy_guard_iterator)
{
	union bpf_iter_link_info linfo = {};
	LIBBPF_OPTS(bpf_iter_attach_opts, opts, .link_info = &linfo,
		    .link_info_len = sizeof(linfo));
	struct iter_write_value *it = NULL;
	__u64 before[BPFSIGN_STAT_MAX];
	struct fixture f;

	if (!guard_setup(&f))
		goto out;
	ASSERT_ERR(policy_try_unsigned_syscall(), EPERM, "unsigned syscall program: denied");
	status_now("keyring-allowlist", before);
	it = iter_write_value__open_and_load();
	if (!ASSERT_TRUE(!it, "value-writing iterator after the policy: refused")) {
		struct bpf_link *link;
		int mfd = policy_map_fd_by_id("keyring-allowlist", "map_stats"), ifd;
		char buf[64];

		linfo.map.map_fd = mfd;
		link = bpf_program__attach_iter(it->progs.write_value, &opts);
		ifd = link ? bpf_iter_create(bpf_link__fd(link)) : -1;
		while (ifd >= 0 && read(ifd, buf, sizeof(buf)) > 0)
			;
		printf("# BYPASS: the iterator loaded%s\n", ifd >= 0 ? " and wrote stats" : "");
		if (ifd >= 0)
			close(ifd);
		bpf_link__destroy(link);
		close(mfd);
	} else {
		ASSERT_EQ(errno, EACCES, "errno of the refused load");
	}
	/* libbpf loads a failed program a second time, for its verifier log */
	check_kept(before, 2);
out:
	iter_write_value__destroy(it);
	teardown(&f);
}

/* A signed socket filter (signing.key, builtin keyring: admitted by the
 * policy) that zeroes stats[deny] by its id: the kernel refuses it before
 * any policy (EACCES, "signed program cannot use map fd": a signed
 * program's maps are its fd_array's metadata maps), so the guard records
 * nothing.  A signed loader's children bind only what that run of the
 * loader created; a map-in-map of theirs that fits a policy map is the
 * guard's (attack_policy_guard_map_in_map's check).
 */
TEST_EXPLICIT(attack_policy_guard_signed_writer)
{
	__u64 before[BPFSIGN_STAT_MAX];
	struct fixture f;
	struct load l;
	int mfd, pfd;

	if (!guard_setup(&f))
		goto out;
	ASSERT_ERR(policy_try_unsigned_syscall(), EPERM, "unsigned syscall program: denied");
	status_now("keyring-allowlist", before);
	mfd = policy_map_fd_by_id("keyring-allowlist", "map_stats");
	if (!ASSERT_OK(mfd, "stats by id"))
		goto out;
	{
		const struct bpf_insn w[] = {
			LD_MAP(BPF_REG_1, BPF_PSEUDO_MAP_FD, mfd),
			ST_MEM(BPF_W, BPF_REG_10, -4, BPFSIGN_STAT_DENY),
			MOV64_REG(BPF_REG_2, BPF_REG_10),
			ADD64_IMM(BPF_REG_2, -4),
			CALL(BPF_FUNC_map_lookup_elem),
			JEQ_IMM(BPF_REG_0, 0, 1),
			ST_MEM(BPF_DW, BPF_REG_0, 0, 0),
			MOV64_IMM(BPF_REG_0, 0),
			EXIT_INSN(),
		};

		if (!make_load_insns(&l, w, ARRAY_LEN(w), 0, "signing", BUILTIN)) {
			close(mfd);
			goto out;
		}
	}
	pfd = sys_prog_load(&l);
	pfd = pfd < 0 ? -errno : pfd;
	close(mfd);
	free_load(&l);
	/* EACCES with this log line: the signed-load check of the kernel
	 * (resolve_pseudo_ldimm64(), as test_signed_load.c's raw map fd) */
	if (!ASSERT_ERR(pfd, EACCES, "signed socket filter writing stats by its id") ||
	    !ASSERT_HAS(vlog, "signed program cannot use map fd", "the kernel's reason")) {
		printf("# verifier log: %.1000s\n", vlog);
		if (pfd >= 0) {
			LIBBPF_OPTS(bpf_test_run_opts, run, .data_in = policy_out, .data_size_in = 64);

			ASSERT_OK(bpf_prog_test_run_opts(pfd, &run), "test run of the writer");
			printf("# BYPASS: a signed writer of stats loaded and ran\n");
			close(pfd);
		}
	}
	check_kept(before, 0);
out:
	teardown(&f);
}

/* BPF_PROG_BIND_MAP adds a map to a loaded program's maps without any
 * LSM hook: it gives the program no way to write it (its instructions
 * were verified without it), and a map bound to the policy's own program
 * under the name "stats" is refused by status and log, not read.  The
 * bound map is in the program's used maps, where the guard and the walk
 * of status (policy_users.c) look: status names the program until it is
 * gone, as it would a writer (no instruction tells the two apart).
 */
TEST_EXPLICIT(attack_policy_guard_bind_map)
{
	LIBBPF_OPTS(bpf_prog_bind_opts, bopts);
	__u64 before[BPFSIGN_STAT_MAX], fake_n = 1000000;
	struct fixture f;
	int mfd = -1, pfd = -1, fake = -1, own = -1, lfd, rc, tries;
	struct bpf_prog_info pinfo;
	struct bpf_link_info info;
	__u32 len = sizeof(info), i;
	char msg[128];

	if (!guard_setup(&f))
		goto out;
	ASSERT_ERR(policy_try_unsigned_syscall(), EPERM, "unsigned syscall program: denied");
	status_now("keyring-allowlist", before);
	mfd = policy_map_fd_by_id("keyring-allowlist", "map_stats");
	pfd = load_prog_type(BPF_PROG_TYPE_CGROUP_SKB, ret0, ARRAY_LEN(ret0), NULL);
	if (!ASSERT_OK(mfd, "stats by id") || !ASSERT_OK(pfd, "an allowed cgroup_skb program"))
		goto out;
	/* no hook sees the bind: what it gives must be nothing */
	ASSERT_OK(bpf_prog_bind_map(pfd, mfd, &bopts), "stats bound to the attacker's program");
	{
		LIBBPF_OPTS(bpf_test_run_opts, run, .data_in = policy_out, .data_size_in = 64);

		memset(policy_out, 0, 64);
		ASSERT_OK(bpf_prog_test_run_opts(pfd, &run), "test run of the bound program");
	}
	memset(&pinfo, 0, sizeof(pinfo));
	len = sizeof(pinfo);
	if (!ASSERT_OK(bpf_prog_get_info_by_fd(pfd, &pinfo, &len), "the bound program's id"))
		goto out;
	snprintf(msg, sizeof(msg), "counters not trustworthy: program %u uses map stats", pinfo.id);
	rc = policy_cli("status", NULL);
	/* policy_users.c: the users iterator reads used_maps, the bound map too */
	if (!ASSERT_TRUE(rc != 0, "status: non-zero exit while stats is bound to it") ||
	    !ASSERT_HAS(policy_out, msg, "status: names the program and the map"))
		policy_dump_out();
	close(pfd);
	pfd = -1;
	/* the program is freed after an RCU grace period */
	for (rc = 1, tries = 0; rc && tries < 500; tries++) {
		rc = policy_cli("status", NULL);
		if (rc)
			usleep(10000);
	}
	ASSERT_EQ(rc, 0, "status: exit 0 once the program is gone");
	check_kept(before, 0);
	len = sizeof(info);

	/* an impostor "stats", frozen, bound to the policy's own program */
	fake = bpf_map_create(BPF_MAP_TYPE_ARRAY, "stats", 4, 8, BPFSIGN_STAT_MAX, NULL);
	lfd = bpf_obj_get(POLICY_PIN_DIR "/keyring-allowlist/link_keyring_allowlist");
	memset(&info, 0, sizeof(info));
	if (!ASSERT_OK(fake, "impostor map") || !ASSERT_OK(lfd, "link pin") ||
	    !ASSERT_OK(bpf_link_get_info_by_fd(lfd, &info, &len), "link info"))
		goto out;
	close(lfd);
	for (i = 0; i < BPFSIGN_STAT_MAX; i++)
		bpf_map_update_elem(fake, &i, &fake_n, BPF_ANY);
	ASSERT_OK(bpf_map_freeze(fake), "freeze the impostor");
	own = bpf_prog_get_fd_by_id(info.prog_id);
	if (!ASSERT_OK(own, "the policy's program by id (its own: the guard lets status have it)"))
		goto out;
	ASSERT_OK(bpf_prog_bind_map(own, fake, &bopts), "impostor bound to the policy's program");
	/* status must not print the impostor's counters: two maps of the name */
	ASSERT_TRUE(policy_cli("status", NULL) != 0, "status: exit non-zero");
	if (!ASSERT_HAS(policy_out, "two maps named 'stats'", "status: the reason") ||
	    !ASSERT_TRUE(!strstr(policy_out, "deny 1000000"), "status: not the impostor's counters"))
		policy_dump_out();
out:
	if (mfd >= 0)
		close(mfd);
	if (pfd >= 0)
		close(pfd);
	if (fake >= 0)
		close(fake);
	if (own >= 0)
		close(own);
	teardown(&f);
}

/*
 * Root without the key: the events ring buffer's consumer page is mapped
 * writable (every ring buffer's is); moving consumer_pos back makes `log`
 * read records it printed already, forward makes it skip some.  Each
 * record has a seq (stats[ringed]) and log keeps the last it printed:
 * both are reported (non-zero exit, "replayed" and "missing").
 */
TEST_EXPLICIT(attack_policy_ringbuf_replay)
{
	const long rec = (sizeof(struct bpfsign_event) + 8 + 7) & ~7L;
	__u64 n[BPFSIGN_STAT_MAX], pos;
	long first, second, third;
	struct fixture f;
	void *cons = MAP_FAILED;
	int fd, i;

	if (!setup_session(&f, false))
		goto out;
	if (!POLICY_CLI_OK("load deny-unsigned", "load", "deny-unsigned"))
		goto out;
	for (i = 0; i < 3; i++)
		ASSERT_ERR(try_unsigned(), EPERM, "denial 1-3");
	if (!POLICY_CLI_OK("log", "log", "deny-unsigned"))
		goto out;
	first = log_records();
	ASSERT_HAS(policy_out, "\"replayed\":0,\"missing\":0,\"last_seq\":3", "log 1: summary");
	fd = bpf_obj_get(POLICY_PIN_DIR "/deny-unsigned/map_events");
	if (!ASSERT_OK(fd, "events pin"))
		goto out;
	cons = mmap(NULL, getpagesize(), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (!ASSERT_TRUE(cons != MAP_FAILED, "mmap the consumer page writable"))
		goto out;
	pos = *(volatile __u64 *)cons;
	printf("# consumer_pos %llu, back to 0\n", (unsigned long long)pos);
	*(volatile __u64 *)cons = 0;
	ASSERT_TRUE(policy_cli("log", "deny-unsigned", NULL) > 0, "log 2: exit non-zero on a replay");
	second = log_records();
	if (!ASSERT_HAS(policy_out, "\"replayed\":3,\"missing\":0", "log 2: 3 replayed") ||
	    !ASSERT_HAS(policy_out, "deny-unsigned: 3 records replayed", "log 2: why"))
		policy_dump_out();
	status_now("deny-unsigned", n);
	printf("# log: %ld records, then %ld; status deny %llu\n", first, second, n[BPFSIGN_STAT_DENY]);
	ASSERT_EQ(first + second, n[BPFSIGN_STAT_DENY], "records printed = denials");
	/* forward: 3 more denials, 2 of them skipped */
	for (i = 0; i < 3; i++)
		ASSERT_ERR(try_unsigned(), EPERM, "denial 4-6");
	*(volatile __u64 *)cons = pos + 2 * rec;
	ASSERT_TRUE(policy_cli("log", "deny-unsigned", NULL) > 0, "log 3: exit non-zero on a gap");
	third = log_records();
	if (!ASSERT_HAS(policy_out, "\"replayed\":0,\"missing\":2,\"last_seq\":6", "log 3: 2 missing"))
		policy_dump_out();
	ASSERT_EQ(third, 1, "log 3: the one record left");
	/* nothing moved: clean again */
	ASSERT_ERR(try_unsigned(), EPERM, "denial 7");
	ASSERT_OK(policy_cli("log", "deny-unsigned", NULL), "log 4: exit 0");
	ASSERT_HAS(policy_out, "\"replayed\":0,\"missing\":0,\"last_seq\":7", "log 4: summary");
out:
	if (cons != MAP_FAILED)
		munmap(cons, getpagesize());
	teardown(&f);
}

/*
 * The same from a BPF-token holder, root of a user namespace that maps a
 * subuid range (what newuidmap writes for a user of /etc/subuid):
 * setresuid() inside the namespace gives a new kernel uid per step, so the
 * holder alone fills the tally; then root's own denial (uid 0) leaves no
 * record naming it.
 */
static int flood_token_uids(int token_fd, void *arg)
{
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .prog_flags = BPF_F_TOKEN_FD, .token_fd = token_fd);
	int i, fd;

	(void)arg;
	for (i = 0; i < 600 + BPFSIGN_MAX_TALLIES; i++) {
		/* namespace uid u: kernel uid ATTACK_UID_BASE + u; euid stays 0 */
		/* not the kernel uid it came in with (0 here, a user's own
		 * uid under newuidmap): only namespace uids 1..4097, mapped to
		 * the subuid range; the ring buffer's flood is namespace uid 1
		 */
		if (setresuid(i < 600 ? 1 : i - 599, 0, 0))
			return 2;
		fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, "f", "GPL", ret0, 2, &opts);
		if (fd >= 0 || errno != EPERM) {
			printf("# load %d: fd %d errno %d\n", i, fd, errno);
			return 3;
		}
	}
	return 0;
}

TEST_EXPLICIT(attack_policy_tally_full_by_token_uids)
{
	__u64 n[BPFSIGN_STAT_MAX];
	long entries = 0, before, after;
	struct fixture f;
	char map[64];
	int rc;

	if (!setup_session(&f, false))
		goto out;
	if (!POLICY_CLI_OK("load deny-unsigned", "load", "deny-unsigned"))
		goto out;
	snprintf(map, sizeof(map), "0 %d 65536", ATTACK_UID_BASE);
	token_idmap = map;
	rc = run_with_token(flood_token_uids, NULL);
	token_idmap = NULL;
	if (!ASSERT_EQ(rc, 0, "token holder floods with 4096 namespace uids"))
		goto out;
	before = tally_denials(0, &entries);
	ASSERT_EQ(entries, BPFSIGN_MAX_TALLIES, "the flood filled the tally");
	/* the victim: root, after the flood */
	ASSERT_ERR(try_unsigned(), EPERM, "root's unsigned load after the flood");
	status_now("deny-unsigned", n);
	after = tally_denials(0, &entries);
	printf("# after root's denial: deny %llu tallied %llu lost %llu; its reason counted %ld, then %ld\n",
	       n[BPFSIGN_STAT_DENY], n[BPFSIGN_STAT_TALLIED], n[BPFSIGN_STAT_LOST], before, after);
	if (after != before + 1)
		printf("# BYPASS: the token holder's flood left root's denial without a record (lost %llu)\n",
		       n[BPFSIGN_STAT_LOST]);
	ASSERT_EQ(after, before + 1, "root's denial in tally or tally_any");
	ASSERT_EQ(n[BPFSIGN_STAT_LOST], 0, "status: lost");
out:
	teardown(&f);
}
