// SPDX-License-Identifier: GPL-2.0
/*
 * The programs the fuzzer loads, fixed at start so that maps can be made
 * exclusive to them before they are loaded:
 *
 *   0..15   socket filters reading one byte of 0-3 map values (fd_array
 *           indexes through BPF_PSEUDO_MAP_IDX_VALUE, or the first one by
 *           raw map fd), returning nonce ^ the bytes; run, they show what
 *           the program read
 *   16, 17  loaders (BPF_PROG_TYPE_SYSCALL, sleepable) that copy their
 *           context's attr to the stack, point its pointer fields into the
 *           context and pass it to bpf_sys_bpf(): struct loader_ctx
 *   18      tests/guest/fixture.h, whose payload with fixture_meta(2, ...)
 *           is in the kernel's blacklist
 */
#include <string.h>

#include "fuzz.h"
#include "fixture.h"

#define INSN(c, d, s, o, i) \
	((struct bpf_insn){ .code = (c), .dst_reg = (d), .src_reg = (s), .off = (o), .imm = (i) })
#define MOV64_IMM(d, i)		INSN(BPF_ALU64 | BPF_MOV | BPF_K, d, 0, 0, i)
#define MOV64_REG(d, s)		INSN(BPF_ALU64 | BPF_MOV | BPF_X, d, s, 0, 0)
#define ADD64_IMM(d, i)		INSN(BPF_ALU64 | BPF_ADD | BPF_K, d, 0, 0, i)
#define AND64_IMM(d, i)		INSN(BPF_ALU64 | BPF_AND | BPF_K, d, 0, 0, i)
#define LSH64_IMM(d, i)		INSN(BPF_ALU64 | BPF_LSH | BPF_K, d, 0, 0, i)
#define XOR64_REG(d, s)		INSN(BPF_ALU64 | BPF_XOR | BPF_X, d, s, 0, 0)
#define LDX(sz, d, s, o)	INSN(BPF_LDX | BPF_MEM | (sz), d, s, o, 0)
#define STX(sz, d, s, o)	INSN(BPF_STX | BPF_MEM | (sz), d, s, o, 0)
#define JEQ_IMM(d, i, o)	INSN(BPF_JMP | BPF_JEQ | BPF_K, d, 0, o, i)
#define CALL(f)			INSN(BPF_JMP | BPF_CALL, 0, 0, 0, f)
#define EXIT_INSN()		INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)

struct tmpl tmpls[NTEMPL];

#define CTX(f) ((int)offsetof(struct loader_ctx, f))

/* attr is copied to the stack: helpers take no context pointers */
#define STK(o) (-256 + (o))

static void make_loader(struct tmpl *t, u32 nonce)
{
	struct bpf_insn *p = t->insns;
	int off;

	*p++ = MOV64_REG(BPF_REG_6, BPF_REG_1);
	/* touch the last byte: BPF_PROG_TEST_RUN wants the whole context */
	*p++ = LDX(BPF_B, BPF_REG_0, BPF_REG_6, sizeof(struct loader_ctx) - 1);
	for (off = 0; off < 256; off += 8) {
		*p++ = LDX(BPF_DW, BPF_REG_1, BPF_REG_6, CTX(attr) + off);
		*p++ = STX(BPF_DW, BPF_REG_10, BPF_REG_1, STK(off));
	}
	*p++ = LDX(BPF_W, BPF_REG_7, BPF_REG_6, CTX(patch));
	/* patch & 1: attr + 8 = &ctx->bufa (insns, key) */
	*p++ = MOV64_REG(BPF_REG_2, BPF_REG_7);
	*p++ = AND64_IMM(BPF_REG_2, 1);
	*p++ = JEQ_IMM(BPF_REG_2, 0, 3);
	*p++ = MOV64_REG(BPF_REG_3, BPF_REG_6);
	*p++ = ADD64_IMM(BPF_REG_3, CTX(bufa));
	*p++ = STX(BPF_DW, BPF_REG_10, BPF_REG_3, STK(8));
	/* patch & 2: attr + 16 = &ctx->bufb (license, value, iter_info) */
	*p++ = MOV64_REG(BPF_REG_2, BPF_REG_7);
	*p++ = AND64_IMM(BPF_REG_2, 2);
	*p++ = JEQ_IMM(BPF_REG_2, 0, 3);
	*p++ = MOV64_REG(BPF_REG_3, BPF_REG_6);
	*p++ = ADD64_IMM(BPF_REG_3, CTX(bufb));
	*p++ = STX(BPF_DW, BPF_REG_10, BPF_REG_3, STK(16));
	/* patch & 4: at most 7 instructions from bufa, for BPF_PROG_LOAD */
	*p++ = MOV64_REG(BPF_REG_2, BPF_REG_7);
	*p++ = AND64_IMM(BPF_REG_2, 4);
	*p++ = JEQ_IMM(BPF_REG_2, 0, 3);
	*p++ = LDX(BPF_W, BPF_REG_3, BPF_REG_10, STK(4));
	*p++ = AND64_IMM(BPF_REG_3, 7);
	*p++ = STX(BPF_W, BPF_REG_10, BPF_REG_3, STK(4));
	*p++ = LDX(BPF_W, BPF_REG_1, BPF_REG_6, CTX(cmd));
	*p++ = MOV64_REG(BPF_REG_2, BPF_REG_10);
	*p++ = ADD64_IMM(BPF_REG_2, STK(0));
	*p++ = LDX(BPF_W, BPF_REG_3, BPF_REG_6, CTX(size));
	*p++ = AND64_IMM(BPF_REG_3, 255);
	*p++ = ADD64_IMM(BPF_REG_3, 1);
	*p++ = CALL(BPF_FUNC_sys_bpf);
	*p++ = STX(BPF_W, BPF_REG_6, BPF_REG_0, CTX(ret));
	*p++ = MOV64_IMM(BPF_REG_0, nonce);
	*p++ = EXIT_INSN();
	t->cnt = p - t->insns;
	t->prog_type = BPF_PROG_TYPE_SYSCALL;
	t->prog_flags = BPF_F_SLEEPABLE;
	t->nonce = nonce;
}

