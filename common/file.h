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
/* read_file(), and "-" is standard input (a command's input argument, as
 * bpftool's; the library reads files only). */
int read_input(const char *path, size_t max, unsigned char **buf, size_t *len);
/* buf to dest through a temporary next to it, fsync()ed and rename()d:
 * dest is complete or untouched.  An existing dest keeps its mode; one that
 * is not a regular file is refused (-EINVAL), never renamed over. */
int write_file(const char *dest, const void *buf, size_t len);
/* The same name, or both exist and are one inode: an output that is an input. */
bool same_file(const char *a, const char *b);
/* The first of in[0..n) (NULLs skipped) that is the same file as out, or NULL. */
const char *output_is_input(const char *out, const char *const *in, size_t n);

struct file_out {
	const char *dest;
	const void *buf;
	size_t len;
};

/* Every file written to its temporary before any is renamed: a failure
 * leaves none of them (a failed rename removes the ones renamed before).
 * A dest "-" is standard output, written after every file is in place. */
int write_files(const struct file_out *f, int n);

#endif /* KIT_FILE_H */
