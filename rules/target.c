/*
 * target.c - compiling one target word: variables, path patterns with
 * their canonical prefix, network targets and groups.
 */
#define _GNU_SOURCE
#include "policy_int.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const struct {
	const char *name;
	size_t off;
} var_table[] = {
	{ "HOME", offsetof(struct ward_vars, home) },
	{ "PROJECT", offsetof(struct ward_vars, project) },
	{ "TMPDIR", offsetof(struct ward_vars, tmpdir) },
	{ "SESSION", offsetof(struct ward_vars, session) },
	{ "UID", offsetof(struct ward_vars, uid) },
	{ "USER", offsetof(struct ward_vars, user) },
	{ "XDG_RUNTIME_DIR", offsetof(struct ward_vars, xdg_runtime_dir) },
	{ "XDG_CONFIG_HOME", offsetof(struct ward_vars, xdg_config_home) },
	{ "XDG_STATE_HOME", offsetof(struct ward_vars, xdg_state_home) },
};

static const char *var_lookup(const struct ward_vars *vars, const char *name,
			      size_t len)
{
	for (size_t i = 0; i < ARRAY_SIZE(var_table); i++)
		if (strlen(var_table[i].name) == len &&
		    memcmp(var_table[i].name, name, len) == 0)
			return (const char *)vars + var_table[i].off;
	return NULL;
}

static int append(char *out, size_t outlen, size_t *o, const char *s, size_t n)
{
	if (*o + n >= outlen)
		return -ENAMETOOLONG;
	memcpy(out + *o, s, n);
	*o += n;
	out[*o] = '\0';
	return 0;
}

/*
 * Append a variable's value.  In a glob its characters are literal: a
 * project directory named "a [1]" must not turn into a class, or a deny
 * rule below it would silently match nothing.
 */
static int append_value(char *out, size_t outlen, size_t *o, const char *val,
			bool escape)
{
	int rc;

	if (!escape)
		return append(out, outlen, o, val, strlen(val));
	for (; *val != '\0'; val++) {
		if (strchr("*?[\\", *val) != NULL &&
		    (rc = append(out, outlen, o, "\\", 1)) < 0)
			return rc;
		if ((rc = append(out, outlen, o, val, 1)) < 0)
			return rc;
	}
	return 0;
}

/*
 * Expand '~' (at the start) and $NAME / ${NAME} anywhere.  A backslash
 * pair is copied as it is, so "\$" stays a literal dollar for the glob.
 * With escape, the values' glob characters are escaped (for patterns).
 * On an unknown variable returns -EINVAL and points *bad at its '$';
 * when the result does not fit, -ENAMETOOLONG.
 */
int expand_vars(const struct ward_vars *vars, const char *in, char *out,
		size_t outlen, bool escape, const char **bad)
{
	size_t o = 0;
	const char *s = in;
	int rc;

	out[0] = '\0';
	if (s[0] == '~' && (s[1] == '/' || s[1] == '\0')) {
		if ((rc = append_value(out, outlen, &o, vars->home, escape)) < 0)
			return rc;
		s++;
	}
	while (*s != '\0') {
		if (*s == '\\' && s[1] != '\0') {
			if ((rc = append(out, outlen, &o, s, 2)) < 0)
				return rc;
			s += 2;
			continue;
		}
		if (*s != '$') {
			if ((rc = append(out, outlen, &o, s, 1)) < 0)
				return rc;
			s++;
			continue;
		}
		const char *name = s + 1, *end;
		bool braced = *name == '{';
		if (braced)
			name++;
		end = name;
		while (isalnum((unsigned char)*end) || *end == '_')
			end++;
		const char *val = var_lookup(vars, name, (size_t)(end - name));
		if (val == NULL || (braced && *end != '}')) {
			*bad = s;
			return -EINVAL;
		}
		if ((rc = append_value(out, outlen, &o, val, escape)) < 0)
			return rc;
		s = end + (braced ? 1 : 0);
	}
	return 0;
}

/* Lexically normalise an absolute path in place: no ".", "..", "//", trailing '/'. */
static void normalize_in_place(char *path)
{
	char *out = path + 1, *in = path + 1;
	bool last = *in == '\0';

	while (!last) {
		char *end = strchrnul(in, '/');
		size_t n = (size_t)(end - in);
		/* Writing the separator may overwrite the terminator: look first. */
		last = *end == '\0';
		if (n == 0 || (n == 1 && in[0] == '.')) {
			/* skip */
		} else if (n == 2 && in[0] == '.' && in[1] == '.') {
			if (out > path + 1) {
				out--; /* the '/' after the last component */
				while (out > path + 1 && out[-1] != '/')
					out--;
			}
		} else {
			memmove(out, in, n);
			out += n;
			*out++ = '/';
		}
		in = end + 1;
	}
	if (out > path + 1)
		out--;
	*out = '\0';
}

