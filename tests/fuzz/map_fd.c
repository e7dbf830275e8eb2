// SPDX-License-Identifier: GPL-2.0
/*
 * What else a map fd does: freeze, fds by id with open flags, mmap (a frozen
 * map has no writable mapping, a read-only one cannot become writable), and
 * the map hash of BPF_OBJ_GET_INFO_BY_FD, which must be the model's.
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

/* ---- freeze, fds by id ---- */

struct expect predict_freeze(const struct pmap *m)
{
	if (!m->wr || m->o->frozen)
		return EXPECT_FAIL(EPERM, m->o->frozen ? "already frozen" : "read-only fd");
	if (m->o->rw_maps)
		return EXPECT_FAIL(EBUSY, "a writable mmap exists");
	return EXPECT_OK("writable fd, no writable mapping");
}

void op_map_freeze(void)
{
	struct pmap *m = pick_map(NULL);
	union bpf_attr attr = {};
	long ret;

	if (!m)
		return;
	attr.map_fd = m->fd;
	op_desc("BPF_MAP_FREEZE %s fd %d", map_str(m->o), m->fd);
	ret = sys_bpf(BPF_MAP_FREEZE, &attr, offsetofend(union bpf_attr, map_fd));
	expect_check("map_freeze", predict_freeze(m), ret);
	if (!ret)
		m->o->frozen = true;
}

struct pmap *map_by_id(u32 id)
{
	int i;

	for (i = 0; i < pool.nmaps; i++)
		if (pool.maps[i].o->id == id)
			return &pool.maps[i];
	return NULL;
}

void add_fd_by_id(long fd, u32 id, u32 open_flags)
{
	struct pmap *src = map_by_id(id);

	if (fd < 0)
		return;
	if (!src) {
		pool_add_other(fd);
		return;
	}
	mobj_get(src->o);
	pool_add_map(fd, src->o, !(open_flags & BPF_F_WRONLY), !(open_flags & BPF_F_RDONLY));
}

void op_map_get_fd_by_id(void)
{
	static const u32 of[] = { 0, BPF_F_RDONLY, BPF_F_WRONLY, BPF_F_RDONLY | BPF_F_WRONLY, 4 };
	struct pmap *m = pick_map(NULL);
	union bpf_attr attr = {};
	struct expect e;
	u32 flags = of[rnd_below(ARRAY_SIZE(of))];
	long fd;

	if (!m)
		return;
	/* ids count up from 1: one with bit 30 set is no object's in a run */
	attr.map_id = rnd_chance(15, 16) ? m->o->id : (u32)rnd() | 1u << 30;
	attr.open_flags = flags;
	op_desc("BPF_MAP_GET_FD_BY_ID %u (%s) open_flags %#x", attr.map_id, map_str(m->o), flags);
	if (flags & ~(BPF_F_RDONLY | BPF_F_WRONLY) || flags == (BPF_F_RDONLY | BPF_F_WRONLY))
		e = EXPECT_FAIL(EINVAL, "open_flags");
	else if (attr.map_id == m->o->id)
		e = EXPECT_OK("a map we hold");
	else
		e = EXPECT_FAIL(ENOENT, "an id no map has");
	fd = sys_bpf(BPF_MAP_GET_FD_BY_ID, &attr, offsetofend(union bpf_attr, open_flags));
	expect_check("map_get_fd_by_id", e, fd);
	add_fd_by_id(fd, attr.map_id, flags);
}

/* ---- mmap ---- */

static bool mmapable(const struct pmap *m)
{
	return m->o->type == BPF_MAP_TYPE_ARRAY && (m->o->flags & BPF_F_MMAPABLE);
}

void op_map_mmap(void)
{
	struct pmap *m = pick_map(rnd_chance(7, 8) ? mmapable : NULL);
	struct mobj *o;
	struct mapping *mp;
	struct expect e = EXPECT_OK("mmapable array");
	size_t len;
	int prot, shared;
	void *addr;

	if (!m || pool.nmappings == MAX_MAPPINGS)
		return;
	o = m->o;
	len = ((u64)((o->value_size + 7) & ~7u) * o->max_entries + PAGE - 1) & ~(u64)(PAGE - 1);
	if (rnd_chance(1, 8))
		len += PAGE;
	prot = rnd_chance(1, 2) ? PROT_READ : PROT_READ | PROT_WRITE;
	shared = rnd_chance(15, 16) ? MAP_SHARED : MAP_PRIVATE;
	op_desc("mmap %s fd %d len %zu %s %s", map_str(o), m->fd, len,
		prot & PROT_WRITE ? "rw" : "ro", shared == MAP_SHARED ? "shared" : "private");
	/* the VFS first, then bpf_map_mmap(), then array_map_mmap() */
	if (!m->rd)
		e = EXPECT_FAIL(EACCES, "mapping of a write-only fd");
	else if ((prot & PROT_WRITE) && shared == MAP_SHARED && !m->wr)
		e = EXPECT_FAIL(EACCES, "writable mapping of a read-only fd");
	else if (o->type != BPF_MAP_TYPE_ARRAY)
		e = EXPECT_FAIL(ENOTSUPP, "no mmap for this map type");
	else if (shared != MAP_SHARED || !m->wr)
		/* a shared mapping of a read-only file is not VM_SHARED */
		e = EXPECT_FAIL(EINVAL, shared != MAP_SHARED ? "private mapping" :
				"shared mapping of a read-only fd");
	else if ((prot & PROT_WRITE) && o->frozen)
		e = EXPECT_FAIL(EPERM, "writable mapping of a frozen map");
	else if ((prot & PROT_WRITE) && (o->flags & BPF_F_RDONLY_PROG))
		e = EXPECT_FAIL(EACCES, "writable mapping of a BPF_F_RDONLY_PROG map");
	else if (!(o->flags & BPF_F_MMAPABLE))
		e = EXPECT_FAIL(EINVAL, "not BPF_F_MMAPABLE");
	else if (len > (((u64)((o->value_size + 7) & ~7u) * o->max_entries + PAGE - 1) &
			~(u64)(PAGE - 1)))
		e = EXPECT_FAIL(EINVAL, "longer than the value area");
	if (len > (64u << 20))
		return;
	addr = mmap(NULL, len, prot, shared, m->fd, 0);
	expect_check("map_mmap", e, addr == MAP_FAILED ? -errno : 0);
	if (addr == MAP_FAILED)
		return;
	mp = &pool.mappings[pool.nmappings++];
	mp->addr = addr;
	mp->len = len;
	mp->rw = prot & PROT_WRITE;
	mp->o = o;
	mobj_get(o);
	if (mp->rw)
		o->rw_maps++;
}

