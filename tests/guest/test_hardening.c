// SPDX-License-Identifier: GPL-2.0
/*
 * The ways around the signed-load guarantee that issue 14 closed, tried as
 * the attacker would: a caller keyring under enforcement, other write paths
 * to frozen maps, sizes at the edges, the kernel's own loader
 * (CONFIG_BPF_PRELOAD), racing sysctl writers, unbalanced LSM hooks and
 * echoed info fields.  Documentation/bpf/signing.rst lists the threat model.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <keyutils.h>
#include <bpf/btf.h>

#include "runner.h"
#include "util.h"
#include "sign.h"
#include "fixture.h"
#include "signed.h"
#include "audit.h"
#include "iter_write.skel.h"
#include "lsm_balance.skel.h"

#define ENFORCE "/proc/sys/kernel/bpf_sig_enforce"
/* the most a signed load may make the kernel copy and hash */
#define SIGNED_MAX (16u << 20)

static int enforce_value(void)
{
	char buf[8] = "";
	int fd = open(ENFORCE, O_RDONLY);

	if (fd < 0)
		return -1;
	if (read(fd, buf, sizeof(buf) - 1) < 0)
		buf[0] = 0;
	close(fd);
	return buf[0] ? atoi(buf) : -1;
}

/* An iterator link of prog over map_fd; returns the link fd or -errno */
static int iter_attach(struct bpf_program *prog, int map_fd)
{
	DECLARE_LIBBPF_OPTS(bpf_iter_attach_opts, opts);
	union bpf_iter_link_info linfo = {};
	struct bpf_link *link;
	int fd;

	linfo.map.map_fd = map_fd;
	opts.link_info = &linfo;
	opts.link_info_len = sizeof(linfo);
	link = bpf_program__attach_iter(prog, &opts);
	if (!link)
		return -errno;
	fd = dup(bpf_link__fd(link));
	bpf_link__destroy(link);
	return fd;
}

/* Run an iterator link to its end */
static int iter_run(int link_fd)
{
	char buf[64];
	int fd = bpf_iter_create(link_fd), n;

	if (fd < 0)
		return fd;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		;
	close(fd);
	return n;
}

static __u32 value0(int map_fd)
{
	__u32 v = 0;
	int zero = 0;

	bpf_map_lookup_elem(map_fd, &zero, &v);
	return v;
}

TEST(hardening_iter_refuses_exclusive_map)
{
	const struct bpf_insn insns[] = FIXTURE_INSNS;
	struct iter_write *skel = iter_write__open_and_load();
	int map, link;

	if (!ASSERT_TRUE(skel, "iterator programs"))
		return;
	map = meta_map(insns, ARRAY_LEN(insns), 0, true, true);
	if (!ASSERT_OK(map, "frozen exclusive metadata map"))
		goto out;
	/* the map is frozen and not read-only for programs: only exclusivity refuses */
	ASSERT_ERR(iter_attach(skel->progs.rewrite, map), EPERM,
		   "writing iterator on an exclusive map");
	/* reading would leak nothing the signature does not cover, but it
	 * binds the map to a second program all the same
	 */
	ASSERT_ERR(iter_attach(skel->progs.peek, map), EPERM,
		   "reading iterator on an exclusive map");
	ASSERT_EQ(value0(map) & 0xff, fixture_meta(0, 0), "metadata unchanged");
	close(map);

	/* the control: the same frozen map without exclusivity is rewritten */
	map = meta_map(insns, ARRAY_LEN(insns), 0, false, true);
	if (!ASSERT_OK(map, "frozen plain map"))
		goto out;
	link = iter_attach(skel->progs.rewrite, map);
	if (ASSERT_OK(link, "writing iterator on a plain frozen map")) {
		ASSERT_OK(iter_run(link), "run it");
		ASSERT_EQ(value0(map), 0xdeadbeef, "the iterator wrote the frozen value");
		close(link);
	}
	close(map);
out:
	iter_write__destroy(skel);
}

