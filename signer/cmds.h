/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BPFSIGN_CMDS_H
#define BPFSIGN_CMDS_H

#include "opts.h"

extern const struct cmd cmd_sign;
extern const struct cmd cmd_verify;
extern const struct cmd cmd_inspect;

#endif /* BPFSIGN_CMDS_H */
