// SPDX-License-Identifier: GPL-2.0
/*
 * Signed skeletons generated for the target, not for the machine that
 * generated them (issue 17): a perf event array without max_entries
 * delivers from every CPU of a guest with more CPUs than the build host,
 * __kconfig externs hold the target's values given with --target-config,
 * an object of more programs than a loader had room for loads, and a
 * caller leaves out the alternative this kernel cannot load: a failed load
 * names the program.
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "runner.h"
#include "target_perf.lskel.h"
#include "target_kconfig.lskel.h"
#include "target_many.lskel.h"
#include "target_alt.lskel.h"

/* gen-loader's size of a perf event array without max_entries, when no
 * --target-config gives CONFIG_NR_CPUS: the largest NR_CPUS (target.h)
 */
#define MAX_CPUS_DEFAULT	8192
#define NR_MANY			73	/* programs of progs/target_many.bpf.c */
#define KERNEL_VERSION(a, b, c)	(((a) << 16) + ((b) << 8) + ((c) > 255 ? 255 : (c)))

struct seen {
	unsigned long long mask;
	int events;
};

static void on_sample(void *ctx, int cpu, void *data, __u32 size)
{
	struct seen *s = ctx;
	__u32 sent;

	if (size < sizeof(sent))
		return;
	memcpy(&sent, data, sizeof(sent));
	/* the event came through the ring of the CPU it names */
	if (sent == (__u32)cpu && sent < 64)
		s->mask |= 1ull << sent;
	s->events++;
}

static bool run_on(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return !sched_setaffinity(0, sizeof(set), &set);
}

/* Every CPU's getppid() reaches user space through its own ring. */
static void perf_every_cpu(int min_cpus)
{
	int i, err, ncpus = libbpf_num_possible_cpus();
	struct bpf_map_info info = {};
	__u32 info_len = sizeof(info);
	struct perf_buffer *pb = NULL;
	struct target_perf *skel;
	struct seen seen = {};
	cpu_set_t saved;

	if (!ASSERT_GE(ncpus, min_cpus, "possible CPUs of this boot (BPFSIGN_SMP)"))
		return;
	if (!ASSERT_TRUE(ncpus <= 64, "at most 64 CPUs for the mask"))
		return;
	skel = target_perf__open();
	if (!ASSERT_TRUE(skel, "target_perf__open"))
		return;
	err = target_perf__load(skel);
	if (err) {
		FAIL("target_perf__load: %d (%s), %s", err, strerrorname_np(-err),
		     skel->errstr ? skel->errstr : "");
		goto out;
	}
	/* the signed size, not the 2 CPUs of the machine that generated it */
	if (ASSERT_OK(bpf_map_get_info_by_fd(skel->maps.events.map_fd, &info, &info_len),
		      "info of the perf event array"))
		ASSERT_EQ(info.max_entries, MAX_CPUS_DEFAULT, "max_entries of the perf event array");
	pb = perf_buffer__new(skel->maps.events.map_fd, 8, on_sample, NULL, &seen, NULL);
	if (!ASSERT_TRUE(pb, "perf_buffer__new"))
		goto out;
	skel->bss->target_tgid = getpid();
	if (!ASSERT_OK(target_perf__attach(skel), "target_perf__attach"))
		goto out;
	if (!ASSERT_OK(sched_getaffinity(0, sizeof(saved), &saved), "sched_getaffinity"))
		goto out;
	for (i = 0; i < ncpus; i++) {
		if (!ASSERT_TRUE(run_on(i), "sched_setaffinity to one CPU"))
			break;
		syscall(SYS_getppid);	/* not glibc's getppid(): no caching */
	}
	sched_setaffinity(0, sizeof(saved), &saved);
	for (i = 0; i < 20 && seen.events < ncpus; i++)
		perf_buffer__poll(pb, 100);
	ASSERT_EQ(skel->bss->lost, 0, "bpf_perf_event_output() failures (E2BIG past max_entries)");
	ASSERT_EQ(seen.events, ncpus, "events, one per CPU");
	ASSERT_EQ(seen.mask, ncpus == 64 ? ~0ull : (1ull << ncpus) - 1,
		  "the CPUs events came from, as a mask");
out:
	perf_buffer__free(pb);
	target_perf__destroy(skel);
}

