// SPDX-License-Identifier: GPL-2.0
/*
 * The BPF-token attacker: root of a user namespace, holding a token that
 * init-namespace root delegated through a bpffs. It passes every
 * bpf_token_capable() check and no capable() one, so it shows what the
 * kit's checks grant to a namespaced holder that real CAP_BPF would not.
 *
 * The bpffs is opened in the child (its user namespace owns the
 * superblock), configured and mounted by the parent (delegation needs
 * CAP_SYS_ADMIN in the init namespace), as tools/testing/selftests/bpf do.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include "token.h"

int token_bpffs_fd = -1;

static int send_fd(int sock, int fd)
{
	char cbuf[CMSG_SPACE(sizeof(int))] = {};
	char c = 0;
	struct iovec iov = { .iov_base = &c, .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *cmsg = CMSG_FIRSTHDR(&msg);

	cmsg->cmsg_level = SOL_SOCKET;
	cmsg->cmsg_type = SCM_RIGHTS;
	cmsg->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cmsg), &fd, sizeof(int));
	return sendmsg(sock, &msg, 0) == 1 ? 0 : -1;
}

static int recv_fd(int sock)
{
	char cbuf[CMSG_SPACE(sizeof(int))] = {};
	char c;
	struct iovec iov = { .iov_base = &c, .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *cmsg;
	int fd;

	if (recvmsg(sock, &msg, 0) != 1)
		return -1;
	cmsg = CMSG_FIRSTHDR(&msg);
	if (!cmsg || cmsg->cmsg_type != SCM_RIGHTS)
		return -1;
	memcpy(&fd, CMSG_DATA(cmsg), sizeof(int));
	return fd;
}

static int write_proc(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, s, strlen(s));
	close(fd);
	return n == (ssize_t)strlen(s) ? 0 : -1;
}

const char *token_idmap;

static int enter_userns(void)
{
	if (unshare(CLONE_NEWUSER) ||
	    write_proc("/proc/self/setgroups", "deny"))
		return -1;
	/* token_idmap: the parent writes it, as newuidmap would */
	if (!token_idmap && (write_proc("/proc/self/uid_map", "0 0 1") ||
			     write_proc("/proc/self/gid_map", "0 0 1")))
		return -1;
	/* fsopen() wants CAP_SYS_ADMIN over the mount namespace */
	return unshare(CLONE_NEWNS);
}

/* Parent side: delegate everything, create the superblock, mount it. */
static int delegate(int fs_fd)
{
	static const char *const opts[] = {
		"delegate_cmds", "delegate_maps", "delegate_progs", "delegate_attachs",
	};
	size_t i;

	for (i = 0; i < sizeof(opts) / sizeof(opts[0]); i++)
		if (fsconfig(fs_fd, FSCONFIG_SET_STRING, opts[i], "any", 0))
			return -1;
	if (fsconfig(fs_fd, FSCONFIG_CMD_CREATE, NULL, NULL, 0))
		return -1;
	return fsmount(fs_fd, 0, 0);
}

static void child(int sock, int (*fn)(int, void *), void *arg)
{
	int fs_fd, mnt_fd, bpffs_fd, token_fd;

	if (enter_userns())
		_exit(100);
	fs_fd = fsopen("bpf", 0);
	if (fs_fd < 0 || send_fd(sock, fs_fd))
		_exit(101);
	close(fs_fd);
	mnt_fd = recv_fd(sock);
	if (mnt_fd < 0)
		_exit(102);
	/* fsmount()'s fd is O_PATH, which bpf_token_create() cannot fdget() */
	bpffs_fd = openat(mnt_fd, ".", O_RDONLY);
	close(mnt_fd);
	if (bpffs_fd < 0)
		_exit(103);
	token_fd = bpf_token_create(bpffs_fd, NULL);
	if (token_fd < 0) {
		printf("# bpf_token_create: errno %d\n", errno);
		_exit(104);
	}
	token_bpffs_fd = bpffs_fd;
	fflush(stdout);
	_exit(fn(token_fd, arg));
}

int run_with_token(int (*fn)(int token_fd, void *arg), void *arg)
{
	int sv[2], fs_fd, mnt_fd = -1, status;
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		return -1;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		close(sv[0]);
		child(sv[1], fn, arg);
	}
	close(sv[1]);
	if (pid < 0) {
		close(sv[0]);
		return -1;
	}
	fs_fd = recv_fd(sv[0]);
	if (fs_fd >= 0 && token_idmap) {
		char path[64];

		snprintf(path, sizeof(path), "/proc/%d/uid_map", pid);
		if (write_proc(path, token_idmap))
			printf("# %s: errno %d\n", path, errno);
		snprintf(path, sizeof(path), "/proc/%d/gid_map", pid);
		if (write_proc(path, token_idmap))
			printf("# %s: errno %d\n", path, errno);
	}
	if (fs_fd >= 0) {
		mnt_fd = delegate(fs_fd);
		if (mnt_fd < 0)
			printf("# bpffs delegation: errno %d\n", errno);
		else
			send_fd(sv[0], mnt_fd);
		close(fs_fd);
	}
	/* a child waiting for the mount fd sees EOF and gives up */
	close(sv[0]);
	if (mnt_fd >= 0)
		close(mnt_fd);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	if (WEXITSTATUS(status) >= 100) {
		printf("# token setup failed at step %d\n", WEXITSTATUS(status) - 100);
		return -1;
	}
	return WEXITSTATUS(status);
}
