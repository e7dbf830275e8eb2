// SPDX-License-Identifier: GPL-2.0
/* Parse a command's options from its table, and print its help from it. */
#include <getopt.h>
#include <stdarg.h>
#include <string.h>

#include "opts.h"

#define OPT_HELP 1000

static void opt_str(char *buf, size_t size, const struct opt *o)
{
	if (o->arg)
		snprintf(buf, size, "--%s %s", o->name, o->arg);
	else
		snprintf(buf, size, "--%s", o->name);
}

/* Usage: bpfsign-policy load [--policy FILE] [--pin-dir DIR] NAME */
void opts_usage(FILE *f, const struct cmd *cmd)
{
	char s[128];
	int i;

	fprintf(f, "Usage: bpfsign-policy %s", cmd->name);
	for (i = 0; i < cmd->nr_opts; i++) {
		opt_str(s, sizeof(s), &cmd->opts[i]);
		fprintf(f, cmd->opts[i].required ? " %s" : " [%s]", s);
	}
	if (cmd->args)
		fprintf(f, " %s", cmd->args);
	fputc('\n', f);
}

void opts_help(FILE *f, const struct cmd *cmd)
{
	int i, w = (int)strlen("--help");
	char s[128];

	for (i = 0; i < cmd->nr_opts; i++) {
		opt_str(s, sizeof(s), &cmd->opts[i]);
		if ((int)strlen(s) > w)
			w = (int)strlen(s);
	}
	opts_usage(f, cmd);
	fprintf(f, "\n%s\n\nOptions:\n", cmd->summary);
	for (i = 0; i < cmd->nr_opts; i++) {
		opt_str(s, sizeof(s), &cmd->opts[i]);
		fprintf(f, "  %-*s  %s\n", w, s, cmd->opts[i].help);
	}
	fprintf(f, "  %-*s  %s\n", w, "--help", "print this help and exit");
	fprintf(f, "\nExit status:\n"
		   "  0  success\n"
		   "  1  failed or refused, as the message says\n"
		   "  2  usage error\n%s", cmd->exits ? cmd->exits : "");
}

int usage_error(const struct cmd *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "bpfsign-policy %s: ", cmd->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	opts_usage(stderr, cmd);
	return EXIT_USAGE;
}

int opts_parse(const struct cmd *cmd, int argc, char **argv, struct parsed *p)
{
	struct option lopts[OPTS_MAX + 2] = { 0 };
	int i, c;

	memset(p, 0, sizeof(*p));
	if (cmd->nr_opts > OPTS_MAX)
		return usage_error(cmd, "too many options in the table");
	for (i = 0; i < cmd->nr_opts; i++) {
		lopts[i].name = cmd->opts[i].name;
		lopts[i].has_arg = cmd->opts[i].arg ? required_argument : no_argument;
		lopts[i].val = i;
	}
	lopts[i].name = "help";
	lopts[i].val = OPT_HELP;

	opterr = 0;
	optind = 1;
	/* options and arguments in any order, as getopt_long permutes them */
	while ((c = getopt_long(argc, argv, ":", lopts, NULL)) != -1) {
		if (c == OPT_HELP) {
			opts_help(stdout, cmd);
			return 1;
		}
		if (c == ':')
			return usage_error(cmd, "option '%s' needs an argument", argv[optind - 1]);
		if (c == '?' || c < 0 || c >= cmd->nr_opts)
			return usage_error(cmd, "bad option '%s'", argv[optind - 1]);
		if (p->val[c])
			return usage_error(cmd, "--%s given twice", cmd->opts[c].name);
		p->val[c] = cmd->opts[c].arg ? optarg : "";
	}
	for (i = 0; i < cmd->nr_opts; i++)
		if (cmd->opts[i].required && !p->val[i])
			return usage_error(cmd, "--%s is required", cmd->opts[i].name);

	p->args = argv + optind;
	p->nr_args = argc - optind;
	if (p->nr_args < cmd->min_args)
		return usage_error(cmd, "%s is required", cmd->args);
	if (p->nr_args > cmd->max_args)
		return cmd->max_args ? usage_error(cmd, "one %s only", cmd->args) :
				       usage_error(cmd, "unexpected argument '%s'", p->args[0]);
	return 0;
}
