/*
 * attack_rdwr - open the secret for reading *and* writing.  An fd opened
 * O_RDWR reads as well as an O_RDONLY one, so such an open needs both the
 * read and the write permission.  The policy here denies reading
 * everything under secret/ and (default profile) allows writing anywhere in the project:
 * an O_RDWR open judged as a write only would hand out the secret.
 *
 * open(O_RDWR), openat2(O_RDWR), open(O_RDWR | O_APPEND), the odd access
 * mode 3, and O_RDWR through a symlink.  None of them modifies the file.
 */
#include "attack.h"

#include <linux/openat2.h>
#include <sys/mman.h>

int main(void)
{
	try_read("open(secret/x, O_RDWR)", AT_FDCWD, SECRET, O_RDWR);
	try_read("open(secret/x, O_RDWR | O_APPEND)", AT_FDCWD, SECRET, O_RDWR | O_APPEND);
	try_read("open(secret/x, O_RDWR | O_NOATIME)", AT_FDCWD, SECRET, O_RDWR | O_NOATIME);

	struct open_how how = { .flags = O_RDWR | O_CLOEXEC };
	int fd = (int)syscall(SYS_openat2, AT_FDCWD, SECRET, &how, sizeof(how));
	if (fd >= 0) {
		if (!check_fd("openat2(secret/x, O_RDWR)", fd))
			missed("openat2(O_RDWR): opened, but it is not the secret");
		close(fd);
	} else {
		refused("openat2(secret/x, O_RDWR)", errno, openat2_err(EACCES));
	}

	/* An O_RDWR fd can also be mapped for reading. */
	fd = open(SECRET, O_RDWR | O_CLOEXEC);
	if (fd >= 0) {
		char *m = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
		if (m != MAP_FAILED && is_secret(m, 64))
			leak("mmap of an O_RDWR fd of secret/x", m, 64);
		close(fd);
	} else {
		refused("open(secret/x, O_RDWR) to map it", errno, EACCES);
	}
	/* Access mode 3: neither read nor write for read(2); must not read either. */
	fd = open(SECRET, 3 | O_CLOEXEC);
	if (fd >= 0) {
		char buf[64];
		ssize_t n = read(fd, buf, sizeof(buf));
		if (n > 0 && is_secret(buf, (size_t)n))
			leak("open(secret/x, 3) then read", buf, (size_t)n);
		else
			say("note: open(secret/x, O_ACCMODE) opened, read gives %s",
			    n < 0 ? strerror(errno) : "nothing");
		close(fd);
	} else {
		refused("open(secret/x, 3)", errno, EACCES);
	}
	if (symlink(SECRET, "rw-link") < 0)
		setup_failed("symlink rw-link");
	try_read("open(symlink to secret/x, O_RDWR)", AT_FDCWD, "rw-link", O_RDWR);
	return finish();
}
