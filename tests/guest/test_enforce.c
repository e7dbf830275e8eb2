// SPDX-License-Identifier: GPL-2.0
/*
 * Provenance (programs know their loader) and kernel.bpf_sig_enforce.
 * Enforcement cannot be lowered once raised, so its tests are explicit:
 * enforce_sysctl_runtime runs last in the default boot, enforce_boot_param
 * in a boot with bpf_sig_enforce=1 (boots() in scripts/run-tests.sh).
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <keyutils.h>
#include <bpf/bpf.h>

#include "runner.h"
#include "util.h"
#include "sign.h"
#include "audit.h"
#include "loader.h"
#include "progs/loader_args.h"
#include "verdict.skel.h"
#include "mini_loader.skel.h"
#include "skel_counter.lskel.h"

#define SYSCTL "/proc/sys/kernel/bpf_sig_enforce"

static const struct bpf_insn ret0[] = { MOV64_IMM(BPF_REG_0, 0), EXIT_INSN() };

static int read_sysctl(void)
{
	char buf[8] = "";
	int fd = open(SYSCTL, O_RDONLY);

	if (fd < 0)
		return -1;
	if (read(fd, buf, sizeof(buf) - 1) < 0)
		buf[0] = 0;
	close(fd);
	return buf[0] ? atoi(buf) : -1;
}

/* 0 or -errno of writing val to the sysctl */
static int write_sysctl(const char *val)
{
	return sysctl_write(SYSCTL, val, NULL, 0);
}

TEST(provenance_of_a_signed_loaders_children)
{
	struct verdict *v = verdict__open_and_load();
	struct skel_counter *skel;

	if (!ASSERT_TRUE(v, "verdict LSM skeleton"))
		return;
	v->bss->target_tgid = getpid();
	if (!ASSERT_OK(verdict__attach(v), "attach"))
		goto out;
	skel = skel_counter__open_and_load();
	if (ASSERT_TRUE(skel, "signed skeleton loads")) {
		/* the last load the LSM saw is the loader's child */
		ASSERT_EQ(v->bss->verdict, 0, "the child itself carries no signature");
		ASSERT_GE(v->bss->loader_id, 1, "the child names its loader");
		ASSERT_EQ(v->bss->loader_verdict, 1, "loaded by a VERIFIED loader");
		ASSERT_EQ(v->bss->loader_keyring, 1,
			  "loader_keyring_type: BPF_SIG_KEYRING_BUILTIN, the loader's keyring");
		skel_counter__destroy(skel);
	}
out:
	verdict__destroy(v);
}

TEST(provenance_of_an_unsigned_loaders_children)
{
	struct verdict *v = verdict__open_and_load();
	struct mini_loader *loader = mini_loader__open_and_load();
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);
	int child;

	if (!ASSERT_TRUE(v, "verdict LSM skeleton") || !ASSERT_TRUE(loader, "mini loader"))
		goto out;
	v->bss->target_tgid = getpid();
	if (!ASSERT_OK(verdict__attach(v), "attach"))
		goto out;
	child = mini_loader_run(loader);
	if (ASSERT_OK(child, "unsigned loader loads a child (enforcement off)"))
		close(child);
	bpf_prog_get_info_by_fd(bpf_program__fd(loader->progs.load_child), &info, &len);
	ASSERT_EQ(v->bss->loader_id, info.id, "the child names the mini loader");
	ASSERT_EQ(v->bss->loader_verdict, 0, "the loader is UNSIGNED");
	ASSERT_EQ(v->bss->loader_keyring, 0, "loader_keyring_type: BPF_SIG_KEYRING_NONE");
out:
	mini_loader__destroy(loader);
	verdict__destroy(v);
}

TEST(enforce_off_by_default)
{
	int fd;

	ASSERT_EQ(read_sysctl(), 0, "kernel.bpf_sig_enforce defaults to 0");
	fd = load_prog(ret0, ARRAY_LEN(ret0), NULL);
	if (ASSERT_OK(fd, "unsigned load with enforcement off"))
		close(fd);
}

struct racer {
	const char *val;
	volatile int *stop;
	int ok;
};

static void *race_writer(void *p)
{
	struct racer *r = p;

	do {
		if (!write_sysctl(r->val))
			r->ok++;
	} while (!*r->stop);
	return NULL;
}

