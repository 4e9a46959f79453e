/*
 * pty.h - the agent on a pseudo-terminal whose master only ward holds.
 *
 * When ward's stdin or stdout is a terminal (and ward is in its
 * foreground), the agent's descriptors that were that terminal become a
 * pty's slave, two rows shorter; a relay thread of ward's carries keys in
 * and output out (through term/screen.c), draws ward's rows, reads the
 * person's answers there, passes window size changes on, follows the
 * agent's job control, and gives the terminal back as it found it on
 * every way out.
 */
#ifndef WARD_PTY_H
#define WARD_PTY_H

#include <stdbool.h>
#include <sys/types.h>

/*
 * Before the fork: open the real terminal and the pty.  1 when there is
 * one, 0 when not (no terminal, or ward is not in its foreground, or it
 * is too small: the agent then runs on what ward was given, as before),
 * -errno on failure.
 */
int pty_open(void);
bool pty_active(void);

/*
 * In the child, after the fork (and, under ptrace, after the tracer has
 * it: this forks): a session of its own with the slave as its
 * controlling terminal, each of its descriptors that was the real
 * terminal now the slave.  The child stays the session's leader, a
 * monitor that never returns (it exits as the agent does, and stops when
 * it stops); the agent, in a process group of its own in the terminal's
 * foreground, returns 0 and goes on to exec.  -errno on failure.
 */
int pty_child(void);

/*
 * In ward, after the fork: the real terminal in raw mode, ward's rows
 * drawn, the relay started.  session names the session in ward's idle
 * row, home shortens paths shown.  0 or -errno (the terminal as it was).
 */
int pty_start(pid_t child, const char *session, const char *home);

/*
 * The monitor (the child pty_child() left) stopped, with the agent it
 * watches (sig: SIGSTOP): ward gives the terminal back and stops too, as
 * the agent would have without ward; continued (fg), it takes the
 * terminal again, repaints it and continues the monitor and the agent.
 */
void pty_agent_stopped(int sig);

/*
 * The session is over: the agent's last output relayed, the terminal's
 * modes and contents as the agent left them, ward's rows cleared.
 */
void pty_finish(void);

/*
 * Keys answer a question ms after it shows (PROMPT_ARM_MS unless this
 * says otherwise: the tests lengthen it, to send a key inside it on a
 * busy machine).
 */
void pty_arm_ms(int ms);

/* The real terminal's device and the slave's (0 when none), for tty.c. */
dev_t pty_real_dev(void);
dev_t pty_slave_dev(void);

#endif
