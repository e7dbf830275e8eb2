// SPDX-License-Identifier: GPL-2.0
/*
 * A verified loader's children bind only what this run of the loader created
 * (issue 35, part 2).  The loader runs in its caller's process and passes fd
 * numbers of the caller's table; a second thread of the caller that dup2()s
 * its own map or BTF over one of them, or closes it and opens another, makes
 * the number name an object the loader did not create.  progs/bind_loader
 * binds whatever number its context names, which is what such a swap makes
 * a generated loader do, deterministically.  While the run lasts, the maps it
 * created have no other writer.
 */
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <bpf/btf.h>

#include "runner.h"
#include "util.h"
#include "sign.h"
#include "signed.h"
#include "bind_loader.skel.h"
#include "progs/bind_args.h"

/*
 * progs/bind_loader's instructions, loaded signed by key NAME against
 * keyring_id, or unsigned when name is NULL: its fd or -errno
 */
static int load_bind_loader_meta(const char *name, int keyring_id, int meta_fd,
				 const void *meta, size_t meta_sz);

static int load_bind_loader(const char *name, int keyring_id)
{
	return load_bind_loader_meta(name, keyring_id, -1, NULL, 0);
}

/* The same with meta_fd, an exclusive metadata map holding meta, as its
 * fd_array, signed over insns || meta
 */
static int load_bind_loader_meta(const char *name, int keyring_id, int meta_fd,
				 const void *meta, size_t meta_sz)
{
	const size_t sz = offsetofend(union bpf_attr, keyring_id);
	const struct bpf_insn *insns;
	unsigned char *sig = NULL;
	struct bpf_object *obj;
	struct bpf_program *prog;
	const void *elf;
	union bpf_attr attr;
	size_t elf_sz;
	int fd, len = 0, cnt;

	elf = bind_loader__elf_bytes(&elf_sz);
	obj = bpf_object__open_mem(elf, elf_sz, NULL);
	if (!obj)
		return -errno;
	prog = bpf_object__find_program_by_name(obj, "bind_loader");
	if (!prog) {
		bpf_object__close(obj);
		return -ENOENT;
	}
	insns = bpf_program__insns(prog);
	cnt = bpf_program__insn_cnt(prog);
	if (name) {
		size_t isz = cnt * sizeof(*insns);
		unsigned char *payload = malloc(isz + meta_sz);

		if (!payload) {
			bpf_object__close(obj);
			return -ENOMEM;
		}
		memcpy(payload, insns, isz);
		if (meta_sz)
			memcpy(payload + isz, meta, meta_sz);
		len = cms_sign(name, payload, isz + meta_sz, 0, &sig);
		free(payload);
		if (len < 1) {
			bpf_object__close(obj);
			return -EINVAL;
		}
	}
	memset(&attr, 0, sz);
	attr.prog_type = BPF_PROG_TYPE_SYSCALL;
	attr.prog_flags = BPF_F_SLEEPABLE;
	attr.insns = (uintptr_t)insns;
	attr.insn_cnt = cnt;
	attr.license = (uintptr_t)"GPL";
	attr.signature = (uintptr_t)sig;
	attr.signature_size = len;
	attr.keyring_id = name ? keyring_id : 0;
	if (meta_fd >= 0) {
		attr.fd_array = (uintptr_t)&meta_fd;
		attr.fd_array_cnt = 1;
	}
	vlog[0] = 0;
	fd = syscall(__NR_bpf, BPF_PROG_LOAD, &attr, sz);
	if (fd < 0) {
		fd = -errno;
		/* again, for the log's last lines (the whole log is longer) */
		attr.log_buf = (uintptr_t)vlog;
		attr.log_size = sizeof(vlog);
		attr.log_level = 1;
		syscall(__NR_bpf, BPF_PROG_LOAD, &attr, sz);
	}
	free(sig);
	bpf_object__close(obj);
	return fd;
}

static void print_log_tail(void)
{
	size_t n = strlen(vlog);

	printf("#   log: ...%s\n", vlog + (n > 1500 ? n - 1500 : 0));
}

