/*
 * fuzz_logread.c - libFuzzer target for the audit log's reader
 * (supervisor/cli/logread.c), which ward report and ward learn use on logs
 * that may be cut short, hand-edited or damaged.
 *
 * Two checks.  Any bytes at all, read as a log, must give events or
 * counted malformed lines without a crash, a read out of bounds or a leak.
 * And the reader's own scanner, which reads flat lines without jansson for
 * speed, must agree with jansson: each line it accepts, jansson accepts,
 * with the same strings, integers and booleans in the same fields.  The
 * reader is included whole so that its scanner can be called alone.
 */
#define _GNU_SOURCE
#include "../../supervisor/cli/logread.c"

#include <assert.h>
#include <sys/mman.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The field f of e as jansson reads the same line. */
static void agree(const struct lev *e, json_t *o)
{
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		const struct field *f = &fields[i];
		json_t *v = json_object_get(o, f->name);
		const char *p = (const char *)e + f->off;
		switch (f->type) {
		case F_STR: {
			const char *s = *(const char *const *)p;
			if (!json_is_string(v)) {
				assert(s == NULL);
				break;
			}
			/* A string with NUL inside goes to jansson, never the scanner. */
			assert(s != NULL && strlen(s) == json_string_length(v) &&
			       memcmp(s, json_string_value(v), strlen(s)) == 0);
			break;
		}
		case F_INT:
			assert(*(const int64_t *)p ==
			       (json_is_integer(v) ? (int64_t)json_integer_value(v) : LEV_NONE));
			break;
		case F_BOOL:
			assert(*(const int *)p == (json_is_boolean(v) ? json_is_true(v) : -1));
			break;
		case F_REAL:
			/* The scanner takes integers only: a real is jansson's. */
			if (json_is_integer(v))
				assert(*(const double *)p == (double)json_integer_value(v));
			break;
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* The scanner alone, on the input as one line. */
	struct logread r = { .fd = -1 };
	struct lev e;
	r.deccap = size + 1;
	r.dec = malloc(r.deccap);
	if (r.dec == NULL)
		return 0;
	lev_clear(&e, 1);
	if (scan_flat(&r, (const char *)data, size, &e)) {
		json_t *o = json_loadb((const char *)data, size, 0, NULL);
		assert(o != NULL && json_is_object(o));
		agree(&e, o);
		json_decref(o);
	}
	free(r.dec);

	/* The reader, on the input as a file of lines. */
	int fd = memfd_create("log", MFD_CLOEXEC);
	if (fd < 0)
		return 0;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return 0;
	}
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	int err;
	struct logread *lr = logread_open(path, &err);
	close(fd);
	if (lr == NULL)
		return 0;
	unsigned long events = 0;
	while (logread_next(lr, &e) > 0) {
		assert(e.event != NULL);
		events++;
	}
	const struct logread_bad *bad;
	size_t nbad;
	unsigned long all = logread_bad(lr, &bad, &nbad);
	assert(nbad <= LOGREAD_BAD_KEPT && nbad <= all);
	assert(events + all <= logread_lines(lr));
	logread_close(lr);
	return 0;
}
