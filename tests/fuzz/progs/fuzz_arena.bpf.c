// SPDX-License-Identifier: GPL-2.0
/*
 * Arena kfunc arguments from a context the fuzzer chooses: allocate or free
 * a page, write, read and test for NULL at any offset.  Whatever the offset,
 * the nofault kfuncs must return 0 or -EFAULT, never fault.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#define NUMA_NO_NODE (-1)
#define __arena __attribute__((address_space(1)))
#define USER_BASE (1ull << 44)

struct {
	__uint(type, BPF_MAP_TYPE_ARENA);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 4);		/* pages */
	__ulong(map_extra, USER_BASE);	/* user address: low 32 bits zero */
} arena SEC(".maps");

void __arena *bpf_arena_alloc_pages(void *map, void __arena *addr, __u32 page_cnt,
				    int node_id, __u64 flags) __ksym;
void bpf_arena_free_pages(void *map, void __arena *ptr, __u32 page_cnt) __ksym;
int bpf_test_arena_write(__u64 __arena *p, __u64 val) __ksym;
int bpf_test_arena_read(__u64 __arena *p, __u64 *out) __ksym;
int bpf_test_arena_is_null(__u64 __arena *p) __ksym;

/* tests/fuzz/ops_misc.c's struct arena_ctx */
struct arena_ctx {
	__u32 op;		/* 1 alloc, 2 free, 4 write, 8 read, 16 is_null */
	__u32 page;
	__u64 off, val, off2;
	__s64 alloc_ret, write_ret, read_ret, null_ret;
	__u64 read_val;
};

SEC("syscall")
int fuzz_arena(struct arena_ctx *ctx)
{
	__u64 addr = USER_BASE + ((__u64)(ctx->page & 0xff) << 12), out = 0;

	if (ctx->op & 1)
		ctx->alloc_ret = bpf_arena_alloc_pages(&arena, (void __arena *)addr, 1,
						       NUMA_NO_NODE, 0) ? 0 : -1;
	if (ctx->op & 2)
		bpf_arena_free_pages(&arena, (void __arena *)addr, 1);
	if (ctx->op & 4)
		ctx->write_ret = bpf_test_arena_write((__u64 __arena *)ctx->off, ctx->val);
	if (ctx->op & 8) {
		ctx->read_ret = bpf_test_arena_read((__u64 __arena *)ctx->off2, &out);
		ctx->read_val = out;
	}
	if (ctx->op & 16)
		ctx->null_ret = bpf_test_arena_is_null((__u64 __arena *)ctx->off);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
