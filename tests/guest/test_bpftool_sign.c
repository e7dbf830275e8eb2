// SPDX-License-Identifier: GPL-2.0
/*
 * Light skeletons signed by the patched tree's bpftool (gen skeleton -L -S,
 * upstream's form), in the boot with bpf_sig_enforce=1: the kernel takes
 * them from the builtin keyring as it takes gen-loader's, and refuses a
 * changed metadata byte and a signature over the instructions only (the
 * form before load-time verification), each with EKEYREJECTED.  So does
 * it take gen-loader's --no-trailer header of the same object, whose
 * payload and signature are bpftool's byte for byte (tests/host/bpftool).
 *
 * bpftool prog load -S signs the loader it generates at load time and adds
 * the certificate to the session keyring: verified against a caller keyring,
 * which bpf_sig_enforce does not trust.
 */
#include <stdio.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "audit.h"
#include "runner.h"
#include "util.h"
#include "skel_counter_bt.lskel.h"
#include "skel_counter_bt_bad_data.lskel.h"
#include "skel_counter_bt_insns_only.lskel.h"
#include "skel_counter_nt.lskel.h"
#include "skel_counter_nt_bad_data.lskel.h"

static char log_buf[16384];

/*
 * Load the light skeleton NAME from its default keyring, the builtin one,
 * attach it and expect it to count three getppid() calls of this process;
 * the skeletons differ in type only (loader.c's skel_counter_counts()).
 */
#define EXPECT_COUNTS(name, what)						\
	do {									\
		struct name *skel = name##__open();				\
		int i;								\
										\
		if (!ASSERT_TRUE(skel, "open " #name))				\
			break;							\
		ASSERT_EQ(skel->keyring_id, 0, "default keyring: builtin");	\
		if (ASSERT_EQ(name##__load(skel), 0, what)) {			\
			skel->bss->target_tgid = getpid();			\
			if (ASSERT_OK(name##__attach(skel), "attach")) {	\
				for (i = 0; i < 3; i++)				\
					syscall(SYS_getppid);			\
				ASSERT_EQ(skel->bss->hits, 3 * skel->data->step,	\
					  "the program ran");			\
			}							\
		}								\
		name##__destroy(skel);						\
	} while (0)

TEST_EXPLICIT(bpftool_signed_enforced)
{
	EXPECT_COUNTS(skel_counter_bt, "bpftool-signed skeleton loads under enforcement");
}

/* gen-loader --no-trailer: bpftool's signature, gen-loader's API, under enforcement */
TEST_EXPLICIT(gen_loader_no_trailer_enforced)
{
	EXPECT_COUNTS(skel_counter_nt, "--no-trailer skeleton loads under enforcement");
}

/*
 * Load the light skeleton NAME with the loader's verifier log, and expect
 * EKEYREJECTED and the log line; the skeletons differ in type only.
 */
#define EXPECT_REJECTED(name, what, log_line)					\
	do {									\
		struct name *skel = name##__open();				\
		int err;							\
										\
		if (!ASSERT_TRUE(skel, "open " #name))				\
			break;							\
		skel->ctx.log_buf = (long)log_buf;				\
		skel->ctx.log_size = sizeof(log_buf);				\
		skel->ctx.log_level = 1;					\
		err = name##__load(skel);					\
		ASSERT_EQ(err, -EKEYREJECTED, what);				\
		ASSERT_HAS(log_buf, log_line, "log line");			\
		name##__destroy(skel);						\
	} while (0)

/* the signature covers the metadata: one byte of opts_data flipped */
TEST_EXPLICIT(bpftool_signed_metadata_flipped)
{
	EXPECT_REJECTED(skel_counter_bt_bad_data, "a flipped metadata byte",
			"signature verification failed");
}

/* before load-time verification, bpftool signed the instructions only */
TEST_EXPLICIT(bpftool_signed_insns_only)
{
	EXPECT_REJECTED(skel_counter_bt_insns_only, "a signature over the instructions only",
			"signature verification failed (-129)");
}

/* the signature still covers all the metadata: one byte of data flipped */
TEST_EXPLICIT(gen_loader_no_trailer_metadata_flipped)
{
	EXPECT_REJECTED(skel_counter_nt_bad_data, "a flipped metadata byte (--no-trailer)",
			"signature verification failed");
}

/*
 * Run the guest's bpftool: prog load -S of skel_counter.bpf.o signed with
 * KEY, against CERT (in /tests/keys); its exit status, its output in OUT.
 * In a session keyring of its own: the certificate bpftool adds must not
 * reach the other tests' session keyring.
 */
static int bpftool_load_signed(const char *key, const char *cert, char *out, size_t len)
{
	char cmd[256];
	size_t n;
	FILE *f;
	int rc;

	snprintf(cmd, sizeof(cmd),
		 "keyctl session - bpftool prog load -S -k /tests/keys/%s -i /tests/keys/%s "
		 "/tests/skel_counter.bpf.o 2>&1", key, cert);
	f = popen(cmd, "r");
	if (!f)
		return -1;
	n = fread(out, 1, len - 1, f);
	out[n] = 0;
	rc = pclose(f);
	return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

/*
 * Expect bpftool prog load -S with KEY and CERT to exit 0, or else to fail
 * and print ERR; and the loader's audit record NEEDLE, or none at all.
 */
static void expect_prog_load(const char *key, const char *cert, const char *err,
			     const char *needle, const char *what)
{
	char out[4096], rec[1024];
	int afd = audit_open(), rc, found;

	if (!ASSERT_OK(afd, "register as the audit daemon"))
		return;
	rc = bpftool_load_signed(key, cert, out, sizeof(out));
	if (!err)
		ASSERT_EQ(rc, 0, what);
	else if (ASSERT_TRUE(rc > 0, what))
		ASSERT_HAS(out, err, "bpftool names the failure");
	found = audit_find(afd, needle ?: "op=LOAD", rec, sizeof(rec), 2000);
	if (needle)
		ASSERT_OK(found, "the loader's audit record");
	else
		ASSERT_TRUE(found < 0, "nothing reached BPF_PROG_LOAD");
	if (!found)
		printf("#   audit: %s\n", rec);
	if (test_failed())
		printf("# bpftool: %s\n", out);
	audit_close(afd);
}

/* prog load -S: the loader is verified against the certificate bpftool put in the session keyring */
TEST(bpftool_prog_load_signed)
{
	expect_prog_load("signing.key", "signing.crt", NULL,
			 "op=LOAD verdict=verified keyring=user", "bpftool prog load -S loads");
}

/*
 * Any key verifies against the session keyring it brings along: prog load -S
 * proves nothing unless enforcement or a policy decides which keyrings count.
 */
TEST(bpftool_prog_load_any_key)
{
	expect_prog_load("untrusted.key", "untrusted.crt", NULL,
			 "op=LOAD verdict=verified keyring=user", "prog load -S with an untrusted key");
}

/* OpenSSL's key/certificate match in bpftool: refused before any bpf() call */
TEST(bpftool_prog_load_key_mismatch)
{
	expect_prog_load("untrusted.key", "signing.crt", "failed to sign program", NULL,
			 "prog load -S with a key that is not the certificate's");
}

/* under bpf_sig_enforce=1 the session keyring is a caller keyring: EPERM, verdict kept */
TEST_EXPLICIT(bpftool_prog_load_enforced)
{
	expect_prog_load("signing.key", "signing.crt", "err -1\n",
			 "res=0 errno=-1 verdict=verified keyring=user",
			 "prog load -S refused under enforcement");
}
