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
#include <pthread.h>
#include <sys/mman.h>
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
