// SPDX-License-Identifier: GPL-2.0
/* Whole-file reads with a bound, and writes that never leave half a file. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "err.h"
#include "file.h"

int read_file(const char *path, size_t max, unsigned char **buf, size_t *len)
{
	unsigned char *p = NULL;
	struct stat st;
	size_t n = 0;
	ssize_t r;
	int fd, err;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		return gl_err(err, "%s: %s", path, strerror(-err));
	}
	if (fstat(fd, &st) < 0) {
		err = -errno;
		goto fail;
	}
	if (S_ISDIR(st.st_mode)) {
		err = -EISDIR;
		goto fail;
	}
	if (!S_ISREG(st.st_mode) || (size_t)st.st_size > max) {
		err = S_ISREG(st.st_mode) ? -EFBIG : -EINVAL;
		close(fd);
		return gl_err(err, "%s: %s (at most %zu bytes of a regular file)",
			      path, strerror(-err), max);
	}
	p = malloc((size_t)st.st_size + 1);
	if (!p) {
		err = -ENOMEM;
		goto fail;
	}
	while (n < (size_t)st.st_size) {
		r = read(fd, p + n, (size_t)st.st_size - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			err = -errno;
			goto fail;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	p[n] = '\0';
	*buf = p;
	*len = n;
	return 0;
fail:
	free(p);
	close(fd);
	return gl_err(err, "%s: %s", path, strerror(-err));
}

static mode_t file_mode(void)
{
	mode_t mask = umask(0);

	umask(mask);
	return 0666 & ~mask;
}

int write_file(const char *dest, const void *buf, size_t len)
{
	size_t n = strlen(dest) + sizeof(".XXXXXX");
	const char *p = buf;
	char *tmp;
	ssize_t w;
	int fd, err;

	tmp = malloc(n);
	if (!tmp)
		return gl_err(-ENOMEM, "%s: %s", dest, strerror(ENOMEM));
	snprintf(tmp, n, "%s.XXXXXX", dest);
	fd = mkstemp(tmp);
	if (fd < 0) {
		err = -errno;
		free(tmp);
		return gl_err(err, "%s: %s", dest, strerror(-err));
	}
	if (fchmod(fd, file_mode()) < 0)
		goto fail;
	while (len) {
		w = write(fd, p, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			goto fail;
		p += w;
		len -= (size_t)w;
	}
	if (close(fd) < 0) {
		fd = -1;
		goto fail;
	}
	fd = -1;
	if (rename(tmp, dest) < 0)
		goto fail;
	free(tmp);
	return 0;
fail:
	err = -errno;
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	free(tmp);
	return gl_err(err, "%s: %s", dest, strerror(-err));
}
