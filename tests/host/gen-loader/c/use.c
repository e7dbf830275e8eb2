// SPDX-License-Identifier: GPL-2.0
/*
 * For tests/host/gen-loader/run.sh.
 * A program using the signed light skeleton's API, compiled as C and C++
 * (t_header_compiles; write.c, a write to .rodata, must not compile).
 */
#include "skel_counter.lskel.h"
int main(void)
{
	struct skel_counter *s = skel_counter__open();

	if (!s)
		return 1;
	(void)s->rodata->count_calls;
	if (skel_counter__load_keyring(s, -3))
		return 2;
	s->bss->target_tgid = 1;
	(void)s->bss->hits;
	(void)s->data->step;
	skel_counter__attach(s);
	skel_counter__destroy(s);
	return 0;
}
