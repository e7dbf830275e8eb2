// SPDX-License-Identifier: GPL-2.0
/*
 * BPF_PROG_TEST_RUN of the loader templates with a context the fuzzer
 * builds: the loader hands ctx->attr to bpf_sys_bpf(), after pointing the
 * attr's pointer fields into its context.  Children of unsigned loaders and
 * of loaders verified by a caller keyring must not load under enforcement;
 * map writes through bpf_sys_bpf() obey the same rules as the syscalls.
 *
 * bpf_sys_bpf() trusts the pointers in attr as kernel addresses: a syscall
 * program is privileged, and one that passes garbage reads kernel memory.
 * So only the scalars are random here; every pointer field is zero or set
 * by the loader into its context, and sizes never reach past it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "fuzz.h"
#include "ops.h"

#define ATTR(c) ((union bpf_attr *)(c)->attr)
#define INSN(c_, d, s, o, i) \
	((struct bpf_insn){ .code = (c_), .dst_reg = (d), .src_reg = (s), .off = (o), .imm = (i) })

static const char *vc_str(enum verdict_class vc)
{
	return vc == VC_TRUSTED ? "trusted" : vc == VC_USER ? "caller-keyring" : "unsigned";
}

enum child_kind { CH_VALID, CH_NO_R0, CH_RANDOM, CH_MAP_FD, CH_MAP_IDX };

struct child {
	enum child_kind kind;
	int map_fd;
	bool scalar_err;	/* a scalar that bpf_prog_load() refuses with EINVAL */
	bool scalar_any;	/* a scalar with an outcome we do not model */
	int scalar;		/* which scalar was set, 10+: none */
};

static void gen_child(struct loader_ctx *c, struct child *ch)
{
	union bpf_attr *a = ATTR(c);
	struct bpf_insn *in = (struct bpf_insn *)c->bufa;
	static const u32 kw[] = { 60, 10, 10, 12, 8 };
	u32 cnt;

	memset(ch, 0, sizeof(*ch));
	ch->kind = rnd_weighted(kw, ARRAY_SIZE(kw));
	switch (ch->kind) {
	case CH_VALID:
		in[0] = INSN(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, (s32)rnd());
		in[1] = INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
		cnt = 2;
		break;
	case CH_NO_R0:
		in[0] = INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
		cnt = 1;
		break;
	case CH_RANDOM:
		cnt = 1 + rnd_below(7);
		rnd_bytes(in, cnt * 8);
		break;
	default:
		ch->map_fd = pool.nmaps && rnd_chance(7, 8) ? pool.maps[rnd_below(pool.nmaps)].fd :
			     random_fd();
		in[0] = INSN(BPF_LD | BPF_DW | BPF_IMM, 1,
			     ch->kind == CH_MAP_FD ? BPF_PSEUDO_MAP_FD : BPF_PSEUDO_MAP_IDX, 0,
			     ch->kind == CH_MAP_FD ? ch->map_fd : 0);
		in[1] = INSN(0, 0, 0, 0, 0);
		in[2] = INSN(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, 0);
		in[3] = INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
		cnt = 4;
	}
	a->prog_type = rnd_chance(17, 20) ? BPF_PROG_TYPE_SOCKET_FILTER : rnd_below(40);
	a->insn_cnt = rnd_chance(9, 10) ? cnt : rnd_below(8);
	if (a->prog_type != BPF_PROG_TYPE_SOCKET_FILTER || a->insn_cnt != cnt)
		ch->scalar_any = true;
	strcpy((char *)c->bufb, rnd_chance(4, 5) ? "GPL" : rnd_chance(1, 2) ? "" : "Dual BSD/GPL");
	strcpy(a->prog_name, rnd_chance(15, 16) ? "fz_child" : "bad name!");
	if (a->prog_name[3] == ' ')
		ch->scalar_err = true;
	/* one scalar at a time; each of these is refused before any pointer is used */
	ch->scalar = rnd_below(24);
	switch (ch->scalar) {
	case 0: a->fd_array_cnt = 1 + rnd_below(3); ch->scalar_err = true; break;
	case 1: a->signature_size = 1 + rnd_below(100); ch->scalar_err = true; break;
	case 2: a->keyring_id = pick_keyring(); ch->scalar_err |= !!a->keyring_id; break;
	case 3: a->log_level = 1; break;	/* no buffer: the log goes nowhere */
	case 4: a->log_size = 4096; ch->scalar_err = true; break;
	case 5: a->prog_flags = 1u << rnd_below(8); ch->scalar_any = true; break;
	case 6: a->expected_attach_type = rnd_below(60); ch->scalar_any = true; break;
	case 7: a->kern_version = rnd(); break;
	case 8: a->prog_btf_fd = pool.nbtfs ? pool.btfs[0] : random_fd(); ch->scalar_any = true; break;
	case 9: a->attach_btf_id = rnd_below(100000); ch->scalar_any = true; break;
	}
	c->patch = 1 | 2 | 4;
	c->size = rnd_chance(9, 10) ? offsetofend(union bpf_attr, keyring_id) - 1 :
		  23 + rnd_below(256 - 23);
	if (c->size + 1 < offsetofend(union bpf_attr, keyring_id)) {
		ch->scalar_any = true;	/* some scalars cut off */
		ch->scalar_err = false;
	}
}

