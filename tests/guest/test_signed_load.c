// SPDX-License-Identifier: GPL-2.0
/*
 * Signed loading: the kernel verifies a PKCS#7 signature over
 * insns || metadata_0 || ... of the frozen, exclusive maps in fd_array.
 */
#include <pthread.h>
#include <stdlib.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <keyutils.h>
#include <bpf/btf.h>

#include "runner.h"
#include "util.h"
#include "sign.h"
#include "fixture.h"
#include "signed.h"
#include "loader.h"
#include "verdict.skel.h"
#include "audit.h"
#include "skel_counter.lskel.h"

/* KMALLOC_MAX_CACHE_SIZE on x86-64 with 4K pages */
#define MAX_SIG_SIZE 8192

TEST(signed_load_builtin_keyring_verdict)
{
	struct verdict *skel = verdict__open_and_load();
	struct load l;
	int fd;

	if (!ASSERT_TRUE(skel, "verdict LSM skeleton"))
		return;
	skel->bss->target_tgid = getpid();
	if (!ASSERT_OK(verdict__attach(skel), "attach lsm/bpf_prog_load"))
		goto out;
	if (!make_load(&l, 1, "signing", BUILTIN))
		goto out;
	expect_load(&l, 0, NULL, "signed load, keyring 0");
	ASSERT_EQ(skel->bss->seen, 1, "LSM saw the load");
	ASSERT_EQ(skel->bss->verdict, 1, "BPF_SIG_VERIFIED at security_bpf_prog_load");
	ASSERT_EQ(skel->bss->keyring, 1, "BPF_SIG_KEYRING_BUILTIN");
	ASSERT_EQ(skel->bss->serial, 0, "keyring_id 0");

	/* the same program unsigned: verdict UNSIGNED, load as before */
	drop_signature(&l);
	fd = sys_prog_load(&l);
	if (ASSERT_OK(fd, "unsigned load with the same fd_array"))
		close(fd);
	ASSERT_EQ(skel->bss->seen, 2, "LSM saw the unsigned load");
	ASSERT_EQ(skel->bss->verdict, 0, "BPF_SIG_UNSIGNED");
	ASSERT_EQ(skel->bss->keyring, 0, "no keyring");
	free_load(&l);
out:
	verdict__destroy(skel);
}

TEST(signed_load_ecdsa_and_two_metadata_maps)
{
	struct load l;

	if (make_load(&l, 2, "signing-ec", BUILTIN))
		expect_load(&l, 0, NULL, "P-256 signature over insns || meta0 || meta1");
	free_load(&l);
}

/*
 * Attacker: anyone holding one signature of a trusted key over bytes that
 * parse as a CMS signed-attribute SET. With signed attributes the key signs
 * only that SET, whose messageDigest names any program; so every signature
 * with signed attributes is refused, however good, over a program alone and
 * over insns || metadata alike (test_attack_round2_sig_key.c has the splice).
 */
TEST(signed_load_signed_attributes)
{
	const struct bpf_insn ret0[] = { MOV64_IMM(BPF_REG_0, 0), EXIT_INSN() };
	struct load l;
	int fd;

	if (make_load(&l, 1, "signing", BUILTIN)) {
		/* pins VERIFYING_BPF_SIGNATURE's refusal of signed attributes */
		if (sign_load(&l, "signing", 0, true))
			expect_load(&l, EKEYREJECTED, SIGNED_ATTRS_LOG,
				    "signed attributes over insns || metadata");
		/* the same load signed without them loads */
		if (sign_load(&l, "signing", 0, false))
			expect_load(&l, 0, NULL, "the same load, no signed attributes");
	}
	free_load(&l);

	if (make_load_insns(&l, ret0, ARRAY_LEN(ret0), 0, "signing", BUILTIN)) {
		/* pins the same refusal over a program's instructions alone */
		if (sign_load(&l, "signing", 0, true))
			expect_load(&l, EKEYREJECTED, SIGNED_ATTRS_LOG,
				    "signed attributes over a program");
		if (sign_load(&l, "signing", 0, false)) {
			fd = sys_prog_load(&l);
			if (ASSERT_GE(fd, 0, "the same program, no signed attributes"))
				close(fd);
		}
	}
	free_load(&l);
}

