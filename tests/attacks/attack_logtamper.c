/*
 * attack_logtamper - destroy or forge the audit log.  DESIGN.md §1: "Every
 * decision is in the audit log by the end of the session", and §3: ward
 * protects "its state and log directories" with deny! rules.
 *
 * The driver runs this one with `--log $PROJECT/audit.jsonl` - a log the
 * user chose to keep in the project, where the policy allows writing - and
 * names it in $ATTACK_LOG.  Truncating, rewriting, replacing or deleting
 * it, or writing forged lines into it, must all fail.  (Reading it is
 * reported as a note only.)  Natively the driver puts a log of one line
 * there in ward's place.
 */
#include "attack.h"

/* ward's own deny! rules answer EACCES. */
static void expect_fail(const char *how, int rc)
{
	should_fail(how, rc, EACCES);
}

int main(void)
{
	const char *log = getenv("ATTACK_LOG");
	char tmp[4096];

	if (log == NULL) {
		errno = EINVAL;
		setup_failed("$ATTACK_LOG");
	}
	int fd = open(log, O_RDONLY | O_CLOEXEC);
	say("note: open(log, O_RDONLY): %s", fd >= 0 ? "readable" : strerror(errno));
	if (fd >= 0)
		close(fd);

	fd = open(log, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd >= 0) {
		const char *fake = "{\"event\":\"session-end\",\"status\":0,\"forged\":true}\n";
		expect_fail("append a forged line", (int)write(fd, fake, strlen(fake)));
		close(fd);
	} else {
		expect_fail("open(log, O_WRONLY | O_APPEND)", -1);
	}
	fd = open(log, O_WRONLY | O_TRUNC | O_CLOEXEC);
	expect_fail("open(log, O_WRONLY | O_TRUNC)", fd);
	if (fd >= 0)
		close(fd);
	expect_fail("truncate(log, 0)", truncate(log, 0));
	snprintf(tmp, sizeof(tmp), "%s.new", log);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		setup_failed("a forged log to rename over it");
	ssize_t w = write(fd, "{}\n", 3);
	(void)w;
	close(fd);
	expect_fail("rename(forged file, log)", rename(tmp, log));
	expect_fail("unlink(log)", unlink(log));
	return finish();
}
