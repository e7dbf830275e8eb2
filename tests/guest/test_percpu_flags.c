// SPDX-License-Identifier: GPL-2.0
/* BPF_F_CPU and BPF_F_ALL_CPUS for percpu maps (global percpu data's
 * prerequisite): one CPU's value in and out, element by element and in
 * batches, for percpu_array, the percpu hash maps and cgroup storage.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "runner.h"
#include "util.h"
#include "basic.skel.h"

#define CPU(c) (BPF_F_CPU | (__u64)(c) << 32)

TEST(percpu_cpu_flags)
{
	int n = libbpf_num_possible_cpus(), fd, c;
	__u64 v, *all = calloc(n, sizeof(*all));
	__u32 key = 0;

	fd = bpf_map_create(BPF_MAP_TYPE_PERCPU_ARRAY, "pcpu", 4, 8, 1, NULL);
	if (!ASSERT_OK(fd, "percpu_array") || !ASSERT_GE(n, 2, "the guest has 2 CPUs"))
		goto out;

	v = 7;
	ASSERT_OK(bpf_map_update_elem(fd, &key, &v, BPF_F_ALL_CPUS), "update all CPUs");
	ASSERT_OK(bpf_map_lookup_elem(fd, &key, all), "classic lookup of every CPU");
	for (c = 0; c < n; c++)
		ASSERT_EQ(all[c], 7, "BPF_F_ALL_CPUS reached every CPU");

	v = 100;
	ASSERT_OK(bpf_map_update_elem(fd, &key, &v, CPU(1)), "update CPU 1 only");
	ASSERT_OK(bpf_map_lookup_elem_flags(fd, &key, &v, CPU(1)), "lookup CPU 1");
	ASSERT_EQ(v, 100, "CPU 1's value");
	ASSERT_OK(bpf_map_lookup_elem_flags(fd, &key, &v, CPU(0)), "lookup CPU 0");
	ASSERT_EQ(v, 7, "CPU 0 untouched");
out:
	free(all);
	if (fd >= 0)
		close(fd);
}

TEST(percpu_cpu_flags_refused)
{
	int n = libbpf_num_possible_cpus();
	int fd = bpf_map_create(BPF_MAP_TYPE_PERCPU_ARRAY, "pcpu", 4, 8, 1, NULL);
	int plain = array_map(8, 1, NULL);
	__u32 key = 0;
	__u64 v = 1;

	/* both at once: one CPU or all of them */
	ASSERT_ERR(bpf_map_update_elem(fd, &key, &v, CPU(0) | BPF_F_ALL_CPUS), EINVAL,
		   "BPF_F_CPU | BPF_F_ALL_CPUS");
	/* a lookup has no "all CPUs" single value */
	ASSERT_ERR(bpf_map_lookup_elem_flags(fd, &key, &v, BPF_F_ALL_CPUS), EINVAL,
		   "BPF_F_ALL_CPUS on lookup");
	/* the CPU number is only meaningful with BPF_F_CPU */
	ASSERT_ERR(bpf_map_lookup_elem_flags(fd, &key, &v, (__u64)1 << 32), EINVAL,
		   "CPU number without BPF_F_CPU");
	/* the range check, with otherwise valid flags */
	ASSERT_ERR(bpf_map_lookup_elem_flags(fd, &key, &v, CPU(n)), ERANGE,
		   "CPU beyond the possible CPUs");
	/* not a percpu map */
	ASSERT_ERR(bpf_map_update_elem(plain, &key, &v, CPU(0)), EINVAL,
		   "BPF_F_CPU on an array map");
	close(fd);
	close(plain);
}

