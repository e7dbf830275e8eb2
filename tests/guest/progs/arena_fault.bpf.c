// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel fault recovery on arena pages: kfuncs dereference __arena arguments
 * that point at pages nobody allocated, at the pointer and up to GUARD_SZ/2
 * past it; the fault handler maps the arena's scratch page there.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#define __arena __attribute__((address_space(1)))
#define NUMA_NO_NODE (-1)
#define USER_BASE (1ull << 44)
#define PAGE 4096
#define GUARD_HALF 32768	/* GUARD_SZ / 2 */
#define PAGES 16

struct {
	__uint(type, BPF_MAP_TYPE_ARENA);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, PAGES);
	__ulong(map_extra, USER_BASE);	/* user address: low 32 bits zero */
} arena SEC(".maps");

void __arena *bpf_arena_alloc_pages(void *map, void __arena *addr, __u32 page_cnt,
				    int node_id, __u64 flags) __ksym;
void bpf_arena_free_pages(void *map, void __arena *ptr, __u32 page_cnt) __ksym;
int bpf_test_arena_write(__u64 __arena *p, __u64 val) __ksym;
__u64 bpf_test_arena_deref(__u64 __arena *p, __u64 val) __ksym;
__s64 bpf_test_arena_deref_at(__u64 __arena *p, __u32 off, __u64 val) __ksym;
int bpf_test_arena_recoverable(__u64 __arena *p, __s64 off) __ksym;

/* The arena pointer at byte off: cast to the kernel address space, which
 * keeps the 32-bit arena offset and makes it a pointer the program may load
 * through.
 */
static __always_inline __u64 __arena *at(__u64 off)
{
	__u64 addr = USER_BASE + off;
	void *map = &arena;

	/* the cast needs the program to use its arena */
	asm volatile("" :: "r"(map));
	asm volatile("%[a] = addr_space_cast(%[a], 0, 1)" : [a]"+r"(addr));
	return (__u64 __arena *)addr;
}

/* page n of the arena */
#define page(n) at((__u64)(n) * PAGE)
/* the arena's last u64: its 4 GiB end, whatever max_entries is */
#define LAST_U64 at(0xfffffff8ull)
/* what bpf_arena_alloc_pages() returns for page n */
#define USER_PAGE(n) (USER_BASE + (__u64)(n) * PAGE)

__u64 deref_ret, seen_by_prog, other_page, limit_ret, deref_again;
__s64 range_ret;
int rec_at, rec_limit, rec_beyond, rec_below, nofault_ret;
int alloc_ok, freed_scratch_ok;
__u64 after_alloc;

SEC("syscall")
int recover(void *ctx)
{
	__u64 __arena *q;

	/* at the pointer: page 5 was never allocated */
	deref_ret = bpf_test_arena_deref(page(5), 0x5ca7c400d1ull);
	/* the program's own loads go through the same PTE */
	seen_by_prog = *page(5);
	/* a program load faults on an empty PTE and reads 0, mapping nothing */
	other_page = *page(6);

	/* at the guard limit: the last u64 within GUARD_SZ / 2 past the arena's
	 * last u64 lies in the upper half-guard
	 */
	limit_ret = bpf_test_arena_deref_at(LAST_U64, GUARD_HALF - 8, 0x11e17ull);
	/* the kfunc's contract refuses one u64 further */
	range_ret = bpf_test_arena_deref_at(LAST_U64, GUARD_HALF, 1);

	/* what the fault handler recovers */
	rec_at = bpf_test_arena_recoverable(page(10), 0);
	rec_limit = bpf_test_arena_recoverable(LAST_U64, GUARD_HALF - 1);
	/* past the upper half-guard: not the arena's, a fault there oopses */
	rec_beyond = bpf_test_arena_recoverable(LAST_U64, GUARD_HALF + 8);
	/* the lower half-guard: kernel code never accesses backward */
	rec_below = bpf_test_arena_recoverable(page(0), -8);

	/* the nofault accessors still fail instead of mapping the scratch page */
	nofault_ret = bpf_test_arena_write(page(7), 1);

	/* allocation over the scratch page maps a fresh page */
	q = bpf_arena_alloc_pages(&arena, (void __arena *)USER_PAGE(5), 1, NUMA_NO_NODE, 0);
	alloc_ok = (__u64)q == USER_PAGE(5);
	after_alloc = q ? *q : ~0ull;

	/* freeing a page only the scratch page backs clears it, frees nothing */
	bpf_test_arena_deref(page(8), 1);
	bpf_arena_free_pages(&arena, page(8), 1);
	freed_scratch_ok = *page(8) == 0;
	deref_again = bpf_test_arena_deref(page(8), 0xa6a1);
	return 0;
}

/* Page 9 gets the scratch page, for user space to fault on it */
SEC("syscall")
int scratch_page9(void *ctx)
{
	return bpf_test_arena_deref(page(9), 0x5c) == 0x5c ? 0 : 1;
}

__u64 page9_seen;

SEC("syscall")
int read_page9(void *ctx)
{
	page9_seen = *page(9);
	return 0;
}

/* Concurrently: one CPU faults on every page, the other allocates and frees
 * them. What the hammer reads back depends on the race, so it is not
 * counted; each allocation must succeed over whatever the hammer left.
 */
int alloc_failures, pages_allocated;

static int hammer_one(__u32 i, void *ctx)
{
	bpf_test_arena_deref(page(i % PAGES), 0x4a00 + i);
	return 0;
}

SEC("syscall")
int hammer(void *ctx)
{
	bpf_loop(PAGES * 16, hammer_one, NULL, 0);
	return 0;
}

static int churn_one(__u32 i, void *ctx)
{
	/* the user address: 0, for page 0's arena offset, means any page */
	void __arena *p = (void __arena *)USER_PAGE(i % PAGES);

	if ((__u64)bpf_arena_alloc_pages(&arena, p, 1, NUMA_NO_NODE, 0) != (__u64)p) {
		alloc_failures++;
		return 0;
	}
	pages_allocated++;
	bpf_arena_free_pages(&arena, p, 1);
	return 0;
}

SEC("syscall")
int churn(void *ctx)
{
	bpf_loop(PAGES * 4, churn_one, NULL, 0);
	return 0;
}

/* A long run over distinct fresh pages, while user space lets go of the arena */
__u32 long_pages;
int long_errors;

static int long_one(__u32 i, void *ctx)
{
	long_errors += bpf_test_arena_deref(page(PAGES + i), i) != i;
	return 0;
}

SEC("syscall")
int long_run(void *ctx)
{
	bpf_loop(long_pages, long_one, NULL, 0);
	return long_errors;
}

char LICENSE[] SEC("license") = "GPL";
