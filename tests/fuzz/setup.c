// SPDX-License-Identifier: GPL-2.0
/*
 * BPF objects to put into fd_array, closing things, and the setup the
 * operations need: skeletons loaded once, keyrings, the blacklisted payload.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <linux/btf.h>
#include <openssl/evp.h>

#include "fuzz.h"
#include "ops.h"
#include "fixture.h"

/* ---- BTF ---- */

void op_btf_load(void)
{
	struct {
		struct btf_header h;
		struct btf_type t;
		u32 enc;
		char str[5];
	} __attribute__((packed)) b = {
		.h = { .magic = BTF_MAGIC, .version = BTF_VERSION, .hdr_len = sizeof(b.h),
		       .type_off = 0, .type_len = sizeof(b.t) + 4, .str_off = sizeof(b.t) + 4,
		       .str_len = 5 },
		.t = { .name_off = 1, .info = BTF_KIND_INT << 24, .size = 4 },
		.enc = BTF_INT_SIGNED << 24 | 32,
		.str = "\0int",
	};
	bool bad = rnd_chance(1, 8);
	long fd;

	if (bad) {
		u32 bit = rnd_below(8);

		((u8 *)&b)[rnd_below(sizeof(b))] ^= 1 << bit;
	}
	op_desc("BPF_BTF_LOAD one int%s", bad ? ", a bit flipped" : "");
	fd = bpf_btf_load(&b, sizeof(b), NULL);
	expect_check("btf_load", bad ? EXPECT_ESCAPE("a BTF with a bit flipped: valid or not") : EXPECT_OK("a valid BTF"), fd);
	if (fd >= 0)
		pool_add_btf(fd);
}

/* ---- closing ---- */

void op_close_one(void)
{
	switch (rnd_below(4)) {
	case 0:
		if (pool.nmaps) {
			op_desc("close a map fd");
			pool_close_map(rnd_below(pool.nmaps));
		}
		break;
	case 1:
		if (pool.nprogs) {
			op_desc("close a program fd");
			pool_close_prog(rnd_below(pool.nprogs));
		}
		break;
	case 2:
		if (pool.nlinks) {
			struct plink *l = &pool.links[rnd_below(pool.nlinks)];

			op_desc("close a link fd");
			close(l->fd);
			if (l->o)
				mobj_put(l->o);
			*l = pool.links[--pool.nlinks];
		}
		break;
	default:
		if (pool.nbtfs) {
			op_desc("close a BTF fd");
			close(pool.btfs[--pool.nbtfs]);
		}
	}
	stat_add(stat_of("close_one"), 0);
}

/* ---- setup ---- */

void ops_setup(void)
{
	const struct bpf_insn fixture[] = FIXTURE_INSNS;
	u8 payload[sizeof(fixture) + META_SZ];
	int fds[2], i;
	bool iter, arena;

	keys_setup();
	sysctl_plan();
	/* keys-example/kernel-blacklist-hashes: the fixture with map 2's metadata */
	memcpy(payload, fixture, sizeof(fixture));
	for (i = 0; i < META_SZ; i++)
		payload[sizeof(fixture) + i] = fixture_meta(2, i);
	st.blacklisted_len = sizeof(payload);
	EVP_Digest(payload, sizeof(payload), st.blacklisted_hash, NULL, EVP_sha256(), NULL);

	pool.devnull = open("/dev/null", O_RDWR);
	if (pipe(fds) == 0) {
		pool.pipe_rd = fds[0];
		close(fds[1]);
	}
	st.iter_rewrite_fd = st.iter_peek_fd = st.arena_fd = -1;
	/* unsigned: they cannot load under enforcement, and the fuzzer goes on without */
	iter = iter_setup();
	arena = arena_setup();
	if (!st.enforce && (!iter || !arena)) {
		printf("# the iterator or arena skeleton did not load\n");
		exit(2);
	}
}

void ops_teardown(void)
{
	iter_teardown();
	arena_teardown();
	keys_teardown();
	close(pool.devnull);
	close(pool.pipe_rd);
}
