/*
 * session.c - the one session of this ward (session.h).
 */
#include "session.h"

struct session *S;
