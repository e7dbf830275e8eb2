// SPDX-License-Identifier: GPL-2.0
/* Calls and errnos per operation, and named counters, printed as TAP
 * comments at the end: they show which checks the fuzzer reached.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fuzz.h"

#define MAX_ERRNO 600	/* ENOTSUPP (524) included */
#define MAX_OPS 96
#define MAX_NOTES 64

struct opstat {
	const char *name;
	u64 calls, ok;
	u32 err[MAX_ERRNO];
};

static struct opstat ops[MAX_OPS];
static int nops;
static struct { const char *name; u64 n; } notes[MAX_NOTES];
static int nnotes;

struct opstat *stat_of(const char *name)
{
	int i;

	for (i = 0; i < nops; i++)
		if (!strcmp(ops[i].name, name))
			return &ops[i];
	if (nops == MAX_OPS)
		abort();
	ops[nops].name = name;
	return &ops[nops++];
}

void stat_add(struct opstat *s, int err)
{
	s->calls++;
	if (!err)
		s->ok++;
	else if (err > 0 && err < MAX_ERRNO)
		s->err[err]++;
	else
		s->err[0]++;
}

void stat_note(const char *what)
{
	int i;

	for (i = 0; i < nnotes; i++)
		if (!strcmp(notes[i].name, what)) {
			notes[i].n++;
			return;
		}
	if (nnotes < MAX_NOTES)
		notes[nnotes++] = (typeof(notes[0])){ what, 1 };
}

static const char *errname(int e)
{
	static char buf[16];
	const char *n;

	if (!e)
		return "other";
	if (e == 524)
		return "ENOTSUPP";
	n = strerrorname_np(e);
	if (n)
		return n;
	snprintf(buf, sizeof(buf), "errno%d", e);
	return buf;
}

/* exact checks and escapes: per reason, "any outcome" or "any errno" */
static u64 exact, esc_any, esc_errno;
static struct { const char *why; bool any; u64 n; } escapes[MAX_NOTES];
static int nescapes;

void stat_check(const struct expect *e)
{
	bool any = e->kind == EXP_ANY;
	const char *why = e->why ? e->why : "(no reason)";
	int i;

	if (e->kind == EXP_OK || (e->kind == EXP_FAIL && e->err)) {
		exact++;
		return;
	}
	if (any)
		esc_any++;
	else
		esc_errno++;
	for (i = 0; i < nescapes; i++)
		if (escapes[i].any == any && !strcmp(escapes[i].why, why)) {
			escapes[i].n++;
			return;
		}
	if (nescapes < MAX_NOTES)
		escapes[nescapes++] = (typeof(escapes[0])){ why, any, 1 };
}

static struct { const char *name; u64 n; double s; } times[32];
static int ntimes;

void stat_time(const char *what, double s)
{
	int i;

	for (i = 0; i < ntimes && strcmp(times[i].name, what); i++)
		;
	if (i == ntimes) {
		if (ntimes == (int)ARRAY_SIZE(times))
			return;
		times[ntimes++] = (typeof(times[0])){ what, 0, 0 };
	}
	times[i].n++;
	times[i].s += s;
}

double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

void stats_summary(void)
{
	u64 all = exact + esc_any + esc_errno;

	printf("# checks: %llu exact, %llu escapes (%llu any outcome, %llu any errno), "
	       "%.1f%% exact\n", (unsigned long long)exact,
	       (unsigned long long)(esc_any + esc_errno), (unsigned long long)esc_any,
	       (unsigned long long)esc_errno, all ? 100.0 * exact / all : 100.0);
}

void stats_print(void)
{
	char line[1024];
	int i, e, len, best, done[MAX_ERRNO];

	for (i = 0; i < nops; i++) {
		struct opstat *s = &ops[i];

		len = snprintf(line, sizeof(line), "# op %s: %llu calls, ok %llu", s->name,
			       (unsigned long long)s->calls, (unsigned long long)s->ok);
		memset(done, 0, sizeof(done));
		/* errnos by count, most frequent first */
		for (;;) {
			best = -1;
			for (e = 0; e < MAX_ERRNO; e++)
				if (s->err[e] && !done[e] && (best < 0 || s->err[e] > s->err[best]))
					best = e;
			if (best < 0 || len >= (int)sizeof(line) - 40)
				break;
			done[best] = 1;
			len += snprintf(line + len, sizeof(line) - len, ", %s %u", errname(best),
					s->err[best]);
		}
		puts(line);
	}
	for (i = 0; i < nescapes; i++)
		printf("# escape (%s) %s: %llu\n", escapes[i].any ? "any outcome" : "any errno",
		       escapes[i].why, (unsigned long long)escapes[i].n);
	for (i = 0; i < nnotes; i++)
		printf("# count %s: %llu\n", notes[i].name, (unsigned long long)notes[i].n);
	for (i = 0; i < ntimes; i++)
		printf("# time of %s: %llu, %.1f ms each, %.1f s in all\n", times[i].name,
		       (unsigned long long)times[i].n, 1000 * times[i].s / times[i].n, times[i].s);
}
