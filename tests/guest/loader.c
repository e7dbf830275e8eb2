// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <stdint.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <bpf/bpf.h>

#include "runner.h"
#include "util.h"
#include "sign.h"
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

/*
 * A signed loader (a syscall program that loads a child through
 * bpf_sys_bpf(), as the mini loader does), hand-written so that its
 * instructions are what is signed: ctx is struct loader_args.
 */

#define STX(sz, d, s, o)	INSN(BPF_STX | BPF_MEM | (sz), d, s, o, 0)
#define ST(sz, d, o, i)		INSN(BPF_ST | BPF_MEM | (sz), d, 0, o, i)
#define MOV64_REG(d, s)		INSN(BPF_ALU64 | BPF_MOV | BPF_X, d, s, 0, 0)
#define ADD64_IMM(d, i)		INSN(BPF_ALU64 | BPF_ADD | BPF_K, d, 0, 0, i)

static const struct bpf_insn loader_insns[] = {
	MOV64_REG(BPF_REG_6, BPF_REG_1),
	/* union bpf_attr attr (48 bytes) at fp-48, zeroed */
	ST(BPF_DW, BPF_REG_10, -48, 0), ST(BPF_DW, BPF_REG_10, -40, 0),
	ST(BPF_DW, BPF_REG_10, -32, 0), ST(BPF_DW, BPF_REG_10, -24, 0),
	ST(BPF_DW, BPF_REG_10, -16, 0), ST(BPF_DW, BPF_REG_10, -8, 0),
	ST(BPF_W, BPF_REG_10, -48, BPF_PROG_TYPE_SOCKET_FILTER),
	ST(BPF_W, BPF_REG_10, -44, 2),			/* insn_cnt */
	STX(BPF_DW, BPF_REG_10, BPF_REG_6, -40),	/* insns = ctx->insns */
	MOV64_REG(BPF_REG_2, BPF_REG_6),
	ADD64_IMM(BPF_REG_2, offsetof(struct loader_args, license)),
	STX(BPF_DW, BPF_REG_10, BPF_REG_2, -32),	/* license */
	MOV64_IMM(BPF_REG_1, BPF_PROG_LOAD),
	MOV64_REG(BPF_REG_2, BPF_REG_10),
	ADD64_IMM(BPF_REG_2, -48),
	MOV64_IMM(BPF_REG_3, 48),
	INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_sys_bpf),
	STX(BPF_W, BPF_REG_6, BPF_REG_0, offsetof(struct loader_args, prog_fd)),
	MOV64_IMM(BPF_REG_0, 0),
	EXIT_INSN(),
};

int load_signed_loader(const char *name, int keyring_id)
{
	return load_signed_loader_form(name, keyring_id, false);
}

int load_signed_loader_form(const char *name, int keyring_id, bool signed_attrs)
{
	unsigned char *sig;
	int fd, len;

	len = cms_sign(name, loader_insns, sizeof(loader_insns), signed_attrs, &sig);
	if (len < 1)
		return -EINVAL;
	fd = load_loader_sig(sig, len, keyring_id);
	free(sig);
	return fd;
}

const void *loader_payload(size_t *len)
{
	*len = sizeof(loader_insns);
	return loader_insns;
}

int load_loader_sig(const unsigned char *sig, int len, int keyring_id)
{
	const size_t sz = offsetofend(union bpf_attr, keyring_id);
	union bpf_attr attr;
	int fd;

	memset(&attr, 0, sz);
	attr.prog_type = BPF_PROG_TYPE_SYSCALL;
	attr.prog_flags = BPF_F_SLEEPABLE;
	attr.insns = (uintptr_t)loader_insns;
	attr.insn_cnt = ARRAY_LEN(loader_insns);
	attr.license = (uintptr_t)"GPL";
	attr.signature = (uintptr_t)sig;
	attr.signature_size = len;
	attr.keyring_id = keyring_id;
	attr.log_buf = (uintptr_t)vlog;
	attr.log_size = sizeof(vlog);
	attr.log_level = 1;
	vlog[0] = 0;
	fd = syscall(__NR_bpf, BPF_PROG_LOAD, &attr, sz);
	return fd < 0 ? -errno : fd;
}