/* Arguments asking for mode, the child's log in vlog */
static void init_args(struct bind_args *a, int mode, int use_fd)
{
	memset(a, 0, sizeof(*a));
	a->mode = mode;
	a->use_fd = use_fd;
	a->map_fd = a->btf_fd = a->child_fd = -1;
	a->log_buf = (uintptr_t)vlog;
	a->log_size = sizeof(vlog);
	vlog[0] = 0;
}

static int run_loader(int prog_fd, struct bind_args *a)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts);

	opts.ctx_in = a;
	opts.ctx_size_in = sizeof(*a);
	if (bpf_prog_test_run_opts(prog_fd, &opts))
		return -errno;
	return opts.retval;
}

static void close_outputs(struct bind_args *a)
{
	if (a->child_fd >= 0)
		close(a->child_fd);
	if (a->map_fd >= 0)
		close(a->map_fd);
	if (a->btf_fd >= 0)
		close(a->btf_fd);
}

/* The child's load failed with EPERM, and its log names the object and the
 * loader (by its program id)
 */
static void expect_child_refused(struct bind_args *a, int loader_fd, const char *what,
				 const char *log)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);
	char msg[160];

	if (!ASSERT_OK(bpf_prog_get_info_by_fd(loader_fd, &info, &len), "loader info"))
		return;
	snprintf(msg, sizeof(msg), "%s is not what verified loader prog %u created under it",
		 log, info.id);
	/* bpf_sys_bpf() returns -errno, and -EPERM is -1: compare, do not
	 * read errno
	 */
	if (ASSERT_EQ(a->child_fd, -EPERM, what))
		ASSERT_HAS(vlog, msg, what);
}

TEST(loader_bind_own_objects)
{
	int loader = load_bind_loader("signing", 0);
	struct bind_args a;

	if (!ASSERT_OK(loader, "signed bind_loader")) {
		print_log_tail();
		return;
	}
	init_args(&a, BIND_CHILD_MAP, -1);
	if (ASSERT_EQ(run_loader(loader, &a), 0, "run")) {
		ASSERT_OK(a.map_fd, "the run creates a map");
		if (!ASSERT_OK(a.child_fd, "its child binds the map the run created"))
			print_log_tail();
	}
	close_outputs(&a);
	close(loader);
}

TEST(loader_bind_foreign_map_refused)
{
	int loader = load_bind_loader("signing", 0), mine, unsigned_loader;
	struct bind_args a;
	char what[64];

	if (!ASSERT_OK(loader, "signed bind_loader"))
		return;
	mine = bpf_map_create(BPF_MAP_TYPE_ARRAY, "callers", 4, 8, 1, NULL);
	if (!ASSERT_OK(mine, "the caller's own map"))
		goto out;
	/* bpf_loader_run_check() in add_used_map(): a map fd the run did not create */
	init_args(&a, BIND_CHILD_MAP, mine);
	if (ASSERT_EQ(run_loader(loader, &a), 0, "run")) {
		snprintf(what, sizeof(what), "map fd %d", mine);
		expect_child_refused(&a, loader, "child bound to the caller's map", what);
	}
	close_outputs(&a);
	/* the rule is the verified run's: an unsigned loader's child loads, and
	 * carries no verified provenance
	 */
	unsigned_loader = load_bind_loader(NULL, 0);
	if (ASSERT_OK(unsigned_loader, "unsigned bind_loader")) {
		init_args(&a, BIND_CHILD_MAP, mine);
		if (ASSERT_EQ(run_loader(unsigned_loader, &a), 0, "run"))
			ASSERT_OK(a.child_fd, "an unsigned loader's child binds any map");
		close_outputs(&a);
		close(unsigned_loader);
	}
	close(mine);
out:
	close(loader);
}

