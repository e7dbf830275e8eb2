// SPDX-License-Identifier: GPL-2.0
/*
 * BPF_MAP_CREATE with sizes and flags at the edges, exclusive to a template's
 * digest, to another, or with a malformed excl_prog_hash; and the metadata
 * maps of signed loads (one-element arrays, exclusive, frozen).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "fuzz.h"
#include "ops.h"


#define PAGE 4096u
/* what the kernel may allocate for one map, and the model for all of them */
#define MAP_BYTES_MAX (17u << 20)
#define MODEL_BYTES_MAX (96u << 20)

/* ---- create ---- */

static u32 pick_value_size(void)
{
	static const u32 sizes[] = { 1, 4, 7, 8, 16, 64, 4095, 4096, 4097, 65536, 32768, 32769,
				     1u << 20, 4u << 20, 0, 0x80000000u };
	static const u32 w[] = { 10, 12, 4, 12, 6, 14, 3, 3, 3, 2, 1, 1, 1, 1, 1, 1 };

	return sizes[rnd_weighted(w, ARRAY_SIZE(w))];
}

static u32 pick_max_entries(u32 type)
{
	static const u32 n[] = { 1, 2, 3, 4, 16, 1024, 65536, 0, 1u << 31 };
	static const u32 w[] = { 20, 8, 4, 4, 6, 2, 1, 1, 1 };

	return n[rnd_weighted(w, ARRAY_SIZE(w))];
}

static u32 pick_flags(u32 type)
{
	static const u32 f[] = { 0, BPF_F_MMAPABLE, BPF_F_RDONLY_PROG, BPF_F_WRONLY_PROG,
				 BPF_F_RDONLY, BPF_F_WRONLY, BPF_F_NO_PREALLOC,
				 BPF_F_RDONLY_PROG | BPF_F_WRONLY_PROG, BPF_F_MMAPABLE | BPF_F_RDONLY_PROG };
	static const u32 w[] = { 30, 6, 3, 2, 2, 1, 3, 1, 1 };
	u32 flags = f[rnd_weighted(w, ARRAY_SIZE(w))];

	if (rnd_chance(1, 64))
		flags |= 1u << rnd_below(32);
	return flags;
}

