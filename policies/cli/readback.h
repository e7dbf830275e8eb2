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

/*
 * After the guard's attach, before any other program of the policy is:
 * the counters (stats, stats_nr u64s) zero, the tallies empty, the
 * events ring buffer never written (producer and consumer 0).  Until the
 * guard was attached any program could be loaded on the maps, run and
 * freed (no walk finds it then); from the attach on, no program but the
 * policy's own can take them, and none of those runs yet: what the maps
 * hold now is all a freed writer did.  A refusal of the guard itself
 * shows too (a record, counted): the load fails all the same.  -EBADMSG
 * names the map.
 */
int readback_window(const char *policy, int stats_fd, int tally_fd, int tally_any_fd,
		    int events_fd, size_t stats_nr, size_t key_size, size_t value_size);
/* The same for one more hash map that must be empty then (audit-log's lsm_ret). */
int readback_window_empty(const char *policy, const char *map, int fd, size_t key_size,
			  size_t value_size);

#endif /* BPFSIGN_POLICY_READBACK_H */
