/* SPDX-License-Identifier: GPL-2.0 */
/* Pins in bpffs: PIN_DIR/NAME/{link_PROG,map_MAP}. */
#ifndef BPFSIGN_POLICY_PINS_H
#define BPFSIGN_POLICY_PINS_H

#include <stddef.h>

/* PIN_DIR/NAME into buf; -ENAMETOOLONG */
int pin_path(char *buf, size_t size, const char *dir, const char *name);
/* Create dir (and its parent) on a bpffs mount; -ENOTDIR if not bpffs. */
int pin_mkdir(const char *pin_dir, const char *dir);
/* The same, but dir must not exist yet: -EEXIST. */
int pin_mkdir_new(const char *pin_dir, const char *dir);
/* Swap the names of directories a and b atomically (RENAME_EXCHANGE). */
int pin_exchange(const char *a, const char *b);
int pin_fd(const char *dir, const char *name, int fd);
/* Unlink every pin in dir and dir itself: the last reference of a link
 * goes, and with it the attachment.  -ENOENT when dir does not exist.
 */
int unpin_all(const char *dir);

#endif /* BPFSIGN_POLICY_PINS_H */
