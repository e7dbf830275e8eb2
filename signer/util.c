// SPDX-License-Identifier: GPL-2.0
/* Output files: written under a temporary name, renamed when complete. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "util.h"

static mode_t file_mode(void)
{
	mode_t mask = umask(0);

	umask(mask);
	return 0666 & ~mask;
}

int write_temp(const char *dest, const void *buf, size_t len, char **tmp)
{
	const char *p = buf;
	size_t n = strlen(dest) + sizeof(".XXXXXX");
	ssize_t w;
	char *name;
	int fd, err;

	name = malloc(n);
	if (!name)
		return bpfsign__err(-ENOMEM, "%s: %s", dest, strerror(ENOMEM));
	snprintf(name, n, "%s.XXXXXX", dest);
	fd = mkstemp(name);
	if (fd < 0) {
		err = -errno;
		free(name);
		return bpfsign__err(err, "%s: %s", dest, strerror(-err));
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
		len -= w;
	}
	if (close(fd) < 0) {
		fd = -1;
		goto fail;
	}
	*tmp = name;
	return 0;
fail:
	err = -errno;
	if (fd >= 0)
		close(fd);
	unlink(name);
	free(name);
	return bpfsign__err(err, "%s: %s", dest, strerror(-err));
}
