/*
 * handlers/handlers.h - the handlers the syscall table (syscalls.h) names:
 * one file per family, each of the shape decode -> resolve -> decide ->
 * emulate -> reply.  The contract of their return value is handler_fn's
 * (notify.h).
 */
#ifndef WARD_HANDLERS_H
#define WARD_HANDLERS_H

struct req;

int h_open(struct req *r);   /* open.c */
int h_watch(struct req *r);  /* stat.c */
int h_stat(struct req *r);   /* stat.c */
int h_change(struct req *r); /* change.c */
int h_exec(struct req *r);   /* exec.c */
int h_net(struct req *r);    /* net.c */
int h_socket(struct req *r); /* net.c */
int h_signal(struct req *r); /* signal.c */
int h_pid(struct req *r);    /* pid.c */
int h_ipc(struct req *r);    /* ipc.c */
int h_cred(struct req *r);   /* cred.c */
int h_umask(struct req *r);  /* note.c */

#endif
