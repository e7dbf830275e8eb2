// SPDX-License-Identifier: GPL-2.0
/* A policy file from disk, bounded, into the pure parser. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "err.h"
#include "file.h"

int policy_load_file(const char *path, struct policy *pol)
{
	char *buf = malloc(POLICY_MAX_SIZE + 1);
	size_t len = 0;
	ssize_t n;
	int fd, err;

	if (!buf)
		return pol_err(-ENOMEM, "%s: out of memory", path);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = pol_err(-errno, "%s: %s", path, strerror(errno));
		goto out;
	}
	while ((n = read(fd, buf + len, POLICY_MAX_SIZE + 1 - len)) > 0)
		len += n;
	err = n < 0 ? pol_err(-errno, "%s: read: %s", path, strerror(errno)) : 0;
	close(fd);
	if (err)
		goto out;
	if (len > POLICY_MAX_SIZE) {
		err = pol_err(-EFBIG, "%s: larger than %d bytes", path, POLICY_MAX_SIZE);
		goto out;
	}
	err = policy_parse(path, buf, len, pol);
out:
	free(buf);
	return err;
}
