// SPDX-License-Identifier: GPL-2.0
/*
 * make bench (never make test: every test here is explicit-only): variants
 * of one operation measured side by side in one boot, alternating, each
 * figure printed as one line
 *
 *   # NAME: RATIO (A vs B)
 *
 * where RATIO is A / B.  A round measures every variant once, next to each
 * other, in alternating order; a figure is the median of its rounds' ratios
 * A / B (what slowed the shared host down in a round slowed both variants
 * of it).  Absolute times under TCG mean nothing; the ratios are what the
 * bench reports, the times beside them (medians) are for the eye.
 *
 *  - bench_load: the whole NAME__load() of a signed light skeleton against
 *    the same skeleton unsigned (gen-loader --payload-out: the same loader
 *    and metadata, no signature), for the demo's skel_counter, for
 *    meta_bench (about 1 MiB of metadata) and for target_many (73
 *    programs); the demo's signed load less the kernel's RSA-2048
 *    verification alone (KEYCTL_PKEY_VERIFY, timed in the same round)
 *    against the unsigned load; then the loader's BPF_PROG_LOAD alone,
 *    made as bpf_load_and_run() makes it, signed and unsigned; the rate
 *    at which the signed BPF_PROG_LOAD checks insns || metadata against
 *    user-space SHA-256 (OpenSSL) of the same bytes; and, as a line for
 *    the eye (a difference of loads, not a ratio), what signing adds to
 *    the demo loader's BPF_PROG_LOAD in parts: RSA-2048, the bytes at the
 *    cost of a byte, the rest.
 *  - bench_percpu_data: this CPU's counter as a .percpu variable, as a
 *    percpu_array lookup and as bpf_get_smp_processor_id() + array index,
 *    ACCESSES accesses per run less the same loop without an access, and
 *    each program's JIT image, whose x86 instructions tests/bench/run.sh
 *    counts on the host.
 *  - bench_arena_args: an arena write through an __arena argument the JIT
 *    rebases, and through a scalar offset the kfunc translates itself, in
 *    several arenas at once; then a kfunc's direct write and read on pages
 *    never allocated, each recovered from a fault with the scratch page, vs
 *    the same calls again once the scratch page is mapped there.
 *
 * Each bench runs on CPU 0 alone, so that every round runs where the others
 * ran.  A load that fails or a counter that ends wrong fails the test, so that
 * make bench exits non-zero; nothing here asserts a time.
 */
#include <sched.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <keyutils.h>
#include <openssl/evp.h>

#include "runner.h"
#include "sign.h"
#include "arena_bench.skel.h"
#include "percpu_bench.skel.h"
#include "skel_counter.lskel.h"
#include "skel_counter_unsigned.lskel.h"
#include "meta_bench.lskel.h"
#include "meta_bench_unsigned.lskel.h"
#include "target_many.lskel.h"
#include "target_many_unsigned.lskel.h"

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

static double now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* the median of v[0..n), v unchanged */
static double median(const double *v, int n)
{
	double c[n];

	memcpy(c, v, sizeof(c));
	qsort(c, n, sizeof(*c), cmp_double);
	return n % 2 ? c[n / 2] : (c[n / 2 - 1] + c[n / 2]) / 2;
}

/* The median of a[r] / b[r]: each round's two variants ran next to each
 * other, so what slowed the machine down in that round slowed both.
 */
static double paired_ratio(const double *a, const double *b, int n)
{
	double r[n];
	int i;

	for (i = 0; i < n; i++)
		r[i] = a[i] / b[i];
	return median(r, n);
}

/* Run on CPU 0 only, until unpin(): the rounds of a bench on one CPU. */
static cpu_set_t pinned_from;

static bool pin(void)
{
	cpu_set_t one;

	CPU_ZERO(&one);
	CPU_SET(0, &one);
	return ASSERT_OK(sched_getaffinity(0, sizeof(pinned_from), &pinned_from), "getaffinity") &&
	       ASSERT_OK(sched_setaffinity(0, sizeof(one), &one), "pin to CPU 0");
}