TEST(loader_bind_foreign_btf_refused)
{
	int loader = load_bind_loader("signing", 0), int_id, proto, func;
	struct btf *btf = btf__new_empty();
	const void *raw;
	struct bind_args a;
	char what[64];
	__u32 raw_sz;

	if (!ASSERT_OK(loader, "signed bind_loader") || !ASSERT_TRUE(btf, "btf"))
		goto out;
	int_id = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	proto = btf__add_func_proto(btf, int_id);
	func = btf__add_func(btf, "child", BTF_FUNC_STATIC, proto);
	raw = btf__raw_data(btf, &raw_sz);
	if (!ASSERT_GE(func, 1, "BTF") || !ASSERT_TRUE(raw_sz <= sizeof(a.btf), "BTF size") ||
	    !ASSERT_OK(btf__load_into_kernel(btf), "the caller's own BTF"))
		goto out;
	/* the loader's own BTF: its child loads with it */
	init_args(&a, BIND_CHILD_BTF, -1);
	a.func_info.type_id = func;
	a.btf_size = raw_sz;
	memcpy(a.btf, raw, raw_sz);
	if (ASSERT_EQ(run_loader(loader, &a), 0, "run")) {
		ASSERT_OK(a.btf_fd, "the run loads BTF");
		if (!ASSERT_OK(a.child_fd, "its child takes the run's BTF"))
			print_log_tail();
	}
	close_outputs(&a);
	/* bpf_loader_run_check() in btf_get_by_fd(): prog_btf_fd of the caller's
	 * BTF, against which the kernel would apply the child's CO-RE relocations
	 */
	init_args(&a, BIND_CHILD_BTF, btf__fd(btf));
	a.func_info.type_id = func;
	if (ASSERT_EQ(run_loader(loader, &a), 0, "run")) {
		snprintf(what, sizeof(what), "prog_btf_fd: BTF fd %d", btf__fd(btf));
		expect_child_refused(&a, loader, "child bound to the caller's BTF", what);
	}
	close_outputs(&a);
out:
	btf__free(btf);
	if (loader >= 0)
		close(loader);
}

TEST(loader_bind_update_foreign_map_refused)
{
	int loader = load_bind_loader("signing", 0), mine, zero = 0;
	struct bind_args a;
	__u64 v = 0;

	if (!ASSERT_OK(loader, "signed bind_loader"))
		return;
	mine = bpf_map_create(BPF_MAP_TYPE_ARRAY, "callers", 4, 8, 1, NULL);
	if (!ASSERT_OK(mine, "the caller's own map"))
		goto out;
	/* bpf_loader_run_check() in map_update_elem(): a write to a map the run did
	 * not create, which a swapped-back fd would leave holding zeros
	 */
	init_args(&a, BIND_UPDATE, mine);
	if (ASSERT_EQ(run_loader(loader, &a), 0, "run"))
		ASSERT_EQ(a.child_fd, -EPERM, "the loader's update of the caller's map");
	ASSERT_OK(bpf_map_lookup_elem(mine, &zero, &v), "lookup");
	ASSERT_EQ(v, 0, "the caller's map is unchanged");
	close(mine);
out:
	close(loader);
}

struct racer {
	int fd;			/* the number the run's map will get */
	volatile int stop;
	int seen;		/* attempts that found a map at fd */
	int wrote;		/* updates that succeeded */
	int mapped;		/* writable mmaps that succeeded */
	int other;		/* errors other than EBADF and EPERM */
};

/* A second thread of the caller writing the run's map by its fd number */
static void *race_writer(void *p)
{
	struct racer *r = p;
	__u64 v = 0x4141414141414141ull;
	int zero = 0;
	void *m;

	while (!r->stop) {
		if (!bpf_map_update_elem(r->fd, &zero, &v, 0)) {
			r->seen++;
			r->wrote++;
		} else if (errno != EBADF) {
			r->seen++;
			if (errno != EPERM)
				r->other++;
		}
		m = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, r->fd, 0);
		if (m != MAP_FAILED) {
			r->mapped++;
			munmap(m, 4096);
		}
	}
	return NULL;
}

