// SPDX-License-Identifier: GPL-2.0
/* The harness itself: a program runs, the kernel is ours, failures count. */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "runner.h"
#include "basic.skel.h"

TEST(prog_test_run)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts);
	struct basic *skel;

	skel = basic__open_and_load();
	if (!ASSERT_TRUE(skel, "basic__open_and_load"))
		return;
	if (ASSERT_OK(bpf_prog_test_run_opts(bpf_program__fd(skel->progs.basic), &opts),
		      "test_run")) {
		ASSERT_EQ(opts.retval, 42, "retval (value + 2)");
		ASSERT_EQ(skel->bss->runs, 1, "runs seen through the mmaped .bss");
	}
	basic__destroy(skel);
}

TEST(kernel_release)
{
	struct utsname u;
	char want[128] = "";
	FILE *f;

	f = fopen("kernelrelease", "r");
	if (!ASSERT_TRUE(f, "open kernelrelease written at build time"))
		return;
	if (fscanf(f, "%127s", want) != 1)
		FAIL("kernelrelease is empty");
	fclose(f);
	uname(&u);
	ASSERT_STREQ(u.release, want, "uname -r is the patched build");
	ASSERT_HAS(u.release, "-bpfsign", "release carries the kit's LOCALVERSION");
}

/* BPFSIGN_INJECT=fail: proves that one failing case fails the whole run. */
TEST_EXPLICIT(inject_fail)
{
	FAIL("deliberate failure (BPFSIGN_INJECT=fail)");
}

/* Write an lkdtm crash type, as the kernel's own self-tests provoke them */
static void lkdtm(const char *what)
{
	int fd = open("/sys/kernel/debug/provoke-crash/DIRECT", O_WRONLY);

	if (!ASSERT_OK(fd, "open lkdtm DIRECT"))
		return;
	ASSERT_EQ(write(fd, what, strlen(what)), (long)strlen(what), what);
	close(fd);
}

/* BPFSIGN_INJECT=warn: a real kernel WARNING, which the host must catch. */
TEST_EXPLICIT(inject_warn)
{
	lkdtm("WARNING");
}

/* BPFSIGN_INJECT=kasan: a real KASAN report (debug kernel), the host must catch it */
TEST_EXPLICIT(inject_kasan)
{
	lkdtm("READ_AFTER_FREE");
}

/* BPFSIGN_INJECT=leak: kmemleak's sample module leaks on load; /init's
 * kmemleak scan at the end of the boot must report it
 */
TEST_EXPLICIT(inject_leak)
{
	int fd = open("/tests/kmemleak-test.ko", O_RDONLY);

	if (!ASSERT_OK(fd, "kmemleak-test.ko (debug kernel)"))
		return;
	ASSERT_OK(syscall(SYS_finit_module, fd, "", 0), "load kmemleak-test");
	close(fd);
}
