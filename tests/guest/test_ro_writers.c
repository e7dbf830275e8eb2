// SPDX-License-Identifier: GPL-2.0
/*
 * No writer of a frozen BPF_F_RDONLY_PROG map (issue 35, part 3): helpers
 * that wrote through an argument the verifier checked as a read, and
 * bpf_sys_bpf() writing back into its attr.  A CAP_BPF + CAP_PERFMON holder
 * (or a token holder) passed such a map's value, whose loads the verifier
 * folds into constants, and changed what programs verified against them
 * run: progs/ro_writers.bpf.c's snprintf_stack is the reproduction that
 * ended in a kernel RIP of the attacker's choosing.  Each program must fail
 * verification; none is run.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/stat.h>

#include "runner.h"
#include "util.h"
#include "ro_writers.skel.h"
#include "iter_link.skel.h"
#include "iter_write.skel.h"
#include "iter_ext.skel.h"
#include "iter_ext_repl.skel.h"

/* Load only program name of ro_writers, expecting the verifier's refusal of
 * a write into .rodata
 */
static void expect_write_refused(const char *name)
{
	struct ro_writers *skel = ro_writers__open();
	struct bpf_program *p, *target;
	int err;

	if (!ASSERT_TRUE(skel, "ro_writers__open"))
		return;
	bpf_object__for_each_program(p, skel->obj)
		bpf_program__set_autoload(p, !strcmp(bpf_program__name(p), name));
	target = bpf_object__find_program_by_name(skel->obj, name);
	if (!ASSERT_TRUE(target, name))
		goto out;
	vlog[0] = 0;
	bpf_program__set_log_buf(target, vlog, sizeof(vlog));
	bpf_program__set_log_level(target, 1);
	err = ro_writers__load(skel);
	if (ASSERT_ERR(err, EACCES, name))
		ASSERT_HAS(vlog, "write into map forbidden", name);
out:
	ro_writers__destroy(skel);
}

/* check_func_arg(): bpf_snprintf()'s buffer is MEM_WRITE (802eef5afb18);
 * the 8-byte copy verified after it never runs as a 24-byte one
 */
TEST(ro_writer_snprintf_stack_overwrite)
{
	expect_write_refused("snprintf_stack");
}

/* bpf_snprintf_btf()'s buffer is MEM_WRITE (802eef5afb18) */
TEST(ro_writer_snprintf_btf)
{
	expect_write_refused("snprintf_btf_ro");
}

/* bpf_d_path()'s buffer is MEM_WRITE (ac44dcc788b9) */
TEST(ro_writer_d_path)
{
	expect_write_refused("d_path_ro");
}

/* bpf_read_branch_records()'s buffer is MEM_WRITE (802eef5afb18) */
TEST(ro_writer_read_branch_records)
{
	expect_write_refused("branch_records_ro");
}

/* bpf_get_stack() of tracing and syscall programs: ARG_PTR_TO_UNINIT_MEM,
 * not MEM_RDONLY (802eef5afb18)
 */
TEST(ro_writer_get_stack)
{
	expect_write_refused("get_stack_ro");
}

/* bpf_fib_lookup()'s params are MEM_WRITE, for XDP and for tc (802eef5afb18) */
TEST(ro_writer_fib_lookup)
{
	expect_write_refused("xdp_fib_ro");
	expect_write_refused("skb_fib_ro");
}

/* bpf_sysctl_get_name()'s buffer is MEM_WRITE (2eb7648558a7) */
TEST(ro_writer_sysctl_get_name)
{
	expect_write_refused("sysctl_name_ro");
}

/* bpf_sys_bpf()'s attr is MEM_WRITE: BPF_BTF_LOAD writes btf_log_true_size
 * back into it
 */
TEST(ro_writer_sys_bpf_attr)
{
	expect_write_refused("sys_bpf_ro");
}

/* An iterator whose helper writes ctx->value: 0039's check now sees the
 * write (rdwr_buf_written) and refuses the BPF_F_RDONLY_PROG map
 */