static void unpin(void)
{
	sched_setaffinity(0, sizeof(pinned_from), &pinned_from);
}

/* ---- signed against unsigned loads ---- */

#define LOAD_ROUNDS 100	/* whole loads */
#define MANY_ROUNDS 30	/* whole loads of 73 programs: long, so fewer */
#define PL_ROUNDS 300	/* BPF_PROG_LOAD alone: short, so more of them */

/* ns of NAME__load() alone (not open, not destroy), -1 if it failed */
#define WHOLE_LOAD(skel)						\
static double whole_load_##skel(void)					\
{									\
	struct skel *s = skel##__open();				\
	double t0, t1;							\
	int err;							\
									\
	if (!s)								\
		return -1;						\
	t0 = now_ns();							\
	err = skel##__load(s);						\
	t1 = now_ns();							\
	skel##__destroy(s);						\
	return err ? -1 : t1 - t0;					\
}

WHOLE_LOAD(skel_counter)
WHOLE_LOAD(skel_counter_unsigned)
WHOLE_LOAD(meta_bench)
WHOLE_LOAD(meta_bench_unsigned)
WHOLE_LOAD(target_many)
WHOLE_LOAD(target_many_unsigned)

/* The loader and its metadata as a header carries them. */
struct loader_bytes {
	const void *insns, *data, *excl_hash, *sig;
	__u32 insns_sz, data_sz, excl_hash_sz, sig_sz;
};

