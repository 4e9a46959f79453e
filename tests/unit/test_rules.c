/*
 * test_rules.c - the policy engine as a table: each row is a policy text,
 * a question (op, target) and the expected answer in ward explain's
 * format, "DECISION OP TARGET RULE-LOCATION"; or a policy text and the
 * exact error it must be refused with.
 *
 * The variables are fixed (below) and point into a scratch directory
 * made at start, so canonicalisation has real directories to resolve.
 * Every policy also holds the built-in self-protection rules
 * (rules/profiles/self.policy, "builtin:self:N"); rows cite them by line.
 *
 * Tables: decide_rows (one text, origin "t"), error_rows (one text, the
 * exact error), layer_rows (a profile, two layers and --rule lines),
 * net_rows (network targets built by hand: @session, verified names),
 * errno_rows (the errno of a denial).  The remaining tests cover the API
 * around them: settings, includes by file, dump, the cache, robustness.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ward_rules.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static char root[PATH_MAX]; /* scratch directory, real path */
static struct ward_vars vars;

/* Replace "@R" in s with the scratch root. */
static void subst(const char *s, char *out, size_t len)
{
	size_t o = 0;
	for (; *s && o + 1 < len; s++) {
		if (s[0] == '@' && s[1] == 'R') {
			o += (size_t)snprintf(out + o, len - o, "%s", root);
			s++;
		} else {
			out[o++] = *s;
		}
	}
	out[o] = '\0';
}

struct decide_row {
	const char *policy; /* "--rule" lines are not used here: one text, origin "t" */
	const char *op;
	const char *target;
	const char *expect; /* explain's line; @R stands for the scratch root */
};

struct error_row {
	const char *policy;
	const char *expect; /* the whole error message */
};

/* Shorthands for the scratch paths that rows use often. */
#define SESS "@R/tmp/ward-1000/s1"

static const struct decide_row decide_rows[] = {
	/* ---- actions ---- */
	{ "allow read @R/home/**", "read", "@R/home/x", "allow read @R/home/x t:1" },
	{ "allow read @R/home/**\ndeny read @R/home/x", "read", "@R/home/x",
	  "deny read @R/home/x t:2" },
	{ "", "read", "@R/home/x", "ask read @R/home/x undecided" },
	{ "deny(EROFS) write @R/proj/**", "write", "@R/proj/a", "deny write @R/proj/a t:1" },
	{ "allow read @R/home/**\ndeny(ENOENT) read @R/home/.netrc", "read", "@R/home/.netrc",
	  "deny read @R/home/.netrc t:2" },
	{ "ask exec @R/bin/curl", "exec", "@R/bin/curl", "ask exec @R/bin/curl t:1" },
	{ "deny! read @R/home/**\nallow read @R/home/x", "read", "@R/home/x",
	  "deny read @R/home/x t:1" },
	{ "allow read @R/home/**\ndeny!(EPERM) read @R/home/x\nallow read @R/home/x", "read",
	  "@R/home/x", "deny read @R/home/x t:2" },
	{ "rewrite write,create ~/.bashrc -> $SESSION/home/.bashrc", "write", "@R/home/.bashrc",
	  "rewrite:" SESS "/home/.bashrc write @R/home/.bashrc t:1" },
	/* a rewrite applies to its own ops only */
	{ "rewrite write,create ~/.bashrc -> $SESSION/home/.bashrc", "read", "@R/home/.bashrc",
	  "ask read @R/home/.bashrc undecided" },
	{ "rewrite write,create ~/.cache/** -> $SESSION/cache/**", "create",
	  "@R/home/.cache/a/b", "rewrite:" SESS "/cache/a/b create @R/home/.cache/a/b t:1" },
	/* the pattern's prefix itself: the tail is empty */
	{ "rewrite write,create ~/.cache/** -> $SESSION/cache/**", "write", "@R/home/.cache",
	  "rewrite:" SESS "/cache write @R/home/.cache t:1" },
	{ "rewrite write,create ~/.cache/** -> $SESSION/cache/**", "write", "@R/home/.cachex",
	  "ask write @R/home/.cachex undecided" },
	/* globs in the prefix: the shortest matching prefix is cut off */
	{ "rewrite write @R/proj/*/cache/** -> @R/tmp/c/**", "write", "@R/proj/x/cache/y/z",
	  "rewrite:@R/tmp/c/y/z write @R/proj/x/cache/y/z t:1" },
	{ "rewrite write @R/proj/**/cache/** -> @R/tmp/c/**", "write",
	  "@R/proj/a/cache/b/cache/c", "rewrite:@R/tmp/c/b/cache/c write @R/proj/a/cache/b/cache/c t:1" },
	{ "rewrite write @R/proj/**/cache/** -> @R/tmp/c/**", "write", "@R/proj/cache/f",
	  "rewrite:@R/tmp/c/f write @R/proj/cache/f t:1" },
	{ "rewrite write @R/home/.local/** -> /**", "write", "@R/home/.local/x/y",
	  "rewrite:/x/y write @R/home/.local/x/y t:1" },
	/* rewrite * covers the path ops but exec */
	{ "rewrite * @R/home/.x -> @R/tmp/x", "stat", "@R/home/.x",
	  "rewrite:@R/tmp/x stat @R/home/.x t:1" },
	{ "rewrite * @R/home/.x -> @R/tmp/x", "exec", "@R/home/.x", "ask exec @R/home/.x undecided" },
	{ "rewrite write @R/home/** -> @R/tmp/h/**\nallow write @R/home/ok", "write", "@R/home/ok",
	  "allow write @R/home/ok t:2" },
	{ "rewrite write @R/home/** -> @R/tmp/h/**\nallow write @R/home/ok", "write",
	  "@R/home/no", "rewrite:@R/tmp/h/no write @R/home/no t:1" },
	/* the replacement is made lexically normal */
	{ "rewrite write @R/home/a -> $SESSION/../x//y/", "write", "@R/home/a",
	  "rewrite:@R/tmp/ward-1000/x/y write @R/home/a t:1" },
	{ "rewrite write @R/home/a @R/home/b -> @R/tmp/ab", "write", "@R/home/b",
	  "rewrite:@R/tmp/ab write @R/home/b t:1" },
	/* an escaped glob character in the replacement is literal */
	{ "rewrite write @R/home/a -> @R/tmp/a\\*b", "write", "@R/home/a",
	  "rewrite:@R/tmp/a*b write @R/home/a t:1" },

	/* ---- ops ---- */
	{ "allow write @R/proj/**", "write", "@R/proj/a", "allow write @R/proj/a t:1" },
	{ "allow write @R/proj/**", "read", "@R/proj/a", "ask read @R/proj/a undecided" },
	{ "allow create @R/proj/**", "create", "@R/proj/a", "allow create @R/proj/a t:1" },
	{ "allow create @R/proj/**", "write", "@R/proj/a", "ask write @R/proj/a undecided" },
	{ "allow delete @R/proj/**", "delete", "@R/proj/a", "allow delete @R/proj/a t:1" },
	{ "allow exec @R/proj/**", "exec", "@R/proj/a", "allow exec @R/proj/a t:1" },
	{ "allow stat @R/proj/**", "stat", "@R/proj/a", "allow stat @R/proj/a t:1" },
	{ "allow stat @R/proj/**", "read", "@R/proj/a", "ask read @R/proj/a undecided" },
	{ "deny read,stat @R/home/**", "stat", "@R/home/x", "deny stat @R/home/x t:1" },
	{ "deny read,stat @R/home/**", "write", "@R/home/x", "ask write @R/home/x undecided" },
	{ "allow * @R/proj/**", "delete", "@R/proj/a", "allow delete @R/proj/a t:1" },
	{ "allow * @R/proj/**", "exec", "@R/proj/a", "allow exec @R/proj/a t:1" },
	/* '*' on a path rule gives it the path ops, never connect */
	{ "allow * /**", "connect", "unix:@R/proj/s", "ask connect unix:@R/proj/s undecided" },
	{ "allow * /**", "connect", "1.2.3.4:80", "ask connect 1.2.3.4:80 undecided" },
	{ "allow * 10.0.0.0/8", "bind", "10.1.1.1:80", "allow bind 10.1.1.1:80 t:1" },
	/* ops go to the targets that take them */
	{ "allow read,connect @R/home/** api.example.com:443", "read", "@R/home/x",
	  "allow read @R/home/x t:1" },
	{ "allow read,connect @R/home/** api.example.com:443", "connect", "api.example.com:443",
	  "allow connect api.example.com:443 t:1" },
	{ "allow exec,read memfd:x @R/home/**", "exec", "memfd:x", "allow exec memfd:x t:1" },

	/* ---- globs ---- */
	{ "allow read @R/home/*.txt", "read", "@R/home/a.txt", "allow read @R/home/a.txt t:1" },
	{ "allow read @R/home/*.txt", "read", "@R/home/d/a.txt", "ask read @R/home/d/a.txt undecided" },
	{ "allow read @R/home/*.txt", "read", "@R/home/.txt", "allow read @R/home/.txt t:1" },
	{ "allow read @R/home/?.c", "read", "@R/home/a.c", "allow read @R/home/a.c t:1" },
	{ "allow read @R/home/?.c", "read", "@R/home/ab.c", "ask read @R/home/ab.c undecided" },
	{ "allow read @R/home/[abc].c", "read", "@R/home/b.c", "allow read @R/home/b.c t:1" },
	{ "allow read @R/home/[abc].c", "read", "@R/home/d.c", "ask read @R/home/d.c undecided" },
	{ "allow read @R/home/[a-c]x", "read", "@R/home/cx", "allow read @R/home/cx t:1" },
	{ "allow read @R/home/[!a]x", "read", "@R/home/bx", "allow read @R/home/bx t:1" },
	{ "allow read @R/home/[!a]x", "read", "@R/home/ax", "ask read @R/home/ax undecided" },
	{ "allow read @R/home/[^a]x", "read", "@R/home/ax", "ask read @R/home/ax undecided" },
	{ "allow read @R/home/a[!x]b", "read", "@R/home/a/b", "ask read @R/home/a/b undecided" },
	{ "allow read @R/proj/**/*.c", "read", "@R/proj/a.c", "allow read @R/proj/a.c t:1" },
	{ "allow read @R/proj/**/*.c", "read", "@R/proj/x/y/a.c", "allow read @R/proj/x/y/a.c t:1" },
	{ "allow read @R/proj/**/*.c", "read", "@R/proj/x/a.h", "ask read @R/proj/x/a.h undecided" },
	{ "allow read @R/proj/**", "read", "@R/proj", "allow read @R/proj t:1" },
	{ "allow read @R/proj/**", "read", "@R/projx", "ask read @R/projx undecided" },
	{ "allow read @R/home/a**b", "read", "@R/home/axyb", "allow read @R/home/axyb t:1" },
	{ "allow read @R/home/a**b", "read", "@R/home/ax/yb", "ask read @R/home/ax/yb undecided" },
	{ "allow read @R/home/\\*", "read", "@R/home/*", "allow read @R/home/* t:1" },
	{ "allow read @R/home/\\*", "read", "@R/home/x", "ask read @R/home/x undecided" },
	{ "allow read @R/home/\\[a]", "read", "@R/home/[a]", "allow read @R/home/[a] t:1" },
	/* "\\" in quotes is one backslash, which then escapes the star */
	{ "allow read \"@R/home/a\\\\*\"", "read", "@R/home/a*", "allow read @R/home/a* t:1" },
	{ "allow read \"@R/home/a\\\\*\"", "read", "@R/home/ab", "ask read @R/home/ab undecided" },
	{ "allow read @R/home/**", "read", "@R/home/.ssh/id", "allow read @R/home/.ssh/id t:1" },

	/* ---- variables ---- */
	{ "allow read ~/x", "read", "@R/home/x", "allow read @R/home/x t:1" },
	{ "allow read ~", "read", "@R/home", "allow read @R/home t:1" },
	{ "allow read $HOME/y", "read", "@R/home/y", "allow read @R/home/y t:1" },
	{ "allow read ${HOME}/y", "read", "@R/home/y", "allow read @R/home/y t:1" },
	{ "allow write $PROJECT/**", "write", "@R/proj/a", "allow write @R/proj/a t:1" },
	{ "allow write $TMPDIR/**", "write", "@R/tmp/a", "allow write @R/tmp/a t:1" },
	{ "allow create $SESSION/**", "create", SESS "/f", "allow create " SESS "/f t:1" },
	{ "allow read @R/u$UID", "read", "@R/u1000", "allow read @R/u1000 t:1" },
	{ "allow read @R/u${UID}x", "read", "@R/u1000x", "allow read @R/u1000x t:1" },
	{ "allow read ~/$USER/**", "read", "@R/home/agent/x", "allow read @R/home/agent/x t:1" },
	{ "allow connect unix:$XDG_RUNTIME_DIR/bus", "connect", "unix:@R/run/bus",
	  "allow connect unix:@R/run/bus t:1" },
	{ "allow read $XDG_RUNTIME_DIR/x", "read", "@R/run/x", "allow read @R/run/x t:1" },
	{ "allow read $XDG_CONFIG_HOME/app/**", "read", "@R/home/.config/app/x",
	  "allow read @R/home/.config/app/x t:1" },
	{ "allow write ${XDG_STATE_HOME}/app", "write", "@R/home/.local/state/app",
	  "allow write @R/home/.local/state/app t:1" },
	/* an escaped dollar is literal */
	{ "allow read @R/home/\\$HOME", "read", "@R/home/$HOME", "allow read @R/home/$HOME t:1" },

	/* ---- canonicalisation: the literal prefix is resolved ---- */
	{ "allow read @R/link/**", "read", "@R/real/x", "allow read @R/real/x t:1" },
	{ "allow read @R/link/**", "read", "@R/link/x", "ask read @R/link/x undecided" },
	{ "deny read @R/link", "read", "@R/real", "deny read @R/real t:1" },
	{ "allow read @R/link/new/dir/*.c", "read", "@R/real/new/dir/a.c",
	  "allow read @R/real/new/dir/a.c t:1" },
	{ "allow read @R/nope/deeper/*.c", "read", "@R/nope/deeper/a.c",
	  "allow read @R/nope/deeper/a.c t:1" },
	{ "allow read @R/home/./a/../b//c/", "read", "@R/home/b/c", "allow read @R/home/b/c t:1" },
	/* a prefix that resolves to the root, existing or not below it */
	{ "allow read @R/rootlink/*", "read", "/etc", "allow read /etc t:1" },
	{ "allow read @R/rootlink/nonexistent/*", "read", "/nonexistent/x",
	  "allow read /nonexistent/x t:1" },
	{ "allow read /", "read", "/", "allow read / t:1" },
	{ "allow read /", "read", "/x", "ask read /x undecided" },
	/* a rewrite's prefix is resolved like any pattern's */
	{ "rewrite write @R/link/** -> @R/tmp/r/**", "write", "@R/real/a/b",
	  "rewrite:@R/tmp/r/a/b write @R/real/a/b t:1" },

	/* ---- self-protection: builtin:self wins over every text ---- */
	{ "allow read $XDG_CONFIG_HOME/ward/policy", "read", "@R/home/.config/ward/policy",
	  "deny read @R/home/.config/ward/policy builtin:self:4" },
	{ "allow * /**", "write", "@R/proj/.ward/policy",
	  "deny write @R/proj/.ward/policy builtin:self:6" },
	{ "allow * /**", "delete", "@R/home/.local/state/ward/sessions/x.jsonl",
	  "deny delete @R/home/.local/state/ward/sessions/x.jsonl builtin:self:5" },
	{ "allow * /**", "exec", "@R/run/ward/x", "deny exec @R/run/ward/x builtin:self:8" },
	{ "allow * /**", "read", "/etc/ward/policy", "deny read /etc/ward/policy builtin:self:3" },
	/* stat stays allowed */
	{ "allow * /**", "stat", "@R/home/.config/ward/policy",
	  "allow stat @R/home/.config/ward/policy t:1" },
	{ "allow read /proc/**", "read", "/proc/123/environ",
	  "deny read /proc/123/environ builtin:self:15" },
	{ "allow read /proc/**", "read", "/proc/123", "deny read /proc/123 builtin:self:15" },
	{ "allow read /proc/**", "read", "/proc/self/environ", "allow read /proc/self/environ t:1" },
	{ "allow read /proc/**", "read", "/proc/12x/environ", "allow read /proc/12x/environ t:1" },
	/* What ps reads of every process is the profile's to decide, for reading only. */
	{ "allow read,write /proc/**", "read", "/proc/123/stat", "allow read /proc/123/stat t:1" },
	{ "allow read,write /proc/**", "read", "/proc/123/status", "allow read /proc/123/status t:1" },
	{ "allow read,write /proc/**", "read", "/proc/123/comm", "allow read /proc/123/comm t:1" },
	{ "allow read,write /proc/**", "write", "/proc/123/comm", "deny write /proc/123/comm builtin:self:14" },
	{ "allow read /proc/**", "read", "/proc/123/cmdline", "deny read /proc/123/cmdline builtin:self:15" },
	{ "allow read /proc/**", "read", "/proc/123/stat/x", "deny read /proc/123/stat/x builtin:self:15" },
	{ "allow read /proc/**", "read", "/proc/123/task/123/stat",
	  "deny read /proc/123/task/123/stat builtin:self:15" },
	{ "deny(EPERM) stat @foreign-proc", "stat", "/proc/1/status",
	  "deny stat /proc/1/status t:1" },
	/* Terminals: without the session's list every numbered one is foreign. */
	{ "allow read,write /dev/**\ndeny read,write @foreign-tty", "read", "/dev/pts/3",
	  "deny read /dev/pts/3 t:2" },
	{ "allow read,write /dev/**\ndeny read,write @foreign-tty", "write", "/dev/tty2",
	  "deny write /dev/tty2 t:2" },
	{ "allow read,write /dev/**\ndeny read,write @foreign-tty", "write", "/dev/tty",
	  "allow write /dev/tty t:1" },
	{ "allow read,write /dev/**\ndeny read,write @foreign-tty", "write", "/dev/pts/ptmx",
	  "allow write /dev/pts/ptmx t:1" },
	{ "allow read,write /dev/**\ndeny read,write @foreign-tty", "write", "/dev/ttyS0",
	  "deny write /dev/ttyS0 t:2" },
	{ "allow read,write /dev/**\ndeny read,write @foreign-tty", "read", "/dev/console",
	  "deny read /dev/console t:2" },
	{ "allow read,write /dev/**\ndeny read,write @foreign-tty", "read", "/dev/vcsa1",
	  "deny read /dev/vcsa1 t:2" },
	{ "allow read,write /dev/**\ndeny read,write @foreign-tty", "read", "/dev/null",
	  "allow read /dev/null t:1" },
	{ "allow read,write /dev/**\ndeny read,write @foreign-tty", "write", "/dev/pts/3/x",
	  "allow write /dev/pts/3/x t:1" },
	{ "allow connect unix:/**", "connect", "unix:@R/run/ward/s1.sock",
	  "deny connect unix:@R/run/ward/s1.sock builtin:self:9" },

	/* ---- memfd: anonymous executables ---- */
	{ "deny exec memfd:*", "exec", "memfd:payload", "deny exec memfd:payload t:1" },
	{ "deny exec memfd:*\nallow exec memfd:jit-*", "exec", "memfd:jit-1",
	  "allow exec memfd:jit-1 t:2" },
	{ "deny exec memfd:*\nallow exec memfd:jit-*", "exec", "memfd:x", "deny exec memfd:x t:1" },
	{ "allow * memfd:x", "exec", "memfd:x", "allow exec memfd:x t:1" },
	{ "allow exec /**", "exec", "memfd:x", "ask exec memfd:x undecided" },
	{ "deny exec memfd:*", "exec", "/usr/bin/x", "ask exec /usr/bin/x undecided" },

	/* ---- include (files written by setup) ---- */
	{ "include @R/inc/a.policy", "read", "@R/home/a/x", "allow read @R/home/a/x @R/inc/a.policy:1" },
	{ "include @R/inc/a.policy", "read", "@R/home/a/b/x",
	  "deny read @R/home/a/b/x @R/inc/b.policy:1" },
	{ "include @R/inc/a.policy", "read", "@R/home/a/b/c",
	  "allow read @R/home/a/b/c @R/inc/sub/c.policy:1" },
	{ "include @R/inc/a.policy", "read", "@R/home/a/b/c/d",
	  "ask read @R/home/a/b/c/d @R/inc/d.policy:1" },
	{ "include @R/inc/a.policy\nallow read @R/home/a/b/x", "read", "@R/home/a/b/x",
	  "allow read @R/home/a/b/x t:2" },
	{ "allow read @R/home/a/b/x\ninclude @R/inc/a.policy", "read", "@R/home/a/b/x",
	  "deny read @R/home/a/b/x @R/inc/b.policy:1" },
	{ "include @R/inc/deep/2.policy", "read", "@R/home/deep",
	  "allow read @R/home/deep @R/inc/deep/9.policy:1" },
	{ "include ~/inc.policy", "read", "@R/home/secret", "deny read @R/home/secret @R/home/inc.policy:1" },
	{ "include \"@R/inc/with space.policy\"", "read", "@R/home/spaced",
	  "allow read @R/home/spaced @R/inc/with space.policy:1" },
	{ "include @R/inc/set.policy", "read", "@R/home/x", "deny read @R/home/x undecided" },
	{ "include @R/inc/sub/../a.policy", "read", "@R/home/a/x",
	  "allow read @R/home/a/x @R/inc/a.policy:1" },

	/* ---- set undecided ---- */
	{ "set undecided deny", "read", "@R/home/x", "deny read @R/home/x undecided" },
	{ "set undecided allow", "read", "@R/home/x", "allow read @R/home/x undecided" },
	{ "set undecided ask", "read", "@R/home/x", "ask read @R/home/x undecided" },
	{ "set undecided deny\nset undecided allow", "read", "@R/home/x",
	  "allow read @R/home/x undecided" },
	{ "set undecided allow\ndeny read @R/home/x", "read", "@R/home/x", "deny read @R/home/x t:2" },
	{ "set undecided allow", "connect", "1.2.3.4:80", "allow connect 1.2.3.4:80 undecided" },
	{ "set undecided deny", "exec", "memfd:x", "deny exec memfd:x undecided" },

	/* ---- words: quotes and comments ---- */
	{ "allow read \"@R/home/a b\"", "read", "@R/home/a b", "allow read @R/home/a b t:1" },
	{ "allow read \"@R/home/q\\\"x\"", "read", "@R/home/q\"x", "allow read @R/home/q\"x t:1" },
	{ "allow read @R/home/\"a b\"/c", "read", "@R/home/a b/c", "allow read @R/home/a b/c t:1" },
	{ "allow read @R/home/a#b", "read", "@R/home/a#b", "allow read @R/home/a#b t:1" },
	{ "allow read @R/home/a #@R/home/b", "read", "@R/home/b", "ask read @R/home/b undecided" },
	{ "allow read \"@R/home/#x\"", "read", "@R/home/#x", "allow read @R/home/#x t:1" },
	{ "# one\n\n   # three\nallow read @R/home/x # trailing", "read", "@R/home/x",
	  "allow read @R/home/x t:4" },
	{ "\tallow\tread\t@R/home/x\r\n\r\n", "read", "@R/home/x", "allow read @R/home/x t:1" },
	{ "deny read @R/home/a @R/home/b", "read", "@R/home/b", "deny read @R/home/b t:1" },
	{ "allow    read,stat      @R/home/a", "stat", "@R/home/a", "allow stat @R/home/a t:1" },

	/* ---- network ---- */
	{ "allow connect api.example.com:443", "connect", "api.example.com:443",
	  "allow connect api.example.com:443 t:1" },
	{ "allow connect api.example.com:443", "connect", "api.example.com:80",
	  "ask connect api.example.com:80 undecided" },
	{ "allow connect API.Example.com:443", "connect", "api.EXAMPLE.com:443",
	  "allow connect api.EXAMPLE.com:443 t:1" },
	{ "allow connect example.com.:443", "connect", "example.com:443",
	  "allow connect example.com:443 t:1" },
	{ "allow connect *.github.com:443", "connect", "a.b.github.com:443",
	  "allow connect a.b.github.com:443 t:1" },
	{ "allow connect *.github.com:443", "connect", "api.github.com:443",
	  "allow connect api.github.com:443 t:1" },
	{ "allow connect *.github.com:443", "connect", "github.com:443",
	  "ask connect github.com:443 undecided" },
	{ "allow connect *.github.com:443", "connect", "evilgithub.com:443",
	  "ask connect evilgithub.com:443 undecided" },
	{ "allow connect github.com", "connect", "github.com:22", "allow connect github.com:22 t:1" },
	{ "allow connect github.com", "connect", "api.github.com:22",
	  "ask connect api.github.com:22 undecided" },
	{ "allow connect 1.2.3.4:80", "connect", "1.2.3.4:80", "allow connect 1.2.3.4:80 t:1" },
	{ "allow connect 1.2.3.4:80", "connect", "1.2.3.5:80", "ask connect 1.2.3.5:80 undecided" },
	{ "allow connect 1.2.3.4", "connect", "1.2.3.4:65535", "allow connect 1.2.3.4:65535 t:1" },
	{ "allow connect [::1]:80", "connect", "[::1]:80", "allow connect [::1]:80 t:1" },
	{ "allow connect [::1]:80", "connect", "[::1]:81", "ask connect [::1]:81 undecided" },
	{ "allow connect [2001:db8::1]", "connect", "[2001:db8:0::1]:7",
	  "allow connect [2001:db8:0::1]:7 t:1" },
	{ "allow connect fd00::/8", "connect", "[fd12::1]:9", "allow connect [fd12::1]:9 t:1" },
	{ "allow connect 10.0.0.0/8:5432", "connect", "10.200.1.1:5432",
	  "allow connect 10.200.1.1:5432 t:1" },
	{ "allow connect 10.0.0.0/8:5432", "connect", "11.0.0.1:5432",
	  "ask connect 11.0.0.1:5432 undecided" },
	{ "allow connect 10.0.0.0/8:5432", "connect", "10.0.0.1:5433",
	  "ask connect 10.0.0.1:5433 undecided" },
	{ "allow connect [fd00::]/8:443", "connect", "[fdff::1]:443", "allow connect [fdff::1]:443 t:1" },
	{ "allow connect [fd00::]/8:443", "connect", "[fe00::1]:443",
	  "ask connect [fe00::1]:443 undecided" },
	{ "allow connect *:8000-8999", "connect", "1.1.1.1:8000", "allow connect 1.1.1.1:8000 t:1" },
	{ "allow connect *:8000-8999", "connect", "1.1.1.1:8999", "allow connect 1.1.1.1:8999 t:1" },
	{ "allow connect *:8000-8999", "connect", "1.1.1.1:9000", "ask connect 1.1.1.1:9000 undecided" },
	{ "allow connect *:8000-8999", "connect", "1.1.1.1:7999", "ask connect 1.1.1.1:7999 undecided" },
	{ "allow connect 1.2.3.4:*", "connect", "1.2.3.4:1", "allow connect 1.2.3.4:1 t:1" },
	{ "allow connect *:443", "connect", "example.org:443", "allow connect example.org:443 t:1" },
	{ "allow connect *", "connect", "[::1]:1", "allow connect [::1]:1 t:1" },
	{ "allow connect *", "connect", "unix:@R/s", "ask connect unix:@R/s undecided" },
	{ "allow connect *", "connect", "unix-abstract:x", "ask connect unix-abstract:x undecided" },
	{ "allow connect unix:@R/run/*.sock", "connect", "unix:@R/run/a.sock",
	  "allow connect unix:@R/run/a.sock t:1" },
	{ "allow connect unix:@R/run/*.sock", "connect", "unix:@R/run/d/a.sock",
	  "ask connect unix:@R/run/d/a.sock undecided" },
	{ "allow connect unix:@R/link/**", "connect", "unix:@R/real/s",
	  "allow connect unix:@R/real/s t:1" },
	{ "allow connect unix:~/s", "connect", "unix:@R/home/s", "allow connect unix:@R/home/s t:1" },
	{ "allow connect unix:**", "connect", "unix:@R/any/s", "allow connect unix:@R/any/s t:1" },
	{ "allow connect unix:**", "connect", "1.2.3.4:80", "ask connect 1.2.3.4:80 undecided" },
	{ "allow connect unix-abstract:dbus-*", "connect", "unix-abstract:dbus-x/y",
	  "allow connect unix-abstract:dbus-x/y t:1" },
	{ "allow connect unix-abstract:dbus-*", "connect", "unix-abstract:other",
	  "ask connect unix-abstract:other undecided" },
	{ "allow connect unix-abstract:*", "connect", "unix:@R/s", "ask connect unix:@R/s undecided" },
	{ "allow connect @loopback", "connect", "127.9.9.9:1", "allow connect 127.9.9.9:1 t:1" },
	{ "allow connect @loopback", "connect", "[::1]:1", "allow connect [::1]:1 t:1" },
	{ "allow connect @loopback", "connect", "128.0.0.1:1", "ask connect 128.0.0.1:1 undecided" },
	{ "allow connect @loopback:5432", "connect", "127.0.0.1:5432",
	  "allow connect 127.0.0.1:5432 t:1" },
	{ "allow connect @loopback:5432", "connect", "127.0.0.1:5433",
	  "ask connect 127.0.0.1:5433 undecided" },
	{ "allow connect @private", "connect", "10.9.9.9:1", "allow connect 10.9.9.9:1 t:1" },
	{ "allow connect @private", "connect", "172.16.0.1:1", "allow connect 172.16.0.1:1 t:1" },
	{ "allow connect @private", "connect", "172.31.255.255:1",
	  "allow connect 172.31.255.255:1 t:1" },
	{ "allow connect @private", "connect", "172.32.0.1:1", "ask connect 172.32.0.1:1 undecided" },
	{ "allow connect @private", "connect", "192.168.1.1:1", "allow connect 192.168.1.1:1 t:1" },
	{ "allow connect @private", "connect", "100.64.0.1:1", "allow connect 100.64.0.1:1 t:1" },
	{ "allow connect @private", "connect", "100.127.255.255:1",
	  "allow connect 100.127.255.255:1 t:1" },
	{ "allow connect @private", "connect", "100.128.0.1:1", "ask connect 100.128.0.1:1 undecided" },
	{ "allow connect @private", "connect", "[fd12::1]:1", "allow connect [fd12::1]:1 t:1" },
	{ "allow connect @private", "connect", "[fc00::1]:1", "allow connect [fc00::1]:1 t:1" },
	{ "allow connect @private", "connect", "[fe00::1]:1", "ask connect [fe00::1]:1 undecided" },
	{ "allow connect @link-local", "connect", "169.254.1.1:1", "allow connect 169.254.1.1:1 t:1" },
	{ "allow connect @link-local", "connect", "[fe80::1]:1", "allow connect [fe80::1]:1 t:1" },
	{ "allow connect @link-local", "connect", "[febf::1]:1", "allow connect [febf::1]:1 t:1" },
	{ "allow connect @link-local", "connect", "[fec0::1]:1", "ask connect [fec0::1]:1 undecided" },
	{ "deny connect @metadata", "connect", "169.254.169.254:80",
	  "deny connect 169.254.169.254:80 t:1" },
	{ "deny connect @metadata", "connect", "[fd00:ec2::254]:80",
	  "deny connect [fd00:ec2::254]:80 t:1" },
	{ "deny connect @metadata", "connect", "100.100.100.200:80",
	  "deny connect 100.100.100.200:80 t:1" },
	{ "deny connect @metadata", "connect", "168.63.129.16:80", "deny connect 168.63.129.16:80 t:1" },
	{ "deny connect @metadata", "connect", "192.0.0.192:80", "deny connect 192.0.0.192:80 t:1" },
	{ "deny connect @metadata", "connect", "169.254.169.253:80",
	  "ask connect 169.254.169.253:80 undecided" },
	/* IPv4-mapped IPv6 matches as IPv4, in queries and in rules */
	{ "allow connect 10.0.0.0/8:5432", "connect", "[::ffff:10.1.2.3]:5432",
	  "allow connect [::ffff:10.1.2.3]:5432 t:1" },
	{ "deny connect @metadata", "connect", "[::ffff:169.254.169.254]:80",
	  "deny connect [::ffff:169.254.169.254]:80 t:1" },
	{ "allow connect [::ffff:10.1.2.3]:5432", "connect", "10.1.2.3:5432",
	  "allow connect 10.1.2.3:5432 t:1" },
	{ "allow connect ::ffff:10.1.2.3", "connect", "10.1.2.3:1", "allow connect 10.1.2.3:1 t:1" },
	/* a host name query matches domain rules and '*', never address rules */
	{ "allow connect @loopback", "connect", "localhost:80", "ask connect localhost:80 undecided" },
	{ "allow connect 93.184.216.34", "connect", "example.com:443",
	  "ask connect example.com:443 undecided" },
	{ "allow bind @loopback", "bind", "127.0.0.1:8080", "allow bind 127.0.0.1:8080 t:1" },
	{ "allow bind @loopback", "connect", "127.0.0.1:8080",
	  "ask connect 127.0.0.1:8080 undecided" },
	{ "allow connect *\ndeny connect @metadata", "connect", "169.254.169.254:80",
	  "deny connect 169.254.169.254:80 t:2" },
	{ "allow connect *\ndeny connect @metadata", "connect", "1.1.1.1:80",
	  "allow connect 1.1.1.1:80 t:1" },
	{ "deny! connect @metadata\nallow connect 169.254.169.254", "connect", "169.254.169.254:80",
	  "deny connect 169.254.169.254:80 t:1" },
	{ "deny(ECONNREFUSED) connect,bind *", "bind", "0.0.0.0:80", "deny bind 0.0.0.0:80 t:1" },

	/* ---- precedence within one file ---- */
	{ "allow read @R/home/**\ndeny read @R/home/**\nallow read @R/home/x", "read", "@R/home/x",
	  "allow read @R/home/x t:3" },
	/* the last match wins, not the most specific */
	{ "allow read @R/home/x\ndeny read @R/home/**", "read", "@R/home/x", "deny read @R/home/x t:2" },
	{ "deny read @R/home/a/b/**\nallow read @R/**", "read", "@R/home/a/b/c",
	  "allow read @R/home/a/b/c t:2" },
	{ "allow read @R/**\ndeny read @R/home/a/b/**", "read", "@R/home/a/b/c",
	  "deny read @R/home/a/b/c t:2" },
	{ "deny! read @R/home/**\ndeny!(EPERM) read @R/home/x", "read", "@R/home/x",
	  "deny read @R/home/x t:2" },
	{ "deny! read @R/home/x/**\ndeny! read @R/home/**\nallow read @R/home/x/y", "read",
	  "@R/home/x/y", "deny read @R/home/x/y t:2" },
	{ "deny! read @R/home/y\nallow read @R/home/**", "read", "@R/home/x",
	  "allow read @R/home/x t:2" },
	{ "deny! write @R/home/**\nallow read @R/home/**", "read", "@R/home/x",
	  "allow read @R/home/x t:2" },
	{ "allow read @R/home/**\ndeny! read @R/home/**\nrewrite read @R/home/x -> @R/tmp/x", "read",
	  "@R/home/x", "deny read @R/home/x t:2" },
	{ "allow read @R/home/**\nask read @R/home/x", "read", "@R/home/x", "ask read @R/home/x t:2" },
	{ "set undecided deny\nask read @R/home/x", "read", "@R/home/x", "ask read @R/home/x t:2" },
	{ "ask read @R/home/**\nallow read @R/home/x/**", "read", "@R/home/x",
	  "allow read @R/home/x t:2" },
};

