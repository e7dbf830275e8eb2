// SPDX-License-Identifier: GPL-2.0
/*
 * For tests/host/package/run.sh: a program of the installed package's user,
 * built against the header LSKEL_H (-DLSKEL_H='"gl.lskel.h"': gen-loader's
 * or bpftool's of the skeleton "first") and pkg-config bpfsign alone.
 * bpftool's headers rely on the includer for <errno.h>, as upstream's
 * skel_internal.h does.
 */
#include <errno.h>
#include LSKEL_H
int main(void)
{
	struct first *s = first__open_and_load();

	if (!s)
		return 1;
	first__destroy(s);
	return 0;
}
