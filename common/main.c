// SPDX-License-Identifier: GPL-2.0
/* The one main() of the kit's tools: dispatch, --help, --version, errors. */
#include <errno.h>
#include <string.h>

#include "err.h"
#include "main.h"

static void help(FILE *f, const struct prog *prog)
{
	int i;

	if (prog->help_head)
		fputs(prog->help_head, f);
	for (i = 0; i < prog->nr_cmds; i++)
		opts_usage(f, prog->cmds[i]);
	if (prog->help_tail)
		fputs(prog->help_tail, f);
}

static const struct cmd *find_cmd(const struct prog *prog, const char *name)
{
	int i;

	for (i = prog->first_is_default ? 1 : 0; i < prog->nr_cmds; i++)
		if (!strcmp(name, prog->cmds[i]->name))
			return prog->cmds[i];
	return NULL;
}

int prog_main(const struct prog *prog, int argc, char **argv)
{
	const struct cmd *cmd;
	struct parsed p;
	int ret;

	if (argc < 2) {
		help(stderr, prog);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		help(stdout, prog);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("%s %s\n", prog->name, prog->version);
		return 0;
	}
	cmd = find_cmd(prog, argv[1]);
	if (cmd) {
		/* the first match: "gen-loader attach verify" is attach */
		argc--;
		argv++;
	} else if (prog->first_is_default) {
		cmd = prog->cmds[0];
	} else {
		kit_err(-EINVAL, "unknown command '%s'", argv[1]);	/* escaped */
		fprintf(stderr, "%s: %s\n", prog->name, kit_last_error());
		help(stderr, prog);
		return EXIT_USAGE;
	}

	ret = opts_parse(cmd, argc, argv, &p);
	if (ret)
		return ret == 1 ? 0 : ret;
	ret = cmd->run(cmd, &p);
	if (ret < 0)
		fprintf(stderr, "%s%s%s: %s\n", prog->name, cmd->name ? " " : "",
			cmd->name ? cmd->name : "", kit_last_error());
	if (prog->done)
		prog->done(ret);
	return ret < 0 ? exit_code(cmd, ret) : ret;
}
