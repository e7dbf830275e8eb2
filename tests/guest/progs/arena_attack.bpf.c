// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile review of arena kernel fault recovery: one scratch page backs
 * every unpopulated page a kfunc faulted on, so what a kfunc writes at one
 * address is what a program later reads at any other unallocated address,
 * in this run and in later runs.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#define __arena __attribute__((address_space(1)))
#define USER_BASE (1ull << 44)
#define PAGE 4096
#define SECRET 0x5ec7e7ull

struct {
	__uint(type, BPF_MAP_TYPE_ARENA);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 16);
	__ulong(map_extra, USER_BASE);
} arena SEC(".maps");

__u64 bpf_test_arena_deref(__u64 __arena *p, __u64 val) __ksym;
int bpf_test_arena_recoverable(__u64 __arena *p, __s64 off) __ksym;

static __always_inline __u64 __arena *page(__u64 n)
{
	__u64 addr = USER_BASE + n * PAGE;
	void *map = &arena;

	asm volatile("" :: "r"(map));
	asm volatile("%[a] = addr_space_cast(%[a], 0, 1)" : [a]"+r"(addr));
	return (__u64 __arena *)addr;
}

__u64 write_ret, alias_seen, later_seen, untouched_seen;
int installed;

/* a kfunc writes SECRET at page 3, never allocated */
SEC("syscall")
int write_secret(void *ctx)
{
	write_ret = bpf_test_arena_deref(page(3), SECRET);
	return 0;
}

/* another run: a kernel fault at page 7 (no write) maps the scratch page;
 * the program reads page 7 and page 11 (no fault there) directly
 */
SEC("syscall")
int read_other(void *ctx)
{
	installed = bpf_test_arena_recoverable(page(7), 0);
	alias_seen = *page(7);
	untouched_seen = *page(11);
	return 0;
}

/* a third run only loads: the scratch mapping stays between runs */
SEC("syscall")
int read_later(void *ctx)
{
	later_seen = *page(7);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
