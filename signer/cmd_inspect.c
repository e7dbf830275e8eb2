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
	{ 1, ERR_NONE, "the kernel refuses its form (see kernel_reason, kernel_errno)" },
	{ EXIT_USAGE, ERR_NONE, "usage error" },
	{ 5, -EBADMSG, "malformed signature: neither OpenSSL nor the kernel's parser reads it" },
	{ 6, ERR_ANY, "SIG cannot be read" },
	{ 0, 0, NULL },
};

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
		return err;
	err = bpfsign_inspect(sig, len, &info);
	free(sig);
	if (err)
		return err;

	out_begin(&o, stdout, a->val[O_JSON]);
	out_str(&o, "signature", a->args[0]);
	out_info(&o, &info);
	out_end(&o);
	return info.kernel_ok ? 0 : 1;
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
