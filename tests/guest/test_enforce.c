// SPDX-License-Identifier: GPL-2.0
/*
 * Provenance (programs know their loader) and kernel.bpf_sig_enforce.
 * Enforcement cannot be lowered once raised, so its tests are explicit:
 * enforce_sysctl_runtime runs last in the default boot, enforce_boot_param
 * in a boot with bpf_sig_enforce=1 (scripts/run-tests.sh).
 */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <bpf/bpf.h>

#include "runner.h"
#include "util.h"
#include "audit.h"
#include "verdict.skel.h"
#include "mini_loader.skel.h"
#include "skel_counter.lskel.h"

#define SYSCTL "/proc/sys/kernel/bpf_sig_enforce"

struct loader_args {
	struct bpf_insn insns[2];
	char license[4];
	int prog_fd;
};

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

/* Run the unsigned mini loader; returns the child's fd or -errno. */
static int run_mini_loader(struct mini_loader *skel)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts);
	struct loader_args args = {
		.insns = { MOV64_IMM(BPF_REG_0, 0), EXIT_INSN() },
		.license = "GPL",
	};

	opts.ctx_in = &args;
	opts.ctx_size_in = sizeof(args);
	if (bpf_prog_test_run_opts(bpf_program__fd(skel->progs.load_child), &opts))
		return -errno;
	return args.prog_fd;
}

static bool signed_skeleton_counts(void)
{
	struct skel_counter *skel = skel_counter__open();
	bool ok = false;
	int err, i;

	if (!ASSERT_TRUE(skel, "skel_counter__open"))
		return false;
	err = skel_counter__load(skel);
	if (!ASSERT_EQ(err, 0, "signed skeleton: loader and children load"))
		goto out;
	skel->bss->target_tgid = getpid();
	if (!ASSERT_OK(skel_counter__attach(skel), "attach"))
		goto out;
	for (i = 0; i < 3; i++)
		syscall(SYS_getppid);
	ok = ASSERT_EQ(skel->bss->hits, 3 * skel->data->step, "the child program runs");
out:
	skel_counter__destroy(skel);
	return ok;
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
	child = run_mini_loader(loader);
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

/* Raised at run time: must run last in its boot, it cannot be undone. */
TEST_EXPLICIT(enforce_sysctl_runtime)
{
	struct mini_loader *loader = mini_loader__open_and_load();

	if (!ASSERT_TRUE(loader, "unsigned mini loader, loaded before enforcement"))
		return;
	ASSERT_OK(write_sysctl("1"), "raise kernel.bpf_sig_enforce");
	ASSERT_EQ(read_sysctl(), 1, "enforcement on");

	/* the same unsigned program that loaded a moment ago */
	ASSERT_ERR(load_prog(ret0, ARRAY_LEN(ret0), NULL), EPERM, "unsigned load");
	ASSERT_HAS(vlog, "bpf_sig_enforce: program is not signed", "log line");

	/* a loader admitted earlier still cannot load unsigned children */
	ASSERT_ERR(run_mini_loader(loader), EPERM, "unsigned loader's child");

	signed_skeleton_counts();

	/* one way only */
	ASSERT_ERR(write_sysctl("0"), EPERM, "lowering kernel.bpf_sig_enforce");
	ASSERT_EQ(read_sysctl(), 1, "still on");
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
	signed_skeleton_counts();
	ASSERT_ERR(write_sysctl("0"), EPERM, "lowering kernel.bpf_sig_enforce");
}
