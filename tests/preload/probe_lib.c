/*
 * probe_lib.c - a library hint_probe dlopens: a name resolved from code
 * loaded after the program started still reaches the preload's table.
 */
#include <netdb.h>
#include <stddef.h>
#include <sys/socket.h>

int probe_lookup(const char *name);

__attribute__((visibility("default"))) int probe_lookup(const char *name)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM };
	struct addrinfo *res = NULL;
	if (getaddrinfo(name, "80", &hints, &res) != 0)
		return -1;
	freeaddrinfo(res);
	return 0;
}