TEST(target_perf_every_cpu)
{
	perf_every_cpu(1);
}

/* In a boot with more CPUs than the 2 of the machine that signed it. */
TEST_EXPLICIT(target_perf_every_cpu_smp4)
{
	perf_every_cpu(4);
}

/* The value of "@target kconfig NAME=" in the header's signed C. */
static long target_value(const char *name)
{
	const char *data = target_kconfig__lskel_data, *p;
	size_t sz = sizeof(target_kconfig__lskel_data) - 1;
	char key[96];

	snprintf(key, sizeof(key), "@target kconfig %s=", name);
	p = memmem(data, sz, key, strlen(key));
	return p ? strtol(p + strlen(key), NULL, 10) : -1;
}

/* The program sees the values given for the target at generation. */
TEST(target_kconfig_resolved)
{
	LIBBPF_OPTS(bpf_test_run_opts, topts);
	struct target_kconfig *skel;
	unsigned int a = 0, b = 0, c = 0;
	struct utsname u;
	int err;

	if (!ASSERT_OK(uname(&u), "uname"))
		return;
	if (!ASSERT_EQ(sscanf(u.release, "%u.%u.%u", &a, &b, &c), 3, "release A.B.C"))
		return;
	skel = target_kconfig__open();
	if (!ASSERT_TRUE(skel, "target_kconfig__open"))
		return;
	err = target_kconfig__load(skel);
	if (err) {
		FAIL("target_kconfig__load: %d (%s), %s", err, strerrorname_np(-err),
		     skel->errstr ? skel->errstr : "");
		goto out;
	}
	if (!ASSERT_OK(bpf_prog_test_run_opts(skel->progs.read_kconfig.prog_fd, &topts),
		       "run read_kconfig"))
		goto out;
	ASSERT_EQ(skel->bss->version, KERNEL_VERSION(a, b, c),
		  "LINUX_KERNEL_VERSION: this kernel's release, from --target-config");
	ASSERT_EQ(skel->bss->nr_cpus, target_value("CONFIG_NR_CPUS"),
		  "CONFIG_NR_CPUS: the header's signed target value");
	ASSERT_GE(skel->bss->nr_cpus, libbpf_num_possible_cpus(), "CONFIG_NR_CPUS >= possible CPUs");
	ASSERT_EQ(skel->bss->bpf_syscall, 1, "CONFIG_BPF_SYSCALL=y");
	ASSERT_EQ(skel->data->never_set, 0, "a weak option the target does not set");
out:
	target_kconfig__destroy(skel);
}

/* 73 programs and their shared subprogram, each loaded and runnable. */
TEST(target_many_programs)
{
	LIBBPF_OPTS(bpf_test_run_opts, topts);
	static const int run[] = { 0, 31, 32, 33, NR_MANY - 1 };
	const struct bpf_prog_desc *progs;
	struct target_many *skel;
	size_t i;
	int err;

	skel = target_many__open();
	if (!ASSERT_TRUE(skel, "target_many__open"))
		return;
	err = target_many__load(skel);
	if (err) {
		FAIL("target_many__load: %d (%s), %s", err, strerrorname_np(-err),
		     skel->errstr ? skel->errstr : "");
		goto out;
	}
	progs = (const struct bpf_prog_desc *)&skel->progs;
	ASSERT_EQ(sizeof(skel->progs) / sizeof(*progs), NR_MANY, "programs in the skeleton");
	for (i = 0; i < NR_MANY; i++)
		if (!ASSERT_GE(progs[i].prog_fd, 1, "a program's fd"))
			goto out;
	for (i = 0; i < sizeof(run) / sizeof(run[0]); i++) {
		if (!ASSERT_OK(bpf_prog_test_run_opts(progs[run[i]].prog_fd, &topts), "run a program"))
			goto out;
		ASSERT_EQ(skel->bss->hits[run[i]], 1, "hits of the program run");
	}
	ASSERT_EQ(skel->bss->hits[1], 0, "hits of a program not run");
out:
	target_many__destroy(skel);
}

