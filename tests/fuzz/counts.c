// SPDX-License-Identifier: GPL-2.0
/*
 * What must come back after the fuzzer closed everything: the number of
 * programs, maps, BTF objects and links (id walks), the number of root's
 * keys (/proc/key-users) and the usage count of every key that existed
 * before (/proc/keys), so that a leaked key reference shows.  Freed
 * programs and maps leave after an RCU grace period and a work item, and
 * unreferenced keys after the key garbage collector ran: counts_settle()
 * retries for three seconds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "fuzz.h"

static int count_ids(int (*next)(__u32, __u32 *))
{
	__u32 id = 0;
	int n = 0;

	while (!next(id, &id))
		n++;
	return n;
}

static int root_keys(void)
{
	char line[256];
	FILE *f = fopen("/proc/key-users", "r");
	int uid, usage, nkeys = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, " %d: %d %d/", &uid, &usage, &nkeys) == 3 && uid == 0)
			break;
	fclose(f);
	return nkeys;
}

void counts_take(struct counts *c)
{
	c->progs = count_ids(bpf_prog_get_next_id);
	c->maps = count_ids(bpf_map_get_next_id);
	c->btfs = count_ids(bpf_btf_get_next_id);
	c->links = count_ids(bpf_link_get_next_id);
	c->keys = root_keys();
}

#define MAX_USAGE 128
static struct { u32 serial; int usage; char desc[48]; } snaps[2][MAX_USAGE], *usage0;
static int nsnap[2], nusage0;

static int read_usage(u32 *serials, int *usage, char (*desc)[48], int max)
{
	char line[512], type[32], d[256];
	FILE *f = fopen("/proc/keys", "r");
	int n = 0;
	u32 serial;
	int use;

	if (!f)
		return 0;
	while (n < max && fgets(line, sizeof(line), f)) {
		/* serial flags usage expiry perm uid gid type description */
		if (sscanf(line, "%x %*s %d %*s %*s %*s %*s %31s %255[^\n]", &serial, &use,
			   type, d) < 3)
			continue;
		serials[n] = serial;
		usage[n] = use;
		if (desc)
			snprintf(desc[n], 48, "%.15s %.31s", type, d);
		n++;
	}
	fclose(f);
	return n;
}

void key_usage_snapshot(int slot)
{
	static u32 serials[MAX_USAGE];
	static int usage[MAX_USAGE];
	static char desc[MAX_USAGE][48];
	int i;

	nsnap[slot] = read_usage(serials, usage, desc, MAX_USAGE);
	for (i = 0; i < nsnap[slot]; i++) {
		snaps[slot][i].serial = serials[i];
		snaps[slot][i].usage = usage[i];
		memcpy(snaps[slot][i].desc, desc[i], 48);
	}
}

static const char *usage_diff(void)
{
	static char msg[160];
	static u32 serials[512];
	static int usage[512];
	int n = read_usage(serials, usage, NULL, 512), i, j;

	for (i = 0; i < nusage0; i++) {
		for (j = 0; j < n; j++)
			if (serials[j] == usage0[i].serial)
				break;
		if (j == n) {
			snprintf(msg, sizeof(msg), "key %08x (%s) is gone", usage0[i].serial,
				 usage0[i].desc);
			return msg;
		}
		if (usage[j] != usage0[i].usage) {
			snprintf(msg, sizeof(msg), "key %08x (%s) usage %d, was %d",
				 usage0[i].serial, usage0[i].desc, usage[j], usage0[i].usage);
			return msg;
		}
	}
	return NULL;
}

const char *counts_settle(const struct counts *want, int extra_keys, int slot)
{
	static char msg[256];
	struct timespec ts = { 0, 10 * 1000 * 1000 };
	const char *udiff = NULL;
	struct counts c;
	int tries;

	usage0 = snaps[slot];
	nusage0 = nsnap[slot];
	for (tries = 0; tries < 300; tries++) {
		counts_take(&c);
		udiff = usage_diff();
		if (c.progs == want->progs && c.maps == want->maps && c.btfs == want->btfs &&
		    c.links == want->links && c.keys == want->keys + extra_keys && !udiff)
			return NULL;
		nanosleep(&ts, NULL);
	}
	snprintf(msg, sizeof(msg),
		 "after closing everything: %d progs (want %d), %d maps (%d), %d btfs (%d), "
		 "%d links (%d), %d keys (%d)%s%s", c.progs, want->progs, c.maps, want->maps,
		 c.btfs, want->btfs, c.links, want->links, c.keys, want->keys + extra_keys,
		 udiff ? "; " : "", udiff ? udiff : "");
	return msg;
}

/*
 * Wait until the objects and key usages stop changing (200 ms alike, 5 s
 * at most): what another process (the policy CLI) made and let go is freed
 * after it exits, by RCU and workqueues.
 */
void counts_quiet(void)
{
	static u32 s1[512], s2[512];
	static int u1[512], u2[512];
	struct timespec ts = { 0, 20 * 1000 * 1000 };
	struct counts a, b;
	int n1, n2, same = 0, tries;

	counts_take(&a);
	n1 = read_usage(s1, u1, NULL, 512);
	for (tries = 0; tries < 250 && same < 10; tries++) {
		nanosleep(&ts, NULL);
		counts_take(&b);
		n2 = read_usage(s2, u2, NULL, 512);
		if (!memcmp(&a, &b, sizeof(a)) && n1 == n2 &&
		    !memcmp(s1, s2, n1 * sizeof(*s1)) && !memcmp(u1, u2, n1 * sizeof(*u1)))
			same++;
		else
			same = 0;
		a = b;
		n1 = n2;
		memcpy(s1, s2, n2 * sizeof(*s1));
		memcpy(u1, u2, n2 * sizeof(*u1));
	}
}