static void make_filter(struct tmpl *t, int i)
{
	struct bpf_insn *p = t->insns;
	int j, idx = 0;

	t->nref = i & 3;
	t->raw0 = (i >> 3) & 1 && t->nref;
	t->nonce = 0x5000 + i;
	t->width = 1;
	t->prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	*p++ = MOV64_IMM(BPF_REG_6, 0);
	for (j = 0; j < t->nref; j++) {
		bool raw = t->raw0 && !j;

		/* the last reference reads byte 3: one-byte values fail to verify */
		t->off[j] = (i >> 2) & 1 && j == t->nref - 1 ? 3 : 0;
		*p++ = INSN(BPF_LD | BPF_DW | BPF_IMM, BPF_REG_1,
			    raw ? BPF_PSEUDO_MAP_VALUE : BPF_PSEUDO_MAP_IDX_VALUE, 0,
			    raw ? 0 : idx++);
		*p++ = INSN(0, 0, 0, 0, t->off[j]);
		*p++ = LDX(BPF_B, BPF_REG_2, BPF_REG_1, 0);
		*p++ = LSH64_IMM(BPF_REG_2, 8 * j);
		*p++ = XOR64_REG(BPF_REG_6, BPF_REG_2);
	}
	*p++ = MOV64_IMM(BPF_REG_0, t->nonce);
	*p++ = XOR64_REG(BPF_REG_0, BPF_REG_6);
	*p++ = EXIT_INSN();
	t->cnt = p - t->insns;
}

void templates_init(void)
{
	const struct bpf_insn fixture[] = FIXTURE_INSNS;
	int i;

	for (i = 0; i < NT_FILTER; i++)
		make_filter(&tmpls[i], i);
	make_loader(&tmpls[T_LOADER0], 0);
	make_loader(&tmpls[T_LOADER1], 1);
	memcpy(tmpls[T_FIXTURE].insns, fixture, sizeof(fixture));
	tmpls[T_FIXTURE].cnt = ARRAY_SIZE(fixture);
	tmpls[T_FIXTURE].prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	tmpls[T_FIXTURE].nref = 1;
	tmpls[T_FIXTURE].width = 4;
	for (i = 0; i < NTEMPL; i++)
		prog_digest(tmpls[i].insns, tmpls[i].cnt, tmpls[i].digest);
}

bool tmpl_is_loader(int t)
{
	return t == T_LOADER0 || t == T_LOADER1;
}

int tmpl_ref_idx(int t, int j)
{
	if (tmpls[t].raw0)
		return j ? j - 1 : -1;
	return j;
}

int tmpl_insns(int t, int raw_fd, struct bpf_insn *out)
{
	memcpy(out, tmpls[t].insns, tmpls[t].cnt * sizeof(*out));
	if (tmpls[t].raw0)
		out[1].imm = raw_fd;	/* insn 0 is r6 = 0 */
	return tmpls[t].cnt;
}

u32 tmpl_retval(int t, const u32 *reads)
{
	u32 r = tmpls[t].nonce;
	int j;

	if (t == T_FIXTURE)
		return reads[0];
	for (j = 0; j < tmpls[t].nref; j++)
		r ^= reads[j] << (8 * j);
	return r;
}