/* libbpf's bpf_map__*() check one CPU's value size with the flags */
TEST(percpu_cpu_flags_libbpf)
{
	struct basic *skel = basic__open_and_load();
	__u32 key = 0, v4[2];
	__u64 v = 5;

	if (!ASSERT_TRUE(skel, "basic__open_and_load"))
		return;
	ASSERT_OK(bpf_map__update_elem(skel->maps.pcpu, &key, sizeof(key), &v, sizeof(v),
				       BPF_F_ALL_CPUS), "bpf_map__update_elem, one value, all CPUs");
	v = 0;
	ASSERT_OK(bpf_map__lookup_elem(skel->maps.pcpu, &key, sizeof(key), &v, sizeof(v),
				       CPU(1)), "bpf_map__lookup_elem, CPU 1");
	ASSERT_EQ(v, 5, "CPU 1 has the value");
	/* without the flags, a single value is the wrong size */
	ASSERT_ERR(bpf_map__lookup_elem(skel->maps.pcpu, &key, sizeof(key), &v, sizeof(v), 0),
		   EINVAL, "one value without BPF_F_CPU");

	/* one CPU's value is value_size bytes, not rounded up to 8 */
	v4[0] = 9;
	ASSERT_OK(bpf_map__update_elem(skel->maps.pcpu4, &key, sizeof(key), v4, 4,
				       BPF_F_ALL_CPUS), "bpf_map__update_elem, 4 bytes, all CPUs");
	v4[0] = 0;
	v4[1] = 0x5a5a5a5a;
	ASSERT_OK(bpf_map__lookup_elem(skel->maps.pcpu4, &key, sizeof(key), v4, 4, CPU(1)),
		  "bpf_map__lookup_elem, 4 bytes, CPU 1");
	ASSERT_EQ(v4[0], 9, "CPU 1 has the value");
	ASSERT_EQ(v4[1], 0x5a5a5a5a, "nothing written past value_size");
	/* validate_map_op(): the rounded size is not one CPU's value */
	ASSERT_ERR(bpf_map__lookup_elem(skel->maps.pcpu4, &key, sizeof(key), v4, 8, CPU(1)),
		   EINVAL, "8 bytes for a 4-byte value with BPF_F_CPU");
	basic__destroy(skel);
}

/* percpu_hash and lru_percpu_hash: the CPU flags next to the element flags */
static void hash_cpu_flags(enum bpf_map_type type, const char *name)
{
	int n = libbpf_num_possible_cpus(), fd, c;
	__u64 v, *all = calloc(n, sizeof(*all));
	__u32 key = 1, missing = 2;

	fd = bpf_map_create(type, name, 4, 8, 8, NULL);
	if (!ASSERT_OK(fd, name) || !ASSERT_GE(n, 2, "the guest has 2 CPUs"))
		goto out;

	v = 5;
	ASSERT_OK(bpf_map_update_elem(fd, &key, &v, BPF_NOEXIST | CPU(1)),
		  "new element for CPU 1");
	ASSERT_OK(bpf_map_lookup_elem(fd, &key, all), "classic lookup");
	ASSERT_EQ(all[1], 5, "CPU 1 has the value");
	ASSERT_EQ(all[0], 0, "the other CPUs start at zero");

	v = 7;
	ASSERT_OK(bpf_map_update_elem(fd, &key, &v, BPF_EXIST | BPF_F_ALL_CPUS),
		  "one value for all CPUs");
	ASSERT_OK(bpf_map_lookup_elem(fd, &key, all), "classic lookup");
	for (c = 0; c < n; c++)
		ASSERT_EQ(all[c], 7, "BPF_F_ALL_CPUS reached every CPU");

	v = 9;
	ASSERT_OK(bpf_map_update_elem(fd, &key, &v, CPU(0)), "update CPU 0 only");
	ASSERT_OK(bpf_map_lookup_elem_flags(fd, &key, &v, CPU(0)), "lookup CPU 0");
	ASSERT_EQ(v, 9, "CPU 0's value");
	ASSERT_OK(bpf_map_lookup_elem_flags(fd, &key, &v, CPU(1)), "lookup CPU 1");
	ASSERT_EQ(v, 7, "CPU 1 untouched");

	/* check_flags(): BPF_NOEXIST still holds with a CPU flag */
	ASSERT_ERR(bpf_map_update_elem(fd, &key, &v, BPF_NOEXIST | CPU(0)), EEXIST,
		   "BPF_NOEXIST on an existing element");
	/* check_flags(): BPF_EXIST still holds with BPF_F_ALL_CPUS */
	ASSERT_ERR(bpf_map_update_elem(fd, &missing, &v, BPF_EXIST | BPF_F_ALL_CPUS), ENOENT,
		   "BPF_EXIST on a missing element");
	/* bpf_map_check_cpu_flags(): range of the CPU number */
	ASSERT_ERR(bpf_map_update_elem(fd, &key, &v, CPU(n)), ERANGE,
		   "CPU beyond the possible CPUs");
	/* bpf_map_check_cpu_flags(): a lookup has no single value for all CPUs */
	ASSERT_ERR(bpf_map_lookup_elem_flags(fd, &key, &v, BPF_F_ALL_CPUS), EINVAL,
		   "BPF_F_ALL_CPUS on lookup");
	ASSERT_ERR(bpf_map_lookup_elem_flags(fd, &missing, &v, CPU(0)), ENOENT,
		   "lookup of a missing element");
out:
	free(all);
	if (fd >= 0)
		close(fd);
}

