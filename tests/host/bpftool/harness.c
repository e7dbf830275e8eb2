/*
 * What an edited header would do: its bpf() calls land in this syscall()
 * (nothing reaches the kernel), which prints the metadata the loader map
 * gets and the signature and keyring of BPF_PROG_LOAD; system() prints its
 * command.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/bpf.h>

static __u32 value_size;

long syscall(long nr, ...)
{
	union bpf_attr *attr;
	const unsigned char *p;
	__u32 h = 2166136261u, i;
	unsigned int size;
	va_list ap;
	int cmd;

	va_start(ap, nr);
	cmd = va_arg(ap, int);
	attr = va_arg(ap, union bpf_attr *);
	size = va_arg(ap, unsigned int);
	va_end(ap);
	if (nr != __NR_bpf) {
		errno = ENOSYS;
		return -1;
	}
	switch (cmd) {
	case BPF_MAP_CREATE:
		value_size = attr->value_size;
		return 100;
	case BPF_MAP_UPDATE_ELEM:
		p = (const unsigned char *)(unsigned long)attr->value;
		for (i = 0; i < value_size; i++)
			h = (h ^ p[i]) * 16777619u;
		printf("data %u bytes, fnv1a %08x\n", value_size, h);
		return 0;
	case BPF_MAP_FREEZE:
		return 0;
	case BPF_PROG_LOAD:
		/* an unsigned load passes an attr that ends before the signature */
		if (size < offsetof(union bpf_attr, keyring_id) + sizeof(attr->keyring_id))
			printf("load: %u insns, signature 0 bytes\n", attr->insn_cnt);
		else
			printf("load: %u insns, signature %u bytes, keyring %d\n", attr->insn_cnt,
			       attr->signature_size, attr->keyring_id);
		errno = EPERM;
		return -1;
	}
	errno = ENOSYS;
	return -1;
}

int system(const char *command)
{
	printf("system(\"%s\")\n", command);
	return 0;
}

#include HEADER

int main(void)
{
	printf("open_and_load: %s\n", sc__open_and_load() ? "loaded" : "failed");
	return 0;
}
