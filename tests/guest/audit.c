// SPDX-License-Identifier: GPL-2.0
#include <poll.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <linux/audit.h>
#include <linux/netlink.h>

#include "audit.h"

static int audit_set(int fd, unsigned int enabled, unsigned int pid)
{
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	struct {
		struct nlmsghdr nlh;
		struct audit_status s;
	} req = {
		.nlh = {
			.nlmsg_len = sizeof(req),
			.nlmsg_type = AUDIT_SET,
			.nlmsg_flags = NLM_F_REQUEST,
		},
		.s = {
			.mask = AUDIT_STATUS_ENABLED | AUDIT_STATUS_PID,
			.enabled = enabled,
			.pid = pid,
		},
	};

	return sendto(fd, &req, sizeof(req), 0, (struct sockaddr *)&kernel,
		      sizeof(kernel)) == sizeof(req) ? 0 : -1;
}

int audit_open(void)
{
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_AUDIT);

	if (fd < 0)
		return -1;
	if (audit_set(fd, 1, getpid())) {
		close(fd);
		return -1;
	}
	return fd;
}

int audit_find(int fd, const char *needle, char *rec, size_t len, int timeout_ms)
{
	return audit_find_type(fd, AUDIT_BPF, needle, rec, len, timeout_ms);
}

int audit_find_type(int fd, int type, const char *needle, char *rec, size_t len,
		    int timeout_ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	char buf[8192];

	while (poll(&p, 1, timeout_ms) == 1) {
		struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
		ssize_t n = recv(fd, buf, sizeof(buf) - 1, 0);
		size_t plen;

		if (n < (ssize_t)NLMSG_HDRLEN)
			return -1;
		if (nlh->nlmsg_type != type)
			continue;
		/* audit sets nlmsg_len to the payload length alone: trust n */
		plen = n - NLMSG_HDRLEN;
		((char *)NLMSG_DATA(nlh))[plen] = 0;
		if (strstr(NLMSG_DATA(nlh), needle)) {
			strncpy(rec, NLMSG_DATA(nlh), len - 1);
			rec[len - 1] = 0;
			return 0;
		}
	}
	return -1;
}

void audit_close(int fd)
{
	audit_set(fd, 0, 0);
	close(fd);
}
