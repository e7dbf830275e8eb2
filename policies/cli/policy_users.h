/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Programs other than a loaded policy's own that use its maps: loaded
 * while the policy was being loaded, before its guard was attached (the
 * window between the skeleton's map creation and the attach, or an
 * earlier load of the policy), which the guard never saw.
 */
#ifndef BPFSIGN_POLICY_USERS_H
#define BPFSIGN_POLICY_USERS_H

/*
 * Walk every program (BPF_PROG_GET_NEXT_ID) but the ones the frozen
 * "owner" map of the policy pinned in dir lists.  -EBADMSG, the message
 * "NAME: counters not trustworthy: program N uses map M (map ID)", for
 * the first one that uses a map of the policy's programs; or, when a
 * guard refuses the program's fd (enforce mode: such a program is only
 * reachable through an fd taken before), "program N is refused by a
 * policy's guard ...": the guard refuses exactly the programs that can
 * reach a policy's maps.  0: none; another -errno: the check could not
 * be made (the message says why).  Complete for programs that name the
 * map when run after the guard is attached (the guard refuses every later
 * one); not for a map put into a map-in-map after the check.
 */
int policy_users_check(const char *name, const char *dir);

#endif /* BPFSIGN_POLICY_USERS_H */
