// SPDX-License-Identifier: GPL-2.0
/*
 * bpfsign-policy: load, pin and inspect the kit's BPF LSM policies, and
 * check policy files.  Errors are printed here, once.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cmds.h"

#define BPFSIGN_POLICY_VERSION "1.0.0"

const struct exit_code policy_exits[] = { POLICY_EXITS, { 0, 0, NULL } };

static const struct cmd *const cmds[] = {
	&cmd_load, &cmd_unload, &cmd_status, &cmd_log, &cmd_check,
};

static void help(FILE *f)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cmds); i++)
		opts_usage(f, cmds[i]);
	fprintf(f, "       bpfsign-policy { --help | --version }\n\n"
		   "Policies: deny-unsigned, keyring-allowlist, audit-log.\n"
		   "Run 'bpfsign-policy COMMAND --help' for its options and exit codes.\n");
}

int main(int argc, char **argv)
{
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
		printf("bpfsign-policy %s\n", BPFSIGN_POLICY_VERSION);
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(cmds); i++)
		if (!strcmp(argv[1], cmds[i]->name))
			break;
	if (i == ARRAY_SIZE(cmds)) {
		kit_err(-EINVAL, "unknown command '%s'", argv[1]);	/* escaped */
		fprintf(stderr, "bpfsign-policy: %s\n", kit_last_error());
		help(stderr);
		return EXIT_USAGE;
	}
	ret = opts_parse(cmds[i], argc - 1, argv + 1, &p);
	if (ret)
		return ret == 1 ? 0 : ret;
	ret = cmds[i]->run(cmds[i], &p);
	if (ret < 0) {
		fprintf(stderr, "bpfsign-policy %s: %s\n", cmds[i]->name, kit_last_error());
		return exit_code(cmds[i], ret);
	}
	return ret;
}
