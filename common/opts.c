// SPDX-License-Identifier: GPL-2.0
/* Parse a command's options from its table, and print its help from it. */
#include <getopt.h>
#include <stdarg.h>
#include <string.h>

#include "err.h"
#include "opts.h"

#define OPT_HELP 1000

static void opt_str(char *buf, size_t size, const struct opt *o)
{
	char s[8] = "";

	if (o->short_name)
		snprintf(s, sizeof(s), "-%c|", o->short_name);
	if (o->arg)
		snprintf(buf, size, "%s--%s %s", s, o->name, o->arg);
	else
		snprintf(buf, size, "%s--%s", s, o->name);
}

/* "bpfsign verify", or "gen-loader" for a default command */
static void cmd_str(FILE *f, const struct cmd *cmd)
{
	fprintf(f, "%s%s%s", cmd->prog, cmd->name ? " " : "",
		cmd->name ? cmd->name : "");
}

/* Usage: bpfsign verify { --cert CERT | --ca BUNDLE } [--payload FILE] SIG */
void opts_usage(FILE *f, const struct cmd *cmd)
{
	const struct opt *o;
	char s[128];
	int i, j, seen;

	fprintf(f, "Usage: ");
	cmd_str(f, cmd);
	for (i = 0; i < cmd->nr_opts; i++) {
		o = &cmd->opts[i];
		if (o->group) {
			for (seen = 0, j = 0; j < i; j++)
				seen |= cmd->opts[j].group == o->group;
			if (seen)
				continue;
			fprintf(f, " {");
			for (seen = 0, j = i; j < cmd->nr_opts; j++) {
				if (cmd->opts[j].group != o->group)
					continue;
				opt_str(s, sizeof(s), &cmd->opts[j]);
				fprintf(f, "%s %s", seen++ ? " |" : "", s);
			}
			fprintf(f, " }");
			continue;
		}
		opt_str(s, sizeof(s), o);
		fprintf(f, o->required ? " %s" : " [%s]", s);
	}
	if (cmd->args)
		fprintf(f, " %s", cmd->args);
	fputc('\n', f);
}

void opts_help(FILE *f, const struct cmd *cmd)
{
	const struct exit_code *e;
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
	fprintf(f, "\nExit status:\n");
	for (e = cmd->exits; e && e->what; e++)
		fprintf(f, "  %d  %s\n", e->code, e->what);
}

int usage_error(const struct cmd *cmd, const char *fmt, ...)
{
	va_list ap;

	/* through kit_verr(): the arguments are the user's, escaped there */
	va_start(ap, fmt);
	kit_verr(EXIT_USAGE, fmt, ap);
	va_end(ap);
	cmd_str(stderr, cmd);
	fprintf(stderr, ": %s\n", kit_last_error());
	opts_usage(stderr, cmd);
	return EXIT_USAGE;
}

int opts_parse(const struct cmd *cmd, int argc, char **argv, struct parsed *p)
{
	struct option lopts[OPTS_MAX + 2] = { 0 };
	char sopts[2 * OPTS_MAX + 3] = ":";
	int i, c, g, n, idx;
	size_t k = 1;

	memset(p, 0, sizeof(*p));
	if (cmd->nr_opts > OPTS_MAX)
		return usage_error(cmd, "too many options in the table");
	for (i = 0; i < cmd->nr_opts; i++) {
		lopts[i].name = cmd->opts[i].name;
		lopts[i].has_arg = cmd->opts[i].arg ? required_argument : no_argument;
		lopts[i].val = i;
		if (cmd->opts[i].short_name) {
			sopts[k++] = cmd->opts[i].short_name;
			if (cmd->opts[i].arg)
				sopts[k++] = ':';
		}
	}
	lopts[i].name = "help";
	lopts[i].val = OPT_HELP;
	sopts[k++] = 'h';	/* -h is --help, in every command of every tool */

	opterr = 0;
	optind = 1;
	/* options and arguments in any order, as getopt_long permutes them */
	while ((c = getopt_long(argc, argv, sopts, lopts, NULL)) != -1) {
		if (c == OPT_HELP || c == 'h') {
			opts_help(stdout, cmd);
			return 1;
		}
		if (c == ':')
			return usage_error(cmd, "option '%s' needs an argument",
					   argv[optind - 1]);
		if (c == '?')
			return usage_error(cmd, "bad option '%s'", argv[optind - 1]);
		idx = c;
		if (c < 0 || c >= cmd->nr_opts) {
			for (idx = 0; idx < cmd->nr_opts; idx++)
				if (cmd->opts[idx].short_name == c)
					break;
			if (idx == cmd->nr_opts)
				return usage_error(cmd, "bad option '-%c'", c);
		}
		if (p->val[idx])
			return usage_error(cmd, "--%s given twice", cmd->opts[idx].name);
		p->val[idx] = cmd->opts[idx].arg ? optarg : "";
	}

	for (i = 0; i < cmd->nr_opts; i++) {
		if (cmd->opts[i].required && !p->val[i])
			return usage_error(cmd, "--%s is required", cmd->opts[i].name);
		g = cmd->opts[i].group;
		if (!g)
			continue;
		for (n = 0, c = 0; c < cmd->nr_opts; c++)
			n += cmd->opts[c].group == g && p->val[c];
		if (n != 1)
			return usage_error(cmd, "give exactly one of the options in { }");
	}

	p->args = argv + optind;
	p->nr_args = argc - optind;
	if (p->nr_args < cmd->min_args)
		return usage_error(cmd, "%s is required", cmd->args);
	if (cmd->max_args >= 0 && p->nr_args > cmd->max_args) {
		if (!cmd->max_args)
			return usage_error(cmd, "unexpected argument '%s'", p->args[0]);
		if (cmd->max_args == 1)
			return usage_error(cmd, "one %s only", cmd->args);
		return usage_error(cmd, "too many arguments");
	}
	return 0;
}

int exit_code(const struct cmd *cmd, int err)
{
	const struct exit_code *e;

	for (e = cmd->exits; e && e->what; e++)
		if (e->err == err)
			return e->code;
	for (e = cmd->exits; e && e->what; e++)
		if (e->err == ERR_ANY)
			return e->code;
	return 1;
}