int ward_path_normalize(const char *cwd, const char *path, char *out,
			size_t outlen)
{
	int n;

	if (path[0] == '/')
		n = snprintf(out, outlen, "%s", path);
	else
		n = snprintf(out, outlen, "%s/%s", cwd, path);
	if (n < 0 || (size_t)n >= outlen)
		return -ENAMETOOLONG;
	if (out[0] != '/')
		return -EINVAL;
	normalize_in_place(out);
	return 0;
}

/* Copy s to out with glob characters escaped. */
int pattern_escape(const char *s, char *out, size_t outlen)
{
	size_t o = 0;
	for (; *s != '\0'; s++) {
		if (o + 2 >= outlen)
			return -ENAMETOOLONG;
		if (strchr("*?[\\", *s) != NULL)
			out[o++] = '\\';
		out[o++] = *s;
	}
	out[o] = '\0';
	return 0;
}

int ward_rule_word(char *out, size_t len, const char *s)
{
	size_t o = 0;

	if (len < 3)
		return -ENAMETOOLONG;
	out[o++] = '"';
	for (; *s != '\0'; s++) {
		if (*s == '\n')
			return -EINVAL; /* a rule is one line */
		if (o + 6 >= len)
			return -ENAMETOOLONG;
		/* Glob characters and $ escaped for the pattern, that escape and " for the quotes. */
		if (strchr("*?[$", *s) != NULL) {
			out[o++] = '\\';
			out[o++] = '\\';
		} else if (*s == '\\') {
			memcpy(out + o, "\\\\\\", 3);
			o += 3;
		} else if (*s == '"') {
			out[o++] = '\\';
		}
		out[o++] = *s;
	}
	out[o++] = '"';
	out[o] = '\0';
	return 0;
}

/*
 * Resolve dir (absolute, normal) with realpath; when it does not exist,
 * resolve its longest existing ancestor and append the rest.
 */
static int canonical_dir(const char *dir, char *out, size_t outlen)
{
	char buf[PATH_MAX], real[PATH_MAX];
	size_t cut;

	if (strlen(dir) >= sizeof(buf))
		return -ENAMETOOLONG;
	strcpy(buf, dir);
	cut = strlen(buf);
	for (;;) {
		char saved = buf[cut];
		buf[cut] = '\0';
		if (realpath(cut == 0 ? "/" : buf, real) != NULL) {
			buf[cut] = saved;
			int n = snprintf(out, outlen, "%s%s",
					 strcmp(real, "/") == 0 && dir[cut] == '/' ? "" : real,
					 dir + cut);
			if (n < 0 || (size_t)n >= outlen)
				return -ENAMETOOLONG;
			return 0;
		}
		buf[cut] = saved;
		if (cut == 0)
			return -errno;
		while (cut > 0 && buf[cut - 1] != '/')
			cut--;
		if (cut > 0)
			cut--; /* drop the '/' too */
	}
}

bool pattern_literal_dir(const char *pattern, char *dir, size_t dirlen, size_t *cut)
{
	/*
	 * The literal prefix ends at the first glob character; an escaped
	 * character is literal (it may come from a variable's value), so it
	 * is unescaped into dir.  lit counts bytes of pattern, dl bytes of
	 * dir, at the last '/' seen.
	 */
	size_t i = 0, d = 0, dl = 0, lit = 0;
	for (;;) {
		char ch = pattern[i];
		if (d + 1 >= dirlen)
			return false;
		if (ch == '\\' && pattern[i + 1] != '\0') {
			dir[d++] = pattern[i + 1];
			i += 2;
			continue;
		}
		if (ch == '\0' || strchr("*?[\\", ch) != NULL)
			break;
		if (ch == '/') {
			lit = i;
			dl = d;
		}
		dir[d++] = ch;
		i++;
	}
	if (pattern[i] == '\0') {
		*cut = i; /* no glob: the whole path */
		dl = d;
	} else {
		*cut = lit; /* without the '/' before the first glob component */
	}
	dir[dl] = '\0';
	if (dl == 0 && dirlen >= 2)
		strcpy(dir, "/");
	return true;
}

