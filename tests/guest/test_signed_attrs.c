// SPDX-License-Identifier: GPL-2.0
/*
 * Load attributes that would rewrite or annotate a signed program after its
 * signature is checked (issue 35, part 1): a local root, CAP_BPF holder or
 * token holder takes a shipped signature and adds its own CO-RE relocations,
 * BTF or test flags.  Each is refused with EACCES and a log line naming it;
 * the same attributes on the unsigned program do what the attacker wants,
 * which shows the refusal is what stops them.
 */
#include <stdlib.h>
#include <unistd.h>
#include <bpf/btf.h>

#include "runner.h"
#include "util.h"
#include "signed.h"

/* The attacker's additions to a signed "r0 = 0; exit" */
struct extra {
	struct btf *btf;
	struct bpf_func_info func;
	struct bpf_line_info line;
	struct bpf_core_relo relo;
};

/*
 * BTF with the program's function and a local enum bpf_map_type whose
 * BPF_MAP_TYPE_ARRAY is 0: an ENUMVAL_VALUE relocation of "r0 = 0" to it
 * makes the kernel patch in the target's value, 2.
 */
static bool make_extra(struct extra *x)
{
	int int_id, proto, func, en, acc, file;

	memset(x, 0, sizeof(*x));
	x->btf = btf__new_empty();
	if (!ASSERT_TRUE(x->btf, "btf__new_empty"))
		return false;
	int_id = btf__add_int(x->btf, "int", 4, BTF_INT_SIGNED);
	proto = btf__add_func_proto(x->btf, int_id);
	func = btf__add_func(x->btf, "prog", BTF_FUNC_STATIC, proto);
	en = btf__add_enum(x->btf, "bpf_map_type", 4);
	btf__add_enum_value(x->btf, "BPF_MAP_TYPE_ARRAY", 0);
	acc = btf__add_str(x->btf, "0");
	file = btf__add_str(x->btf, "prog.c");
	if (!ASSERT_GE(acc, 1, "BTF built") || !ASSERT_GE(file, 1, "BTF built") ||
	    !ASSERT_OK(btf__load_into_kernel(x->btf), "BTF loaded"))
		return false;
	x->func.insn_off = 0;
	x->func.type_id = func;
	x->line.file_name_off = file;
	x->line.line_off = file;
	x->relo.insn_off = 0;
	x->relo.type_id = en;
	x->relo.access_str_off = acc;
	x->relo.kind = BPF_CORE_ENUMVAL_VALUE;
	return true;
}

enum add {
	ADD_CORE = 1,
	ADD_FUNC = 2,
	ADD_LINE = 4,
	ADD_BTF = 8,
	ADD_RND_HI32 = 16,
};

struct additions {
	struct extra *x;
	int add;
};

/* sys_prog_load_with()'s more(): the attacker's additions */
static void set_additions(union bpf_attr *attr, void *arg)
{
	const struct additions *a = arg;
	struct extra *x = a->x;

	if (a->add & (ADD_BTF | ADD_FUNC | ADD_LINE | ADD_CORE))
		attr->prog_btf_fd = btf__fd(x->btf);
	if (a->add & (ADD_FUNC | ADD_CORE)) {
		attr->func_info = (uintptr_t)&x->func;
		attr->func_info_cnt = 1;
		attr->func_info_rec_size = sizeof(x->func);
	}
	if (a->add & ADD_LINE) {
		attr->line_info = (uintptr_t)&x->line;
		attr->line_info_cnt = 1;
		attr->line_info_rec_size = sizeof(x->line);
	}
	if (a->add & ADD_CORE) {
		attr->core_relos = (uintptr_t)&x->relo;
		attr->core_relo_cnt = 1;
		attr->core_relo_rec_size = sizeof(x->relo);
	}
	if (a->add & ADD_RND_HI32)
		attr->prog_flags = BPF_F_TEST_RND_HI32;
}

/* BPF_PROG_LOAD of l (signed or not) with the attacker's additions */
static int load_with(struct load *l, struct extra *x, int add)
{
	struct additions a = { x, add };

	return sys_prog_load_with(l, set_additions, &a);
}

