// SPDX-License-Identifier: GPL-2.0
/*
 * A signed loader takes no unsigned input that changes what it loads: the
 * max_entries and initial_value a caller puts into the loader's ctx are
 * ignored, a user-space run with BPF_SKEL_KERNEL in ctx->flags reads no
 * kernel memory, and bpf_load_and_run() refuses a signed load whose
 * metadata map would not be exclusive to the loader.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <bpf/bpf.h>

#include "runner.h"
#include "util.h"
#include "signed_inputs.lskel.h"

/* the signed initial values and sizes of progs/signed_inputs.bpf.c */
#define BANNER		"the signed initial value"
#define VALUE		0x5167ed
#define TABLE_MAX	16
#define BANNER_SZ	32

#define NR_INSNS	((sizeof(signed_inputs__lskel_insns) - 1) / sizeof(struct bpf_insn))
#define DATA_SZ		(sizeof(signed_inputs__lskel_data) - 1)
#define SIG_SZ		(sizeof(signed_inputs__lskel_signature) - 1)

/* The value of the one-element maps .rodata and .data, read through bpf(). */
static void expect_signed_values(int rodata_fd, int data_fd, const char *what)
{
	char banner[BANNER_SZ + 1] = {}, msg[128];
	__u64 value = 0;
	__u32 zero = 0;

	snprintf(msg, sizeof(msg), "%s: lookup in .rodata", what);
	if (ASSERT_OK(bpf_map_lookup_elem(rodata_fd, &zero, banner), msg)) {
		snprintf(msg, sizeof(msg), "%s: .rodata holds no kernel bytes", what);
		ASSERT_TRUE(!memmem(banner, BANNER_SZ, "Linux version", 13), msg);
		snprintf(msg, sizeof(msg), "%s: .rodata is the signed initial value", what);
		ASSERT_STREQ(banner, BANNER, msg);
	}
	snprintf(msg, sizeof(msg), "%s: lookup in .data", what);
	if (ASSERT_OK(bpf_map_lookup_elem(data_fd, &zero, &value), msg)) {
		snprintf(msg, sizeof(msg), "%s: .data is the signed initial value", what);
		ASSERT_EQ(value, VALUE, msg);
	}
}

/*
 * The overrides an unsigned light skeleton's loader honours, set through
 * the header's own ctx: the signed loader creates and fills the maps as
 * signed, and the memory the header maps after load is the maps'.
 */
TEST(signed_inputs_ctx_overrides_ignored)
{
	static char fake_banner[BANNER_SZ] = "the caller's value";
	static __u64 fake_value = 0xbad;
	struct bpf_map_info info = {};
	__u32 len = sizeof(info), zero = 0;
	struct signed_inputs *skel;
	__u64 value = 0;
	int err;

	skel = signed_inputs__open();
	if (!ASSERT_TRUE(skel, "signed_inputs__open"))
		return;
	ASSERT_STREQ((char *)skel->rodata->banner, BANNER, ".rodata image before load");
	ASSERT_TRUE(is_read_only(skel->rodata), ".rodata image before load is read-only");
	ASSERT_TRUE(is_read_only(skel->data), ".data image before load is read-only");
	/* bpf_gen__map_create()'s max_entries override, not emitted when signed */
	skel->maps.table.max_entries = 3;
	/* bpf_gen__map_update_elem()'s bpf_copy_from_user() of initial_value */
	skel->maps.rodata.initial_value = (__u64)(long)fake_banner;
	skel->maps.data.initial_value = (__u64)(long)&fake_value;

	err = signed_inputs__load(skel);
	if (err) {
		FAIL("signed_inputs__load: %d (%s), %s", err, strerrorname_np(-err),
		     skel->errstr ? skel->errstr : "");
		goto out;
	}
	if (ASSERT_OK(bpf_map_get_info_by_fd(skel->maps.table.map_fd, &info, &len),
		      "info of map 'table'"))
		ASSERT_EQ(info.max_entries, TABLE_MAX,
			  "max_entries of 'table': the signed one, not ctx's 3");
	expect_signed_values(skel->maps.rodata.map_fd, skel->maps.data.map_fd,
			     "ctx initial_value overrides");
	ASSERT_STREQ((char *)skel->rodata->banner, BANNER, "mmaped .rodata after load");
	ASSERT_EQ(skel->data->value, VALUE, "mmaped .data after load");
	/* .data is the map's memory now: a write there reaches the map */
	skel->data->value = 7;
	if (ASSERT_OK(bpf_map_lookup_elem(skel->maps.data.map_fd, &zero, &value),
		      "lookup in .data after a write through skel->data"))
		ASSERT_EQ(value, 7, ".data after a write through the mmaped skel->data");
out:
	signed_inputs__destroy(skel);
}

