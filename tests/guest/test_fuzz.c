// SPDX-License-Identifier: GPL-2.0
/*
 * The syscall fuzzer (tests/fuzz): /tests/bpfsign-fuzz with the seed and the
 * time bound from BPFSIGN_FUZZ_SEED and BPFSIGN_FUZZ_SECONDS (kernel command
 * line parameters reach /init as environment variables; defaults 1 and 60),
 * and for a replay BPFSIGN_FUZZ_OPS (--ops) and BPFSIGN_FUZZ_VERBOSE=1.
 * With BPFSIGN_FUZZ_POLICY unset, first the same seed in policy mode
 * (--policy: the LSM policies attached), then the plain run.  It may raise
 * kernel.bpf_sig_enforce, which cannot be undone: a boot of its own.  Its
 * output becomes TAP comments; a broken invariant fails the test with the
 * seed to reproduce it.
 */
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runner.h"

/* One run of bpfsign-fuzz; false if it failed (the test has failed then). */
static bool fuzz_run(const char *seed, const char *seconds, const char *ops, bool verbose,
		     bool policy)
{
	char *argv[12], line[1024], last[1024] = "";
	int argc = 0;
	int fds[2], status;
	pid_t pid;
	FILE *out;

	argv[argc++] = "bpfsign-fuzz";
	argv[argc++] = "--seed";
	argv[argc++] = (char *)seed;
	argv[argc++] = "--seconds";
	argv[argc++] = (char *)seconds;
	if (ops && *ops) {
		argv[argc++] = "--ops";
		argv[argc++] = (char *)ops;
	}
	if (policy)
		argv[argc++] = "--policy";
	if (verbose)
		argv[argc++] = "--verbose";
	argv[argc] = NULL;
	if (!ASSERT_OK(pipe(fds), "pipe"))
		return false;
	fflush(stdout);
	pid = fork();
	if (!pid) {
		dup2(fds[1], 1);
		dup2(fds[1], 2);
		close(fds[0]);
		close(fds[1]);
		execv("/tests/bpfsign-fuzz", argv);
		printf("exec /tests/bpfsign-fuzz: %s\n", strerror(errno));
		_exit(127);
	}
	close(fds[1]);
	if (!ASSERT_GE(pid, 1, "fork"))
		return false;
	out = fdopen(fds[0], "r");
	while (out && fgets(line, sizeof(line), out)) {
		line[strcspn(line, "\n")] = 0;
		printf("#   %s\n", line[0] == '#' && line[1] == ' ' ? line + 2 : line);
		snprintf(last, sizeof(last), "%s", line);
	}
	if (out)
		fclose(out);
	if (!ASSERT_EQ(waitpid(pid, &status, 0), pid, "waitpid"))
		return false;
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		FAIL("bpfsign-fuzz seed %s%s failed (%s %d): make fuzz-kernel SEED=%s SECONDS=%s "
		     "POLICY=%d reproduces it", seed, policy ? " (policy mode)" : "",
		     WIFEXITED(status) ? "exit" : "signal",
		     WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status), seed, seconds,
		     policy);
		return false;
	}
	return ASSERT_HAS(last, ": ok", "bpfsign-fuzz's last line");
}

/*
 * BPFSIGN_FUZZ_POLICY: 0 the plain run only, 1 the policy mode only;
 * unset, both: the policy mode for a third of the time (its policies stay
 * attached only while it runs), then the plain run.
 */
TEST_EXPLICIT(fuzz_syscalls)
{
	const char *seed = getenv("BPFSIGN_FUZZ_SEED") ?: "1";
	const char *seconds = getenv("BPFSIGN_FUZZ_SECONDS") ?: "60";
	const char *ops = getenv("BPFSIGN_FUZZ_OPS");
	const char *verbose = getenv("BPFSIGN_FUZZ_VERBOSE");
	const char *policy = getenv("BPFSIGN_FUZZ_POLICY");
	bool v = verbose && *verbose && strcmp(verbose, "0");
	double total = strtod(seconds, NULL);
	char plain_s[32], policy_s[32];

	if (policy && *policy) {
		fuzz_run(seed, seconds, ops, v, strcmp(policy, "0"));
		return;
	}
	snprintf(plain_s, sizeof(plain_s), "%.0f", total - total / 3);
	snprintf(policy_s, sizeof(policy_s), "%.0f", total / 3);
	/* policy mode first: it never raises enforcement, the plain run may;
	 * the plain run also after a failure, whose report stays
	 */
	fuzz_run(seed, policy_s, ops, v, true);
	fuzz_run(seed, plain_s, ops, v, false);
}
