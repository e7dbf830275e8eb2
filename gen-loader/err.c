// SPDX-License-Identifier: GPL-2.0
/* The reason of the last failure, and libbpf's messages. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <bpf/libbpf.h>

#include "err.h"

static char last_error[1024];
static char libbpf_warning[512];
static int libbpf_verbose;

int gl_err(int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(last_error, sizeof(last_error), fmt, ap);
	va_end(ap);
	return err;
}

const char *gl_last_error(void)
{
	return last_error;
}

const char *gl_libbpf_warning(void)
{
	return libbpf_warning;
}

static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	va_list aq;
	size_t n;

	if (level == LIBBPF_WARN) {
		va_copy(aq, ap);
		vsnprintf(libbpf_warning, sizeof(libbpf_warning), fmt, aq);
		va_end(aq);
		n = strlen(libbpf_warning);
		if (n && libbpf_warning[n - 1] == '\n')
			libbpf_warning[n - 1] = '\0';
	}
	if (!libbpf_verbose)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

void gl_libbpf_print_init(int verbose)
{
	libbpf_verbose = verbose;
	libbpf_set_print(libbpf_print);
}
