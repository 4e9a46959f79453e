/*
 * liar.c - an LD_PRELOAD of the agent's own that lies about a name: its
 * getaddrinfo answers LIAR_NAME with LIAR_ADDR (an IPv4 address), so that
 * the preload library records that name for that address.  ward's own
 * lookup of the name must find it is not so
 * (tests/integration/preload_run.sh).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dlfcn.h>
#include <netdb.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

int getaddrinfo(const char *node, const char *service, const struct addrinfo *hints,
		struct addrinfo **res)
{
	int (*real)(const char *, const char *, const struct addrinfo *, struct addrinfo **) =
		(int (*)(const char *, const char *, const struct addrinfo *, struct addrinfo **))dlsym(
			RTLD_NEXT, "getaddrinfo");
	const char *name = getenv("LIAR_NAME"), *addr = getenv("LIAR_ADDR");

	if (real == NULL)
		return EAI_SYSTEM;
	if (node == NULL || name == NULL || addr == NULL || strcmp(node, name) != 0)
		return real(node, service, hints, res);
	/* The answer for the address, handed back as the name's. */
	return real(addr, service, hints, res);
}
