/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Option tables: the parser and the help text are generated from the same
 * table, so the usage cannot drift from what is parsed.
 */
#ifndef BPFSIGN_OPTS_H
#define BPFSIGN_OPTS_H

#include <stdbool.h>
#include <stdio.h>

#define OPTS_MAX 8

struct opt {
	const char *name;	/* "key" for --key */
	const char *arg;	/* "KEY", or NULL for a flag */
	const char *help;
	bool required;
	int group;		/* nonzero: exactly one option of the group */
};

/* Exit codes, in --help order; err is the errno that maps to the code. */
#define ERR_ANY  1	/* every errno without an entry of its own */
#define ERR_NONE 2	/* not an errno: usage, or a verdict of the command */

struct exit_code {
	int code;
	int err;
	const char *what;
};

struct cmd {
	const char *name;
	int (*run)(const struct cmd *cmd, int argc, char **argv);
	const char *summary;
	const struct opt *opts;
	int nr_opts;
	const char *args;	/* "PAYLOAD..." */
	int min_args;
	int max_args;		/* -1: no limit */
	const struct exit_code *exits;	/* ends with { 0, 0, NULL } */
};

struct parsed {
	const char *val[OPTS_MAX];	/* the argument, or "" for a flag */
	char **args;
	int nr_args;
};

#define EXIT_USAGE 2

/* 0: parsed; 1: --help printed; EXIT_USAGE: error printed with usage. */
int opts_parse(const struct cmd *cmd, int argc, char **argv, struct parsed *p);
void opts_usage(FILE *f, const struct cmd *cmd);
void opts_help(FILE *f, const struct cmd *cmd);
int usage_error(const struct cmd *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The exit code for a negative errno, from cmd->exits. */
int exit_code(const struct cmd *cmd, int err);

#endif /* BPFSIGN_OPTS_H */