/* The address of a kernel symbol, read with kptr_restrict lifted (0: none). */
static unsigned long kallsyms_addr(const char *name)
{
	char line[256], sym[128], old[16] = "1";
	unsigned long addr = 0, a;
	FILE *f;
	char t;

	if (sysctl_write("/proc/sys/kernel/kptr_restrict", "0", old, sizeof(old)))
		return 0;
	f = fopen("/proc/kallsyms", "r");
	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx %c %127s", &a, &t, sym) == 3 && !strcmp(sym, name)) {
			addr = a;
			break;
		}
	}
	if (f)
		fclose(f);
	sysctl_write("/proc/sys/kernel/kptr_restrict", old, NULL, 0);
	return addr;
}

static int sys_bpf(int cmd, union bpf_attr *attr, size_t sz)
{
	return syscall(__NR_bpf, cmd, attr, sz);
}

/*
 * What bpf_load_and_run() does, by hand: the exclusive, frozen metadata
 * map, the signed BPF_PROG_LOAD; then the caller's own BPF_PROG_RUN with a
 * ctx that claims a kernel skeleton (BPF_SKEL_KERNEL) and points
 * initial_value at linux_banner.  An unsigned loader would copy the kernel
 * bytes into .rodata and .data with bpf_probe_read_kernel(), where the
 * caller reads them: the signed one must load its signed values.
 */
TEST(signed_inputs_no_kernel_read)
{
	const size_t load_sz = offsetofend(union bpf_attr, keyring_id);
	const size_t run_sz = offsetofend(union bpf_attr, test);
	LIBBPF_OPTS(bpf_map_create_opts, mopts,
		.excl_prog_hash = signed_inputs__lskel_excl_hash,
		.excl_prog_hash_size = 32,
	);
	int map_fd = -1, prog_fd = -1, err;
	struct signed_inputs *ctx;
	unsigned long banner;
	union bpf_attr attr;
	__u32 zero = 0;

	banner = kallsyms_addr("linux_banner");
	if (!ASSERT_TRUE(banner, "linux_banner in /proc/kallsyms"))
		return;
	ctx = calloc(1, sizeof(*ctx));
	if (!ASSERT_TRUE(ctx, "calloc of the loader ctx"))
		return;

	map_fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "__loader.map", 4, DATA_SZ, 1, &mopts);
	if (!ASSERT_OK(map_fd, "exclusive metadata map"))
		goto out;
	if (!ASSERT_OK(bpf_map_update_elem(map_fd, &zero, signed_inputs__lskel_data, 0),
		       "metadata into the map") ||
	    !ASSERT_OK(bpf_map_freeze(map_fd), "freeze the metadata map"))
		goto out;

	memset(&attr, 0, load_sz);
	attr.prog_type = BPF_PROG_TYPE_SYSCALL;
	attr.insns = (long)signed_inputs__lskel_insns;
	attr.insn_cnt = NR_INSNS;
	attr.license = (long)"Dual BSD/GPL";
	memcpy(attr.prog_name, "__loader.prog", sizeof("__loader.prog"));
	attr.fd_array = (long)&map_fd;
	attr.fd_array_cnt = 1;
	attr.signature = (long)signed_inputs__lskel_signature;
	attr.signature_size = SIG_SZ;
	attr.keyring_id = 0;
	attr.prog_flags = BPF_F_SLEEPABLE;
	prog_fd = sys_bpf(BPF_PROG_LOAD, &attr, load_sz);
	if (!ASSERT_OK(prog_fd, "signed loader, builtin keyring"))
		goto out;

	ctx->ctx.sz = (char *)&ctx->links - (char *)ctx;
	/* the BPF_SKEL_KERNEL branch of the override: bpf_probe_read_kernel() */
	ctx->ctx.flags = BPF_SKEL_KERNEL;
	ctx->maps.rodata.initial_value = banner;
	ctx->maps.data.initial_value = banner;
	memset(&attr, 0, run_sz);
	attr.test.prog_fd = prog_fd;
	attr.test.ctx_in = (long)ctx;
	attr.test.ctx_size_in = ctx->ctx.sz;
	err = sys_bpf(BPF_PROG_RUN, &attr, run_sz);
	if (!ASSERT_OK(err, "BPF_PROG_RUN of the signed loader") ||
	    !ASSERT_EQ((int)attr.test.retval, 0, "the loader's return value"))
		goto out;
	expect_signed_values(ctx->maps.rodata.map_fd, ctx->maps.data.map_fd,
			     "BPF_SKEL_KERNEL run with initial_value = linux_banner");
