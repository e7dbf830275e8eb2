// SPDX-License-Identifier: GPL-2.0
/*
 * For tests/host/gen-loader/run.sh.
 * One caller compiled against gen-loader's and bpftool's headers of the
 * same object: the same API and struct layouts (t_api_parity_bpftool).
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include HDR
#define LAYOUT(m) printf("%s %zu %zu\n", #m, offsetof(struct skel_counter, m), \
			 sizeof(((struct skel_counter *)0)->m))
static int use(void)
{
	struct skel_counter *s = skel_counter__open();
	int fd;

	if (!s)
		return 1;
	(void)s->rodata->count_calls;
	if (skel_counter__load(s))
		goto out;
	s->bss->target_tgid = 1;
	s->data->step = 2;
	fd = s->maps.calls.map_fd + s->progs.count_getppid.prog_fd;
	(void)fd;
	if (skel_counter__count_getppid__attach(s) < 0 || skel_counter__attach(s))
		goto out;
	(void)s->links.count_getppid_fd;
	skel_counter__detach(s);
out:
	skel_counter__destroy(s);
	s = skel_counter__open_and_load();
	skel_counter__destroy(s);
	return 0;
}
int main(int argc, char **argv)
{
	(void)argv;
	if (argc > 1)	/* never run: it would call bpf() */
		return use();
	LAYOUT(ctx); LAYOUT(maps); LAYOUT(maps.calls); LAYOUT(maps.rodata);
	LAYOUT(maps.data); LAYOUT(maps.bss); LAYOUT(progs);
	LAYOUT(progs.count_getppid); LAYOUT(links); LAYOUT(links.count_getppid_fd);
	LAYOUT(rodata); LAYOUT(data); LAYOUT(bss);
	printf("ctx.sz %zu\n", offsetof(struct skel_counter, links));
	return 0;
}
