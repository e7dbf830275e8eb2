// SPDX-License-Identifier: GPL-2.0
/*
 * gen-loader: a BPF object -> a signed light skeleton header, and the
 * offline audit of such headers.  Errors are printed once, by prog_main()
 * (common/main.c).
 */
#include "cmds.h"
#include "libbpfsign.h"
#include "main.h"

/* cmd_gen first: the command of `gen-loader OBJ ...` */
static const struct cmd *const cmds[] = { &cmd_gen, &cmd_attach, &cmd_verify, &cmd_inspect };

int main(int argc, char **argv)
{
	const struct prog prog = {
		.name = "gen-loader",
		.version = KIT_VERSION " (libbpfsign " BPFSIGN_VERSION ")",
		.cmds = cmds,
		.nr_cmds = ARRAY_SIZE(cmds),
		.first_is_default = true,
		.help_tail = "       gen-loader { --help | --version }\n\n"
			     "Run 'gen-loader [attach | verify | inspect] --help' for the options and exit codes.\n",
	};

	return prog_main(&prog, argc, argv);
}