/*
 * Turn an expanded, absolute pattern into its compiled text: lexically
 * normal, with the literal directory prefix resolved to a real path.
 */
static int canonical_pattern(const char *pattern, char *out, size_t outlen)
{
	char norm[PATH_MAX], dir[PATH_MAX], real[PATH_MAX], esc[PATH_MAX];
	size_t dirlen;
	int rc;

	if (strlen(pattern) >= sizeof(norm))
		return -ENAMETOOLONG;
	strcpy(norm, pattern);
	normalize_in_place(norm);
	if (!pattern_literal_dir(norm, dir, sizeof(dir), &dirlen))
		return -ENAMETOOLONG;
	if ((rc = canonical_dir(dir, real, sizeof(real))) < 0)
		return rc;
	if ((rc = pattern_escape(real, esc, sizeof(esc))) < 0)
		return rc;
	/* Avoid "//" when the prefix is the root. */
	const char *rest = norm + dirlen;
	if (strcmp(esc, "/") == 0 && rest[0] == '/')
		rest++;
	rc = snprintf(out, outlen, "%s%s", esc, rest);
	if (rc < 0 || (size_t)rc >= outlen)
		return -ENAMETOOLONG;
	return 0;
}

bool net_parse_ports(const char *s, uint16_t *lo, uint16_t *hi)
{
	char *end;
	unsigned long a, b;

	if (strcmp(s, "*") == 0) {
		*lo = 0;
		*hi = 65535;
		return true;
	}
	if (!isdigit((unsigned char)s[0]))
		return false;
	errno = 0;
	a = strtoul(s, &end, 10);
	b = a;
	if (*end == '-') {
		if (!isdigit((unsigned char)end[1]))
			return false;
		b = strtoul(end + 1, &end, 10);
	}
	if (*end != '\0' || errno != 0 || a > 65535 || b > 65535 || a > b)
		return false;
	*lo = (uint16_t)a;
	*hi = (uint16_t)b;
	return true;
}

/* Parse an IPv4 or IPv6 address into IPv6 space (IPv4 as ::ffff:a.b.c.d). */
bool ip_parse(const char *s, uint8_t addr[16], bool *v4)
{
	struct in_addr a4;

	if (inet_pton(AF_INET, s, &a4) == 1) {
		memset(addr, 0, 10);
		addr[10] = addr[11] = 0xff;
		memcpy(addr + 12, &a4, 4);
		*v4 = true;
		return true;
	}
	*v4 = false;
	return inet_pton(AF_INET6, s, addr) == 1;
}

/* "ADDR" or "ADDR/LEN" into a prefix. */
static bool cidr_parse(const char *s, struct cidr *c)
{
	char buf[64];
	const char *slash = strchr(s, '/');
	size_t n = slash ? (size_t)(slash - s) : strlen(s);
	bool v4;
	unsigned long len;
	char *end;

	if (n == 0 || n >= sizeof(buf))
		return false;
	memcpy(buf, s, n);
	buf[n] = '\0';
	if (!ip_parse(buf, c->addr, &v4))
		return false;
	if (slash == NULL) {
		c->plen = 128;
	} else {
		if (!isdigit((unsigned char)slash[1]))
			return false;
		errno = 0;
		len = strtoul(slash + 1, &end, 10);
		if (*end != '\0' || errno != 0)
			return false;
		if (strchr(buf, ':') == NULL) {
			if (len > 32)
				return false;
			c->plen = (uint8_t)(96 + len);
		} else {
			if (len > 128)
				return false;
			c->plen = (uint8_t)len;
		}
	}
	/* Clear the host bits so that matching compares prefixes only. */
	for (int bit = c->plen; bit < 128; bit++)
		c->addr[bit / 8] &= (uint8_t) ~(0x80u >> (bit % 8));
	return true;
}

#define V4(a, b, c, d, len)                                                    \
	{ { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, a, b, c, d }, 96 + len }