TEST(hardening_iter_refuses_writes_to_rdonly_prog_map)
{
	LIBBPF_OPTS(bpf_map_create_opts, ro, .map_flags = BPF_F_RDONLY_PROG);
	struct iter_write *skel = iter_write__open_and_load();
	__u32 v = 42;
	int map, link, zero = 0;

	if (!ASSERT_TRUE(skel, "iterator programs"))
		return;
	map = array_map(4, 1, &ro);
	if (!ASSERT_OK(map, "BPF_F_RDONLY_PROG array") ||
	    !ASSERT_OK(bpf_map_update_elem(map, &zero, &v, 0), "fill") ||
	    !ASSERT_OK(bpf_map_freeze(map), "freeze"))
		goto out;
	/* size and type fit (the reader attaches): only the write is refused */
	ASSERT_ERR(iter_attach(skel->progs.rewrite, map), EACCES,
		   "writing iterator on a BPF_F_RDONLY_PROG map");
	link = iter_attach(skel->progs.peek, map);
	if (ASSERT_OK(link, "reading iterator on it")) {
		ASSERT_OK(iter_run(link), "run it");
		ASSERT_EQ(skel->bss->seen, 42, "the reader saw the value");
		close(link);
	}
	ASSERT_EQ(value0(map), 42, "value unchanged");
out:
	if (map >= 0)
		close(map);
	iter_write__destroy(skel);
}

TEST(hardening_signed_fd_array_duplicate)
{
	struct load l;

	if (!make_load(&l, 1, "signing", BUILTIN))
		return;
	/* the same frozen exclusive map twice: each entry alone would pass */
	l.fds[1] = l.fds[0];
	l.nfds = 2;
	expect_load(&l, EINVAL, "map 'meta0' is at fd_array[0] and [1]", "duplicate map");
	l.nfds = 1;
	free_load(&l);
}

/* A frozen map exclusive to insns whose value is size bytes: fd or -errno */
static int big_meta_map(const struct bpf_insn *insns, int cnt, __u32 size)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts);
	unsigned char digest[32];
	int fd;

	prog_digest(insns, cnt, digest);
	opts.excl_prog_hash = digest;
	opts.excl_prog_hash_size = sizeof(digest);
	fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "big", 4, size, 1, &opts);
	if (fd >= 0 && bpf_map_freeze(fd)) {
		close(fd);
		return -errno;
	}
	return fd;
}

TEST(hardening_signed_length_bound)
{
	const struct bpf_insn insns[] = FIXTURE_INSNS;
	struct load l = { .cnt = ARRAY_LEN(insns), .nfds = 1 };
	unsigned char sig[256];

	memcpy(l.insns, insns, sizeof(insns));
	/* the signature is garbage: what refuses it first names the check */
	memset(sig, 0x30, sizeof(sig));
	l.sig = sig;
	l.sig_len = sizeof(sig);

	/* insns || metadata one byte over 16 MiB: the bound, before verifying */
	l.fds[0] = big_meta_map(insns, l.cnt, SIGNED_MAX - sizeof(insns) + 1);
	if (ASSERT_OK(l.fds[0], "exclusive map of 16 MiB - 31 bytes"))
		expect_load(&l, E2BIG,
			    "signed instructions and metadata exceed 16777216 bytes at map 'big'",
			    "16 MiB + 1 signed bytes");
	close(l.fds[0]);

	/* exactly 16 MiB: within the bound, so the garbage reaches the parser */
	l.fds[0] = big_meta_map(insns, l.cnt, SIGNED_MAX - sizeof(insns));
	if (ASSERT_OK(l.fds[0], "exclusive map of 16 MiB - 32 bytes"))
		expect_load(&l, EBADMSG, "signature verification failed", "16 MiB signed bytes");
	close(l.fds[0]);
}

TEST(hardening_map_info_no_echo)
{
	struct bpf_map_info info;
	__u32 len = sizeof(info);
	int map = array_map(4, 1, NULL);

	if (!ASSERT_OK(map, "array"))
		return;
	memset(&info, 0xa5, sizeof(info));
	info.hash = 0;
	info.hash_size = 0;
	if (ASSERT_OK(bpf_map_get_info_by_fd(map, &info, &len), "BPF_OBJ_GET_INFO_BY_FD")) {
		/* fields a map without BTF or offload does not fill */
		ASSERT_EQ(info.btf_id, 0, "btf_id");
		ASSERT_EQ(info.btf_key_type_id, 0, "btf_key_type_id");
		ASSERT_EQ(info.btf_vmlinux_value_type_id, 0, "btf_vmlinux_value_type_id");
		ASSERT_EQ(info.ifindex, 0, "ifindex");
		ASSERT_EQ(info.netns_dev, 0, "netns_dev");
		ASSERT_EQ(info.netns_ino, 0, "netns_ino");
		ASSERT_EQ(info.btf_vmlinux_id, 0, "btf_vmlinux_id");
		ASSERT_EQ(info.value_size, 4, "value_size is the kernel's");
	}
	close(map);
}

