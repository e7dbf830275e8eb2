// SPDX-License-Identifier: GPL-2.0
/*
 * Map elements: the flags (BPF_F_CPU with good and bad CPUs, BPF_F_ALL_CPUS,
 * both, element flags, unknown bits) and keys the fuzzer passes, what the
 * kernel must answer (map_update_elem(), map_lookup_elem(), the batches) and
 * what a lookup must return: the model's value.
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

const char *map_type_name(u32 t)
{
	switch (t) {
	case BPF_MAP_TYPE_ARRAY: return "array";
	case BPF_MAP_TYPE_PERCPU_ARRAY: return "percpu_array";
	case BPF_MAP_TYPE_HASH: return "hash";
	case BPF_MAP_TYPE_PERCPU_HASH: return "percpu_hash";
	case BPF_MAP_TYPE_LRU_HASH: return "lru_hash";
	case BPF_MAP_TYPE_LRU_PERCPU_HASH: return "lru_percpu_hash";
	}
	return "type?";
}

const char *map_str(const struct mobj *o)
{
	static char buf[4][96];
	static int n;
	char *b = buf[n++ & 3];

	snprintf(b, 96, "%s(k%u v%u n%u f%#x%s%s%s)", map_type_name(o->type), o->key_size,
		 o->value_size, o->max_entries, o->flags, o->excl ? " excl" : "",
		 o->frozen ? " frozen" : "", o->known ? "" : " ?");
	return b;
}

enum fd_kind fd_classify(int fd, struct pmap **m)
{
	struct pmap *pm = pool_map_of_fd(fd);

	if (m)
		*m = pm;
	if (pm)
		return FD_MAP;
	if (pool_fd_is_btf(fd))
		return FD_BTF;
	if (fd < 0 || fcntl(fd, F_GETFD) < 0)
		return FD_CLOSED;
	return FD_OTHER;
}

int fd_map_err(enum fd_kind k)
{
	return k == FD_CLOSED ? EBADF : EINVAL;
}

/* the pool fills with frozen metadata maps: most element operations go to
 * maps that can still change, and CPU flags mostly to percpu maps
 */
static bool writable(const struct pmap *m)
{
	return !m->o->frozen && m->wr;
}

static bool percpu_writable(const struct pmap *m)
{
	return writable(m) && is_percpu(m->o->type);
}

static bool percpu_map(const struct pmap *m)
{
	return is_percpu(m->o->type);
}

bool not_exclusive(const struct pmap *m)
{
	return !m->o->excl;
}

/* a map for an operation with flags: mostly one on which they can work */
struct pmap *pick_map_for(u64 flags, bool write)
{
	bool cpu = flags & (BPF_F_CPU | BPF_F_ALL_CPUS);
	struct pmap *m = NULL;

	if (rnd_chance(3, 4))
		m = pick_map(write ? (cpu ? percpu_writable : writable) : cpu ? percpu_map : NULL);
	return m ? m : pick_map(NULL);
}

struct pmap *pick_map(bool (*filter)(const struct pmap *))
{
	int cand[MAX_MAPS], n = 0, i;

	for (i = 0; i < pool.nmaps; i++)
		if (!filter || filter(&pool.maps[i]))
			cand[n++] = i;
	return n ? &pool.maps[cand[rnd_below(n)]] : NULL;
}

/* BPF_F_CPU, BPF_F_ALL_CPUS and the element flags, valid and not */
u64 gen_elem_flags(bool update)
{
	u64 low = rnd_chance(3, 4) ? 0 : rnd_below(4);	/* ANY, NOEXIST, EXIST, 3 */
	u64 cpu = rnd_chance(7, 8) ? rnd_below(st.ncpus) :
		  rnd_chance(1, 2) ? (u64)st.ncpus : rnd() & 0xffffffff;

	switch (rnd_below(12)) {
	case 0: case 1: case 2: case 3:
		return low;
	case 4: case 5: case 6:
		return low | BPF_F_CPU | cpu << 32;
	case 7: case 8:
		return update ? low | BPF_F_ALL_CPUS : BPF_F_ALL_CPUS;
	case 9:
		return BPF_F_CPU | BPF_F_ALL_CPUS | cpu << 32;
	case 10:
		return cpu << 32;			/* a CPU without BPF_F_CPU */
	default:
		return rnd_chance(1, 2) ? BPF_F_LOCK : 1ull << (5 + rnd_below(27));
	}
}

