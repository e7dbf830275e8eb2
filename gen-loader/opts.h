/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Commands and their option tables: the parser and the help text are
 * generated from the same table, so the usage cannot drift from the parser.
 */
#ifndef GEN_LOADER_OPTS_H
#define GEN_LOADER_OPTS_H

#include <stdbool.h>
#include <stdio.h>

#define OPTS_MAX 12

struct opt {
	const char *name;	/* "key" for --key */
	char short_name;	/* 'o' for -o, or 0 */
	const char *arg;	/* "KEY", or NULL for a flag */
	const char *help;
	bool required;
	int group;		/* nonzero: exactly one option of the group */
};

/* Exit codes shared by every command, listed in each command's --help. */
enum {
	EXIT_OK = 0,
	EXIT_FAIL = 1,		/* refused or failed, as the message says */
	EXIT_USAGE = 2,
	EXIT_REJECTED = 3,	/* the header does not verify */
	EXIT_MALFORMED = 4,	/* the header is not one gen-loader wrote */
};

struct parsed {
	const char *val[OPTS_MAX];	/* the argument, or "" for a flag */
	char **args;
	int nr_args;
};

struct cmd {
	const char *name;	/* NULL: the default command (no name) */
	int (*run)(const struct cmd *cmd, const struct parsed *p);
	const char *summary;
	const struct opt *opts;
	int nr_opts;
	const char *args;	/* "OBJ.bpf.o" */
	const char *exits;	/* the command's lines of "Exit status" */
};

/* 0: parsed; 1: --help printed; EXIT_USAGE: error printed with the usage. */
int opts_parse(const struct cmd *cmd, int argc, char **argv, struct parsed *p);
void opts_usage(FILE *f, const struct cmd *cmd);
void opts_help(FILE *f, const struct cmd *cmd);
int usage_error(const struct cmd *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif /* GEN_LOADER_OPTS_H */
