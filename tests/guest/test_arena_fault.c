// SPDX-License-Identifier: GPL-2.0
/*
 * Arena kernel fault recovery: a kfunc dereferences an __arena argument on a
 * page nobody allocated, and the page fault handler maps the arena's scratch
 * page instead of oopsing. The attacker is a program author (or a buggy
 * program) passing any arena address to any kfunc; the kernel must stay up,
 * give the scratch page neither to user space nor to the allocator, and
 * recover nothing past the guard. The runner's kmsg scan fails the boot on
 * any oops, WARNING, KASAN or lockdep report these provoke.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "runner.h"
#include "arena_fault.skel.h"

#define USER_BASE (1ull << 44)
#define PAGE 4096

static int run(int prog_fd)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts);

	if (bpf_prog_test_run_opts(prog_fd, &opts))
		return -errno;
	return opts.retval;
}

TEST(arena_fault_recovered)
{
	struct arena_fault *skel = arena_fault__open_and_load();
	volatile __u64 *page9 = (void *)(USER_BASE + 9 * PAGE);

	if (!ASSERT_TRUE(skel, "arena program with direct __arena dereferences loads"))
		return;
	if (!ASSERT_EQ(run(bpf_program__fd(skel->progs.recover)), 0, "run"))
		goto out;
	ASSERT_EQ(skel->bss->deref_ret, 0x5ca7c400d1ull,
		  "write and read back through an unallocated page: the scratch page");
	ASSERT_EQ(skel->bss->seen_by_prog, 0x5ca7c400d1ull,
		  "the program sees the scratch page's contents there");
	ASSERT_EQ(skel->bss->other_page, 0, "a program load maps nothing: 0");
	ASSERT_EQ(skel->bss->limit_ret, 0x11e17, "at GUARD_SZ/2 past the last u64: recovered");
	/* the test kfunc's own contract, not the fault handler */
	ASSERT_EQ(skel->bss->range_ret, -ERANGE, "one u64 further: refused by the kfunc");
	ASSERT_EQ(skel->bss->rec_at, 1, "handler: at the pointer, recovered");
	ASSERT_EQ(skel->bss->rec_limit, 1, "handler: last byte of the upper half-guard");
	/* bpf_arena_handle_page_fault()'s range check: past it a fault oopses */
	ASSERT_EQ(skel->bss->rec_beyond, 0, "handler: beyond the guard, not recovered");
	/* the lower half-guard is left out */
	ASSERT_EQ(skel->bss->rec_below, 0, "handler: before the arena, not recovered");
	/* the exception table still comes first */
	ASSERT_EQ(skel->bss->nofault_ret, -EFAULT, "nofault accessor: -EFAULT, no scratch");
	/* f64c723741c9: allocation replaces the scratch PTE */
	ASSERT_EQ(skel->bss->alloc_ok, 1, "allocation over the scratch page succeeds");
	ASSERT_EQ(skel->bss->after_alloc, 0, "and maps a fresh zeroed page");
	/* arena_free_pages() on a scratch PTE: cleared, the scratch page kept */
	ASSERT_EQ(skel->bss->freed_scratch_ok, 1, "freeing a scratch-backed page clears it");
	ASSERT_EQ(skel->bss->deref_again, 0xa6a1, "and a later fault there recovers again");

	/* the scratch page never reaches user space: a user fault on a page the
	 * kernel faulted on gets a fresh page
	 */
	if (!ASSERT_EQ(run(bpf_program__fd(skel->progs.scratch_page9)), 0, "scratch on page 9"))
		goto out;
	ASSERT_EQ(*page9, 0, "user space reads a fresh page, not the scratch page");
	*page9 = 0x757e;
	ASSERT_EQ(run(bpf_program__fd(skel->progs.read_page9)), 0, "read page 9");
	ASSERT_EQ(skel->bss->page9_seen, 0x757e, "the program sees user space's page");
out:
	arena_fault__destroy(skel);
}

struct hammer {
	int fd, runs, failed;
};

