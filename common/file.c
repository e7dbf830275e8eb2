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

static int file_err(const char *path, int err, size_t max)
{
	if (err == -EFBIG && max)	/* read_file() past its bound */
		return kit_err(err, "%s: larger than %zu bytes", path, max);
	return kit_err(err, "%s: %s", path, strerror(-err));
}

static int read_fd(int fd, const char *path, size_t max, unsigned char **buf, size_t *len)
{
	unsigned char *p = NULL, *np;
	size_t n = 0, cap = 0;
	struct stat st;
	bool sized;
	ssize_t r;
	int err;

	if (fstat(fd, &st) < 0) {
		err = -errno;
		goto fail;
	}
	if (S_ISDIR(st.st_mode)) {
		err = -EISDIR;
		goto fail;
	}
	/* a 2 GiB file is refused before a byte of it is read */
	if (S_ISREG(st.st_mode) && (unsigned long long)st.st_size > max) {
		err = -EFBIG;
		goto fail;
	}
	/*
	 * A regular file to the size fstat() gave, as the kernel's
	 * kernel_read_file() reads i_size bytes: no read() to find EOF, which
	 * was a third of the system calls of a batch verification.  Pipes,
	 * devices and procfs files (size 0) have no size: read until EOF.
	 */
	sized = S_ISREG(st.st_mode) && st.st_size > 0;
	if (sized) {
		cap = (size_t)st.st_size;
		p = malloc(cap + 1);
		if (!p) {
			err = -ENOMEM;
			goto fail;
		}
	}
	for (;;) {
		if (sized && n == cap)
			break;
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
		n += (size_t)r;
	}
	if (n > max) {
		err = -EFBIG;
		goto fail;
	}
	if (!p) {
		p = malloc(1);
		if (!p)
			return file_err(path, -ENOMEM, max);
	}
	p[n] = '\0';
	*buf = p;
	*len = n;
	return 0;
fail:
	free(p);
	return file_err(path, err, max);
}

int read_file(const char *path, size_t max, unsigned char **buf, size_t *len)
{
	int fd, err;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return file_err(path, -errno, max);
	err = read_fd(fd, path, max, buf, len);
	close(fd);
	return err;
}

int read_input(const char *path, size_t max, unsigned char **buf, size_t *len)
{
	if (strcmp(path, "-"))
		return read_file(path, max, buf, len);
	/* stdin stays open: the caller's, not ours */
	return read_fd(STDIN_FILENO, "(stdin)", max, buf, len);
}

/*
 * The mode of the file that will replace dest: a file keeps its mode, a new
 * one gets 0666 & ~umask (*mask: the umask, read once per write_files() call,
 * -1 until then).  Anything but a regular file is refused: renaming over a
 * device node or a FIFO would replace it, not write to it.
 */
static int dest_mode(const char *dest, mode_t *mode, int *mask)
{
	struct stat st;

	if (stat(dest, &st) == 0) {
		if (!S_ISREG(st.st_mode))
			return kit_err(-EINVAL, "%s: not a regular file, refusing to replace it",
				       dest);
		*mode = st.st_mode & 07777;
		return 0;
	}
	if (errno != ENOENT)
		return file_err(dest, -errno, 0);
	if (*mask < 0) {
		*mask = umask(0);
		umask(*mask);
	}
	*mode = 0666 & ~(mode_t)*mask;
	return 0;
}

bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	if (!strcmp(a, b))
		return true;
	return !stat(a, &sa) && !stat(b, &sb) &&
	       sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* buf into a new temporary file next to dest, with dest's mode, fsync()ed;
 * *tmp is its malloc()ed name, for the caller to rename() or unlink(). */
static int write_temp(const char *dest, const void *buf, size_t len, int *mask,
		      char **tmp)
{
	size_t n = strlen(dest) + sizeof(".XXXXXX");
	const char *p = buf;
	mode_t mode = 0;
	char *name;
	ssize_t w;
	int fd, err;

	err = dest_mode(dest, &mode, mask);
	if (err)
		return err;
	name = malloc(n);
	if (!name)
		return file_err(dest, -ENOMEM, 0);
	snprintf(name, n, "%s.XXXXXX", dest);
	fd = mkstemp(name);
	if (fd < 0) {
		err = -errno;
		free(name);
		return file_err(dest, err, 0);
	}
	if (fchmod(fd, mode) < 0)
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
	/* the data is on disk before the name points at it */
	if (fsync(fd) < 0)
		goto fail;
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
	return file_err(dest, err, 0);
}

static bool is_stdout(const char *dest)
{
	return !strcmp(dest, "-");
}

static int write_stdout(const void *buf, size_t len)
{
	errno = 0;
	if (fwrite(buf, 1, len, stdout) != len || fflush(stdout))
		return file_err("(stdout)", -(errno ? errno : EIO), 0);
	return 0;
}

int write_files(const struct file_out *f, int n)
{
	char **tmp = calloc(n ? n : 1, sizeof(*tmp));
	int i, done = 0, err = 0, mask = -1;

	if (!tmp)
		return file_err(n ? f[0].dest : "output", -ENOMEM, 0);
	for (i = 0; i < n && !err; i++)
		if (!is_stdout(f[i].dest))
			err = write_temp(f[i].dest, f[i].buf, f[i].len, &mask, &tmp[i]);
	for (i = 0; i < n && !err; i++) {
		if (is_stdout(f[i].dest))
			done++;
		else if (rename(tmp[i], f[i].dest) < 0)
			err = file_err(f[i].dest, -errno, 0);
		else
			done++;
	}
	/* standard output last: it cannot be taken back, the files can */
	for (i = 0; i < n && !err; i++)
		if (is_stdout(f[i].dest))
			err = write_stdout(f[i].buf, f[i].len);
	/* a failure: the outputs renamed before it go too */
	for (i = 0; err && i < done; i++)
		if (!is_stdout(f[i].dest))
			unlink(f[i].dest);
	for (i = 0; i < n; i++) {
		if (tmp[i] && i >= done)
			unlink(tmp[i]);
		free(tmp[i]);
	}
	free(tmp);
	return err;
}

int write_file(const char *dest, const void *buf, size_t len)
{
	struct file_out f = { dest, buf, len };

	return write_files(&f, 1);
}

/* As same_file(out, in[i]) for each, with one stat() of out: signing a
 * thousand payloads asks this of every new output, and most do not exist. */
const char *output_is_input(const char *out, const char *const *in, size_t n)
{
	struct stat so, si;
	bool exists;
	size_t i;

	/* standard output is not the file an input "-" was read from */
	if (is_stdout(out))
		return NULL;
	exists = stat(out, &so) == 0;
	for (i = 0; i < n; i++) {
		if (!in[i])
			continue;
		if (!strcmp(out, in[i]))
			return in[i];
		if (exists && !stat(in[i], &si) &&
		    so.st_dev == si.st_dev && so.st_ino == si.st_ino)
			return in[i];
	}
	return NULL;
}