static const struct error_row error_rows[] = {
	/* ---- ops and actions ---- */
	{ "allow raed /x", "t:1:7: unknown op 'raed'" },
	{ "allow read,wirte /x", "t:1:12: unknown op 'wirte'" },
	{ "allow read, /x", "t:1:12: unknown op ''" },
	{ "allow ,read /x", "t:1:7: unknown op ''" },
	{ "allow READ /x", "t:1:7: unknown op 'READ'" },
	{ "allow read,* /x", "t:1:12: unknown op '*'" },
	{ "frobnicate read /x", "t:1:1: unknown statement 'frobnicate'" },
	{ "  allow(EPERM) read /x", "t:1:3: unknown statement 'allow(EPERM)'" },
	{ "deny!x read /x", "t:1:1: unknown statement 'deny!x'" },
	{ "ask(EPERM) read /x", "t:1:1: unknown statement 'ask(EPERM)'" },
	{ "deny(EFOO) read /x", "t:1:1: unknown errno in 'deny(EFOO)'" },
	{ "deny() read /x", "t:1:1: unknown errno in 'deny()'" },
	{ "deny(EROFS read /x", "t:1:1: unknown errno in 'deny(EROFS'" },
	{ "deny(EROFS)x read /x", "t:1:1: unknown errno in 'deny(EROFS)x'" },
	{ "deny!(erofs) read /x", "t:1:1: unknown errno in 'deny!(erofs)'" },
	{ "allow", "t:1:1: 'allow' needs ops and targets" },
	{ "ask read", "t:1:5: 'ask' needs at least one target" },
	{ "deny! read # /x", "t:1:7: 'deny!' needs at least one target" },
	{ "allow connect /x", "t:1:15: op 'connect' does not apply to '/x'" },
	{ "allow read,connect /x /y", "t:1:20: op 'connect' does not apply to '/x'" },
	{ "allow read example.com", "t:1:12: op 'read' does not apply to 'example.com'" },
	{ "allow read /x example.com", "t:1:15: op 'read' does not apply to 'example.com'" },
	{ "allow read,connect /x example.com:443 10.0.0.0/8 memfd:x",
	  "t:1:50: op 'read' does not apply to 'memfd:x'" },
	{ "allow read,write /x example.com", "t:1:21: op 'read' does not apply to 'example.com'" },
	{ "allow read memfd:x", "t:1:12: op 'read' does not apply to 'memfd:x'" },
	{ "allow exec,read memfd:x", "t:1:17: op 'read' does not apply to 'memfd:x'" },
	{ "deny bind @foreign-proc", "t:1:11: op 'bind' does not apply to '@foreign-proc'" },
	{ "allow exec unix:/x", "t:1:12: op 'exec' does not apply to 'unix:/x'" },

	/* ---- rewrite ---- */
	{ "allow read /x -> /y", "t:1:15: '->' only follows a rewrite's patterns" },
	{ "rewrite write /x", "t:1:1: rewrite needs '-> REPLACEMENT'" },
	{ "rewrite write -> /y", "t:1:15: rewrite needs a pattern before '->'" },
	{ "rewrite write /x -> /y /z", "t:1:18: rewrite takes exactly one replacement after '->'" },
	{ "rewrite write /x ->", "t:1:18: rewrite takes exactly one replacement after '->'" },
	{ "rewrite exec /x -> /y", "t:1:9: rewrite applies to read, write, create, delete and stat only" },
	{ "rewrite read,connect /x -> /y",
	  "t:1:9: rewrite applies to read, write, create, delete and stat only" },
	{ "rewrite write /x -> y", "t:1:21: rewrite replacement is not an absolute path: 'y'" },
	{ "rewrite write /x -> ~user/y",
	  "t:1:21: rewrite replacement is not an absolute path: '~user/y'" },
	{ "rewrite write /x -> /y/*",
	  "t:1:21: rewrite replacement may hold no glob but a final '/**': '/y/*'" },
	{ "rewrite write /x/** -> /y/**/z",
	  "t:1:24: rewrite replacement may hold no glob but a final '/**': '/y/**/z'" },
	{ "rewrite write /x -> $NOPE/y", "t:1:21: unknown variable in '$NOPE/y'" },
	{ "rewrite write /x -> /y/**",
	  "t:1:15: a replacement ending in '/**' needs a pattern ending in '/**': '/x'" },
	{ "rewrite write /x/* -> /y/**",
	  "t:1:15: a replacement ending in '/**' needs a pattern ending in '/**': '/x/*'" },
	{ "rewrite * unix:/x -> /y", "t:1:11: rewrite applies to path patterns only: 'unix:/x'" },
	{ "rewrite * @foreign-proc -> /y",
	  "t:1:11: rewrite applies to path patterns only: '@foreign-proc'" },
	{ "rewrite * memfd:x -> /y", "t:1:11: rewrite applies to path patterns only: 'memfd:x'" },

	/* ---- path targets ---- */
	{ "allow read /x $NOPE/y", "t:1:15: unknown variable: '$NOPE/y'" },
	{ "allow read ${HOME", "t:1:12: unknown variable: '${HOME'" },
	{ "allow read ${NOPE}/x", "t:1:12: unknown variable: '${NOPE}/x'" },
	{ "allow read /x/$", "t:1:12: unknown variable: '/x/$'" },
	{ "allow read $home/x", "t:1:12: unknown variable: '$home/x'" },
	{ "allow read ~user/x", "t:1:12: not an absolute path: '~user/x'" },
	{ "allow read $UID/x", "t:1:12: not an absolute path: '$UID/x'" },
	{ "allow read /x/[ab", "t:1:12: unterminated character class: '/x/[ab'" },
	{ "allow read /x\\", "t:1:12: trailing backslash: '/x\\'" },
	{ "allow read relative", "t:1:12: op 'read' does not apply to 'relative'" },
	{ "allow read ./x", "t:1:12: not an absolute path: './x'" },
	{ "allow read src/**", "t:1:12: not an absolute path: 'src/**'" },
	{ "allow connect 1.2.3.999/8", "t:1:15: bad address or prefix: '1.2.3.999/8'" },
	{ "allow read \"\"", "t:1:12: not an absolute path or a network target: ''" },

	/* ---- network targets ---- */
	{ "allow connect [::1", "t:1:15: missing ']' after IPv6 address: '[::1'" },
	{ "allow connect [::1]x", "t:1:15: expected ':PORTS' after ']': '[::1]x'" },
	{ "allow connect [1.2.3.4]:80", "t:1:15: not an IPv6 address inside [...]: '[1.2.3.4]:80'" },
	{ "allow connect [zz::1]:80", "t:1:15: bad address or prefix: '[zz::1]:80'" },
	{ "allow connect host:99999", "t:1:15: bad port or port range: 'host:99999'" },
	{ "allow connect host:90-80", "t:1:15: bad port or port range: 'host:90-80'" },
	{ "allow connect host:", "t:1:15: bad port or port range: 'host:'" },
	{ "allow connect host:8000-", "t:1:15: bad port or port range: 'host:8000-'" },
	{ "allow connect host:http", "t:1:15: bad port or port range: 'host:http'" },
	{ "allow connect 10.0.0.0/33", "t:1:15: bad address or prefix: '10.0.0.0/33'" },
	{ "allow connect 1.2.3.999:80", "t:1:15: bad address or prefix: '1.2.3.999:80'" },
	{ "allow connect [fd00::]/129", "t:1:15: bad address or prefix: '[fd00::]/129'" },
	{ "allow connect -bad.com", "t:1:15: not an absolute path or a network target: '-bad.com'" },
	{ "allow connect a*b.com", "t:1:15: not an absolute path or a network target: 'a*b.com'" },
	{ "allow connect *.", "t:1:15: not an absolute path or a network target: '*.'" },
	{ "allow connect @nope", "t:1:15: unknown group: '@nope'" },
	{ "allow connect @loopback:x", "t:1:15: bad port or port range: '@loopback:x'" },
	{ "allow connect @session:80", "t:1:15: unknown group: '@session:80'" },
	{ "allow connect unix:x", "t:1:15: not an absolute path: 'unix:x'" },
	{ "allow connect unix:$NOPE", "t:1:15: unknown variable: 'unix:$NOPE'" },
	{ "allow connect unix-abstract:[x", "t:1:15: unterminated character class: 'unix-abstract:[x'" },
	{ "allow exec memfd:[x", "t:1:12: unterminated character class: 'memfd:[x'" },

	/* ---- set ---- */
	{ "set", "t:1:1: 'set' takes a name and a value" },
	{ "set undecided", "t:1:1: 'set' takes a name and a value" },
	{ " set undecided ask now", "t:1:2: 'set' takes a name and a value" },
	{ "set undecided maybe", "t:1:15: 'set undecided' takes ask, deny or allow, not 'maybe'" },
	{ "set undecided ASK", "t:1:15: 'set undecided' takes ask, deny or allow, not 'ASK'" },
	{ "set ask-timeout -1", "t:1:17: 'set ask-timeout' takes seconds from 0 to 86400, not '-1'" },
	{ "set ask-timeout 86401",
	  "t:1:17: 'set ask-timeout' takes seconds from 0 to 86400, not '86401'" },
	{ "set ask-timeout 1.5", "t:1:17: 'set ask-timeout' takes seconds from 0 to 86400, not '1.5'" },
	{ "set ask-timeout +5", "t:1:17: 'set ask-timeout' takes seconds from 0 to 86400, not '+5'" },
	{ "set ask-timeout 99999999999999999999999",
	  "t:1:17: 'set ask-timeout' takes seconds from 0 to 86400, not '99999999999999999999999'" },
	{ "set ask-timeout 10s", "t:1:17: 'set ask-timeout' takes seconds from 0 to 86400, not '10s'" },
	{ "set colour blue", "t:1:5: unknown setting 'colour'" },
	{ "set log-retention", "t:1:1: 'set' takes a name and a value" },
	{ "set log-retention 30d 1G 2G", "t:1:1: 'set' takes a name and a value" },
	{ "set log-retention 30",
	  "t:1:19: 'set log-retention' takes an age in days (30d) and a size (500M, 1G), not '30'" },
	{ "set log-retention 30d 1g",
	  "t:1:23: 'set log-retention' takes an age in days (30d) and a size (500M, 1G), not '1g'" },
	{ "set log-retention -1d",
	  "t:1:19: 'set log-retention' takes an age in days (30d) and a size (500M, 1G), not '-1d'" },
	{ "set log-retention 1GB",
	  "t:1:19: 'set log-retention' takes an age in days (30d) and a size (500M, 1G), not '1GB'" },
	{ "set log-retention 36501d",
	  "t:1:19: 'set log-retention' keeps logs at most 36500 days, not '36501d'" },
	{ "set log-retention 99999999T", "t:1:19: 'set log-retention': '99999999T' is too large" },

	/* ---- include ---- */
	{ "include", "t:1:1: 'include' takes one path" },
	{ "include a b", "t:1:1: 'include' takes one path" },
	{ "include \"\"", "t:1:9: empty include path" },
	{ "include $NOPE/x", "t:1:9: unknown variable in '$NOPE/x'" },
	{ "include /nonexistent/x.policy",
	  "t:1:9: cannot include '/nonexistent/x.policy': No such file or directory" },
	{ "include @R/inc", "t:1:9: cannot include '@R/inc': Is a directory" },
	{ "include @R/inc/cyc1.policy",
	  "@R/inc/cyc2.policy:1:9: include cycle: '@R/inc/cyc1.policy' includes itself" },
	{ "include @R/inc/self.policy",
	  "@R/inc/self.policy:1:9: include cycle: '@R/inc/self.policy' includes itself" },
	{ "include @R/inc/deep/1.policy",
	  "@R/inc/deep/8.policy:1:9: includes nested deeper than 8 at '@R/inc/deep/9.policy'" },
	{ "allow read /x\ninclude @R/inc/bad.policy", "@R/inc/bad.policy:2:7: unknown op 'raed'" },
	{ "include @R/inc/badinc.policy",
	  "@R/inc/badinc.policy:1:9: cannot include '@R/inc/missing.policy': No such file or directory" },

	/* ---- words and lines ---- */
	{ "allow read \"/x", "t:1:12: unterminated quote" },
	{ "allow read /a\"b c", "t:1:14: unterminated quote" },
	{ "allow read /a\\\"b c", "t:1:15: unterminated quote" },
	{ "allow read \"/x\\\"", "t:1:12: unterminated quote" },
	{ "allow read /x\n\nallow raed /y", "t:3:7: unknown op 'raed'" },
	{ "# c\n  \n\tdeny raed /x", "t:3:7: unknown op 'raed'" },
	{ "allow read /x\r\nallow raed /y\r\n", "t:2:7: unknown op 'raed'" },
};

