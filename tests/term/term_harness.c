/*
 * term_harness.c - ward's terminal, questions and control socket without
 * the supervisor: COMMAND runs on ward's pty, and asks its questions over
 * a unix socket instead of through system calls.
 *
 *   term_harness [-t SECONDS] [-s SOCKET] [-r RESULTS] [-a ARM-MS] [--ask terminal|approve|both] -- COMMAND...
 *   term_harness approve ...        (as `ward approve ...`)
 *
 * A question: connect to SOCKET, write "OP PATH\n" (or "connect HOST:PORT
 * ADDR\n"), read back "allow|deny ANSWER BY\n".  The question is withdrawn
 * when the asker closes the connection.  Each answer is appended to
 * RESULTS as "OP PATH ANSWER BY RC".  The tests in tests/integration/term.sh
 * drive it in tmux, as a person would.
 */
#include "ask.h"
#include "control.h"
#include "pty.h"

#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

int cmd_approve(int argc, char **argv);

static const char *results;
static pthread_mutex_t results_lock = PTHREAD_MUTEX_INITIALIZER;
static volatile sig_atomic_t pending_signal;

struct asker {
	int fd;
};

/* Still waited for: the asker has not closed its end. */
static int alive(void *arg)
{
	struct asker *a = arg;
	struct pollfd p = { .fd = a->fd, .events = POLLIN };
	char c;
	if (poll(&p, 1, 0) == 1 && (p.revents & (POLLHUP | POLLERR) || recv(a->fd, &c, 1, MSG_PEEK | MSG_DONTWAIT) == 0))
		return -ESRCH;
	return 0;
}

static void *one(void *arg)
{
	struct asker a = { (int)(intptr_t)arg };
	char line[4200], op[32], target[4096], addr[64] = "";
	struct ask_result r;
	ssize_t n = 0, k;

	while (n < (ssize_t)sizeof(line) - 1 && (k = read(a.fd, line + n, sizeof(line) - 1 - (size_t)n)) > 0) {
		n += k;
		if (memchr(line, '\n', (size_t)n))
			break;
	}
	line[n > 0 ? n : 0] = '\0';
	if (sscanf(line, "%31s %4095s %63s", op, target, addr) < 2) {
		close(a.fd);
		return NULL;
	}
	char asked[4096];
	snprintf(asked, sizeof(asked), "%s", target);
	struct ask_call c = { .op = ward_op_parse(op), .rule = "builtin:default:41", .alive = alive, .alive_arg = &a };
	struct ucred cred;
	socklen_t cl = sizeof(cred);
	getsockopt(a.fd, SOL_SOCKET, SO_PEERCRED, &cred, &cl);
	c.pid = c.tid = cred.pid;
	char exe[64], path[4096];
	snprintf(exe, sizeof(exe), "/proc/%d/exe", cred.pid);
	ssize_t el = readlink(exe, path, sizeof(path) - 1);
	path[el > 0 ? el : 0] = '\0';
	c.exe = path;
	/* An exec's argv: the program alone (the asker's own would be python's). */
	if (c.op == WARD_OP_EXEC) {
		c.argv = target;
		c.argv_len = strlen(target) + 1;
	}
	struct ward_net_target t = { .kind = WARD_NET_INET };
	char host[4096];
	if (c.op == WARD_OP_CONNECT) {
		char *colon = strrchr(target, ':');
		if (colon == NULL) {
			close(a.fd);
			return NULL;
		}
		*colon = '\0';
		snprintf(host, sizeof(host), "%s", target);
		t.port = (uint16_t)atoi(colon + 1);
		t.host = host;
		struct in_addr in;
		inet_pton(AF_INET, addr[0] ? addr : "127.0.0.1", &in);
		memcpy(t.addr, "\0\0\0\0\0\0\0\0\0\0\377\377", 12);
		memcpy(t.addr + 12, &in, 4);
		c.net = &t;
	} else {
		c.path = target;
	}
	/* As ward's decisions do: a grant of the person's decides without asking. */
	struct ward_verdict v;
	if (c.net ? ask_grant_net(c.op, c.net, &v) : ask_grant_path(c.op, c.path, &v)) {
		memset(&r, 0, sizeof(r));
		r.rc = v.action == WARD_ALLOW ? 0 : -EACCES;
		r.answer = v.action == WARD_ALLOW ? ANSWER_SESSION : ANSWER_DENY_ALWAYS;
		r.by = "grant";
	} else {
		ask_call(&c, &r);
	}
	char reply[128];
	int rl = snprintf(reply, sizeof(reply), "%s %s %s\n", r.rc == 0 ? "allow" : "deny",
			  ask_answer_name(r.answer), r.by);
	(void)!send(a.fd, reply, (size_t)rl, MSG_NOSIGNAL); /* the asker may be gone */
	if (results != NULL) {
		pthread_mutex_lock(&results_lock);
		FILE *f = fopen(results, "a");
		if (f != NULL) {
			fprintf(f, "%s %s %s %s %d\n", op, asked, ask_answer_name(r.answer), r.by, r.rc);
			fclose(f);
		}
		pthread_mutex_unlock(&results_lock);
	}
	close(a.fd);
	return NULL;
}

