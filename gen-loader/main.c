// SPDX-License-Identifier: GPL-2.0
/*
 * gen-loader: a BPF object -> a signed light skeleton header, and the
 * offline audit of such headers.  Errors are printed once, by prog_main()
 * (common/main.c).
 */
#include "cmds.h"
#include "libbpfsign.h"
#include "main.h"

#define GEN_LOADER_VERSION "1.0.0"

/* cmd_gen first: the command of `gen-loader OBJ ...` */
static const struct cmd *const cmds[] = { &cmd_gen, &cmd_attach, &cmd_verify };

int main(int argc, char **argv)
{
	const struct prog prog = {
		.name = "gen-loader",
		.version = GEN_LOADER_VERSION " (libbpfsign " BPFSIGN_VERSION ")",
		.cmds = cmds,
		.nr_cmds = ARRAY_SIZE(cmds),
		.first_is_default = true,
		.help_tail = "       gen-loader { --help | --version }\n\n"
			     "Run 'gen-loader [attach | verify] --help' for the options and exit codes.\n",
	};

	return prog_main(&prog, argc, argv);
}