static void *hammer_thread(void *arg)
{
	struct hammer *h = arg;
	int i;

	for (i = 0; i < h->runs; i++)
		h->failed += run(h->fd) != 0;
	return NULL;
}

/*
 * One CPU faults on every page of the arena in a loop while the other
 * allocates and frees the same pages: the allocation must replace the
 * scratch PTE atomically (a fault may put it back at any moment), and
 * freeing must never free the scratch page.
 */
TEST(arena_fault_concurrent_alloc)
{
	struct arena_fault *skel = arena_fault__open_and_load();
	struct hammer h = { .runs = 40 };
	pthread_t t;
	int i, failed = 0;

	if (!ASSERT_TRUE(skel, "load"))
		return;
	h.fd = bpf_program__fd(skel->progs.hammer);
	if (!ASSERT_EQ(pthread_create(&t, NULL, hammer_thread, &h), 0, "hammer thread"))
		goto out;
	for (i = 0; i < 20; i++)
		failed += run(bpf_program__fd(skel->progs.churn)) != 0;
	pthread_join(t, NULL);
	ASSERT_EQ(h.failed, 0, "every hammer run returned 0");
	ASSERT_EQ(failed, 0, "every churn run returned 0");
	ASSERT_EQ(skel->bss->alloc_failures, 0, "every allocation succeeded over scratch PTEs");
	ASSERT_EQ(skel->bss->pages_allocated, 20 * 16 * 4, "pages allocated and freed");
out:
	arena_fault__destroy(skel);
}

static void *long_thread(void *arg)
{
	struct hammer *h = arg;

	h->failed = run(h->fd);
	__atomic_store_n(&h->runs, 1, __ATOMIC_RELEASE);
	/* the program's last reference, and with it the arena's */
	close(h->fd);
	return NULL;
}

static bool map_gone(__u32 id)
{
	int i, fd;

	/* the arena goes with the program's last reference, via RCU and a
	 * workqueue
	 */
	for (i = 0; i < 200; i++) {
		fd = bpf_map_get_fd_by_id(id);
		if (fd < 0 && errno == ENOENT)
			return true;
		if (fd >= 0)
			close(fd);
		usleep(10000);
	}
	return false;
}

/*
 * User space lets go of the arena (fds closed, mapping gone) while another
 * CPU is inside the kfuncs, faulting on thousands of fresh pages: the
 * running program keeps the arena; once it ends the arena is freed with
 * scratch PTEs all over it, and its scratch page is freed once (KASAN and
 * the page allocator would report a double free or a freed page in use).
 */
