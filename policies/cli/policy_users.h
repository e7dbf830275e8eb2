/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Programs other than a loaded policy's own that use its maps: loaded
 * while the policy was being loaded, before its guard was attached (the
 * window between the skeleton's map creation and the attach), which the
 * guard never saw, or admitted by a permissive policy's guard.
 */
#ifndef BPFSIGN_POLICY_USERS_H
#define BPFSIGN_POLICY_USERS_H

/*
 * Run the policy's "users" iterator, pinned as dir/iter_users (an
 * iter/bpf_prog of the policy's object, policy.bpf.h), after checking
 * that its program is one of those the policy's frozen "owner" map lists.
 * 0: no program but the policy's own uses one of its maps.  -EBADMSG, the
 * message "NAME: counters not trustworthy: program N uses map M (map ID)"
 * and how many more, for the first one.  Another -errno: the check could
 * not be made (the message says why).  No program fd is taken, so no
 * guard refuses the walk anything.
 */
int policy_users_check(const char *name, const char *dir);

/*
 * The same walk on the users iterator link link_fd, which the caller
 * made (bpfsign-policy load: after the guard's attach, before the
 * policy's other programs are attached, policies.c).  A program that
 * uses a map-in-map whose inner template fits one of the policy's maps
 * is named with the outer map.
 */
int policy_users_walk(const char *name, int link_fd);

#endif /* BPFSIGN_POLICY_USERS_H */
