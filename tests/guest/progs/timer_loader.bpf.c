// SPDX-License-Identifier: GPL-2.0
/*
 * attack_timer_softirq_load (test_ipe.c): libbpf loads every "syscall"
 * program sleepable, and in_sleepable() then holds for its bpf_timer
 * callback too, which runs in hrtimer (softirq) context: bpf_sys_bpf()
 * there loads as whichever task the timer interrupted.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#define CLOCK_MONOTONIC 1

struct elem {
	struct bpf_timer t;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, struct elem);
} tmap SEC(".maps");

__u64 child_insns[2] = { 0xb7, 0x95 };
char child_license[4] = "GPL";
int child_fd = -1000;
int timer_done;

static int load_cb(void *map, int *key, struct elem *e)
{
	union bpf_attr attr = {};

	attr.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	attr.insns = (long)child_insns;
	attr.insn_cnt = 2;
	attr.license = (long)child_license;
	__builtin_memcpy(attr.prog_name, "timer_child", 12);
	child_fd = bpf_sys_bpf(BPF_PROG_LOAD, &attr, sizeof(attr));
	timer_done = 1;
	return 0;
}

SEC("syscall")
int start(void *ctx)
{
	struct elem *e;
	int key = 0;

	e = bpf_map_lookup_elem(&tmap, &key);
	if (!e)
		return 1;
	bpf_timer_init(&e->t, &tmap, CLOCK_MONOTONIC);
	if (bpf_timer_set_callback(&e->t, load_cb))
		return 3;
	if (bpf_timer_start(&e->t, 1000, 0))
		return 4;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
