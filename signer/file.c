// SPDX-License-Identifier: GPL-2.0
/* Whole-file reads with a size bound and a precise errno. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

int bpfsign__read_file(const char *path, size_t max, unsigned char **buf,
		       size_t *len)
{
	unsigned char *p = NULL, *np;
	size_t n = 0, cap = 0;
	struct stat st;
	ssize_t r;
	int fd, err;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		return bpfsign__err(err, "%s: %s", path, strerror(-err));
	}
	if (fstat(fd, &st) < 0) {
		err = -errno;
		goto fail;
	}
	if (S_ISDIR(st.st_mode)) {
		err = -EISDIR;
		goto fail;
	}
	for (;;) {
		if (n == cap) {
			if (cap > max) {
				err = -EFBIG;
				goto fail;
			}
			cap = cap ? 2 * cap : 4096;
			np = realloc(p, cap + 1);
			if (!np) {
				err = -ENOMEM;
				goto fail;
			}
			p = np;
		}
		r = read(fd, p + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			err = -errno;
			goto fail;
		}
		if (r == 0)
			break;
		n += r;
	}
	if (n > max) {
		err = -EFBIG;
		goto fail;
	}
	close(fd);
	if (!p) {
		p = malloc(1);
		if (!p)
			return bpfsign__err(-ENOMEM, "%s: %s", path,
					    strerror(ENOMEM));
	}
	p[n] = 0;
	*buf = p;
	*len = n;
	return 0;
fail:
	close(fd);
	free(p);
	return bpfsign__err(err, "%s: %s", path, strerror(-err));
}
