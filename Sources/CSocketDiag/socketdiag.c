#include "CSocketDiag.h"

#include <errno.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/// What a reply's message is checked against: the port of a listener (dump), or nothing (an
/// exact look-up answers with the one socket).
struct wanted {
    unsigned listener_port;
    int dump;
};

/// Sends `request` and reads the replies; 0 with `*uid` of the first socket that matches.
/// The kernel answers during the send (and, for a dump, during each receive): nothing here
/// waits on anything but the kernel's own work.
static int ask(const struct inet_diag_req_v2 *request, struct wanted wanted, unsigned *uid) {
    int fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
    if (fd < 0) return -errno;
    struct {
        struct nlmsghdr header;
        struct inet_diag_req_v2 request;
    } message;
    memset(&message, 0, sizeof message);
    message.header.nlmsg_len = sizeof message;
    message.header.nlmsg_type = SOCK_DIAG_BY_FAMILY;
    message.header.nlmsg_flags = NLM_F_REQUEST | (wanted.dump ? NLM_F_DUMP : 0);
    message.request = *request;
    struct sockaddr_nl kernel;
    memset(&kernel, 0, sizeof kernel);
    kernel.nl_family = AF_NETLINK;
    if (sendto(fd, &message, sizeof message, 0, (struct sockaddr *)&kernel, sizeof kernel) < 0) {
        int error = errno;
        close(fd);
        return -error;
    }
    long buffer[2048];
    int result = -ENOENT;
    for (;;) {
        ssize_t length = recv(fd, buffer, sizeof buffer, 0);
        if (length < 0 && errno == EINTR) continue;
        if (length <= 0) {
            if (length < 0) result = -errno;
            break;
        }
        int finished = 0;
        for (struct nlmsghdr *header = (struct nlmsghdr *)buffer; NLMSG_OK(header, (unsigned)length);
             header = NLMSG_NEXT(header, length)) {
            if (header->nlmsg_type == NLMSG_DONE) {
                finished = 1;
                break;
            }
            if (header->nlmsg_type == NLMSG_ERROR) {
                const struct nlmsgerr *error = NLMSG_DATA(header);
                if (error->error != 0) result = error->error;
                finished = 1;
                break;
            }
            if (header->nlmsg_type != SOCK_DIAG_BY_FAMILY) continue;
            const struct inet_diag_msg *socket = NLMSG_DATA(header);
            if (!wanted.dump || ntohs(socket->id.idiag_sport) == wanted.listener_port) {
                *uid = socket->idiag_uid;
                result = 0;
                finished = 1;
                break;
            }
        }
        if (finished) break;
    }
    close(fd);
    return result;
}

int csocketdiag_tcp_owner(int family, const unsigned char *local, unsigned local_port,
                          const unsigned char *remote, unsigned remote_port, unsigned *uid) {
    if (family != AF_INET && family != AF_INET6) return -EAFNOSUPPORT;
    struct inet_diag_req_v2 request;
    memset(&request, 0, sizeof request);
    request.sdiag_family = (unsigned char)family;
    request.sdiag_protocol = IPPROTO_TCP;
    request.idiag_states = ~0u;
    size_t size = family == AF_INET ? 4 : 16;
    memcpy(request.id.idiag_src, local, size);
    memcpy(request.id.idiag_dst, remote, size);
    request.id.idiag_sport = htons((unsigned short)local_port);
    request.id.idiag_dport = htons((unsigned short)remote_port);
    request.id.idiag_cookie[0] = INET_DIAG_NOCOOKIE;
    request.id.idiag_cookie[1] = INET_DIAG_NOCOOKIE;
    struct wanted wanted = {0, 0};
    return ask(&request, wanted, uid);
}

int csocketdiag_tcp_listener_owner(int family, unsigned port, unsigned *uid) {
    if (family != AF_INET && family != AF_INET6) return -EAFNOSUPPORT;
    struct inet_diag_req_v2 request;
    memset(&request, 0, sizeof request);
    request.sdiag_family = (unsigned char)family;
    request.sdiag_protocol = IPPROTO_TCP;
    request.idiag_states = 1u << TCP_LISTEN;
    struct wanted wanted = {port, 1};
    return ask(&request, wanted, uid);
}
