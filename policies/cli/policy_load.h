/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BPFSIGN_POLICY_LOAD_H
#define BPFSIGN_POLICY_LOAD_H

#include "policy_file.h"

/* Read and parse a policy file; 0 or -errno with the reason recorded. */
int policy_load_file(const char *path, struct policy *pol);

/* One line to stderr for each allowed type that weakens the policy:
 * "PROG: FILE:LINE: warning: unsigned allow type NAME weakens the policy: why".
 */
void policy_warn(const char *prog, const char *path, const struct policy *pol);

#endif
