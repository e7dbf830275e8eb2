// SPDX-License-Identifier: GPL-2.0
/*
 * The ways around the signed-load guarantee that issue 14 closed, tried as
 * the attacker would: a caller keyring under enforcement, other write paths
 * to frozen maps, sizes at the edges, the kernel's own loader
 * (CONFIG_BPF_PRELOAD), unbalanced LSM hooks and echoed info fields; the
 * racing sysctl writers and a caller-keyring loader's children are in
 * test_enforce.c's enforce_sysctl_runtime.  Documentation/bpf/signing.rst
 * has the threat model.
 */
#include <fcntl.h>
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

/* the most a signed load may make the kernel copy and hash */
#define SIGNED_MAX (16u << 20)

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

/* upstream 3c56ee343f94 ("exclusive maps refused as bpf_map_elem iterator
 * targets"), in 0005
 */
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