/* A kprobe on func, through the kprobe PMU, running prog_fd. */
static int kprobe_attach(const char *func, int prog_fd)
{
	struct perf_event_attr attr = { .size = sizeof(attr) };
	char buf[32] = {};
	int fd, type;
	FILE *f;

	f = fopen("/sys/bus/event_source/devices/kprobe/type", "r");
	if (!f)
		return -errno;
	type = fgets(buf, sizeof(buf), f) ? atoi(buf) : -1;
	fclose(f);
	if (type < 0)
		return -EINVAL;
	attr.type = type;
	attr.config1 = (__u64)(unsigned long)func;
	fd = syscall(SYS_perf_event_open, &attr, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (ioctl(fd, PERF_EVENT_IOC_SET_BPF, prog_fd) || ioctl(fd, PERF_EVENT_IOC_ENABLE, 0)) {
		close(fd);
		return -errno;
	}
	return fd;
}

/*
 * The fentry alternative's target is missing: the whole load fails with
 * ENOENT and errstr names that program.  Left out, the kprobe alternative
 * loads alone, and runs.
 */
TEST(target_alternatives)
{
	struct target_alt *skel;
	int err, fd;

	skel = target_alt__open();
	if (!ASSERT_TRUE(skel, "target_alt__open"))
		return;
	err = target_alt__load(skel);
	/* the loader's bpf_btf_find_by_name_kind() of bpfsign_no_such_function */
	ASSERT_ERR(err, ENOENT, "load with an fentry program whose target is missing");
	ASSERT_EQ(skel->progs.alt_fentry.prog_fd, -ENOENT, "the failed program's -errno in its prog_fd");
	ASSERT_STREQ(skel->errstr, "program 'alt_fentry' failed to load (the error is the return value; the verifier log goes to ctx.log_buf)",
		     "errstr names the program");
	target_alt__destroy(skel);

	skel = target_alt__open();
	if (!ASSERT_TRUE(skel, "target_alt__open"))
		return;
	ASSERT_OK(target_alt__alt_fentry__set_autoload(skel, 0), "leave alt_fentry out");
	/* any other value is no choice: the loader compares it with
	 * BPF_SKEL_PROG_SKIP and loads the program over it
	 */
	skel->progs.alt_kprobe.prog_fd = -ENOENT;
	err = target_alt__load(skel);
	if (err) {
		FAIL("target_alt__load without alt_fentry: %d (%s), %s", err, strerrorname_np(-err),
		     skel->errstr ? skel->errstr : "");
		goto out;
	}
	ASSERT_EQ(skel->progs.alt_fentry.prog_fd, 0, "the program left out has no fd");
	ASSERT_GE(skel->progs.alt_kprobe.prog_fd, 1, "the kprobe alternative is loaded");
	ASSERT_ERR(target_alt__alt_kprobe__set_autoload(skel, 0), EBUSY, "set_autoload after load");
	/* __attach() leaves out what was left out of the load */
	ASSERT_OK(target_alt__attach(skel), "target_alt__attach without alt_fentry");
	ASSERT_EQ(skel->links.alt_fentry_fd, 0, "no link of the program left out");
	skel->bss->target_tgid = getpid();
	fd = kprobe_attach("__x64_sys_getppid", skel->progs.alt_kprobe.prog_fd);
	if (!ASSERT_OK(fd, "kprobe __x64_sys_getppid"))
		goto out;
	syscall(SYS_getppid);
	syscall(SYS_getppid);
	close(fd);
	ASSERT_EQ(skel->bss->kprobe_hits, 2, "kprobe hits after 2 getppid()");
	ASSERT_EQ(skel->bss->fentry_hits, 0, "no fentry hits");
out:
	target_alt__destroy(skel);
}
