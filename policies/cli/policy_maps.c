// SPDX-License-Identifier: GPL-2.0
/* The maps of a loaded policy, from the program of its pinned link. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "err.h"
#include "pins.h"
#include "policy_maps.h"

static const char *const map_names[PM_MAX] = {
	[PM_EVENTS] = "events", [PM_STATS] = "stats", [PM_TALLY] = "tally",
	[PM_TALLY_ANY] = "tally_any", [PM_CONFIG] = "config", [PM_OWNER] = "owner",
};

/* the records: a bpf(2) write to them must fail (bpf_map_freeze) */
static const bool must_be_frozen[PM_MAX] = {
	[PM_STATS] = true, [PM_TALLY] = true, [PM_TALLY_ANY] = true, [PM_CONFIG] = true,
	[PM_OWNER] = true,
};

#define MAX_MAP_IDS 64

/* The programs of the links pinned in dir: their fds in pfd[], how many, or -errno */
static int link_progs(const char *name, const char *dir, int *pfd, int max, __u32 *prog_id)
{
	struct bpf_link_info info;
	char path[PATH_MAX];
	struct dirent *de;
	int fd, n = 0, err = 0;
	__u32 len;
	DIR *dd;

	dd = opendir(dir);
	if (!dd)
		return kit_err(-errno, "%s: %s: %s", name, dir, strerror(errno));
	while (!err && n < max && (de = readdir(dd))) {
		if (strncmp(de->d_name, "link_", 5) || pin_path(path, sizeof(path), dir, de->d_name))
			continue;
		fd = bpf_obj_get(path);
		if (fd < 0) {
			err = kit_err(-errno, "%s: %s: %s", name, path, strerror(errno));
			break;
		}
		memset(&info, 0, sizeof(info));
		len = sizeof(info);
		err = bpf_link_get_info_by_fd(fd, &info, &len) ? -errno : 0;
		close(fd);
		if (err) {
			err = kit_err(err, "%s: %s: not a link: %s", name, path, strerror(-err));
			break;
		}
		fd = bpf_prog_get_fd_by_id(info.prog_id);
		if (fd < 0) {
			err = kit_err(-errno, "%s: %s: prog %u: %s", name, path, info.prog_id,
				      strerror(errno));
			break;
		}
		*prog_id = info.prog_id;
		pfd[n++] = fd;
	}
	closedir(dd);
	if (!err && !n)
		err = kit_err(-ENOENT, "%s: no link pinned in %s", name, dir);
	if (err)
		while (n)
			close(pfd[--n]);
	return err ?: n;
}

/* The maps of prog fd pfd named as map_names[] into m */
static int prog_maps(const char *name, int pfd, struct policy_maps *m)
{
	struct bpf_prog_info pinfo;
	struct bpf_map_info info;
	__u32 ids[MAX_MAP_IDS], len, n, i, j;
	int fd;

	memset(&pinfo, 0, sizeof(pinfo));
	pinfo.nr_map_ids = MAX_MAP_IDS;
	pinfo.map_ids = (__u64)(unsigned long)ids;
	len = sizeof(pinfo);
	if (bpf_prog_get_info_by_fd(pfd, &pinfo, &len))
		return kit_err(-errno, "%s: prog info: %s", name, strerror(errno));
	n = pinfo.nr_map_ids < MAX_MAP_IDS ? pinfo.nr_map_ids : MAX_MAP_IDS;
	for (j = 0; j < n; j++) {
		fd = bpf_map_get_fd_by_id(ids[j]);
		if (fd < 0)
			continue;
		memset(&info, 0, sizeof(info));
		len = sizeof(info);
		i = PM_MAX;
		if (!bpf_map_get_info_by_fd(fd, &info, &len))
			for (i = 0; i < PM_MAX; i++)
				if (!strcmp(info.name, map_names[i]))
					break;
		if (i < PM_MAX && m->fd[i] >= 0 && m->id[i] != ids[j]) {
			/* BPF_PROG_BIND_MAP adds any map to a program that
			 * anyone holding its fd names: a map of the same name
			 * bound beside the policy's must not be read instead
			 */
			close(fd);
			return kit_err(-ESTALE, "%s: prog %u has two maps named '%s' (%u, %u): one was bound to it, not reading either",
				       name, pinfo.id, map_names[i], m->id[i], ids[j]);
		}
		if (i == PM_MAX || m->fd[i] >= 0) {
			close(fd);
			continue;
		}
		m->fd[i] = fd;
		m->id[i] = ids[j];
	}
	return 0;
}

/* 1 if fd's map is frozen, 0 if not, -errno (fdinfo "frozen:", 5.2+) */
static int map_frozen(int fd)
{
	char path[64], line[128];
	int frozen = -ENODATA;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "frozen:", 7))
			frozen = atoi(line + 7) != 0;
	fclose(f);
	return frozen;
}

/* A map_NAME pin in dir, if any, must be the program's map NAME */
static int check_pin(const char *name, const char *dir, const struct policy_maps *m, int i)
{
	struct bpf_map_info info;
	char path[PATH_MAX], pin[32];
	__u32 len = sizeof(info);
	int fd, err;

	snprintf(pin, sizeof(pin), "map_%s", map_names[i]);
	err = pin_path(path, sizeof(path), dir, pin);
	if (err)
		return err;
	/* unpinned: nothing misleads, the program's map is read */
	if (access(path, F_OK))
		return 0;
	fd = bpf_obj_get(path);
	if (fd < 0)
		return kit_err(-errno, "%s: %s: %s", name, path, strerror(errno));
	memset(&info, 0, sizeof(info));
	err = bpf_map_get_info_by_fd(fd, &info, &len) ? -errno : 0;
	close(fd);
	if (err)
		return kit_err(err, "%s: %s: not a map: %s", name, path, strerror(-err));
	if (m->fd[i] < 0 || info.id != m->id[i])
		return kit_err(-ESTALE, "%s: %s: map %u is not the policy's map '%s' (map %u of prog %u): re-pinned, not reading it",
			       name, path, info.id, map_names[i], m->id[i], m->prog_id);
	return 0;
}

int policy_maps_open(const char *name, const char *dir, struct policy_maps *m)
{
	int pfd[4], n, i, err = 0;

	for (i = 0; i < PM_MAX; i++)
		m->fd[i] = -1, m->id[i] = 0;
	n = link_progs(name, dir, pfd, 4, &m->prog_id);
	if (n < 0)
		return n;
	for (i = 0; i < n; i++) {
		err = err ?: prog_maps(name, pfd[i], m);
		close(pfd[i]);
	}
	for (i = 0; i < PM_MAX && !err; i++) {
		err = check_pin(name, dir, m, i);
		if (err || m->fd[i] < 0 || !must_be_frozen[i])
			continue;
		if (map_frozen(m->fd[i]) != 1)
			err = kit_err(-EPERM, "%s: prog %u's map '%s' (map %u) is not frozen: not the policy as bpfsign-policy loaded it",
				      name, m->prog_id, map_names[i], m->id[i]);
	}
	if (!err && (m->fd[PM_STATS] < 0 || m->fd[PM_EVENTS] < 0 || m->fd[PM_TALLY] < 0))
		err = kit_err(-ENOENT, "%s: prog %u has no stats, events or tally map", name,
			      m->prog_id);
	if (err)
		policy_maps_close(m);
	return err;
}

void policy_maps_close(struct policy_maps *m)
{
	int i;

	for (i = 0; i < PM_MAX; i++) {
		if (m->fd[i] >= 0)
			close(m->fd[i]);
		m->fd[i] = -1;
	}
}
