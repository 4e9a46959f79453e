/*
 * tty.h - the session's terminals (tty.c): ward's own, and the ptys whose
 * master a process of the session holds; any other is another's.
 */
#ifndef WARD_TTY_H
#define WARD_TTY_H

#include <stdbool.h>
#include <sys/types.h>

void tty_init(void);
/*
 * The agent runs on ward's pty (term/pty.c): its slave is the session's
 * terminal, and the real one, ward's now, is another's to the agent.
 */
void tty_own_pty(dev_t real, dev_t slave);
/* True for path being a terminal that is not the session's (or one stat cannot tell). */
bool tty_foreign(const char *path);
/* The same for a char device by its number. */
bool tty_foreign_dev(dev_t rdev);
/*
 * Open /dev/tty for task tid: its own controlling terminal (ward's own
 * /dev/tty would be ward's), with the agent's flags; -ENXIO for none.
 */
int tty_open_ctty(pid_t tid, int flags);

#endif
