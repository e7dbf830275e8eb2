// SPDX-License-Identifier: GPL-2.0
/*
 * Guest test runner.  Usage: bpfsign-tests [--list] [NAME...]
 * With names, only those tests run (explicit-only ones included).
 */
#include <stdarg.h>
#include <stdlib.h>
#include <unistd.h>
#include <bpf/libbpf.h>

#include "runner.h"

extern const struct test __start_bpfsign_tests[], __stop_bpfsign_tests[];

static bool cur_failed;

void test_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	cur_failed = true;
	printf("#   %s:%d: ", file, line);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

bool test_failed(void)
{
	return cur_failed;
}

/* libbpf's warnings and the verifier logs it prints, as TAP comments. */
static int print_libbpf(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	/* whole verifier and BTF logs come in one call */
	static char buf[65536];
	char *line, *save;

	if (level == LIBBPF_DEBUG)
		return 0;
	vsnprintf(buf, sizeof(buf), fmt, ap);
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		printf("#   libbpf: %s\n", line);
	return 0;
}

/* Fault injection adds its test "inject_<what>" to any selection. */
static bool injected(const struct test *t)
{
	const char *inject = getenv("BPFSIGN_INJECT");

	return inject && *inject && !strncmp(t->name, "inject_", 7) &&
	       !strcmp(t->name + 7, inject);
}

static void run_one(const struct test *t, int n, int *passed, int *failed)
{
	cur_failed = false;
	printf("# %s\n", t->name);
	t->fn();
	printf("%s %d - %s\n", cur_failed ? "not ok" : "ok", n, t->name);
	if (cur_failed)
		(*failed)++;
	else
		(*passed)++;
}

int main(int argc, char **argv)
{
	const struct test *t;
	int n = 0, passed = 0, failed = 0, i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	libbpf_set_print(print_libbpf);
	argc--, argv++;
	if (argc && !strcmp(argv[0], "--list")) {
		for (t = __start_bpfsign_tests; t < __stop_bpfsign_tests; t++)
			printf("%s%s\n", t->name, t->explicit_only ? " (explicit)" : "");
		return 0;
	}
	/* A named test that does not exist must not pass silently. */
	for (i = 0; i < argc; i++) {
		for (t = __start_bpfsign_tests; t < __stop_bpfsign_tests; t++)
			if (!strcmp(argv[i], t->name))
				break;
		if (t == __stop_bpfsign_tests && strcmp(argv[i], "all")) {
			printf("not ok %d - %s # no such test\n", ++n, argv[i]);
			failed++;
		}
	}
	/* Named tests run in the order given ("all": every default test),
	 * then any injected fault.
	 */
	for (i = 0; i < argc; i++)
		for (t = __start_bpfsign_tests; t < __stop_bpfsign_tests; t++)
			if (!strcmp(argv[i], t->name) ||
			    (!strcmp(argv[i], "all") && !t->explicit_only))
				run_one(t, ++n, &passed, &failed);
	for (t = __start_bpfsign_tests; t < __stop_bpfsign_tests; t++)
		if (injected(t) || (!argc && !t->explicit_only))
			run_one(t, ++n, &passed, &failed);
	printf("1..%d\n", n);
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
