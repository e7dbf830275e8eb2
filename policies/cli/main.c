// SPDX-License-Identifier: GPL-2.0
/*
 * bpfsign-policy: load, pin and inspect the kit's BPF LSM policies, and
 * check policy files.  Errors are printed once, by prog_main()
 * (common/main.c).
 */
#include "cmds.h"
#include "main.h"

const struct exit_code policy_exits[] = { POLICY_EXITS, { 0, 0, NULL } };

static const struct cmd *const cmds[] = {
	&cmd_load, &cmd_unload, &cmd_status, &cmd_log, &cmd_check, &cmd_audit,
};

int main(int argc, char **argv)
{
	const struct prog prog = {
		.name = "bpfsign-policy",
		.version = KIT_VERSION,
		.cmds = cmds,
		.nr_cmds = ARRAY_SIZE(cmds),
		.help_tail = "       bpfsign-policy { --help | --version }\n\n"
			     "Policies: deny-unsigned, keyring-allowlist, audit-log.\n"
			     "Run 'bpfsign-policy COMMAND --help' for its options and exit codes.\n",
	};

	return prog_main(&prog, argc, argv);
}
