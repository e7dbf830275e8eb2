// SPDX-License-Identifier: GPL-2.0
/*
 * make bench: an __arena kfunc argument vs a scalar offset the kfunc
 * translates, and a kfunc access recovered from a fault on an unallocated
 * page vs the same access once the scratch page is mapped there.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#define __arena __attribute__((address_space(1)))
#define NUMA_NO_NODE (-1)
#define CALLS 10000

struct {
	__uint(type, BPF_MAP_TYPE_ARENA);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 1);
	__ulong(map_extra, 1ull << 44);
} arena SEC(".maps");

void __arena *bpf_arena_alloc_pages(void *map, void __arena *addr, __u32 page_cnt,
				    int node_id, __u64 flags) __ksym;
int bpf_test_arena_write(__u64 __arena *p, __u64 val) __ksym;
int bpf_test_arena_write_off(void *arena__map, __u64 off, __u64 val) __ksym;
__u64 bpf_test_arena_deref(__u64 __arena *p, __u64 val) __ksym;

__u64 __arena *slot;
int errors;
/* bench_fault's pages: fault_calls of them from page fault_base, past the
 * arena's allocated page, never allocated
 */
__u32 fault_base, fault_calls;

static int by_arena_arg(__u32 i, void *ctx)
{
	errors += bpf_test_arena_write(slot, i) != 0;
	return 0;
}

static int by_offset(__u32 i, void *ctx)
{
	errors += bpf_test_arena_write_off(&arena, (__u64)slot, i) != 0;
	return 0;
}

static int by_fault(__u32 i, void *ctx)
{
	__u64 addr = (__u64)(fault_base + i) << 12;

	errors += bpf_test_arena_deref((__u64 __arena *)addr, i) != i;
	return 0;
}

SEC("syscall")
int setup(void *ctx)
{
	slot = bpf_arena_alloc_pages(&arena, NULL, 1, NUMA_NO_NODE, 0);
	return slot ? 0 : 1;
}

SEC("syscall")
int bench_arena_arg(void *ctx)
{
	void *map = &arena;

	/* __arena arguments need the program to use its arena */
	asm volatile("" :: "r"(map));
	return bpf_loop(CALLS, by_arena_arg, NULL, 0);
}

SEC("syscall")
int bench_fault(void *ctx)
{
	void *map = &arena;

	asm volatile("" :: "r"(map));
	return bpf_loop(fault_calls, by_fault, NULL, 0);
}

SEC("syscall")
int bench_offset(void *ctx)
{
	return bpf_loop(CALLS, by_offset, NULL, 0);
}

char LICENSE[] SEC("license") = "GPL";
