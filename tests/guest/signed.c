// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <stdint.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "runner.h"
#include "util.h"
#include "sign.h"
#include "fixture.h"
#include "signed.h"

int sys_prog_load(struct load *l)
{
	return sys_prog_load_with(l, NULL, NULL);
}

int sys_prog_load_with(struct load *l, void (*more)(union bpf_attr *attr, void *arg), void *arg)
{
	const size_t sz = offsetofend(union bpf_attr, keyring_id);
	union bpf_attr attr;

	memset(&attr, 0, sz);
	attr.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	attr.insns = (uintptr_t)l->insns;
	attr.insn_cnt = l->cnt;
	attr.license = (uintptr_t)"GPL";
	attr.fd_array = (uintptr_t)l->fds;
	attr.fd_array_cnt = l->nfds;
	attr.signature = (uintptr_t)l->sig;
	attr.signature_size = l->sig_len;
	attr.keyring_id = l->keyring_id;
	attr.log_buf = (uintptr_t)vlog;
	attr.log_size = sizeof(vlog);
	attr.log_level = 1;
	if (more)
		more(&attr, arg);
	vlog[0] = 0;
	return syscall(__NR_bpf, BPF_PROG_LOAD, &attr, sz);
}

/* metadata map m of a load, holding fixture_meta(m, ...) */
int meta_map(const struct bpf_insn *insns, int cnt, int m, bool excl, bool freeze)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts);
	unsigned char digest[32], value[META_SZ];
	int fd, i, zero = 0;

	prog_digest(insns, cnt, digest);
	if (excl) {
		opts.excl_prog_hash = digest;
		opts.excl_prog_hash_size = 32;
	}
	fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, m ? "meta1" : "meta0", 4, META_SZ, 1, &opts);
	if (fd < 0)
		return fd;
	for (i = 0; i < META_SZ; i++)
		value[i] = fixture_meta(m, i);
	if (bpf_map_update_elem(fd, &zero, value, 0) || (freeze && bpf_map_freeze(fd))) {
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * A signed load of insns (the fixture when NULL) with nmeta metadata maps
 * exclusive to it, signed by key NAME over insns || metadata.
 */
bool make_load_insns(struct load *l, const struct bpf_insn *insns, int cnt,
			    int nmeta, const char *name, int keyring_id)
{
	const struct bpf_insn fixture[] = FIXTURE_INSNS;
	int m;

	if (!insns) {
		insns = fixture;
		cnt = ARRAY_LEN(fixture);
	}
	memset(l, 0, sizeof(*l));
	memcpy(l->insns, insns, cnt * sizeof(*insns));
	l->cnt = cnt;
	for (m = 0; m < nmeta; m++) {
		l->fds[m] = meta_map(l->insns, l->cnt, m, true, true);
		if (!ASSERT_OK(l->fds[m], "metadata map"))
			return false;
	}
	l->nfds = nmeta;
	l->keyring_id = keyring_id;
	return sign_load(l, name, 0, false);
}

size_t load_payload(const struct load *l, int first, unsigned char *payload)
{
	size_t len = l->cnt * sizeof(l->insns[0]);
	int m, i;

	memcpy(payload, l->insns, len);
	for (m = 0; m < l->nfds; m++)
		for (i = 0; i < META_SZ; i++)
			payload[len++] = fixture_meta(first + m, i);
	return len;
}

/*
 * (Re)sign l by key NAME over insns || fixture_meta(first, ...) || ... of
 * its l->nfds metadata maps, numbered from first.
 */
bool sign_load(struct load *l, const char *name, int first, bool signed_attrs)
{
	unsigned char payload[LOAD_PAYLOAD_MAX];
	size_t len = load_payload(l, first, payload);

	free(l->sig);
	l->sig_len = cms_sign(name, payload, len, signed_attrs, &l->sig);
	return ASSERT_GE(l->sig_len, 1, "cms_sign");
}

/* The same load without its signature. */
void drop_signature(struct load *l)
{
	free(l->sig);
	l->sig = NULL;
	l->sig_len = 0;
}

bool make_load(struct load *l, int nmeta, const char *name, int keyring_id)
{
	return make_load_insns(l, NULL, 0, nmeta, name, keyring_id);
}

void free_load(struct load *l)
{
	int i;

	for (i = 0; i < l->nfds; i++)
		close(l->fds[i]);
	free(l->sig);
}

__u32 last_id(int (*next)(__u32, __u32 *))
{
	__u32 id = 0, n;

	while (!next(id, &n))
		id = n;
	return id;
}

/*
 * Load l, expecting -err (0: success), and check that a rejected load
 * leaves no program or map behind.
 */
void expect_load(struct load *l, int err, const char *log, const char *what)
{
	__u32 progs = last_id(bpf_prog_get_next_id), maps = last_id(bpf_map_get_next_id);
	int fd = sys_prog_load(l);

	if (!err) {
		if (ASSERT_OK(fd, what)) {
			LIBBPF_OPTS(bpf_test_run_opts, run);
			char pkt[64] = {};

			run.data_in = pkt;
			run.data_size_in = sizeof(pkt);
			if (ASSERT_OK(bpf_prog_test_run_opts(fd, &run), "run signed program"))
				ASSERT_EQ(run.retval, fixture_meta(0, 0) | fixture_meta(0, 1) << 8 |
					  fixture_meta(0, 2) << 16 | fixture_meta(0, 3) << 24,
					  "program reads its signed metadata");
			close(fd);
		} else {
			printf("#   log: %.300s\n", vlog);
		}
		return;
	}
	if (fd >= 0)
		close(fd);
	ASSERT_ERR(fd, err, what);
	if (log)
		ASSERT_HAS(vlog, log, what);
	ASSERT_EQ(last_id(bpf_prog_get_next_id), progs, "no program left behind");
	ASSERT_EQ(last_id(bpf_map_get_next_id), maps, "no map left behind");
}

