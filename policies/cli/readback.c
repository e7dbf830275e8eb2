// SPDX-License-Identifier: GPL-2.0
/* A frozen policy map against what bpfsign-policy wrote into it. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>

#include "err.h"
#include "readback.h"

static int changed(const char *policy, const char *map, const char *what)
{
	return kit_err(-EBADMSG, "%s: map '%s' %s before its freeze: another process wrote it by id; nothing attached",
		       policy, map, what);
}

int readback_array(const char *policy, const char *map, int fd, __u32 nr, const void *want,
		   size_t value_size)
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
			err = changed(policy, map, "changed");
	}
	free(v);
	return err;
}

int readback_hash(const char *policy, const char *map, int fd, size_t key_size,
		  size_t value_size, const void *keys, const void *values, __u32 n)
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
		err = changed(policy, map, count > n ? "gained entries" : "lost entries");
		goto out;
	}
	for (i = 0; i < n && !err; i++) {
		if (bpf_map_lookup_elem(fd, (const unsigned char *)keys + i * key_size, v))
			err = changed(policy, map, "lost an entry");
		else if (memcmp(v, (const unsigned char *)values + i * value_size, value_size))
			err = changed(policy, map, "changed");
	}
out:
	free(key);
	free(v);
	return err;
}