/* bpf_map_check_cpu_flags() */
int cpu_flags_err(const struct mobj *o, u64 flags, bool update)
{
	u64 cf = flags & (BPF_F_CPU | BPF_F_ALL_CPUS);

	if (!cf)
		return flags >> 32 ? EINVAL : 0;
	if (!is_percpu(o->type))
		return EINVAL;
	if (cf == (BPF_F_CPU | BPF_F_ALL_CPUS) || (!update && (flags & BPF_F_ALL_CPUS)) ||
	    ((flags & BPF_F_ALL_CPUS) && flags >> 32))
		return EINVAL;
	if ((flags & BPF_F_CPU) && (flags >> 32) >= (u64)st.ncpus)
		return ERANGE;
	return 0;
}

/* the key of an element into key[KEY_MAX]: array indexes around max_entries,
 * a few hash keys
 */
void gen_key(const struct mobj *o, u8 *key)
{
	u32 idx;

	memset(key, 0, KEY_MAX);
	if (is_array(o->type)) {
		idx = rnd_chance(7, 8) ? rnd_below(o->max_entries < 4 ? o->max_entries : 4) :
		      rnd_chance(1, 2) ? o->max_entries : (u32)rnd();
		if (rnd_chance(1, 2) && o->max_entries > 4)
			idx = rnd_below(o->max_entries);
		memcpy(key, &idx, 4);
	} else {
		key[0] = rnd_below(6);
		if (rnd_chance(1, 16))
			rnd_bytes(key, o->key_size < KEY_MAX ? o->key_size : KEY_MAX);
	}
}

/* an element update as map_update_elem() and the map's update do it */
struct expect predict_update(const struct pmap *m, const u8 *key, u64 flags)
{
	const struct mobj *o = m->o;
	u32 low = (u32)flags & ~(BPF_F_CPU | BPF_F_ALL_CPUS);
	bool exists;
	int err;

	if (!m->wr || o->frozen)
		return EXPECT_FAIL(EPERM, o->frozen ? "frozen map" : "read-only fd");
	if (flags & BPF_F_LOCK)
		return EXPECT_FAIL(EINVAL, "BPF_F_LOCK without a spin lock");
	err = cpu_flags_err(o, flags, true);
	if (err)
		return EXPECT_FAIL(err, "bpf_map_check_cpu_flags()");
	if (o->foreign)
		return EXPECT_ESCAPE("a loader's map: attributes partly known");
	if (is_array(o->type)) {
		u32 idx;

		memcpy(&idx, key, 4);
		if (o->type == BPF_MAP_TYPE_ARRAY ? flags > BPF_EXIST : low > BPF_EXIST)
			return EXPECT_FAIL(EINVAL, "unknown element flags");
		if (idx >= o->max_entries)
			return EXPECT_FAIL(E2BIG, "index beyond max_entries");
		/*
		 * Every element of an array exists, with a CPU flag or not:
		 * BPF_NOEXIST cannot be used on them (map_array.rst), and
		 * the percpu hashes keep BPF_NOEXIST next to BPF_F_CPU and
		 * BPF_F_ALL_CPUS too.  A percpu array that takes
		 * BPF_NOEXIST | BPF_F_CPU overwrites an element its caller
		 * asked to leave alone.
		 */
		if (low == BPF_NOEXIST)
			return EXPECT_FAIL(EEXIST, "BPF_NOEXIST on an array element, CPU flag or not");
		return EXPECT_OK("array update");
	}
	if (low > BPF_EXIST)
		return EXPECT_FAIL(EINVAL, "unknown element flags");
	if (!o->known)
		return EXPECT_ESCAPE("more elements than the model tracks");
	exists = model_find((struct mobj *)o, key);
	if (low == BPF_NOEXIST && exists)
		return EXPECT_FAIL(EEXIST, "BPF_NOEXIST on an existing element");
	if (low == BPF_EXIST && !exists)
		return EXPECT_FAIL(ENOENT, "BPF_EXIST on a missing element");
	if (!exists && o->nelem >= (int)o->max_entries)
		return EXPECT_FAIL(E2BIG, "the hash map is full");
	return EXPECT_OK("hash update");
}

/* apply a successful update to the model */
void apply_update(struct mobj *o, const u8 *key, const u8 *val, u64 flags)
{
	int cpu = flags & BPF_F_CPU ? (int)(flags >> 32) : -1;

	if (!model_set(o, key, val, cpu, flags & BPF_F_ALL_CPUS))
		stat_note("model lost track (elements)");
}

