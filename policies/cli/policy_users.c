// SPDX-License-Identifier: GPL-2.0
/* Programs other than the policy's own that use its maps (policy_users.h). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "err.h"
#include "pins.h"
#include "policy.h"
#include "policy_maps.h"
#include "policy_users.h"

#define USERS_PIN	"iter_users"

/* The iterator link pinned in dir, if its program is one the owner map lists */
static int users_link(const char *name, const char *dir, const struct policy_maps *m)
{
	struct bpf_link_info info;
	struct bpfsign_owner o;
	char path[PATH_MAX];
	__u32 len, zero = 0;
	int fd, err, i;

	err = pin_path(path, sizeof(path), dir, USERS_PIN);
	if (err)
		return err;
	if (m->fd[PM_OWNER] < 0)
		return kit_err(-ENOENT, "%s: prog %u has no owner map: not the policy as bpfsign-policy loaded it",
			       name, m->prog_id);
	/* frozen before the attach (policies.c set_owner()) */
	if (bpf_map_lookup_elem(m->fd[PM_OWNER], &zero, &o))
		return kit_err(-errno, "%s: map 'owner': %s", name, strerror(errno));
	fd = bpf_obj_get(path);
	if (fd < 0)
		return kit_err(-errno, "%s: %s: %s (loaded by an older bpfsign-policy? unload and load it)",
			       name, path, strerror(errno));
	memset(&info, 0, sizeof(info));
	len = sizeof(info);
	if (bpf_link_get_info_by_fd(fd, &info, &len)) {
		err = kit_err(-errno, "%s: %s: not a link: %s", name, path, strerror(errno));
		close(fd);
		return err;
	}
	for (i = 0; i < BPFSIGN_MAX_OWN_PROGS; i++)
		if (info.prog_id && o.prog_ids[i] == info.prog_id)
			break;
	/* an iterator of root's own re-pinned there would report nothing */
	if (info.type != BPF_LINK_TYPE_ITER || i == BPFSIGN_MAX_OWN_PROGS) {
		close(fd);
		return kit_err(-ESTALE, "%s: %s: link %u (prog %u) is not the policy's users iterator: re-pinned, not trusting it",
			       name, path, info.id, info.prog_id);
	}
	return fd;
}

/* The records of one run of the iterator of link_fd: the first into *first, how many */
static int users_read(const char *name, int link_fd, struct bpfsign_user *first)
{
	struct bpfsign_user u;
	size_t have = 0;
	ssize_t r;
	int fd, n = 0;

	fd = bpf_iter_create(link_fd);
	if (fd < 0)
		return kit_err(-errno, "%s: %s: iterator: %s", name, USERS_PIN, strerror(errno));
	/* a seq_file read can end inside a record: gather each whole one */
	for (;;) {
		r = read(fd, (char *)&u + have, sizeof(u) - have);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		have += r;
		if (have < sizeof(u))
			continue;
		if (!n++)
			*first = u;
		have = 0;
	}
	if (r < 0)
		n = kit_err(-errno, "%s: %s: read: %s", name, USERS_PIN, strerror(errno));
	else if (have)
		n = kit_err(-EPROTO, "%s: %s: a partial record (%zu bytes)", name, USERS_PIN, have);
	close(fd);
	return n;
}

int policy_users_walk(const char *name, int link_fd)
{
	struct bpfsign_user u;
	char more[64] = "";
	int n;

	n = users_read(name, link_fd, &u);
	if (n <= 0)
		return n;
	u.map_name[sizeof(u.map_name) - 1] = 0;
	if (n > 1)
		snprintf(more, sizeof(more), " (and %d more programs use its maps)", n - 1);
	return kit_err(-EBADMSG, "%s: counters not trustworthy: program %u uses map %s (map %u)%s%s: loaded before the policy's guard was attached, or admitted by a permissive one",
		       name, u.prog_id, u.map_name, u.map_id,
		       u.map_in_map ? ", a map-in-map whose inner template fits one of the policy's maps" : "",
		       more);
}

int policy_users_check(const char *name, const char *dir)
{
	struct policy_maps m;
	int lfd, n;

	n = policy_maps_open(name, dir, &m);
	if (n)
		return n;
	lfd = users_link(name, dir, &m);
	policy_maps_close(&m);
	if (lfd < 0)
		return lfd;
	n = policy_users_walk(name, lfd);
	close(lfd);
	return n;
}
