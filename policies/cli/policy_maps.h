/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The maps of a loaded policy, as its program holds them: status and log
 * read these, never a map pin on its own (root can unpin map_stats and pin
 * a map of its own under the name; the link pin holds the program).
 */
#ifndef BPFSIGN_POLICY_MAPS_H
#define BPFSIGN_POLICY_MAPS_H

#include <linux/types.h>

enum { PM_EVENTS, PM_STATS, PM_TALLY, PM_TALLY_ANY, PM_CONFIG, PM_OWNER, PM_MAX };

struct policy_maps {
	int fd[PM_MAX];		/* -1: the program has no such map */
	__u32 id[PM_MAX];
	__u32 prog_id;		/* a program of the policy's links */
};

/*
 * From the link_* pins in dir: their programs, and those programs' maps
 * by name (prog_id: one of the programs, for messages and log's state).  Refused (-ESTALE, the message names the pin) when a map_* pin of
 * dir is not the program's map of that name (a missing pin is
 * fine: the program's map is read), and (-EPERM) when stats,
 * tally or tally_any is not frozen.  -ENOENT: no link pinned.
 */
int policy_maps_open(const char *name, const char *dir, struct policy_maps *m);
void policy_maps_close(struct policy_maps *m);

#endif /* BPFSIGN_POLICY_MAPS_H */
