/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BPFSIGN_POLICY_CMDS_H
#define BPFSIGN_POLICY_CMDS_H

#include "opts.h"

#define DEFAULT_PIN_DIR "/sys/fs/bpf/bpfsign"

extern const struct cmd cmd_load;	/* load NAME: signed skeleton, attach, pin */
extern const struct cmd cmd_unload;	/* unload NAME: remove the pins */
extern const struct cmd cmd_status;	/* what is pinned */
extern const struct cmd cmd_log;	/* the events ring buffer as JSON lines */
extern const struct cmd cmd_check;	/* parse a policy file, no kernel */

#endif /* BPFSIGN_POLICY_CMDS_H */
