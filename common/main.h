/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one main() of the kit's tools: `PROG COMMAND [OPTIONS] ARGS`,
 * `PROG --help`, `PROG --version`; the command's options parsed from its
 * table, its failure printed once ("PROG COMMAND: reason") and mapped to
 * its exit code.
 */
#ifndef KIT_MAIN_H
#define KIT_MAIN_H

#include <stdio.h>

#include "opts.h"

struct prog {
	const char *name;		/* "bpfsign" */
	const char *version;		/* "1.0.0 (OpenSSL 3.0.x)": after the name */
	const struct cmd *const *cmds;
	int nr_cmds;
	/* cmds[0] runs when the first argument names no other command
	 * (gen-loader OBJ ...); else that is a usage error */
	bool first_is_default;
	const char *help_head;		/* before the commands' usage lines, or NULL */
	const char *help_tail;		/* after them, or NULL */
	/* after a command ran (ret: its negative errno or exit code); a
	 * failure has been printed: e.g. add OpenSSL's error queue */
	void (*done)(int ret);
};

int prog_main(const struct prog *prog, int argc, char **argv);

#endif /* KIT_MAIN_H */