static int run_retval(int fd)
{
	LIBBPF_OPTS(bpf_test_run_opts, run);
	char pkt[64] = {};

	run.data_in = pkt;
	run.data_size_in = sizeof(pkt);
	if (bpf_prog_test_run_opts(fd, &run))
		return -errno;
	return run.retval;
}

/* The signed load with add is refused with EACCES, naming what, and leaves
 * nothing behind
 */
static void expect_refused(struct load *l, struct extra *x, int add, const char *what)
{
	__u32 progs = last_id(bpf_prog_get_next_id), maps = last_id(bpf_map_get_next_id);
	char msg[128];
	int fd = load_with(l, x, add);

	snprintf(msg, sizeof(msg), "signed program cannot take %s", what);
	if (fd >= 0)
		close(fd);
	if (ASSERT_ERR(fd, EACCES, what))
		ASSERT_HAS(vlog, msg, what);
	ASSERT_EQ(last_id(bpf_prog_get_next_id), progs, "no program left behind");
	ASSERT_EQ(last_id(bpf_map_get_next_id), maps, "no map left behind");
}

TEST(signed_attrs_core_relo_refused)
{
	const struct bpf_insn ret0[] = { MOV64_IMM(BPF_REG_0, 0), EXIT_INSN() };
	struct extra x;
	struct load l;
	int fd;

	if (!make_extra(&x))
		goto out_btf;
	if (!make_load_insns(&l, ret0, ARRAY_LEN(ret0), 0, "signing", BUILTIN))
		goto out;
	/* the honest signed load returns 0 */
	fd = load_with(&l, &x, 0);
	if (ASSERT_OK(fd, "signed r0 = 0; exit")) {
		ASSERT_EQ(run_retval(fd), 0, "signed program returns its signed 0");
		close(fd);
	}
	/* check_signed_load_attrs(): CO-RE relocations rewrite signed insns */
	expect_refused(&l, &x, ADD_CORE, "CO-RE relocations (core_relos)");
	/* the relocation is real: unsigned, the same load returns the target's 2 */
	drop_signature(&l);
	l.keyring_id = 0;
	fd = load_with(&l, &x, ADD_CORE);
	if (ASSERT_OK(fd, "unsigned load with the relocation")) {
		ASSERT_EQ(run_retval(fd), 2, "the relocation rewrote r0 = 0");
		close(fd);
	} else {
		printf("#   log: %.300s\n", vlog);
	}
out:
	free_load(&l);
out_btf:
	btf__free(x.btf);
}

TEST(signed_attrs_btf_refused)
{
	const struct bpf_insn ret0[] = { MOV64_IMM(BPF_REG_0, 0), EXIT_INSN() };
	struct extra x;
	struct load l;
	int fd;

	if (!make_extra(&x))
		goto out_btf;
	if (!make_load_insns(&l, ret0, ARRAY_LEN(ret0), 0, "signing", BUILTIN))
		goto out;
	/* check_signed_load_attrs(): func_info is unsigned BTF for the verifier */
	expect_refused(&l, &x, ADD_FUNC, "func_info");
	/* check_signed_load_attrs(): line_info, with its func_info */
	expect_refused(&l, &x, ADD_FUNC | ADD_LINE, "func_info");
	/* check_signed_load_attrs(): line_info alone */
	expect_refused(&l, &x, ADD_LINE, "line_info");
	/* check_signed_load_attrs(): a BTF fd with nothing that uses it */
	expect_refused(&l, &x, ADD_BTF, "BTF (prog_btf_fd)");
	/* check_signed_load_attrs(): random upper halves inserted by the verifier */
	expect_refused(&l, &x, ADD_RND_HI32, "BPF_F_TEST_RND_HI32");
	/* unsigned, the same attributes load */
	drop_signature(&l);
	l.keyring_id = 0;
	fd = load_with(&l, &x, ADD_FUNC | ADD_LINE);
	if (ASSERT_OK(fd, "unsigned load with func_info and line_info"))
		close(fd);
	else
		printf("#   log: %.300s\n", vlog);
out:
	free_load(&l);
out_btf:
	btf__free(x.btf);
}