TEST(loader_bind_map_busy_during_run)
{
	int loader = load_bind_loader("signing", 0), zero = 0, tries;
	struct racer r = {};
	struct bind_args a;
	pthread_t t;
	__u64 v = 0;

	if (!ASSERT_OK(loader, "signed bind_loader"))
		return;
	for (tries = 0; tries < 5 && !r.seen; tries++) {
		init_args(&a, BIND_SLOW_FREEZE, -1);
		a.loads = 64;
		a.log_buf = 0;
		r.fd = dup(0);
		close(r.fd);
		r.stop = 0;
		if (!ASSERT_OK(-pthread_create(&t, NULL, race_writer, &r), "racer"))
			break;
		ASSERT_EQ(run_loader(loader, &a), 0, "run");
		r.stop = 1;
		pthread_join(t, NULL);
		ASSERT_EQ(a.map_fd, r.fd, "the run's map got the predicted fd");
		/* bpf_map_loader_busy(): the loader's freeze finds no writer */
		ASSERT_EQ(a.freeze_err, 0, "the loader freezes its map");
		if (a.map_fd >= 0) {
			ASSERT_OK(bpf_map_lookup_elem(a.map_fd, &zero, &v), "lookup");
			ASSERT_EQ(v, 0x5157, "the map holds what the loader wrote");
		}
		close_outputs(&a);
	}
	ASSERT_TRUE(r.seen > 0, "the racer found the run's map while it ran");
	/* map_get_sys_perms(): no update from the caller's thread, before the
	 * freeze (while the run lasts) or after
	 */
	ASSERT_EQ(r.wrote, 0, "no update of the run's map by another thread");
	/* bpf_map_mmap(): no writable mapping either */
	ASSERT_EQ(r.mapped, 0, "no writable mmap of the run's map");
	ASSERT_EQ(r.other, 0, "refusals are EPERM");
	printf("#   racer: %d attempts found the map in %d runs\n", r.seen, tries);
	close(loader);
}

struct prog_racer {
	int fd;			/* the number the run's map will get */
	volatile int stop;
	int busy;		/* updates refused while the run lasted */
	int refused;		/* programs refused binding the run's map */
	int early;		/* programs that bound it while it was busy */
	int other;		/* refusals other than the run's */
};

/* A second thread of the caller loading its own program that would write
 * the run's map, by its fd number, while the run lasts
 */
static void *prog_writer(void *p)
{
	struct prog_racer *r = p;
	__u64 v = 0;
	int zero = 0;

	while (!r->stop) {
		struct bpf_insn insns[] = {
			LD_MAP(BPF_REG_1, BPF_PSEUDO_MAP_VALUE, r->fd),
			INSN(BPF_ST | BPF_MEM | BPF_DW, BPF_REG_1, 0, 0, 0x41414141),
			MOV64_IMM(BPF_REG_0, 0),
			EXIT_INSN(),
		};
		char log[256] = "";
		LIBBPF_OPTS(bpf_prog_load_opts, o, .prog_flags = BPF_F_SLEEPABLE,
			    .log_buf = log, .log_size = sizeof(log), .log_level = 1);
		int pfd;

		/* BPF_NOEXIST on an array writes nothing: EPERM while the run
		 * has the map, EEXIST after it (no freeze), EBADF before it
		 */
		if (!bpf_map_update_elem(r->fd, &zero, &v, BPF_NOEXIST) || errno != EPERM)
			continue;
		r->busy++;
		pfd = bpf_prog_load(BPF_PROG_TYPE_SYSCALL, "bind_writer", "GPL", insns,
				    ARRAY_LEN(insns), &o);
		if (pfd >= 0) {
			/* busy turns off once: EPERM after the load means it bound
			 * the map while the run still had it
			 */
			if (bpf_map_update_elem(r->fd, &zero, &v, BPF_NOEXIST) && errno == EPERM)
				r->early++;
			close(pfd);
			continue;
		}
		if (errno == EPERM && strstr(log, "belongs to a running verified loader"))
			r->refused++;
		else
			r->other++;
	}
	return NULL;
}

