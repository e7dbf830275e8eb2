// SPDX-License-Identifier: GPL-2.0
/*
 * Map element iterators: tests/guest/progs/iter_write.bpf.c's "rewrite"
 * (stores into every value) and "peek" (reads them), attached from user
 * space or by a loader.  None may attach to an exclusive map, the writer
 * not to a BPF_F_RDONLY_PROG one; what they do goes into the model.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "fuzz.h"
#include "ops.h"
#include "iter_write.skel.h"

static struct iter_write *iter_skel;

bool iter_ok(void)
{
	return iter_skel;
}

/* bpf_iter_attach_map() */
struct expect predict_iter_attach(int prog_fd, int map_fd)
{
	struct pmap *m;
	enum fd_kind k = fd_classify(map_fd, &m);
	u32 vs;

	if (!map_fd)
		return EXPECT_FAIL(EBADF, "map_fd 0");
	if (k != FD_MAP)
		return EXPECT_FAIL(fd_map_err(k), "not a map");
	if (m->o->excl)
		return EXPECT_FAIL(EPERM, "iterator on an exclusive map");
	vs = is_percpu(m->o->type) ? ((m->o->value_size + 7) & ~7u) * st.ncpus : m->o->value_size;
	if (vs < 4)
		return EXPECT_FAIL(EACCES, "values smaller than the program's access");
	if ((m->o->flags & BPF_F_RDONLY_PROG) && prog_fd == st.iter_rewrite_fd)
		return EXPECT_FAIL(EACCES, "writing iterator on a BPF_F_RDONLY_PROG map");
	return EXPECT_OK("iterator on a plain map");
}

static void rewrite_value(struct mobj *o, const void *key)
{
	u8 *v = malloc(o->value_size + 8);
	const u32 dead = 0xdeadbeef;

	if (!model_value(o, key, v)) {
		free(v);
		return;
	}
	memcpy(v, &dead, 4);
	if (!model_set(o, key, v, -1, false))
		stat_note("model lost track (elements)");
	free(v);
}

/* run the link's iterator to its end; apply to the model what it did */
void iter_run_link(int link_fd, struct mobj *o, int prog_fd)
{
	const u32 sentinel = 0x5e5e5e5e;
	char buf[64];
	int fd, n;
	u32 i;

	iter_skel->bss->seen = sentinel;
	op_desc("read the iterator of link %d (%s) over %s", link_fd,
		prog_fd == st.iter_rewrite_fd ? "rewrite" : "peek", o ? map_str(o) : "?");
	fd = bpf_iter_create(link_fd);
	if (fd >= 0) {
		while ((n = read(fd, buf, sizeof(buf))) > 0)
			;
		close(fd);
		fd = n;
	}
	expect_check("iter_run", EXPECT_OK("an attached iterator"), fd < 0 ? fd : 0);
	if (!o || !o->known)
		return;
	if (o->excl)
		violation("an iterator ran over an exclusive map");
	if (prog_fd == st.iter_rewrite_fd) {
		if (o->frozen)
			stat_note("iterator rewrote a frozen plain map");
		/* percpu maps: the program writes a copy */
		if (o->type == BPF_MAP_TYPE_ARRAY) {
			if (o->max_entries > MAX_ELEMS)
				return model_forget(o);
			for (i = 0; i < o->max_entries; i++)
				rewrite_value(o, &i);
		} else if (o->type == BPF_MAP_TYPE_HASH) {
			int cnt = o->nelem, j;
			u8 keys[MAX_ELEMS][8];

			for (j = 0; j < cnt; j++)
				memcpy(keys[j], o->elem[j].key, 8);
			for (j = 0; j < cnt; j++)
				rewrite_value(o, keys[j]);
		}
		return;
	}
	/* peek: the last value visited; arrays go in order */
	if (is_array(o->type) && o->max_entries) {
		u32 last = o->max_entries - 1, want;
		u8 *v = malloc((size_t)elem_size(o) * model_ncpu(o) + 8);

		if (model_value(o, &last, v)) {
			memcpy(&want, v, 4);
			if (iter_skel->bss->seen != want)
				violation("the peek iterator saw %#x last, the model has %#x",
					  iter_skel->bss->seen, want);
			stat_note("iterator reads checked against the model");
		}
		free(v);
	}
}

void op_iter(void)
{
	LIBBPF_OPTS(bpf_link_create_opts, opts);
	union bpf_iter_link_info linfo = {};
	struct pmap *m;
	struct expect e;
	int prog, map_fd;
	long fd;

	if (!iter_skel)
		return;
	if (pool.nlinks && rnd_chance(1, 3)) {
		struct plink *l = &pool.links[rnd_below(pool.nlinks)];

		return iter_run_link(l->fd, l->o, l->prog_fd);
	}
	prog = rnd_chance(1, 2) ? st.iter_rewrite_fd : st.iter_peek_fd;
	m = rnd_chance(3, 4) ? pick_map(not_exclusive) : NULL;
	if (!m)
		m = pick_map(NULL);
	map_fd = m && rnd_chance(7, 8) ? m->fd : random_fd();
	linfo.map.map_fd = map_fd;
	opts.iter_info = &linfo;
	opts.iter_info_len = sizeof(linfo);
	e = predict_iter_attach(prog, map_fd);
	fd_classify(map_fd, &m);
	op_desc("BPF_LINK_CREATE iter/bpf_map_elem (%s) on fd %d %s",
		prog == st.iter_rewrite_fd ? "rewrite" : "peek", map_fd, m ? map_str(m->o) : "");
	fd = bpf_link_create(prog, 0, BPF_TRACE_ITER, &opts);
	expect_check("iter_attach", e, fd);
	if (fd < 0)
		return;
	iter_run_link(fd, m ? m->o : NULL, prog);
	if (rnd_chance(1, 2))
		pool_add_link(fd, m ? m->o : NULL, prog);
	else
		close(fd);
}

bool iter_setup(void)
{
	iter_skel = iter_write__open_and_load();
	if (!iter_skel)
		return false;
	st.iter_rewrite_fd = bpf_program__fd(iter_skel->progs.rewrite);
	st.iter_peek_fd = bpf_program__fd(iter_skel->progs.peek);
	return true;
}

void iter_teardown(void)
{
	iter_write__destroy(iter_skel);
	iter_skel = NULL;
}
