// SPDX-License-Identifier: GPL-2.0
/*
 * A full trampoline, named.  The kernel says E2BIG and nothing more when
 * BPF_MAX_TRAMP_LINKS programs are linked on a function; a policy that
 * cannot attach must say where and who holds the slots.  Programs carry
 * their target (attach_btf_obj_id, attach_btf_id) in their info: walk
 * them.  Loaded programs are counted, linked or not: bpf(2) does not tell
 * which of them hold a slot.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>

#include "err.h"
#include "prog_target.h"

#define MAX_IDS_SHOWN	24

/* The name of BTF type id in BTF object obj_id (vmlinux or a module) */
static void target_name(__u32 obj_id, __u32 id, char *buf, size_t size)
{
	const struct btf_type *t;
	struct btf *btf;

	snprintf(buf, size, "BTF type %u of BTF object %u", id, obj_id);
	btf = btf__load_from_kernel_by_id(obj_id);
	if (!btf)
		return;
	t = btf__type_by_id(btf, id);
	if (t && t->name_off)
		snprintf(buf, size, "%s", btf__name_by_offset(btf, t->name_off));
	btf__free(btf);
}

static int prog_info(int fd, struct bpf_prog_info *info)
{
	__u32 len = sizeof(*info);

	memset(info, 0, sizeof(*info));
	return bpf_prog_get_info_by_fd(fd, info, &len);
}

/* " ID" into ids (size bytes, at *off), up to MAX_IDS_SHOWN, then " ..." */
static void add_id(char *ids, size_t size, size_t *off, int n, __u32 id)
{
	if (n < MAX_IDS_SHOWN)
		*off += snprintf(ids + *off, size - *off, " %u", id);
	else if (n == MAX_IDS_SHOWN)
		*off += snprintf(ids + *off, size - *off, " ...");
}

int prog_target_full_err(const char *name, int prog_fd)
{
	char fn[128], ids[MAX_IDS_SHOWN * 11 + 8] = "", refused[MAX_IDS_SHOWN * 11 + 8] = "";
	struct bpf_prog_info self, info;
	size_t off = 0, roff = 0;
	int fd, n = 0, nr = 0;
	__u32 id = 0;

	if (prog_fd < 0 || prog_info(prog_fd, &self) || !self.attach_btf_id)
		return kit_err(-E2BIG, "%s: attach: %s (a trampoline is full)", name,
			       strerror(E2BIG));
	target_name(self.attach_btf_obj_id, self.attach_btf_id, fn, sizeof(fn));
	while (!bpf_prog_get_next_id(id, &id)) {
		if (id == self.id)
			continue;
		fd = bpf_prog_get_fd_by_id(id);
		/* a policy's guard refuses the fds of programs that use its
		 * maps (an owner map left empty: all of them): such a program
		 * may target fn too, and bpftool cannot show it either
		 */
		if (fd < 0 && errno != ENOENT)
			add_id(refused, sizeof(refused), &roff, nr++, id);
		if (fd < 0)
			continue;
		if (!prog_info(fd, &info) && info.attach_btf_id == self.attach_btf_id &&
		    info.attach_btf_obj_id == self.attach_btf_obj_id)
			add_id(ids, sizeof(ids), &off, n++, id);
		close(fd);
	}
	return kit_err(-E2BIG, "%s: attach to %s: %s: its trampoline is full; %d other loaded programs target %s:%s (bpftool prog show id ID); %d more refused an fd:%s",
		       name, fn, strerror(E2BIG), n, fn, ids, nr, nr ? refused : " none");
}