TEST(signed_load_loader_signed_attributes)
{
	__u32 progs = last_id(bpf_prog_get_next_id);
	int fd;

	/* pins the same refusal for a signed BPF_PROG_TYPE_SYSCALL loader */
	fd = load_signed_loader_form("signing", BUILTIN, true);
	if (fd >= 0)
		close(fd);
	ASSERT_EQ(fd, -EKEYREJECTED, "loader signed with signed attributes");
	ASSERT_HAS(vlog, SIGNED_ATTRS_LOG, "its verifier log");
	ASSERT_EQ(last_id(bpf_prog_get_next_id), progs, "no program left behind");
	fd = load_signed_loader_form("signing", BUILTIN, false);
	if (ASSERT_GE(fd, 0, "the same loader signed without them"))
		close(fd);
}

/* Signatures made on the host by other tools over tools/mkpayload's bytes */
static void host_signature(const char *file, int err, const char *log, const char *what)
{
	struct load l;

	if (!make_load(&l, 1, "signing", BUILTIN))
		return;
	free(l.sig);
	l.sig_len = read_file(file, &l.sig);
	if (ASSERT_GE(l.sig_len, 1, file))
		expect_load(&l, err, log, what);
	free_load(&l);
}

TEST(signed_load_openssl_cms_cli)
{
	host_signature("payload.openssl.p7s", 0, NULL, "openssl cms -sign -noattr signature");
	/* pins the signed-attributes refusal for openssl's own CLI output */
	host_signature("payload.openssl-attr.p7s", EKEYREJECTED, SIGNED_ATTRS_LOG,
		       "openssl cms -sign signature with attributes");
}

TEST(signed_load_sign_file)
{
	host_signature("payload.bin.p7s", 0, NULL, "scripts/sign-file -d signature");
}

TEST(signed_load_bpfsign)
{
	host_signature("payload.bpfsign.p7s", 0, NULL, "bpfsign sign signature");
}

TEST(signed_load_tampering)
{
	struct load l;

	if (!make_load(&l, 2, "signing", BUILTIN))
		return;
	expect_load(&l, 0, NULL, "untampered");

	/* last byte of the RSA signature value: parses, does not verify */
	l.sig[l.sig_len - 1] ^= 1;
	expect_load(&l, EKEYREJECTED, "signature verification failed", "flipped signature bit");
	l.sig[l.sig_len - 1] ^= 1;

	/* a DER length byte: the PKCS#7 parser rejects it */
	l.sig[1] ^= 0x40;
	expect_load(&l, EBADMSG, "signature verification failed", "malformed PKCS#7");
	l.sig[1] ^= 0x40;
	free_load(&l);

	/* flipped insn bit, maps exclusive to the flipped program: only the
	 * signature can tell
	 */
	if (!make_load(&l, 1, "signing", BUILTIN))
		return;
	close(l.fds[0]);
	l.insns[3].imm ^= 1;
	l.fds[0] = meta_map(l.insns, l.cnt, 0, true, true);
	expect_load(&l, EKEYREJECTED, "signature verification failed", "flipped insn bit");
	free_load(&l);

	/* flipped bit in each metadata map */
	for (int m = 0; m < 2; m++) {
		unsigned char value[META_SZ];
		int i, zero = 0;

		if (!make_load(&l, 2, "signing", BUILTIN))
			return;
		close(l.fds[m]);
		l.fds[m] = meta_map(l.insns, l.cnt, m, true, false);
		for (i = 0; i < META_SZ; i++)
			value[i] = fixture_meta(m, i) ^ (i == META_SZ - 1 ? 0x80 : 0);
		bpf_map_update_elem(l.fds[m], &zero, value, 0);
		bpf_map_freeze(l.fds[m]);
		expect_load(&l, EKEYREJECTED, "signature verification failed",
			    m ? "flipped bit in metadata 1" : "flipped bit in metadata 0");
		free_load(&l);
	}
}

