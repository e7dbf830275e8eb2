/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The guest test runner: tests register themselves with TEST(), assertions
 * name what broke, and main() prints TAP plus "N passed, N failed".
 */
#ifndef BPFSIGN_RUNNER_H
#define BPFSIGN_RUNNER_H

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

struct test {
	const char *name;
	void (*fn)(void);
	/* Run only when named on the command line (e.g. fault injection). */
	bool explicit_only;
};

#define __TEST(n, explicit)						\
	static void test_##n(void);					\
	static const struct test __test_##n				\
	__attribute__((used, section("bpfsign_tests"), aligned(8))) = {	\
		.name = #n, .fn = test_##n, .explicit_only = explicit,	\
	};								\
	static void test_##n(void)

#define TEST(n)			__TEST(n, false)
#define TEST_EXPLICIT(n)	__TEST(n, true)

void test_fail(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
bool test_failed(void);

#define FAIL(fmt, ...) test_fail(__FILE__, __LINE__, fmt, ##__VA_ARGS__)

#define ASSERT_TRUE(cond, what) ({					\
	bool ___ok = (cond);						\
	if (!___ok)							\
		FAIL("%s: expected true: %s", what, #cond);		\
	___ok;								\
})

#define ASSERT_EQ(got, exp, what) ({					\
	long long ___g = (long long)(got), ___e = (long long)(exp);	\
	bool ___ok = ___g == ___e;					\
	if (!___ok)							\
		FAIL("%s: got %lld, expected %lld", what, ___g, ___e);	\
	___ok;								\
})

#define ASSERT_GE(got, min, what) ({					\
	long long ___g = (long long)(got), ___m = (long long)(min);	\
	bool ___ok = ___g >= ___m;					\
	if (!___ok)							\
		FAIL("%s: got %lld, expected >= %lld", what, ___g, ___m);\
	___ok;								\
})

/* A libbpf-style call that must succeed: ret >= 0, else errno is shown. */
#define ASSERT_OK(ret, what) ({						\
	long long ___r = (long long)(ret);				\
	int ___e = errno;						\
	bool ___ok = ___r >= 0;						\
	if (!___ok)							\
		FAIL("%s: failed: %lld (errno %d, %s)", what, ___r, ___e,\
		     strerror(___e));					\
	___ok;								\
})

/*
 * A call that must fail with exactly -err: accepts both conventions, a
 * negative errno return (libbpf) or -1 with errno (raw syscall).
 */
#define ASSERT_ERR(ret, err, what) ({					\
	long long ___r = (long long)(ret);				\
	int ___e = ___r == -1 ? errno : (int)-___r;			\
	bool ___ok = ___r < 0 && ___e == (err);				\
	if (!___ok)							\
		FAIL("%s: got %lld/%s, expected -%s", what, ___r,	\
		     ___r < 0 ? (strerrorname_np(___e) ?: "?") : "success", \
		     strerrorname_np(err) ?: "?");			\
	___ok;								\
})

#define ASSERT_STREQ(got, exp, what) ({					\
	const char *___g = (got), *___x = (exp);			\
	bool ___ok = ___g && ___x && !strcmp(___g, ___x);		\
	if (!___ok)							\
		FAIL("%s: got \"%s\", expected \"%s\"", what,		\
		     ___g ? ___g : "(null)", ___x ? ___x : "(null)");	\
	___ok;								\
})

#define ASSERT_HAS(haystack, needle, what) ({				\
	const char *___h = (haystack), *___n = (needle);		\
	bool ___ok = ___h && strstr(___h, ___n);			\
	if (!___ok)							\
		FAIL("%s: \"%s\" not found in \"%s\"", what, ___n,	\
		     ___h ? ___h : "(null)");				\
	___ok;								\
})

#endif