TEST(loader_bind_map_unbound_by_others_during_run)
{
	int loader = load_bind_loader("signing", 0), zero = 0, tries;
	struct prog_racer r = {};
	struct bind_args a;
	pthread_t t;
	__u64 v = 0;

	if (!ASSERT_OK(loader, "signed bind_loader"))
		return;
	for (tries = 0; tries < 5 && !r.refused; tries++) {
		init_args(&a, BIND_SLOW_FREEZE, -1);
		a.loads = 64;
		a.no_freeze = 1;
		a.log_buf = 0;
		r.fd = dup(0);
		close(r.fd);
		r.stop = 0;
		if (!ASSERT_OK(-pthread_create(&t, NULL, prog_writer, &r), "racer"))
			break;
		ASSERT_EQ(run_loader(loader, &a), 0, "run");
		r.stop = 1;
		pthread_join(t, NULL);
		ASSERT_EQ(a.map_fd, r.fd, "the run's map got the predicted fd");
		if (a.map_fd >= 0) {
			ASSERT_OK(bpf_map_lookup_elem(a.map_fd, &zero, &v), "lookup");
			ASSERT_EQ(v, 0x5157, "the map holds what the loader wrote");
		}
		close_outputs(&a);
	}
	/* __add_used_map(): bpf_map_loader_busy() refuses other programs */
	ASSERT_TRUE(r.refused > 0, "a program binding the run's map was refused while it ran");
	ASSERT_EQ(r.early, 0, "no program bound the run's map while it was busy");
	ASSERT_EQ(r.other, 0, "refusals name the running loader");
	printf("#   racer: %d busy updates, %d programs refused in %d runs\n", r.busy,
	       r.refused, tries);
	close(loader);
}

/* The other ways a verified run takes an fd of the caller's: each is the
 * fd-to-object check of the path named
 */
TEST(loader_bind_other_uses_refused)
{
	static const struct {
		int mode;
		const char *what;
	} uses[] = {
		/* add_fd_from_fd_array(): a child's dense fd_array */
		{ BIND_CHILD_FD_ARRAY, "a child's fd_array entry" },
		/* map_freeze(): __bpf_loader_map_get() */
		{ BIND_FREEZE, "BPF_MAP_FREEZE of the caller's map" },
		/* map_delete_elem(): __bpf_loader_map_get() */
		{ BIND_DELETE, "BPF_MAP_DELETE_ELEM of the caller's map" },
		/* bpf_map_meta_alloc(): the inner map template */
		{ BIND_INNER, "the caller's map as inner_map_fd" },
	};
	int loader = load_bind_loader("signing", 0), unsigned_loader, mine, zero = 0;
	struct bind_args a;
	char what[64];
	__u64 v = 1;
	size_t i;

	if (!ASSERT_OK(loader, "signed bind_loader"))
		return;
	mine = bpf_map_create(BPF_MAP_TYPE_ARRAY, "callers", 4, 8, 1, NULL);
	if (!ASSERT_OK(mine, "the caller's own map"))
		goto out;
	for (i = 0; i < ARRAY_LEN(uses); i++) {
		init_args(&a, uses[i].mode, mine);
		if (!ASSERT_EQ(run_loader(loader, &a), 0, uses[i].what))
			continue;
		if (uses[i].mode == BIND_CHILD_FD_ARRAY) {
			snprintf(what, sizeof(what), "map fd %d", mine);
			expect_child_refused(&a, loader, uses[i].what, what);
		} else {
			ASSERT_EQ(a.child_fd, -EPERM, uses[i].what);
		}
		if (a.child_fd >= 0)
			close(a.child_fd);
	}
	ASSERT_OK(bpf_map_update_elem(mine, &zero, &v, 0),
		  "the caller's map is still writable: nothing froze it");
	/* an unsigned loader's run is not bound: it freezes the caller's map */
	unsigned_loader = load_bind_loader(NULL, 0);
	if (ASSERT_OK(unsigned_loader, "unsigned bind_loader")) {
		init_args(&a, BIND_FREEZE, mine);
		if (ASSERT_EQ(run_loader(unsigned_loader, &a), 0, "run"))
			ASSERT_EQ(a.child_fd, 0, "an unsigned loader freezes any map");
		close(unsigned_loader);
	}
	close(mine);
out:
	close(loader);
}