static void *listener(void *arg)
{
	int s = (int)(intptr_t)arg;
	for (;;) {
		int fd = accept4(s, NULL, NULL, SOCK_CLOEXEC);
		pthread_t th;
		if (fd < 0)
			continue;
		if (pthread_create(&th, NULL, one, (void *)(intptr_t)fd) == 0)
			pthread_detach(th);
		else
			close(fd);
	}
	return NULL;
}

static void on_signal(int sig)
{
	pending_signal = sig;
}

int main(int argc, char **argv)
{
	static struct ward_vars vars;
	struct ward_error err;
	const char *sock = NULL, *ask = "both";
	unsigned timeout = 300;
	int opt;

	if (argc > 1 && strcmp(argv[1], "approve") == 0)
		return cmd_approve(argc - 1, argv + 1);
	static const struct option longopts[] = { { "ask", required_argument, 0, 'A' }, { 0, 0, 0, 0 } };
	while ((opt = getopt_long(argc, argv, "+t:s:r:a:", longopts, NULL)) != -1) {
		if (opt == 'a')
			pty_arm_ms(atoi(optarg));
		else if (opt == 't')
			timeout = (unsigned)atoi(optarg);
		else if (opt == 's')
			sock = optarg;
		else if (opt == 'r')
			results = optarg;
		else if (opt == 'A')
			ask = optarg;
		else
			return 2;
	}
	if (optind >= argc || ward_vars_from_env(&vars, NULL, "harness", &err) < 0) {
		fprintf(stderr, "usage: term_harness [-t S] [-s SOCKET] [-r RESULTS] -- COMMAND...\n");
		return 2;
	}
	struct ask_config cfg = { .vars = &vars, .session = "harness", .timeout = timeout,
				  .user_policy = NULL, .ward = getpid(),
				  .wait_for_approver = strcmp(ask, "approve") == 0 };
	char policy[4200];
	snprintf(policy, sizeof(policy), "%s/ward/policy", vars.xdg_config_home);
	cfg.user_policy = policy;
	if (ask_init(&cfg) < 0)
		return 125;
	char dir[4200], cwd[4096];
	snprintf(dir, sizeof(dir), "%s/ward", vars.xdg_runtime_dir);
	if (getcwd(cwd, sizeof(cwd)) == NULL)
		strcpy(cwd, "?");
	if (strcmp(ask, "terminal") != 0 && control_start(dir, "harness", argv + optind, cwd) < 0)
		fprintf(stderr, "term_harness: no control socket\n");
	if (sock != NULL) {
		struct sockaddr_un a = { .sun_family = AF_UNIX };
		int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		snprintf(a.sun_path, sizeof(a.sun_path), "%s", sock);
		unlink(sock);
		pthread_t th;
		if (s < 0 || bind(s, (struct sockaddr *)&a, sizeof(a)) < 0 || listen(s, 64) < 0 ||
		    pthread_create(&th, NULL, listener, (void *)(intptr_t)s) != 0)
			return 125;
	}
	int rc = strcmp(ask, "approve") == 0 ? 0 : pty_open();
	if (rc < 0)
		return 125;
	pid_t pid = fork();
	if (pid == 0) {
		if (pty_child() < 0)
			_exit(125);
		execvp(argv[optind], argv + optind);
		_exit(127);
	}
	if (pty_start(pid, "harness", vars.home) < 0)
		fprintf(stderr, "term_harness: no terminal of its own\n");
	struct sigaction sa = { .sa_handler = on_signal };
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	int status = 0;
	for (;;) {
		int st;
		pid_t w = waitpid(pid, &st, WUNTRACED);
		if (w < 0 && errno == EINTR) {
			if (pending_signal)
				kill(-pid, pending_signal); /* as ward: the agent's group gets it */
			pending_signal = 0;
			continue;
		}
		if (w < 0)
			break;
		if (WIFSTOPPED(st)) {
			pty_agent_stopped(WSTOPSIG(st));
			continue;
		}
		status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
		break;
	}
	ask_shutdown();
	pty_finish();
	control_stop();
	return status;
}