TEST(percpu_hash_cpu_flags)
{
	hash_cpu_flags(BPF_MAP_TYPE_PERCPU_HASH, "percpu_hash");
	hash_cpu_flags(BPF_MAP_TYPE_LRU_PERCPU_HASH, "lru_percpu_hash");
}

/* batches: one value per element, of one CPU or for all of them */
static void batch_cpu_flags(enum bpf_map_type type, const char *name)
{
	__u32 keys[2] = { 0, 1 }, out_keys[2], count = 2, batch;
	__u64 vals[2] = { 11, 22 }, out[2];
	LIBBPF_OPTS(bpf_map_batch_opts, all_cpus, .elem_flags = BPF_F_ALL_CPUS);
	LIBBPF_OPTS(bpf_map_batch_opts, cpu1, .elem_flags = CPU(1));
	int fd = bpf_map_create(type, name, 4, 8, 2, NULL), i, err;

	if (!ASSERT_OK(fd, name))
		return;
	ASSERT_OK(bpf_map_update_batch(fd, keys, vals, &count, &all_cpus),
		  "update batch, all CPUs");
	ASSERT_EQ(count, 2, "both elements written");

	count = 2;
	memset(out, 0, sizeof(out));
	err = bpf_map_lookup_batch(fd, NULL, &batch, out_keys, out, &count, &cpu1);
	/* ENOENT: the batch reached the end of the map */
	ASSERT_TRUE(!err || errno == ENOENT, "lookup batch, CPU 1");
	ASSERT_EQ(count, 2, "both elements read");
	for (i = 0; i < 2; i++)
		ASSERT_EQ(out[i], out_keys[i] == 0 ? 11 : 22, "CPU 1's value of each element");

	/* bpf_map_do_batch(): a lookup has no single value for all CPUs */
	count = 2;
	ASSERT_ERR(bpf_map_lookup_batch(fd, NULL, &batch, out_keys, out, &count, &all_cpus),
		   EINVAL, "lookup batch with BPF_F_ALL_CPUS");
	close(fd);
}

TEST(percpu_cpu_flags_batch)
{
	LIBBPF_OPTS(bpf_map_batch_opts, cpu0, .elem_flags = CPU(0));
	__u32 key = 0, count = 1;
	__u64 v = 1;
	int plain;

	batch_cpu_flags(BPF_MAP_TYPE_PERCPU_ARRAY, "percpu_array");
	batch_cpu_flags(BPF_MAP_TYPE_PERCPU_HASH, "percpu_hash");
	batch_cpu_flags(BPF_MAP_TYPE_LRU_PERCPU_HASH, "lru_percpu_hash");

	/* bpf_map_do_batch(): the flags are for percpu maps only */
	plain = array_map(8, 1, NULL);
	if (ASSERT_OK(plain, "array"))
		ASSERT_ERR(bpf_map_update_batch(plain, &key, &v, &count, &cpu0), EINVAL,
			   "BPF_F_CPU batch on an array map");
	close(plain);
}

/*
 * A cgroup storage exists once a program using it is attached to a cgroup:
 * attach a socket-create program using map fd to a new cgroup; the
 * storage's key goes to *key.
 */