/* Wait for the RCU callbacks that free programs */
static void settle(void)
{
	usleep(300 * 1000);
}

TEST(hardening_lsm_free_balanced)
{
	struct lsm_balance *skel = lsm_balance__open_and_load();
	LIBBPF_OPTS(bpf_prog_load_opts, opts);
	const struct bpf_insn bad[] = { EXIT_INSN() };
	struct load l;
	int fd;

	if (!ASSERT_TRUE(skel, "lsm_balance") ||
	    !ASSERT_OK(lsm_balance__attach(skel), "attach bpf_prog_load and bpf_prog_free"))
		goto out;
	if (!make_load(&l, 1, "signing", BUILTIN))
		goto out;
	/* a bad signature fails before security_bpf_prog_load() */
	l.sig[l.sig_len - 1] ^= 1;
	{
		const size_t sz = offsetofend(union bpf_attr, keyring_id);
		union bpf_attr attr;

		memset(&attr, 0, sz);
		attr.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
		attr.insns = (uintptr_t)l.insns;
		attr.insn_cnt = l.cnt;
		attr.license = (uintptr_t)"GPL";
		memcpy(attr.prog_name, "lsm_balance", sizeof("lsm_balance"));
		attr.fd_array = (uintptr_t)l.fds;
		attr.fd_array_cnt = l.nfds;
		attr.signature = (uintptr_t)l.sig;
		attr.signature_size = l.sig_len;
		fd = syscall(__NR_bpf, BPF_PROG_LOAD, &attr, sz);
		ASSERT_ERR(fd, EKEYREJECTED, "tampered signature");
	}
	free_load(&l);
	settle();
	ASSERT_EQ(skel->bss->loads, 0, "the load hook never ran");
	ASSERT_EQ(skel->bss->frees, 0, "so neither does the free hook");

	/* past the hook, a verifier failure frees what the hook saw */
	fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, "lsm_balance", "GPL", bad, 1, &opts);
	ASSERT_ERR(fd, EACCES, "exit without r0: the verifier refuses it");
	settle();
	ASSERT_EQ(skel->bss->loads, 1, "the load hook ran");
	ASSERT_EQ(skel->bss->frees, 1, "and the free hook once");
out:
	lsm_balance__destroy(skel);
}

TEST(hardening_audit_signature_decisions_only)
{
	const struct bpf_insn bad[] = { EXIT_INSN() };
	int afd = audit_open(), fd;
	char rec[1024];
	struct load l;

	if (!ASSERT_OK(afd, "register as the audit daemon"))
		return;
	/* an unsigned load the verifier refuses is no signature decision */
	fd = load_prog(bad, ARRAY_LEN(bad), NULL);
	ASSERT_ERR(fd, EACCES, "unsigned, invalid");
	if (make_load(&l, 1, "signing", BUILTIN)) {
		l.sig[l.sig_len - 1] ^= 1;
		expect_load(&l, EKEYREJECTED, "signature verification failed", "tampered");
	}
	free_load(&l);
	/* so the first refused load in the log is the tampered one */
	if (ASSERT_OK(audit_find(afd, "op=LOAD res=0", rec, sizeof(rec), 2000),
		      "audit record of a refused load")) {
		ASSERT_HAS(rec, "errno=-129 verdict=rejected keyring=none", "the tampered load");
		/* "sig=" would be read as a signal number by ausearch -i */
		ASSERT_TRUE(!strstr(rec, " sig="), "no sig= field");
	}
	audit_close(afd);
}

TEST(hardening_preload_iterators)
{
	char buf[4096];
	int fd, n;

	/* CONFIG_BPF_PRELOAD: its loader ran through kern_sys_bpf() at boot */
	fd = open("/sys/fs/bpf/progs.debug", O_RDONLY);
	if (!ASSERT_OK(fd, "/sys/fs/bpf/progs.debug"))
		return;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (ASSERT_GE(n, 1, "read progs.debug")) {
		buf[n] = 0;
		ASSERT_HAS(buf, "dump_bpf_prog", "the preload iterator lists itself");
	}
	fd = open("/sys/fs/bpf/maps.debug", O_RDONLY);
	if (ASSERT_OK(fd, "/sys/fs/bpf/maps.debug"))
		close(fd);
}

