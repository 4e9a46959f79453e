/*
 * resolver.c - ward's own resolver of host names (resolver.h): a lookup
 * with getaddrinfo, the TTL from res_query, a small cache under one mutex,
 * and /etc/hosts read as a table of address -> names.
 *
 * Lookups run outside the mutex: a slow DNS server delays the decision
 * that needs the name, not every other decision.
 */
#include "resolver.h"

#include <arpa/inet.h>
#include <arpa/nameser.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <pthread.h>
#include <resolv.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>

static void v4_mapped(const void *in4, uint8_t out[16])
{
	memset(out, 0, 10);
	out[10] = out[11] = 0xff;
	memcpy(out + 12, in4, 4);
}

bool resolver_name_ok(const char *name)
{
	size_t n = strnlen(name, 254);
	if (n == 0 || n > 253 || name[0] == '.' || name[0] == '-')
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = name[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
		      c == '_' || (c == '.' && name[i - 1] != '.')))
			return false;
	}
	return true;
}

/*
 * The smallest TTL of the name's A and AAAA records, from the resolver
 * (res_query); -1 when the name did not come from DNS (/etc/hosts) or
 * the query failed.
 */
long resolver_ttl(const char *name)
{
	static const int types[2] = { ns_t_a, ns_t_aaaa };
	long ttl = -1;

	for (int k = 0; k < 2; k++) {
		unsigned char ans[4096];
		ns_msg msg;
		int n = res_query(name, ns_c_in, types[k], ans, sizeof(ans));
		if (n < 0 || ns_initparse(ans, n, &msg) < 0)
			continue;
		for (int i = 0; i < ns_msg_count(msg, ns_s_an); i++) {
			ns_rr rr;
			if (ns_parserr(&msg, ns_s_an, i, &rr) == 0 &&
			    (ttl < 0 || (long)ns_rr_ttl(rr) < ttl))
				ttl = (long)ns_rr_ttl(rr);
		}
	}
	return ttl;
}

static bool in_hosts(const char *name);

int resolver_lookup(const char *name, uint8_t (*addrs)[16], int max, long *ttl)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM };
	struct addrinfo *res = NULL;
	int n = 0;

	if (!resolver_name_ok(name))
		return -EINVAL;
	int rc = getaddrinfo(name, NULL, &hints, &res);
	if (rc != 0)
		return rc == EAI_SYSTEM && errno != 0 ? -errno : -ENOENT;
	for (struct addrinfo *ai = res; ai != NULL && n < max; ai = ai->ai_next) {
		if (ai->ai_family == AF_INET)
			v4_mapped(&((struct sockaddr_in *)ai->ai_addr)->sin_addr, addrs[n]);
		else if (ai->ai_family == AF_INET6)
			memcpy(addrs[n], &((struct sockaddr_in6 *)ai->ai_addr)->sin6_addr, 16);
		else
			continue;
		bool dup = false;
		for (int i = 0; i < n && !dup; i++)
			dup = memcmp(addrs[i], addrs[n], 16) == 0;
		n += !dup;
	}
	freeaddrinfo(res);
	if (ttl != NULL)
		*ttl = in_hosts(name) ? -1 : resolver_ttl(name);
	return n;
}

/* ---- the cache ---- */

struct entry {
	char name[256]; /* lower case; "" free */
	int rc;		/* resolver_lookup's result: how many, or -errno */
	uint8_t addrs[RESOLVER_ADDRS][16];
	time_t expires;
};

static struct entry cache[RESOLVER_CACHE];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void lower(const char *in, char *out, size_t len)
{
	size_t i = 0;
	for (; in[i] != '\0' && i + 1 < len; i++)
		out[i] = (char)(in[i] >= 'A' && in[i] <= 'Z' ? in[i] - 'A' + 'a' : in[i]);
	out[i] = '\0';
}

/* rc from the entry for name if it is still fresh: -EAGAIN when there is none. */
static int cached(const char *name, const uint8_t addr[16], time_t now)
{
	int rc = -EAGAIN;
	pthread_mutex_lock(&lock);
	for (size_t i = 0; i < RESOLVER_CACHE; i++) {
		struct entry *e = &cache[i];
		if (e->name[0] == '\0' || strcmp(e->name, name) != 0 || e->expires <= now)
			continue;
		rc = e->rc < 0 ? e->rc : 0;
		for (int k = 0; k < e->rc && rc == 0; k++)
			rc = memcmp(e->addrs[k], addr, 16) == 0;
		break;
	}
	pthread_mutex_unlock(&lock);
	return rc;
}

