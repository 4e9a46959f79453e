/*
 * preload_env.c - where libward-preload.so is, and the environment that
 * loads it into the agent (preload_env.h).
 */
#include "preload_env.h"
#include "../preload/ward_hint.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int regular(const char *path)
{
	struct stat st;
	if (stat(path, &st) < 0)
		return -errno;
	return S_ISREG(st.st_mode) ? 0 : -ENOENT;
}

int preload_find(const char *exe, char *out, size_t len)
{
	static const char *const where[] = { "/" PRELOAD_LIB_NAME, "/../lib/ward/" PRELOAD_LIB_NAME };
	const char *slash = strrchr(exe, '/');
	if (slash == NULL)
		return -ENOENT;
	for (size_t i = 0; i < sizeof(where) / sizeof(where[0]); i++) {
		char path[PATH_MAX], real[PATH_MAX];
		int n = snprintf(path, sizeof(path), "%.*s%s", (int)(slash - exe), exe, where[i]);
		if (n < 0 || (size_t)n >= sizeof(path) || regular(path) < 0 || realpath(path, real) == NULL)
			continue;
		if (strlen(real) >= len)
			return -ENAMETOOLONG;
		memcpy(out, real, strlen(real) + 1);
		return 0;
	}
	return -ENOENT;
}

int preload_setup(struct preload_setup *p, const char *lib, bool backtrace)
{
	if (lib[0] != '/' || strlen(lib) >= sizeof(p->lib) || strpbrk(lib, " \t\n:") != NULL)
		return -EINVAL;
	snprintf(p->lib, sizeof(p->lib), "%s", lib);
	p->base = WARD_HINT_BASE;
	p->backtrace = backtrace;
	snprintf(p->hint, sizeof(p->hint), "%x:%llx:%x", WARD_HINT_VERSION, (unsigned long long)p->base,
		 backtrace ? WARD_HINT_F_BACKTRACE : 0u);
	return 0;
}

static bool starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

char **preload_envp(const struct preload_setup *p, char *const envp[])
{
	size_t n = 0, text = 0;
	const char *old = NULL;

	for (; envp[n] != NULL; n++)
		if (starts(envp[n], "LD_PRELOAD="))
			old = envp[n] + 11;
	text = sizeof("LD_PRELOAD=:") + strlen(p->lib) + (old != NULL ? strlen(old) : 0) +
	       sizeof(WARD_HINT_ENV "=") + strlen(p->hint);
	char **out = malloc((n + 3) * sizeof(char *) + text);
	if (out == NULL)
		return NULL;
	char *pre = (char *)(out + n + 3), *hint = pre + sizeof("LD_PRELOAD=:") + strlen(p->lib) +
						      (old != NULL ? strlen(old) : 0);
	if (old != NULL && old[0] != '\0')
		sprintf(pre, "LD_PRELOAD=%s:%s", p->lib, old);
	else
		sprintf(pre, "LD_PRELOAD=%s", p->lib);
	sprintf(hint, "%s=%s", WARD_HINT_ENV, p->hint);
	size_t k = 0;
	out[k++] = pre;
	out[k++] = hint;
	for (size_t i = 0; i < n; i++)
		if (!starts(envp[i], "LD_PRELOAD=") && !starts(envp[i], WARD_HINT_ENV "="))
			out[k++] = envp[i];
	out[k] = NULL;
	return out;
}

/* Is word one of the blank- or colon-separated words of the list s[0..n)? */
static bool has_word(const char *s, size_t n, const char *word)
{
	size_t w = strlen(word);
	for (size_t i = 0; i < n;) {
		size_t k = i;
		while (k < n && s[k] != ':' && s[k] != ' ' && s[k] != '\t')
			k++;
		if (k - i == w && memcmp(s + i, word, w) == 0)
			return true;
		i = k + 1;
	}
	return false;
}

bool preload_in_environ(const struct preload_setup *p, const char *env, size_t len)
{
	int lib = 0, hint = 0; /* 1: the session's, -1: another value */
	size_t hlen = strlen(p->hint);

	for (size_t i = 0; i < len;) {
		const char *e = env + i;
		size_t n = strnlen(e, len - i);
		/* The loader takes the first LD_PRELOAD; getenv in the library the first WARD_HINT. */
		if (n >= 11 && memcmp(e, "LD_PRELOAD=", 11) == 0 && lib == 0)
			lib = has_word(e + 11, n - 11, p->lib) ? 1 : -1;
		else if (n >= sizeof(WARD_HINT_ENV) && memcmp(e, WARD_HINT_ENV "=", sizeof(WARD_HINT_ENV)) == 0 &&
			 hint == 0)
			hint = n - sizeof(WARD_HINT_ENV) == hlen &&
				       memcmp(e + sizeof(WARD_HINT_ENV), p->hint, hlen) == 0
				       ? 1
				       : -1;
		i += n + 1;
	}
	return lib == 1 && hint == 1;
}