struct expect predict_lookup(const struct pmap *m, const u8 *key, u64 flags)
{
	const struct mobj *o = m->o;
	int err;

	if ((u32)flags & ~(BPF_F_LOCK | BPF_F_CPU))
		return EXPECT_FAIL(EINVAL, "unknown lookup flags");
	if (!m->rd)
		return EXPECT_FAIL(EPERM, "write-only fd");
	if (flags & BPF_F_LOCK)
		return EXPECT_FAIL(EINVAL, "BPF_F_LOCK without a spin lock");
	err = cpu_flags_err(o, flags, false);
	if (err)
		return EXPECT_FAIL(err, "bpf_map_check_cpu_flags()");
	if (o->foreign)
		return EXPECT_ESCAPE("a loader's map: attributes partly known");
	if (!o->known)
		return EXPECT_ESCAPE("more elements than the model tracks");
	if (is_array(o->type)) {
		u32 idx;

		memcpy(&idx, key, 4);
		return idx < o->max_entries ? EXPECT_OK("array lookup") :
		       EXPECT_FAIL(ENOENT, "index beyond max_entries");
	}
	return model_find((struct mobj *)o, key) ? EXPECT_OK("existing element") :
	       EXPECT_FAIL(ENOENT, "missing element");
}

/* compare what a lookup returned with the model */
/*
 * Compare what a lookup returned with the model: value_size bytes of each
 * CPU's value. The padding up to 8 bytes of percpu values holds whatever
 * an earlier full-width update left there, which no contract fixes.
 */
void check_value(struct mobj *o, const u8 *key, u64 flags, const u8 *got, const char *what)
{
	size_t esz = elem_size(o), full = esz * model_ncpu(o), off = 0, i;
	u32 c, ncpu = model_ncpu(o);
	u8 *want;

	if (!o->known || o->foreign)
		return;
	want = malloc(full ? full : 1);
	if (!model_value(o, key, want))
		violation("%s: the model has no such element", what);
	if (flags & BPF_F_CPU) {
		off = (size_t)(flags >> 32) * esz;
		ncpu = 1;
	}
	for (c = 0; c < ncpu; c++) {
		const u8 *g = got + (size_t)c * esz, *w = want + off + (size_t)c * esz;

		if (!memcmp(g, w, o->value_size))
			continue;
		for (i = 0; i < o->value_size && g[i] == w[i]; i++)
			;
		violation("%s of %s: byte %zu is %#x, the model has %#x", what, map_str(o),
			  (size_t)c * esz + i, g[i], w[i]);
	}
	free(want);
	stat_note("values checked against the model");
}

/* ---- elements ---- */

static void do_update(struct pmap *m, const u8 *key, u64 flags, const char *how)
{
	u32 n = value_bytes(m->o, flags);
	union bpf_attr attr = {};
	u8 *val = malloc(n ? n : 1);
	long ret;

	if (rnd_chance(1, 8))
		rnd_bytes(val, n);
	else
		pattern_fill(val, n, pattern_pick() + (st.op << 8));
	attr.map_fd = m->fd;
	attr.key = (uintptr_t)key;
	attr.value = (uintptr_t)val;
	attr.flags = flags;
	op_desc("BPF_MAP_UPDATE_ELEM%s %s fd %d key %#x flags %#llx", how, map_str(m->o), m->fd,
		key[0] | key[1] << 8, (unsigned long long)flags);
	ret = sys_bpf(BPF_MAP_UPDATE_ELEM, &attr, offsetofend(union bpf_attr, flags));
	expect_check(flags & (BPF_F_CPU | BPF_F_ALL_CPUS) ? "map_update_cpu" : "map_update",
		     predict_update(m, key, flags), ret);
	if (!ret)
		apply_update(m->o, key, val, flags);
	free(val);
}

void op_map_update(void)
{
	u64 flags = gen_elem_flags(true);
	struct pmap *m = pick_map_for(flags, true);
	u8 key[KEY_MAX];

	if (!m)
		return op_map_create();
	gen_key(m->o, key);
	do_update(m, key, flags, "");
}

