/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BPFSIGN_POLICY_LOAD_H
#define BPFSIGN_POLICY_LOAD_H

#include "policy_file.h"

/* Read and parse a policy file; 0 or -errno with the reason recorded. */
int policy_load_file(const char *path, struct policy *pol);

#endif
