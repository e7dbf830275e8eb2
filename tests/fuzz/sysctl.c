// SPDX-License-Identifier: GPL-2.0
/*
 * kernel.bpf_sig_enforce: writes of 0, 1 and junk.  A seed raises it from
 * some operation on, or never; once raised it must read 1 for the rest of
 * the boot, and raising it seals .bpf with the keys it holds.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "fuzz.h"

static u64 raise_at;		/* the op from which sysctl writes 1, or never */

void sysctl_plan(void)
{
	raise_at = rnd_chance(1, 4) ? 0 : 100 + rnd_below(1500);
	/* policy mode tests what the policies refuse: without enforcement */
	if (st.policy)
		raise_at = 0;
	if (raise_at)
		printf("# enforcement may be raised from op %llu on\n", (unsigned long long)raise_at);
}

void op_sysctl(void)
{
	static const char *const junk[] = { "2", "-1", "x", "", "10" };
	const char *val;
	bool was = st.enforce;
	struct expect e;
	int ret;

	if (raise_at && st.op >= raise_at && rnd_chance(1, 2))
		val = "1";
	else if (rnd_chance(3, 4))
		val = "0";
	else
		val = junk[rnd_below(ARRAY_SIZE(junk))];
	op_desc("write \"%s\" to kernel.bpf_sig_enforce (now %d)", val, was);
	if (!strcmp(val, "1"))
		e = EXPECT_OK("raising is always allowed");
	else if (!strcmp(val, "0"))
		e = was ? EXPECT_FAIL(EPERM, "one way: 1 stays 1") : EXPECT_OK("0 while 0");
	else if (!*val)
		/* proc_dointvec_minmax() of nothing keeps the value: 1 stays 1, 0 stays 0 */
		e = EXPECT_OK("an empty write changes nothing");
	else
		e = EXPECT_FAIL(EINVAL, "out of range");
	ret = sysctl_write("/proc/sys/kernel/bpf_sig_enforce", val, NULL, 0);
	expect_check("sysctl_write", e, ret);
	if (!ret && !strcmp(val, "1"))
		sysctl_raised();
	enforce_read();
}

/* the seed's plan allows raising enforcement now */
bool sysctl_may_raise(void)
{
	return raise_at && st.op >= raise_at;
}

/* a write of 1 returned success: the model follows */
void sysctl_raised(void)
{
	if (!st.enforce)
		stat_note("enforcement raised by the fuzzer");
	st.enforce = true;
	/* raising it seals .bpf with the keys it holds */
	st.bpf_sealed = true;
	st.permanent_keys = st.bpf_nkeys;
}

