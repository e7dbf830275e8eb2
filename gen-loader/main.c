// SPDX-License-Identifier: GPL-2.0
/*
 * gen-loader: a BPF object -> a signed light skeleton header, and the
 * offline audit of such headers.  Errors are printed here, once.
 */
#include <stdio.h>
#include <string.h>

#include "cmds.h"
#include "err.h"
#include "libbpfsign.h"

#define GEN_LOADER_VERSION "1.0.0"

static const struct cmd *const cmds[] = { &cmd_gen, &cmd_attach, &cmd_verify };

static void help(FILE *f)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cmds); i++)
		opts_usage(f, cmds[i]);
	fprintf(f, "       gen-loader { --help | --version }\n\n"
		   "Run 'gen-loader [attach | verify] --help' for the options and exit codes.\n");
}

int main(int argc, char **argv)
{
	const struct cmd *cmd = &cmd_gen;
	struct parsed p;
	size_t i;
	int ret;

	if (argc < 2) {
		help(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		help(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("gen-loader %s (libbpfsign %s)\n", GEN_LOADER_VERSION, BPFSIGN_VERSION);
		return 0;
	}
	for (i = 1; i < ARRAY_SIZE(cmds); i++) {
		if (!strcmp(argv[1], cmds[i]->name)) {
			cmd = cmds[i];
			argc--;
			argv++;
			break;	/* "attach verify" is attach with an argument */
		}
	}

	ret = opts_parse(cmd, argc, argv, &p);
	if (ret)
		return ret == 1 ? 0 : ret;
	ret = cmd->run(cmd, &p);
	if (ret < 0) {
		fprintf(stderr, "gen-loader%s%s: %s\n", cmd->name ? " " : "",
			cmd->name ? cmd->name : "", kit_last_error());
		return exit_code(cmd, ret);
	}
	return ret;
}