static struct expect predict_child(const struct loader_ctx *c, const struct child *ch,
				   enum verdict_class vc)
{
	/* bpf_sig_enforce, then the policies (policy mode): the loader's verdict */
	bool denied = (st.enforce || policy_mode()) && vc != VC_TRUSTED;

	if (ch->scalar_err)
		return EXPECT_FAIL(ch->scalar_any ? 0 : EINVAL, "an attribute bpf_prog_load() refuses");
	if (ch->scalar_any || ch->kind == CH_RANDOM)
		return denied ? EXPECT_FAIL(0, "bpf_sig_enforce: the loader's verdict") :
		       EXPECT_ESCAPE("a child with random attributes");
	if (denied)
		return EXPECT_FAIL(EPERM, "bpf_sig_enforce: the loader's verdict");
	switch (ch->kind) {
	case CH_NO_R0:
		return EXPECT_FAIL(EACCES, "R0 not initialised");
	case CH_MAP_IDX:
		return EXPECT_FAIL(EPROTO, "fd_idx without fd_array");
	case CH_MAP_FD: {
		struct pmap *m;
		enum fd_kind k = fd_classify(ch->map_fd, &m);

		if (k != FD_MAP)
			return EXPECT_FAIL(fd_map_err(k), "raw map fd is not a map");
		if (vc != VC_UNSIGNED)
			return EXPECT_FAIL(EPERM, "a verified run binds only what it created");
		if (m->o->excl)
			return EXPECT_FAIL(EACCES, "map exclusive to another program");
		return EXPECT_OK("a child binding a plain map");
	}
	default:
		return EXPECT_OK("a valid child");
	}
}

static bool fits_ctx(const struct pmap *m)
{
	return m->o->key_size <= sizeof(((struct loader_ctx *)0)->bufa);
}

