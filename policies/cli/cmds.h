/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BPFSIGN_POLICY_CMDS_H
#define BPFSIGN_POLICY_CMDS_H

#include "err.h"
#include "opts.h"

#define DEFAULT_PIN_DIR "/sys/fs/bpf/bpfsign"

#define EXIT_INVALID EXIT_MALFORMED	/* check: the policy file is malformed */

/* The exit codes of every command, first in each table. */
#define POLICY_EXITS \
	{ 0, 0, "success" }, \
	{ EXIT_FAIL, ERR_ANY, "failed or refused, as the message says" }, \
	{ EXIT_USAGE, ERR_NONE, "usage error" }

extern const struct exit_code policy_exits[];	/* POLICY_EXITS alone */

extern const struct cmd cmd_load;	/* load NAME: signed skeleton, attach, pin */
extern const struct cmd cmd_unload;	/* unload NAME: remove the pins */
extern const struct cmd cmd_status;	/* what is pinned */
extern const struct cmd cmd_log;	/* the events ring buffer as JSON lines */
extern const struct cmd cmd_check;	/* parse a policy file, no kernel */
extern const struct cmd cmd_audit;	/* every loaded program, its verdict, judged */

#endif /* BPFSIGN_POLICY_CMDS_H */