TEST(signed_load_map_requirements)
{
	struct load l;
	int hash;

	if (!make_load(&l, 1, "signing", BUILTIN))
		return;
	close(l.fds[0]);

	/* exclusive and valid, only not frozen */
	l.fds[0] = meta_map(l.insns, l.cnt, 0, true, false);
	expect_load(&l, EPERM, "map 'meta0' is not frozen", "metadata map not frozen");
	close(l.fds[0]);

	/* frozen, but any program may use it */
	l.fds[0] = meta_map(l.insns, l.cnt, 0, false, true);
	expect_load(&l, EPERM, "map 'meta0' is not exclusive", "metadata map not exclusive");
	close(l.fds[0]);

	/* exclusive to another program: refused when it is bound */
	l.insns[3].imm ^= 1;
	l.fds[0] = meta_map(l.insns, l.cnt, 0, true, true);
	l.insns[3].imm ^= 1;
	expect_load(&l, EACCES, "program's hash doesn't match map's excl_prog_hash",
		    "metadata map exclusive to another digest");
	close(l.fds[0]);

	/* a hash map in fd_array */
	hash = bpf_map_create(BPF_MAP_TYPE_HASH, "hashmap", 4, 8, 1, NULL);
	l.fds[0] = hash;
	l.insns[0].src_reg = 0;	/* plain ld_imm64: nothing else refers to the map */
	expect_load(&l, EINVAL, "map 'hashmap' is not a single-element array", "non-array map");
	close(hash);

	/* a two-element array, exclusive and frozen */
	{
		LIBBPF_OPTS(bpf_map_create_opts, opts);
		unsigned char digest[32];

		prog_digest(l.insns, l.cnt, digest);
		opts.excl_prog_hash = digest;
		opts.excl_prog_hash_size = 32;
		l.fds[0] = bpf_map_create(BPF_MAP_TYPE_ARRAY, "twoelem", 4, META_SZ, 2, &opts);
		bpf_map_freeze(l.fds[0]);
		expect_load(&l, EINVAL, "map 'twoelem' is not a single-element array",
			    "two-element array");
		close(l.fds[0]);
	}
	l.nfds = 0;
	free_load(&l);
}

TEST(signed_load_binds_nothing_else)
{
	struct bpf_insn insns[] = FIXTURE_INSNS;
	struct load l;
	struct btf *btf;
	int extra;

	extra = bpf_map_create(BPF_MAP_TYPE_ARRAY, "extra", 4, 8, 1, NULL);

	/* validly signed, but reads fd_array[1] beyond fd_array_cnt = 1 */
	insns[0].imm = 1;
	if (make_load_insns(&l, insns, ARRAY_LEN(insns), 1, "signing", BUILTIN)) {
		l.fds[1] = extra;
		expect_load(&l, EACCES, "beyond fd_array_cnt", "sparse fd_array map");
	}
	free_load(&l);

	/* validly signed, but names a map by raw fd: the unsigned-binding
	 * refusal, -EACCES like the sparse index above (one errno family)
	 */
	insns[0].src_reg = BPF_PSEUDO_MAP_VALUE;
	insns[0].imm = extra;
	if (make_load_insns(&l, insns, ARRAY_LEN(insns), 1, "signing", BUILTIN))
		expect_load(&l, EACCES, "signed program cannot use map fd", "raw map fd");
	free_load(&l);
	close(extra);

	/* a BTF in a signed load's fd_array */
	btf = btf__new_empty();
	btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	if (!ASSERT_OK(btf__load_into_kernel(btf), "load BTF"))
		goto out;
	if (!make_load(&l, 1, "signing", BUILTIN))
		goto out;
	l.fds[1] = btf__fd(btf);
	l.nfds = 2;
	expect_load(&l, EACCES, "is a BTF, not a map", "BTF in fd_array");
	l.nfds = 1;
	free_load(&l);

	/* validly signed, but names a BTF by fd in an instruction (a ksym of
	 * that BTF): the refusal comes before the BTF is looked at, so
	 * -EACCES can only be the unsigned-binding one
	 */
	{
		struct bpf_insn ksym[] = FIXTURE_INSNS;

		ksym[0].src_reg = BPF_PSEUDO_BTF_ID;
		ksym[0].imm = 1;
		ksym[1].imm = btf__fd(btf);
		if (make_load_insns(&l, ksym, ARRAY_LEN(ksym), 1, "signing", BUILTIN))
			expect_load(&l, EACCES, "signed program cannot use BTF fd", "BTF fd");
		free_load(&l);
	}
out:
	btf__free(btf);
}

