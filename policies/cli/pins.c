// SPDX-License-Identifier: GPL-2.0
/* Pins in bpffs. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <bpf/bpf.h>

#include "err.h"
#include "pins.h"

#define BPF_FS_MAGIC 0xcafe4a11

int pin_path(char *buf, size_t size, const char *dir, const char *name)
{
	int n = snprintf(buf, size, "%s/%s", dir, name);

	if (n < 0 || (size_t)n >= size)
		return kit_err(-ENAMETOOLONG, "%s/%s: path too long", dir, name);
	return 0;
}

static int mkdir_one(const char *dir)
{
	if (mkdir(dir, 0700) && errno != EEXIST)
		return kit_err(-errno, "%s: mkdir: %s", dir, strerror(errno));
	return 0;
}

/* pin_dir, on a bpffs mount */
static int pin_mkdir_parent(const char *pin_dir)
{
	struct statfs st;
	int err;

	err = mkdir_one(pin_dir);
	if (err)
		return err;
	if (statfs(pin_dir, &st))
		return kit_err(-errno, "%s: statfs: %s", pin_dir, strerror(errno));
	if ((unsigned long)st.f_type != BPF_FS_MAGIC)
		return kit_err(-ENOTDIR, "%s: not on a bpf filesystem (mount -t bpf bpffs /sys/fs/bpf)",
			       pin_dir);
	return 0;
}

int pin_mkdir(const char *pin_dir, const char *dir)
{
	return pin_mkdir_parent(pin_dir) ?: mkdir_one(dir);
}

int pin_mkdir_new(const char *pin_dir, const char *dir)
{
	int err = pin_mkdir_parent(pin_dir);

	if (err)
		return err;
	if (mkdir(dir, 0700))
		return kit_err(-errno, "%s: mkdir: %s", dir, strerror(errno));
	return 0;
}

/*
 * One rename that swaps both names: at no instant is either name missing,
 * and the pins move with their directories, so each instance keeps its
 * links pinned, and attached, throughout.  bpffs (simple_rename) supports
 * RENAME_EXCHANGE; a kernel without it fails here, before anything moved.
 */
int pin_exchange(const char *a, const char *b)
{
	if (renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE))
		return kit_err(-errno, "%s, %s: rename (exchange): %s", a, b, strerror(errno));
	return 0;
}

int pin_fd(const char *dir, const char *name, int fd)
{
	char path[4096];
	int err;

	err = pin_path(path, sizeof(path), dir, name);
	if (err)
		return err;
	if (bpf_obj_pin(fd, path))
		return kit_err(-errno, "%s: pin: %s", path, strerror(errno));
	return 0;
}

int unpin_all(const char *dir)
{
	char path[4096];
	struct dirent *de;
	int err = 0;
	DIR *d;

	d = opendir(dir);
	if (!d)
		return kit_err(-errno, "%s: %s", dir, strerror(errno));
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		err = pin_path(path, sizeof(path), dir, de->d_name);
		if (err)
			break;
		if (unlink(path)) {
			err = kit_err(-errno, "%s: unlink: %s", path, strerror(errno));
			break;
		}
	}
	closedir(d);
	if (!err && rmdir(dir))
		err = kit_err(-errno, "%s: rmdir: %s", dir, strerror(errno));
	return err;
}