/* Boot with bpf_sig_enforce=1 */
TEST_EXPLICIT(enforce_caller_keyring_refused)
{
	unsigned char *der;
	struct load l;
	int len;

	len = cert_der("untrusted", &der);
	if (!ASSERT_GE(len, 1, "untrusted.crt"))
		return;
	ASSERT_OK(add_key("asymmetric", "bpfsign-untrusted", der, len, KEY_SPEC_SESSION_KEYRING),
		  "the caller's own certificate in its session keyring");
	free(der);
	/* it verifies (enforcement off loads it): only the keyring rule refuses it */
	if (make_load(&l, 1, "untrusted", KEY_SPEC_SESSION_KEYRING))
		expect_load(&l, EPERM,
			    "bpf_sig_enforce: signature verified by caller keyring",
			    "caller keyring under enforcement");
	free_load(&l);
	/* a system keyring still counts */
	if (make_load(&l, 1, "signing", BUILTIN))
		expect_load(&l, 0, NULL, "builtin keyring under enforcement");
	free_load(&l);

	/* the kernel's own loader ran at boot under enforcement */
	ASSERT_OK(access("/sys/fs/bpf/progs.debug", R_OK), "preload iterators pinned");
}

/*
 * A signed loader (a syscall program that loads a child through
 * bpf_sys_bpf()), hand-written so that its instructions are what is signed:
 * ctx is struct loader_args.
 */
struct loader_args {
	struct bpf_insn insns[2];
	char license[4];
	int prog_fd;
};

#define STX(sz, d, s, o)	INSN(BPF_STX | BPF_MEM | (sz), d, s, o, 0)
#define ST(sz, d, o, i)		INSN(BPF_ST | BPF_MEM | (sz), d, 0, o, i)
#define MOV64_REG(d, s)		INSN(BPF_ALU64 | BPF_MOV | BPF_X, d, s, 0, 0)
#define ADD64_IMM(d, i)		INSN(BPF_ALU64 | BPF_ADD | BPF_K, d, 0, 0, i)

static const struct bpf_insn loader_insns[] = {
	MOV64_REG(BPF_REG_6, BPF_REG_1),
	/* union bpf_attr attr (48 bytes) at fp-48, zeroed */
	ST(BPF_DW, BPF_REG_10, -48, 0), ST(BPF_DW, BPF_REG_10, -40, 0),
	ST(BPF_DW, BPF_REG_10, -32, 0), ST(BPF_DW, BPF_REG_10, -24, 0),
	ST(BPF_DW, BPF_REG_10, -16, 0), ST(BPF_DW, BPF_REG_10, -8, 0),
	ST(BPF_W, BPF_REG_10, -48, BPF_PROG_TYPE_SOCKET_FILTER),
	ST(BPF_W, BPF_REG_10, -44, 2),			/* insn_cnt */
	STX(BPF_DW, BPF_REG_10, BPF_REG_6, -40),	/* insns = ctx->insns */
	MOV64_REG(BPF_REG_2, BPF_REG_6),
	ADD64_IMM(BPF_REG_2, offsetof(struct loader_args, license)),
	STX(BPF_DW, BPF_REG_10, BPF_REG_2, -32),	/* license */
	MOV64_IMM(BPF_REG_1, BPF_PROG_LOAD),
	MOV64_REG(BPF_REG_2, BPF_REG_10),
	ADD64_IMM(BPF_REG_2, -48),
	MOV64_IMM(BPF_REG_3, 48),
	INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_sys_bpf),
	STX(BPF_W, BPF_REG_6, BPF_REG_0, offsetof(struct loader_args, prog_fd)),
	MOV64_IMM(BPF_REG_0, 0),
	EXIT_INSN(),
};