TEST(signed_load_bad_attrs)
{
	struct load l;
	unsigned char *sig;
	int len;

	if (!make_load(&l, 1, "signing", BUILTIN))
		return;
	len = l.sig_len;

	l.sig_len = 0;
	/* a signature pointer with no size */
	expect_load(&l, EINVAL, "invalid signature_size 0", "zero signature size");
	sig = calloc(1, MAX_SIG_SIZE + 1);
	memcpy(sig, l.sig, len);
	free(l.sig);
	l.sig = sig;
	l.sig_len = MAX_SIG_SIZE + 1;
	/* the same valid signature, declared one byte over the bound */
	expect_load(&l, EINVAL, "invalid signature_size", "oversized signature");
	l.sig_len = len;

	/* a serial no keyring has */
	l.keyring_id = 0x7ffffff0;
	expect_load(&l, EINVAL, "not found", "keyring id that does not exist");
	l.keyring_id = BUILTIN;
	free_load(&l);

	/* signed by a certificate the builtin keyring does not hold */
	if (make_load(&l, 1, "untrusted", BUILTIN))
		expect_load(&l, ENOKEY, "signature verification failed", "untrusted signer");
	free_load(&l);
}

/* "usage" of key serial in /proc/keys */
static int key_usage(key_serial_t serial)
{
	char line[512];
	int usage = -1;
	FILE *f = fopen("/proc/keys", "r");

	while (f && fgets(line, sizeof(line), f)) {
		unsigned int s;
		char flags[16];

		if (sscanf(line, "%x %15s %d", &s, flags, &usage) == 3 && (key_serial_t)s == serial)
			break;
		usage = -1;
	}
	if (f)
		fclose(f);
	return usage;
}

static key_serial_t find_keyring(const char *desc)
{
	char line[512];
	key_serial_t found = -1;
	FILE *f = fopen("/proc/keys", "r");

	while (f && fgets(line, sizeof(line), f)) {
		unsigned int s;

		if (strstr(line, desc) && sscanf(line, "%x", &s) == 1) {
			found = s;
			break;
		}
	}
	if (f)
		fclose(f);
	return found;
}

TEST(signed_load_session_keyring_and_revocation)
{
	unsigned char *der;
	key_serial_t key;
	struct load l;
	int len, usage;

	len = cert_der("untrusted", &der);
	if (!ASSERT_GE(len, 1, "untrusted.crt"))
		return;
	key = add_key("asymmetric", "bpfsign-untrusted", der, len, KEY_SPEC_SESSION_KEYRING);
	free(der);
	if (!ASSERT_OK(key, "keyctl padd asymmetric into the session keyring"))
		return;
	if (!make_load(&l, 1, "untrusted", KEY_SPEC_SESSION_KEYRING))
		return;
	expect_load(&l, 0, NULL, "session keyring");

	/* a rejected load drops the references it took on keyring and key */
	{
		key_serial_t session = keyctl_get_keyring_ID(KEY_SPEC_SESSION_KEYRING, 0);
		int session_usage = key_usage(session);

		usage = key_usage(key);
		l.sig[l.sig_len - 1] ^= 1;
		expect_load(&l, EKEYREJECTED, "signature verification failed",
			    "tampered, session keyring");
		l.sig[l.sig_len - 1] ^= 1;
		ASSERT_EQ(key_usage(key), usage, "key usage count unchanged");
		ASSERT_EQ(key_usage(session), session_usage, "keyring usage count unchanged");
	}

	/* the builtin keyring does not hold the session's key */
	l.keyring_id = BUILTIN;
	expect_load(&l, ENOKEY, "signature verification failed", "session key, builtin keyring");

	/* the same load as the first one, after revocation: only it differs */
	ASSERT_OK(keyctl_revoke(key), "keyctl revoke");
	l.keyring_id = KEY_SPEC_SESSION_KEYRING;
	expect_load(&l, EKEYREVOKED, "signature verification failed", "revoked key");
	free_load(&l);
}

TEST(signed_load_secondary_keyring)
{
	key_serial_t secondary = find_keyring(".secondary_trusted_keys");
	unsigned char *der;
	struct load l;
	int len;

	if (!ASSERT_GE(secondary, 1, ".secondary_trusted_keys in /proc/keys"))
		return;
	if (!make_load(&l, 1, "team", SECONDARY))
		return;
	/* not enrolled yet */
	expect_load(&l, ENOKEY, "signature verification failed", "team key before enrolment");

	len = cert_der("team", &der);
	ASSERT_OK(add_key("asymmetric", "bpfsign-team", der, len, secondary),
		  "enrol a CA-signed cert into .secondary_trusted_keys");
	free(der);
	expect_load(&l, 0, NULL, "team key, keyring 1");

	/* keyring 0 is builtin only */
	l.keyring_id = BUILTIN;
	expect_load(&l, ENOKEY, "signature verification failed", "team key, keyring 0");
	free_load(&l);
}