TEST(arena_fault_arena_freed_while_running)
{
	struct arena_fault *skel = arena_fault__open_and_load();
	struct bpf_map_info info = {};
	__u32 len = sizeof(info);
	struct hammer h = {};
	struct timespec t0, t1;
	pthread_t t;
	bool inside;

	if (!ASSERT_TRUE(skel, "load"))
		return;
	if (!ASSERT_OK(bpf_map_get_info_by_fd(bpf_map__fd(skel->maps.arena), &info, &len),
		       "arena id"))
		goto out;
	skel->bss->long_pages = 4096;
	h.fd = dup(bpf_program__fd(skel->progs.long_run));
	if (!ASSERT_OK(h.fd, "dup") ||
	    !ASSERT_EQ(pthread_create(&t, NULL, long_thread, &h), 0, "runner thread"))
		goto out;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	usleep(20000);
	/* map fd, mapping and the skeleton's program fds go; the runner keeps
	 * only its own program fd
	 */
	arena_fault__destroy(skel);
	skel = NULL;
	inside = !__atomic_load_n(&h.runs, __ATOMIC_ACQUIRE);
	pthread_join(t, NULL);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	/* timing decides whether the destroy overlapped the run: say which */
	printf("# arena let go %s the run (%.0f ms)\n", inside ? "during" : "after",
	       (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6);
	ASSERT_EQ(h.failed, 0, "the run over 4096 fresh pages read back every value");
	ASSERT_TRUE(map_gone(info.id), "the arena is freed after the run");
out:
	arena_fault__destroy(skel);
}

#define CG "/sys/fs/cgroup"
#define CG_ARENA CG "/arena_pgtables"
#define CGROUP2_MAGIC 0x63677270
#define MIB (1024 * 1024)

static int write_str(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY), ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, val, strlen(val)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

static long long read_ll(const char *path)
{
	char buf[64] = "";
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	return n > 0 ? atoll(buf) : -EIO;
}

/* A memory cgroup with memory.max of limit_mib, or a negative errno */
static int memcg_setup(int limit_mib)
{
	struct statfs st;
	char max[32];
	int err;

	mkdir(CG, 0755);
	if ((statfs(CG, &st) || st.f_type != CGROUP2_MAGIC) &&
	    mount("cgroup2", CG, "cgroup2", 0, NULL))
		return -errno;
	err = write_str(CG "/cgroup.subtree_control", "+memory");
	if (err)
		return err;
	if (mkdir(CG_ARENA, 0755) && errno != EEXIST)
		return -errno;
	snprintf(max, sizeof(max), "%dM", limit_mib);
	return write_str(CG_ARENA "/memory.max", max);
}

struct charge_result {
	long long first_charge;	/* memory.current growth for the first arena */
	int created;		/* arenas created before the first refusal */
	int err;		/* errno of that refusal */
};

/* In a child moved into the memcg: create arenas until one is refused */
static void create_arenas_in_memcg(struct charge_result *r)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts, .map_flags = BPF_F_MMAPABLE);
	long long before;
	int i, fd;

	if (write_str(CG_ARENA "/cgroup.procs", "0"))
		_exit(2);
	before = read_ll(CG_ARENA "/memory.current");
	for (i = 0; i < 16; i++) {
		fd = bpf_map_create(BPF_MAP_TYPE_ARENA, "pgt", 0, 0, 1, &opts);
		if (fd < 0) {
			r->err = errno;
			break;
		}
		if (!i)
			r->first_charge = read_ll(CG_ARENA "/memory.current") - before;
		r->created++;
	}
	/* exit closes the arenas */
	_exit(0);
}

/*
 * The attacker holds CAP_BPF (or a token) inside a memory cgroup and
 * creates one-page arenas: each allocates the kernel page tables of its
 * whole 4 GiB range (about 8 MiB) at creation. Pins that they are charged
 * to its memcg: memory.current grows by them, and at a 20 MiB memory.max
 * the third arena is refused with ENOMEM (uncharged, 16 would pin 128 MiB).
 */
TEST(arena_pgtables_charged)
{
	struct charge_result *r = mmap(NULL, sizeof(*r), PROT_READ | PROT_WRITE,
				       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int status = 0;
	pid_t pid;

	if (!ASSERT_TRUE(r != MAP_FAILED, "shared result page") ||
	    !ASSERT_OK(memcg_setup(20), "memory cgroup with memory.max 20M"))
		return;
	memset(r, 0, sizeof(*r));
	pid = fork();
	if (!pid)
		create_arenas_in_memcg(r);
	if (!ASSERT_OK(pid, "fork") ||
	    !ASSERT_EQ(waitpid(pid, &status, 0), pid, "wait") ||
	    !ASSERT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status), "child joined the memcg"))
		goto out;
	printf("# first arena charged %lld KiB; %d created, then errno %d\n",
	       r->first_charge / 1024, r->created, r->err);
	/* fails without the charge: a one-page arena costs a few KiB there */
	ASSERT_GE(r->first_charge, 8 * MIB, "the first arena charges its page tables");
	ASSERT_EQ(r->created, 2, "two arenas fit in 20 MiB");
	/* the arena that would pass memory.max is refused, not created */
	ASSERT_EQ(r->err, ENOMEM, "the third is refused with ENOMEM");
out:
	/* the child has gone: the memcg is empty (its arenas are freed via RCU
	 * and a workqueue, the charge goes with them)
	 */
	rmdir(CG_ARENA);
	munmap(r, sizeof(*r));
}