/*
 * Several layers: a profile, a user text (origin "u"), a policy text
 * (origin "t") and up to two --rule lines, loaded in that order.
 */
struct layer_row {
	const char *profile, *user, *file, *rule1, *rule2;
	const char *op, *target, *expect;
};

static const struct layer_row layer_rows[] = {
	/* the last matching rule wins across layers */
	{ NULL, "allow read @R/a/**", "deny read @R/a/**", NULL, NULL, "read", "@R/a/b",
	  "deny read @R/a/b t:1" },
	{ NULL, "allow read @R/a/**", "deny read @R/a/**", "allow read @R/a/b", NULL, "read",
	  "@R/a/b", "allow read @R/a/b --rule:1" },
	{ NULL, "allow read @R/a/**", "deny read @R/a/**", "allow read @R/a/b", NULL, "read",
	  "@R/a/c", "deny read @R/a/c t:1" },
	{ NULL, NULL, NULL, "deny read @R/a/**", "allow read @R/a/b", "read", "@R/a/b",
	  "allow read @R/a/b --rule:2" },
	{ NULL, NULL, NULL, "allow read @R/a/b", "deny read @R/a/**", "read", "@R/a/b",
	  "deny read @R/a/b --rule:2" },
	{ NULL, "deny read @R/a/b", "allow read @R/a/**", NULL, NULL, "read", "@R/a/b",
	  "allow read @R/a/b t:1" },
	/* deny! in an earlier layer beats every later allow */
	{ NULL, "deny! read @R/a/**", "allow read @R/a/**", "allow read @R/a/b", NULL, "read",
	  "@R/a/b", "deny read @R/a/b u:1" },
	{ NULL, "allow read @R/a/**", "deny! read @R/a/b", "allow read @R/a/b", NULL, "read",
	  "@R/a/b", "deny read @R/a/b t:1" },
	/* of several matching deny!, the last decides */
	{ NULL, "deny! read @R/a/**", "deny!(EPERM) read @R/a/b", NULL, NULL, "read", "@R/a/b",
	  "deny read @R/a/b t:1" },
	{ NULL, "deny! read @R/a/**", "deny!(EPERM) read @R/a/b", "deny! read @R/**", NULL, "read",
	  "@R/a/b", "deny read @R/a/b --rule:1" },
	/* a deny! that does not match does not decide */
	{ NULL, "deny! read @R/a/c", NULL, "allow read @R/a/**", NULL, "read", "@R/a/b",
	  "allow read @R/a/b --rule:1" },
	{ NULL, "deny! write @R/a/**", NULL, "allow read @R/a/**", NULL, "read", "@R/a/b",
	  "allow read @R/a/b --rule:1" },
	/* set undecided: a later layer overrides an earlier one */
	{ NULL, "set undecided deny", "set undecided allow", NULL, NULL, "read", "@R/a/b",
	  "allow read @R/a/b undecided" },
	{ NULL, "set undecided allow", "allow read @R/x", NULL, NULL, "read", "@R/a/b",
	  "allow read @R/a/b undecided" },
	{ "strict", "set undecided ask", NULL, NULL, NULL, "write", "@R/home/x",
	  "ask write @R/home/x undecided" },
	{ "default", NULL, NULL, "set undecided deny", NULL, "write", "@R/home/x",
	  "deny write @R/home/x undecided" },
	/* the self layer comes first and its deny! is never lifted */
	{ NULL, "allow * /**", "allow read @R/home/.config/ward/**", "allow read /**", NULL, "read",
	  "@R/home/.config/ward/policy", "deny read @R/home/.config/ward/policy builtin:self:4" },

	/* ---- the default profile ---- */
	{ "default", NULL, NULL, NULL, NULL, "read", "@R/home/.ssh/id_rsa",
	  "deny read @R/home/.ssh/id_rsa builtin:default:9" },
	{ "default", NULL, NULL, NULL, NULL, "read", "@R/home/.aws/credentials",
	  "deny read @R/home/.aws/credentials builtin:default:9" },
	{ "default", NULL, NULL, NULL, NULL, "read", "@R/home/.netrc",
	  "deny read @R/home/.netrc builtin:default:13" },
	{ "default", NULL, NULL, NULL, NULL, "read", "/etc/shadow", "deny read /etc/shadow builtin:default:17" },
	{ "default", NULL, NULL, NULL, NULL, "read", "/dev/pts/7", "deny read /dev/pts/7 builtin:default:22" },
	{ "default", NULL, NULL, NULL, NULL, "read", "/dev/input/event0",
	  "deny read /dev/input/event0 builtin:default:75" },
	{ "default", NULL, NULL, NULL, NULL, "write", "/dev/uinput", "deny write /dev/uinput builtin:default:75" },
	{ "default", NULL, NULL, NULL, NULL, "write", "@R/tmp/ward-1000/other/x",
	  "deny write @R/tmp/ward-1000/other/x builtin:default:71" },
	{ "default", NULL, NULL, NULL, NULL, "delete", "@R/tmp/ward-1000",
	  "deny delete @R/tmp/ward-1000 builtin:default:71" },
	{ "default", NULL, NULL, NULL, NULL, "write", "/dev/ptmx", "allow write /dev/ptmx builtin:default:21" },
	{ "default", NULL, NULL, NULL, NULL, "create", "/dev/shm/sem.mp-x",
	  "allow create /dev/shm/sem.mp-x builtin:default:81" },
	{ "default", NULL, NULL, NULL, NULL, "read", "@R/home/notes.txt",
	  "allow read @R/home/notes.txt builtin:default:8" },
	{ "default", NULL, NULL, NULL, NULL, "read", "@R/proj/src/a.c",
	  "allow read @R/proj/src/a.c builtin:default:8" },
	{ "default", NULL, NULL, NULL, NULL, "write", "@R/proj/src/a.c",
	  "allow write @R/proj/src/a.c builtin:default:20" },
	{ "default", NULL, NULL, NULL, NULL, "create", SESS "/x", "allow create " SESS "/x builtin:default:72" },
	{ "default", NULL, NULL, NULL, NULL, "write", "@R/proj/.git/hooks/pre-commit",
	  "deny write @R/proj/.git/hooks/pre-commit builtin:default:33" },
	{ "default", NULL, NULL, NULL, NULL, "write", "@R/proj/.git/config",
	  "allow write @R/proj/.git/config builtin:default:20" },
	{ "default", NULL, NULL, NULL, NULL, "write", "@R/home/.bashrc",
	  "deny write @R/home/.bashrc builtin:default:44" },
	{ "default", NULL, NULL, NULL, NULL, "create", "@R/home/.config/nvim/init.lua",
	  "deny create @R/home/.config/nvim/init.lua builtin:default:46" },
	{ "default", NULL, NULL, NULL, NULL, "write", "@R/home/notes.txt",
	  "ask write @R/home/notes.txt undecided" },
	{ "default", NULL, NULL, NULL, NULL, "stat", "@R/home/.config/ward/policy",
	  "allow stat @R/home/.config/ward/policy builtin:default:8" },
	{ "default", NULL, NULL, NULL, NULL, "read", "@R/home/.config/ward/policy",
	  "deny read @R/home/.config/ward/policy builtin:self:4" },
	{ "default", NULL, NULL, NULL, NULL, "read", "/proc/1/environ",
	  "deny read /proc/1/environ builtin:self:15" },
	{ "default", NULL, NULL, NULL, NULL, "exec", "/usr/bin/sudo",
	  "ask exec /usr/bin/sudo builtin:default:53" },
	{ "default", NULL, NULL, NULL, NULL, "exec", "/usr/bin/ls",
	  "allow exec /usr/bin/ls builtin:default:52" },
	{ "default", NULL, NULL, NULL, NULL, "exec", "memfd:x", "deny exec memfd:x builtin:default:54" },
	{ "default", NULL, NULL, NULL, NULL, "connect", "169.254.169.254:80",
	  "deny connect 169.254.169.254:80 builtin:default:62" },
	{ "default", NULL, NULL, NULL, NULL, "connect", "127.0.0.1:5432",
	  "deny connect 127.0.0.1:5432 builtin:default:60" },
	{ "default", NULL, NULL, NULL, NULL, "bind", "127.0.0.1:8080",
	  "allow bind 127.0.0.1:8080 builtin:default:59" },
	{ "default", NULL, NULL, NULL, NULL, "connect", "93.184.216.34:443",
	  "ask connect 93.184.216.34:443 builtin:default:58" },
	{ "default", NULL, NULL, NULL, NULL, "connect", "unix:/run/dbus/system_bus_socket",
	  "deny connect unix:/run/dbus/system_bus_socket builtin:default:60" },
	{ "default", NULL, "allow connect @loopback:5432", NULL, NULL, "connect", "127.0.0.1:5432",
	  "allow connect 127.0.0.1:5432 t:1" },
	{ "default", "deny read @R/proj/secret", NULL, NULL, NULL, "read", "@R/proj/secret",
	  "deny read @R/proj/secret u:1" },

	/* ---- the strict profile ---- */
	{ "strict", NULL, NULL, NULL, NULL, "read", "@R/home/.ssh/id_rsa",
	  "deny read @R/home/.ssh/id_rsa undecided" },
	{ "strict", NULL, NULL, NULL, NULL, "read", "@R/proj/a.c", "allow read @R/proj/a.c builtin:strict:10" },
	{ "strict", NULL, NULL, NULL, NULL, "write", "@R/home/.bashrc",
	  "deny write @R/home/.bashrc undecided" },
	{ "strict", NULL, NULL, NULL, NULL, "read", "/etc/shadow", "deny read /etc/shadow builtin:strict:8" },
	{ "strict", NULL, NULL, NULL, NULL, "stat", "@R/home/x", "allow stat @R/home/x builtin:strict:9" },
	{ "strict", NULL, NULL, NULL, NULL, "exec", "/usr/bin/sudo",
	  "deny exec /usr/bin/sudo builtin:strict:15" },
	{ "strict", NULL, NULL, NULL, NULL, "exec", "@R/proj/a.out", "ask exec @R/proj/a.out builtin:strict:14" },
	{ "strict", NULL, NULL, NULL, NULL, "connect", "169.254.169.254:80",
	  "deny connect 169.254.169.254:80 builtin:strict:18" },
	{ "strict", NULL, NULL, NULL, NULL, "connect", "127.0.0.1:5432",
	  "ask connect 127.0.0.1:5432 builtin:strict:16" },

	/* ---- the audit profile ---- */
	{ "audit", NULL, NULL, NULL, NULL, "read", "@R/home/.ssh/id_rsa",
	  "allow read @R/home/.ssh/id_rsa undecided" },
	{ "audit", NULL, NULL, NULL, NULL, "write", "@R/home/.bashrc",
	  "allow write @R/home/.bashrc undecided" },
	{ "audit", NULL, NULL, NULL, NULL, "exec", "/usr/bin/sudo", "allow exec /usr/bin/sudo undecided" },
	{ "audit", NULL, NULL, NULL, NULL, "connect", "169.254.169.254:80",
	  "allow connect 169.254.169.254:80 undecided" },
	{ "audit", NULL, NULL, NULL, NULL, "connect", "127.0.0.1:5432",
	  "allow connect 127.0.0.1:5432 undecided" },
	{ "audit", NULL, NULL, NULL, NULL, "write", "@R/home/.local/state/ward/x",
	  "deny write @R/home/.local/state/ward/x builtin:self:5" },
};

/* Network targets built by hand: @session and names the supervisor verified. */
struct net_row {
	const char *profile; /* or NULL */
	const char *policy;  /* origin "t", or NULL */
	const char *op;
	enum ward_net_kind kind;
	const char *addr; /* for INET */
	uint16_t port;
	const char *host, *path;
	bool session;
	const char *expect; /* explain's line with TARGET written as "T" */
	bool dns;	    /* the destination is a name server of resolv.conf, port 53 */
};

