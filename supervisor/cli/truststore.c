/*
 * truststore.c - the trust store: which project .ward/policy files the user
 * has trusted, by the SHA-256 of their content.  A changed file is
 * untrusted again.  The store is $XDG_CONFIG_HOME/ward/trusted, one
 * "HEX PATH" a line; ward's self-protection rules keep it from the agent.
 */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <nettle/sha2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void hash_hex(const void *data, size_t len, char hex[65])
{
	struct sha256_ctx ctx;
	uint8_t digest[SHA256_DIGEST_SIZE];

	sha256_init(&ctx);
	sha256_update(&ctx, len, data);
	sha256_digest(&ctx, sizeof(digest), digest);
	for (int i = 0; i < SHA256_DIGEST_SIZE; i++)
		snprintf(hex + 2 * i, 3, "%02x", digest[i]);
}

/* Read a whole regular file of at most 16 MiB. */
static int slurp(const char *path, char **text, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc = 0;
	size_t cap = 1 << 16, got = 0;
	char *buf = NULL;
	struct stat st;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		rc = -EINVAL;
		goto out;
	}
	for (;;) {
		if (got == cap || buf == NULL) {
			char *n;
			if (buf != NULL)
				cap *= 2;
			if (cap > (16u << 20) + 1) {
				rc = -EFBIG;
				goto out;
			}
			n = realloc(buf, cap + 1);
			if (n == NULL) {
				rc = -ENOMEM;
				goto out;
			}
			buf = n;
		}
		ssize_t n = read(fd, buf + got, cap - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			rc = -errno;
			goto out;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	buf[got] = '\0';
	*text = buf;
	*len = got;
	buf = NULL;
out:
	free(buf);
	close(fd);
	return rc;
}

static void store_path(const struct ward_vars *vars, char *out, size_t len)
{
	snprintf(out, len, "%s/ward/trusted", vars->xdg_config_home);
}

int trust_check(const struct ward_vars *vars, const char *path, char **text,
		size_t *len)
{
	char store[PATH_MAX], real[PATH_MAX], hex[65], line[PATH_MAX + 80];
	FILE *f;
	int rc, found = 0;

	if (realpath(path, real) == NULL)
		return -errno;
	if ((rc = slurp(real, text, len)) < 0)
		return rc;
	hash_hex(*text, *len, hex);
	store_path(vars, store, sizeof(store));
	f = fopen(store, "re");
	if (f == NULL) {
		rc = errno == ENOENT ? 0 : -errno;
		goto out;
	}
	while (fgets(line, sizeof(line), f) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		if (strlen(line) > 65 && line[64] == ' ' && strncmp(line, hex, 64) == 0 &&
		    strcmp(line + 65, real) == 0)
			found = 1;
	}
	fclose(f);
	rc = found;
out:
	if (rc != 1) {
		free(*text);
		*text = NULL;
	}
	return rc;
}

int trust_add(const struct ward_vars *vars, const char *path,
	      int (*validate)(const char *real, const char *text, size_t len, void *arg),
	      void *arg)
{
	char store[PATH_MAX], tmp[PATH_MAX + 8], real[PATH_MAX], hex[65];
	char line[PATH_MAX + 80], *text;
	size_t len;
	FILE *in, *out;
	int rc;

	if (realpath(path, real) == NULL)
		return -errno;
	if ((rc = slurp(real, &text, &len)) < 0)
		return rc;
	/* Validate and hash the same bytes: what is trusted is what was checked. */
	if ((rc = validate(real, text, len, arg)) < 0) {
		free(text);
		return rc;
	}
	hash_hex(text, len, hex);
	free(text);
	store_path(vars, store, sizeof(store));
	/* Make $XDG_CONFIG_HOME/ward, private to the user. */
	snprintf(tmp, sizeof(tmp), "%s/ward", vars->xdg_config_home);
	if (mkdir(vars->xdg_config_home, 0700) < 0 && errno != EEXIST)
		return -errno;
	if (mkdir(tmp, 0700) < 0 && errno != EEXIST)
		return -errno;
	snprintf(tmp, sizeof(tmp), "%s.new", store);
	out = fopen(tmp, "we");
	if (out == NULL)
		return -errno;
	in = fopen(store, "re");
	if (in != NULL) {
		/* Keep every other file's entry; this file's old hash goes. */
		while (fgets(line, sizeof(line), in) != NULL) {
			size_t n = strcspn(line, "\n");
			if (n > 65 && line[64] == ' ' && strncmp(line + 65, real, n - 65) == 0 &&
			    n - 65 == strlen(real))
				continue;
			fputs(line, out);
		}
		fclose(in);
	}
	fprintf(out, "%s %s\n", hex, real);
	if (fclose(out) != 0 || rename(tmp, store) < 0) {
		rc = -errno;
		unlink(tmp);
		return rc;
	}
	return 0;
}