static int cgroup_storage(int fd, int *prog, int *cg, struct bpf_cgroup_storage_key *key)
{
	LIBBPF_OPTS(bpf_prog_load_opts, opts,
		.expected_attach_type = BPF_CGROUP_INET_SOCK_CREATE);
	struct bpf_insn insns[] = {
		LD_MAP(BPF_REG_1, BPF_PSEUDO_MAP_FD, fd),
		MOV64_IMM(BPF_REG_2, 0),
		INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_get_local_storage),
		MOV64_IMM(BPF_REG_0, 1),
		EXIT_INSN(),
	};
	struct stat st;

	if (mount("cgroup2", "/sys/fs/cgroup", "cgroup2", 0, NULL) && errno != EBUSY)
		return -1;
	if (mkdir("/sys/fs/cgroup/percpu_flags", 0755) && errno != EEXIST)
		return -1;
	*cg = open("/sys/fs/cgroup/percpu_flags", O_RDONLY | O_DIRECTORY);
	*prog = bpf_prog_load(BPF_PROG_TYPE_CGROUP_SOCK, "cg", "GPL", insns,
			      ARRAY_LEN(insns), &opts);
	if (*cg < 0 || *prog < 0 || fstat(*cg, &st) ||
	    bpf_prog_attach(*prog, *cg, BPF_CGROUP_INET_SOCK_CREATE, 0))
		return -1;
	/* on 64-bit, a cgroup's id is its kernfs inode number */
	key->cgroup_inode_id = st.st_ino;
	key->attach_type = BPF_CGROUP_INET_SOCK_CREATE;
	return 0;
}

TEST(percpu_cgroup_storage_cpu_flags)
{
	int n = libbpf_num_possible_cpus(), prog = -1, cg = -1, fd, c;
	struct bpf_cgroup_storage_key key = {};
	__u64 v, *all = calloc(n, sizeof(*all));

	fd = bpf_map_create(BPF_MAP_TYPE_PERCPU_CGROUP_STORAGE, "cg_storage", sizeof(key), 8, 0,
			    NULL);
	if (!ASSERT_OK(fd, "percpu_cgroup_storage") ||
	    !ASSERT_OK(cgroup_storage(fd, &prog, &cg, &key), "storage of an attached program"))
		goto out;

	v = 3;
	ASSERT_OK(bpf_map_update_elem(fd, &key, &v, BPF_F_ALL_CPUS), "one value, all CPUs");
	ASSERT_OK(bpf_map_lookup_elem(fd, &key, all), "classic lookup");
	for (c = 0; c < n; c++)
		ASSERT_EQ(all[c], 3, "BPF_F_ALL_CPUS reached every CPU");
	v = 4;
	ASSERT_OK(bpf_map_update_elem(fd, &key, &v, BPF_EXIST | CPU(1)), "update CPU 1 only");
	ASSERT_OK(bpf_map_lookup_elem_flags(fd, &key, &v, CPU(1)), "lookup CPU 1");
	ASSERT_EQ(v, 4, "CPU 1's value");
	ASSERT_OK(bpf_map_lookup_elem_flags(fd, &key, &v, CPU(0)), "lookup CPU 0");
	ASSERT_EQ(v, 3, "CPU 0 untouched");
	/* bpf_percpu_cgroup_storage_update(): storages are never created by user space */
	ASSERT_ERR(bpf_map_update_elem(fd, &key, &v, BPF_NOEXIST | CPU(0)), EINVAL,
		   "BPF_NOEXIST with a CPU flag");
	/* bpf_map_check_cpu_flags(): range of the CPU number */
	ASSERT_ERR(bpf_map_lookup_elem_flags(fd, &key, &v, CPU(n)), ERANGE,
		   "CPU beyond the possible CPUs");
out:
	if (prog >= 0 && cg >= 0)
		bpf_prog_detach2(prog, cg, BPF_CGROUP_INET_SOCK_CREATE);
	if (prog >= 0)
		close(prog);
	if (cg >= 0)
		close(cg);
	if (fd >= 0)
		close(fd);
	rmdir("/sys/fs/cgroup/percpu_flags");
	free(all);
}

/*
 * One CPU's value is exactly value_size bytes (upstream's copy_map_value()),
 * in and out: a lookup into a buffer of value_size bytes leaves the bytes
 * after it alone, and an update from a value that ends at a page boundary
 * (the next page unmapped) does not fault.
 */
#define GUARD_BYTE 0xa5

struct edge_buf {
	unsigned char *page;	/* two pages, the second one PROT_NONE */
	long psz;
};

static int edge_buf_init(struct edge_buf *b)
{
	b->psz = sysconf(_SC_PAGESIZE);
	b->page = mmap(NULL, 2 * b->psz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);
	if (b->page == MAP_FAILED)
		return -1;
	return mprotect(b->page + b->psz, b->psz, PROT_NONE);
}

