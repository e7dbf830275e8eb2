// SPDX-License-Identifier: GPL-2.0
/* A frozen policy map against what bpfsign-policy wrote into it. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <bpf/bpf.h>

#include "err.h"
#include "readback.h"

#define BEFORE_FREEZE	"before its freeze: another process wrote it by id; nothing attached"
#define IN_WINDOW	"before the guard's attach: a program loaded in the window (since freed) wrote it, or the guard refused one since; only the guard was attached, and is detached again"

static int changed(const char *policy, const char *map, const char *what, const char *why)
{
	return kit_err(-EBADMSG, "%s: map '%s' %s %s", policy, map, what, why);
}

static int array_is(const char *policy, const char *map, int fd, __u32 nr, const void *want,
		    size_t value_size, const char *why)
{
	unsigned char *v = malloc(value_size * 2);
	int err = 0;
	__u32 k;

	if (!v)
		return kit_err(-ENOMEM, "%s: map '%s': out of memory", policy, map);
	memset(v + value_size, 0, value_size);
	for (k = 0; k < nr && !err; k++) {
		const void *w = want ? (const unsigned char *)want + k * value_size : v + value_size;

		if (bpf_map_lookup_elem(fd, &k, v))
			err = kit_err(-errno, "%s: map '%s': read back %u: %s", policy, map, k,
				      strerror(errno));
		else if (memcmp(v, w, value_size))
			err = changed(policy, map, "changed", why);
	}
	free(v);
	return err;
}

static int hash_is(const char *policy, const char *map, int fd, size_t key_size,
		   size_t value_size, const void *keys, const void *values, __u32 n,
		   const char *why)
{
	unsigned char *key = calloc(2, key_size), *v = malloc(value_size);
	__u32 count = 0, i;
	int err = 0;

	if (!key || !v) {
		err = kit_err(-ENOMEM, "%s: map '%s': out of memory", policy, map);
		goto out;
	}
	/* exactly n entries, and each of the n written ones as written */
	while (!bpf_map_get_next_key(fd, count ? key : NULL, key + key_size)) {
		memcpy(key, key + key_size, key_size);
		if (++count > n)
			break;
	}
	if (count != n) {
		err = changed(policy, map, count > n ? "gained entries" : "lost entries", why);
		goto out;
	}
	for (i = 0; i < n && !err; i++) {
		if (bpf_map_lookup_elem(fd, (const unsigned char *)keys + i * key_size, v))
			err = changed(policy, map, "lost an entry", why);
		else if (memcmp(v, (const unsigned char *)values + i * value_size, value_size))
			err = changed(policy, map, "changed", why);
	}
out:
	free(key);
	free(v);
	return err;
}

int readback_array(const char *policy, const char *map, int fd, __u32 nr, const void *want,
		   size_t value_size)
{
	return array_is(policy, map, fd, nr, want, value_size, BEFORE_FREEZE);
}

int readback_hash(const char *policy, const char *map, int fd, size_t key_size,
		  size_t value_size, const void *keys, const void *values, __u32 n)
{
	return hash_is(policy, map, fd, key_size, value_size, keys, values, n, BEFORE_FREEZE);
}

/* the ring buffer as log reads it (libbpf's ring_buffer: the consumer and producer pages) */
static int ring_empty(const char *policy, const char *map, int fd)
{
	long ps = sysconf(_SC_PAGESIZE);
	unsigned long cons, prod;
	void *p;

	p = mmap(NULL, 2 * ps, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return kit_err(-errno, "%s: map '%s': mmap: %s", policy, map, strerror(errno));
	cons = __atomic_load_n((unsigned long *)p, __ATOMIC_ACQUIRE);
	prod = __atomic_load_n((unsigned long *)((char *)p + ps), __ATOMIC_ACQUIRE);
	munmap(p, 2 * ps);
	if (cons || prod)
		return kit_err(-EBADMSG, "%s: map '%s' holds records (producer %lu, consumer %lu) %s",
			       policy, map, prod, cons, IN_WINDOW);
	return 0;
}

int readback_window_empty(const char *policy, const char *map, int fd, size_t key_size,
			  size_t value_size)
{
	return hash_is(policy, map, fd, key_size, value_size, NULL, NULL, 0, IN_WINDOW);
}

int readback_window(const char *policy, int stats_fd, int tally_fd, int tally_any_fd,
		    int events_fd, size_t stats_nr, size_t key_size, size_t value_size)
{
	return array_is(policy, "stats", stats_fd, stats_nr, NULL, sizeof(__u64), IN_WINDOW) ?:
	       hash_is(policy, "tally", tally_fd, key_size, value_size, NULL, NULL, 0, IN_WINDOW) ?:
	       hash_is(policy, "tally_any", tally_any_fd, key_size, value_size, NULL, NULL, 0,
		       IN_WINDOW) ?:
	       ring_empty(policy, "events", events_fd);
}
