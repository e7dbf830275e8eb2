/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A policy's maps read back after bpfsign-policy froze them.  Until the
 * freeze, root can open any of them by id (BPF_MAP_GET_FD_BY_ID) and write
 * it, between the CLI's write and its freeze included; after it, no bpf(2)
 * command can.  So what the frozen map holds is checked against what the
 * CLI wrote, before anything is attached: -EBADMSG names the map.
 */
#ifndef BPFSIGN_POLICY_READBACK_H
#define BPFSIGN_POLICY_READBACK_H

#include <stddef.h>
#include <linux/types.h>

/* Array map fd (key 0..nr-1) holds want[0..nr-1] (want NULL: all zero). */
int readback_array(const char *policy, const char *map, int fd, __u32 nr, const void *want,
		   size_t value_size);
/* Hash map fd holds exactly the n pairs keys[i] -> values[i]. */
int readback_hash(const char *policy, const char *map, int fd, size_t key_size,
		  size_t value_size, const void *keys, const void *values, __u32 n);

#endif /* BPFSIGN_POLICY_READBACK_H */