static const struct net_row net_rows[] = {
	{ NULL, "allow connect @session", "connect", WARD_NET_INET, "127.0.0.1", 8080, NULL, NULL,
	  true, "allow connect T t:1", false },
	{ NULL, "allow connect @session", "connect", WARD_NET_INET, "127.0.0.1", 8080, NULL, NULL,
	  false, "ask connect T undecided", false },
	{ NULL, "allow connect @session", "connect", WARD_NET_UNIX, NULL, 0, NULL, "@R/proj/s.sock",
	  true, "allow connect T t:1", false },
	{ NULL, "allow bind @session", "connect", WARD_NET_INET, "127.0.0.1", 8080, NULL, NULL, true,
	  "ask connect T undecided", false },
	{ "default", NULL, "connect", WARD_NET_INET, "127.0.0.1", 8080, NULL, NULL, true,
	  "allow connect T builtin:default:61", false },
	{ "default", NULL, "connect", WARD_NET_UNIX, NULL, 0, NULL, "@R/proj/s.sock", true,
	  "allow connect T builtin:default:61", false },
	{ "default", NULL, "connect", WARD_NET_UNIX, NULL, 0, NULL, "@R/proj/s.sock", false,
	  "deny connect T builtin:default:60", false },
	/* the control sockets stay hard-denied even when bound in the session */
	{ "default", NULL, "connect", WARD_NET_UNIX, NULL, 0, NULL, "@R/run/ward/s1.sock", true,
	  "deny connect T builtin:self:9", false },
	{ "default", NULL, "connect", WARD_NET_INET, "169.254.169.254", 80, NULL, NULL, true,
	  "deny connect T builtin:default:62", false },
	/* a verified name: domain rules match it, without regard to case or a final dot */
	{ NULL, "allow connect api.example.com:443", "connect", WARD_NET_INET, "93.184.216.34", 443,
	  "API.Example.COM.", NULL, false, "allow connect T t:1", false },
	{ NULL, "allow connect *.example.com:443", "connect", WARD_NET_INET, "93.184.216.34", 443,
	  "a.b.example.com", NULL, false, "allow connect T t:1", false },
	{ NULL, "allow connect api.example.com:443", "connect", WARD_NET_INET, "93.184.216.34", 443,
	  NULL, NULL, false, "ask connect T undecided", false },
	{ NULL, "allow connect api.example.com:443\ndeny connect 93.184.216.0/24", "connect",
	  WARD_NET_INET, "93.184.216.34", 443, "api.example.com", NULL, false,
	  "deny connect T t:2", false },
	{ NULL, "deny connect 93.184.216.0/24\nallow connect api.example.com:443", "connect",
	  WARD_NET_INET, "93.184.216.34", 443, "api.example.com", NULL, false,
	  "allow connect T t:2", false },
	{ NULL, "allow connect [::ffff:10.0.0.0]/104", "connect", WARD_NET_INET, "10.9.8.7", 1, NULL,
	  NULL, false, "allow connect T t:1", false },
	/* @dns: the caller says whether the address is a name server's, port 53 */
	{ NULL, "allow connect @dns", "connect", WARD_NET_INET, "10.0.0.2", 53, NULL, NULL, false,
	  "allow connect T t:1", true },
	{ NULL, "allow connect @dns", "connect", WARD_NET_INET, "10.0.0.2", 53, NULL, NULL, false,
	  "ask connect T undecided", false },
	{ NULL, "allow connect @dns", "connect", WARD_NET_UNIX, NULL, 0, NULL, "@R/s", false,
	  "ask connect T undecided", true },
	/* the default profile: the name servers, even on loopback (systemd-resolved's stub) */
	{ "default", NULL, "connect", WARD_NET_INET, "127.0.0.53", 53, NULL, NULL, false,
	  "allow connect T builtin:default:69", true },
	{ "default", NULL, "connect", WARD_NET_INET, "127.0.0.53", 53, NULL, NULL, false,
	  "deny connect T builtin:default:60", false },
	{ "default", NULL, "connect", WARD_NET_INET, "8.8.8.8", 53, NULL, NULL, false,
	  "ask connect T builtin:default:58", false },
	/* servers on every interface; binding another address is a question */
	{ "default", NULL, "bind", WARD_NET_INET, "0.0.0.0", 8000, NULL, NULL, false,
	  "allow bind T builtin:default:65", false },
	{ "default", NULL, "bind", WARD_NET_INET, "::", 8000, NULL, NULL, false,
	  "allow bind T builtin:default:65", false },
	{ "default", NULL, "bind", WARD_NET_INET, "192.168.1.5", 8000, NULL, NULL, false,
	  "ask bind T builtin:default:58", false },
	/* kinds of socket: refused by the default profile unless a rule says otherwise */
	{ "default", NULL, "connect", WARD_NET_SOCKET, NULL, 0, NULL, "packet", false,
	  "deny connect T builtin:default:67", false },
	{ "default", "allow connect socket:icmp", "connect", WARD_NET_SOCKET, NULL, 0, NULL, "icmp",
	  false, "allow connect T t:1", false },
	{ "default", "allow connect socket:icmp", "connect", WARD_NET_SOCKET, NULL, 0, NULL, "raw",
	  false, "deny connect T builtin:default:67", false },
	{ NULL, "allow connect *", "connect", WARD_NET_SOCKET, NULL, 0, NULL, "raw", false,
	  "ask connect T undecided", false },
	{ "strict", NULL, "connect", WARD_NET_SOCKET, NULL, 0, NULL, "vsock", false,
	  "deny connect T builtin:strict:19", false },
};

/* The errno a denial carries. */
struct errno_row {
	const char *profile, *policy, *op, *target;
	int err;
};

static const struct errno_row errno_rows[] = {
	{ NULL, "deny read @R/home/**", "read", "@R/home/x", EACCES },
	{ NULL, "deny(EROFS) write @R/home/**", "write", "@R/home/x", EROFS },
	{ NULL, "deny(ENOENT) read @R/home/.netrc", "read", "@R/home/.netrc", ENOENT },
	{ NULL, "deny! read @R/home/**", "read", "@R/home/x", EACCES },
	{ NULL, "deny!(EPERM) read @R/home/**\nallow read @R/home/x", "read", "@R/home/x", EPERM },
	{ NULL, "deny!(EPERM) read @R/home/**\ndeny! read @R/home/x", "read", "@R/home/x", EACCES },
	{ NULL, "deny! read @R/home/**\ndeny!(EPERM) read @R/home/x", "read", "@R/home/x", EPERM },
	{ NULL, "deny(EROFS) write @R/home/**\ndeny write @R/home/x", "write", "@R/home/x", EACCES },
	{ NULL, "set undecided deny", "read", "@R/home/x", EACCES },
	{ NULL, "deny(ENOENT) exec memfd:*", "exec", "memfd:x", ENOENT },
	{ NULL, "deny(ECONNREFUSED) connect @metadata", "connect", "169.254.169.254:80", ECONNREFUSED },
	{ NULL, "deny(EPERM) connect unix:/**", "connect", "unix:/run/x", EPERM },
	{ "default", NULL, "read", "@R/home/.netrc", ENOENT },
	{ "default", NULL, "read", "@R/home/.ssh/id_rsa", EACCES },
};

/* ---------------------------------------------------------------- helpers */

static struct ward_policy *load(const char *text, struct ward_error *err)
{
	char buf[8192];
	struct ward_policy *p = ward_policy_new(&vars);
	assert_non_null(p);
	subst(text, buf, sizeof(buf));
	if (ward_policy_add_text(p, WARD_LAYER_FILE, "t", buf, strlen(buf), err) < 0) {
		ward_policy_free(p);
		return NULL;
	}
	return p;
}

/* Decide op on a target written as in ward explain; returns the explain line. */
static void decide_text(const struct ward_policy *p, const char *opname, const char *target,
			struct ward_verdict *v, char *got, size_t gotlen, size_t row)
{
	enum ward_op op = ward_op_parse(opname);
	if (op == 0)
		fail_msg("row %zu: bad op '%s'", row, opname);
	if (op & WARD_OPS_NET) {
		struct ward_net_target t;
		char buf[PATH_MAX];
		if (ward_net_target_parse(target, &t, buf, sizeof(buf)) != 0)
			fail_msg("row %zu: cannot parse target '%s'", row, target);
		assert_int_equal(ward_decide_net(p, op, &t, v), 0);
	} else {
		assert_int_equal(ward_decide_path(p, op, target, v), 0);
	}
	assert_true(ward_verdict_format(v, op, target, got, gotlen) > 0);
}

static void add_text(struct ward_policy *p, enum ward_layer layer, const char *origin,
		     const char *text)
{
	char buf[8192];
	struct ward_error err;
	subst(text, buf, sizeof(buf));
	if (ward_policy_add_text(p, layer, origin, buf, strlen(buf), &err) < 0)
		fail_msg("cannot load '%s': %s", buf, err.msg);
}

static void add_rule(struct ward_policy *p, const char *line)
{
	char buf[8192];
	struct ward_error err;
	subst(line, buf, sizeof(buf));
	if (ward_policy_add_rule(p, buf, &err) < 0)
		fail_msg("cannot add rule '%s': %s", buf, err.msg);
}

static struct ward_policy *load_profile(const char *profile)
{
	struct ward_error err;
	struct ward_policy *p = ward_policy_new(&vars);
	assert_non_null(p);
	if (profile != NULL && ward_policy_add_profile(p, profile, &err) < 0)
		fail_msg("profile %s: %s", profile, err.msg);
	return p;
}

/* Write a file below the scratch root; "@R" in the content is substituted. */
static int write_file(const char *rel, const char *content)
{
	char path[PATH_MAX], text[8192];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	subst(content, text, sizeof(text));
	f = fopen(path, "w");
	if (f == NULL)
		return -1;
	fputs(text, f);
	return fclose(f);
}

/* ------------------------------------------------------------ table tests */

static void test_decide_rows(void **state)
{
	int bad = 0;
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(decide_rows); i++) {
		const struct decide_row *r = &decide_rows[i];
		struct ward_error err;
		struct ward_verdict v;
		char target[PATH_MAX], expect[2 * PATH_MAX], got[2 * PATH_MAX];
		struct ward_policy *p = load(r->policy, &err);
		if (p == NULL) {
			print_error("decide row %zu: policy refused: %s\n", i, err.msg);
			bad++;
			continue;
		}
		subst(r->target, target, sizeof(target));
		subst(r->expect, expect, sizeof(expect));
		decide_text(p, r->op, target, &v, got, sizeof(got), i);
		if (strcmp(got, expect) != 0) {
			print_error("decide row %zu: expected '%s', got '%s'\n", i, expect, got);
			bad++;
		}
		ward_policy_free(p);
	}
	assert_int_equal(bad, 0);
}

static void test_error_rows(void **state)
{
	int bad = 0;
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(error_rows); i++) {
		struct ward_error err;
		char expect[PATH_MAX];
		struct ward_policy *p = load(error_rows[i].policy, &err);
		subst(error_rows[i].expect, expect, sizeof(expect));
		if (p != NULL) {
			print_error("error row %zu: policy accepted, expected '%s'\n", i, expect);
			ward_policy_free(p);
			bad++;
		} else if (strcmp(err.msg, expect) != 0) {
			print_error("error row %zu: expected error '%s', got '%s'\n", i, expect,
				    err.msg);
			bad++;
		}
	}
	assert_int_equal(bad, 0);
}

static void test_layer_rows(void **state)
{
	int bad = 0;
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(layer_rows); i++) {
		const struct layer_row *r = &layer_rows[i];
		struct ward_verdict v;
		char target[PATH_MAX], expect[2 * PATH_MAX], got[2 * PATH_MAX];
		struct ward_policy *p = load_profile(r->profile);
		if (r->user)
			add_text(p, WARD_LAYER_USER, "u", r->user);
		if (r->file)
			add_text(p, WARD_LAYER_FILE, "t", r->file);
		if (r->rule1)
			add_rule(p, r->rule1);
		if (r->rule2)
			add_rule(p, r->rule2);
		subst(r->target, target, sizeof(target));
		subst(r->expect, expect, sizeof(expect));
		decide_text(p, r->op, target, &v, got, sizeof(got), i);
		if (strcmp(got, expect) != 0) {
			print_error("layer row %zu: expected '%s', got '%s'\n", i, expect, got);
			bad++;
		}
		ward_policy_free(p);
	}
	assert_int_equal(bad, 0);
}

/* An address as the queries hold it: IPv4 as ::ffff:a.b.c.d. */
static void mkaddr(const char *s, uint8_t out[16])
{
	uint8_t a4[4];
	memset(out, 0, 16);
	if (inet_pton(AF_INET, s, a4) == 1) {
		out[10] = out[11] = 0xff;
		memcpy(out + 12, a4, 4);
		return;
	}
	assert_int_equal(inet_pton(AF_INET6, s, out), 1);
}

static void test_net_rows(void **state)
{
	int bad = 0;
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(net_rows); i++) {
		const struct net_row *r = &net_rows[i];
		struct ward_net_target t;
		struct ward_verdict v;
		char path[PATH_MAX], expect[PATH_MAX], got[PATH_MAX];
		struct ward_policy *p = load_profile(r->profile);
		enum ward_op op = ward_op_parse(r->op);

		if (r->policy)
			add_text(p, WARD_LAYER_FILE, "t", r->policy);
		memset(&t, 0, sizeof(t));
		t.kind = r->kind;
		if (r->addr)
			mkaddr(r->addr, t.addr);
		t.port = r->port;
		t.host = r->host;
		if (r->path) {
			subst(r->path, path, sizeof(path));
			t.path = path;
		}
		t.session = r->session;
		t.dns = r->dns;
		assert_int_equal(ward_decide_net(p, op, &t, &v), 0);
		assert_true(ward_verdict_format(&v, op, "T", got, sizeof(got)) > 0);
		subst(r->expect, expect, sizeof(expect));
		if (strcmp(got, expect) != 0) {
			print_error("net row %zu: expected '%s', got '%s'\n", i, expect, got);
			bad++;
		}
		ward_policy_free(p);
	}
	assert_int_equal(bad, 0);
}

static int collect_domain(const char *name, void *arg)
{
	char *out = arg;
	strcat(out, name);
	strcat(out, " ");
	return 0;
}

static int stop_at_second(const char *name, void *arg)
{
	(void)name;
	return ++*(int *)arg == 2 ? 7 : 0;
}

/* The literal names the supervisor resolves: no wildcards, no addresses. */
static void test_policy_domains(void **state)
{
	char got[512] = "";
	int n = 0;
	(void)state;
	struct ward_policy *p = load_profile("default");
	add_text(p, WARD_LAYER_FILE, "t",
		 "allow connect API.Example.com.:443 *.github.com:443 10.0.0.0/8:5432\n"
		 "deny connect evil.example.org [::1]:80 unix:/x @metadata\n"
		 "allow bind local.test:8000-8999\n");
	assert_int_equal(ward_policy_domains(p, collect_domain, got), 0);
	assert_string_equal(got, "api.example.com evil.example.org local.test ");
	assert_int_equal(ward_policy_domains(p, stop_at_second, &n), 7);
	assert_int_equal(n, 2);
	ward_policy_free(p);
}

/* What the supervisor asks of a deciding rule: deny!, and whether it names a host. */
static void test_rule_kinds(void **state)
{
	struct ward_net_target t = { .kind = WARD_NET_INET, .port = 443 };
	struct ward_verdict v;
	(void)state;
	struct ward_policy *p = load_profile(NULL);
	add_text(p, WARD_LAYER_FILE, "t",
		 "deny! connect evil.example\nallow connect good.example:443\n"
		 "deny connect 10.0.0.0/8\n");
	mkaddr("10.1.2.3", t.addr);
	t.host = "evil.example";
	assert_int_equal(ward_decide_net(p, WARD_OP_CONNECT, &t, &v), 0);
	assert_true(ward_rule_hard(v.rule));
	assert_true(ward_rule_names_host(v.rule));
	t.host = "good.example";
	assert_int_equal(ward_decide_net(p, WARD_OP_CONNECT, &t, &v), 0);
	assert_int_equal(v.action, WARD_DENY); /* the address rule comes last */
	assert_false(ward_rule_hard(v.rule));
	assert_false(ward_rule_names_host(v.rule));
	mkaddr("192.0.2.1", t.addr);
	assert_int_equal(ward_decide_net(p, WARD_OP_CONNECT, &t, &v), 0);
	assert_int_equal(v.action, WARD_ALLOW);
	assert_true(ward_rule_names_host(v.rule));
	assert_false(ward_rule_hard(NULL));
	assert_false(ward_rule_names_host(NULL));
	ward_policy_free(p);
}

static void test_errno_rows(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(errno_rows); i++) {
		const struct errno_row *r = &errno_rows[i];
		struct ward_verdict v;
		char target[PATH_MAX], got[2 * PATH_MAX];
		struct ward_policy *p = load_profile(r->profile);
		if (r->policy)
			add_text(p, WARD_LAYER_FILE, "t", r->policy);
		subst(r->target, target, sizeof(target));
		decide_text(p, r->op, target, &v, got, sizeof(got), i);
		if (v.action != WARD_DENY)
			fail_msg("errno row %zu: not a denial: %s", i, got);
		if (v.err != r->err)
			fail_msg("errno row %zu: expected errno %d, got %d (%s)", i, r->err, v.err, got);
		ward_policy_free(p);
	}
}

/* --------------------------------------------------------- other checks */

static void test_verdict_fields(void **state)
{
	struct ward_error err;
	struct ward_verdict v;
	char path[PATH_MAX];
	(void)state;

	struct ward_policy *p = load("allow read @R/home/**\ndeny! write @R/home/x\n"
				     "rewrite create @R/home/c/** -> $SESSION/c/**",
				     &err);
	assert_non_null(p);
	subst("@R/home/y", path, sizeof(path));
	assert_int_equal(ward_decide_path(p, WARD_OP_READ, path, &v), 0);
	assert_int_equal(v.action, WARD_ALLOW);
	assert_false(v.undecided);
	assert_non_null(v.rule);
	assert_string_equal(ward_rule_location(v.rule), "t:1");
	assert_int_equal(ward_rule_layer(v.rule), WARD_LAYER_FILE);

	subst("@R/home/x", path, sizeof(path));
	assert_int_equal(ward_decide_path(p, WARD_OP_WRITE, path, &v), 0);
	assert_int_equal(v.action, WARD_DENY); /* deny! is reported as a denial */
	assert_int_equal(v.err, EACCES);

	assert_int_equal(ward_decide_path(p, WARD_OP_EXEC, path, &v), 0);
	assert_int_equal(v.action, WARD_ASK);
	assert_true(v.undecided);
	assert_null(v.rule);
	assert_string_equal(ward_rule_location(v.rule), "undecided");

	subst("@R/home/c/d", path, sizeof(path));
	assert_int_equal(ward_decide_path(p, WARD_OP_CREATE, path, &v), 0);
	assert_int_equal(v.action, WARD_REWRITE);
	char want[PATH_MAX];
	subst(SESS "/c/d", want, sizeof(want));
	assert_string_equal(v.rewrite, want);

	/* explain's line does not fit */
	char small[16];
	assert_int_equal(ward_verdict_format(&v, WARD_OP_CREATE, path, small, sizeof(small)),
			 -ENOSPC);

	/* a rewrite that does not fit is -ENAMETOOLONG, not a truncated path */
	char longpath[PATH_MAX];
	int n = snprintf(longpath, sizeof(longpath), "%s/home/c/", root);
	memset(longpath + n, 'x', sizeof(longpath) - (size_t)n - 1);
	longpath[sizeof(longpath) - 1] = '\0';
	assert_int_equal(ward_decide_path(p, WARD_OP_CREATE, longpath, &v), -ENAMETOOLONG);

	/* ops that do not apply to the kind of target */
	struct ward_net_target t;
	char buf[256];
	assert_int_equal(ward_decide_path(p, WARD_OP_CONNECT, path, &v), -EINVAL);
	assert_int_equal(ward_decide_path(p, WARD_OP_READ, "relative/x", &v), -EINVAL);
	assert_int_equal(ward_net_target_parse("1.2.3.4:80", &t, buf, sizeof(buf)), 0);
	assert_int_equal(ward_decide_net(p, WARD_OP_READ, &t, &v), -EINVAL);
	ward_policy_free(p);
}

static void test_layers_and_ops(void **state)
{
	(void)state;
	struct ward_policy *p = load_profile("default");
	struct ward_verdict v;
	char path[PATH_MAX];

	add_text(p, WARD_LAYER_USER, "u", "deny read @R/proj/x");
	add_rule(p, "allow read @R/proj/x");
	subst("@R/proj/x", path, sizeof(path));
	assert_int_equal(ward_decide_path(p, WARD_OP_READ, path, &v), 0);
	assert_int_equal(ward_rule_layer(v.rule), WARD_LAYER_RULE);
	assert_string_equal(ward_rule_location(v.rule), "--rule:1");
	assert_int_equal(ward_decide_path(p, WARD_OP_STAT, path, &v), 0);
	assert_int_equal(ward_rule_layer(v.rule), WARD_LAYER_PROFILE);
	subst("@R/home/.config/ward/policy", path, sizeof(path));
	assert_int_equal(ward_decide_path(p, WARD_OP_READ, path, &v), 0);
	assert_int_equal(ward_rule_layer(v.rule), WARD_LAYER_SELF);
	ward_policy_free(p);

	assert_int_equal(ward_op_parse("read"), WARD_OP_READ);
	assert_int_equal(ward_op_parse("bind"), WARD_OP_BIND);
	assert_int_equal(ward_op_parse("*"), 0);
	assert_int_equal(ward_op_parse("Read"), 0);
	assert_string_equal(ward_op_name(WARD_OP_CONNECT), "connect");
	assert_string_equal(ward_op_name(WARD_OP_READ | WARD_OP_WRITE), "?");
	assert_string_equal(ward_layer_name(WARD_LAYER_SELF), "self");
	assert_string_equal(ward_layer_name(WARD_LAYER_RULE), "rule");
	assert_string_equal(ward_layer_name(WARD_LAYER_COUNT), "?");
}

static void test_rule_lines(void **state)
{
	struct ward_error err;
	(void)state;
	struct ward_policy *p = load_profile(NULL);
	size_t n = ward_policy_rule_count(p);

	add_rule(p, "allow read /a");
	assert_int_equal(ward_policy_add_rule(p, "allow raed /b", &err), -EINVAL);
	assert_string_equal(err.msg, "--rule:2:7: unknown op 'raed'");
	/* a refused rule does not use up a number */
	add_rule(p, "allow read /b");
	assert_int_equal(ward_policy_add_rule(p, "allow read /c\nallow read /d", &err), -EINVAL);
	assert_string_equal(err.msg, "--rule:3: a rule is one line");
	assert_int_equal(ward_policy_add_rule(p, "deny read /x \"unterminated", &err), -EINVAL);
	assert_string_equal(err.msg, "--rule:3:14: unterminated quote");
	assert_int_equal(ward_policy_rule_count(p), n + 2);

	struct ward_verdict v;
	assert_int_equal(ward_decide_path(p, WARD_OP_READ, "/b", &v), 0);
	assert_string_equal(ward_rule_location(v.rule), "--rule:2");
	ward_policy_free(p);
}

