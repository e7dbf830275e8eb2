// SPDX-License-Identifier: GPL-2.0
/*
 * bpfsign: sign BPF loader payloads for the kernel's PKCS#7 verifier, and
 * verify or inspect such signatures offline.  Errors are printed once, by
 * prog_main() (common/main.c), OpenSSL's queue after them.
 */
#include <stdio.h>
#include <openssl/crypto.h>
#include <openssl/err.h>

#include "cmds.h"
#include "internal.h"
#include "main.h"

static const struct cmd *const cmds[] = {
	&cmd_sign,
	&cmd_verify,
	&cmd_inspect,
};

static int print_ossl(const char *str, size_t len, void *u)
{
	(void)u;
	fprintf(stderr, "bpfsign: openssl: %.*s", (int)len, str);
	return 1;
}

static void done(int ret)
{
	if (ret < 0)
		ERR_print_errors_cb(print_ossl, NULL);
	ERR_clear_error();
}

int main(int argc, char **argv)
{
	char version[128];
	const struct prog prog = {
		.name = "bpfsign",
		.version = version,
		.cmds = cmds,
		.nr_cmds = ARRAY_SIZE(cmds),
		.help_head = "Usage: bpfsign { sign | verify | inspect } [OPTIONS] ARGS...\n"
			     "       bpfsign { --help | --version }\n\n",
		.help_tail = "\nRun 'bpfsign COMMAND --help' for the options and exit codes of COMMAND.\n"
			     "The PIN of a pkcs11: key comes from BPFSIGN_PIN (or KBUILD_SIGN_PIN).\n",
		.done = done,
	};

	snprintf(version, sizeof(version), "%s (%s)", KIT_VERSION,
		 OpenSSL_version(OPENSSL_VERSION));
	return prog_main(&prog, argc, argv);
}
