// SPDX-License-Identifier: GPL-2.0
/*
 * A generated loader run twice over the same metadata map (issue 35, part
 * 4): the second run must not report, or close, the fds that the first run
 * left in its blob.  libbpf generates the loader here, from iter_write's
 * object, and the test drives it as skel_internal.h's bpf_load_and_run()
 * does, but keeps the loader and its map for a second run.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "runner.h"
#include "util.h"
#include <bpf/skel_internal.h>
#include "iter_write.skel.h"

struct rerun {
	struct bpf_object *obj;
	struct gen_loader_opts gen;
	int nr_maps, nr_progs;
	int map_fd, prog_fd;
};

static bool rerun_open(struct rerun *r)
{
	const size_t load_sz = offsetofend(union bpf_attr, fd_array_cnt);
	struct bpf_program *p;
	struct bpf_map *m;
	const void *elf;
	union bpf_attr attr;
	size_t elf_sz;
	int zero = 0;

	memset(r, 0, sizeof(*r));
	r->map_fd = r->prog_fd = -1;
	r->gen.sz = sizeof(r->gen);
	elf = iter_write__elf_bytes(&elf_sz);
	r->obj = bpf_object__open_mem(elf, elf_sz, NULL);
	if (!ASSERT_TRUE(r->obj, "open iter_write") ||
	    !ASSERT_OK(bpf_object__gen_loader(r->obj, &r->gen), "bpf_object__gen_loader") ||
	    !ASSERT_OK(bpf_object__load(r->obj), "generate the loader"))
		return false;
	bpf_object__for_each_map(m, r->obj)
		r->nr_maps++;
	bpf_object__for_each_program(p, r->obj)
		r->nr_progs++;
	r->map_fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "__loader.map", 4, r->gen.data_sz, 1, NULL);
	if (!ASSERT_OK(r->map_fd, "metadata map") ||
	    !ASSERT_OK(bpf_map_update_elem(r->map_fd, &zero, r->gen.data, 0), "metadata") ||
	    !ASSERT_OK(bpf_map_freeze(r->map_fd), "freeze"))
		return false;
	memset(&attr, 0, load_sz);
	attr.prog_type = BPF_PROG_TYPE_SYSCALL;
	attr.prog_flags = BPF_F_SLEEPABLE;
	attr.insns = (uintptr_t)r->gen.insns;
	attr.insn_cnt = r->gen.insns_sz / sizeof(struct bpf_insn);
	attr.license = (uintptr_t)"Dual BSD/GPL";
	attr.fd_array = (uintptr_t)&r->map_fd;
	attr.fd_array_cnt = 1;
	r->prog_fd = syscall(__NR_bpf, BPF_PROG_LOAD, &attr, load_sz);
	return ASSERT_OK(r->prog_fd, "the loader");
}

/* One run; skip[i] leaves program i out.  Fills fds (maps, then programs). */
static int rerun_run(struct rerun *r, const bool *skip, int *fds)
{
	size_t sz = sizeof(struct bpf_loader_ctx) + r->nr_maps * sizeof(struct bpf_map_desc) +
		    r->nr_progs * sizeof(struct bpf_prog_desc);
	LIBBPF_OPTS(bpf_test_run_opts, opts);
	struct bpf_loader_ctx *ctx = calloc(1, sz);
	struct bpf_map_desc *md = (void *)(ctx + 1);
	struct bpf_prog_desc *pd = (void *)(md + r->nr_maps);
	int i, err;

	if (!ctx)
		return -ENOMEM;
	ctx->sz = sz;
	for (i = 0; i < r->nr_progs; i++)
		pd[i].prog_fd = skip[i] ? BPF_SKEL_PROG_SKIP : 0;
	opts.ctx_in = ctx;
	opts.ctx_size_in = sz;
	err = bpf_prog_test_run_opts(r->prog_fd, &opts);
	if (!err)
		err = (int)opts.retval;
	for (i = 0; i < r->nr_maps; i++)
		fds[i] = md[i].map_fd;
	for (i = 0; i < r->nr_progs; i++)
		fds[r->nr_maps + i] = pd[i].prog_fd;
	free(ctx);
	return err;
}

static void close_fds(const int *fds, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (fds[i] > 0)
			close(fds[i]);
}

TEST(loader_rerun_left_out_has_no_fd)
{
	bool all[8] = {}, skip0[8] = { true };
	int first[16], second[16], n;
	struct rerun r;

	if (!rerun_open(&r))
		goto out;
	n = r.nr_maps + r.nr_progs;
	if (!ASSERT_TRUE(n <= 16 && r.nr_progs <= 8 && r.nr_progs >= 2, "iter_write's shape"))
		goto out;
	if (!ASSERT_EQ(rerun_run(&r, all, first), 0, "first run: everything"))
		goto out;
	ASSERT_GE(first[r.nr_maps], 1, "first run: program 0 loaded");
	close_fds(first, n);
	/* bpf_gen__init(): the second run starts with no fds in its blob */
	if (ASSERT_EQ(rerun_run(&r, skip0, second), 0, "second run: program 0 left out")) {
		ASSERT_EQ(second[r.nr_maps], 0, "the program left out has fd 0, not the first run's");
		ASSERT_GE(second[r.nr_maps + 1], 1, "program 1 loaded again");
		close_fds(second, n);
	}
out:
	if (r.prog_fd >= 0)
		close(r.prog_fd);
	if (r.map_fd >= 0)
		close(r.map_fd);
	bpf_object__close(r.obj);
}