/* The loader signed by key NAME, verified against keyring_id: fd or -errno */
static int load_signed_loader(const char *name, int keyring_id)
{
	const size_t sz = offsetofend(union bpf_attr, keyring_id);
	unsigned char *sig;
	union bpf_attr attr;
	int fd, len;

	len = cms_sign(name, loader_insns, sizeof(loader_insns), 0, &sig);
	if (len < 1)
		return -EINVAL;
	memset(&attr, 0, sz);
	attr.prog_type = BPF_PROG_TYPE_SYSCALL;
	attr.prog_flags = BPF_F_SLEEPABLE;
	attr.insns = (uintptr_t)loader_insns;
	attr.insn_cnt = ARRAY_LEN(loader_insns);
	attr.license = (uintptr_t)"GPL";
	attr.signature = (uintptr_t)sig;
	attr.signature_size = len;
	attr.keyring_id = keyring_id;
	attr.log_buf = (uintptr_t)vlog;
	attr.log_size = sizeof(vlog);
	attr.log_level = 1;
	vlog[0] = 0;
	fd = syscall(__NR_bpf, BPF_PROG_LOAD, &attr, sz);
	free(sig);
	return fd < 0 ? -errno : fd;
}

/* Run the loader: the child's fd, or -1 with errno of the child's load */
static int run_loader(int fd)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts);
	struct loader_args args = {
		.insns = { MOV64_IMM(BPF_REG_0, 0), EXIT_INSN() },
		.license = "GPL",
	};

	opts.ctx_in = &args;
	opts.ctx_size_in = sizeof(args);
	if (bpf_prog_test_run_opts(fd, &opts))
		return -errno;
	/* the child's fd, or -errno as bpf_sys_bpf() returned it */
	if (args.prog_fd < 0) {
		errno = -args.prog_fd;
		return -1;
	}
	return args.prog_fd;
}

struct racer {
	const char *val;
	volatile int *stop;
	int ok;
};

static void *race_writer(void *p)
{
	struct racer *r = p;

	do {
		if (!sysctl_write(ENFORCE, r->val, NULL, 0))
			r->ok++;
	} while (!*r->stop);
	return NULL;
}

/*
 * Its own boot, enforcement off at the start: a caller-keyring loader loaded
 * before enforcement, then enforcement raised while other writers try to
 * lower it.
 */
TEST_EXPLICIT(enforce_raised_under_race)
{
	volatile int stop = 0;
	struct racer low[2] = { { "0", &stop, 0 }, { "0", &stop, 0 } };
	pthread_t t[2];
	int builtin, user, child, i, ret;
	unsigned char *der;
	int len;

	len = cert_der("untrusted", &der);
	if (!ASSERT_GE(len, 1, "untrusted.crt"))
		return;
	ASSERT_OK(add_key("asymmetric", "bpfsign-untrusted", der, len, KEY_SPEC_SESSION_KEYRING),
		  "the caller's own certificate in its session keyring");
	free(der);
	ASSERT_EQ(enforce_value(), 0, "enforcement off at the start");
	builtin = load_signed_loader("signing", BUILTIN);
	if (!ASSERT_OK(builtin, "loader signed by a builtin key"))
		printf("#   log: %.300s\n", vlog);
	user = load_signed_loader("untrusted", KEY_SPEC_SESSION_KEYRING);
	if (!ASSERT_OK(user, "loader verified by the session keyring (enforcement off)"))
		printf("#   log: %.300s\n", vlog);
	child = run_loader(user);
	if (ASSERT_OK(child, "its child loads while enforcement is off"))
		close(child);

	/* two writers of 0 race one writer of 1 */
	for (i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, race_writer, &low[i]);
	usleep(20 * 1000);
	ret = sysctl_write(ENFORCE, "1", NULL, 0);
	ASSERT_EQ(ret, 0, "raise kernel.bpf_sig_enforce");
	for (i = 0; i < 1000; i++)
		if (!ASSERT_EQ(enforce_value(), 1, "no write of 0 undoes the 1 that returned"))
			break;
	stop = 1;
	for (i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	ASSERT_GE(low[0].ok + low[1].ok, 1, "the writers of 0 did run before the 1");
	ASSERT_EQ(enforce_value(), 1, "enforcement on after the race");

	/* the loader verdict that admits children follows the same keyring rule */
	child = run_loader(user);
	ASSERT_ERR(child, EPERM, "caller-keyring loader's child under enforcement");
	child = run_loader(builtin);
	if (ASSERT_OK(child, "builtin-keyring loader's child under enforcement"))
		close(child);
	close(user);
	close(builtin);
}
