// SPDX-License-Identifier: GPL-2.0
/*
 * Upstream's documented admission policy (Documentation/bpf/signing.rst,
 * "A more realistic admission policy"), as written there: system-keyring
 * signatures pass, a user-keyring signature only if its serial is
 * allowlisted, in-kernel loads are trusted, and every other decision goes
 * into a ring buffer.  On 6.12 it needs the hook's bool kernel
 * (kernel-patches/0044); before that it read the return slot as kernel.
 *
 * observe_kernel is ours: it only counts, for this test's process, what
 * the hook's kernel argument said for loader programs and for the rest.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#define EPERM 1

/* --- upstream's example, unchanged --------------------------------------- */

/* Serials of user keys/keyrings we additionally trust. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __s32);             /* keyring_serial */
	__type(value, __u8);
	__uint(max_entries, 64);
} trusted_user_keys SEC(".maps");

/* Audit stream consumed by a userspace logger. */
struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 16);
} audit SEC(".maps");

struct decision { __u32 prog_type, verdict, ktype; __s32 serial, ret; };

SEC("lsm/bpf_prog_load")
int BPF_PROG(admit, struct bpf_prog *prog, union bpf_attr *attr,
	     struct bpf_token *token, bool kernel)
{
	__u32 verdict = prog->aux->sig.verdict;
	__u32 ktype   = prog->aux->sig.keyring_type;
	__s32 serial  = prog->aux->sig.keyring_serial;
	struct decision *d;
	int ret = 0;

	if (kernel)
		return 0;                       /* trust in-kernel loads */

	if (verdict != BPF_SIG_VERIFIED)
		ret = -EPERM;                   /* must be validly signed */
	else if (ktype == BPF_SIG_KEYRING_USER &&
		 !bpf_map_lookup_elem(&trusted_user_keys, &serial))
		ret = -EPERM;                   /* key/keyring not allowlisted */

	d = bpf_ringbuf_reserve(&audit, sizeof(*d), 0);
	if (d) {
		d->prog_type = attr->prog_type;
		d->verdict = verdict;
		d->ktype = ktype;
		d->serial = serial;
		d->ret = ret;
		bpf_ringbuf_submit(d, 0);       /* record allow *and* deny */
	}
	return ret;
}

/* --- ours: what kernel said ---------------------------------------------- */

int target_tgid;
int loader_kernel, loader_user;	/* BPF_PROG_TYPE_SYSCALL loads, by kernel */
int other_kernel, other_user;	/* every other program type */

SEC("lsm/bpf_prog_load")
int BPF_PROG(observe_kernel, struct bpf_prog *prog, union bpf_attr *attr,
	     struct bpf_token *token, bool kernel, int ret)
{
	bool loader = prog->type == BPF_PROG_TYPE_SYSCALL;

	if ((bpf_get_current_pid_tgid() >> 32) != target_tgid)
		return ret;
	if (loader)
		kernel ? loader_kernel++ : loader_user++;
	else
		kernel ? other_kernel++ : other_user++;
	return ret;
}

char LICENSE[] SEC("license") = "GPL";