TEST(ro_writer_iterator_helper)
{
	LIBBPF_OPTS(bpf_map_create_opts, mopts, .map_flags = BPF_F_RDONLY_PROG);
	DECLARE_LIBBPF_OPTS(bpf_iter_attach_opts, opts);
	union bpf_iter_link_info linfo = {};
	struct ro_writers *skel = ro_writers__open();
	struct bpf_program *p;
	struct bpf_link *link;
	__u32 v = 0x5157, zero = 0;
	int map;

	if (!ASSERT_TRUE(skel, "ro_writers__open"))
		return;
	bpf_object__for_each_program(p, skel->obj)
		bpf_program__set_autoload(p, p == skel->progs.snprintf_value);
	if (!ASSERT_OK(ro_writers__load(skel), "the iterator loads"))
		goto out;
	map = bpf_map_create(BPF_MAP_TYPE_ARRAY, "ro", 4, 4, 1, &mopts);
	if (!ASSERT_OK(map, "BPF_F_RDONLY_PROG array") ||
	    !ASSERT_OK(bpf_map_update_elem(map, &zero, &v, 0), "value") ||
	    !ASSERT_OK(bpf_map_freeze(map), "frozen"))
		goto out_map;
	linfo.map.map_fd = map;
	opts.link_info = &linfo;
	opts.link_info_len = sizeof(linfo);
	link = bpf_program__attach_iter(skel->progs.snprintf_value, &opts);
	ASSERT_ERR(link ? 0 : -errno, EACCES, "a helper-writing iterator on a read-only map");
	bpf_link__destroy(link);
	v = 0;
	ASSERT_OK(bpf_map_lookup_elem(map, &zero, &v), "lookup");
	ASSERT_EQ(v, 0x5157, "the value is unchanged");
out_map:
	close(map);
out:
	ro_writers__destroy(skel);
}

/* A frozen BPF_F_RDONLY_PROG array of one u32 holding 42, or a plain one */
static int ro_array(bool rdonly)
{
	LIBBPF_OPTS(bpf_map_create_opts, mopts, .map_flags = rdonly ? BPF_F_RDONLY_PROG : 0);
	__u32 v = 42, zero = 0;
	int map = bpf_map_create(BPF_MAP_TYPE_ARRAY, "ro", 4, 4, 1, &mopts);

	if (map < 0 || bpf_map_update_elem(map, &zero, &v, 0) || (rdonly && bpf_map_freeze(map))) {
		if (map >= 0)
			close(map);
		return -1;
	}
	return map;
}

static struct bpf_link *attach_on(struct bpf_program *prog, int map)
{
	DECLARE_LIBBPF_OPTS(bpf_iter_attach_opts, opts);
	union bpf_iter_link_info linfo = {};

	linfo.map.map_fd = map;
	opts.link_info = &linfo;
	opts.link_info_len = sizeof(linfo);
	return bpf_program__attach_iter(prog, &opts);
}

static void iter_read_all(struct bpf_link *link)
{
	char buf[64];
	int fd = bpf_iter_create(bpf_link__fd(link));

	while (fd >= 0 && read(fd, buf, sizeof(buf)) > 0)
		;
	if (fd >= 0)
		close(fd);
}

/* bpf_iter_link_replace(): a link's new program does no more than the one
 * the attach checked, which a reader swapped for a writer or for one that
 * writes past the value would
 */
TEST(ro_writer_iterator_link_update)
{
	struct iter_link *skel = iter_link__open_and_load();
	struct iter_write *w = iter_write__open_and_load();
	struct bpf_link *link = NULL;
	__u32 v = 0, zero = 0;
	int ro = -1, plain = -1;

	if (!ASSERT_TRUE(skel, "iter_link") || !ASSERT_TRUE(w, "iter_write"))
		goto out;
	ro = ro_array(true);
	plain = ro_array(false);
	if (!ASSERT_OK(ro, "read-only array") || !ASSERT_OK(plain, "plain array"))
		goto out;
	link = attach_on(w->progs.peek, ro);
	if (!ASSERT_TRUE(link, "a reader attaches to the read-only map"))
		goto out;
	ASSERT_ERR(bpf_link__update_program(link, w->progs.rewrite), EACCES,
		   "link update to a writer on a BPF_F_RDONLY_PROG map");
	iter_read_all(link);
	ASSERT_OK(bpf_map_lookup_elem(ro, &zero, &v), "lookup");
	ASSERT_EQ(v, 42, "the read-only value is unchanged");
	bpf_link__destroy(link);
	/* on a writable 4-byte value, a writer of 4 bytes replaces a writer of
	 * 4 bytes, but not one of 4100
	 */
	link = attach_on(w->progs.rewrite, plain);
	if (!ASSERT_TRUE(link, "a writer attaches to the plain map"))
		goto out;
	ASSERT_ERR(bpf_link__update_program(link, skel->progs.rewrite_far), EACCES,
		   "link update to a writer past the value");
	ASSERT_OK(bpf_link__update_program(link, w->progs.peek), "a reader replaces it");
out:
	bpf_link__destroy(link);
	if (ro >= 0)
		close(ro);
	if (plain >= 0)
		close(plain);
	iter_write__destroy(w);
	iter_link__destroy(skel);
}