/* a value of size bytes that ends where the readable page ends */
static void *edge_value(struct edge_buf *b, __u32 size, unsigned char fill)
{
	unsigned char *v = b->page + b->psz - size;

	memset(v, fill, size);
	return v;
}

static bool untouched(const unsigned char *p, size_t n)
{
	while (n--)
		if (*p++ != GUARD_BYTE)
			return false;
	return true;
}

/* update from the page edge, then look up into a guarded buffer */
static void one_cpu_exact(int fd, const void *key, __u32 vs, __u64 upd_flags, const char *what)
{
	unsigned char buf[64 + 16];
	struct edge_buf b;
	void *v;

	if (!ASSERT_OK(edge_buf_init(&b), "page with a PROT_NONE neighbour"))
		return;
	v = edge_value(&b, vs, 0x11);
	/* map_update_elem(): copies value_size bytes, the next page is unmapped */
	if (ASSERT_OK(bpf_map_update_elem(fd, key, v, upd_flags), what)) {
		memset(buf, GUARD_BYTE, sizeof(buf));
		ASSERT_OK(bpf_map_lookup_elem_flags(fd, key, buf, CPU(1)), what);
		ASSERT_EQ(buf[0], 0x11, "CPU 1's value read back");
		ASSERT_EQ(buf[vs - 1], 0x11, "the value's last byte");
		/* map_lookup_elem(): nothing written past value_size */
		ASSERT_TRUE(untouched(buf + vs, sizeof(buf) - vs), "bytes after the value untouched");
		/* the same lookup straight into the page edge: no EFAULT */
		v = edge_value(&b, vs, GUARD_BYTE);
		ASSERT_OK(bpf_map_lookup_elem_flags(fd, key, v, CPU(1)),
			  "lookup into a value that ends at a page boundary");
	}
	munmap(b.page, 2 * b.psz);
}

TEST(percpu_cpu_flags_value_size)
{
	static const enum bpf_map_type types[] = {
		BPF_MAP_TYPE_PERCPU_ARRAY, BPF_MAP_TYPE_PERCPU_HASH, BPF_MAP_TYPE_LRU_PERCPU_HASH,
	};
	static const __u32 sizes[] = { 4, 12, 8 };
	unsigned int t, i;
	char what[96];

	for (t = 0; t < ARRAY_LEN(types); t++) {
		for (i = 0; i < ARRAY_LEN(sizes); i++) {
			int fd = bpf_map_create(types[t], "vsz", 4, sizes[i], 4, NULL);
			__u32 key = 1;

			snprintf(what, sizeof(what), "map type %d, value_size %u", types[t], sizes[i]);
			if (!ASSERT_OK(fd, what))
				continue;
			one_cpu_exact(fd, &key, sizes[i], CPU(1), what);
			one_cpu_exact(fd, &key, sizes[i], BPF_F_ALL_CPUS, what);
			close(fd);
		}
	}
}

/* batches: values of value_size bytes, packed, nothing written past them */
TEST(percpu_cpu_flags_batch_value_size)
{
	static const enum bpf_map_type types[] = {
		BPF_MAP_TYPE_PERCPU_ARRAY, BPF_MAP_TYPE_PERCPU_HASH, BPF_MAP_TYPE_LRU_PERCPU_HASH,
	};
	unsigned char out[3 * 4 + 16];
	__u32 keys[3] = { 0, 1, 2 }, out_keys[3], count, batch, i, t;
	LIBBPF_OPTS(bpf_map_batch_opts, cpu1, .elem_flags = CPU(1));
	LIBBPF_OPTS(bpf_map_batch_opts, all_cpus, .elem_flags = BPF_F_ALL_CPUS);
	struct edge_buf b;
	void *vals;
	int fd, err;

	if (!ASSERT_OK(edge_buf_init(&b), "page with a PROT_NONE neighbour"))
		return;
	for (t = 0; t < ARRAY_LEN(types); t++) {
		fd = bpf_map_create(types[t], "vsz_batch", 4, 4, 3, NULL);
		if (!ASSERT_OK(fd, "map with 4-byte values"))
			continue;
		/* three 4-byte values that end at the page boundary */
		vals = edge_value(&b, 12, 0);
		for (i = 0; i < 3; i++)
			((__u32 *)vals)[i] = 100 + i;
		count = 3;
		/* generic_map_update_batch()/htab: value_size bytes per element */
		ASSERT_OK(bpf_map_update_batch(fd, keys, vals, &count, &all_cpus),
			  "update batch from the page edge");
		count = 3;
		memset(out, GUARD_BYTE, sizeof(out));
		err = bpf_map_lookup_batch(fd, NULL, &batch, out_keys, out, &count, &cpu1);
		/* ENOENT: the batch reached the end of the map */
		ASSERT_TRUE(!err || errno == ENOENT, "lookup batch, CPU 1");
		ASSERT_EQ(count, 3, "three elements");
		for (i = 0; i < count && i < 3; i++)
			ASSERT_EQ(((__u32 *)out)[i], 100 + out_keys[i], "CPU 1's value, packed");
		ASSERT_TRUE(untouched(out + 12, sizeof(out) - 12), "bytes after the values untouched");
		close(fd);
	}
	munmap(b.page, 2 * b.psz);
}

