/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GEN_LOADER_CMDS_H
#define GEN_LOADER_CMDS_H

#include <errno.h>

#include "err.h"
#include "opts.h"

/* A signature's check: the codes bpfsign verify gives for the same
 * signature and certificate (vocab.h); EBADMSG (4) is in each table. */
#define SIG_EXITS \
	{ EXIT_NOKEY, -ENOKEY, "unknown signer: no given certificate is the signer or its issuer" }, \
	{ EXIT_NOPKG, -ENOPKG, "a digest or algorithm the kernel does not have" }, \
	{ EXIT_KPARSE, -EINVAL, "the kernel's parser refuses the signature (EINVAL)" }, \
	{ EXIT_KPARSE, -E2BIG, "E2BIG: more signed bytes than the kernel verifies" }

extern const struct cmd cmd_gen;	/* gen-loader OBJ -o HEADER ... */
extern const struct cmd cmd_attach;
extern const struct cmd cmd_verify;
extern const struct cmd cmd_inspect;

/*
 * Not the format read (a header lskel_parse() refuses, a certificate that
 * is not one): EBADMSG, the one errno of exit 4 in every tool (vocab.h),
 * whatever the parser said (ENOEXEC, EINVAL).  Returns the new errno.
 */
static inline int malformed_input(int err)
{
	return err == -ENOEXEC || err == -EINVAL ? kit_err(-EBADMSG, "%s", kit_last_error()) : err;
}

#endif /* GEN_LOADER_CMDS_H */
