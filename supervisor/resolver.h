/*
 * resolver.h - ward's own name resolution: the only way a host name comes
 * to decide a network rule.
 *
 * A name the preload library reports for an address (hint.h) is a claim
 * by the agent.  ward resolves the name itself (getaddrinfo, so
 * /etc/hosts counts as it does for every program of the host) and uses it
 * only when the address is among its own answers.  Answers are kept for
 * their DNS TTL, between RESOLVER_MIN_TTL and RESOLVER_MAX_TTL seconds
 * (names from /etc/hosts: RESOLVER_MAX_TTL); failures for
 * RESOLVER_MIN_TTL.  Without the preload, /etc/hosts still names an
 * address.
 *
 * A name given to resolver_verify is looked up in DNS by ward: callers
 * verify only names that could change a decision (a policy domain rule
 * covers them), so that the agent cannot make ward send queries of its
 * choosing where the policy lets it send none itself.
 */
#ifndef WARD_RESOLVER_H
#define WARD_RESOLVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#define RESOLVER_MIN_TTL 5
#define RESOLVER_MAX_TTL 60
#define RESOLVER_CACHE 128
#define RESOLVER_ADDRS 32 /* addresses kept per name */

/* A name ward will look up: a DNS name, 1..253 characters of [A-Za-z0-9._-]. */
bool resolver_name_ok(const char *name);

/*
 * Is addr (IPv6, IPv4 as ::ffff:a.b.c.d) one of name's addresses as ward
 * resolves it now (from the cache while its TTL lasts)?  1 yes, 0 no,
 * -errno when the name could not be resolved or is not a name ward looks
 * up (then the claim stays unverified).
 */
int resolver_verify(const char *name, const uint8_t addr[16]);

/*
 * The addresses of name by ward's own lookup, at most max of them, and
 * when ttl is not NULL how long they may be kept (resolver_ttl).
 * Returns how many, or -errno.
 */
int resolver_lookup(const char *name, uint8_t (*addrs)[16], int max, long *ttl);

/*
 * The smallest TTL of name's A and AAAA records (res_query), or -1 when
 * the name is not in DNS (a hosts file) or DNS did not answer.
 */
long resolver_ttl(const char *name);

/* The names the hosts file gives addr, lower case (at most max).  NULL path: /etc/hosts. */
int resolver_hosts_names(const char *path, const uint8_t addr[16], char (*names)[256], int max);

/* Forget every cached answer (for the tests). */
void resolver_flush(void);

#endif