/* write element 0 through a writable mapping, read it through any */
void op_map_mmap_write(void)
{
	struct mapping *mp;
	u32 zero = 0;
	int ret;

	if (!pool.nmappings)
		return op_map_mmap();
	mp = &pool.mappings[rnd_below(pool.nmappings)];
	if (!mp->rw || rnd_chance(1, 4)) {
		u8 *want = malloc(mp->o->value_size);

		op_desc("read element 0 of %s through its mapping", map_str(mp->o));
		if (mp->o->known && model_value(mp->o, &zero, want) &&
		    memcmp(want, mp->addr, mp->o->value_size))
			violation("the mapping of %s differs from the model", map_str(mp->o));
		free(want);
		/* a read-only mapping cannot be made writable */
		ret = mp->rw ? 0 : mprotect(mp->addr, mp->len, PROT_READ | PROT_WRITE);
		expect_check("map_mprotect", mp->rw ? EXPECT_OK("writable already") :
			     EXPECT_FAIL(EACCES, "read-only bpf mapping loses VM_MAYWRITE"),
			     ret ? -errno : 0);
		return;
	}
	op_desc("write element 0 of %s through its writable mapping", map_str(mp->o));
	{
		u8 *val = malloc(mp->o->value_size);

		pattern_fill(val, mp->o->value_size, pattern_pick() + (st.op << 8));
		memcpy(mp->addr, val, mp->o->value_size);
		if (mp->o->frozen)
			violation("a writable mapping of a frozen map exists");
		if (mp->o->known && !model_set(mp->o, &zero, val, -1, false))
			stat_note("model lost track (elements)");
		free(val);
	}
	stat_add(stat_of("map_mmap_write"), 0);
}

void op_map_munmap(void)
{
	struct mapping *mp;

	if (!pool.nmappings)
		return;
	mp = &pool.mappings[rnd_below(pool.nmappings)];
	op_desc("munmap a mapping of %s", map_str(mp->o));
	munmap(mp->addr, mp->len);
	if (mp->rw)
		mp->o->rw_maps--;
	mobj_put(mp->o);
	*mp = pool.mappings[--pool.nmappings];
	stat_add(stat_of("map_munmap"), 0);
}

/* ---- the map hash (BPF_OBJ_GET_INFO_BY_FD with hash) ---- */

void op_map_hash_info(void)
{
	struct pmap *m = pick_map(NULL);
	struct bpf_map_info info = {};
	__u32 len = sizeof(info);
	struct expect e;
	u8 hash[32], want[32];
	int mode = rnd_below(16), ret;

	if (!m)
		return;
	info.hash = mode ? (uintptr_t)hash : 0;
	info.hash_size = mode == 1 ? 16 : 32;
	op_desc("BPF_OBJ_GET_INFO_BY_FD hash of %s (%s)", map_str(m->o),
		!mode ? "no buffer" : mode == 1 ? "size 16" : "size 32");
	if (!mode || mode == 1 || m->o->type != BPF_MAP_TYPE_ARRAY)
		e = EXPECT_FAIL(EINVAL, "hash request or map type");
	else if (m->o->excl && !m->o->frozen)
		e = EXPECT_FAIL(EPERM, "exclusive map not frozen yet");
	else
		e = EXPECT_OK("array hash");
	if ((u64)m->o->max_entries * ((m->o->value_size + 7) & ~7u) > (32u << 20) ||
	    m->o->max_entries > 65536)
		return;
	ret = bpf_map_get_info_by_fd(m->fd, &info, &len);
	expect_check("map_hash_info", e, ret);
	if (ret || !model_array_hash(m->o, want))
		return;
	if (memcmp(hash, want, 32))
		violation("the kernel's hash of %s differs from the model's value area",
			  map_str(m->o));
	stat_note("map hashes checked against the model");
}

