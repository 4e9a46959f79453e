/*
 * byname_lib.c - a library byname dlopens, which resolves a name and
 * connects in its own code: the name must reach ward all the same
 * (tests/integration/preload_run.sh).
 */
#include <netdb.h>
#include <sys/socket.h>
#include <unistd.h>

int byname_lib_connect(const char *name, const char *port);

int byname_lib_connect(const char *name, const char *port)
{
	struct addrinfo hints = { .ai_family = AF_INET, .ai_socktype = SOCK_STREAM }, *res;
	int rc = -1;

	if (getaddrinfo(name, port, &hints, &res) != 0)
		return -1;
	int fd = socket(res->ai_family, res->ai_socktype, res->ai_protocol);
	if (fd >= 0 && connect(fd, res->ai_addr, res->ai_addrlen) == 0)
		rc = 0;
	if (fd >= 0)
		close(fd);
	freeaddrinfo(res);
	return rc;
}
