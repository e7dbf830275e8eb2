/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Commands and their option tables: the parser, the usage line and the help
 * text are generated from the same table, so the usage cannot drift from
 * what is parsed.  The program name and the exit codes are per command.
 */
#ifndef KIT_OPTS_H
#define KIT_OPTS_H

#include <stdbool.h>
#include <stdio.h>

#include "vocab.h"

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

#define OPTS_MAX 16

struct opt {
	const char *name;	/* "key" for --key */
	char short_name;	/* 'o' for -o, or 0 */
	const char *arg;	/* "KEY", or NULL for a flag */
	const char *help;
	bool required;
	int group;		/* nonzero: exactly one option of the group */
};

/* Exit codes, in --help order; err is the negative errno that maps to code. */
#define ERR_ANY  1	/* every errno without an entry of its own */
#define ERR_NONE 2	/* not an errno: usage, or a verdict of the command */

struct exit_code {
	int code;
	int err;
	const char *what;	/* continuation lines indented by 5 */
};

/* The exit codes, EXIT_*, are the kit's one vocabulary: vocab.h. */

struct parsed {
	const char *val[OPTS_MAX];	/* the argument, or "" for a flag */
	char **args;
	int nr_args;
};

struct cmd {
	const char *prog;	/* "bpfsign" */
	const char *name;	/* "verify", or NULL: the program's default command */
	int (*run)(const struct cmd *cmd, const struct parsed *p);
	const char *summary;
	const struct opt *opts;
	int nr_opts;
	const char *args;	/* "PAYLOAD...", "[NAME]", or NULL: none */
	int min_args;
	int max_args;		/* -1: no limit */
	const struct exit_code *exits;	/* ends with { 0, 0, NULL } */
};

/* 0: parsed; 1: --help printed; EXIT_USAGE: error printed with the usage. */
int opts_parse(const struct cmd *cmd, int argc, char **argv, struct parsed *p);
void opts_usage(FILE *f, const struct cmd *cmd);
void opts_help(FILE *f, const struct cmd *cmd);
/* "PROG CMD: fmt..." and the usage line on stderr; returns EXIT_USAGE. */
int usage_error(const struct cmd *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The exit code of a negative errno, from cmd->exits (1 without ERR_ANY). */
int exit_code(const struct cmd *cmd, int err);

#endif /* KIT_OPTS_H */