#define LOADER_BYTES(skel) {						\
	.insns = skel##__lskel_insns,					\
	.insns_sz = sizeof(skel##__lskel_insns) - 1,			\
	.data = skel##__lskel_data,					\
	.data_sz = sizeof(skel##__lskel_data) - 1,			\
	.excl_hash = skel##__lskel_excl_hash,				\
	.excl_hash_sz = sizeof(skel##__lskel_excl_hash) - 1,		\
	.sig = skel##__lskel_signature,					\
	.sig_sz = sizeof(skel##__lskel_signature) - 1,			\
}

/*
 * ns of the loader's BPF_PROG_LOAD alone, its map made as bpf_load_and_run()
 * (skel_internal.h) makes it: signed, a frozen exclusive map bound through
 * fd_array_cnt and the signature; unsigned, as an unsigned header loads.
 * -1 if a step failed.
 */
static double loader_prog_load(const struct loader_bytes *b, bool sign)
{
	const size_t attr_sz = sign ? offsetofend(union bpf_attr, keyring_id) :
				      offsetofend(union bpf_attr, fd_array);
	int map_fd, prog_fd = -1, key = 0;
	union bpf_attr attr;
	double t0, t = -1;

	map_fd = skel_map_create(BPF_MAP_TYPE_ARRAY, "__loader.map", 4, b->data_sz, 1,
				 b->excl_hash, b->excl_hash_sz);
	if (map_fd < 0)
		return -1;
	if (skel_map_update_elem(map_fd, &key, b->data, 0) < 0 ||
	    (sign && skel_map_freeze(map_fd) < 0))
		goto out;

	memset(&attr, 0, attr_sz);
	attr.prog_type = BPF_PROG_TYPE_SYSCALL;
	attr.insns = (long)b->insns;
	attr.insn_cnt = b->insns_sz / sizeof(struct bpf_insn);
	attr.license = (long)"Dual BSD/GPL";
	memcpy(attr.prog_name, "__loader.prog", sizeof("__loader.prog"));
	attr.fd_array = (long)&map_fd;
	if (sign) {
		attr.fd_array_cnt = 1;
		attr.signature = (long)b->sig;
		attr.signature_size = b->sig_sz;
		attr.keyring_id = 0;	/* builtin: keys-example/signing.crt */
	}
	attr.prog_flags = BPF_F_SLEEPABLE;
	t0 = now_ns();
	prog_fd = skel_sys_bpf(BPF_PROG_LOAD, &attr, attr_sz);
	if (prog_fd >= 0)
		t = now_ns() - t0;
out:
	if (prog_fd >= 0)
		close(prog_fd);
	close(map_fd);
	return t;
}

struct pair {
	const char *name, *what;
	double (*a)(void), (*b)(void);
	int rounds;
	double ta[PL_ROUNDS], tb[PL_ROUNDS];
};

static const struct loader_bytes demo_bytes = LOADER_BYTES(skel_counter);
static const struct loader_bytes meta_bytes = LOADER_BYTES(meta_bench);

static double demo_prog_load_signed(void) { return loader_prog_load(&demo_bytes, true); }
static double demo_prog_load_unsigned(void) { return loader_prog_load(&demo_bytes, false); }
static double meta_prog_load_signed(void) { return loader_prog_load(&meta_bytes, true); }
static double meta_prog_load_unsigned(void) { return loader_prog_load(&meta_bytes, false); }

/* one round of a pair: a then b, or b then a */
static bool run_pair(struct pair *p, int round)
{
	double *first = round % 2 ? &p->tb[round] : &p->ta[round];
	double *second = round % 2 ? &p->ta[round] : &p->tb[round];
	double (*f)(void) = round % 2 ? p->b : p->a;
	double (*s)(void) = round % 2 ? p->a : p->b;

	*first = f();
	*second = s();
	return ASSERT_TRUE(*first >= 0 && *second >= 0, p->name);
}

static void print_pair(const struct pair *p)
{
	printf("# %s: %.3f (signed vs unsigned %s: %.2f ms vs %.2f ms)\n",
	       p->name, paired_ratio(p->ta, p->tb, p->rounds), p->what,
	       median(p->ta, p->rounds) / 1e6, median(p->tb, p->rounds) / 1e6);
}

/* ns that signing adds: the median of a round's signed less its unsigned */
static double signing_adds(const struct pair *p)
{
	double d[p->rounds];
	int i;

	for (i = 0; i < p->rounds; i++)
		d[i] = p->ta[i] - p->tb[i];
	return median(d, p->rounds);
}

/* ns of user-space SHA-256 (OpenSSL) over buf, -1 if it failed */
static double user_sha256(const void *buf, size_t len)
{
	unsigned char md[EVP_MAX_MD_SIZE];
	double t0 = now_ns();

	if (!EVP_Digest(buf, len, md, NULL, EVP_sha256(), NULL))
		return -1;
	return now_ns() - t0;
}

/*
 * The RSA-2048 verification of a signed load alone: the kernel's
 * public_key_verify_signature() (PKCS#1 v1.5, SHA-256), which
 * KEYCTL_PKEY_VERIFY reaches as the PKCS#7 check does, of the demo loader's
 * own signature value over SHA-256(insns || metadata), with signing.crt in
 * this process's keyring.
 */
struct rsa_verify {
	key_serial_t key;
	unsigned char digest[32];
	const unsigned char *sig;
};

#define RSA_SIG_LEN 256		/* keys-example/signing.key: RSA-2048 */

static bool rsa_verify_init(struct rsa_verify *v, const struct loader_bytes *b)
{
	/* no signed attributes: the SignerInfo's last field, the signature
	 * value, is the last RSA_SIG_LEN bytes of the DER
	 */
	static const unsigned char octet_string[] = { 0x04, 0x82, RSA_SIG_LEN >> 8, 0 };
	const unsigned char *end = (const unsigned char *)b->sig + b->sig_sz;
	unsigned char *der;
	EVP_MD_CTX *md;
	bool ok;
	int len;

	if (!ASSERT_TRUE(b->sig_sz > RSA_SIG_LEN + sizeof(octet_string) &&
			 !memcmp(end - RSA_SIG_LEN - sizeof(octet_string), octet_string,
				 sizeof(octet_string)), "an RSA-2048 signature value ends the DER"))
		return false;
	v->sig = end - RSA_SIG_LEN;
	md = EVP_MD_CTX_new();
	ok = md && EVP_DigestInit_ex(md, EVP_sha256(), NULL) &&
	     EVP_DigestUpdate(md, b->insns, b->insns_sz) &&
	     EVP_DigestUpdate(md, b->data, b->data_sz) &&
	     EVP_DigestFinal_ex(md, v->digest, NULL);
	EVP_MD_CTX_free(md);
	if (!ASSERT_TRUE(ok, "SHA-256 of insns || metadata"))
		return false;
	len = cert_der("signing", &der);
	if (!ASSERT_GE(len, 1, "DER of /tests/keys/signing.crt"))
		return false;
	v->key = add_key("asymmetric", "bench-signing", der, len, KEY_SPEC_PROCESS_KEYRING);
	free(der);
	return ASSERT_GE(v->key, 1, "signing.crt into the process keyring");
}

/* ns of one verification, -1 if it failed */
static double rsa_verify_ns(const struct rsa_verify *v)
{
	double t0 = now_ns();

	if (keyctl_pkey_verify(v->key, "enc=pkcs1 hash=sha256", v->digest, sizeof(v->digest),
			       v->sig, RSA_SIG_LEN) < 0)
		return -1;
	return now_ns() - t0;
}

TEST_EXPLICIT(bench_load)
{
	struct pair whole[] = {
		{ .name = "load.demo", .what = "skel_counter__load()",
		  .a = whole_load_skel_counter, .b = whole_load_skel_counter_unsigned,
		  .rounds = LOAD_ROUNDS },
		{ .name = "load.meta_1mib", .what = "meta_bench__load()",
		  .a = whole_load_meta_bench, .b = whole_load_meta_bench_unsigned,
		  .rounds = LOAD_ROUNDS },
		{ .name = "load.target_many", .what = "target_many__load() (73 programs)",
		  .a = whole_load_target_many, .b = whole_load_target_many_unsigned,
		  .rounds = MANY_ROUNDS },
	};
	struct pair prog_load[] = {
		{ .name = "load.demo.prog_load", .what = "BPF_PROG_LOAD of skel_counter's loader",
		  .a = demo_prog_load_signed, .b = demo_prog_load_unsigned, .rounds = PL_ROUNDS },
		{ .name = "load.meta_1mib.prog_load",
		  .what = "BPF_PROG_LOAD of meta_bench's loader",
		  .a = meta_prog_load_signed, .b = meta_prog_load_unsigned, .rounds = PL_ROUNDS },
	};
	size_t len = meta_bytes.insns_sz + meta_bytes.data_sz, k;
	size_t demo_len = demo_bytes.insns_sz + demo_bytes.data_sz;
	double sha[PL_ROUNDS], sha_vs[PL_ROUNDS], rsa[PL_ROUNDS], check, user, demo, per_byte;
	double rsa_w[LOAD_ROUNDS], less_rsa[LOAD_ROUNDS];
	struct rsa_verify v;
	unsigned char *buf;
	int r;

	if (!pin())
		return;
	/* the signed bytes: insns || the one metadata map's value */
	buf = malloc(len);
	if (!ASSERT_TRUE(buf, "malloc"))
		goto out;
	memcpy(buf, meta_bytes.insns, meta_bytes.insns_sz);
	memcpy(buf + meta_bytes.insns_sz, meta_bytes.data, meta_bytes.data_sz);
	if (!rsa_verify_init(&v, &demo_bytes))
		goto out;

	/* one load of each, untimed: first-use costs (BTF, page cache) */
	for (k = 0; k < ARRAY_SIZE(whole); k++)
		if (!run_pair(&whole[k], 0))
			goto out;
	for (r = 0; r < LOAD_ROUNDS; r++) {
		for (k = 0; k < ARRAY_SIZE(whole); k++)
			if (r < whole[k].rounds && !run_pair(&whole[k], r))
				goto out;
		rsa_w[r] = rsa_verify_ns(&v);
		if (!ASSERT_TRUE(rsa_w[r] > 0, "KEYCTL_PKEY_VERIFY of the demo's signature"))
			goto out;
		less_rsa[r] = (whole[0].ta[r] - rsa_w[r]) / whole[0].tb[r];
	}
	for (k = 0; k < ARRAY_SIZE(whole); k++)
		print_pair(&whole[k]);
	/* The demo's signed load less the one RSA-2048 verification it makes,
	 * timed in the same round: what the rest of signing costs, against
	 * the goal.  A ratio of loads, not a share of their difference: the
	 * difference of two loads moved by a quarter from boot to boot.
	 */
	printf("# load.demo.less_rsa: %.3f (signed skel_counter__load() less the kernel's RSA-2048"
	       " verification, KEYCTL_PKEY_VERIFY in the same round, vs unsigned:"
	       " %.2f ms vs %.2f ms)\n", median(less_rsa, LOAD_ROUNDS),
	       (median(whole[0].ta, LOAD_ROUNDS) - median(rsa_w, LOAD_ROUNDS)) / 1e6,
	       median(whole[0].tb, LOAD_ROUNDS) / 1e6);

	for (r = 0; r < PL_ROUNDS; r++) {
		for (k = 0; k < ARRAY_SIZE(prog_load); k++)
			if (!run_pair(&prog_load[k], r))
				goto out;
		sha[r] = user_sha256(buf, len);
		rsa[r] = rsa_verify_ns(&v);
		if (!ASSERT_TRUE(sha[r] > 0, "user-space SHA-256") ||
		    !ASSERT_TRUE(rsa[r] > 0, "KEYCTL_PKEY_VERIFY of the demo's signature"))
			goto out;
	}
	for (k = 0; k < ARRAY_SIZE(prog_load); k++)
		print_pair(&prog_load[k]);
	/* what signing adds to BPF_PROG_LOAD: copy, hash, PKCS#7; and
	 * rate(kernel) / rate(user) = t(user) / t(kernel)
	 */
	check = signing_adds(&prog_load[1]);
	user = median(sha, PL_ROUNDS);
	for (r = 0; r < PL_ROUNDS; r++)
		sha_vs[r] = sha[r] / (prog_load[1].ta[r] - prog_load[1].tb[r]);
	printf("# hash.kernel_vs_user: %.3f (the signed BPF_PROG_LOAD's check of insns || metadata,"
	       " %.2f MiB: %.1f MB/s vs user-space SHA-256 of the same bytes: %.1f MB/s)\n",
	       median(sha_vs, PL_ROUNDS), len / 1048576.0, len / check * 1e3, len / user * 1e3);
	/* What signing adds to the demo's BPF_PROG_LOAD, in parts: the RSA
	 * verification alone, and its bytes at the cost of a byte between
	 * the demo's and the 1 MiB loader's (copy and hash).
	 */
	demo = signing_adds(&prog_load[0]);
	per_byte = (check - demo) / (double)(len - demo_len);
	printf("# signing adds %.2f ms to the demo loader's BPF_PROG_LOAD: RSA-2048 verification"
	       " %.2f ms, copying and hashing its %zu bytes %.2f ms (%.1f ns a byte), the rest"
	       " (PKCS#7 parsing, key lookup, map checks) %.2f ms\n", demo / 1e6,
	       median(rsa, PL_ROUNDS) / 1e6, demo_len, per_byte * demo_len / 1e6, per_byte,
	       (demo - median(rsa, PL_ROUNDS) - per_byte * demo_len) / 1e6);
out:
	free(buf);
	unpin();
}

/* ---- .percpu against the other ways to this CPU's counter ---- */

#define ACCESSES 1000	/* per run, as in progs/percpu_bench.bpf.c */
#define PCPU_REPEAT 1000	/* runs a measurement averages: a timer tick in one is noise */
/* Several instances, as for the arena below: under TCG a program's
 * per-access time depends on where its JIT image landed, and one placement
 * moved percpu.cpu_index_vs_data by 15% from boot to boot.
 */
#define PCPU_INSTANCES 4
#define PCPU_ROUNDS 200		/* in all, PCPU_ROUNDS / PCPU_INSTANCES each */
#define NR_VARIANTS 4	/* the empty loop and three accesses */

/* average ns of one run over PCPU_REPEAT runs, timed by the kernel; -1 on failure */
static double run_repeat_ns(int fd)
{
	char pkt[64] = {};
	LIBBPF_OPTS(bpf_test_run_opts, opts,
		.data_in = pkt,
		.data_size_in = sizeof(pkt),
		.repeat = PCPU_REPEAT,
	);

	if (bpf_prog_test_run_opts(fd, &opts) || opts.retval != 0)
		return -1;
	return opts.duration;
}

/* The sum of every CPU's value of a one-u64-element per-CPU map. */
static bool percpu_sum(int map_fd, __u64 *sum)
{
	int n = libbpf_num_possible_cpus(), i, key = 0;
	__u64 v[n > 0 ? n : 1];

	if (n <= 0 || bpf_map_lookup_elem(map_fd, &key, v))
		return false;
	for (*sum = 0, i = 0; i < n; i++)
		*sum += v[i];
	return true;
}

/*
 * Print a program's JIT image as "# jit NAME LEN HEX", read as bpftool prog
 * dump jited reads it (BPF_OBJ_GET_INFO_BY_FD): the guest's bpftool is built
 * without a disassembler, so make bench counts the x86 instructions on the
 * host (objdump).  False on failure.
 */
static bool print_jit(const char *name, int prog_fd)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info), i, sz;
	unsigned char *img;

	if (bpf_prog_get_info_by_fd(prog_fd, &info, &len) || !info.jited_prog_len)
		return false;
	sz = info.jited_prog_len;
	img = calloc(1, sz);
	if (!img)
		return false;
	memset(&info, 0, sizeof(info));
	info.jited_prog_len = sz;
	info.jited_prog_insns = (__u64)(long)img;
	len = sizeof(info);
	if (bpf_prog_get_info_by_fd(prog_fd, &info, &len) || info.jited_prog_len != sz) {
		free(img);
		return false;
	}
	printf("# jit %s %u ", name, sz);
	for (i = 0; i < sz; i++)
		printf("%02x", img[i]);
	printf("\n");
	free(img);
	return true;
}

/* every access of an instance's PCPU_ROUNDS / PCPU_INSTANCES rounds reached
 * its counter, in each of the three ways
 */
static bool percpu_counted(struct percpu_bench *skel)
{
	__u64 want = (__u64)PCPU_ROUNDS / PCPU_INSTANCES * PCPU_REPEAT * ACCESSES, got;
	int i;

	if (!ASSERT_TRUE(percpu_sum(bpf_map__fd(skel->maps.percpu), &got), "read .percpu") ||
	    !ASSERT_EQ(got, want, ".percpu accesses") ||
	    !ASSERT_TRUE(percpu_sum(bpf_map__fd(skel->maps.pcpu), &got), "read pcpu") ||
	    !ASSERT_EQ(got, want, "percpu_array accesses"))
		return false;
	for (got = 0, i = 0; i < (int)ARRAY_SIZE(skel->bss->by_cpu); i++)
		got += skel->bss->by_cpu[i];
	return ASSERT_EQ(got, want, "by_cpu accesses");
}

TEST_EXPLICIT(bench_percpu_data)
{
	static const char *const what[NR_VARIANTS] = {
		"the loop alone", ".percpu variable", "percpu_array lookup",
		"bpf_get_smp_processor_id() + array",
	};
	static const char *const jit_name[NR_VARIANTS] = {
		"bench_loop", "bench_percpu_data", "bench_map_lookup", "bench_cpu_index",
	};
	static const char *const name[NR_VARIANTS] = {
		NULL, NULL, "percpu.map_lookup_vs_data", "percpu.cpu_index_vs_data",
	};
	struct percpu_bench *skel[PCPU_INSTANCES] = {};
	double ns[NR_VARIANTS][PCPU_ROUNDS], acc[NR_VARIANTS][PCPU_ROUNDS], per[NR_VARIANTS];
	int fds[PCPU_INSTANCES][NR_VARIANTS], r, k, i, n;

	if (!pin())
		return;
	for (n = 0; n < PCPU_INSTANCES; n++) {
		skel[n] = percpu_bench__open_and_load();
		if (!ASSERT_TRUE(skel[n], "load"))
			goto out;
		fds[n][0] = bpf_program__fd(skel[n]->progs.bench_loop);
		fds[n][1] = bpf_program__fd(skel[n]->progs.bench_percpu_data);
		fds[n][2] = bpf_program__fd(skel[n]->progs.bench_map_lookup);
		fds[n][3] = bpf_program__fd(skel[n]->progs.bench_cpu_index);
	}
	for (k = 0; k < NR_VARIANTS; k++)
		if (!ASSERT_TRUE(print_jit(jit_name[k], fds[0][k]), "the JIT image"))
			goto out;
	/* interleaved, each round starting at another variant, instance
	 * after instance
	 */
	for (r = 0; r < PCPU_ROUNDS; r++) {
		n = r % PCPU_INSTANCES;
		for (i = 0; i < NR_VARIANTS; i++) {
			k = (r / PCPU_INSTANCES + i) % NR_VARIANTS;
			ns[k][r] = run_repeat_ns(fds[n][k]);
			if (!ASSERT_GE(ns[k][r], 0, what[k]))
				goto out;
		}
	}
	for (n = 0; n < PCPU_INSTANCES; n++)
		if (!percpu_counted(skel[n]))
			goto out;

	/* an access: a run less a run of the loop alone, in the same round */
	for (k = 1; k < NR_VARIANTS; k++) {
		for (r = 0; r < PCPU_ROUNDS; r++)
			acc[k][r] = (ns[k][r] - ns[0][r]) / ACCESSES;
		per[k] = median(acc[k], PCPU_ROUNDS);
	}
	for (k = 2; k < NR_VARIANTS; k++)
		printf("# %s: %.3f (%s vs .percpu variable, per access: %.2f ns vs %.2f ns)\n",
		       name[k], paired_ratio(acc[k], acc[1], PCPU_ROUNDS), what[k], per[k], per[1]);
	printf("# percpu: %d instances, %d accesses per run, %d runs per measurement,"
	       " %d rounds; one run of the loop alone %.1f us\n", PCPU_INSTANCES, ACCESSES,
	       PCPU_REPEAT, PCPU_ROUNDS, median(ns[0], PCPU_ROUNDS) / 1e3);
out:
	for (n = 0; n < PCPU_INSTANCES; n++)
		percpu_bench__destroy(skel[n]);
	unpin();
}

/* ---- __arena arguments against scalar offsets ---- */

/* Several arenas at once, each with its own map, programs and pages: under
 * TCG one instance's ratio depends on where its arena and programs landed
 * (a boot's instance ran the scalar offset at 60-68 or at 113 ns a call),
 * and the median over rounds of all of them does not hang on one placement.
 */
#define ARENA_INSTANCES 8
#define ARENA_ROUNDS 40	/* per instance */
#define CALLS 10000	/* per run, as in progs/arena_bench.bpf.c */
/* each fault run takes FAULT_CALLS fresh pages of the arena's 4 GiB */
#define FAULT_ROUNDS 10	/* per instance */
#define FAULT_CALLS 1000
#define FAULT_BASE 16	/* first page: past the one setup allocated */

/* ns of one test run, or -1 if it failed or returned other than want */
static double run_ns(int fd, int want)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts);
	double t0 = now_ns();

	if (bpf_prog_test_run_opts(fd, &opts) || (int)opts.retval != want)
		return -1;
	return now_ns() - t0;
}

