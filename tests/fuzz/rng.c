// SPDX-License-Identifier: GPL-2.0
/* splitmix64: every choice the fuzzer makes comes from here, in order. */
#include "fuzz.h"

static u64 state;

void rnd_seed(u64 seed)
{
	state = seed;
}

u64 rnd(void)
{
	u64 z = (state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

u32 rnd_below(u32 n)
{
	return n ? (u32)(rnd() % n) : 0;
}

bool rnd_chance(u32 num, u32 den)
{
	return rnd_below(den) < num;
}

int rnd_weighted(const u32 *weights, int n)
{
	u32 total = 0, r;
	int i;

	for (i = 0; i < n; i++)
		total += weights[i];
	r = rnd_below(total);
	for (i = 0; i < n; i++) {
		if (r < weights[i])
			return i;
		r -= weights[i];
	}
	return n - 1;
}

void rnd_bytes(void *buf, size_t len)
{
	u8 *p = buf;
	u64 v = 0;
	size_t i;

	for (i = 0; i < len; i++) {
		if (!(i & 7))
			v = rnd();
		p[i] = v >> (8 * (i & 7));
	}
}
