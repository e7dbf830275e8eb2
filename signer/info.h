/* SPDX-License-Identifier: GPL-2.0 */
/* The fields of a parsed signature, as a report (common/out.h). */
#ifndef BPFSIGN_INFO_H
#define BPFSIGN_INFO_H

#include "libbpfsign.h"
#include "out.h"

/* Shared by inspect and verify, so both name a signature's fields alike. */
void out_info(struct out *o, const struct bpfsign_info *info);

#endif /* BPFSIGN_INFO_H */
