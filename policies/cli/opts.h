/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Commands and their option tables: the parser and the help text are
 * generated from the same table, so the usage cannot drift from the parser.
 */
#ifndef BPFSIGN_POLICY_OPTS_H
#define BPFSIGN_POLICY_OPTS_H

#include <stdbool.h>
#include <stdio.h>

#define OPTS_MAX 8
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

struct opt {
	const char *name;	/* "policy" for --policy */
	const char *arg;	/* "FILE", or NULL for a flag */
	const char *help;
	bool required;
};

/* Exit codes of every command */
enum {
	EXIT_OK = 0,
	EXIT_FAIL = 1,		/* refused or failed, as the message says */
	EXIT_USAGE = 2,
	EXIT_INVALID = 3,	/* check: the policy file is malformed */
};

struct parsed {
	const char *val[OPTS_MAX];	/* the argument, or "" for a flag */
	char **args;
	int nr_args;
};

struct cmd {
	const char *name;
	int (*run)(const struct cmd *cmd, const struct parsed *p);
	const char *summary;
	const struct opt *opts;
	int nr_opts;
	const char *args;	/* "NAME", "[NAME]" or NULL */
	int min_args, max_args;
	const char *exits;	/* extra lines of "Exit status", or NULL */
};

/* 0: parsed; 1: --help printed; EXIT_USAGE: error printed with the usage. */
int opts_parse(const struct cmd *cmd, int argc, char **argv, struct parsed *p);
void opts_usage(FILE *f, const struct cmd *cmd);
void opts_help(FILE *f, const struct cmd *cmd);
int usage_error(const struct cmd *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif /* BPFSIGN_POLICY_OPTS_H */
