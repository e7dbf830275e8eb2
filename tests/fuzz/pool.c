// SPDX-License-Identifier: GPL-2.0
/* The fds the fuzzer holds: maps (with their model), programs, links, BTF,
 * mmaps, and fds it only has to close.  A full pool closes a random entry.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"

struct pool pool;

struct pmap *pool_add_map(int fd, struct mobj *o, bool rd, bool wr)
{
	struct pmap *m;

	if (pool.nmaps == MAX_MAPS)
		pool_close_map(rnd_below(MAX_MAPS));
	m = &pool.maps[pool.nmaps++];
	m->fd = fd;
	m->o = o;
	m->rd = rd;
	m->wr = wr;
	return m;
}

struct pprog *pool_add_prog(int fd, int tmpl, enum prog_kind kind, enum verdict_class vc)
{
	struct pprog *p;

	/* the provenance the kernel must record: a child's loader, or none */
	if (kind == PK_CHILD)
		prov_expect(fd, st.run_loader_id, st.run_loader_verified);
	else
		prov_expect(fd, 0, false);
	if (pool.nprogs == MAX_PROGS)
		pool_close_prog(rnd_below(MAX_PROGS));
	p = &pool.progs[pool.nprogs++];
	memset(p, 0, sizeof(*p));
	p->fd = fd;
	p->tmpl = tmpl;
	p->kind = kind;
	p->vc = vc;
	return p;
}

void pool_add_link(int fd, struct mobj *o, int prog_fd)
{
	if (pool.nlinks == MAX_LINKS) {
		close(pool.links[0].fd);
		if (pool.links[0].o)
			mobj_put(pool.links[0].o);
		pool.links[0] = pool.links[--pool.nlinks];
	}
	if (o)
		mobj_get(o);
	pool.links[pool.nlinks++] = (struct plink){ fd, o, prog_fd };
}

void pool_add_btf(int fd)
{
	if (pool.nbtfs == MAX_BTFS) {
		close(pool.btfs[0]);
		pool.btfs[0] = pool.btfs[--pool.nbtfs];
	}
	pool.btfs[pool.nbtfs++] = fd;
}

void pool_add_other(int fd)
{
	if (pool.nother == MAX_OTHER) {
		close(pool.other[0]);
		pool.other[0] = pool.other[--pool.nother];
	}
	pool.other[pool.nother++] = fd;
}

void pool_close_map(int i)
{
	close(pool.maps[i].fd);
	mobj_put(pool.maps[i].o);
	pool.maps[i] = pool.maps[--pool.nmaps];
}

void pool_close_prog(int i)
{
	struct pprog *p = &pool.progs[i];
	int r;

	close(p->fd);
	for (r = 0; r < p->nref; r++)
		if (p->ref[r])
			mobj_put(p->ref[r]);
	pool.progs[i] = pool.progs[--pool.nprogs];
}

void pool_close_all(void)
{
	while (pool.nmappings) {
		struct mapping *m = &pool.mappings[--pool.nmappings];

		munmap(m->addr, m->len);
		if (m->rw)
			m->o->rw_maps--;
		mobj_put(m->o);
	}
	while (pool.nprogs)
		pool_close_prog(pool.nprogs - 1);
	while (pool.nlinks) {
		struct plink *l = &pool.links[--pool.nlinks];

		close(l->fd);
		if (l->o)
			mobj_put(l->o);
	}
	while (pool.nmaps)
		pool_close_map(pool.nmaps - 1);
	while (pool.nbtfs)
		close(pool.btfs[--pool.nbtfs]);
	while (pool.nother)
		close(pool.other[--pool.nother]);
}

struct pmap *pool_map_of_fd(int fd)
{
	int i;

	for (i = 0; i < pool.nmaps; i++)
		if (pool.maps[i].fd == fd)
			return &pool.maps[i];
	return NULL;
}

struct mobj *pool_mobj_of_fd(int fd)
{
	struct pmap *m = pool_map_of_fd(fd);

	return m ? m->o : NULL;
}

bool pool_fd_is_prog(int fd)
{
	int i;

	for (i = 0; i < pool.nprogs; i++)
		if (pool.progs[i].fd == fd)
			return true;
	return fd == st.iter_rewrite_fd || fd == st.iter_peek_fd || fd == st.arena_fd;
}

bool pool_fd_is_btf(int fd)
{
	int i;

	for (i = 0; i < pool.nbtfs; i++)
		if (pool.btfs[i] == fd)
			return true;
	return false;
}

/* far above anything this process opens */
int closed_fd(void)
{
	return 900 + rnd_below(64);
}

int random_fd(void)
{
	switch (rnd_below(8)) {
	case 0:
		if (pool.nprogs)
			return pool.progs[rnd_below(pool.nprogs)].fd;
		break;
	case 1:
		if (pool.nbtfs)
			return pool.btfs[rnd_below(pool.nbtfs)];
		break;
	case 2:
		if (pool.nlinks)
			return pool.links[rnd_below(pool.nlinks)].fd;
		break;
	case 3:
		return rnd_chance(1, 2) ? pool.devnull : pool.pipe_rd;
	case 4:
		return closed_fd();
	case 5:
		return rnd_chance(1, 2) ? -1 : (int)rnd();
	}
	if (pool.nmaps)
		return pool.maps[rnd_below(pool.nmaps)].fd;
	return closed_fd();
}
