/* SPDX-License-Identifier: GPL-2.0 */
/* Output files: written under a temporary name, renamed when complete. */
#ifndef BPFSIGN_UTIL_H
#define BPFSIGN_UTIL_H

#include <stddef.h>

/* Write buf to a new temporary file next to dest; *tmp is its malloc()ed name. */
int write_temp(const char *dest, const void *buf, size_t len, char **tmp);

#endif /* BPFSIGN_UTIL_H */
