// SPDX-License-Identifier: GPL-2.0
/* __arena and __arena__nullable kfunc arguments, end to end. */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#define __arena __attribute__((address_space(1)))
#define NUMA_NO_NODE (-1)
#define PAGE_WORDS (4096 / 8)

struct {
	__uint(type, BPF_MAP_TYPE_ARENA);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 4);		/* pages */
	__ulong(map_extra, 1ull << 44);	/* user address: low 32 bits zero */
} arena SEC(".maps");

void __arena *bpf_arena_alloc_pages(void *map, void __arena *addr, __u32 page_cnt,
				    int node_id, __u64 flags) __ksym;
int bpf_test_arena_write(__u64 __arena *p, __u64 val) __ksym;
int bpf_test_arena_read(__u64 __arena *p, __u64 *out) __ksym;
int bpf_test_arena_is_null(__u64 __arena *p) __ksym;
__u64 bpf_test_arena_deref(__u64 __arena *p, __u64 val) __ksym;
int bpf_test_arena_scalar(__u64 off) __ksym;

int write_ret, read_ret, fault_ret, cast_ret;
int null_of_null, null_of_page0, null_of_page1;
__u64 seen_by_prog, seen_by_kfunc, base_value, seen_after_cast;

SEC("syscall")
int arena_args(void *ctx)
{
	__u64 __arena *page0, *page1;

	/* a fresh arena: the first page is at arena offset 0 */
	page0 = bpf_arena_alloc_pages(&arena, NULL, 2, NUMA_NO_NODE, 0);
	if (!page0)
		return 1;
	page1 = page0 + PAGE_WORDS;

	write_ret = bpf_test_arena_write(page1, 0x1122334455667788ull);
	seen_by_prog = *page1;
	*page1 = 42;
	read_ret = bpf_test_arena_read(page1, &seen_by_kfunc);

	null_of_null = bpf_test_arena_is_null(NULL);
	null_of_page0 = bpf_test_arena_is_null(page0);
	null_of_page1 = bpf_test_arena_is_null(page1);

	/* __arena rebases NULL to the arena base, offset 0 */
	bpf_test_arena_write(NULL, 7);
	base_value = *page0;

	/* a PTR_TO_ARENA register: cast to the kernel address space, which
	 * keeps the 32-bit arena offset
	 */
	{
		long kern;

		asm volatile("%[kern] = addr_space_cast(%[user], 0, 1)"
			     : [kern]"=r"(kern) : [user]"r"(page1));
		cast_ret = bpf_test_arena_write((__u64 __arena *)kern, 99);
		seen_after_cast = *page1;
	}

	/* page 3 was never allocated: the kfunc must not fault */
	fault_ret = bpf_test_arena_write(page0 + 3 * PAGE_WORDS, 1);
	return 0;
}

/* An __arena argument to a kfunc that dereferences it directly, which
 * KF_ARENA_NOFAULT used to forbid
 */
SEC("?syscall")
int unsafe_kfunc(void *ctx)
{
	__u64 __arena *p = bpf_arena_alloc_pages(&arena, NULL, 1, NUMA_NO_NODE, 0);

	return p && bpf_test_arena_deref(p, 0xd1) == 0xd1 && *p == 0xd1 ? 0 : 1;
}

/* A kfunc whose __arena suffix is on a scalar parameter */
SEC("?syscall")
int scalar_arena(void *ctx)
{
	__u64 __arena *p = bpf_arena_alloc_pages(&arena, NULL, 1, NUMA_NO_NODE, 0);

	return p ? bpf_test_arena_scalar(8) : 1;
}

/* With an arena, but R1 is the context pointer: neither PTR_TO_ARENA nor a
 * scalar.  Written in assembly: C would cast it into the arena first.  No
 * parameters: BTF keeps no names for a naked function's, and the kernel
 * refuses a program's FUNC_PROTO with unnamed arguments.
 */
SEC("?syscall")
__attribute__((naked)) int ctx_pointer(void)
{
	asm volatile (
	"r2 = %[arena] ll;"
	"r2 = 1;"
	"call %[bpf_test_arena_write];"
	"r0 = 0;"
	"exit;"
	:
	: [arena]"i"(&arena), [bpf_test_arena_write]"i"(bpf_test_arena_write)
	: "memory");
}

char LICENSE[] SEC("license") = "GPL";