/* prog_fd_array_get_ptr(): no program that touches an iterator's buffers
 * goes into a prog array, so a reader cannot tail-call a writer
 */
TEST(ro_writer_iterator_tail_call)
{
	struct iter_link *skel = iter_link__open_and_load();
	struct iter_write *w = iter_write__open_and_load();
	struct bpf_link *link = NULL;
	__u32 v = 0, zero = 0;
	int ro = -1, fd;

	if (!ASSERT_TRUE(skel, "iter_link") || !ASSERT_TRUE(w, "iter_write"))
		goto out;
	fd = bpf_program__fd(w->progs.rewrite);
	ASSERT_ERR(bpf_map_update_elem(bpf_map__fd(skel->maps.jmp), &zero, &fd, 0), EACCES,
		   "a writing iterator into a prog array");
	fd = bpf_program__fd(w->progs.peek);
	ASSERT_ERR(bpf_map_update_elem(bpf_map__fd(skel->maps.jmp), &zero, &fd, 0), EACCES,
		   "a reading iterator into a prog array");
	ro = ro_array(true);
	if (!ASSERT_OK(ro, "read-only array"))
		goto out;
	link = attach_on(skel->progs.jumper, ro);
	if (ASSERT_TRUE(link, "the jumper attaches (it touches no buffer)"))
		iter_read_all(link);
	ASSERT_OK(bpf_map_lookup_elem(ro, &zero, &v), "lookup");
	ASSERT_EQ(v, 42, "the read-only value is unchanged");
out:
	bpf_link__destroy(link);
	if (ro >= 0)
		close(ro);
	iter_write__destroy(w);
	iter_link__destroy(skel);
}

/* bpf_check_attach_target(): an extension of an iterator's subprogram
 * would take its context, checked against the map for the iterator only
 */
TEST(ro_writer_iterator_extension)
{
	struct iter_ext *it = iter_ext__open_and_load();
	struct iter_ext_repl *r = NULL;
	struct bpf_link *link = NULL;
	__u32 zero = 0;
	__u64 v = 0;
	int ro = -1, err;

	if (!ASSERT_TRUE(it, "iter_ext"))
		return;
	r = iter_ext_repl__open();
	if (!ASSERT_TRUE(r, "iter_ext_repl__open"))
		goto out;
	bpf_program__set_attach_target(r->progs.repl, bpf_program__fd(it->progs.reader),
				       "bpf_iter_bpf_map_elem");
	vlog[0] = 0;
	bpf_program__set_log_buf(r->progs.repl, vlog, sizeof(vlog));
	bpf_program__set_log_level(r->progs.repl, 1);
	err = iter_ext_repl__load(r);
	if (ASSERT_ERR(err, EINVAL, "an extension of an iterator"))
		ASSERT_HAS(vlog, "Cannot extend iterators", "the extension's log");
	/* the refused extension left the bpf_map_elem target as it was */
	ro = ro_array(true);
	if (!ASSERT_OK(ro, "read-only array"))
		goto out;
	link = attach_on(it->progs.reader, ro);
	if (ASSERT_TRUE(link, "the reader still attaches"))
		iter_read_all(link);
	ASSERT_OK(bpf_map_lookup_elem(ro, &zero, &v), "lookup");
	ASSERT_EQ(v, 42, "the read-only value is unchanged");
out:
	bpf_link__destroy(link);
	if (ro >= 0)
		close(ro);
	iter_ext_repl__destroy(r);
	iter_ext__destroy(it);
}

/* prog_fd_array_get_ptr(): a writable raw tracepoint's buffer was checked
 * for the attached program (bpf_probe_register()); a program that reaches
 * past it does not go into a prog array, from where the attached one would
 * tail-call it (RIP control through bpf_test_finish's stack frame)
 */
