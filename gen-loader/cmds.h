/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GEN_LOADER_CMDS_H
#define GEN_LOADER_CMDS_H

#include "opts.h"

extern const struct cmd cmd_gen;	/* gen-loader OBJ -o HEADER ... */
extern const struct cmd cmd_attach;
extern const struct cmd cmd_verify;

#endif /* GEN_LOADER_CMDS_H */