void op_map_lookup(void)
{
	u64 flags = gen_elem_flags(false);
	struct pmap *m = pick_map_for(flags, false);
	union bpf_attr attr = {};
	u8 key[KEY_MAX], *val;
	long ret;
	u32 n;

	if (!m)
		return;
	gen_key(m->o, key);
	n = value_bytes(m->o, flags);
	val = calloc(1, n ? n : 1);
	attr.map_fd = m->fd;
	attr.key = (uintptr_t)key;
	attr.value = (uintptr_t)val;
	attr.flags = flags;
	op_desc("BPF_MAP_LOOKUP_ELEM %s fd %d key %#x flags %#llx", map_str(m->o), m->fd,
		key[0] | key[1] << 8, (unsigned long long)flags);
	ret = sys_bpf(BPF_MAP_LOOKUP_ELEM, &attr, offsetofend(union bpf_attr, flags));
	expect_check(flags & BPF_F_CPU ? "map_lookup_cpu" : "map_lookup",
		     predict_lookup(m, key, flags), ret);
	if (!ret)
		check_value(m->o, key, flags, val, "BPF_MAP_LOOKUP_ELEM");
	free(val);
}

struct expect predict_delete(const struct pmap *m, const u8 *key)
{
	if (!m->wr || m->o->frozen)
		return EXPECT_FAIL(EPERM, m->o->frozen ? "frozen map" : "read-only fd");
	if (is_array(m->o->type))
		return EXPECT_FAIL(EINVAL, "array elements cannot be deleted");
	if (m->o->foreign)
		return EXPECT_ESCAPE("a loader's map: attributes partly known");
	if (!m->o->known)
		return EXPECT_ESCAPE("more elements than the model tracks");
	return model_find(m->o, key) ? EXPECT_OK("existing element") :
	       EXPECT_FAIL(ENOENT, "missing element");
}

void op_map_delete(void)
{
	struct pmap *m = pick_map_for(0, true);
	union bpf_attr attr = {};
	u8 key[KEY_MAX];
	long ret;

	if (!m)
		return;
	gen_key(m->o, key);
	attr.map_fd = m->fd;
	attr.key = (uintptr_t)key;
	op_desc("BPF_MAP_DELETE_ELEM %s fd %d key %#x", map_str(m->o), m->fd, key[0]);
	ret = sys_bpf(BPF_MAP_DELETE_ELEM, &attr, offsetofend(union bpf_attr, key));
	expect_check("map_delete", predict_delete(m, key), ret);
	if (!ret)
		model_delete(m->o, key);
}

/* ---- batches ---- */

#define BATCH_MAX 4

static void batch_update(struct pmap *m, u64 elem_flags)
{
	struct mobj *o = m->o;
	u32 vb = value_bytes(o, elem_flags), count = rnd_below(BATCH_MAX + 1), want = 0, i;
	u8 *keys = calloc(BATCH_MAX, KEY_MAX), *kbuf = calloc(BATCH_MAX, KEY_MAX);
	u8 *vals = malloc((size_t)vb * BATCH_MAX + 1);
	struct expect e = EXPECT_OK("every element updates");
	LIBBPF_OPTS(bpf_map_batch_opts, opts, .elem_flags = elem_flags);
	bool before_loop = true;
	int ret, err;

	for (i = 0; i < count; i++) {
		gen_key(o, keys + i * KEY_MAX);
		memcpy(kbuf + i * o->key_size, keys + i * KEY_MAX, o->key_size);
		pattern_fill(vals + (size_t)i * vb, vb, pattern_pick() + (st.op << 8) + i);
	}
	op_desc("BPF_MAP_UPDATE_BATCH %s fd %d count %u elem_flags %#llx", map_str(o), m->fd,
		count, (unsigned long long)elem_flags);
	/* bpf_map_do_batch(), then generic_map_update_batch() element by element */
	if (!m->wr || o->frozen)
		e = EXPECT_FAIL(EPERM, o->frozen ? "frozen map" : "read-only fd");
	else if ((err = cpu_flags_err(o, elem_flags, true)))
		e = EXPECT_FAIL(err, "bpf_map_check_cpu_flags()");
	else if ((u32)elem_flags & ~(BPF_F_LOCK | BPF_F_CPU | BPF_F_ALL_CPUS))
		e = EXPECT_FAIL(EINVAL, "batch element flags");
	else if (elem_flags & BPF_F_LOCK)
		e = EXPECT_FAIL(EINVAL, "BPF_F_LOCK without a spin lock");
	else if (!count)
		e = EXPECT_OK("nothing to do");
	else if (o->foreign)
		e = EXPECT_ESCAPE("a loader's map: attributes partly known"), before_loop = false;
	else if (!o->known)
		e = EXPECT_ESCAPE("more elements than the model tracks"), before_loop = false;
	else {
		/* on a copy of the model: the count stops at the first error */
		struct mobj *copy = mobj_new(o->type, o->key_size, o->value_size, o->max_entries,
					     o->flags);
		struct pmap cm = { m->fd, copy, m->rd, m->wr };
		struct expect ei;
		int j;

		for (j = 0; j < o->nelem; j++)
			model_set(copy, o->elem[j].key, o->elem[j].val, -1, false);
		for (i = 0; i < count; i++) {
			ei = predict_update(&cm, keys + i * KEY_MAX, elem_flags);
			if (ei.kind != EXP_OK) {
				e = ei;
				break;
			}
			apply_update(copy, keys + i * KEY_MAX, vals + (size_t)i * vb, elem_flags);
		}
		want = i;
		before_loop = false;
		mobj_put(copy);
	}
	i = count;
	ret = bpf_map_update_batch(m->fd, kbuf, vals, &i, &opts);
	expect_check("map_batch_update", e, ret);
	if (!before_loop && e.kind != EXP_ANY && i != want)
		violation("BPF_MAP_UPDATE_BATCH reported %u elements done, the model %u", i, want);
	if (!before_loop)
		for (want = 0; want < i && want < count; want++)
			apply_update(o, keys + want * KEY_MAX, vals + (size_t)want * vb, elem_flags);
	free(keys);
	free(kbuf);
	free(vals);
}

