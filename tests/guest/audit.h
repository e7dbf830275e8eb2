/* SPDX-License-Identifier: GPL-2.0 */
/* A minimal audit daemon for tests: receive audit records over netlink. */
#ifndef BPFSIGN_AUDIT_H
#define BPFSIGN_AUDIT_H

#include <stddef.h>

/* Register as the audit daemon and enable audit; returns a socket or -1. */
int audit_open(void);
/* Wait up to timeout_ms for an AUDIT_BPF record containing needle. */
int audit_find(int fd, const char *needle, char *rec, size_t len, int timeout_ms);
/* The same for a record of another type (AUDIT_IPE_ACCESS, ...). */
int audit_find_type(int fd, int type, const char *needle, char *rec, size_t len,
		    int timeout_ms);
/* Disable audit, unregister and close. */
void audit_close(int fd);

#endif