/* array_map_alloc_check() and htab_map_alloc_check(), as far as we go */
static struct expect predict_attrs(u32 type, u32 ks, u32 vs, u32 n, u32 flags,
				   int hash_mode, bool *big)
{
	const u32 access = BPF_F_RDONLY | BPF_F_WRONLY | BPF_F_RDONLY_PROG | BPF_F_WRONLY_PROG;
	u64 bytes;

	*big = false;
	if (hash_mode > 1)
		return EXPECT_FAIL(EINVAL, "excl_prog_hash and its size disagree");
	if ((flags & BPF_F_RDONLY) && (flags & BPF_F_WRONLY))
		return EXPECT_FAIL(EINVAL, "BPF_F_RDONLY | BPF_F_WRONLY");
	if (is_array(type)) {
		const u32 mask = BPF_F_NUMA_NODE | BPF_F_MMAPABLE | access | BPF_F_INNER_MAP |
				 BPF_F_PRESERVE_ELEMS;

		if (!n || ks != 4 || !vs || (flags & ~mask) ||
		    ((flags & BPF_F_RDONLY_PROG) && (flags & BPF_F_WRONLY_PROG)))
			return EXPECT_FAIL(EINVAL, "array attributes");
		/* numa_node 0 is online; a percpu array takes no node */
		if (type != BPF_MAP_TYPE_ARRAY && (flags & BPF_F_NUMA_NODE))
			return EXPECT_FAIL(EINVAL, "a NUMA node for a percpu array");
		if (type != BPF_MAP_TYPE_ARRAY && (flags & (BPF_F_MMAPABLE | BPF_F_INNER_MAP)))
			return EXPECT_FAIL(EINVAL, "BPF_F_MMAPABLE or BPF_F_INNER_MAP on a percpu array");
		if (flags & BPF_F_PRESERVE_ELEMS)
			return EXPECT_FAIL(EINVAL, "BPF_F_PRESERVE_ELEMS: perf event arrays only");
		if (vs > 0x7fffffffu)
			return EXPECT_FAIL(E2BIG, "value_size > INT_MAX");
		if (type == BPF_MAP_TYPE_PERCPU_ARRAY && ((vs + 7) & ~7u) > 32768)
			return EXPECT_FAIL(E2BIG, "percpu value above PCPU_MIN_UNIT_SIZE");
		bytes = (u64)((vs + 7) & ~7u) * n * (type == BPF_MAP_TYPE_PERCPU_ARRAY ? st.ncpus : 1);
		if (bytes > MAP_BYTES_MAX || (type == BPF_MAP_TYPE_PERCPU_ARRAY && n > 4096)) {
			*big = true;
			return EXPECT_ESCAPE("a large map: the allocation may fail (ENOMEM, E2BIG)");
		}
		return EXPECT_OK("array attributes");
	}
	/* htab_map_alloc_check() */
	{
		const u32 mask = BPF_F_NO_PREALLOC | BPF_F_NO_COMMON_LRU | BPF_F_NUMA_NODE |
				 access | BPF_F_ZERO_SEED;
		bool lru = type == BPF_MAP_TYPE_LRU_HASH || type == BPF_MAP_TYPE_LRU_PERCPU_HASH;

		if ((flags & ~mask) ||
		    ((flags & BPF_F_RDONLY_PROG) && (flags & BPF_F_WRONLY_PROG)))
			return EXPECT_FAIL(EINVAL, "hash flags");
		/* BPF_F_ZERO_SEED: the fuzzer runs as root, CAP_SYS_ADMIN */
		if (!lru && (flags & BPF_F_NO_COMMON_LRU))
			return EXPECT_FAIL(EINVAL, "BPF_F_NO_COMMON_LRU on a hash that is not LRU");
		if (lru && (flags & BPF_F_NO_PREALLOC))
			return EXPECT_FAIL(ENOTSUPP, "LRU without prealloc");
		/* numa_node 0 is online; per-CPU elements or lists take no node */
		if ((flags & BPF_F_NUMA_NODE) && (is_percpu(type) || (flags & BPF_F_NO_COMMON_LRU)))
			return EXPECT_FAIL(EINVAL, "a NUMA node for per-CPU elements or LRU lists");
		if (!n || !ks || !vs)
			return EXPECT_FAIL(EINVAL, "hash attributes");
		bytes = (u64)(((vs + 7) & ~7u) * (is_percpu(type) ? st.ncpus : 1) + ks + 64) * n;
		if (bytes > MAP_BYTES_MAX || ks > 512 || vs > 32768 || n > 65536) {
			*big = true;
			return EXPECT_ESCAPE("a large map: the allocation may fail (ENOMEM, E2BIG)");
		}
	}
	return EXPECT_OK("hash attributes");
}

/*
 * map_create() clears BPF_F_TOKEN_FD before the type's checks and takes the
 * token (map_token_fd 0 here) after them, before any allocation.
 */
static struct expect predict_create(u32 type, u32 ks, u32 vs, u32 n, u32 flags,
				    int hash_mode, bool *big)
{
	struct expect e = predict_attrs(type, ks, vs, n, flags & ~BPF_F_TOKEN_FD, hash_mode, big);

	/* every refusal of predict_attrs() comes before the token */
	if (!(flags & BPF_F_TOKEN_FD) || e.kind == EXP_FAIL)
		return e;
	*big = false;
	return fcntl(0, F_GETFD) < 0 ? EXPECT_FAIL(EBADF, "BPF_F_TOKEN_FD: fd 0 is closed") :
	       EXPECT_FAIL(EINVAL, "BPF_F_TOKEN_FD: fd 0 is not a BPF token");
}

struct expect predict_create_small(u32 type, u32 ks, u32 vs, u32 n, u32 flags, int hash_mode)
{
	bool big;

	return predict_create(type, ks, vs, n, flags, hash_mode, &big);
}

__u32 obj_id(int fd)
{
	struct bpf_map_info info = {};
	__u32 len = sizeof(info);

	return bpf_map_get_info_by_fd(fd, &info, &len) ? 0 : info.id;
}

