/* SPDX-License-Identifier: GPL-2.0 */
/* The kernel function a tracing/LSM program attaches to, and who else does. */
#ifndef BPFSIGN_POLICY_PROG_TARGET_H
#define BPFSIGN_POLICY_PROG_TARGET_H

/*
 * -E2BIG for policy name whose program prog_fd did not attach, the cause
 * named: the function whose trampoline is full, how many other loaded
 * programs target it and their ids (bpftool prog show id ID), so that the
 * administrator finds what holds the slots.
 */
int prog_target_full_err(const char *name, int prog_fd);

#endif
