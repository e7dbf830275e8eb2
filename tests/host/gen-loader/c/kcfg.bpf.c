// SPDX-License-Identifier: GPL-2.0
/*
 * For tests/host/gen-loader/run.sh.
 * A __kconfig extern, which gen-loader refuses without --target-config
 * (t_err_host_dependent).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
extern unsigned int CONFIG_HZ __kconfig;
int hz;
SEC("syscall")
int p(void *ctx) { hz = CONFIG_HZ; return 0; }
char LICENSE[] SEC("license") = "GPL";