struct writer {
	int fd;
	volatile bool stop;
};

static void *hammer(void *arg)
{
	struct writer *w = arg;
	unsigned char value[META_SZ] = {};
	int zero = 0;

	/* each attempt on the frozen map fails, but counts as a write in flight */
	while (!w->stop)
		bpf_map_update_elem(w->fd, &zero, value, 0);
	return NULL;
}

TEST(signed_load_write_in_flight)
{
	struct writer w = {};
	struct timespec t0, t;
	pthread_t thr;
	struct load l;
	int fd, seen = 0, tries = 0;

	if (!make_load(&l, 1, "signing", BUILTIN))
		return;
	fd = sys_prog_load(&l);
	if (!ASSERT_OK(fd, "signed load without a writer"))
		goto out;
	close(fd);
	/* A malformed PKCS#7 fails fast after the map checks (EBADMSG): more
	 * tries per second than an RSA verification each, so that the writer's
	 * short window is met in time on a loaded host as well.
	 */
	l.sig[1] ^= 0x40;
	w.fd = l.fds[0];
	pthread_create(&thr, NULL, hammer, &w);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		fd = sys_prog_load(&l);
		tries++;
		if (fd < 0 && errno == EPERM && strstr(vlog, "has a write in flight")) {
			seen = 1;
		} else if (fd >= 0 || errno != EBADMSG) {
			FAIL("unexpected result %d (%s) under a racing writer", fd, strerror(errno));
			if (fd >= 0)
				close(fd);
			break;
		}
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while (!seen && t.tv_sec - t0.tv_sec < 30);
	w.stop = true;
	pthread_join(thr, NULL);
	printf("#   %d loads until a write in flight was seen\n", tries);
	ASSERT_TRUE(seen, "-EPERM \"has a write in flight\" within 30 s");
out:
	free_load(&l);
}

/* The AUDIT_BPF record of each decision, as an audit daemon receives it */
TEST(signed_load_audit_records)
{
	const struct bpf_insn insns[] = FIXTURE_INSNS;
	char rec[1024], want[160], hex[65];
	unsigned char digest[32];
	int fd = audit_open(), i, prog;
	struct load l;

	if (!ASSERT_OK(fd, "register as the audit daemon"))
		return;
	prog_digest(insns, ARRAY_LEN(insns), digest);
	for (i = 0; i < 32; i++)
		sprintf(hex + 2 * i, "%02x", digest[i]);
	if (!make_load(&l, 1, "signing", BUILTIN))
		goto out;

	prog = sys_prog_load(&l);
	if (ASSERT_OK(prog, "signed load"))
		close(prog);
	snprintf(want, sizeof(want),
		 "op=LOAD verdict=verified keyring=builtin keyring-serial=0 digest=%s", hex);
	if (ASSERT_OK(audit_find(fd, want, rec, sizeof(rec), 2000), "record of a verified load"))
		printf("#   audit: %s\n", rec);

	l.sig[l.sig_len - 1] ^= 1;
	sys_prog_load(&l);
	/* denied after the digest was computed: errno, verdict and digest */
	snprintf(want, sizeof(want), "prog-id=0 op=LOAD res=0 errno=-%d verdict=rejected",
		 EKEYREJECTED);
	if (ASSERT_OK(audit_find(fd, want, rec, sizeof(rec), 2000), "record of a denied load")) {
		ASSERT_HAS(rec, hex, "denied record names the digest");
		printf("#   audit: %s\n", rec);
	}

	drop_signature(&l);
	prog = sys_prog_load(&l);
	if (ASSERT_OK(prog, "unsigned load"))
		close(prog);
	ASSERT_OK(audit_find(fd, "op=LOAD verdict=unsigned keyring=none", rec, sizeof(rec), 2000),
		  "record of an unsigned load");
	free_load(&l);

	/* a signed light skeleton: its children name the verified loader */
	{
		struct skel_counter *skel = skel_counter__open_and_load();

		if (ASSERT_TRUE(skel, "signed skeleton")) {
			if (ASSERT_OK(audit_find(fd, "loader-verdict=verified", rec, sizeof(rec), 2000),
				      "record of a verified loader's child"))
				printf("#   audit: %s\n", rec);
			skel_counter__destroy(skel);
		}
	}
out:
	audit_close(fd);
}