struct run_racer {
	int loader;
	int fd;			/* the number the long run's map will get */
	volatile int stop;
	int busy;		/* runs refused while the other one ran */
	int ok;			/* runs that went through */
	int other;
};

/* A second thread of the caller running the same loader over and over */
static void *second_run(void *p)
{
	struct run_racer *r = p;
	struct bind_args a;
	int ret;

	__u64 v = 0;
	int zero = 0;

	/* until the long run has its map (EPERM while the run has it) */
	while (!r->stop && !(bpf_map_update_elem(r->fd, &zero, &v, BPF_NOEXIST) &&
			     errno == EPERM))
		;
	while (!r->stop) {
		init_args(&a, BIND_UPDATE, -1);	/* updates fd -1: EBADF, nothing else */
		a.log_buf = 0;
		ret = run_loader(r->loader, &a);
		if (ret == -EBUSY)
			r->busy++;
		else if (!ret)
			r->ok++;
		else
			r->other++;
	}
	return NULL;
}

/* bpf_loader_run_claim(): two runs over one blob would each bind the fd
 * numbers the other wrote into it; the second waits (EBUSY)
 */
TEST(loader_bind_one_run_at_a_time)
{
	unsigned char meta[8] = "metadata", digest[32];
	LIBBPF_OPTS(bpf_map_create_opts, mopts);
	struct run_racer r = {};
	const struct bpf_insn *insns;
	struct bpf_program *prog;
	struct bpf_object *obj;
	struct bind_args a;
	const void *elf;
	size_t elf_sz;
	pthread_t t;
	int map, zero = 0;

	/* the loader's digest, for its exclusive metadata map */
	elf = bind_loader__elf_bytes(&elf_sz);
	obj = bpf_object__open_mem(elf, elf_sz, NULL);
	prog = obj ? bpf_object__find_program_by_name(obj, "bind_loader") : NULL;
	if (!ASSERT_TRUE(prog, "bind_loader's instructions"))
		goto out_obj;
	insns = bpf_program__insns(prog);
	prog_digest(insns, bpf_program__insn_cnt(prog), digest);
	mopts.excl_prog_hash = digest;
	mopts.excl_prog_hash_size = 32;
	map = bpf_map_create(BPF_MAP_TYPE_ARRAY, "bind_meta", 4, sizeof(meta), 1, &mopts);
	if (!ASSERT_OK(map, "exclusive metadata map") ||
	    !ASSERT_OK(bpf_map_update_elem(map, &zero, meta, 0), "metadata") ||
	    !ASSERT_OK(bpf_map_freeze(map), "freeze"))
		goto out_obj;
	r.loader = load_bind_loader_meta("signing", 0, map, meta, sizeof(meta));
	if (!ASSERT_OK(r.loader, "signed bind_loader over the metadata map")) {
		print_log_tail();
		goto out_map;
	}
	r.fd = dup(0);
	close(r.fd);
	if (!ASSERT_OK(-pthread_create(&t, NULL, second_run, &r), "second thread"))
		goto out_loader;
	init_args(&a, BIND_SLOW_FREEZE, -1);
	a.loads = 64;
	a.log_buf = 0;
	ASSERT_EQ(run_loader(r.loader, &a), 0, "the first run");
	close_outputs(&a);
	r.stop = 1;
	pthread_join(t, NULL);
	ASSERT_TRUE(r.busy > 0, "a second run was refused while the first ran");
	ASSERT_EQ(r.other, 0, "the second runs fail with EBUSY only");
	/* after it, the loader runs again */
	init_args(&a, BIND_UPDATE, -1);
	ASSERT_EQ(run_loader(r.loader, &a), 0, "a run after the first");
	printf("#   second thread: %d runs refused, %d went through\n", r.busy, r.ok);
out_loader:
	close(r.loader);
out_map:
	close(map);
out_obj:
	bpf_object__close(obj);
}