static void test_settings(void **state)
{
	struct ward_error err;
	(void)state;
	struct ward_policy *p = load_profile(NULL);

	assert_int_equal(ward_policy_ask_timeout(p), 300);
	assert_int_equal(ward_policy_undecided(p), WARD_UNDECIDED_ASK);
	add_text(p, WARD_LAYER_USER, "u", "set ask-timeout 30\nset undecided deny");
	assert_int_equal(ward_policy_ask_timeout(p), 30);
	assert_int_equal(ward_policy_undecided(p), WARD_UNDECIDED_DENY);
	add_text(p, WARD_LAYER_FILE, "t", "set ask-timeout 0");
	assert_int_equal(ward_policy_ask_timeout(p), 0);
	assert_int_equal(ward_policy_undecided(p), WARD_UNDECIDED_DENY);
	add_text(p, WARD_LAYER_FILE, "t", "set ask-timeout 86400");
	assert_int_equal(ward_policy_ask_timeout(p), 86400);
	/* log-retention: 30 days and 1 GiB; each value sets its own limit; 0 is none */
	uint64_t age, bytes;
	ward_policy_log_retention(p, &age, &bytes);
	assert_true(age == 30 * 86400 && bytes == 1ull << 30);
	add_text(p, WARD_LAYER_FILE, "t", "set log-retention 500M");
	ward_policy_log_retention(p, &age, &bytes);
	assert_true(age == 30 * 86400 && bytes == 500ull << 20);
	add_text(p, WARD_LAYER_FILE, "t", "set log-retention 2T 0d");
	ward_policy_log_retention(p, &age, &bytes);
	assert_true(age == 0 && bytes == 2ull << 40);
	add_text(p, WARD_LAYER_FILE, "t", "set log-retention 7d 64K");
	ward_policy_log_retention(p, &age, &bytes);
	assert_true(age == 7 * 86400 && bytes == 64 << 10);
	/* a refused layer changes no setting */
	assert_int_equal(ward_policy_add_text(p, WARD_LAYER_FILE, "t",
					      "set ask-timeout 5\nset undecided allow\nallow raed /x",
					      strlen("set ask-timeout 5\nset undecided allow\nallow raed /x"),
					      &err),
			 -EINVAL);
	assert_int_equal(ward_policy_ask_timeout(p), 86400);
	assert_int_equal(ward_policy_undecided(p), WARD_UNDECIDED_DENY);
	/* --undecided overrides every layer, earlier and later */
	ward_policy_set_undecided(p, WARD_UNDECIDED_ALLOW);
	assert_int_equal(ward_policy_undecided(p), WARD_UNDECIDED_ALLOW);
	add_text(p, WARD_LAYER_FILE, "t", "set undecided deny");
	assert_int_equal(ward_policy_undecided(p), WARD_UNDECIDED_ALLOW);
	struct ward_verdict v;
	assert_int_equal(ward_decide_path(p, WARD_OP_READ, "/nowhere", &v), 0);
	assert_int_equal(v.action, WARD_ALLOW);
	assert_true(v.undecided);
	ward_policy_free(p);

	/* a set in an included file counts */
	p = load("include @R/inc/set.policy", &err);
	assert_non_null(p);
	assert_int_equal(ward_policy_ask_timeout(p), 7);
	ward_policy_free(p);

	/* a profile sets its own */
	p = load_profile("strict");
	assert_int_equal(ward_policy_undecided(p), WARD_UNDECIDED_DENY);
	assert_int_equal(ward_policy_ask_timeout(p), 300);
	ward_policy_free(p);
	p = load_profile("audit");
	assert_int_equal(ward_policy_undecided(p), WARD_UNDECIDED_ALLOW);
	ward_policy_free(p);
}

/* A policy with an error is never half-loaded. */
static void test_all_or_nothing(void **state)
{
	struct ward_error err;
	struct ward_verdict v;
	char text[512];
	(void)state;
	struct ward_policy *p = load_profile(NULL);
	size_t n = ward_policy_rule_count(p);
	uint64_t gen = ward_policy_generation(p);

	subst("allow read @R/a\ninclude @R/inc/a.policy\nset undecided allow\nallow raed /x", text,
	      sizeof(text));
	assert_int_equal(ward_policy_add_text(p, WARD_LAYER_FILE, "t", text, strlen(text), &err),
			 -EINVAL);
	assert_string_equal(err.msg, "t:4:7: unknown op 'raed'");
	assert_int_equal(ward_policy_rule_count(p), n);
	assert_int_equal(ward_policy_generation(p), gen);
	subst("@R/a", text, sizeof(text));
	assert_int_equal(ward_decide_path(p, WARD_OP_READ, text, &v), 0);
	assert_true(v.undecided);
	assert_int_equal(v.action, WARD_ASK);
	char *dump = ward_policy_dump(p);
	assert_non_null(dump);
	assert_null(strstr(dump, "# layer policy"));
	free(dump);
	ward_policy_free(p);
}

static void test_profiles(void **state)
{
	struct ward_error err;
	(void)state;
	const char *const *names = ward_profile_names();
	bool seen[3] = { false, false, false };
	size_t count = 0;
	for (; names[count] != NULL; count++) {
		assert_string_not_equal(names[count], "self");
		if (strcmp(names[count], "default") == 0)
			seen[0] = true;
		if (strcmp(names[count], "strict") == 0)
			seen[1] = true;
		if (strcmp(names[count], "audit") == 0)
			seen[2] = true;
	}
	assert_true(seen[0] && seen[1] && seen[2]);
	/* The whole profiles stand alone; every other one is layered on default. */
	size_t layered = 0;
	for (size_t i = 0; i < count; i++) {
		const char *base = ward_profile_base(names[i]);
		bool whole = strcmp(names[i], "default") == 0 || strcmp(names[i], "strict") == 0 ||
			     strcmp(names[i], "audit") == 0;
		if (whole) {
			assert_null(base);
		} else {
			assert_non_null(base);
			assert_string_equal(base, "default");
			layered++;
		}
	}
	assert_int_equal(layered, 8);
	assert_null(ward_profile_base("self"));
	assert_null(ward_profile_base("nope"));

	struct ward_policy *p = load_profile(NULL);
	size_t self = ward_policy_rule_count(p);
	assert_int_equal(ward_policy_add_profile(p, "nope", &err), -ENOENT);
	assert_string_equal(err.msg, "unknown profile 'nope'");
	/* the self-protection rules are loaded already and are not a profile */
	assert_int_equal(ward_policy_add_profile(p, "self", &err), -ENOENT);
	assert_string_equal(err.msg, "unknown profile 'self'");
	assert_int_equal(ward_policy_rule_count(p), self);
	/* A layered profile needs a whole one under it. */
	assert_int_equal(ward_policy_add_profile(p, "npm", &err), -EINVAL);
	assert_string_equal(err.msg, "profile npm is layered on a whole profile, and none is loaded");
	assert_int_equal(ward_policy_add_profile(p, "default", &err), 0);
	size_t n = ward_policy_rule_count(p);
	assert_int_equal(ward_policy_add_profile(p, "strict", &err), -EINVAL);
	assert_string_equal(err.msg,
			    "profile strict is a whole profile and another is loaded already");
	assert_int_equal(ward_policy_add_profile(p, "strict", NULL), -EINVAL);
	assert_int_equal(ward_policy_rule_count(p), n);
	assert_int_equal(ward_policy_add_profile(p, "npm", &err), 0);
	assert_true(ward_policy_rule_count(p) > n);
	n = ward_policy_rule_count(p);
	assert_int_equal(ward_policy_add_profile(p, "npm", &err), -EINVAL);
	assert_string_equal(err.msg, "profile npm is loaded already");
	assert_int_equal(ward_policy_rule_count(p), n);
	ward_policy_free(p);
}

/* A --profile list: the whole profile first, then the layered ones as named, each once. */
static void test_profiles_resolve(void **state)
{
	static const struct {
		const char *list, *want; /* want: the names joined by ',', or the error */
	} cases[] = {
		{ "default", "default" },
		{ "claude-code", "default,claude-code" },
		{ "claude-code,npm", "default,claude-code,npm" },
		{ "npm,claude-code,npm", "default,npm,claude-code" },
		{ "npm,default", "default,npm" },
		{ "strict,npm", "strict,npm" },
		{ "go,audit", "audit,go" },
		{ "strict,audit", "strict and audit are both whole profiles: name one, and the "
				  "profiles to layer on it" },
		{ "default,default", "default" },
		{ "npm,nope", "unknown profile 'nope'" },
		{ "self", "unknown profile 'self'" },
		{ "", "an empty profile name in ''" },
		{ "npm,", "an empty profile name in 'npm,'" },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *out[16];
		struct ward_error err;
		char got[1024] = "";
		size_t n;
		if (ward_profiles_resolve(cases[i].list, out, 16, &n, &err) < 0) {
			snprintf(got, sizeof(got), "%s", err.msg);
		} else {
			for (size_t k = 0; k < n; k++)
				snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s%s",
					 k ? "," : "", out[k]);
		}
		if (strcmp(got, cases[i].want) != 0)
			fail_msg("'%s': expected '%s', got '%s'", cases[i].list, cases[i].want, got);
	}
}

/* `base` belongs to built-in profiles; `env` sets a variable for the command. */
static void test_base_and_env(void **state)
{
	struct ward_error err;
	(void)state;
	struct ward_policy *p = load_profile(NULL);
	static const struct {
		const char *text, *err;
	} bad[] = {
		{ "base default", "t:1:1: 'base' is for built-in profiles only" },
		{ "env", "t:1:1: 'env' takes a name and a value" },
		{ "env A", "t:1:1: 'env' takes a name and a value" },
		{ "env 1A x", "t:1:5: not a variable name: '1A'" },
		{ "env A-B x", "t:1:5: not a variable name: 'A-B'" },
		{ "env LD_PRELOAD /x.so", "t:1:5: 'LD_PRELOAD' is ward's own to set" },
		{ "env WARD_HINT 1", "t:1:5: 'WARD_HINT' is ward's own to set" },
		{ "env A $NOPE", "t:1:7: unknown variable in '$NOPE'" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(ward_policy_add_text(p, WARD_LAYER_FILE, "t", bad[i].text,
						      strlen(bad[i].text), &err),
				 -EINVAL);
		assert_string_equal(err.msg, bad[i].err);
	}
	const char *text = "env GOCACHE $SESSION/cache/go-build\n"
			   "env A \"one two\"\n"
			   "env B \\$HOME\n"
			   "env A three\n";
	assert_int_equal(ward_policy_add_text(p, WARD_LAYER_FILE, "t", text, strlen(text), &err), 0);
	char *dump = ward_policy_dump(p);
	char want[8192];
	snprintf(want, sizeof(want),
		 "env GOCACHE %s/cache/go-build    # t:1\n"
		 "env A three    # t:4\n"
		 "env B $HOME    # t:3\n"
		 "set undecided",
		 vars.session);
	if (strstr(dump, want) == NULL)
		fail_msg("no '%s' in:\n%s", want, dump);
	free(dump);
	ward_policy_free(p);
}

static void test_restricts(void **state)
{
	(void)state;
	struct ward_policy *p = load_profile("default");
	/* an allow of read,stat on the whole tree: undecided never applies to stat */
	assert_false(ward_policy_restricts(p, WARD_OP_STAT));
	assert_true(ward_policy_restricts(p, WARD_OP_READ));
	/* every stat rule of default allows: only `set undecided` could refuse */
	ward_policy_set_undecided(p, WARD_UNDECIDED_ALLOW);
	assert_false(ward_policy_restricts(p, WARD_OP_STAT));
	assert_true(ward_policy_restricts(p, WARD_OP_READ));
	add_rule(p, "deny stat @R/home/.ssh/**");
	assert_true(ward_policy_restricts(p, WARD_OP_STAT));
	ward_policy_free(p);

	p = load_profile("audit");
	assert_false(ward_policy_restricts(p, WARD_OP_STAT));
	assert_true(ward_policy_restricts(p, WARD_OP_READ)); /* builtin:self */
	assert_true(ward_policy_restricts(p, WARD_OP_CONNECT));
	assert_true(ward_policy_restricts(p, WARD_OP_BIND)); /* builtin:self:9 */
	add_rule(p, "rewrite stat @R/a -> @R/b");
	assert_true(ward_policy_restricts(p, WARD_OP_STAT));
	ward_policy_free(p);

	/* strict allows stat everywhere too; deny everything else undecided */
	p = load_profile("strict");
	assert_false(ward_policy_restricts(p, WARD_OP_STAT));
	assert_true(ward_policy_restricts(p, WARD_OP_EXEC));
	ward_policy_free(p);

	/* without a catch-all allow, `set undecided deny` restricts */
	p = load_profile("audit");
	add_rule(p, "allow stat @R/home/**");
	ward_policy_set_undecided(p, WARD_UNDECIDED_DENY);
	assert_true(ward_policy_restricts(p, WARD_OP_STAT));
	ward_policy_free(p);
}

/* ward_policy_moves_guarded: which renames would carry guarded paths. */
static bool moves(struct ward_policy *p, const char *from, const char *to)
{
	char a[PATH_MAX], b[PATH_MAX];
	subst(from, a, sizeof(a));
	subst(to, b, sizeof(b));
	return ward_policy_moves_guarded(p, a, b);
}

static void test_moves_guarded(void **state)
{
	(void)state;
	struct ward_policy *p = load_profile("default");
	assert_true(moves(p, "@R/proj/evil", "@R/proj/.git/hooks")); /* planting hooks */
	assert_true(moves(p, "@R/proj/.git/hooks", "@R/proj/h")); /* hooks/<any> leave it */
	assert_true(moves(p, "@R/proj/.git", "@R/proj/g")); /* config, hooks */
	assert_true(moves(p, "@R/proj/.vscode", "@R/proj/v"));
	assert_false(moves(p, "@R/proj/src", "@R/proj/lib")); /* only allows below either */
	assert_false(moves(p, "@R/proj/src", "@R/tmp/src"));
	assert_true(moves(p, "@R/home", "@R/home2")); /* ~/.ssh and the rest */
	assert_true(moves(p, "/", "@R/x")); /* everything is below / */
	assert_true(moves(p, "@R/proj/a", "/proc")); /* other processes' entries */
	/* Terminals: a move in /dev may carry one; one within /dev/shm stays in /dev. */
	assert_true(moves(p, "/dev/shm/a", "/dev/pts/x"));
	assert_true(moves(p, "/dev/x", "/dev/shm/x"));
	assert_false(moves(p, "/dev/shm/a", "/dev/shm/b"));
	/* The rule is on it, not below: only what is below counts here. */
	assert_false(moves(p, "@R/proj/.git/config", "@R/proj/x"));

	/* A glob in a directory's name guards what is below every name it matches. */
	add_rule(p, "deny read @R/proj/sec*/*");
	assert_true(moves(p, "@R/proj/secret", "@R/proj/pub"));
	assert_true(moves(p, "@R/proj/pub", "@R/proj/secrets"));
	assert_false(moves(p, "@R/proj/secret", "@R/proj/second")); /* both in its reach */
	/* A rule that says the same below both names does not stop the move... */
	add_rule(p, "deny read @R/proj/**/.env");
	assert_false(moves(p, "@R/proj/a", "@R/proj/b/c"));
	/* ...but one that says something only below one of them does. */
	assert_true(moves(p, "@R/proj/a", "@R/tmp/a"));
	/* Escaped glob characters are literal. */
	add_rule(p, "deny read @R/tmp/lit\\[1\\]/*");
	assert_true(moves(p, "@R/tmp/lit[1]", "@R/tmp/other"));
	assert_false(moves(p, "@R/tmp/lit1", "@R/tmp/other"));
	ward_policy_free(p);
}

/*
 * Where only allow rules differ below the two places, a move is refused
 * when it would allow below the new place what was not allowed below the
 * old one, decided as ward_decide_path decides (last rule wins, deny!).
 */
static void test_moves_widening(void **state)
{
	struct ward_error err;
	(void)state;
	struct ward_policy *p = load_profile(NULL);
	add_rule(p, "allow read,write,create,delete @R/a/**");
	add_rule(p, "allow read,write,create,delete @R/b/**");
	assert_false(moves(p, "@R/a/x", "@R/b/x")); /* allowed below both */
	assert_false(moves(p, "@R/a/x", "@R/a/y/z"));
	/* A drop directory whose entries may go, but not what is in them. */
	add_rule(p, "allow delete @R/drop/*");
	assert_true(moves(p, "@R/drop/d", "@R/a/d")); /* undecided below drop/d: now readable */
	assert_false(moves(p, "@R/a/d", "@R/drop/d")); /* less is allowed there: no widening */
	/* Only one operation widened, and only for some names below. */
	add_rule(p, "allow read @R/c/**");
	add_rule(p, "allow read,exec @R/e/**/*.sh");
	add_rule(p, "allow read @R/f/**");
	assert_false(moves(p, "@R/c/x", "@R/f/x")); /* two rules, the same allowed */
	assert_false(moves(p, "@R/f/x", "@R/c/x"));
	assert_true(moves(p, "@R/c/x", "@R/e/x"));   /* exec of x/NAME.sh was not allowed below c */
	assert_true(moves(p, "@R/e/x", "@R/c/x"));   /* read of x/NAME was not below e */
	assert_true(moves(p, "@R/c/x", "@R/e/x.d")); /* whatever the name */
	ward_policy_free(p);

	/* A later rule that denies below the new place takes the widening back. */
	p = load_profile(NULL);
	add_rule(p, "allow read @R/p/**");
	add_rule(p, "deny read @R/**");
	assert_false(moves(p, "@R/q/x", "@R/p/x"));
	add_rule(p, "allow read @R/p/**/*.txt"); /* allowed again, for some names */
	assert_true(moves(p, "@R/q/x", "@R/p/x"));
	ward_policy_free(p);

	/* deny! wins below both: nothing is allowed, nothing widened. */
	p = load_profile(NULL);
	add_rule(p, "deny! read @R/**/secret");
	add_rule(p, "allow read @R/p/**/secret");
	assert_false(moves(p, "@R/q/x", "@R/p/x"));
	ward_policy_free(p);

	/* With `set undecided allow` nothing is less than allowed below the old place. */
	p = load_profile(NULL);
	const char *text = "set undecided allow\nallow read @R/p/**\n";
	char buf[256];
	subst(text, buf, sizeof(buf));
	assert_int_equal(ward_policy_add_text(p, WARD_LAYER_USER, "t", buf, strlen(buf), &err), 0);
	assert_false(moves(p, "@R/q/x", "@R/p/x"));
	ward_policy_free(p);

	/* The default profile: the home directory's contents are undecided. */
	p = load_profile("default");
	assert_true(moves(p, "@R/home/dl", "@R/proj/dl"));
	assert_false(moves(p, "@R/proj/dl", "@R/tmp/dl")); /* allowed below both */
	ward_policy_free(p);
}

/* Includes by file: relative to the including file, depth, errors. */
static void test_include_files(void **state)
{
	struct ward_error err;
	struct ward_verdict v;
	char path[PATH_MAX], text[PATH_MAX], want[PATH_MAX];
	(void)state;

	/* a text whose origin is a path includes relative to its directory */
	struct ward_policy *p = load_profile(NULL);
	subst("@R/inc/top.policy", path, sizeof(path));
	assert_int_equal(ward_policy_add_text(p, WARD_LAYER_PROJECT, path, "include a.policy",
					      strlen("include a.policy"), &err),
			 -EINVAL);
	snprintf(want, sizeof(want),
		 "%s:1:1: 'include' is not allowed in a project policy (trust covers one file): 'a.policy'",
		 path);
	assert_string_equal(err.msg, want);
	assert_int_equal(ward_policy_add_text(p, WARD_LAYER_FILE, path, "include a.policy",
					      strlen("include a.policy"), &err),
			 0);
	subst("@R/home/a/b/c", text, sizeof(text));
	assert_int_equal(ward_decide_path(p, WARD_OP_READ, text, &v), 0);
	subst("@R/inc/sub/c.policy:1", want, sizeof(want));
	assert_string_equal(ward_rule_location(v.rule), want);
	ward_policy_free(p);

	/* a file: eight includes deep is the limit */
	p = load_profile(NULL);
	subst("@R/inc/deep/1.policy", path, sizeof(path));
	if (ward_policy_add_file(p, WARD_LAYER_FILE, path, &err) < 0)
		fail_msg("eight nested includes refused: %s", err.msg);
	ward_policy_free(p);
	p = load_profile(NULL);
	subst("@R/inc/deep/0.policy", path, sizeof(path));
	assert_int_equal(ward_policy_add_file(p, WARD_LAYER_FILE, path, &err), -EINVAL);
	subst("@R/inc/deep/8.policy:1:9: includes nested deeper than 8 at '@R/inc/deep/9.policy'",
	      want, sizeof(want));
	assert_string_equal(err.msg, want);
	ward_policy_free(p);

	/* a file that includes itself */
	p = load_profile(NULL);
	subst("@R/inc/self.policy", path, sizeof(path));
	assert_int_equal(ward_policy_add_file(p, WARD_LAYER_FILE, path, &err), -EINVAL);
	subst("@R/inc/self.policy:1:9: include cycle: '@R/inc/self.policy' includes itself", want,
	      sizeof(want));
	assert_string_equal(err.msg, want);
	ward_policy_free(p);

	/* top-level files that cannot be read */
	p = load_profile(NULL);
	subst("@R/inc/missing.policy", path, sizeof(path));
	assert_int_equal(ward_policy_add_file(p, WARD_LAYER_FILE, path, &err), -EINVAL);
	subst("@R/inc/missing.policy: cannot open: No such file or directory", want, sizeof(want));
	assert_string_equal(err.msg, want);
	subst("@R/inc", path, sizeof(path));
	assert_int_equal(ward_policy_add_file(p, WARD_LAYER_FILE, path, &err), -EINVAL);
	subst("@R/inc: cannot read: Is a directory", want, sizeof(want));
	assert_string_equal(err.msg, want);
	/* a file's own errors name the file */
	subst("@R/inc/bad.policy", path, sizeof(path));
	assert_int_equal(ward_policy_add_file(p, WARD_LAYER_USER, path, &err), -EINVAL);
	subst("@R/inc/bad.policy:2:7: unknown op 'raed'", want, sizeof(want));
	assert_string_equal(err.msg, want);
	/* a good file, reached through a symlinked directory */
	subst("@R/link/r.policy", path, sizeof(path));
	assert_int_equal(ward_policy_add_file(p, WARD_LAYER_USER, path, &err), 0);
	subst("@R/home/r", text, sizeof(text));
	assert_int_equal(ward_decide_path(p, WARD_OP_READ, text, &v), 0);
	subst("@R/link/r.policy:1", want, sizeof(want));
	assert_string_equal(ward_rule_location(v.rule), want);
	ward_policy_free(p);

	/* --rule include is relative to the current directory */
	char cwd[PATH_MAX];
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	subst("@R/inc", path, sizeof(path));
	assert_int_equal(chdir(path), 0);
	p = load_profile(NULL);
	int rc = ward_policy_add_rule(p, "include a.policy", &err);
	assert_int_equal(chdir(cwd), 0);
	if (rc < 0)
		fail_msg("--rule include: %s", err.msg);
	subst("@R/home/a/x", text, sizeof(text));
	assert_int_equal(ward_decide_path(p, WARD_OP_READ, text, &v), 0);
	subst("@R/inc/a.policy:1", want, sizeof(want));
	assert_string_equal(ward_rule_location(v.rule), want);
	ward_policy_free(p);
}

/* Messages about words too long to quote whole: compare their start. */
static void expect_error_prefix(const char *text, const char *prefix)
{
	struct ward_error err;
	char want[PATH_MAX];
	struct ward_policy *p = ward_policy_new(&vars);
	assert_non_null(p);
	subst(prefix, want, sizeof(want));
	if (ward_policy_add_text(p, WARD_LAYER_FILE, "t", text, strlen(text), &err) == 0)
		fail_msg("accepted, expected '%s...'", want);
	if (strncmp(err.msg, want, strlen(want)) != 0)
		fail_msg("expected '%s...', got '%s'", want, err.msg);
	ward_policy_free(p);
}

static void test_long_words(void **state)
{
	static char text[16384];
	char want[2048];
	size_t n;
	(void)state;

	/* a variable-laden word that expands past PATH_MAX */
	n = (size_t)snprintf(text, sizeof(text), "allow read ");
	for (int i = 0; i < 300; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "/$HOME");
	expect_error_prefix(text, "t:1:12: target too long: '/$HOME/$HOME");

	/* a relative include that does not fit the current directory */
	n = (size_t)snprintf(text, sizeof(text), "include ");
	memset(text + n, 'i', 4090);
	text[n + 4090] = '\0';
	expect_error_prefix(text, "t:1:9: path too long: 'iii");

	/* include and replacement words too long to expand */
	n = (size_t)snprintf(text, sizeof(text), "include /");
	memset(text + n, 'i', 4100);
	text[n + 4100] = '\0';
	expect_error_prefix(text, "t:1:9: path too long: '/iii");
	n = (size_t)snprintf(text, sizeof(text), "rewrite write /x -> /");
	memset(text + n, 'r', 4100);
	text[n + 4100] = '\0';
	expect_error_prefix(text, "t:1:21: path too long: '/rrr");

	/* the canonical prefix grows the pattern past what a glob takes */
	snprintf(want, sizeof(want), "allow read @R/s/");
	subst(want, text, sizeof(text));
	n = strlen(text);
	memset(text + n, 'p', 4095 - (n - 11));
	text[11 + 4095] = '\0';
	text[11 + 4094] = '*';
	expect_error_prefix(text, "t:1:12: pattern too long: '@R/s/ppp");
	/* ... or past PATH_MAX */
	snprintf(want, sizeof(want), "allow read @R/l/");
	subst(want, text, sizeof(text));
	n = strlen(text);
	memset(text + n, 'p', 4095 - (n - 11));
	text[11 + 4095] = '\0';
	text[11 + 4094] = '*';
	expect_error_prefix(text, "t:1:12: path too long: '@R/l/ppp");

	/* addresses and names too long for their buffers, quoted whole */
	n = (size_t)snprintf(text, sizeof(text), "allow connect [");
	memset(text + n, 'a', 520);
	snprintf(text + n + 520, sizeof(text) - n - 520, "]:80");
	snprintf(want, sizeof(want), "t:1:15: address too long: '%s'", text + 14);
	expect_error_prefix(text, want);
	n = (size_t)snprintf(text, sizeof(text), "allow connect ");
	memset(text + n, 'h', 520);
	snprintf(text + n + 520, sizeof(text) - n - 520, ".com:80");
	snprintf(want, sizeof(want), "t:1:15: host name too long: '%s'", text + 14);
	expect_error_prefix(text, want);
}

static void test_dump(void **state)
{
	char want[8192];
	(void)state;
	struct ward_policy *p = load_profile(NULL);

	add_text(p, WARD_LAYER_USER, "u", "set ask-timeout 45");
	add_text(p, WARD_LAYER_FILE, "t",
		 "rewrite write,create ~/.cache/** -> $SESSION/cache/**\n"
		 "rewrite create,write ~/.bashrc -> $SESSION/home/.bashrc\n"
		 "deny(EROFS) write,read /etc/**\n"
		 "deny!(EPERM) stat ~/x\n"
		 "allow connect *.github.com:443 10.0.0.0/8:5432 [::1]:80\n"
		 "allow * unix:$XDG_RUNTIME_DIR/bus @loopback:8000-8999\n"
		 "ask exec memfd:* @foreign-proc\n"
		 "rewrite * ~/.local/** -> /**\n"
		 "set undecided deny\n");
	add_rule(p, "allow read ~/x");
	/* columns: the action padded to 8, the ops to 24, each on its own */
	subst("# layer self builtin:self\n"
	      "deny!    read,write,create,delete,exec /etc/ward/**    # builtin:self:3\n"
	      "deny!    read,write,create,delete,exec @R/home/.config/ward/**    # builtin:self:4\n"
	      "deny!    read,write,create,delete,exec @R/home/.local/state/ward/**    # builtin:self:5\n"
	      "deny!    read,write,create,delete,exec @R/proj/.ward/**    # builtin:self:6\n"
	      "deny!    read,write,create,delete,exec @R/run/ward/**    # builtin:self:8\n"
	      "deny!    connect,bind             unix:@R/run/ward/**    # builtin:self:9\n"
	      "deny!    write,create,delete,exec @foreign-proc    # builtin:self:14\n"
	      "deny!    read                     @foreign-proc-private    # builtin:self:15\n"
	      "# layer user u\n"
	      "# layer policy t\n"
	      "rewrite  write,create             @R/home/.cache/** -> " SESS "/cache/**    # t:1\n"
	      "rewrite  write,create             @R/home/.bashrc -> " SESS "/home/.bashrc    # t:2\n"
	      "deny(EROFS) read,write               /etc/**    # t:3\n"
	      "deny!(EPERM) stat                     @R/home/x    # t:4\n"
	      "allow    connect                  *.github.com:443    # t:5\n"
	      "allow    connect                  10.0.0.0/8:5432    # t:5\n"
	      "allow    connect                  [::1]:80    # t:5\n"
	      "allow    connect,bind             unix:@R/run/bus    # t:6\n"
	      "allow    connect,bind             @loopback:8000-8999    # t:6\n"
	      "ask      exec                     memfd:*    # t:7\n"
	      "ask      exec                     @foreign-proc    # t:7\n"
	      "rewrite  read,write,create,delete,stat @R/home/.local/** -> /**    # t:8\n"
	      "# layer rule --rule\n"
	      "allow    read                     @R/home/x    # --rule:1\n"
	      "set undecided deny\n"
	      "set ask-timeout 45\n"
	      "set log-retention 30d 1G\n",
	      want, sizeof(want));
	char *dump = ward_policy_dump(p);
	assert_non_null(dump);
	if (strcmp(dump, want) != 0) {
		/* print_error would cut a text this long */
		fprintf(stderr, "--- got\n%s--- want\n%s", dump, want);
		fail_msg("the dump differs");
	}
	free(dump);
	ward_policy_free(p);
}

/*
 * The default profile with the project at ~ (ward run from the home
 * directory): the project's allow covers all of it, but credentials and
 * what runs code later stay write-protected.
 */
/* ward_policy_link_widens: which symlinks would take a name out of its rules' reach. */
static bool link_widens(struct ward_policy *p, const char *name, const char *target)
{
	char a[PATH_MAX], b[PATH_MAX];
	subst(name, a, sizeof(a));
	subst(target, b, sizeof(b));
	return ward_policy_link_widens(p, a, b);
}

static void test_link_widens(void **state)
{
	(void)state;
	struct ward_policy *p = load_profile("default");
	/* Nothing below a plain project name is kept from the agent: any target. */
	assert_false(link_widens(p, "@R/proj/lib", "/"));
	assert_false(link_widens(p, "@R/proj/lib", "/usr/lib"));
	assert_false(link_widens(p, "@R/proj/a", "@R/proj/b"));
	/* .git/hooks and .git/config are kept from it below .git. */
	assert_true(link_widens(p, "@R/proj/.git", "@R/proj/mine"));
	assert_true(link_widens(p, "@R/proj/.git", "@R/tmp/mine"));
	/* A target where the same holds: nothing widens (.git/hooks -> .git/hooks). */
	assert_false(link_widens(p, "@R/proj/.git", "@R/proj/.git"));
	/* Below ~/.config (outside the project): nothing is allowed to begin with. */
	assert_false(link_widens(p, "@R/home/.config", "@R/home/.xdg"));
	/* ...but a project place leads where writing is allowed. */
	assert_true(link_widens(p, "@R/home/.config", "@R/proj/x"));
	/* Reading is judged where a link leads: read rules below the name do not count. */
	add_rule(p, "deny read @R/proj/sec/**");
	assert_false(link_widens(p, "@R/proj/sec", "@R/proj/pub"));
	ward_policy_free(p);
}

/* One decision a profile should give: op on target (@R substituted), allow, deny or ask. */
struct path_row {
	const char *op, *target, *expect;
};

static void check_path_rows(struct ward_policy *p, const struct path_row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct ward_verdict v;
		char target[PATH_MAX];
		subst(rows[i].target, target, sizeof(target));
		assert_int_equal(ward_decide_path(p, ward_op_parse(rows[i].op), target, &v), 0);
		const char *got = v.action == WARD_ALLOW ? "allow" : v.action == WARD_DENY ? "deny" : "ask";
		if (strcmp(got, rows[i].expect) != 0)
			fail_msg("%s %s: %s, expected %s", rows[i].op, target, got, rows[i].expect);
	}
}

