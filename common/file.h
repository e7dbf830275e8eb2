/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Whole-file reads with a bound, and writes that never leave half a file.
 * Failures return a negative errno, with "FILE: reason" in kit_last_error().
 */
#ifndef KIT_FILE_H
#define KIT_FILE_H

#include <stdbool.h>
#include <stddef.h>

/* Read at most max bytes of path (a regular file, a pipe, a device);
 * *buf is malloc()ed and NUL-terminated.  -EFBIG past max. */
int read_file(const char *path, size_t max, unsigned char **buf, size_t *len);
/* Write buf to a new temporary file next to dest, with dest's mode if it
 * is a file (0666 & ~umask if it does not exist; -EINVAL if it is not a
 * regular file), fsync()ed; *tmp is its malloc()ed name, for the caller to
 * rename() or unlink(). */
int write_temp(const char *dest, const void *buf, size_t len, char **tmp);
/* write_temp(), then rename() it to dest: dest is complete or untouched. */
int write_file(const char *dest, const void *buf, size_t len);
/* The same name, or both exist and are one inode: an output that is an input. */
bool same_file(const char *a, const char *b);

#endif /* KIT_FILE_H */