static const struct cidr grp_loopback[] = {
	V4(127, 0, 0, 0, 8),
	{ { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1 }, 128 },
};
static const struct cidr grp_private[] = {
	V4(10, 0, 0, 0, 8),
	V4(172, 16, 0, 0, 12),
	V4(192, 168, 0, 0, 16),
	V4(100, 64, 0, 0, 10),
	{ { 0xfc }, 7 },
};
static const struct cidr grp_link_local[] = {
	V4(169, 254, 0, 0, 16),
	{ { 0xfe, 0x80 }, 10 },
};
static const struct cidr grp_metadata[] = {
	V4(169, 254, 169, 254, 32),
	{ { 0xfd, 0x00, 0x0e, 0xc2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x02, 0x54 }, 128 },
	V4(100, 100, 100, 200, 32),
	V4(168, 63, 129, 16, 32),
	V4(192, 0, 0, 192, 32),
};

static const struct {
	const char *name;
	const struct cidr *cidrs;
	int n;
} groups[] = {
	{ "loopback", grp_loopback, ARRAY_SIZE(grp_loopback) },
	{ "private", grp_private, ARRAY_SIZE(grp_private) },
	{ "link-local", grp_link_local, ARRAY_SIZE(grp_link_local) },
	{ "metadata", grp_metadata, ARRAY_SIZE(grp_metadata) },
};

static bool domain_valid(const char *s)
{
	const char *p = s;

	if (p[0] == '*' && p[1] == '.')
		p += 2;
	if (*p == '\0' || *p == '.' || *p == '-')
		return false;
	for (; *p != '\0'; p++)
		if (!isalnum((unsigned char)*p) && *p != '-' && *p != '.' && *p != '_')
			return false;
	return p[-1] != '.' || p - s > 1;
}

static int set_text(struct ward_rule *r, const char *s)
{
	r->target = strdup(s);
	return r->target ? 0 : -ENOMEM;
}

static int compile_glob(struct ward_rule *r, const char *pattern,
			enum glob_flags flags, const char **why)
{
	r->glob = glob_compile(pattern, flags, why);
	return r->glob ? 0 : -EINVAL;
}

/* HOST[:PORTS] with HOST a domain, address, CIDR or '*'. */
static int host_compile(struct ward_rule *r, const char *word, const char **why)
{
	char host[512];
	const char *ports = NULL;
	size_t n;

	r->port_lo = 0;
	r->port_hi = 65535;
	if (word[0] == '[') {
		const char *close = strchr(word, ']');
		if (close == NULL) {
			*why = "missing ']' after IPv6 address";
			return -EINVAL;
		}
		n = (size_t)(close - word - 1);
		if (n >= sizeof(host)) {
			*why = "address too long";
			return -EINVAL;
		}
		memcpy(host, word + 1, n);
		host[n] = '\0';
		const char *after = close + 1;
		if (*after == '/') {
			/* [ADDR]/LEN[:PORTS] */
			const char *colon = strchr(after, ':');
			size_t l = colon ? (size_t)(colon - after) : strlen(after);
			if (n + l >= sizeof(host)) {
				*why = "address too long";
				return -EINVAL;
			}
			memcpy(host + n, after, l);
			host[n + l] = '\0';
			after += l;
		}
		if (*after == ':')
			ports = after + 1;
		else if (*after != '\0') {
			*why = "expected ':PORTS' after ']'";
			return -EINVAL;
		}
		if (strchr(host, ':') == NULL) {
			*why = "not an IPv6 address inside [...]";
			return -EINVAL;
		}
	} else {
		const char *colon = strrchr(word, ':');
		if (colon != NULL && strchr(word, ':') != colon) {
			colon = NULL; /* a bare IPv6 address: every port */
		}
		n = colon ? (size_t)(colon - word) : strlen(word);
		if (n >= sizeof(host)) {
			*why = "host name too long";
			return -EINVAL;
		}
		memcpy(host, word, n);
		host[n] = '\0';
		if (colon != NULL)
			ports = colon + 1;
	}
	if (ports != NULL && !net_parse_ports(ports, &r->port_lo, &r->port_hi)) {
		*why = "bad port or port range";
		return -EINVAL;
	}
	if (strcmp(host, "*") == 0) {
		r->kind = T_ANYHOST;
		return 0;
	}
	if (cidr_parse(host, &r->one)) {
		r->kind = T_CIDR;
		r->cidrs = &r->one;
		r->ncidr = 1;
		return 0;
	}
	/*
	 * A slash after something that is not an address ("./x", "src/a")
	 * is a relative path, and the message should say so.
	 */
	const char *slash = strchr(host, '/');
	if (slash != NULL) {
		size_t al = (size_t)(slash - host);
		if (al == 0 || strspn(host, "0123456789abcdefABCDEF.:") < al ||
		    strcspn(host, "0123456789:") >= al) {
			*why = "not an absolute path";
			return -EINVAL;
		}
	}
	if (strchr(host, ':') != NULL || slash != NULL ||
	    (host[0] != '\0' && isdigit((unsigned char)host[strlen(host) - 1]) &&
	     strspn(host, "0123456789./") == strlen(host))) {
		*why = "bad address or prefix";
		return -EINVAL;
	}
	if (!domain_valid(host)) {
		*why = "not an absolute path or a network target";
		return -EINVAL;
	}
	for (char *c = host; *c; c++)
		*c = (char)tolower((unsigned char)*c);
	n = strlen(host);
	if (n > 1 && host[n - 1] == '.')
		host[n - 1] = '\0';
	r->kind = T_DOMAIN;
	return compile_glob(r, host, GLOB_FLAT, why);
}

