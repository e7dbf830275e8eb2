// SPDX-License-Identifier: GPL-2.0
/* Programs other than the policy's own that use its maps (policy_users.h). */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "err.h"
#include "pins.h"
#include "policy.h"
#include "policy_users.h"

#define MAX_MAP_IDS	64	/* MAX_USED_MAPS */
#define MAX_POLICY_MAPS	(4 * MAX_MAP_IDS)

struct policy_set {
	__u32 map_ids[MAX_POLICY_MAPS];
	char map_names[MAX_POLICY_MAPS][BPF_OBJ_NAME_LEN];
	int nr_maps;
	__u32 own[BPFSIGN_MAX_OWN_PROGS];
	int owner_fd;
};

/* The map ids of prog fd pfd into ids[]: how many, or -errno */
static int prog_map_ids(int pfd, __u32 *ids, __u32 *prog_id)
{
	struct bpf_prog_info info;
	__u32 len = sizeof(info);

	memset(&info, 0, sizeof(info));
	info.nr_map_ids = MAX_MAP_IDS;
	info.map_ids = (__u64)(unsigned long)ids;
	if (bpf_prog_get_info_by_fd(pfd, &info, &len))
		return -errno;
	if (prog_id)
		*prog_id = info.id;
	return info.nr_map_ids < MAX_MAP_IDS ? info.nr_map_ids : MAX_MAP_IDS;
}

/* The maps of the programs of the links pinned in dir into set */
static int policy_set_maps(const char *name, const char *dir, struct policy_set *set)
{
	struct bpf_link_info linfo;
	struct bpf_map_info minfo;
	__u32 ids[MAX_MAP_IDS], len;
	char path[PATH_MAX];
	struct dirent *de;
	int fd, n, i, j, err = 0;
	DIR *dd;

	dd = opendir(dir);
	if (!dd)
		return kit_err(-errno, "%s: %s: %s", name, dir, strerror(errno));
	while (!err && (de = readdir(dd))) {
		if (strncmp(de->d_name, "link_", 5) || pin_path(path, sizeof(path), dir, de->d_name))
			continue;
		fd = bpf_obj_get(path);
		memset(&linfo, 0, sizeof(linfo));
		len = sizeof(linfo);
		if (fd < 0 || bpf_link_get_info_by_fd(fd, &linfo, &len)) {
			err = kit_err(-errno, "%s: %s: %s", name, path, strerror(errno));
			if (fd >= 0)
				close(fd);
			break;
		}
		close(fd);
		fd = bpf_prog_get_fd_by_id(linfo.prog_id);
		n = fd < 0 ? -errno : prog_map_ids(fd, ids, NULL);
		if (fd >= 0)
			close(fd);
		if (n < 0) {
			err = kit_err(n, "%s: %s: prog %u: %s", name, path, linfo.prog_id,
				      strerror(-n));
			break;
		}
		for (i = 0; i < n && set->nr_maps < MAX_POLICY_MAPS; i++) {
			for (j = 0; j < set->nr_maps && set->map_ids[j] != ids[i]; j++)
				;
			if (j < set->nr_maps)
				continue;
			fd = bpf_map_get_fd_by_id(ids[i]);
			if (fd < 0)
				continue;
			memset(&minfo, 0, sizeof(minfo));
			len = sizeof(minfo);
			if (!bpf_map_get_info_by_fd(fd, &minfo, &len)) {
				set->map_ids[set->nr_maps] = ids[i];
				snprintf(set->map_names[set->nr_maps], BPF_OBJ_NAME_LEN, "%s",
					 minfo.name);
				set->nr_maps++;
				/* the first "owner": one bound beside it names
				 * no program the policy's do not
				 */
				if (!strcmp(minfo.name, "owner") && set->owner_fd < 0) {
					set->owner_fd = fd;
					continue;
				}
			}
			close(fd);
		}
	}
	closedir(dd);
	if (!err && set->owner_fd < 0)
		err = kit_err(-ENOENT, "%s: no program of the links pinned in %s has an owner map",
			      name, dir);
	return err;
}

static int policy_set_owner(const char *name, struct policy_set *set)
{
	struct bpfsign_owner o;
	__u32 zero = 0;

	/* frozen at load, before the attach (policies.c set_owner()) */
	if (bpf_map_lookup_elem(set->owner_fd, &zero, &o))
		return kit_err(-errno, "%s: map 'owner': %s", name, strerror(errno));
	memcpy(set->own, o.prog_ids, sizeof(set->own));
	return 0;
}

static bool own_prog(const struct policy_set *set, __u32 id)
{
	int i;

	for (i = 0; i < BPFSIGN_MAX_OWN_PROGS; i++)
		if (set->own[i] == id)
			return true;
	return false;
}

/* -EBADMSG naming the first map of the policy that prog fd uses, or 0 */
static int check_prog(const char *name, const struct policy_set *set, int pfd, __u32 id)
{
	__u32 ids[MAX_MAP_IDS];
	int n, i, j;

	n = prog_map_ids(pfd, ids, NULL);
	if (n < 0)
		return kit_err(n, "%s: prog %u: info: %s", name, id, strerror(-n));
	for (i = 0; i < n; i++)
		for (j = 0; j < set->nr_maps; j++)
			if (ids[i] == set->map_ids[j])
				return kit_err(-EBADMSG, "%s: counters not trustworthy: program %u uses map %s (map %u), loaded before the policy's guard was attached",
					       name, id, set->map_names[j], ids[i]);
	return 0;
}

int policy_users_check(const char *name, const char *dir)
{
	struct policy_set set = { .owner_fd = -1 };
	__u32 id = 0;
	int fd, err;

	err = policy_set_maps(name, dir, &set);
	err = err ?: policy_set_owner(name, &set);
	if (set.owner_fd >= 0)
		close(set.owner_fd);
	while (!err && !bpf_prog_get_next_id(id, &id)) {
		if (own_prog(&set, id))
			continue;
		fd = bpf_prog_get_fd_by_id(id);
		if (fd < 0 && errno == EACCES)
			/* the guard hands no fd to a program that can reach
			 * a policy's maps: this one got one before the guard
			 * was attached (its holder still has it).  Which
			 * map it names, its info would say, and the guard
			 * keeps it from us too.
			 */
			return kit_err(-EBADMSG, "%s: counters not trustworthy: program %u is refused by a policy's guard (it uses a policy's map, or a map-in-map one fits, writes map values or traces a policy's program) and was loaded before the guard: it may write map stats",
				       name, id);
		if (fd < 0)
			continue;	/* gone since, or not ours to judge */
		err = check_prog(name, &set, fd, id);
		close(fd);
	}
	if (!err && errno != ENOENT)
		err = kit_err(-errno, "%s: prog ids: %s", name, strerror(errno));
	return err;
}