out:
	skel_closenz(ctx->maps.table.map_fd);
	skel_closenz(ctx->maps.rodata.map_fd);
	skel_closenz(ctx->maps.data.map_fd);
	skel_closenz(ctx->progs.read_inputs.prog_fd);
	if (prog_fd >= 0)
		close(prog_fd);
	if (map_fd >= 0)
		close(map_fd);
	free(ctx);
}

/* The id the next map gets: ids are cyclic, one per map ever created. */
static __u32 next_map_id(void)
{
	int fd = array_map(8, 1, NULL);
	__u32 id = fd >= 0 ? map_id(fd) : 0;

	if (fd >= 0)
		close(fd);
	return id + 1;
}

/*
 * bpf_load_and_run() of a signed loader without an exclusive hash for its
 * metadata map: refused before its first syscall (no map id is taken).
 */
TEST(signed_inputs_exclusive_map_required)
{
	struct signed_inputs *skel = signed_inputs__open();
	struct bpf_load_and_run_opts opts = {};
	__u32 id;

	if (!ASSERT_TRUE(skel, "signed_inputs__open"))
		return;
	opts.ctx = &skel->ctx;
	opts.data = signed_inputs__lskel_data;
	opts.data_sz = DATA_SZ;
	opts.insns = signed_inputs__lskel_insns;
	opts.insns_sz = NR_INSNS * sizeof(struct bpf_insn);
	opts.signature = signed_inputs__lskel_signature;
	opts.signature_sz = SIG_SZ;
	opts.keyring_id = 0;

	id = next_map_id();
	/* signature without excl_prog_hash: only the exclusivity check refuses it */
	ASSERT_ERR(bpf_load_and_run(&opts), EINVAL, "signed load, no exclusive hash");
	ASSERT_STREQ(opts.errstr, "signed loader needs an exclusive metadata map",
		     "errstr of a signed load without exclusive hash");
	opts.errstr = NULL;
	opts.excl_prog_hash = signed_inputs__lskel_excl_hash;
	opts.excl_prog_hash_sz = 31;
	/* the hash itself is right, only its size is not SHA-256's */
	ASSERT_ERR(bpf_load_and_run(&opts), EINVAL, "signed load, 31-byte exclusive hash");
	ASSERT_STREQ(opts.errstr, "signed loader needs an exclusive metadata map",
		     "errstr of a signed load with a 31-byte hash");
	ASSERT_EQ(next_map_id(), id + 1, "no map created by the refused loads");

	/* the same opts with the whole hash load */
	opts.errstr = NULL;
	opts.excl_prog_hash_sz = 32;
	if (!ASSERT_OK(bpf_load_and_run(&opts), "signed load, exclusive hash"))
		printf("#   step: %s\n", opts.errstr ?: "?");
	signed_inputs__destroy(skel);
}
