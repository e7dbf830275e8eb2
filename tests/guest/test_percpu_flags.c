// SPDX-License-Identifier: GPL-2.0
/* BPF_F_CPU and BPF_F_ALL_CPUS for percpu_array maps (global percpu data's
 * prerequisite): one CPU's value in and out.
 */
#include <stdlib.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "runner.h"
#include "util.h"
#include "basic.skel.h"

#define CPU(c) (BPF_F_CPU | (__u64)(c) << 32)

TEST(percpu_cpu_flags)
{
	int n = libbpf_num_possible_cpus(), fd, c;
	__u64 v, *all = calloc(n, sizeof(*all));
	__u32 key = 0;

	fd = bpf_map_create(BPF_MAP_TYPE_PERCPU_ARRAY, "pcpu", 4, 8, 1, NULL);
	if (!ASSERT_OK(fd, "percpu_array") || !ASSERT_GE(n, 2, "the guest has 2 CPUs"))
		goto out;

	v = 7;
	ASSERT_OK(bpf_map_update_elem(fd, &key, &v, BPF_F_ALL_CPUS), "update all CPUs");
	ASSERT_OK(bpf_map_lookup_elem(fd, &key, all), "classic lookup of every CPU");
	for (c = 0; c < n; c++)
		ASSERT_EQ(all[c], 7, "BPF_F_ALL_CPUS reached every CPU");

	v = 100;
	ASSERT_OK(bpf_map_update_elem(fd, &key, &v, CPU(1)), "update CPU 1 only");
	ASSERT_OK(bpf_map_lookup_elem_flags(fd, &key, &v, CPU(1)), "lookup CPU 1");
	ASSERT_EQ(v, 100, "CPU 1's value");
	ASSERT_OK(bpf_map_lookup_elem_flags(fd, &key, &v, CPU(0)), "lookup CPU 0");
	ASSERT_EQ(v, 7, "CPU 0 untouched");
out:
	free(all);
	if (fd >= 0)
		close(fd);
}

TEST(percpu_cpu_flags_refused)
{
	int n = libbpf_num_possible_cpus();
	int fd = bpf_map_create(BPF_MAP_TYPE_PERCPU_ARRAY, "pcpu", 4, 8, 1, NULL);
	int plain = array_map(8, 1, NULL);
	__u32 key = 0;
	__u64 v = 1;

	/* both at once: one CPU or all of them */
	ASSERT_ERR(bpf_map_update_elem(fd, &key, &v, CPU(0) | BPF_F_ALL_CPUS), EINVAL,
		   "BPF_F_CPU | BPF_F_ALL_CPUS");
	/* a lookup has no "all CPUs" single value */
	ASSERT_ERR(bpf_map_lookup_elem_flags(fd, &key, &v, BPF_F_ALL_CPUS), EINVAL,
		   "BPF_F_ALL_CPUS on lookup");
	/* the CPU number is only meaningful with BPF_F_CPU */
	ASSERT_ERR(bpf_map_lookup_elem_flags(fd, &key, &v, (__u64)1 << 32), EINVAL,
		   "CPU number without BPF_F_CPU");
	/* the range check, with otherwise valid flags */
	ASSERT_ERR(bpf_map_lookup_elem_flags(fd, &key, &v, CPU(n)), ERANGE,
		   "CPU beyond the possible CPUs");
	/* not a percpu map */
	ASSERT_ERR(bpf_map_update_elem(plain, &key, &v, CPU(0)), EINVAL,
		   "BPF_F_CPU on an array map");
	close(fd);
	close(plain);
}

/* libbpf's bpf_map__*() check one CPU's value size with the flags */
TEST(percpu_cpu_flags_libbpf)
{
	struct basic *skel = basic__open_and_load();
	__u32 key = 0;
	__u64 v = 5;

	if (!ASSERT_TRUE(skel, "basic__open_and_load"))
		return;
	ASSERT_OK(bpf_map__update_elem(skel->maps.pcpu, &key, sizeof(key), &v, sizeof(v),
				       BPF_F_ALL_CPUS), "bpf_map__update_elem, one value, all CPUs");
	v = 0;
	ASSERT_OK(bpf_map__lookup_elem(skel->maps.pcpu, &key, sizeof(key), &v, sizeof(v),
				       CPU(1)), "bpf_map__lookup_elem, CPU 1");
	ASSERT_EQ(v, 5, "CPU 1 has the value");
	/* without the flags, a single value is the wrong size */
	ASSERT_ERR(bpf_map__lookup_elem(skel->maps.pcpu, &key, sizeof(key), &v, sizeof(v), 0),
		   EINVAL, "one value without BPF_F_CPU");
	basic__destroy(skel);
}
