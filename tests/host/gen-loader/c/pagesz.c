// SPDX-License-Identifier: GPL-2.0
/*
 * For tests/host/gen-loader/run.sh.
 * LD_PRELOAD shim: sysconf(_SC_PAGE_SIZE) answers $BPFSIGN_PAGE_SIZE
 * (page_shim()).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <unistd.h>
long sysconf(int name)
{
	static long (*real)(int);

	if (name == _SC_PAGE_SIZE && getenv("BPFSIGN_PAGE_SIZE"))
		return atol(getenv("BPFSIGN_PAGE_SIZE"));
	if (!real)
		real = (long (*)(int))dlsym(RTLD_NEXT, "sysconf");
	return real(name);
}