/* Compile an expanded path pattern (absolute) into r. */
static int path_compile(struct ward_rule *r, const char *expanded,
			const char **why, char *canon, size_t canonlen)
{
	int rc;

	if (expanded[0] != '/') {
		*why = "not an absolute path";
		return -EINVAL;
	}
	rc = canonical_pattern(expanded, canon, canonlen);
	if (rc < 0) {
		*why = rc == -ENAMETOOLONG ? "path too long" : "cannot resolve the path's prefix";
		return -EINVAL;
	}
	return compile_glob(r, canon, GLOB_PATH, why);
}

int target_compile_real(struct ward_rule *r, const char *pattern, const char **why)
{
	int rc;

	r->kind = T_PATH;
	if (pattern[0] != '/') {
		*why = "not an absolute path";
		return -EINVAL;
	}
	if ((rc = compile_glob(r, pattern, GLOB_PATH, why)) < 0)
		return rc;
	return set_text(r, pattern);
}

/*
 * Compile word into r->kind, r->glob, r->target and the network fields.
 * The caller sets the action, ops and location.
 */
int target_compile(const struct ward_vars *vars, const char *word,
		   struct ward_rule *r, const char **why)
{
	char exp[PATH_MAX], canon[PATH_MAX + 32];
	const char *bad;
	int rc;

	/* The path of unix: is a path target of its own, so '~' may start it. */
	bool unix_path = strncmp(word, "unix:", 5) == 0;
	if (unix_path) {
		memcpy(exp, word, 5);
		rc = expand_vars(vars, word + 5, exp + 5, sizeof(exp) - 5, true, &bad);
	} else {
		rc = expand_vars(vars, word, exp, sizeof(exp), true, &bad);
	}
	if (rc < 0) {
		*why = rc == -EINVAL ? "unknown variable" : "target too long";
		return -EINVAL;
	}

