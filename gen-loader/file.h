/* SPDX-License-Identifier: GPL-2.0 */
/* Whole-file reads with a bound, and writes that never leave half a file. */
#ifndef GEN_LOADER_FILE_H
#define GEN_LOADER_FILE_H

#include <stddef.h>

/* Read at most max bytes of path; *buf is malloc()ed and NUL-terminated. */
int read_file(const char *path, size_t max, unsigned char **buf, size_t *len);
/* Write buf to a temporary file next to dest and rename() it to dest. */
int write_file(const char *dest, const void *buf, size_t len);

#endif /* GEN_LOADER_FILE_H */