TEST_EXPLICIT(bench_arena_args)
{
	static double arg[ARENA_INSTANCES * ARENA_ROUNDS], off[ARENA_INSTANCES * ARENA_ROUNDS];
	static double flt[ARENA_INSTANCES * FAULT_ROUNDS], mapped[ARENA_INSTANCES * FAULT_ROUNDS];
	struct arena_bench *skel[ARENA_INSTANCES] = {};
	double one[ARENA_INSTANCES];
	int i, r, n, nf, fa, fo;

	if (!pin())
		return;
	for (i = 0; i < ARENA_INSTANCES; i++) {
		skel[i] = arena_bench__open_and_load();
		if (!ASSERT_TRUE(skel[i], "load") ||
		    !ASSERT_EQ(run_ns(bpf_program__fd(skel[i]->progs.setup), 0) >= 0, 1, "setup"))
			goto out;
	}
	/* interleaved, alternating which goes first, instance after instance */
	for (n = 0, r = 0; r < ARENA_ROUNDS; r++) {
		for (i = 0; i < ARENA_INSTANCES; i++, n++) {
			fa = bpf_program__fd(skel[i]->progs.bench_arena_arg);
			fo = bpf_program__fd(skel[i]->progs.bench_offset);
			arg[n] = run_ns(n % 2 ? fo : fa, CALLS);
			off[n] = run_ns(n % 2 ? fa : fo, CALLS);
			if (n % 2) {
				double t = arg[n];

				arg[n] = off[n];
				off[n] = t;
			}
			if (!ASSERT_TRUE(arg[n] >= 0 && off[n] >= 0, "arena runs"))
				goto out;
		}
	}
	for (i = 0; i < ARENA_INSTANCES; i++) {
		double a[ARENA_ROUNDS], o[ARENA_ROUNDS];

		if (!ASSERT_EQ(skel[i]->bss->errors, 0, "every write succeeded"))
			goto out;
		for (r = 0; r < ARENA_ROUNDS; r++) {
			a[r] = arg[r * ARENA_INSTANCES + i];
			o[r] = off[r * ARENA_INSTANCES + i];
		}
		one[i] = paired_ratio(a, o, ARENA_ROUNDS);
	}
	printf("# arena.arg_vs_offset: %.3f (__arena argument vs scalar offset, per call:"
	       " %.1f ns vs %.1f ns)\n", paired_ratio(arg, off, n),
	       median(arg, n) / CALLS, median(off, n) / CALLS);
	printf("# arena: %d instances, %d rounds each, %d calls a run; each instance's ratio:",
	       ARENA_INSTANCES, ARENA_ROUNDS, CALLS);
	for (i = 0; i < ARENA_INSTANCES; i++)
		printf(" %.3f", one[i]);
	printf("\n");

	/* The first run over fresh pages faults on each; the second, over the
	 * same pages, finds the scratch page mapped: the difference is the
	 * fault and its recovery. Fresh pages each round, never reused.
	 */
	for (nf = 0, r = 0; r < FAULT_ROUNDS; r++) {
		for (i = 0; i < ARENA_INSTANCES; i++, nf++) {
			skel[i]->bss->fault_base = FAULT_BASE + r * FAULT_CALLS;
			skel[i]->bss->fault_calls = FAULT_CALLS;
			fa = bpf_program__fd(skel[i]->progs.bench_fault);
			flt[nf] = run_ns(fa, FAULT_CALLS);
			mapped[nf] = run_ns(fa, FAULT_CALLS);
			if (!ASSERT_TRUE(flt[nf] >= 0 && mapped[nf] >= 0, "fault runs"))
				goto out;
		}
	}
	for (i = 0; i < ARENA_INSTANCES; i++)
		if (!ASSERT_EQ(skel[i]->bss->errors, 0, "every recovered access read back"))
			goto out;
	printf("# arena.fault_vs_mapped: %.3f (kfunc write and read on a page never allocated,"
	       " recovered from a fault, vs the same once the scratch page is mapped, per call:"
	       " %.1f ns vs %.1f ns)\n", paired_ratio(flt, mapped, nf),
	       median(flt, nf) / FAULT_CALLS, median(mapped, nf) / FAULT_CALLS);
	printf("# arena.fault_vs_arg: %.3f (a recovered fault's kfunc call vs an __arena"
	       " argument write to an allocated page, medians per call)\n",
	       (median(flt, nf) / FAULT_CALLS) / (median(arg, n) / CALLS));
out:
	for (i = 0; i < ARENA_INSTANCES; i++)
		arena_bench__destroy(skel[i]);
	unpin();
}