	if (unix_path) {
		r->kind = T_UNIX;
		/* Socket paths are absolute: "unix:**" is every socket path. */
		if (strncmp(exp + 5, "**", 2) == 0 && (exp[7] == '\0' || exp[7] == '/')) {
			if (strlen(exp) + 1 >= sizeof(exp)) {
				*why = "target too long";
				return -EINVAL;
			}
			memmove(exp + 6, exp + 5, strlen(exp + 5) + 1);
			exp[5] = '/';
		}
		if ((rc = path_compile(r, exp + 5, why, canon, sizeof(canon))) < 0)
			return rc;
		memmove(canon + 5, canon, strlen(canon) + 1);
		memcpy(canon, "unix:", 5);
		return set_text(r, canon);
	}
	if (strncmp(exp, "unix-abstract:", 14) == 0) {
		r->kind = T_ABSTRACT;
		if ((rc = compile_glob(r, exp + 14, GLOB_FLAT, why)) < 0)
			return rc;
		return set_text(r, exp);
	}
	if (strncmp(exp, "socket:", 7) == 0) {
		r->kind = T_SOCKET;
		if ((rc = compile_glob(r, exp + 7, GLOB_FLAT, why)) < 0)
			return rc;
		return set_text(r, exp);
	}
	if (strncmp(exp, "memfd:", 6) == 0) {
		r->kind = T_MEMFD;
		if ((rc = compile_glob(r, exp + 6, GLOB_FLAT, why)) < 0)
			return rc;
		return set_text(r, exp);
	}
	if (exp[0] == '@') {
		char name[64];
		const char *colon = strchr(exp, ':');
		size_t n = colon ? (size_t)(colon - exp - 1) : strlen(exp + 1);
		if (n >= sizeof(name)) {
			*why = "unknown group";
			return -EINVAL;
		}
		memcpy(name, exp + 1, n);
		name[n] = '\0';
		r->port_lo = 0;
		r->port_hi = 65535;
		if (colon != NULL && !net_parse_ports(colon + 1, &r->port_lo, &r->port_hi)) {
			*why = "bad port or port range";
			return -EINVAL;
		}
		if ((strcmp(name, "foreign-proc") == 0 || strcmp(name, "foreign-proc-private") == 0) &&
		    colon == NULL) {
			r->kind = T_FOREIGN_PROC;
			r->proc_private = strcmp(name, "foreign-proc-private") == 0;
			return set_text(r, exp);
		}
		if (strcmp(name, "foreign-tty") == 0 && colon == NULL) {
			r->kind = T_FOREIGN_TTY;
			return set_text(r, exp);
		}
		if (strcmp(name, "session") == 0 && colon == NULL) {
			r->kind = T_SESSION;
			return set_text(r, exp);
		}
		if (strcmp(name, "dns") == 0 && colon == NULL) {
			r->kind = T_DNS;
			return set_text(r, exp);
		}
		for (size_t i = 0; i < ARRAY_SIZE(groups); i++) {
			if (strcmp(groups[i].name, name) == 0) {
				r->kind = T_CIDR;
				r->cidrs = groups[i].cidrs;
				r->ncidr = groups[i].n;
				return set_text(r, exp);
			}
		}
		*why = "unknown group";
		return -EINVAL;
	}
	if (word[0] == '/' || word[0] == '~' || word[0] == '$') {
		r->kind = T_PATH;
		if ((rc = path_compile(r, exp, why, canon, sizeof(canon))) < 0)
			return rc;
		return set_text(r, canon);
	}
	if ((rc = host_compile(r, exp, why)) < 0)
		return rc;
	return set_text(r, exp);
}

void rule_free(struct ward_rule *r)
{
	if (r == NULL)
		return;
	glob_free(r->glob);
	glob_free(r->prefix);
	free(r->loc);
	free(r->target);
	free(r->repl);
	free(r->via);
	free(r);
}

int ward_net_target_parse(const char *text, struct ward_net_target *t,
			  char *buf, size_t buflen)
{
	const char *port;
	size_t n;
	uint16_t lo, hi;
	bool v4;

	memset(t, 0, sizeof(*t));
	if (strncmp(text, "unix:", 5) == 0) {
		t->kind = WARD_NET_UNIX;
		if (ward_path_normalize("/", text + 5, buf, buflen) < 0 || text[5] != '/')
			return -EINVAL;
		t->path = buf;
		return 0;
	}
	if (strncmp(text, "unix-abstract:", 14) == 0) {
		t->kind = WARD_NET_ABSTRACT;
		if (strlen(text + 14) >= buflen)
			return -ENAMETOOLONG;
		strcpy(buf, text + 14);
		t->path = buf;
		return 0;
	}
	if (strncmp(text, "socket:", 7) == 0) {
		t->kind = WARD_NET_SOCKET;
		if (strlen(text + 7) >= buflen)
			return -ENAMETOOLONG;
		strcpy(buf, text + 7);
		t->path = buf;
		return 0;
	}
	if (text[0] == '[') {
		const char *close = strchr(text, ']');
		if (close == NULL || close[1] != ':')
			return -EINVAL;
		n = (size_t)(close - text - 1);
		port = close + 2;
		text++;
	} else {
		const char *colon = strrchr(text, ':');
		if (colon == NULL || strchr(text, ':') != colon)
			return -EINVAL;
		n = (size_t)(colon - text);
		port = colon + 1;
	}
	if (n == 0 || n >= buflen || !net_parse_ports(port, &lo, &hi) || lo != hi)
		return -EINVAL;
	memcpy(buf, text, n);
	buf[n] = '\0';
	t->port = lo;
	if (ip_parse(buf, t->addr, &v4)) {
		t->kind = WARD_NET_INET;
		return 0;
	}
	if (!domain_valid(buf) || buf[0] == '*')
		return -EINVAL;
	for (char *c = buf; *c; c++)
		*c = (char)tolower((unsigned char)*c);
	t->kind = WARD_NET_NAME;
	t->host = buf;
	return 0;
}

int ward_path_canonical(const char *path, char *out, size_t outlen)
{
	if (path[0] != '/')
		return -EINVAL;
	return canonical_dir(path, out, outlen);
}
