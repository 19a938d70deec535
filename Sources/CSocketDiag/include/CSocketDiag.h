#ifndef CSOCKETDIAG_H
#define CSOCKETDIAG_H

/// Who owns a TCP socket of this machine, asked of the kernel's socket table over netlink
/// (NETLINK_SOCK_DIAG, as `ss` asks it): Swift's Glibc module has none of <linux/inet_diag.h>.

/// The uid owning the TCP socket whose own end is `local`:`local_port` and whose peer is
/// `remote`:`remote_port` — on a loopback connection, the client's socket seen from the
/// server's side with the two ends swapped. `family` is AF_INET (addresses of 4 bytes) or
/// AF_INET6 (16 bytes), in network order; ports in host order. One exact look-up, not a walk
/// of the table. Returns 0 and sets `*uid`; -ENOENT when no such socket exists (its client
/// closed it already); another negative errno when the kernel cannot be asked (no sock_diag,
/// a sandbox refusing netlink).
int csocketdiag_tcp_owner(int family, const unsigned char *local, unsigned local_port,
                          const unsigned char *remote, unsigned remote_port, unsigned *uid);

/// The uid owning a listening TCP socket of `family` on `port` (any address); 0 and `*uid`, or
/// a negative errno as above (-ENOENT: nobody listens there).
int csocketdiag_tcp_listener_owner(int family, unsigned port, unsigned *uid);

#endif