/* deleting in a batch while returning one CPU's value would lose the others' */
TEST(percpu_cpu_flags_lookup_and_delete_batch_refused)
{
	static const enum bpf_map_type types[] = {
		BPF_MAP_TYPE_PERCPU_HASH, BPF_MAP_TYPE_LRU_PERCPU_HASH,
	};
	LIBBPF_OPTS(bpf_map_batch_opts, cpu0, .elem_flags = CPU(0));
	LIBBPF_OPTS(bpf_map_batch_opts, all_cpus, .elem_flags = BPF_F_ALL_CPUS);
	int n = libbpf_num_possible_cpus(), fd, t;
	__u32 key = 1, out_key, count, batch;
	__u64 v = 3, *all = calloc(n, sizeof(*all));

	for (t = 0; t < (int)ARRAY_LEN(types); t++) {
		fd = bpf_map_create(types[t], "lad", 4, 8, 4, NULL);
		if (!ASSERT_OK(fd, "percpu hash") ||
		    !ASSERT_OK(bpf_map_update_elem(fd, &key, &v, BPF_F_ALL_CPUS), "element"))
			continue;
		count = 1;
		/* bpf_map_do_batch(): BPF_F_CPU with lookup-and-delete */
		ASSERT_ERR(bpf_map_lookup_and_delete_batch(fd, NULL, &batch, &out_key, &v, &count,
							   &cpu0), EINVAL,
			   "lookup-and-delete batch with BPF_F_CPU");
		count = 1;
		/* bpf_map_do_batch(): BPF_F_ALL_CPUS with lookup-and-delete */
		ASSERT_ERR(bpf_map_lookup_and_delete_batch(fd, NULL, &batch, &out_key, &v, &count,
							   &all_cpus), EINVAL,
			   "lookup-and-delete batch with BPF_F_ALL_CPUS");
		ASSERT_OK(bpf_map_lookup_elem(fd, &key, all), "the element is still there");
		close(fd);
	}
	free(all);
}

/* cgroup storage: one CPU's value of value_size 4 in and out, exactly */
TEST(percpu_cgroup_storage_value_size)
{
	struct bpf_cgroup_storage_key key = {};
	int prog = -1, cg = -1, fd;

	fd = bpf_map_create(BPF_MAP_TYPE_PERCPU_CGROUP_STORAGE, "cg_vsz", sizeof(key), 4, 0,
			    NULL);
	if (ASSERT_OK(fd, "percpu_cgroup_storage, value_size 4") &&
	    ASSERT_OK(cgroup_storage(fd, &prog, &cg, &key), "storage of an attached program")) {
		one_cpu_exact(fd, &key, 4, BPF_EXIST | CPU(1), "cgroup storage, CPU 1");
		one_cpu_exact(fd, &key, 4, BPF_F_ALL_CPUS, "cgroup storage, all CPUs");
	}
	if (prog >= 0 && cg >= 0)
		bpf_prog_detach2(prog, cg, BPF_CGROUP_INET_SOCK_CREATE);
	if (prog >= 0)
		close(prog);
	if (cg >= 0)
		close(cg);
	if (fd >= 0)
		close(fd);
	rmdir("/sys/fs/cgroup/percpu_flags");
}