/* Keep name's answer, in its own entry or in the one that expires first. */
static void keep(const char *name, int rc, uint8_t (*addrs)[16], time_t expires)
{
	pthread_mutex_lock(&lock);
	struct entry *slot = &cache[0];
	for (size_t i = 0; i < RESOLVER_CACHE; i++) {
		if (strcmp(cache[i].name, name) == 0) {
			slot = &cache[i];
			break;
		}
		if (cache[i].expires < slot->expires)
			slot = &cache[i];
	}
	snprintf(slot->name, sizeof(slot->name), "%s", name);
	slot->rc = rc;
	if (rc > 0)
		memcpy(slot->addrs, addrs, (size_t)rc * 16);
	slot->expires = expires;
	pthread_mutex_unlock(&lock);
}

int resolver_verify(const char *name, const uint8_t addr[16])
{
	char key[256];
	uint8_t addrs[RESOLVER_ADDRS][16];
	long ttl = -1;
	time_t now = time(NULL);

	if (!resolver_name_ok(name))
		return -EINVAL;
	lower(name, key, sizeof(key));
	int rc = cached(key, addr, now);
	if (rc != -EAGAIN)
		return rc;
	int n = resolver_lookup(key, addrs, RESOLVER_ADDRS, &ttl);
	if (n <= 0) {
		keep(key, n < 0 ? n : -ENOENT, addrs, now + RESOLVER_MIN_TTL);
		return n < 0 ? n : -ENOENT;
	}
	if (ttl < 0 || ttl > RESOLVER_MAX_TTL)
		ttl = RESOLVER_MAX_TTL; /* not from DNS (a hosts file), or no TTL to be had */
	if (ttl < RESOLVER_MIN_TTL)
		ttl = RESOLVER_MIN_TTL;
	keep(key, n, addrs, now + ttl);
	for (int k = 0; k < n; k++)
		if (memcmp(addrs[k], addr, 16) == 0)
			return 1;
	return 0;
}

void resolver_flush(void)
{
	pthread_mutex_lock(&lock);
	memset(cache, 0, sizeof(cache));
	pthread_mutex_unlock(&lock);
}

/* ---- /etc/hosts ---- */

/*
 * Each (address, name) pair of the hosts file at path, to fn, until fn
 * returns non-zero (that is the result) or the file ends (0); -errno when
 * it cannot be read.
 */
static int hosts_each(const char *path, int (*fn)(const uint8_t addr[16], const char *name, void *arg),
		      void *arg)
{
	FILE *f = fopen(path != NULL ? path : "/etc/hosts", "re");
	char line[1024];
	int rc = 0;

	if (f == NULL)
		return -errno;
	while (rc == 0 && fgets(line, sizeof(line), f) != NULL) {
		char *hash = strchr(line, '#');
		if (hash != NULL)
			*hash = '\0';
		char *save = NULL, *word = strtok_r(line, " \t\r\n", &save);
		if (word == NULL)
			continue;
		uint8_t a[16];
		struct in_addr a4;
		char *pct = strchr(word, '%'); /* fe80::1%eth0 */
		if (pct != NULL)
			*pct = '\0';
		if (inet_pton(AF_INET, word, &a4) == 1)
			v4_mapped(&a4, a);
		else if (inet_pton(AF_INET6, word, a) != 1)
			continue;
		while (rc == 0 && (word = strtok_r(NULL, " \t\r\n", &save)) != NULL)
			if (resolver_name_ok(word))
				rc = fn(a, word, arg);
	}
	fclose(f);
	return rc;
}

struct names_of {
	const uint8_t *addr;
	char (*names)[256];
	int n, max;
};

static int add_name_of(const uint8_t addr[16], const char *name, void *arg)
{
	struct names_of *o = arg;
	if (memcmp(addr, o->addr, 16) != 0)
		return 0;
	lower(name, o->names[o->n], sizeof(o->names[o->n]));
	bool dup = false;
	for (int i = 0; i < o->n && !dup; i++)
		dup = strcmp(o->names[i], o->names[o->n]) == 0;
	o->n += !dup;
	return o->n >= o->max;
}

int resolver_hosts_names(const char *path, const uint8_t addr[16], char (*names)[256], int max)
{
	struct names_of o = { addr, names, 0, max };
	if (max <= 0)
		return 0;
	int rc = hosts_each(path, add_name_of, &o);
	return rc < 0 ? rc : o.n;
}

static int is_name(const uint8_t addr[16], const char *name, void *arg)
{
	(void)addr;
	return strcasecmp(name, arg) == 0;
}

/* Is name in /etc/hosts?  Then DNS has no TTL to give for it: no query. */
static bool in_hosts(const char *name)
{
	return hosts_each(NULL, is_name, (void *)name) == 1;
}