TEST(ro_writer_writable_tp_tail_call)
{
	struct bpf_insn callee[] = {
		INSN(BPF_LDX | BPF_MEM | BPF_DW, BPF_REG_2, BPF_REG_1, 0, 0),
		MOV64_IMM(BPF_REG_3, 0x41),
		/* 8 bytes at 4 past the 4-byte buffer */
		INSN(BPF_STX | BPF_MEM | BPF_DW, BPF_REG_2, BPF_REG_3, 4, 0),
		MOV64_IMM(BPF_REG_0, 0),
		EXIT_INSN(),
	};
	int pa, b, zero = 0;

	pa = bpf_map_create(BPF_MAP_TYPE_PROG_ARRAY, "tp_pa", 4, 4, 1, NULL);
	if (!ASSERT_OK(pa, "prog array"))
		return;
	b = load_prog_type(BPF_PROG_TYPE_RAW_TRACEPOINT_WRITABLE, callee, ARRAY_LEN(callee), NULL);
	if (ASSERT_OK(b, "a writable raw tracepoint program writing its buffer")) {
		ASSERT_ERR(bpf_map_update_elem(pa, &zero, &b, 0), EACCES,
			   "it into a prog array");
		close(b);
	}
	close(pa);
}

/* A cgroup of this process for cgroup programs, by name; its fd or -1 */
static int cgroup_of_self(const char *name)
{
	char path[128], pid[32];
	int fd, cg;

	mkdir("/sys/fs/cgroup", 0755);
	if (mount("cgroup2", "/sys/fs/cgroup", "cgroup2", 0, NULL) && errno != EBUSY)
		return -1;
	snprintf(path, sizeof(path), "/sys/fs/cgroup/%s", name);
	if (mkdir(path, 0755) && errno != EEXIST)
		return -1;
	cg = open(path, O_RDONLY | O_DIRECTORY);
	snprintf(path, sizeof(path), "/sys/fs/cgroup/%s/cgroup.procs", name);
	fd = open(path, O_WRONLY);
	snprintf(pid, sizeof(pid), "%d", getpid());
	if (fd < 0 || write(fd, pid, strlen(pid)) < 0) {
		if (fd >= 0)
			close(fd);
		if (cg >= 0)
			close(cg);
		return -1;
	}
	close(fd);
	return cg;
}

/* __cgroup_bpf_replace(): a cgroup link takes only a program verified for
 * its attach type; a UDP6 sendmsg program's msg_src_ip6 stores, in a UDP4
 * sendmsg link, landed on the kernel's ipc.opt pointer
 */
TEST(attach_cgroup_link_update_attach_type)
{
	const struct bpf_insn allow[] = { MOV64_IMM(BPF_REG_0, 1), EXIT_INSN() };
	LIBBPF_OPTS(bpf_prog_load_opts, o4, .expected_attach_type = BPF_CGROUP_UDP4_SENDMSG);
	LIBBPF_OPTS(bpf_prog_load_opts, o6, .expected_attach_type = BPF_CGROUP_UDP6_SENDMSG);
	int cg, p4, p4b, p6, link;

	cg = cgroup_of_self("bpfsign-link");
	if (!ASSERT_OK(cg, "a cgroup"))
		return;
	p4 = load_prog_type(BPF_PROG_TYPE_CGROUP_SOCK_ADDR, allow, ARRAY_LEN(allow), &o4);
	p4b = load_prog_type(BPF_PROG_TYPE_CGROUP_SOCK_ADDR, allow, ARRAY_LEN(allow), &o4);
	p6 = load_prog_type(BPF_PROG_TYPE_CGROUP_SOCK_ADDR, allow, ARRAY_LEN(allow), &o6);
	if (!ASSERT_OK(p4, "udp4 sendmsg") || !ASSERT_OK(p4b, "udp4 sendmsg") ||
	    !ASSERT_OK(p6, "udp6 sendmsg"))
		goto out;
	link = bpf_link_create(p4, cg, BPF_CGROUP_UDP4_SENDMSG, NULL);
	if (!ASSERT_OK(link, "a udp4 sendmsg link"))
		goto out;
	ASSERT_ERR(bpf_link_update(link, p6, NULL), EINVAL, "a udp6 sendmsg program into it");
	ASSERT_OK(bpf_link_update(link, p4b, NULL), "another udp4 sendmsg program into it");
	close(link);
out:
	close(p6);
	close(p4b);
	close(p4);
	close(cg);
}
