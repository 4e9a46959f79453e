/*
 * repos.c - the git repositories the agent made or changed inside the
 * project, told at the end of the session.
 *
 * A repository below the project (git init in a subdirectory, a clone, a
 * .git made by hand) keeps its own config and hooks, which run code at
 * the user's next git command there, and at `git status` in the project
 * itself once the agent commits it as a submodule (git runs status in
 * each).  The default profile lets the agent write them: a rule for every
 * .git below the project would also refuse moving any directory into the
 * project.  So ward says which ones the session touched, on stderr and in
 * session-end ("repos"), for the user to look at before using git there.
 */
#include "repos.h"
#include "log.h"
#include "session.h"

#include <jansson.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_REPOS 64

static char *repos[MAX_REPOS];
static int nrepos;
static bool more_repos; /* others beyond MAX_REPOS */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

void repos_note(const char *real)
{
	size_t pl = strlen(S->vars.project);
	if (strcmp(S->vars.project, "/") == 0)
		pl = 0;
	else if (strncmp(real, S->vars.project, pl) != 0 || real[pl] != '/')
		return;
	/* A ".git" component below the project's own top. */
	const char *g = real + pl;
	bool in_own = false; /* in the project's own .git */
	for (;;) {
		g = strstr(g, "/.git");
		if (g == NULL)
			break;
		if (g[5] == '/' || g[5] == '\0') {
			if (g != real + pl)
				break;
			in_own = true;
		}
		g += 5;
	}
	if (g == NULL && in_own)
		return;
	if (g == NULL) {
		/*
		 * A bare repository made in place: its HEAD, made after refs/ (git
		 * init --bare); not the project's own top, which is never made.
		 */
		size_t len = strlen(real);
		if (len < pl + 6 || strcmp(real + len - 5, "/HEAD") != 0 || len - 5 == pl)
			return;
		char refs[PATH_MAX];
		struct stat st;
		snprintf(refs, sizeof(refs), "%.*s/refs", (int)(len - 5), real);
		if (stat(refs, &st) < 0 || !S_ISDIR(st.st_mode))
			return;
		g = real + len - 5;
	}
	size_t n = (size_t)(g - real);
	pthread_mutex_lock(&lock);
	bool seen = false;
	for (int i = 0; i < nrepos && !seen; i++)
		seen = strlen(repos[i]) == n && strncmp(repos[i], real, n) == 0;
	if (!seen) {
		if (nrepos < MAX_REPOS && (repos[nrepos] = strndup(real, n)) != NULL)
			nrepos++;
		else
			more_repos = true;
	}
	pthread_mutex_unlock(&lock);
}

struct json_t *repos_json(void)
{
	json_t *a = json_array();
	pthread_mutex_lock(&lock);
	for (int i = 0; a != NULL && i < nrepos; i++)
		json_array_append_new(a, jpath(repos[i]));
	pthread_mutex_unlock(&lock);
	return a;
}

int repos_each(void (*fn)(const char *path, void *arg), void *arg, bool *more)
{
	pthread_mutex_lock(&lock);
	int n = nrepos;
	for (int i = 0; fn != NULL && i < nrepos; i++)
		fn(repos[i], arg);
	*more = more_repos;
	pthread_mutex_unlock(&lock);
	return n;
}
