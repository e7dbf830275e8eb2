// SPDX-License-Identifier: GPL-2.0
#include <unistd.h>
#include <sys/syscall.h>
#include <bpf/bpf.h>

#include "runner.h"
#include "util.h"
#include "loader.h"
#include "progs/loader_args.h"
#include "mini_loader.skel.h"
#include "skel_counter.lskel.h"

int loader_run(int prog_fd)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts);
	struct loader_args args = {
		.insns = { MOV64_IMM(BPF_REG_0, 0), EXIT_INSN() },
		.license = "GPL",
	};

	opts.ctx_in = &args;
	opts.ctx_size_in = sizeof(args);
	if (bpf_prog_test_run_opts(prog_fd, &opts))
		return -errno;
	if (args.prog_fd < 0)
		errno = -args.prog_fd;
	return args.prog_fd;
}

int mini_loader_run(struct mini_loader *ml)
{
	return loader_run(bpf_program__fd(ml->progs.load_child));
}

void skel_counter_counts(const char *what)
{
	struct skel_counter *skel = skel_counter__open();
	int i;

	if (!ASSERT_TRUE(skel, "skel_counter__open"))
		return;
	if (!ASSERT_EQ(skel_counter__load(skel), 0, what))
		goto out;
	skel->bss->target_tgid = getpid();
	if (!ASSERT_OK(skel_counter__attach(skel), "attach"))
		goto out;
	for (i = 0; i < 3; i++)
		syscall(SYS_getppid);
	ASSERT_EQ(skel->bss->hits, 3 * skel->data->step, "the signed skeleton's child runs");
out:
	skel_counter__destroy(skel);
}