static void batch_lookup(struct pmap *m, u64 elem_flags, bool and_delete)
{
	struct mobj *o = m->o;
	u32 vb = value_bytes(o, elem_flags), count = rnd_below(BATCH_MAX + 1), i, j;
	u8 *keys = calloc(BATCH_MAX, o->key_size + 1), *vals = calloc(BATCH_MAX, vb + 1);
	u64 out = 0;
	LIBBPF_OPTS(bpf_map_batch_opts, opts, .elem_flags = elem_flags);
	struct expect e;
	int ret, err;

	op_desc("BPF_MAP_LOOKUP%s_BATCH %s fd %d count %u elem_flags %#llx",
		and_delete ? "_AND_DELETE" : "", map_str(o), m->fd, count,
		(unsigned long long)elem_flags);
	if (!m->rd)
		e = EXPECT_FAIL(EPERM, "write-only fd");
	else if (and_delete && (!m->wr || o->frozen))
		e = EXPECT_FAIL(EPERM, o->frozen ? "frozen map" : "read-only fd");
	else if (and_delete && (elem_flags & (BPF_F_CPU | BPF_F_ALL_CPUS)))
		e = EXPECT_FAIL(EINVAL, "CPU flags on a lookup-and-delete batch");
	else if ((err = cpu_flags_err(o, elem_flags, false)))
		e = EXPECT_FAIL(err, "bpf_map_check_cpu_flags()");
	else if (and_delete && is_array(o->type))
		e = EXPECT_FAIL(ENOTSUPP, "arrays have no lookup-and-delete batch");
	else if ((u32)elem_flags & ~(BPF_F_LOCK | BPF_F_CPU))
		e = EXPECT_FAIL(EINVAL, "batch element flags");
	else if (elem_flags & BPF_F_LOCK)
		e = EXPECT_FAIL(EINVAL, "BPF_F_LOCK without a spin lock");
	else if (!count)
		e = EXPECT_OK("nothing to do");
	else if (o->foreign)
		e = EXPECT_ESCAPE("a loader's map: attributes partly known");
	else if (is_array(o->type))
		/* generic_map_lookup_batch(): ENOENT when the keys run out */
		e = count <= o->max_entries ? EXPECT_OK("count elements of an array") :
		    EXPECT_FAIL(ENOENT, "count beyond max_entries: the end of the array");
	else if (o->known && !o->nelem)
		e = EXPECT_FAIL(ENOENT, "an empty hash map");
	else
		/* bucket by bucket: ENOSPC for a bucket larger than count, ENOENT at the end */
		e = EXPECT_ESCAPE("hash batch: bucket layout decides ENOENT or ENOSPC");
	i = count;
	if (and_delete)
		ret = bpf_map_lookup_and_delete_batch(m->fd, NULL, &out, keys, vals, &i, &opts);
	else
		ret = bpf_map_lookup_batch(m->fd, NULL, &out, keys, vals, &i, &opts);
	expect_check(and_delete ? "map_batch_lookup_delete" : "map_batch_lookup", e, ret);
	/* ENOENT: the end of the map, with i elements returned all the same */
	if (ret && ret != -ENOENT)
		goto out;
	if (is_array(o->type) && !o->foreign && i != (count < o->max_entries ? count : o->max_entries))
		violation("array batch lookup returned %u elements, the model %u", i,
			  count < o->max_entries ? count : o->max_entries);
	if (i > count)
		violation("batch lookup returned %u elements for count %u", i, count);
	for (j = 0; j < i; j++) {
		u8 kb[KEY_MAX] = {};

		memcpy(kb, keys + j * o->key_size, o->key_size);
		if (o->known && !o->foreign && is_hash(o->type) && !model_find(o, kb))
			violation("batch lookup returned key %#x that the model does not have",
				  kb[0]);
		check_value(o, kb, elem_flags, vals + (size_t)j * vb, "batch lookup");
		if (and_delete)
			model_delete(o, kb);
	}
out:
	free(keys);
	free(vals);
}