/* Settings that run code when the project is next opened; a repository above $TMPDIR's scratch. */

/* Make a symlink below the scratch root ("@R" substituted in the target). */
static void make_link(const char *target, const char *rel)
{
	char path[PATH_MAX], t[PATH_MAX];
	subst(target, t, sizeof(t));
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	if (symlink(t, path) < 0)
		fail_msg("symlink(%s, %s): %s", t, path, strerror(errno));
}

static void make_dirs(const char *const *rel)
{
	char path[PATH_MAX];
	for (; *rel != NULL; rel++) {
		snprintf(path, sizeof(path), "%s/%s", root, *rel);
		if (mkdir(path, 0700) < 0)
			fail_msg("mkdir(%s): %s", path, strerror(errno));
	}
}

static struct ward_policy *follow_policy(unsigned flags, const char *const *rules)
{
	struct ward_policy *p = ward_policy_open(&vars, flags);
	assert_non_null(p);
	for (; *rules != NULL; rules++)
		add_rule(p, *rules);
	return p;
}

/* The rows' decisions by a policy of these rules, opened with flags. */
static void check_followed(unsigned flags, const char *const *rules, const struct path_row *rows,
			   size_t n)
{
	struct ward_policy *p = follow_policy(flags, rules);
	check_path_rows(p, rows, n);
	ward_policy_free(p);
}

/*
 * A restricting rule holds where the symlinks it names lead (rules/links.c):
 * home's files linked into a dotfiles tree (stow), a link halfway down a
 * pattern, a chain of links whose middle the agent could replace, a link
 * to nothing yet; not allow rules, not links within the rule's own reach,
 * and only when the policy is opened to follow them.
 */
static void test_follow_links(void **state)
{
	(void)state;
	static const char *const dirs[] = { "fl", "fl/h", "fl/h/.cfg", "fl/h/.cfg/git", "fl/h/.kube",
					    "fl/h/.ipy", "fl/h/.auto", "fl/h/.loop", "fl/h/.tree",
					    "fl/h/.tree/sub", "fl/dot", "fl/dot/git", "fl/dot/kube",
					    "fl/dot/shell", "fl/dot/ipy", "fl/dot/ipy/startup", "fl/h/.sib",
					    "fl/h/.sib2", NULL };
	make_dirs(dirs);
	assert_int_equal(write_file("fl/dot/git/config", "x\n"), 0);
	assert_int_equal(write_file("fl/dot/kube/config", "k\n"), 0);
	assert_int_equal(write_file("fl/dot/shell/rc", "rc\n"), 0);
	make_link("../../../dot/git/config", "fl/h/.cfg/git/config"); /* relative */
	make_link("@R/fl/dot/kube/config", "fl/h/.kube/config");
	make_link("@R/fl/dot/rc", "fl/h/.rc");
	make_link("shell/rc", "fl/dot/rc");
	make_link("@R/fl/dot/ipy", "fl/h/.ipy/prof");
	make_link("@R/fl/dot/x.desktop", "fl/h/.auto/x.desktop");
	make_link("b", "fl/h/.loop/a");
	make_link("a", "fl/h/.loop/b");
	make_link("sub", "fl/h/.tree/a");
	/* A link to a name beside it, which leads out: the pattern's a*, and all of .sib2. */
	make_link("b", "fl/h/.sib/a");
	make_link("@R/fl/dot/sib", "fl/h/.sib/b");
	make_link("b", "fl/h/.sib2/a");
	make_link("@R/fl/dot/sib2", "fl/h/.sib2/b");

	static const char *const rules[] = {
		"deny write,create,delete @R/fl/h/.cfg/git/**",
		"deny read @R/fl/h/.kube/**",
		"deny write,create,delete @R/fl/h/.rc",
		"deny write,create @R/fl/h/.ipy/*/startup/**",
		"deny write,create,delete @R/fl/h/.auto/**",
		"deny read @R/fl/h/.loop/**",
		"deny write @R/fl/h/.tree/**",
		"deny read @R/fl/h/.sib/a*",
		"deny read @R/fl/h/.sib2/**",
		NULL,
	};
	struct ward_policy *p = follow_policy(WARD_POLICY_FOLLOW_LINKS, rules);
	static const struct path_row rows[] = {
		/* Where home's links lead: as the names themselves. */
		{ "write", "@R/fl/dot/git/config", "deny" },
		{ "delete", "@R/fl/dot/git/config", "deny" },
		{ "write", "@R/fl/dot/git/other", "ask" },
		{ "read", "@R/fl/dot/kube/config", "deny" },
		{ "write", "@R/fl/dot/kube/config", "ask" },
		/* The chain: its end, and the middle link by its own name. */
		{ "write", "@R/fl/dot/shell/rc", "deny" },
		{ "delete", "@R/fl/dot/rc", "deny" },
		{ "create", "@R/fl/dot/rc", "deny" },
		{ "delete", "@R/fl/dot/shell/other", "ask" },
		/* Halfway down the pattern: the rest of it below the target. */
		{ "create", "@R/fl/dot/ipy/startup/x.py", "deny" },
		{ "create", "@R/fl/dot/ipy/startup", "deny" },
		{ "create", "@R/fl/dot/ipy/notes", "ask" },
		/* A link to nothing yet: creating what it leads to. */
		{ "create", "@R/fl/dot/x.desktop", "deny" },
		/* Through a link beside the one the pattern names. */
		{ "read", "@R/fl/dot/sib", "deny" },
		{ "read", "@R/fl/dot/sib2", "deny" },
	};
	check_path_rows(p, rows, ARRAY_SIZE(rows));
	assert_null(ward_policy_link_scan_cut(p, NULL));
	/* The link within .tree leads where the rule reaches already: no rule for it. */
	char *dump = ward_policy_dump(p);
	assert_non_null(dump);
	char want[PATH_MAX];
	snprintf(want, sizeof(want), "%s/fl/h/.tree/sub", root);
	assert_null(strstr(dump, want));
	assert_non_null(strstr(dump, ", by a symlink"));
	free(dump);
	ward_policy_free(p);

	/* Without the flag (the language's tests, the fuzzer) nothing is followed. */
	static const struct path_row unfollowed[] = {
		{ "read", "@R/fl/dot/kube/config", "ask" },
		{ "write", "@R/fl/dot/git/config", "ask" },
	};
	check_followed(0, rules, unfollowed, ARRAY_SIZE(unfollowed));

	/* Allow rules are not followed; a later rule wins over the followed one. */
	static const char *const layered[] = {
		"allow read @R/fl/h/.kube/**",
		"deny write @R/fl/h/.cfg/git/**",
		"allow write @R/fl/dot/git/**",
		NULL,
	};
	static const struct path_row later[] = {
		{ "read", "@R/fl/dot/kube/config", "ask" },
		{ "write", "@R/fl/dot/git/config", "allow" },
	};
	check_followed(WARD_POLICY_FOLLOW_LINKS, layered, later, ARRAY_SIZE(later));

	/*
	 * The reading is bounded: where it stops short, the policy says.  Each
	 * link costs a lookup of its path (5 components here and more): 4000
	 * are more than 16384 components.
	 */
	static const char *const big[] = { "fl/big", NULL };
	make_dirs(big);
	char path[PATH_MAX];
	for (int i = 0; i < 4000; i++) {
		snprintf(path, sizeof(path), "%s/fl/big/%d", root, i);
		assert_int_equal(symlink("next", path), 0);
	}
	/* ...for that rule alone: the next one's links are followed all the same. */
	static const char *const scan_big[] = { "deny read @R/fl/big/**", "deny read @R/fl/h/.kube/**",
						NULL };
	p = follow_policy(WARD_POLICY_FOLLOW_LINKS, scan_big);
	size_t ncut = 0;
	snprintf(want, sizeof(want), "--rule:1 %s/fl/big/**", root);
	assert_non_null(ward_policy_link_scan_cut(p, &ncut));
	assert_string_equal(ward_policy_link_scan_cut(p, NULL), want);
	assert_int_equal(ncut, 1);
	static const struct path_row next[] = { { "read", "@R/fl/dot/kube/config", "deny" } };
	check_path_rows(p, next, ARRAY_SIZE(next));
	ward_policy_free(p);

	/* Walking where links lead is counted too: a chain through a deep tree, many times. */
	char deep[PATH_MAX];
	int o = snprintf(deep, sizeof(deep), "%s/fl/deep", root);
	for (int i = 0; i < 300; i++)
		o += snprintf(deep + o, sizeof(deep) - (size_t)o, "/d");
	snprintf(path, sizeof(path), "mkdir -p '%s' '%s/fl/many'", deep, root);
	assert_int_equal(system(path), 0);
	for (int i = 0; i < 100; i++) {
		snprintf(path, sizeof(path), "%s/fl/many/l%d", root, i);
		assert_int_equal(symlink(deep, path), 0);
	}
	static const char *const scan_deep[] = { "deny read @R/fl/many/**", NULL };
	p = follow_policy(WARD_POLICY_FOLLOW_LINKS, scan_deep);
	assert_non_null(ward_policy_link_scan_cut(p, &ncut));
	assert_int_equal(ncut, 1);
	ward_policy_free(p);
}

/* What ward_policy_wide_links told last. */
struct told {
	char via[PATH_MAX];
};

static void tell_one(void *arg, const char *loc, const char *via, const char *target)
{
	struct told *t = arg;
	(void)loc;
	(void)target;
	snprintf(t->via, sizeof(t->via), "%s", via);
}

