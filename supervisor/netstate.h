/*
 * netstate.h - what network decisions need besides the policy
 * (netstate.c): @session, @dns, the host's own addresses, and the names
 * ward resolved itself.  Not to be confused with handlers/net.c, which
 * serves the network calls.
 */
#ifndef WARD_NETSTATE_H
#define WARD_NETSTATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct ward_policy;

/* Start the resolver thread for the policy's domain names. */
int net_init(const struct ward_policy *p);
void net_v4_mapped(uint32_t be_addr, uint8_t out[16]);
bool net_is_loopback(const uint8_t a[16]);
/* An address of this host: loopback, unspecified (0.0.0.0, ::), or an interface's. */
bool net_is_local(const uint8_t a[16]);
void net_format(const uint8_t a[16], char *out, size_t len);
/* Record a bound socket (cookie: SO_COOKIE; sock_ino: its sockfs inode). */
int net_session_add_inet(int type, int protocol, const uint8_t addr[16], uint16_t port,
			 bool v6only, uint64_t cookie);
int net_session_add_unix(uint32_t sock_ino);
int net_session_add_abstract(uint32_t sock_ino, int type, const char *name, size_t len);
/*
 * Would a session socket, still alive, receive at this destination, for a
 * socket of this type and protocol (UDP and UDP-Lite, TCP and SCTP have
 * port spaces of their own; an abstract name is one per socket type)?
 * src:sport (NULL: not known) is the sender's own address, for a datagram
 * socket connected to it.
 */
bool net_session_inet(int type, int protocol, const uint8_t addr[16], uint16_t port,
		      const uint8_t *src, uint16_t sport);
bool net_session_unix(dev_t dev, ino_t ino);
bool net_session_abstract(int type, const char *name, size_t len);
bool net_is_dns(const uint8_t addr[16], uint16_t port);
/*
 * A unix socket of a program outside the session takes clients at the
 * file (dev, ino), or at a name that path (not NULL: a directory or a
 * symlink) is or is above, as bound or as it resolves: 1, 0, or -errno.
 */
int net_unix_foreign(dev_t dev, ino_t ino, const char *path);
/*
 * The file the unix socket whose sockfs inode is sock_ino is bound to
 * (its dev and 32 bits of its inode, as sock_diag tells them): 0, or
 * -errno (-ENOENT: bound to no file).
 */
int net_unix_file(uint32_t sock_ino, dev_t *dev, uint32_t *ino);
/*
 * Does any socket of this network namespace take what comes to port, on
 * any address of either family: for IPPROTO_TCP one that listens, for
 * UDP and UDP-Lite one bound there?  1, 0, or -errno when the kernel
 * cannot say.  (sock_diag, which the agent may ask itself: it tells
 * nothing more.)
 */
int net_port_used(int protocol, uint16_t port);
/*
 * Can ward ask the kernel about sockets (sock_diag: inet_diag with TCP
 * and UDP, unix_diag)?  0, or -errno of the first that cannot say (a
 * kernel whose modules for it are not loaded, nor loadable).
 */
int net_diag_probe(void);
/* The names ward verified for addr (at most max), waiting a little for
 * the first resolution of the policy's names; returns how many. */
int net_host_of(const uint8_t addr[16], char hosts[][256], int max);
/*
 * A name the person granted for the session (a host ward verified): ward
 * resolves it now, in the caller's thread, and keeps it resolved, so that
 * net_host_of names its other addresses too and the grant decides them.
 * Names ward would not look up are ignored.
 */
void net_learn_name(const char *name);

#endif
