/* SPDX-License-Identifier: GPL-2.0 */
/* The kernel's linux/types.h gives size_t and the u8 family; so does this. */
#ifndef BPFSIGN_COMPAT_TYPES_H
#define BPFSIGN_COMPAT_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include_next <linux/types.h>

typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;

#endif