/*
 * What rules/links.c adds may make a decision stricter, never weaker, and
 * reads nothing the agent leaves for later sessions in scratch directories.
 */
static void test_follow_links_bounds(void **state)
{
	(void)state;
	static const char *const dirs[] = { "fb", "fb/g", "fb/g/.git", "fb/g/.git/hooks",
					    "fb/g/.git/modules", "fb/g/.git/modules/sub", "fb/k",
					    "fb/k/a", "fb/k/a/b", "fb/k/a/b/c", "fb/k/a/b/c/d",
					    "fb/k/a/b/c/d/e", "fb/real", "tmp/ward-1000",
					    "tmp/ward-1000/old", NULL };
	make_dirs(dirs);
	assert_int_equal(write_file("fb/real/config", "k\n"), 0);
	/* A submodule sharing the main repository's hooks. */
	make_link("../../hooks", "fb/g/.git/modules/sub/hooks");
	static const char *const rules[] = {
		"deny create @R/fb/g/.git/hooks/**",
		"ask create @R/fb/g/.git/modules/**/hooks/**",
		NULL,
	};
	static const struct path_row hooks[] = {
		{ "create", "@R/fb/g/.git/hooks/pre-commit", "deny" },
	};
	check_followed(WARD_POLICY_FOLLOW_LINKS, rules, hooks, ARRAY_SIZE(hooks));
	/* Where nothing said more, the ask stands; with undecided deny, deny stands. */
	make_link("@R/fb/real", "fb/g/.git/modules/sub/h2");
	static const char *const ask_only[] = { "ask create @R/fb/g/.git/modules/*/h2/**", NULL };
	struct ward_policy *p = follow_policy(WARD_POLICY_FOLLOW_LINKS, ask_only);
	static const struct path_row asked[] = { { "create", "@R/fb/real/x", "ask" } };
	check_path_rows(p, asked, ARRAY_SIZE(asked));
	ward_policy_set_undecided(p, WARD_UNDECIDED_DENY);
	static const struct path_row denied[] = { { "create", "@R/fb/real/x", "deny" } };
	check_path_rows(p, denied, ARRAY_SIZE(denied));
	ward_policy_free(p);

	/* A link inside the rule's reach is read through: deeper than the walk, sooner by it. */
	make_link("a/b/c/d/e", "fb/k/cur");
	make_link("@R/fb/real/config", "fb/k/a/b/c/d/e/config");
	static const char *const kube[] = { "deny read @R/fb/k/**", NULL };
	static const struct path_row through[] = { { "read", "@R/fb/real/config", "deny" } };
	check_followed(WARD_POLICY_FOLLOW_LINKS, kube, through, ARRAY_SIZE(through));

	/*
	 * A link the agent left where it could make one (in an earlier session,
	 * below a deny read it may write under) fails closed, and one that
	 * reaches home, the project or above is told; one that does not, is not.
	 */
	static const char *const pdirs[] = { "fb/open", "fb/open/snap", "fb/shut", NULL };
	make_dirs(pdirs);
	make_link("/", "fb/open/snap/x");
	make_link("@R/fb/real/config", "fb/shut/config");
	static const char *const planted[] = { "deny read @R/fb/open/snap/**",
					       "deny read @R/fb/shut/**", NULL };
	p = follow_policy(WARD_POLICY_FOLLOW_LINKS, planted);
	static const struct path_row closed[] = { { "read", "/etc/hostname", "deny" },
						  { "read", "@R/fb/real/config", "deny" } };
	check_path_rows(p, closed, ARRAY_SIZE(closed));
	char proj[PATH_MAX];
	subst("@R/proj", proj, sizeof(proj));
	const char *places[] = { proj };
	struct told t = { 0 };
	assert_int_equal(ward_policy_wide_links(p, places, 1, tell_one, &t), 2); /* / and / + ** */
	char want[PATH_MAX];
	snprintf(want, sizeof(want), "%s/fb/open/snap/x", root);
	assert_string_equal(t.via, want);
	ward_policy_free(p);

	/* An ask added for a link does not override an earlier rewrite either. */
	static const char *const rdirs[] = { "fb/rwl", NULL };
	make_dirs(rdirs);
	make_link("@R/fb/real", "fb/rwl/x");
	static const char *const rewrites[] = { "rewrite write @R/fb/real/** -> @R/tmp/rw/**",
						"ask write @R/fb/rwl/**", NULL };
	p = follow_policy(WARD_POLICY_FOLLOW_LINKS, rewrites);
	struct ward_verdict v;
	char target[PATH_MAX];
	subst("@R/fb/real/config", target, sizeof(target));
	assert_int_equal(ward_decide_path(p, WARD_OP_WRITE, target, &v), 0);
	assert_int_equal(v.action, WARD_REWRITE);
	ward_policy_free(p);

	/* A pattern not taken apart into components ('/' in a class) is said, as a cut. */
	static const char *const odd[] = { "deny read @R/fb/k/[a/b]x", NULL };
	p = follow_policy(WARD_POLICY_FOLLOW_LINKS, odd);
	size_t ncut = 0;
	assert_non_null(ward_policy_link_scan_cut(p, &ncut));
	assert_int_equal(ncut, 1);
	ward_policy_free(p);

	/* An earlier session's scratch directory: its links are not followed. */
	make_link("@R/proj", "tmp/ward-1000/old/p");
	static const char *const scratch[] = { "deny read,write @R/tmp/ward-1000/**", NULL };
	static const struct path_row mine[] = { { "write", "@R/proj/main.c", "ask" } };
	check_followed(WARD_POLICY_FOLLOW_LINKS, scratch, mine, ARRAY_SIZE(mine));
	/* ...also when $TMPDIR is reached through a symlink. */
	make_link("@R/tmp", "tmplink");
	struct ward_vars linked = vars;
	snprintf(linked.tmpdir, sizeof(linked.tmpdir), "%s/tmplink", root);
	snprintf(linked.session, sizeof(linked.session), "%s/tmplink/ward-1000/s1", root);
	p = ward_policy_open(&linked, WARD_POLICY_FOLLOW_LINKS);
	assert_non_null(p);
	add_rule(p, "deny read,write @R/tmplink/ward-1000/**");
	check_path_rows(p, mine, ARRAY_SIZE(mine));
	ward_policy_free(p);
}

static void test_default_project_settings(void **state)
{
	static const struct path_row rows[] = {
		{ "create", "@R/proj/.claude/hooks/pre.sh", "deny" },
		{ "write", "@R/proj/.mcp.json", "deny" },
		{ "create", "@R/proj/.gemini/settings.json", "deny" },
		{ "create", "@R/proj/.cursor/mcp.json", "deny" },
		{ "write", "@R/proj/.zed/settings.json", "deny" },
		{ "create", "@R/proj/.idea/workspace.xml", "deny" },
		{ "create", "@R/proj/src/.claude.txt", "allow" },
		{ "create", "@R/tmp/.git", "deny" },
		{ "create", "@R/tmp/HEAD", "deny" },
		{ "create", "@R/tmp/build/.git", "allow" },
		{ "create", "/dev/shm/HEAD", "deny" },
	};
	(void)state;
	struct ward_policy *p = load_profile("default");
	check_path_rows(p, rows, ARRAY_SIZE(rows));
	ward_policy_free(p);
}

static void test_default_from_home(void **state)
{
	static const struct path_row rows[] = {
		{ "write", "@R/home/.ssh/authorized_keys", "deny" },
		{ "create", "@R/home/.ssh", "deny" },
		{ "create", "@R/home/.config/autostart/x.desktop", "deny" },
		{ "create", "@R/home/.config/systemd/user/x.service", "deny" },
		{ "create", "@R/home/.local/bin/ls", "ask" },
		{ "create", "@R/home/bin/ls", "ask" },
		{ "write", "@R/home/.pyenv/versions/3.11.7/lib/python3.11/site-packages/x.py", "ask" },
		{ "create", "@R/home/.local/lib/python3.11/site-packages/x/__init__.py", "ask" },
		{ "create", "@R/home/.local/share/applications/x.desktop", "deny" },
		{ "write", "@R/home/.bashrc.d/x.sh", "deny" },
		{ "create", "@R/home/.envrc", "deny" },
		{ "create", "@R/home/.ipython/profile_default/startup/x.py", "deny" },
		{ "write", "@R/home/.ipython/profile_default/history.sqlite", "allow" },
		{ "write", "@R/home/.cargo/env", "deny" },
		{ "create", "@R/home/.local/lib/python3.11/site-packages/x.pth", "deny" },
		{ "write", "@R/home/.bashrc", "deny" },
		{ "write", "@R/home/.kube/config", "deny" },
		{ "write", "@R/home/notes.txt", "allow" },
		{ "create", "@R/home/src/main.c", "allow" },
	};
	struct ward_vars saved = vars;
	(void)state;
	snprintf(vars.project, sizeof(vars.project), "%s", vars.home);
	struct ward_policy *p = load_profile("default");
	check_path_rows(p, rows, ARRAY_SIZE(rows));
	ward_policy_free(p);
	vars = saved;
}

static void test_cache(void **state)
{
	struct ward_verdict v, u;
	bool hit;
	char a[PATH_MAX], b[PATH_MAX], c[PATH_MAX], want[PATH_MAX];
	(void)state;
	struct ward_policy *p = load_profile("default");
	struct ward_cache *cache = ward_cache_new(64);
	assert_non_null(cache);
	assert_null(ward_cache_new(0));

	subst("@R/home/.ssh/id_rsa", a, sizeof(a));
	subst("@R/proj/a.c", b, sizeof(b));
	subst("@R/home/.cache/x", c, sizeof(c));

	/* the same verdict as uncached, cached the second time */
	assert_int_equal(ward_cache_decide_path(cache, p, WARD_OP_READ, a, &v, &hit), 0);
	assert_false(hit);
	assert_int_equal(ward_decide_path(p, WARD_OP_READ, a, &u), 0);
	assert_int_equal(v.action, u.action);
	assert_ptr_equal(v.rule, u.rule);
	assert_int_equal(ward_cache_decide_path(cache, p, WARD_OP_READ, a, &v, &hit), 0);
	assert_true(hit);
	assert_int_equal(v.action, WARD_DENY);
	assert_int_equal(v.err, EACCES);
	assert_ptr_equal(v.rule, u.rule);
	/* the op is part of the key */
	assert_int_equal(ward_cache_decide_path(cache, p, WARD_OP_STAT, a, &v, &hit), 0);
	assert_false(hit);
	assert_int_equal(v.action, WARD_ALLOW);
	/* undecided answers are cached as such (home outside the project) */
	char d[PATH_MAX];
	subst("@R/home/notes.txt", d, sizeof(d));
	assert_int_equal(ward_cache_decide_path(cache, p, WARD_OP_WRITE, d, &v, &hit), 0);
	assert_int_equal(ward_cache_decide_path(cache, p, WARD_OP_WRITE, d, &v, &hit), 0);
	assert_true(hit);
	assert_true(v.undecided);
	assert_int_equal(v.action, WARD_ASK);
	assert_null(v.rule);
	/* errnos survive the cache */
	subst("@R/home/.netrc", want, sizeof(want));
	assert_int_equal(ward_cache_decide_path(cache, p, WARD_OP_READ, want, &v, &hit), 0);
	assert_int_equal(ward_cache_decide_path(cache, p, WARD_OP_READ, want, &v, &hit), 0);
	assert_true(hit);
	assert_int_equal(v.err, ENOENT);

	/* a policy change drops the cached answers */
	uint64_t gen = ward_policy_generation(p);
	add_rule(p, "allow read @R/home/.ssh/id_rsa");
	assert_true(ward_policy_generation(p) > gen);
	assert_int_equal(ward_cache_decide_path(cache, p, WARD_OP_READ, a, &v, &hit), 0);
	assert_false(hit);
	assert_int_equal(v.action, WARD_ALLOW);
	assert_string_equal(ward_rule_location(v.rule), "--rule:1");
	assert_int_equal(ward_cache_decide_path(cache, p, WARD_OP_READ, a, &v, &hit), 0);
	assert_true(hit);
	assert_int_equal(v.action, WARD_ALLOW);
	gen = ward_policy_generation(p);
	ward_policy_set_undecided(p, WARD_UNDECIDED_DENY);
	assert_true(ward_policy_generation(p) > gen);
	assert_int_equal(ward_cache_decide_path(cache, p, WARD_OP_WRITE, a, &v, &hit), 0);
	assert_false(hit);
	assert_int_equal(v.action, WARD_DENY);

	/* rewrites through the cache give the path's own replacement */
	add_rule(p, "rewrite write @R/home/.cache/** -> $SESSION/cache/**");
	assert_int_equal(ward_cache_decide_path(cache, p, WARD_OP_WRITE, c, &v, &hit), 0);
	assert_int_equal(ward_cache_decide_path(cache, p, WARD_OP_WRITE, c, &v, &hit), 0);
	assert_true(hit);
	assert_int_equal(v.action, WARD_REWRITE);
	subst(SESS "/cache/x", want, sizeof(want));
	assert_string_equal(v.rewrite, want);

	/* clear empties it */
	ward_cache_clear(cache);
	assert_int_equal(ward_cache_decide_path(cache, p, WARD_OP_WRITE, c, &v, &hit), 0);
	assert_false(hit);

	/* an op that does not apply to paths, no op, or several (the key holds one) */
	assert_int_equal(ward_cache_decide_path(cache, p, WARD_OP_CONNECT, a, &v, &hit), -EINVAL);
	assert_int_equal(ward_cache_decide_path(cache, p, 0, a, &v, &hit), -EINVAL);
	assert_int_equal(ward_cache_decide_path(cache, p, WARD_OP_READ | WARD_OP_WRITE, b, &v, &hit),
			 -EINVAL);
	assert_int_equal(ward_cache_decide_path(cache, p, WARD_OP_READ, b, &v, &hit), 0);
	assert_false(hit);
	assert_int_equal(v.action, WARD_ALLOW);

	/* paths too long for a key are decided every time, correctly */
	char longp[1024];
	int n = snprintf(longp, sizeof(longp), "%s/home/.ssh/", root);
	memset(longp + n, 'k', 600);
	longp[n + 600] = '\0';
	assert_int_equal(ward_cache_decide_path(cache, p, WARD_OP_READ, longp, &v, &hit), 0);
	assert_int_equal(ward_cache_decide_path(cache, p, WARD_OP_READ, longp, &v, &hit), 0);
	assert_false(hit);
	assert_int_equal(v.action, WARD_DENY);
	ward_cache_free(cache);

	/* a cache of two filled with three paths still answers right */
	cache = ward_cache_new(2);
	assert_non_null(cache);
	const char *paths[] = { a, b, c, a, b, c, b, b };
	for (int round = 0; round < 2; round++) {
		for (size_t i = 0; i < ARRAY_SIZE(paths); i++) {
			assert_int_equal(ward_cache_decide_path(cache, p, WARD_OP_READ, paths[i], &v,
								&hit),
					 0);
			assert_int_equal(ward_decide_path(p, WARD_OP_READ, paths[i], &u), 0);
			assert_int_equal(v.action, u.action);
			assert_int_equal(v.err, u.err);
			assert_ptr_equal(v.rule, u.rule);
			assert_int_equal(v.undecided, u.undecided);
		}
	}
	assert_int_equal(ward_cache_decide_path(cache, p, WARD_OP_READ, b, &v, &hit), 0);
	assert_true(hit); /* b was the last one decided */

	/*
	 * Long keys spend the keys' room (96 bytes an entry, plus one longest
	 * key) before the entries: three keys of 201 bytes fit a cache of four
	 * (640 bytes), a fourth empties it first, and every answer stays right.
	 */
	struct ward_cache *small = ward_cache_new(4);
	assert_non_null(small);
	char ks[4][PATH_MAX];
	for (int i = 0; i < 4; i++) {
		int at = snprintf(ks[i], PATH_MAX, "%s/proj/%d", root, i);
		assert_true(at < 200);
		memset(ks[i] + at, 'd', (size_t)(200 - at));
		ks[i][200] = '\0';
	}
	for (int i = 0; i < 4; i++) {
		assert_int_equal(ward_cache_decide_path(small, p, WARD_OP_READ, ks[i], &v, &hit), 0);
		assert_false(hit);
	}
	assert_int_equal(ward_cache_decide_path(small, p, WARD_OP_READ, ks[3], &v, &hit), 0);
	assert_true(hit);
	assert_int_equal(ward_decide_path(p, WARD_OP_READ, ks[3], &u), 0);
	assert_int_equal(v.action, u.action);
	assert_ptr_equal(v.rule, u.rule);
	assert_int_equal(ward_cache_decide_path(small, p, WARD_OP_READ, ks[0], &v, &hit), 0);
	assert_false(hit); /* emptied for the fourth key, though an entry was free */
	ward_cache_free(small);

	/* a second policy with the same cache: answers are not shared */
	struct ward_policy *q = load_profile("audit");
	assert_int_equal(ward_cache_decide_path(cache, q, WARD_OP_READ, b, &v, &hit), 0);
	assert_false(hit);
	assert_true(v.undecided);
	assert_int_equal(v.action, WARD_ALLOW);
	ward_policy_free(q);
	ward_cache_free(cache);
	ward_cache_free(NULL);
	ward_policy_free(p);
}

/* Several threads through one small cache: every answer as uncached. */
struct cache_job {
	struct ward_cache *cache;
	const struct ward_policy *p;
	char paths[24][PATH_MAX];
	unsigned seed;
	int wrong;
};

static void *cache_worker(void *arg)
{
	struct cache_job *j = arg;
	struct ward_verdict v, u;
	bool hit;

	for (int i = 0; i < 20000; i++) {
		j->seed = j->seed * 1103515245u + 12345u;
		const char *path = j->paths[(j->seed >> 8) % 24];
		enum ward_op op = (enum ward_op)(1u << ((j->seed >> 20) % 6));
		if (ward_cache_decide_path(j->cache, j->p, op, path, &v, &hit) != 0 ||
		    ward_decide_path(j->p, op, path, &u) != 0 || v.action != u.action ||
		    v.rule != u.rule || v.err != u.err || v.undecided != u.undecided ||
		    strcmp(v.rewrite, u.rewrite) != 0)
			j->wrong++;
	}
	return NULL;
}

static void test_cache_threads(void **state)
{
	static struct cache_job jobs[4];
	pthread_t tid[4];
	(void)state;
	struct ward_policy *p = load_profile("default");
	add_rule(p, "rewrite write,create @R/home/.cache/** -> $SESSION/cache/**");
	struct ward_cache *cache = ward_cache_new(8);
	assert_non_null(cache);
	static const char *const names[] = { "home/.ssh/id_rsa", "home/.netrc", "home/.bashrc",
					     "home/notes", "proj/a.c", "proj/.git/config",
					     "home/.cache/x", "home/.cache/y/z", "tmp/f",
					     "home/.config/ward/policy", "run/ward/s", "real/x" };
	for (int t = 0; t < 4; t++) {
		jobs[t] = (struct cache_job){ .cache = cache, .p = p, .seed = (unsigned)t * 7919u };
		for (int k = 0; k < 24; k++)
			snprintf(jobs[t].paths[k], PATH_MAX, "%s/%s%s", root, names[k % 12],
				 k < 12 ? "" : "/deeper");
		assert_int_equal(pthread_create(&tid[t], NULL, cache_worker, &jobs[t]), 0);
	}
	for (int t = 0; t < 4; t++) {
		assert_int_equal(pthread_join(tid[t], NULL), 0);
		assert_int_equal(jobs[t].wrong, 0);
	}
	ward_cache_free(cache);
	ward_policy_free(p);
}

static void test_net_parse(void **state)
{
	struct ward_net_target t;
	char buf[256];
	(void)state;

	assert_int_equal(ward_net_target_parse("Example.COM:443", &t, buf, sizeof(buf)), 0);
	assert_int_equal(t.kind, WARD_NET_NAME);
	assert_string_equal(t.host, "example.com");
	assert_int_equal(t.port, 443);
	assert_int_equal(ward_net_target_parse("[fe80::1]:22", &t, buf, sizeof(buf)), 0);
	assert_int_equal(t.kind, WARD_NET_INET);
	assert_int_equal(t.addr[0], 0xfe);
	assert_int_equal(ward_net_target_parse("10.1.2.3:5", &t, buf, sizeof(buf)), 0);
	assert_int_equal(t.addr[10], 0xff);
	assert_int_equal(t.addr[12], 10);
	assert_int_equal(ward_net_target_parse("unix:/a/../b//c", &t, buf, sizeof(buf)), 0);
	assert_int_equal(t.kind, WARD_NET_UNIX);
	assert_string_equal(t.path, "/b/c");
	assert_int_equal(ward_net_target_parse("unix-abstract:x y", &t, buf, sizeof(buf)), 0);
	assert_int_equal(t.kind, WARD_NET_ABSTRACT);
	assert_string_equal(t.path, "x y");

	const char *bad[] = { "example.com", "[::1]80", "[::1", "host:1-2", "*.x.com:80",
			      "unix:rel", "host:99999", ":80", "::1:80", "a b:80" };
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		if (ward_net_target_parse(bad[i], &t, buf, sizeof(buf)) != -EINVAL)
			fail_msg("'%s' accepted as a network target", bad[i]);
}

