/*
 * control.h - the session's control socket, through which `ward approve`
 * sees and answers its questions (DESIGN.md §5).
 *
 * $XDG_RUNTIME_DIR/ward/SESSION.sock, mode 0600 in a 0700 directory; a
 * peer of another uid is refused (SO_PEERCRED); the agent is kept from it
 * by the built-in deny! on connecting to the sockets there (self.policy).
 *
 * The protocol: one JSON object a line each way.
 *   {"op":"hello"}   -> {"session":ID,"pid":N,"argv":[...],"cwd":S,"pending":N}
 *   {"op":"list"}    -> {"session":ID,"asks":[ASK...]}
 *   {"op":"watch"}   -> the list now, and again at each change, until the peer closes
 *   {"op":"answer","n":N,"answer":"once"|"session"|"always"|"deny"|"deny-always","scope":K}
 *                    -> {"ok":true} | {"ok":false,"error":S}
 *   {"op":"touch","n":N} -> (no reply) its timeout starts again
 * ASK: {"n","op","kind","target","extra","pid","exe","prog","chain","argv","cwd","procs",
 *       "rule","scopes":[{"name","rule"}...],"waiting","age","left"}
 */
#ifndef WARD_CONTROL_H
#define WARD_CONTROL_H

#include "ask.h"

/*
 * Listen in dir (made 0700 when missing) for session.  argv and cwd are
 * what hello tells.  0, or -errno (then no `ward approve` reaches it).
 */
int control_start(const char *dir, const char *session, char *const *argv, const char *cwd);
/* The socket's path ("" when none). */
const char *control_path(void);
/* Stop listening; the socket is removed. */
void control_stop(void);

/* ---- the protocol, shared with ward approve ---- */

struct json_t;
/* A question as the protocol says it (the caller's reference). */
struct json_t *control_ask_json(const struct ask_view *v);
/* ...and back; false when it is not one. */
bool control_ask_parse(struct json_t *o, struct ask_view *v);
/* A JSON string for bytes that may not be UTF-8 (those escaped as \xNN). */
struct json_t *control_jstr(const char *s);

#endif
