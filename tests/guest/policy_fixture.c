// SPDX-License-Identifier: GPL-2.0
/* The shared fixture of the policy tests: policy_fixture.h */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "runner.h"
#include "policy_fixture.h"

const char *const policy_names[3] = { "deny-unsigned", "keyring-allowlist", "audit-log" };

char policy_out[1 << 20];

int policy_run(const char *const argv[])
{
	return run_capture(argv, policy_out, sizeof(policy_out));
}

int policy_cli(const char *arg, ...)
{
	const char *argv[16] = { POLICY_CLI };
	int argc = 1;
	va_list ap;

	va_start(ap, arg);
	for (; arg && argc < 15; arg = va_arg(ap, const char *))
		argv[argc++] = arg;
	va_end(ap);
	argv[argc] = NULL;
	return policy_run(argv);
}

void policy_dump_out(void)
{
	const char *line, *end;

	for (line = policy_out; *line; line = *end ? end + 1 : end) {
		end = strchrnul(line, '\n');
		printf("# | %.*s\n", (int)(end - line > 300 ? 300 : end - line), line);
	}
}

long policy_count(const char *haystack, const char *needle)
{
	long n = 0;

	while ((haystack = strstr(haystack, needle))) {
		n++;
		haystack += strlen(needle);
	}
	return n;
}

bool policy_pinned(const char *name)
{
	char path[256];
	struct stat st;

	snprintf(path, sizeof(path), POLICY_PIN_DIR "/%s", name);
	return !stat(path, &st);
}

void policy_unload(const char *name)
{
	if (!policy_pinned(name))
		return;
	POLICY_CLI_OK(name, "unload", name);
	ASSERT_TRUE(!policy_pinned(name), "pins removed by unload");
}

void policy_unload_all(void)
{
	size_t i;

	for (i = 0; i < ARRAY_LEN(policy_names); i++)
		policy_unload(policy_names[i]);
}

int policy_write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, text, strlen(text));
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

bool policy_load_allowlist(const char *path, const char *text)
{
	if (!ASSERT_TRUE(!policy_write_file(path, text), "write the policy file"))
		return false;
	if (policy_cli("load", "keyring-allowlist", "--policy", path, NULL)) {
		FAIL("load keyring-allowlist: %s", policy_out);
		return false;
	}
	return true;
}

int policy_try_unsigned_syscall(void)
{
	static const struct bpf_insn ret0[] = { MOV64_IMM(BPF_REG_0, 0), EXIT_INSN() };
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .prog_flags = BPF_F_SLEEPABLE);
	int fd = bpf_prog_load(BPF_PROG_TYPE_SYSCALL, "t", "GPL", ret0, ARRAY_LEN(ret0), &opts);

	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

bool policy_parse_counts(const char *name, __u64 n[BPFSIGN_STAT_MAX])
{
	char head[64];
	const char *p;

	snprintf(head, sizeof(head), "%s: loaded", name);
	p = strstr(policy_out, head);
	p = p ? strstr(p, "\n  allow ") : NULL;
	memset(n, 0, sizeof(*n) * BPFSIGN_STAT_MAX);
	return p && sscanf(p, "\n  allow %llu deny %llu would-deny %llu reject %llu lost %llu tallied %llu",
			   &n[0], &n[1], &n[2], &n[3], &n[4], &n[5]) >= BPFSIGN_STAT_TALLIED;
}

bool policy_status_counts(const char *name, __u64 n[BPFSIGN_STAT_MAX], int *rc)
{
	*rc = policy_cli("status", NULL);
	return policy_parse_counts(name, n);
}

int policy_map_fd_by_id(const char *policy, const char *pin)
{
	char path[128];
	int pfd, fd;

	snprintf(path, sizeof(path), POLICY_PIN_DIR "/%s/%s", policy, pin);
	pfd = bpf_obj_get(path);
	if (pfd < 0)
		return -1;
	fd = bpf_map_get_fd_by_id(map_id(pfd));
	close(pfd);
	return fd;
}

__u32 policy_link_prog_id(const char *policy, const char *link)
{
	struct bpf_link_info info;
	__u32 len = sizeof(info);
	char path[128];
	int fd;

	snprintf(path, sizeof(path), POLICY_PIN_DIR "/%s/%s", policy, link);
	fd = bpf_obj_get(path);
	if (fd < 0)
		return 0;
	memset(&info, 0, sizeof(info));
	if (bpf_link_get_info_by_fd(fd, &info, &len))
		info.prog_id = 0;
	close(fd);
	return info.prog_id;
}

int policy_load_zeroer(int fd, bool inner, __u32 idx)
{
	const struct bpf_insn direct[] = {
		LD_MAP(BPF_REG_1, BPF_PSEUDO_MAP_FD, fd),
		ST_MEM(BPF_W, BPF_REG_10, -4, idx),
		MOV64_REG(BPF_REG_2, BPF_REG_10),
		ADD64_IMM(BPF_REG_2, -4),
		CALL(BPF_FUNC_map_lookup_elem),
		JEQ_IMM(BPF_REG_0, 0, 1),
		ST_MEM(BPF_DW, BPF_REG_0, 0, 0),
		MOV64_IMM(BPF_REG_0, 1),
		EXIT_INSN(),
	};
	const struct bpf_insn via_outer[] = {
		LD_MAP(BPF_REG_1, BPF_PSEUDO_MAP_FD, fd),
		ST_MEM(BPF_W, BPF_REG_10, -4, 0),
		MOV64_REG(BPF_REG_2, BPF_REG_10),
		ADD64_IMM(BPF_REG_2, -4),
		CALL(BPF_FUNC_map_lookup_elem),
		JEQ_IMM(BPF_REG_0, 0, 7),
		MOV64_REG(BPF_REG_1, BPF_REG_0),
		ST_MEM(BPF_W, BPF_REG_10, -8, idx),
		MOV64_REG(BPF_REG_2, BPF_REG_10),
		ADD64_IMM(BPF_REG_2, -8),
		CALL(BPF_FUNC_map_lookup_elem),
		JEQ_IMM(BPF_REG_0, 0, 1),
		ST_MEM(BPF_DW, BPF_REG_0, 0, 0),
		MOV64_IMM(BPF_REG_0, 1),
		EXIT_INSN(),
	};
	int pfd;

	if (inner)
		pfd = load_prog_type(BPF_PROG_TYPE_CGROUP_SKB, via_outer, ARRAY_LEN(via_outer), NULL);
	else
		pfd = load_prog_type(BPF_PROG_TYPE_CGROUP_SKB, direct, ARRAY_LEN(direct), NULL);
	return pfd < 0 ? -errno : pfd;
}
