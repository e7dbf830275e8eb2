// SPDX-License-Identifier: GPL-2.0
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <openssl/sha.h>

#include "runner.h"
#include "util.h"

char vlog[65536];

int load_prog_type(enum bpf_prog_type type, const struct bpf_insn *insns, size_t cnt,
		   struct bpf_prog_load_opts *opts)
{
	LIBBPF_OPTS(bpf_prog_load_opts, def);

	if (!opts)
		opts = &def;
	vlog[0] = 0;
	opts->log_buf = vlog;
	opts->log_size = sizeof(vlog);
	opts->log_level = 1;
	return bpf_prog_load(type, "t", "GPL", insns, cnt, opts);
}

int load_prog(const struct bpf_insn *insns, size_t cnt, struct bpf_prog_load_opts *opts)
{
	return load_prog_type(BPF_PROG_TYPE_SOCKET_FILTER, insns, cnt, opts);
}

int array_map(__u32 value_size, __u32 max_entries, struct bpf_map_create_opts *opts)
{
	return bpf_map_create(BPF_MAP_TYPE_ARRAY, "t", 4, value_size, max_entries, opts);
}

int prog_map_ids(int prog_fd, __u32 *ids, __u32 max)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);

	info.nr_map_ids = max;
	info.map_ids = (__u64)(unsigned long)ids;
	if (bpf_prog_get_info_by_fd(prog_fd, &info, &len))
		return -1;
	return info.nr_map_ids;
}

__u32 map_id(int map_fd)
{
	struct bpf_map_info info = {};
	__u32 len = sizeof(info);

	if (bpf_map_get_info_by_fd(map_fd, &info, &len))
		return 0;
	return info.id;
}

__u32 prog_id(int prog_fd)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);

	return bpf_prog_get_info_by_fd(prog_fd, &info, &len) ? 0 : info.id;
}

void prog_digest(const struct bpf_insn *insns, size_t cnt, unsigned char out[32])
{
	struct bpf_insn copy[cnt];
	size_t i;

	memcpy(copy, insns, sizeof(copy));
	for (i = 0; i + 1 < cnt; i++) {
		if (copy[i].code == (BPF_LD | BPF_DW | BPF_IMM) &&
		    (copy[i].src_reg == BPF_PSEUDO_MAP_FD ||
		     copy[i].src_reg == BPF_PSEUDO_MAP_VALUE)) {
			copy[i].imm = 0;
			copy[i + 1].imm = 0;
			i++;
		}
	}
	SHA256((const unsigned char *)copy, sizeof(copy), out);
}

int sysctl_write(const char *path, const char *val, char *old, size_t old_sz)
{
	int fd = open(path, old ? O_RDWR : O_WRONLY), ret = 0;
	ssize_t n;

	if (fd < 0)
		return -errno;
	if (old) {
		n = read(fd, old, old_sz - 1);
		if (n < 0) {
			ret = -errno;
			goto out;
		}
		old[n] = 0;
		lseek(fd, 0, SEEK_SET);
	}
	if (write(fd, val, strlen(val)) < 0)
		ret = -errno;
out:
	close(fd);
	return ret;
}

int set_bpf_jit(int on)
{
	return sysctl_write("/proc/sys/net/core/bpf_jit_enable", on ? "1" : "0", NULL, 0);
}

/* const: the views it probes are; read() finds whether a write would fault */
bool is_read_only(const void *p)
{
	int fd = open("/dev/zero", O_RDONLY);
	bool ro = fd >= 0 && read(fd, (void *)p, 1) < 0 && errno == EFAULT;

	if (fd >= 0)
		close(fd);
	return ro;
}

int run_capture(const char *const argv[], char *out, size_t size)
{
	int fd = memfd_create("run-capture", 0), status;
	ssize_t n, len = 0;
	pid_t pid;

	out[0] = 0;
	if (fd < 0)
		return -1;
	pid = fork();
	if (!pid) {
		dup2(fd, 1);
		dup2(fd, 2);
		execv(argv[0], (char **)argv);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid) {
		close(fd);
		return -1;
	}
	lseek(fd, 0, SEEK_SET);
	while ((n = read(fd, out + len, size - 1 - len)) > 0)
		len += n;
	out[len] = 0;
	close(fd);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

const char *prog_fdinfo(int fd, const char *key, char *val, size_t len)
{
	char path[64], line[512];
	size_t klen = strlen(key);
	FILE *f;

	val[0] = 0;
	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	if (!f)
		return val;
	while (fgets(line, sizeof(line), f)) {
		/* "sig_key:" is not "sig_key_sha256:" */
		if (strncmp(line, key, klen) || line[klen] != ':' || line[klen + 1] != '\t')
			continue;
		line[strcspn(line, "\n")] = 0;
		snprintf(val, len, "%s", line + klen + 2);
		break;
	}
	fclose(f);
	return val;
}

long prog_fdinfo_num(int fd, const char *key)
{
	char v[64];

	return *prog_fdinfo(fd, key, v, sizeof(v)) ? strtol(v, NULL, 10) : -1;
}