static void batch_delete(struct pmap *m)
{
	struct mobj *o = m->o;
	u32 count = rnd_below(BATCH_MAX + 1), want = 0, i;
	u8 *keys = calloc(BATCH_MAX, KEY_MAX), *kbuf = calloc(BATCH_MAX, KEY_MAX);
	LIBBPF_OPTS(bpf_map_batch_opts, opts);
	struct expect e = EXPECT_OK("every key deleted");
	bool before_loop = true;
	int ret;

	for (i = 0; i < count; i++) {
		gen_key(o, keys + i * KEY_MAX);
		memcpy(kbuf + i * o->key_size, keys + i * KEY_MAX, o->key_size);
	}
	op_desc("BPF_MAP_DELETE_BATCH %s fd %d count %u", map_str(o), m->fd, count);
	if (!m->wr || o->frozen)
		e = EXPECT_FAIL(EPERM, o->frozen ? "frozen map" : "read-only fd");
	else if (is_array(o->type))
		e = EXPECT_FAIL(ENOTSUPP, "arrays have no delete batch");
	else if (!count)
		e = EXPECT_OK("nothing to do");
	else if (o->foreign)
		e = EXPECT_ESCAPE("a loader's map: attributes partly known"), before_loop = false;
	else if (!o->known)
		e = EXPECT_ESCAPE("more elements than the model tracks"), before_loop = false;
	else {
		/* a key may be listed twice: the second delete fails */
		u8 gone[BATCH_MAX] = {};

		for (i = 0; i < count; i++) {
			u32 k;

			for (k = 0; k < i; k++)
				if (gone[k] && !memcmp(keys + k * KEY_MAX, keys + i * KEY_MAX, 8))
					break;
			if (k < i || !model_find(o, keys + i * KEY_MAX)) {
				e = EXPECT_FAIL(ENOENT, "missing key");
				break;
			}
			gone[i] = 1;
		}
		want = i;
		before_loop = false;
	}
	i = count;
	ret = bpf_map_delete_batch(m->fd, kbuf, &i, &opts);
	expect_check("map_batch_delete", e, ret);
	if (!before_loop && e.kind != EXP_ANY && i != want)
		violation("BPF_MAP_DELETE_BATCH reported %u keys done, the model %u", i, want);
	if (!before_loop)
		for (want = 0; want < i && want < count; want++)
			model_delete(o, keys + want * KEY_MAX);
	free(keys);
	free(kbuf);
}

void op_map_batch(void)
{
	u64 flags = rnd_chance(1, 2) ? 0 : gen_elem_flags(true);
	struct pmap *m = pick_map_for(flags, rnd_chance(1, 2));

	if (!m || m->o->key_size > KEY_MAX)
		return;
	switch (rnd_below(6)) {
	case 0:
	case 1:
		return batch_update(m, flags);
	case 2:
	case 3:
		return batch_lookup(m, flags & ~(u64)BPF_F_ALL_CPUS, false);
	case 4:
		return batch_lookup(m, flags & ~(u64)BPF_F_ALL_CPUS, true);
	default:
		return batch_delete(m);
	}
}

