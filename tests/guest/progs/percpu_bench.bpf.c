// SPDX-License-Identifier: GPL-2.0
/*
 * make bench: three ways to reach this CPU's counter, ACCESSES accesses per
 * run so that an access, not the run, is what a run costs.  bench_loop is
 * the same loop without an access: (run - bench_loop's run) / ACCESSES is
 * the cost of one access alone, and its JITed instructions are the
 * program's less bench_loop's.
 *
 * Each program is assembly, so that the compiler can neither hoist an
 * address out of the loop nor unroll one loop differently from another:
 * every access computes its address as a program making one access does.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#define MAX_CPUS 64
#define ACCESSES 1000	/* as in test_bench.c */

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} pcpu SEC(".maps");

__u64 pc_counter SEC(".percpu");
__u64 by_cpu[MAX_CPUS];

/* r6 counts the accesses; an access may use r0-r5 and fp-8 */
#define LOOP(access, ...)						\
	asm volatile("r6 = 0;"						\
		     "1:"						\
		     access						\
		     "r6 += 1;"						\
		     "if r6 < %[n] goto 1b;"				\
		     "r0 = 0;"						\
		     "exit;"						\
		     :: [n]"i"(ACCESSES), ##__VA_ARGS__			\
		     : "memory")

/* the verifier follows the ld_imm64 with this CPU's offset */
#define PERCPU_DATA							\
	"r1 = %[var] ll;"						\
	"r2 = *(u64 *)(r1 + 0);"					\
	"r2 += 1;"							\
	"*(u64 *)(r1 + 0) = r2;"

/* the verifier inlines the lookup (percpu_array_map_gen_lookup) */
#define MAP_LOOKUP							\
	"r1 = %[map] ll;"						\
	"r2 = 0;"							\
	"*(u32 *)(r10 - 8) = r2;"					\
	"r2 = r10;"							\
	"r2 += -8;"							\
	"call %[lookup];"						\
	"if r0 == 0 goto 2f;"						\
	"r1 = *(u64 *)(r0 + 0);"					\
	"r1 += 1;"							\
	"*(u64 *)(r0 + 0) = r1;"					\
	"2:"

/* the verifier inlines bpf_get_smp_processor_id() on x86-64 */
#define CPU_INDEX							\
	"call %[smp_id];"						\
	"if r0 >= %[max_cpus] goto 2f;"					\
	"r0 <<= 3;"							\
	"r1 = %[array] ll;"						\
	"r1 += r0;"							\
	"r2 = *(u64 *)(r1 + 0);"					\
	"r2 += 1;"							\
	"*(u64 *)(r1 + 0) = r2;"					\
	"2:"

SEC("socket")
__attribute__((naked)) int bench_loop(void)
{
	LOOP("");
}

SEC("socket")
__attribute__((naked)) int bench_percpu_data(void)
{
	LOOP(PERCPU_DATA, [var]"i"(&pc_counter));
}

SEC("socket")
__attribute__((naked)) int bench_map_lookup(void)
{
	LOOP(MAP_LOOKUP, [map]"i"(&pcpu), [lookup]"i"(BPF_FUNC_map_lookup_elem));
}

SEC("socket")
__attribute__((naked)) int bench_cpu_index(void)
{
	LOOP(CPU_INDEX, [smp_id]"i"(BPF_FUNC_get_smp_processor_id),
	     [max_cpus]"i"(MAX_CPUS), [array]"i"(&by_cpu));
}

char _license[] SEC("license") = "GPL";
