// SPDX-License-Identifier: GPL-2.0
/* BPF_OBJ_GET_INFO_BY_FD: SHA-256 of an array map's values. */
#include <unistd.h>
#include <openssl/sha.h>

#include "runner.h"
#include "util.h"

static int map_hash(int fd, void *hash, __u32 size)
{
	struct bpf_map_info info = {};
	__u32 len = sizeof(info);

	info.hash = (__u64)(unsigned long)hash;
	info.hash_size = size;
	return bpf_map_get_info_by_fd(fd, &info, &len);
}

TEST(map_hash_is_sha256_of_values)
{
	__u64 values[4] = { 1, 0x1122334455667788ULL, 0, ~0ULL };
	unsigned char got[32], want[32];
	int m = array_map(8, 4, NULL);
	__u32 k;

	for (k = 0; k < 4; k++)
		bpf_map_update_elem(m, &k, &values[k], 0);
	SHA256((unsigned char *)values, sizeof(values), want);
	if (ASSERT_OK(map_hash(m, got, 32), "get hash"))
		ASSERT_TRUE(!memcmp(got, want, 32), "hash == SHA-256 of the value area");
	close(m);
}

TEST(map_hash_rejects_bad_requests)
{
	int m = array_map(8, 1, NULL);
	int h = bpf_map_create(BPF_MAP_TYPE_HASH, "h", 4, 8, 1, NULL);
	unsigned char buf[32];

	/* SHA-256 only */
	ASSERT_ERR(map_hash(m, buf, 16), EINVAL, "hash_size 16");
	/* a size without a buffer */
	ASSERT_ERR(map_hash(m, NULL, 32), EINVAL, "hash_size without hash");
	/* only array maps have a defined value area to hash */
	ASSERT_ERR(map_hash(h, buf, 32), EINVAL, "hash map");
	close(m);
	close(h);
}

TEST(map_hash_exclusive_needs_frozen)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts);
	unsigned char digest[32] = { 7 }, buf[32];
	int m;

	opts.excl_prog_hash = digest;
	opts.excl_prog_hash_size = 32;
	m = array_map(8, 1, &opts);
	if (!ASSERT_OK(m, "create exclusive map"))
		return;
	/* size and type are valid: only the frozen check is left */
	ASSERT_ERR(map_hash(m, buf, 32), EPERM, "exclusive, not frozen");
	ASSERT_OK(bpf_map_freeze(m), "freeze");
	ASSERT_OK(map_hash(m, buf, 32), "exclusive and frozen");
	close(m);
}
