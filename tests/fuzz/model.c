// SPDX-License-Identifier: GPL-2.0
/*
 * The model of each map: its attributes and, while it is exact, the value
 * of every element the fuzzer wrote (up to MAX_ELEMS; untouched array
 * elements are zero, untouched hash keys absent).
 */
#include <stdlib.h>
#include <string.h>
#include <openssl/evp.h>

#include "fuzz.h"
#include "fixture.h"

static size_t bytes;

bool is_percpu(u32 type)
{
	return type == BPF_MAP_TYPE_PERCPU_ARRAY || type == BPF_MAP_TYPE_PERCPU_HASH ||
	       type == BPF_MAP_TYPE_LRU_PERCPU_HASH;
}

bool is_hash(u32 type)
{
	return type == BPF_MAP_TYPE_HASH || type == BPF_MAP_TYPE_PERCPU_HASH ||
	       type == BPF_MAP_TYPE_LRU_HASH || type == BPF_MAP_TYPE_LRU_PERCPU_HASH;
}

bool is_array(u32 type)
{
	return type == BPF_MAP_TYPE_ARRAY || type == BPF_MAP_TYPE_PERCPU_ARRAY;
}

/* what user space passes and gets per CPU: percpu maps round to 8 */
u32 elem_size(const struct mobj *o)
{
	return is_percpu(o->type) ? (o->value_size + 7) & ~7u : o->value_size;
}

u32 model_ncpu(const struct mobj *o)
{
	return is_percpu(o->type) ? st.ncpus : 1;
}

/* one CPU's value (BPF_F_CPU, BPF_F_ALL_CPUS) is value_size bytes, unrounded */
u32 value_bytes(const struct mobj *o, u64 flags)
{
	if (flags & (BPF_F_CPU | BPF_F_ALL_CPUS))
		return o->value_size;
	return elem_size(o) * model_ncpu(o);
}

struct mobj *mobj_new(u32 type, u32 key_size, u32 value_size, u32 max_entries, u32 flags)
{
	struct mobj *o = calloc(1, sizeof(*o));

	o->refs = 1;
	o->type = type;
	o->key_size = key_size;
	o->value_size = value_size;
	o->max_entries = max_entries;
	o->flags = flags;
	o->known = is_array(type) || is_hash(type);
	return o;
}

void mobj_get(struct mobj *o)
{
	o->refs++;
}

static void free_elems(struct mobj *o)
{
	int i;

	for (i = 0; i < o->nelem; i++) {
		bytes -= (size_t)elem_size(o) * model_ncpu(o);
		free(o->elem[i].val);
	}
	o->nelem = 0;
}

void mobj_put(struct mobj *o)
{
	if (--o->refs)
		return;
	free_elems(o);
	free(o);
}

void model_forget(struct mobj *o)
{
	free_elems(o);
	o->known = false;
}

size_t model_bytes(void)
{
	return bytes;
}

static bool key_eq(const struct mobj *o, const u8 *a, const void *b)
{
	return !memcmp(a, b, o->key_size < 8 ? o->key_size : 8);
}

struct elem *model_find(struct mobj *o, const void *key)
{
	int i;

	for (i = 0; i < o->nelem; i++)
		if (key_eq(o, o->elem[i].key, key))
			return &o->elem[i];
	return NULL;
}

static bool array_index_ok(const struct mobj *o, const void *key)
{
	u32 idx;

	memcpy(&idx, key, 4);
	return idx < o->max_entries;
}

bool model_value(struct mobj *o, const void *key, u8 *buf)
{
	size_t sz = (size_t)elem_size(o) * model_ncpu(o);
	struct elem *e = model_find(o, key);

	if (e) {
		memcpy(buf, e->val, sz);
		return true;
	}
	if (is_array(o->type) && array_index_ok(o, key)) {
		memset(buf, 0, sz);
		return true;
	}
	return false;
}

bool model_set(struct mobj *o, const void *key, const u8 *val, int cpu, bool all)
{
	u32 esz = elem_size(o), n = model_ncpu(o), c;
	struct elem *e;

	if (!o->known)
		return false;
	e = model_find(o, key);
	if (!e) {
		if (o->nelem == MAX_ELEMS) {
			model_forget(o);
			return false;
		}
		e = &o->elem[o->nelem++];
		memset(e->key, 0, sizeof(e->key));
		memcpy(e->key, key, o->key_size < 8 ? o->key_size : 8);
		/* new hash elements and untouched array elements start at zero */
		e->val = calloc(n, esz ? esz : 1);
		bytes += (size_t)esz * n;
	}
	/* one value for one or all CPUs: value_size bytes, the padding stays */
	if (cpu >= 0) {
		memcpy(e->val + (size_t)cpu * esz, val, o->value_size);
	} else if (all) {
		for (c = 0; c < n; c++)
			memcpy(e->val + (size_t)c * esz, val, o->value_size);
	} else {
		memcpy(e->val, val, (size_t)esz * n);
	}
	return true;
}

void model_delete(struct mobj *o, const void *key)
{
	struct elem *e = model_find(o, key);

	if (!e)
		return;
	bytes -= (size_t)elem_size(o) * model_ncpu(o);
	free(e->val);
	*e = o->elem[--o->nelem];
}

/* xorshift blocks: cheap enough to fill megabytes under TCG */
void pattern_fill(u8 *buf, size_t len, u64 p)
{
	u64 x = p * 0x9e3779b97f4a7c15ull | 1;
	size_t i;

	if (!p) {
		memset(buf, 0, len);
		return;
	}
	if (p >> 56 == 0xf1) {
		for (i = 0; i < len; i++)
			buf[i] = fixture_meta(p & 0xff, i);
		return;
	}
	for (i = 0; i < len; i++) {
		if (!(i & 7)) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
		}
		buf[i] = x >> (8 * (i & 7));
	}
}

/* a few patterns, so that signed payloads repeat and signatures are reused */
u64 pattern_pick(void)
{
	static const u64 pats[] = { 0, 1, 2, 3, 4, 5, 0xf1ull << 56, (0xf1ull << 56) | 1 };

	return pats[rnd_below(ARRAY_SIZE(pats))];
}

static const u8 *zeros(size_t len)
{
	static u8 *z;
	static size_t zlen;

	if (len > zlen) {
		free(z);
		z = calloc(1, len);
		zlen = len;
	}
	return z;
}

const u8 *model_single_value(struct mobj *o)
{
	u32 zero = 0;
	struct elem *e = model_find(o, &zero);

	return e ? e->val : zeros(o->value_size);
}

bool model_array_hash(struct mobj *o, u8 out[32])
{
	u32 esz = (o->value_size + 7) & ~7u, i;
	EVP_MD_CTX *ctx;
	const u8 *z;
	bool ok;

	if (!o->known || o->type != BPF_MAP_TYPE_ARRAY)
		return false;
	z = zeros(esz);
	ctx = EVP_MD_CTX_new();
	ok = ctx && EVP_DigestInit_ex(ctx, EVP_sha256(), NULL);
	for (i = 0; ok && i < o->max_entries; i++) {
		struct elem *e = model_find(o, &i);

		if (e)
			ok = EVP_DigestUpdate(ctx, e->val, o->value_size) &&
			     EVP_DigestUpdate(ctx, z, esz - o->value_size);
		else
			ok = EVP_DigestUpdate(ctx, z, esz);
	}
	ok = ok && EVP_DigestFinal_ex(ctx, out, NULL);
	EVP_MD_CTX_free(ctx);
	return ok;
}