/*
 * Raised at run time, while two writers of 0 race the writer of 1, with
 * loaders admitted before: must run last in its boot, it cannot be undone.
 */
TEST_EXPLICIT(enforce_sysctl_runtime)
{
	struct mini_loader *loader = mini_loader__open_and_load();
	volatile int stop = 0;
	struct racer low[2] = { { "0", &stop, 0 }, { "0", &stop, 0 } };
	int builtin = -1, user = -1, child, i, len;
	unsigned char *der;
	pthread_t t[2];

	if (!ASSERT_TRUE(loader, "unsigned mini loader, loaded before enforcement"))
		return;
	len = cert_der("untrusted", &der);
	if (ASSERT_GE(len, 1, "untrusted.crt"))
		ASSERT_OK(add_key("asymmetric", "bpfsign-untrusted", der, len,
				  KEY_SPEC_SESSION_KEYRING),
			  "the caller's own certificate in its session keyring");
	free(der);
	builtin = load_signed_loader("signing", 0);
	if (!ASSERT_OK(builtin, "loader signed by a builtin key"))
		printf("#   log: %.300s\n", vlog);
	user = load_signed_loader("untrusted", KEY_SPEC_SESSION_KEYRING);
	if (!ASSERT_OK(user, "loader verified by the session keyring (enforcement off)"))
		printf("#   log: %.300s\n", vlog);
	child = loader_run(user);
	if (ASSERT_OK(child, "its child loads while enforcement is off"))
		close(child);

	/* two writers of 0 race one writer of 1: no 0 may undo the 1 */
	for (i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, race_writer, &low[i]);
	usleep(20 * 1000);
	ASSERT_OK(write_sysctl("1"), "raise kernel.bpf_sig_enforce");
	for (i = 0; i < 1000; i++)
		if (!ASSERT_EQ(read_sysctl(), 1, "no write of 0 undoes the 1 that returned"))
			break;
	stop = 1;
	for (i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	ASSERT_GE(low[0].ok + low[1].ok, 1, "the writers of 0 did run before the 1");
	ASSERT_EQ(read_sysctl(), 1, "enforcement on");

	/* the same unsigned program that loaded a moment ago */
	ASSERT_ERR(load_prog(ret0, ARRAY_LEN(ret0), NULL), EPERM, "unsigned load");
	ASSERT_HAS(vlog, "bpf_sig_enforce: program is not signed", "log line");

	/* a loader admitted earlier still cannot load unsigned children */
	ASSERT_ERR(mini_loader_run(loader), EPERM, "unsigned loader's child");
	/* the loader verdict that admits children follows the keyring rule */
	ASSERT_ERR(loader_run(user), EPERM, "caller-keyring loader's child under enforcement");
	child = loader_run(builtin);
	if (ASSERT_OK(child, "builtin-keyring loader's child under enforcement"))
		close(child);

	skel_counter_counts("signed skeleton: loader and children load");

	/* one way only */
	ASSERT_ERR(write_sysctl("0"), EPERM, "lowering kernel.bpf_sig_enforce");
	ASSERT_EQ(read_sysctl(), 1, "still on");
	if (user >= 0)
		close(user);
	if (builtin >= 0)
		close(builtin);
	mini_loader__destroy(loader);
}

/* Boot with bpf_sig_enforce=1 */
TEST_EXPLICIT(enforce_boot_param)
{
	int afd = audit_open();
	char rec[1024];

	ASSERT_EQ(read_sysctl(), 1, "bpf_sig_enforce=1 on the command line");
	ASSERT_ERR(load_prog(ret0, ARRAY_LEN(ret0), NULL), EPERM, "unsigned load");
	ASSERT_HAS(vlog, "bpf_sig_enforce: program is not signed", "log line");
	/* the denial reaches the audit log with its errno */
	if (ASSERT_OK(afd, "register as the audit daemon")) {
		ASSERT_OK(audit_find(afd, "op=LOAD res=0 errno=-1 verdict=unsigned", rec,
				     sizeof(rec), 2000), "audit record of the refused unsigned load");
		audit_close(afd);
	}
	/* an unsigned loader is itself refused */
	ASSERT_TRUE(!mini_loader__open_and_load(), "unsigned mini loader refused");
	skel_counter_counts("signed skeleton: loader and children load");
	ASSERT_ERR(write_sysctl("0"), EPERM, "lowering kernel.bpf_sig_enforce");
}