__u32 obj_prog_id(int fd)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);

	return bpf_prog_get_info_by_fd(fd, &info, &len) ? 0 : info.id;
}

/* hash_mode: 0 none, 1 exclusive to hash, 2 size 16, 3 pointer without size, 4 size without pointer */
long map_create_raw(u32 type, u32 ks, u32 vs, u32 n, u32 flags, int hash_mode,
		    const u8 *hash, const char *op)
{
	const u32 sz = offsetofend(union bpf_attr, excl_prog_hash_size);
	struct expect e;
	union bpf_attr attr;
	struct mobj *o;
	bool big;
	long fd;

	memset(&attr, 0, sz);
	attr.map_type = type;
	attr.key_size = ks;
	attr.value_size = vs;
	attr.max_entries = n;
	attr.map_flags = flags;
	snprintf(attr.map_name, sizeof(attr.map_name), "fz%llu", (unsigned long long)st.op);
	if (hash_mode == 1 || hash_mode == 2 || hash_mode == 3)
		attr.excl_prog_hash = (uintptr_t)hash;
	if (hash_mode == 1 || hash_mode == 4)
		attr.excl_prog_hash_size = 32;
	else if (hash_mode == 2)
		attr.excl_prog_hash_size = 16;
	e = predict_create(type, ks, vs, n, flags, hash_mode == 1 ? 1 : hash_mode ? 2 : 0, &big);
	if (!big && model_bytes() > MODEL_BYTES_MAX)
		big = true;
	fd = sys_bpf(BPF_MAP_CREATE, &attr, sz);
	expect_check(op, e, fd);
	if (fd < 0)
		return fd;
	o = mobj_new(type, ks, vs, n, flags);
	o->excl = hash_mode == 1;
	if (o->excl)
		memcpy(o->excl_hash, hash, 32);
	o->id = obj_id(fd);
	/* LRU maps evict when they like; huge ones are not worth copying */
	if (type == BPF_MAP_TYPE_LRU_HASH || type == BPF_MAP_TYPE_LRU_PERCPU_HASH || big ||
	    ks > 8 ||
	    (u64)vs * model_ncpu(o) > (16u << 20))
		model_forget(o);
	pool_add_map(fd, o, !(flags & BPF_F_WRONLY), !(flags & BPF_F_RDONLY));
	return fd;
}

void op_map_create(void)
{
	static const u32 types[] = { BPF_MAP_TYPE_ARRAY, BPF_MAP_TYPE_PERCPU_ARRAY,
				     BPF_MAP_TYPE_HASH, BPF_MAP_TYPE_PERCPU_HASH,
				     BPF_MAP_TYPE_LRU_PERCPU_HASH, BPF_MAP_TYPE_LRU_HASH };
	static const u32 tw[] = { 40, 16, 16, 14, 6, 4 };
	u32 type = types[rnd_weighted(tw, ARRAY_SIZE(tw))];
	u32 ks = is_array(type) ? (rnd_chance(31, 32) ? 4 : rnd_below(9)) :
		 rnd_chance(15, 16) ? (rnd_chance(1, 2) ? 4 : 8) : rnd_below(1024);
	u32 vs = pick_value_size(), n = pick_max_entries(type), flags = pick_flags(type);
	int hash_mode = 0, t = rnd_below(NTEMPL);
	u8 hash[32];

	/* exclusive to a template's digest, another digest, or malformed */
	switch (rnd_below(20)) {
	case 0 ... 6:
		hash_mode = 1;
		memcpy(hash, tmpls[t].digest, 32);
		break;
	case 7:
		hash_mode = 1;
		rnd_bytes(hash, 32);
		break;
	case 8:
		hash_mode = 2 + rnd_below(3);
		memcpy(hash, tmpls[t].digest, 32);
		break;
	}
	/* Nothing that could succeed may take the guest's memory: what is too
	 * large is made one element, unless it is so large that it cannot be
	 * allocated at all.  Percpu maps allocate element by element: small.
	 */
	{
		u64 est = ((u64)vs + 8 + (is_hash(type) ? ks + 64 : 0)) * n *
			  (is_percpu(type) ? st.ncpus : 1);

		if (est > MAP_BYTES_MAX && (est < (8ull << 30) || rnd_chance(3, 4)))
			n = 1;
		if (is_percpu(type) && n > 4096)
			n = 4096;
	}
	op_desc("BPF_MAP_CREATE %s k%u v%u n%u flags %#x excl %s", map_type_name(type), ks, vs, n,
		flags, hash_mode == 1 ? (memcmp(hash, tmpls[t].digest, 32) ? "random" : "template") :
		hash_mode ? "malformed" : "none");
	map_create_raw(type, ks, vs, n, flags, hash_mode, hash, "map_create");
}

