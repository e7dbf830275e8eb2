// SPDX-License-Identifier: GPL-2.0
/*
 * Upstream's documented admission policy (progs/admit.bpf.c, as
 * Documentation/bpf/signing.rst writes it) as a BPF LSM program on this
 * kernel: with the hook's bool kernel backported (kernel-patches/0044) it
 * denies an unsigned load, admits a builtin-keyring signature, admits a
 * caller-keyring signature only once its serial is allowlisted, trusts the
 * programs a signed loader loads (kernel == true) and not syscall loads
 * (kernel == false), and records each decision in its ring buffer.
 */
#include <keyutils.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/libbpf.h>

#include "runner.h"
#include "sign.h"
#include "util.h"
#include "admit.skel.h"
#include "skel_counter.lskel.h"
#include "skel_counter_untrusted.lskel.h"

/* enum bpf_sig_verdict and enum bpf_sig_keyring (include/linux/bpf.h) */
enum { SIG_UNSIGNED = 0, SIG_VERIFIED = 1, KEYRING_NONE = 0, KEYRING_BUILTIN = 1,
       KEYRING_USER = 4 };

/* struct decision of progs/admit.bpf.c */
struct decision { __u32 prog_type, verdict, ktype; __s32 serial, ret; };

struct log {
	struct decision d[16];
	int n;
};

static int on_decision(void *ctx, void *data, size_t len)
{
	struct log *log = ctx;

	if (len == sizeof(struct decision) && log->n < 16)
		memcpy(&log->d[log->n++], data, sizeof(struct decision));
	return 0;
}

/* The decisions logged since the last call. */
static int drain(struct ring_buffer *rb, struct log *log)
{
	log->n = 0;
	return ring_buffer__consume(rb);
}

static void expect_decision(const struct log *log, __u32 type, __u32 verdict, __u32 ktype,
			    __s32 serial, int ret, const char *what)
{
	const struct decision *d;

	if (!ASSERT_EQ(log->n, 1, what))
		return;
	d = &log->d[0];
	ASSERT_EQ(d->prog_type, type, what);
	ASSERT_EQ(d->verdict, verdict, what);
	ASSERT_EQ(d->ktype, ktype, what);
	ASSERT_EQ(d->serial, serial, what);
	ASSERT_EQ(d->ret, ret, what);
}

TEST(lsm_upstream_admit_example)
{
	static const struct bpf_insn ret0[] = { MOV64_IMM(BPF_REG_0, 0), EXIT_INSN() };
	struct skel_counter_untrusted *user = NULL;
	struct skel_counter *builtin = NULL;
	struct ring_buffer *rb = NULL;
	unsigned char *der = NULL;
	struct admit *a;
	struct log log = { 0 };
	key_serial_t key = -1;
	__s32 session;
	__u8 one = 1;
	int err, len;

	a = admit__open_and_load();
	if (!ASSERT_TRUE(a, "upstream's admit example loads (before it is attached)"))
		return;
	a->bss->target_tgid = getpid();
	rb = ring_buffer__new(bpf_map__fd(a->maps.audit), on_decision, &log, NULL);
	if (!ASSERT_TRUE(rb, "ring buffer of decisions"))
		goto out;
	len = cert_der("untrusted", &der);
	if (!ASSERT_GE(len, 1, "DER of untrusted.crt"))
		goto out;
	key = add_key("asymmetric", "admit-untrusted", der, len, KEY_SPEC_SESSION_KEYRING);
	if (!ASSERT_GE(key, 1, "untrusted.crt into the session keyring"))
		goto out;
	session = keyctl_get_keyring_ID(KEY_SPEC_SESSION_KEYRING, 0);
	if (!ASSERT_OK(admit__attach(a), "attach lsm/bpf_prog_load"))
		goto out;

	/* admit: an unsigned load is refused */
	err = load_prog(ret0, ARRAY_LEN(ret0), NULL);
	ASSERT_ERR(err, EPERM, "unsigned program refused");
	drain(rb, &log);
	expect_decision(&log, BPF_PROG_TYPE_SOCKET_FILTER, SIG_UNSIGNED, KEYRING_NONE, 0, -EPERM,
			"record of the unsigned load (load_prog)");
	ASSERT_EQ(a->bss->other_user, 1, "the unsigned load: kernel == false");

	/* admit: builtin keyring; the loader's children are in-kernel loads */
	builtin = skel_counter__open_and_load();
	ASSERT_TRUE(builtin, "builtin-signed skeleton admitted");
	drain(rb, &log);
	expect_decision(&log, BPF_PROG_TYPE_SYSCALL, SIG_VERIFIED, KEYRING_BUILTIN, 0, 0,
			"record of the signed loader");
	ASSERT_EQ(a->bss->loader_user, 1, "the loader: kernel == false");
	ASSERT_EQ(a->bss->loader_kernel, 0, "no loader from the kernel");
	ASSERT_GE(a->bss->other_kernel, 1, "the loader's programs: kernel == true");
	ASSERT_EQ(a->bss->other_user, 1, "no other syscall load");

	/* admit: a caller keyring, refused until its serial is allowlisted */
	user = skel_counter_untrusted__open();
	if (!ASSERT_TRUE(user, "open"))
		goto out;
	err = skel_counter_untrusted__load(user);
	ASSERT_EQ(err, -EPERM, "session-keyring signature, not allowlisted");
	drain(rb, &log);
	expect_decision(&log, BPF_PROG_TYPE_SYSCALL, SIG_VERIFIED, KEYRING_USER, session, -EPERM,
			"record of the refused session-keyring loader");
	skel_counter_untrusted__destroy(user);

	ASSERT_OK(bpf_map__update_elem(a->maps.trusted_user_keys, &session, sizeof(session),
				       &one, sizeof(one), BPF_ANY), "allowlist the session keyring");
	user = skel_counter_untrusted__open();
	if (!ASSERT_TRUE(user, "open"))
		goto out;
	err = skel_counter_untrusted__load(user);
	ASSERT_EQ(err, 0, "session-keyring signature, allowlisted");
	drain(rb, &log);
	expect_decision(&log, BPF_PROG_TYPE_SYSCALL, SIG_VERIFIED, KEYRING_USER, session, 0,
			"record of the admitted session-keyring loader");
out:
	skel_counter_untrusted__destroy(user);
	skel_counter__destroy(builtin);
	ring_buffer__free(rb);
	admit__destroy(a);
	if (key > 0)
		keyctl_unlink(key, KEY_SPEC_SESSION_KEYRING);
	free(der);
}
