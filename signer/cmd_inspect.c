// SPDX-License-Identifier: GPL-2.0
/* bpfsign inspect: what a signature is made of, and whether the kernel takes it. */
#include <errno.h>
#include <stdlib.h>

#include "cmds.h"
#include "info.h"
#include "internal.h"

enum { O_JSON };

static const struct opt opts[] = {
	[O_JSON] = { .name = "json",
		.help = "print the report as one JSON object" },
};

static const struct exit_code exits[] = {
	{ 0, 0, "the signature has the form the kernel takes" },
	{ EXIT_FAIL, ERR_ANY, "SIG cannot be read" },
	{ EXIT_USAGE, ERR_NONE, "usage error" },
	{ EXIT_REJECTED, ERR_NONE, "the kernel refuses its form (see kernel_reason, kernel_errno)" },
	{ EXIT_MALFORMED, -EBADMSG, "malformed signature: neither OpenSSL nor the kernel's parser reads it" },
	{ 0, 0, NULL },
};

/* --json: a failure is still one JSON object, as bpftool's p_err() */
static int report_error(const struct parsed *a, int err)
{
	struct out o;

	if (a->val[O_JSON]) {
		out_begin(&o, stdout, true);
		out_str(&o, "signature", a->args[0]);
		out_error(&o, bpfsign_errno_name(err), err, bpfsign_last_error());
		out_end(&o);
	}
	return err;
}

static int run(const struct cmd *cmd, const struct parsed *a)
{
	struct bpfsign_info info;
	unsigned char *sig;
	struct out o;
	size_t len;
	int err;

	(void)cmd;
	err = read_file(a->args[0], BPFSIGN_MAX_SIG_SIZE, &sig, &len);
	if (err)
		return report_error(a, err);
	err = bpfsign_inspect(sig, len, &info);
	free(sig);
	if (err)
		return report_error(a, err);

	out_begin(&o, stdout, a->val[O_JSON]);
	out_str(&o, "signature", a->args[0]);
	out_info(&o, &info);
	out_end(&o);
	return info.kernel_ok ? 0 : EXIT_REJECTED;
}

const struct cmd cmd_inspect = {
	.prog = "bpfsign",
	.name = "inspect",
	.run = run,
	.summary = "Describe the signature SIG: algorithms, signer key id, sizes, and\n"
		   "whether it has the form the kernel takes.",
	.opts = opts,
	.nr_opts = ARRAY_SIZE(opts),
	.args = "SIG",
	.min_args = 1,
	.max_args = 1,
	.exits = exits,
};
