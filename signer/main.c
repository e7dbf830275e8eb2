// SPDX-License-Identifier: GPL-2.0
/*
 * bpfsign: sign BPF loader payloads for the kernel's PKCS#7 verifier, and
 * verify or inspect such signatures offline.  Errors are printed here, once.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <openssl/crypto.h>
#include <openssl/err.h>

#include "cmds.h"
#include "internal.h"

static const struct cmd *const cmds[] = {
	&cmd_sign,
	&cmd_verify,
	&cmd_inspect,
};

static void help(FILE *f)
{
	size_t i;

	fprintf(f, "Usage: bpfsign { sign | verify | inspect } [OPTIONS] ARGS...\n"
		   "       bpfsign { --help | --version }\n\n");
	for (i = 0; i < ARRAY_SIZE(cmds); i++)
		opts_usage(f, cmds[i]);
	fprintf(f, "\nRun 'bpfsign COMMAND --help' for the options and exit codes of COMMAND.\n"
		   "The PIN of a pkcs11: key comes from BPFSIGN_PIN (or KBUILD_SIGN_PIN).\n");
}

static int print_ossl(const char *str, size_t len, void *u)
{
	(void)u;
	fprintf(stderr, "bpfsign: openssl: %.*s", (int)len, str);
	return 1;
}

int main(int argc, char **argv)
{
	const struct cmd *cmd = NULL;
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
		printf("bpfsign %s (%s)\n", BPFSIGN_VERSION,
		       OpenSSL_version(OPENSSL_VERSION));
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(cmds); i++)
		if (!strcmp(argv[1], cmds[i]->name))
			cmd = cmds[i];
	if (!cmd) {
		kit_err(-EINVAL, "unknown command '%s'", argv[1]);	/* escaped */
		fprintf(stderr, "bpfsign: %s\n", kit_last_error());
		help(stderr);
		return EXIT_USAGE;
	}

	ret = opts_parse(cmd, argc - 1, argv + 1, &p);
	if (ret)
		return ret == 1 ? 0 : ret;
	ret = cmd->run(cmd, &p);
	if (ret < 0) {
		fprintf(stderr, "bpfsign %s: %s\n", cmd->name,
			bpfsign_last_error());
		ERR_print_errors_cb(print_ossl, NULL);
		ret = exit_code(cmd, ret);
	}
	ERR_clear_error();
	return ret;
}
