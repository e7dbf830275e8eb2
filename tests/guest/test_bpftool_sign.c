// SPDX-License-Identifier: GPL-2.0
/*
 * Light skeletons signed by the patched tree's bpftool (gen skeleton -L -S,
 * upstream's form), in the boot with bpf_sig_enforce=1: the kernel takes
 * them from the builtin keyring as it takes gen-loader's, and refuses a
 * changed metadata byte and a signature over the instructions only (the
 * form before load-time verification), each with EKEYREJECTED.
 */
#include <unistd.h>
#include <sys/syscall.h>

#include "runner.h"
#include "util.h"
#include "skel_counter_bt.lskel.h"
#include "skel_counter_bt_bad_data.lskel.h"
#include "skel_counter_bt_insns_only.lskel.h"

static char log_buf[16384];

TEST_EXPLICIT(bpftool_signed_enforced)
{
	struct skel_counter_bt *skel = skel_counter_bt__open();
	int i, err;

	if (!ASSERT_TRUE(skel, "open"))
		return;
	ASSERT_EQ(skel->keyring_id, 0, "bpftool's default keyring: builtin");
	err = skel_counter_bt__load(skel);
	if (!ASSERT_EQ(err, 0, "bpftool-signed skeleton loads under enforcement"))
		goto out;
	skel->bss->target_tgid = getpid();
	if (!ASSERT_OK(skel_counter_bt__attach(skel), "attach"))
		goto out;
	for (i = 0; i < 3; i++)
		syscall(SYS_getppid);
	ASSERT_EQ(skel->bss->hits, 3 * skel->data->step, "the program ran");
out:
	skel_counter_bt__destroy(skel);
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