/* A metadata map for template t: one-element array exclusive to it,
 * value pattern pat, frozen.  Returns its fd, or -errno.
 */
int meta_map_for(int t, u32 vs, u64 pat)
{
	union bpf_attr attr = {};
	struct pmap *m;
	u8 *val;
	u32 zero = 0;
	long fd, ret;

	op_desc("metadata map for template %d: array v%u, pattern %#llx, frozen", t, vs,
		(unsigned long long)pat);
	fd = map_create_raw(BPF_MAP_TYPE_ARRAY, 4, vs, 1, 0, 1, tmpls[t].digest, "meta_map_create");
	if (fd < 0)
		return fd;
	m = pool_map_of_fd(fd);
	if (!pat)
		goto freeze;	/* zero already */
	val = malloc(vs);
	pattern_fill(val, vs, pat);
	memset(&attr, 0, sizeof(attr));
	attr.map_fd = fd;
	attr.key = (uintptr_t)&zero;
	attr.value = (uintptr_t)val;
	ret = sys_bpf(BPF_MAP_UPDATE_ELEM, &attr, offsetofend(union bpf_attr, flags));
	expect_check("meta_map_update", predict_update(m, (u8 *)&zero, 0), ret);
	if (!ret)
		apply_update(m->o, (u8 *)&zero, val, 0);
	free(val);
freeze:
	memset(&attr, 0, sizeof(attr));
	attr.map_fd = fd;
	ret = sys_bpf(BPF_MAP_FREEZE, &attr, offsetofend(union bpf_attr, map_fd));
	expect_check("meta_map_freeze", EXPECT_OK("fresh map"), ret);
	m->o->frozen = true;
	return fd;
}

/* The metadata values: few, so that signed payloads repeat and their
 * signatures come from the cache.  The large ones are zero (no update to
 * copy in), and only the rarest comes near the 16 MiB bound.
 */
void pick_meta(u32 *vs, u64 *pat)
{
	static const struct { u32 vs; u64 pat; u32 w; } p[] = {
		{ 64, 1, 30 }, { 64, 2, 12 }, { 4, 1, 12 }, { 8, 3, 10 }, { 1, 4, 6 },
		{ 100, 5, 6 }, { 4095, 1, 3 }, { 4096, 0, 3 }, { 4097, 2, 3 }, { 65536, 3, 2 },
		{ 1u << 20, 0, 2 }, { 4u << 20, 0, 1 }, { 16u << 20, 0, 1 },
	};
	u32 w[ARRAY_SIZE(p)], i;

	for (i = 0; i < ARRAY_SIZE(p); i++)
		w[i] = p[i].w;
	i = rnd_weighted(w, ARRAY_SIZE(p));
	/* the 16 MiB value: one pick in four, the others become 1 MiB */
	if (p[i].vs == 16u << 20 && rnd_chance(3, 4))
		i--;
	*vs = p[i].vs;
	*pat = p[i].pat;
	if (model_bytes() + *vs > MODEL_BYTES_MAX)
		*vs = 64;
}

void op_meta_map(void)
{
	int t = rnd_chance(1, 8) ? T_FIXTURE : rnd_below(NTEMPL);

	if (t == T_FIXTURE)
		meta_map_for(t, 64, rnd_chance(1, 2) ? 0xf1ull << 56 | 2 : 0xf1ull << 56);
	else {
		u32 vs;
		u64 pat;

		pick_meta(&vs, &pat);
		meta_map_for(t, vs, pat);
	}
}