void op_loader_run(void)
{
	static const u32 cw[] = { 34, 20, 5, 10, 8, 7, 9, 7 };
	enum { C_LOAD, C_UPDATE, C_DELETE, C_CREATE, C_FREEZE, C_BYID, C_LINK, C_OTHER };
	static u8 buf[1024];
	struct loader_ctx *c = (struct loader_ctx *)buf;
	union bpf_attr *a = ATTR(c);
	LIBBPF_OPTS(bpf_test_run_opts, opts);
	struct pprog *lp = NULL;
	struct pmap *m = NULL;
	struct child ch = {};
	struct expect e = EXPECT_ESCAPE("loader run"), run_e;
	u32 progs_before = 0, progs_after = 0, id = 0, mc_type = 0, mc_flags = 0;
	int cand[MAX_PROGS], n = 0, i, cmd, ctx_size;
	u64 flags = 0;
	long ret;

	for (i = 0; i < pool.nprogs; i++)
		if (pool.progs[i].kind == PK_LOADER)
			cand[n++] = i;
	if (!n)
		return op_loader_load();
	lp = &pool.progs[cand[rnd_below(n)]];
	memset(buf, 0, sizeof(buf));
	cmd = rnd_weighted(cw, ARRAY_SIZE(cw));
	switch (cmd) {
	case C_LOAD:
		c->cmd = BPF_PROG_LOAD;
		gen_child(c, &ch);
		break;
	case C_UPDATE:
	case C_DELETE:
		flags = gen_elem_flags(true);
		m = pick_map_for(flags, true);
		if (m && !fits_ctx(m))
			m = pick_map(fits_ctx);
		if (m && value_bytes(m->o, flags) > sizeof(c->bufb))
			m = NULL;
		c->cmd = cmd == C_UPDATE ? BPF_MAP_UPDATE_ELEM : BPF_MAP_DELETE_ELEM;
		a->map_fd = m ? (u32)m->fd : (u32)random_fd();
		if (!m && pool_map_of_fd(a->map_fd))
			a->map_fd = pool.devnull;
		if (m) {
			u8 key[KEY_MAX];

			gen_key(m->o, key);
			memcpy(c->bufa, key, m->o->key_size);	/* fits_ctx() */
		}
		pattern_fill(c->bufb, sizeof(c->bufb), pattern_pick() + (st.op << 8));
		if (cmd == C_UPDATE)
			a->flags = flags;
		c->patch = cmd == C_UPDATE ? 1 | 2 : 1;
		c->size = offsetofend(union bpf_attr, flags) - 1;
		break;
	case C_CREATE: {
		static const u32 types[] = { BPF_MAP_TYPE_ARRAY, BPF_MAP_TYPE_HASH,
					     BPF_MAP_TYPE_PERCPU_ARRAY, BPF_MAP_TYPE_PERCPU_HASH };
		static const u32 vss[] = { 1, 4, 8, 64, 100, 4096 };
		static const u32 ns[] = { 1, 1, 2, 4, 16 };
		static const u32 fl[] = { 0, 0, 0, BPF_F_MMAPABLE, BPF_F_RDONLY_PROG, BPF_F_RDONLY };

		c->cmd = BPF_MAP_CREATE;
		a->map_type = mc_type = types[rnd_below(ARRAY_SIZE(types))];
		a->key_size = is_array(a->map_type) || rnd_chance(1, 2) ? 4 : 8;
		a->value_size = vss[rnd_below(ARRAY_SIZE(vss))];
		a->max_entries = ns[rnd_below(ARRAY_SIZE(ns))];
		a->map_flags = mc_flags = fl[rnd_below(ARRAY_SIZE(fl))];
		strcpy(a->map_name, "fz_loader");
		if (rnd_chance(1, 16))
			a->excl_prog_hash_size = 32;	/* with no pointer: EINVAL */
		c->size = offsetofend(union bpf_attr, excl_prog_hash_size) - 1;
		break;
	}
	case C_FREEZE:
		m = pick_map(NULL);
		c->cmd = BPF_MAP_FREEZE;
		a->map_fd = m ? (u32)m->fd : (u32)closed_fd();
		c->size = offsetofend(union bpf_attr, map_fd) - 1;
		break;
	case C_BYID:
		m = pick_map(NULL);
		c->cmd = BPF_MAP_GET_FD_BY_ID;
		a->map_id = m && rnd_chance(7, 8) ? m->o->id : (u32)rnd();
		a->open_flags = rnd_chance(3, 4) ? 0 : rnd_chance(1, 2) ? BPF_F_RDONLY : BPF_F_WRONLY;
		c->size = offsetofend(union bpf_attr, open_flags) - 1;
		break;
	case C_LINK: {
		union bpf_iter_link_info *li = (union bpf_iter_link_info *)c->bufb;
		static const u32 lens[] = { 4, 8, 16, 16, 0 };

		m = pick_map(NULL);
		c->cmd = BPF_LINK_CREATE;
		a->link_create.prog_fd = rnd_chance(1, 2) ? st.iter_rewrite_fd : st.iter_peek_fd;
		a->link_create.attach_type = BPF_TRACE_ITER;
		a->link_create.iter_info_len = lens[rnd_below(ARRAY_SIZE(lens))];
		memset(c->bufb, 0, sizeof(c->bufb));
		li->map.map_fd = m && rnd_chance(7, 8) ? m->fd : random_fd();
		c->patch = 2;
		c->size = offsetofend(union bpf_attr, link_create.iter_info_len) - 1;
		break;
	}
	default: {
		static const u32 other[] = { BPF_MAP_LOOKUP_ELEM, BPF_MAP_GET_NEXT_KEY, BPF_OBJ_PIN,
					     BPF_PROG_ATTACH, 250 };

		c->cmd = other[rnd_below(ARRAY_SIZE(other))];
		c->size = rnd_below(256);
	}
	}
	ctx_size = rnd_chance(19, 20) ? (int)sizeof(*c) : rnd_chance(1, 2) ? (int)rnd_below(sizeof(*c)) :
		   (int)sizeof(*c) + (int)rnd_below(sizeof(buf) - sizeof(*c));
	opts.ctx_in = buf;
	opts.ctx_size_in = ctx_size;
	run_e = ctx_size < (int)sizeof(*c) ? EXPECT_FAIL(EINVAL, "context smaller than the loader reads") :
		EXPECT_OK("a loader run");
	c->ret = 0x7777;
	op_desc("BPF_PROG_TEST_RUN loader %s (template %d) ctx %d bytes: bpf_sys_bpf(%u, size %u)",
		vc_str(lp->vc), lp->tmpl, ctx_size, c->cmd, (c->size & 255) + 1);
	while (!bpf_prog_get_next_id(id, &id))
		progs_before++;
	st.run_loader_id = policy_mode() ? obj_prog_id(lp->fd) : 0;
	st.run_loader_verified = lp->vc != VC_UNSIGNED;
	ret = bpf_prog_test_run_opts(lp->fd, &opts);
	expect_check("loader_run", run_e, ret);
	if (ret)
		return;
	if (opts.retval != tmpls[lp->tmpl].nonce)
		violation("the loader returned %u, not its nonce %u", opts.retval,
			  tmpls[lp->tmpl].nonce);
	ret = c->ret;
	switch (cmd) {
	case C_LOAD:
		e = predict_child(c, &ch, lp->vc);
		op_desc("loader (%s) BPF_PROG_LOAD child kind %d type %u cnt %u scalar %d size %u "
			"(name \"%.16s\", license \"%.12s\", keyring %d, flags %#x, attach %u)",
			vc_str(lp->vc), ch.kind, a->prog_type, a->insn_cnt, ch.scalar,
			(c->size & 255) + 1, a->prog_name, (char *)c->bufb, a->keyring_id,
			a->prog_flags, a->expected_attach_type);
		if (ret >= 0 && st.enforce && lp->vc != VC_TRUSTED)
			violation("a child of a %s loader loaded under bpf_sig_enforce",
				  vc_str(lp->vc));
		if (ret >= 0 && policy_denies(lp->vc))
			violation("a child of a %s loader loaded under the policies",
				  vc_str(lp->vc));
		expect_check("loader_child_load", e, ret);
		if (ret >= 0) {
			pool_add_prog(ret, -1, PK_CHILD, VC_UNSIGNED);
		} else {
			id = 0;
			while (!bpf_prog_get_next_id(id, &id))
				progs_after++;
			if (progs_after != progs_before)
				violation("a refused child changed the number of programs (%u -> %u)",
					  progs_before, progs_after);
		}
		break;
	case C_UPDATE:
	case C_DELETE: {
		enum fd_kind k = fd_classify(a->map_fd, &m);

		op_desc("loader bpf_sys_bpf(BPF_MAP_%s_ELEM) fd %d %s flags %#llx",
			cmd == C_UPDATE ? "UPDATE" : "DELETE", a->map_fd, m ? map_str(m->o) : "",
			(unsigned long long)flags);
		if (k != FD_MAP)
			e = EXPECT_FAIL(fd_map_err(k), "not a map");
		else if (lp->vc != VC_UNSIGNED)
			e = EXPECT_FAIL(EPERM, "a verified run writes only what it created");
		else
			e = cmd == C_UPDATE ? predict_update(m, c->bufa, flags) :
			    predict_delete(m, c->bufa);
		if (ret >= 0 && m && m->o->frozen)
			violation("bpf_sys_bpf() wrote a frozen map");
		expect_check(cmd == C_UPDATE ? "loader_map_update" : "loader_map_delete", e, ret);
		if (!ret && cmd == C_UPDATE)
			apply_update(m->o, c->bufa, c->bufb, flags);
		else if (!ret)
			model_delete(m->o, c->bufa);
		break;
	}
	case C_CREATE:
		op_desc("loader bpf_sys_bpf(BPF_MAP_CREATE) type %u k%u v%u n%u flags %#x", a->map_type,
			a->key_size, a->value_size, a->max_entries, a->map_flags);
		e = a->excl_prog_hash_size ? EXPECT_FAIL(EINVAL, "hash size without a hash") :
		    predict_create_small(a->map_type, a->key_size, a->value_size, a->max_entries,
					 a->map_flags, 0);
		expect_check("loader_map_create", e, ret);
		if (ret >= 0) {
			struct mobj *o = mobj_new(mc_type, a->key_size, a->value_size,
						  a->max_entries, mc_flags);

			o->id = obj_id(ret);
			pool_add_map(ret, o, !(mc_flags & BPF_F_WRONLY), !(mc_flags & BPF_F_RDONLY));
		}
		break;
	case C_FREEZE: {
		enum fd_kind k = fd_classify(a->map_fd, &m);

		op_desc("loader bpf_sys_bpf(BPF_MAP_FREEZE) fd %d %s", a->map_fd,
			m ? map_str(m->o) : "");
		e = k != FD_MAP ? EXPECT_FAIL(fd_map_err(k), "not a map") :
		    lp->vc != VC_UNSIGNED ? EXPECT_FAIL(EPERM, "a verified run freezes only what it created") :
		    predict_freeze(m);
		expect_check("loader_map_freeze", e, ret);
		if (!ret)
			m->o->frozen = true;
		break;
	}
	case C_BYID:
		op_desc("loader bpf_sys_bpf(BPF_MAP_GET_FD_BY_ID) %u", a->map_id);
		e = m && a->map_id == m->o->id ? EXPECT_OK("a map we hold") :
		    EXPECT_ESCAPE("a loader's get_fd_by_id of another id");
		expect_check("loader_map_get_fd_by_id", e, ret);
		add_fd_by_id(ret, a->map_id, a->open_flags);
		break;
	case C_LINK: {
		union bpf_iter_link_info *li = (union bpf_iter_link_info *)c->bufb;
		struct pmap *tm;

		fd_classify(li->map.map_fd, &tm);
		op_desc("loader bpf_sys_bpf(BPF_LINK_CREATE) iter len %u on fd %d %s",
			a->link_create.iter_info_len, li->map.map_fd, tm ? map_str(tm->o) : "");
		e = !iter_ok() ? EXPECT_ESCAPE("no iterator skeleton") :
		    lp->vc != VC_UNSIGNED ? EXPECT_FAIL(EPERM, "a verified run binds only what it created") :
		    !a->link_create.iter_info_len ? EXPECT_FAIL(EINVAL, "iter_info without a length") :
		    predict_iter_attach(a->link_create.prog_fd, li->map.map_fd);
		if (ret >= 0 && tm && tm->o->excl)
			violation("bpf_sys_bpf() attached an iterator to an exclusive map");
		expect_check("loader_link_create", e, ret);
		if (ret >= 0)
			pool_add_link(ret, tm ? tm->o : NULL, a->link_create.prog_fd);
		break;
	}
	default:
		op_desc("loader bpf_sys_bpf(%u)", c->cmd);
		expect_check("loader_other_cmd", EXPECT_FAIL(EINVAL, "not for bpf_sys_bpf()"), ret);
	}
}