/* Variables whose values hold glob characters are literal. */
static void test_odd_variables(void **state)
{
	struct ward_error err;
	struct ward_verdict v;
	struct ward_vars odd = vars;
	char path[PATH_MAX];
	(void)state;

	snprintf(odd.project, sizeof(odd.project), "%s/odd [1]*", root);
	snprintf(odd.home, sizeof(odd.home), "%s/odd [1]*", root);
	struct ward_policy *p = ward_policy_new(&odd);
	assert_non_null(p);
	const char *text = "allow read,write $PROJECT/**\ndeny read ~/.ssh/**";
	if (ward_policy_add_text(p, WARD_LAYER_FILE, "t", text, strlen(text), &err) < 0)
		fail_msg("refused: %s", err.msg);
	snprintf(path, sizeof(path), "%s/odd [1]*/src", root);
	assert_int_equal(ward_decide_path(p, WARD_OP_WRITE, path, &v), 0);
	assert_int_equal(v.action, WARD_ALLOW);
	snprintf(path, sizeof(path), "%s/odd 1x/src", root);
	assert_int_equal(ward_decide_path(p, WARD_OP_WRITE, path, &v), 0);
	assert_true(v.undecided);
	snprintf(path, sizeof(path), "%s/odd [1]*/.ssh/id", root);
	assert_int_equal(ward_decide_path(p, WARD_OP_READ, path, &v), 0);
	assert_int_equal(v.action, WARD_DENY);
	/* the self-protection rules use the variables too */
	snprintf(path, sizeof(path), "%s/odd [1]*/.ward/policy", root);
	assert_int_equal(ward_decide_path(p, WARD_OP_READ, path, &v), 0);
	assert_int_equal(v.action, WARD_DENY);
	assert_string_equal(ward_rule_location(v.rule), "builtin:self:6");
	/* the prefix through the variable is still resolved */
	snprintf(path, sizeof(path), "%s/odd [1]*/lnk", root);
	char target[PATH_MAX];
	snprintf(target, sizeof(target), "%s/real", root);
	assert_int_equal(symlink(target, path), 0);
	text = "allow exec $PROJECT/lnk/**";
	assert_int_equal(ward_policy_add_text(p, WARD_LAYER_FILE, "t", text, strlen(text), &err), 0);
	snprintf(path, sizeof(path), "%s/real/tool", root);
	assert_int_equal(ward_decide_path(p, WARD_OP_EXEC, path, &v), 0);
	assert_int_equal(v.action, WARD_ALLOW);
	/* a rewrite to a variable with glob characters is a plain path */
	text = "rewrite write /w -> $PROJECT/w";
	if (ward_policy_add_text(p, WARD_LAYER_FILE, "t", text, strlen(text), &err) < 0)
		fail_msg("refused: %s", err.msg);
	assert_int_equal(ward_decide_path(p, WARD_OP_WRITE, "/w", &v), 0);
	snprintf(path, sizeof(path), "%s/odd [1]*/w", root);
	assert_string_equal(v.rewrite, path);
	ward_policy_free(p);
}

static void test_vars_from_env(void **state)
{
	struct ward_vars v;
	struct ward_error err;
	char proj[PATH_MAX], want[PATH_MAX];
	(void)state;

	setenv("HOME", "/home/someone", 1);
	subst("@R/tmp", want, sizeof(want));
	setenv("TMPDIR", want, 1);
	setenv("XDG_CONFIG_HOME", "relative", 1); /* not absolute: ignored */
	setenv("XDG_STATE_HOME", "/state", 1);
	unsetenv("XDG_RUNTIME_DIR");
	subst("@R/link", proj, sizeof(proj));
	assert_int_equal(ward_vars_from_env(&v, proj, "s9", &err), 0);
	assert_string_equal(v.home, "/home/someone");
	subst("@R/real", want, sizeof(want)); /* the project is a real path */
	assert_string_equal(v.project, want);
	subst("@R/tmp", want, sizeof(want));
	assert_string_equal(v.tmpdir, want);
	snprintf(want, sizeof(want), "%s/tmp/ward-%u/s9", root, (unsigned)getuid());
	assert_string_equal(v.session, want);
	assert_string_equal(v.xdg_config_home, "/home/someone/.config");
	assert_string_equal(v.xdg_state_home, "/state");
	snprintf(want, sizeof(want), "/run/user/%u", (unsigned)getuid());
	assert_string_equal(v.xdg_runtime_dir, want);
	snprintf(want, sizeof(want), "%u", (unsigned)getuid());
	assert_string_equal(v.uid, want);
	assert_true(v.user[0] != '\0');

	setenv("HOME", "/", 1);
	unsetenv("TMPDIR");
	unsetenv("XDG_CONFIG_HOME");
	unsetenv("XDG_STATE_HOME");
	assert_int_equal(ward_vars_from_env(&v, proj, NULL, &err), 0);
	assert_string_equal(v.xdg_config_home, "/.config");
	assert_string_equal(v.xdg_state_home, "/.local/state");
	assert_string_equal(v.tmpdir, "/tmp");
	snprintf(want, sizeof(want), "/tmp/ward-%u/session", (unsigned)getuid());
	assert_string_equal(v.session, want);

	subst("@R/nope", proj, sizeof(proj));
	assert_true(ward_vars_from_env(&v, proj, NULL, &err) < 0);
	subst("project directory '@R/nope': No such file or directory", want, sizeof(want));
	assert_string_equal(err.msg, want);
}

/* ------------------------------------------------------------- robustness */

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint32_t next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 11);
}

/* Load text as a layer: it must load or be refused with a located message, never crash. */
static void try_text(const char *text, size_t len)
{
	struct ward_error err;
	struct ward_verdict v;
	char line[8192];
	struct ward_policy *p = ward_policy_new(&vars);
	assert_non_null(p);
	size_t n = ward_policy_rule_count(p);
	int rc = ward_policy_add_text(p, WARD_LAYER_FILE, "t", text, len, &err);
	if (rc == 0) {
		static const char *const paths[] = { "/", "/etc/passwd", "/proc/1/environ", "memfd:x",
						     "/a/b/c" };
		for (size_t i = 0; i < ARRAY_SIZE(paths); i++)
			for (unsigned op = WARD_OP_READ; op <= WARD_OP_STAT; op <<= 1)
				if (ward_decide_path(p, op, paths[i], &v) == 0)
					assert_true(ward_verdict_format(&v, op, paths[i], line,
									sizeof(line)) > 0);
		static const char *const nets[] = { "127.0.0.1:80", "[::1]:443", "a.b.c:1",
						    "unix:/x", "unix-abstract:y" };
		for (size_t i = 0; i < ARRAY_SIZE(nets); i++) {
			struct ward_net_target t;
			char buf[256];
			assert_int_equal(ward_net_target_parse(nets[i], &t, buf, sizeof(buf)), 0);
			t.session = i & 1;
			assert_int_equal(ward_decide_net(p, WARD_OP_CONNECT, &t, &v), 0);
		}
		char *dump = ward_policy_dump(p);
		assert_non_null(dump);
		free(dump);
	} else {
		if (rc != -EINVAL)
			fail_msg("add_text returned %d: %s", rc, err.msg);
		if (strncmp(err.msg, "t:", 2) != 0 && strstr(err.msg, ".policy:") == NULL)
			fail_msg("error without a location: '%s'", err.msg);
		assert_int_equal(ward_policy_rule_count(p), n);
	}
	ward_policy_free(p);
}

static void test_random_bytes(void **state)
{
	static char text[4096];
	(void)state;
	for (int iter = 0; iter < 2000; iter++) {
		size_t len = next_rand() % sizeof(text);
		for (size_t i = 0; i < len; i++) {
			uint32_t r = next_rand();
			/* mostly printable, with newlines, quotes and any byte now and then */
			text[i] = (r % 16 == 0) ? (char)(r >> 8) : (r % 16 == 1) ? '\n' : (char)(32 + (r >> 8) % 95);
		}
		try_text(text, len);
	}
}

static void test_token_soup(void **state)
{
	static const char *const tokens[] = {
		"allow", "deny", "deny!", "deny(EPERM)", "deny!(EROFS)", "ask", "rewrite", "->",
		"read", "write,create", "*", "exec", "connect,bind", "stat", "delete", "@R/home/**",
		"~/x", "$HOME/a", "${PROJECT}/**", "$SESSION/c/**", "/**", "/a/*/b", "/a/**/b",
		"[a-", "[!x]", "\\", "\"", "\"a b\"", "#", "@loopback:80", "@metadata", "@session",
		"@foreign-proc", "[::1]:80", "10.0.0.0/8", "*.x.com:443", "unix:/run/*",
		"unix-abstract:*", "memfd:*", "include", "@R/inc/a.policy", "set", "undecided",
		"ask-timeout", "12", "\n", "\n", "\t", " ", " ", " ", "$NOPE", ":", "/", "..",
	};
	static char text[8192];
	char tok[PATH_MAX];
	(void)state;
	for (int iter = 0; iter < 3000; iter++) {
		size_t len = 0, ntok = next_rand() % 120;
		for (size_t k = 0; k < ntok; k++) {
			subst(tokens[next_rand() % ARRAY_SIZE(tokens)], tok, sizeof(tok));
			size_t l = strlen(tok);
			if (len + l + 2 >= sizeof(text))
				break;
			memcpy(text + len, tok, l);
			len += l;
			if (next_rand() % 2)
				text[len++] = ' ';
		}
		text[len] = '\0';
		try_text(text, len);
	}
}

static void test_limits(void **state)
{
	static char text[200000];
	struct ward_error err;
	char want[256];
	size_t n;
	(void)state;

	/* a NUL byte inside the text */
	memcpy(text, "allow read /a\nallow read /x\0y\n", 30);
	struct ward_policy *p = ward_policy_new(&vars);
	assert_int_equal(ward_policy_add_text(p, WARD_LAYER_FILE, "t", text, 30, &err), -EINVAL);
	assert_string_equal(err.msg, "t:2:14: NUL byte in policy text");
	/* one after the last line */
	assert_int_equal(ward_policy_add_text(p, WARD_LAYER_FILE, "t", "allow read /a\n\0", 15, &err),
			 -EINVAL);
	assert_string_equal(err.msg, "t:2:1: NUL byte in policy text");
	/* a text without a final newline, and an empty text */
	assert_int_equal(ward_policy_add_text(p, WARD_LAYER_FILE, "t", "allow read /a", 13, &err), 0);
	assert_int_equal(ward_policy_add_text(p, WARD_LAYER_FILE, "t", "", 0, &err), 0);
	/* only len bytes are read */
	assert_int_equal(ward_policy_add_text(p, WARD_LAYER_FILE, "t", "allow read /a raed", 13, &err),
			 0);
	ward_policy_free(p);

	/* the longest line, 8191 bytes, loads; one more byte is refused */
	memset(text, ' ', 8191);
	memcpy(text, "allow read", 10);
	memcpy(text + 8191 - 2, "/a", 2);
	text[8191] = '\n';
	try_text(text, 8192);
	p = ward_policy_new(&vars);
	assert_int_equal(ward_policy_add_text(p, WARD_LAYER_FILE, "t", text, 8192, &err), 0);
	struct ward_verdict v;
	assert_int_equal(ward_decide_path(p, WARD_OP_READ, "/a", &v), 0);
	assert_string_equal(ward_rule_location(v.rule), "t:1");
	ward_policy_free(p);
	memset(text, ' ', 8192);
	memcpy(text + 8192 - 13, "allow read /a", 13);
	p = ward_policy_new(&vars);
	assert_int_equal(ward_policy_add_text(p, WARD_LAYER_FILE, "t", text, 8192, &err), -EINVAL);
	assert_string_equal(err.msg, "t:1:8192: line longer than 8191 bytes");
	/* a very long line after a good one */
	memcpy(text, "allow read /a\n", 14);
	memset(text + 14, 'x', sizeof(text) - 14);
	assert_int_equal(ward_policy_add_text(p, WARD_LAYER_FILE, "t", text, sizeof(text), &err),
			 -EINVAL);
	assert_string_equal(err.msg, "t:2:8192: line longer than 8191 bytes");
	ward_policy_free(p);

	/* 1024 words on a line load; the 1025th is refused at its column */
	n = (size_t)snprintf(text, sizeof(text), "allow read");
	for (int i = 0; i < 1022; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, " /%x", i);
	p = ward_policy_new(&vars);
	size_t before = ward_policy_rule_count(p);
	assert_int_equal(ward_policy_add_text(p, WARD_LAYER_FILE, "t", text, n, &err), 0);
	assert_int_equal(ward_policy_rule_count(p), before + 1022);
	assert_int_equal(ward_decide_path(p, WARD_OP_READ, "/3fd", &v), 0);
	assert_string_equal(ward_rule_location(v.rule), "t:1");
	size_t col = n + 2;
	n += (size_t)snprintf(text + n, sizeof(text) - n, " /last");
	assert_int_equal(ward_policy_add_text(p, WARD_LAYER_FILE, "t", text, n, &err), -EINVAL);
	snprintf(want, sizeof(want), "t:1:%zu: too many words on one line", col);
	assert_string_equal(err.msg, want);
	ward_policy_free(p);
	/* the same many words as blanks and comments only */
	memset(text, ' ', 8000);
	text[8000] = '#';
	try_text(text, 8001);
	for (size_t i = 0; i < 8000; i += 2)
		text[i] = 'w';
	try_text(text, 8001);

	/* many lines */
	n = 0;
	for (int i = 0; i < 5000; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "%s %s /many/%d/**\n",
				      i % 3 ? "allow" : "deny", i % 2 ? "read" : "write", i);
	p = ward_policy_new(&vars);
	before = ward_policy_rule_count(p);
	assert_int_equal(ward_policy_add_text(p, WARD_LAYER_FILE, "t", text, n, &err), 0);
	assert_int_equal(ward_policy_rule_count(p), before + 5000);
	assert_int_equal(ward_decide_path(p, WARD_OP_READ, "/many/4999/x", &v), 0);
	assert_string_equal(ward_rule_location(v.rule), "t:5000");
	ward_policy_free(p);

	/* hostile globs stay linear */
	n = (size_t)snprintf(text, sizeof(text), "allow read /");
	for (int i = 0; i < 500; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "*a");
	p = ward_policy_new(&vars);
	assert_int_equal(ward_policy_add_text(p, WARD_LAYER_FILE, "t", text, n, &err), 0);
	memset(text, 'a', 4000);
	text[0] = '/';
	text[4000] = 'b';
	text[4001] = '\0';
	assert_int_equal(ward_decide_path(p, WARD_OP_READ, text, &v), 0);
	assert_true(v.undecided);
	ward_policy_free(p);
}

/* ------------------------------------------------------------------ setup */

static int setup(void **state)
{
	char tmpl[] = "/tmp/ward-test-XXXXXX";
	(void)state;
	if (mkdtemp(tmpl) == NULL || realpath(tmpl, root) == NULL)
		return -1;
	char path[PATH_MAX];
	/* s and l are symlinks to directories whose paths are longer by 29 and 300 bytes */
#define X50 "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
	const char *dirs[] = { "home", "home/.ssh", "proj", "tmp", "real", "inc", "inc/sub",
			       "inc/deep", "odd [1]*", "s-target-xxxxxxxxxxxxxxxxxxxxx",
			       "l" X50 X50 X50, "l" X50 X50 X50 "/" X50 X50 X50, NULL };
	for (int i = 0; dirs[i]; i++) {
		snprintf(path, sizeof(path), "%s/%s", root, dirs[i]);
		if (mkdir(path, 0700) < 0)
			return -1;
	}
	snprintf(path, sizeof(path), "%s/rootlink", root);
	if (symlink("/", path) < 0)
		return -1;
	const char *links[][2] = { { "link", "real" },
				   { "s", "s-target-xxxxxxxxxxxxxxxxxxxxx" },
				   { "l", "l" X50 X50 X50 "/" X50 X50 X50 },
				   { NULL, NULL } };
#undef X50
	for (int i = 0; links[i][0]; i++) {
		char target[PATH_MAX];
		snprintf(path, sizeof(path), "%s/%s", root, links[i][0]);
		snprintf(target, sizeof(target), "%s/%s", root, links[i][1]);
		if (symlink(target, path) < 0)
			return -1;
	}
	/* policy files for include */
	static const char *const files[][2] = {
		{ "inc/a.policy", "allow read @R/home/a/**\ninclude b.policy\n" },
		{ "inc/b.policy", "deny read @R/home/a/b/**\ninclude sub/c.policy\n" },
		{ "inc/sub/c.policy", "allow read @R/home/a/b/c\ninclude ../d.policy\n" },
		{ "inc/d.policy", "ask read @R/home/a/b/c/d\n" },
		{ "inc/bad.policy", "# an error on line 2\nallow raed /x\n" },
		{ "inc/badinc.policy", "include missing.policy\n" },
		{ "inc/cyc1.policy", "include cyc2.policy\n" },
		{ "inc/cyc2.policy", "include cyc1.policy\n" },
		{ "inc/self.policy", "include self.policy\n" },
		{ "inc/set.policy", "set undecided deny\nset ask-timeout 7\n" },
		{ "inc/with space.policy", "allow read @R/home/spaced\n" },
		{ "home/inc.policy", "deny read ~/secret\n" },
		{ "real/r.policy", "allow read @R/home/r\n" },
		{ "inc/deep/0.policy", "include 1.policy\n" },
		{ "inc/deep/1.policy", "include 2.policy\n" },
		{ "inc/deep/2.policy", "include 3.policy\n" },
		{ "inc/deep/3.policy", "include 4.policy\n" },
		{ "inc/deep/4.policy", "include 5.policy\n" },
		{ "inc/deep/5.policy", "include 6.policy\n" },
		{ "inc/deep/6.policy", "include 7.policy\n" },
		{ "inc/deep/7.policy", "include 8.policy\n" },
		{ "inc/deep/8.policy", "include 9.policy\n" },
		{ "inc/deep/9.policy", "allow read @R/home/deep\n" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(files); i++)
		if (write_file(files[i][0], files[i][1]) < 0)
			return -1;

	memset(&vars, 0, sizeof(vars));
	snprintf(vars.home, sizeof(vars.home), "%s/home", root);
	snprintf(vars.project, sizeof(vars.project), "%s/proj", root);
	snprintf(vars.tmpdir, sizeof(vars.tmpdir), "%s/tmp", root);
	snprintf(vars.session, sizeof(vars.session), "%s/tmp/ward-1000/s1", root);
	snprintf(vars.xdg_runtime_dir, sizeof(vars.xdg_runtime_dir), "%s/run", root);
	snprintf(vars.xdg_config_home, sizeof(vars.xdg_config_home), "%s/home/.config", root);
	snprintf(vars.xdg_state_home, sizeof(vars.xdg_state_home), "%s/home/.local/state", root);
	snprintf(vars.uid, sizeof(vars.uid), "1000");
	snprintf(vars.user, sizeof(vars.user), "agent");
	return 0;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 16];
	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decide_rows),
		cmocka_unit_test(test_error_rows),
		cmocka_unit_test(test_layer_rows),
		cmocka_unit_test(test_net_rows),
		cmocka_unit_test(test_policy_domains),
		cmocka_unit_test(test_rule_kinds),
		cmocka_unit_test(test_errno_rows),
		cmocka_unit_test(test_verdict_fields),
		cmocka_unit_test(test_layers_and_ops),
		cmocka_unit_test(test_rule_lines),
		cmocka_unit_test(test_settings),
		cmocka_unit_test(test_all_or_nothing),
		cmocka_unit_test(test_profiles),
		cmocka_unit_test(test_profiles_resolve),
		cmocka_unit_test(test_base_and_env),
		cmocka_unit_test(test_restricts),
		cmocka_unit_test(test_moves_guarded),
		cmocka_unit_test(test_moves_widening),
		cmocka_unit_test(test_include_files),
		cmocka_unit_test(test_long_words),
		cmocka_unit_test(test_dump),
		cmocka_unit_test(test_link_widens),
		cmocka_unit_test(test_follow_links),
		cmocka_unit_test(test_follow_links_bounds),
		cmocka_unit_test(test_default_project_settings),
		cmocka_unit_test(test_default_from_home),
		cmocka_unit_test(test_cache),
		cmocka_unit_test(test_cache_threads),
		cmocka_unit_test(test_net_parse),
		cmocka_unit_test(test_odd_variables),
		cmocka_unit_test(test_vars_from_env),
		cmocka_unit_test(test_random_bytes),
		cmocka_unit_test(test_token_soup),
		cmocka_unit_test(test_limits),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
