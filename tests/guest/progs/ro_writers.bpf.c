// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers that wrote into read-only memory through an argument the verifier
 * checked as a read (issue 35, part 3): each program passes a value of this
 * object's frozen BPF_F_RDONLY_PROG .rodata to one of them.  Each must fail
 * verification with "write into map forbidden"; none is ever run.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

const volatile __u64 ro_len = 8;
const volatile char ro_buf[64] = "x";
const volatile struct bpf_fib_lookup ro_fib = { .family = 2 };
/* BPF_BTF_LOAD needs no pointer: btf 0 fails, and the kernel writes
 * btf_log_true_size back into the attr
 */
const volatile union bpf_attr ro_attr = { .btf_log_level = 1 };
__u64 src[4];

static const char fmt[] = "%c";

/* The reviewer's reproduction: the verifier proves ro_len == 8, the
 * helper makes it 24, and the copy after it would overrun buf, up to the
 * return address.  Loaded only.
 */
SEC("syscall")
int snprintf_stack(void *ctx)
{
	__u64 args[1] = { 24 };
	char buf[8];

	bpf_snprintf((char *)&ro_len, sizeof(ro_len), fmt, args, sizeof(args));
	bpf_probe_read_kernel(buf, ro_len, src);
	return buf[0];
}

SEC("syscall")
int snprintf_btf_ro(void *ctx)
{
	struct btf_ptr p = {
		.ptr = src,
		.type_id = bpf_core_type_id_kernel(int),
	};

	return bpf_snprintf_btf((char *)ro_buf, sizeof(ro_buf), &p, sizeof(p), 0);
}

SEC("fentry/filp_close")
int BPF_PROG(d_path_ro, struct file *f, void *id)
{
	bpf_d_path(&f->f_path, (char *)ro_buf, sizeof(ro_buf));
	return 0;
}

SEC("perf_event")
int branch_records_ro(struct bpf_perf_event_data *ctx)
{
	bpf_read_branch_records(ctx, (void *)ro_buf, 48, 0);
	return 0;
}

SEC("raw_tp/sys_enter")
int get_stack_ro(void *ctx)
{
	bpf_get_stack(ctx, (void *)ro_buf, sizeof(ro_buf), 0);
	return 0;
}

SEC("xdp")
int xdp_fib_ro(struct xdp_md *ctx)
{
	bpf_fib_lookup(ctx, (void *)&ro_fib, sizeof(ro_fib), 0);
	return XDP_PASS;
}

SEC("tc")
int skb_fib_ro(struct __sk_buff *ctx)
{
	bpf_fib_lookup(ctx, (void *)&ro_fib, sizeof(ro_fib), 0);
	return 0;
}

SEC("cgroup/sysctl")
int sysctl_name_ro(struct bpf_sysctl *ctx)
{
	bpf_sysctl_get_name(ctx, (char *)ro_buf, sizeof(ro_buf), 0);
	return 1;
}

SEC("syscall")
int sys_bpf_ro(void *ctx)
{
	return bpf_sys_bpf(BPF_BTF_LOAD, (void *)&ro_attr, sizeof(ro_attr));
}

/* loads: ctx->value is writable; attaching it to a BPF_F_RDONLY_PROG map
 * is what must fail
 */
SEC("iter/bpf_map_elem")
int snprintf_value(struct bpf_iter__bpf_map_elem *ctx)
{
	__u64 args[1] = { 'W' };
	char *value = ctx->value;

	if (value)
		bpf_snprintf(value, 4, fmt, args, sizeof(args));
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
