// SPDX-License-Identifier: GPL-2.0
/*
 * Arena kfunc arguments (progs/fuzz_arena.bpf.c): allocate and free pages,
 * write, read and test for NULL at offsets in and out of the arena.  The
 * kfuncs must return 0 where the model has a page and -EFAULT elsewhere,
 * and a read must return what the last write left.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>

#include "fuzz.h"
#include "ops.h"
#include "fuzz_arena.skel.h"

static struct fuzz_arena *arena_skel;

struct arena_ctx {
	u32 op;
	u32 page;
	u64 off, val, off2;
	s64 alloc_ret, write_ret, read_ret, null_ret;
	u64 read_val;
};

#define ARENA_PAGES 4
#define APAGE 4096u

static bool arena_ok(u64 off)
{
	u64 o = (u32)off, last = o + 7;

	return o / APAGE < ARENA_PAGES && st.arena_page[o / APAGE] &&
	       last / APAGE < ARENA_PAGES && st.arena_page[last / APAGE];
}

static u64 arena_off(void)
{
	static const u32 in_page[] = { 0, 8, 4088, 4089, 4095, 2048 };
	u64 page = rnd_below(ARENA_PAGES + 2);

	switch (rnd_below(6)) {
	case 0:
		return rnd();
	case 1: {
		u64 high = 0x100000000ull * rnd_below(4);

		return high + page * APAGE + rnd_below(APAGE);
	}
	default:
		return page * APAGE + in_page[rnd_below(ARRAY_SIZE(in_page))];
	}
}

void op_arena(void)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts);
	struct arena_ctx c = {};
	bool wrote;
	u64 want;
	int ret;

	if (!arena_skel)
		return;
	c.op = rnd_below(32);
	c.page = rnd_below(ARENA_PAGES + 2);
	c.off = arena_off();
	c.off2 = rnd_chance(3, 5) ? c.off : arena_off();
	c.val = rnd();
	c.alloc_ret = c.write_ret = c.read_ret = c.null_ret = 77;
	opts.ctx_in = &c;
	opts.ctx_size_in = sizeof(c);
	op_desc("arena run op %#x page %u off %#llx off2 %#llx", c.op, c.page,
		(unsigned long long)c.off, (unsigned long long)c.off2);
	ret = bpf_prog_test_run_opts(st.arena_fd, &opts);
	expect_check("arena_run", EXPECT_OK("a syscall program run"), ret);
	if (ret)
		return;
	if (c.op & 1) {
		bool free_page = c.page < ARENA_PAGES && !st.arena_page[c.page];

		if ((c.alloc_ret == 0) != free_page)
			violation("arena page %u allocation %s, the model says it is %s", c.page,
				  c.alloc_ret ? "failed" : "succeeded",
				  free_page ? "free" : "taken or out of range");
		if (free_page) {
			st.arena_page[c.page] = true;
			memset(st.arena_mem + c.page * APAGE, 0, APAGE);
		}
	}
	if ((c.op & 2) && c.page < ARENA_PAGES)
		st.arena_page[c.page] = false;
	if (c.op & 4) {
		wrote = arena_ok(c.off);
		if (c.write_ret != (wrote ? 0 : -EFAULT))
			violation("arena write at %#llx returned %lld, the model %d",
				  (unsigned long long)c.off, (long long)c.write_ret,
				  wrote ? 0 : -EFAULT);
		if (wrote)
			memcpy(st.arena_mem + (u32)c.off, &c.val, 8);
		stat_note(wrote ? "arena writes" : "arena writes refused (-EFAULT)");
	}
	if (c.op & 8) {
		bool ok = arena_ok(c.off2);

		if (c.read_ret != (ok ? 0 : -EFAULT))
			violation("arena read at %#llx returned %lld, the model %d",
				  (unsigned long long)c.off2, (long long)c.read_ret, ok ? 0 : -EFAULT);
		if (ok) {
			memcpy(&want, st.arena_mem + (u32)c.off2, 8);
			if (c.read_val != want)
				violation("arena read at %#llx gave %#llx, the model %#llx",
					  (unsigned long long)c.off2, (unsigned long long)c.read_val,
					  (unsigned long long)want);
		}
	}
	if ((c.op & 16) && c.null_ret != !(u32)c.off)
		violation("__arena__nullable of %#llx: %lld", (unsigned long long)c.off,
			  (long long)c.null_ret);
}

bool arena_setup(void)
{
	st.arena_mem = calloc(ARENA_PAGES, APAGE);
	arena_skel = fuzz_arena__open_and_load();
	if (!arena_skel)
		return false;
	st.arena_fd = bpf_program__fd(arena_skel->progs.fuzz_arena);
	return true;
}

void arena_teardown(void)
{
	fuzz_arena__destroy(arena_skel);
	arena_skel = NULL;
}
