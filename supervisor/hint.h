/*
 * hint.h - ward's side of the preload channel (preload/ward_hint.h):
 * reading what a thread's libward-preload.so says about the syscall ward
 * is handling, and naming the return addresses of its stack.
 *
 * Everything read here was written by the agent.  A hint only labels a
 * decision ward makes without it: `via` comes from ward's own copy of the
 * table, a host name is a claim ward must verify by resolving it itself
 * (resolver.h), frames are addresses ward names from the files mapped in
 * the process.  A hint that cannot be read, or does not check out, is no
 * hint.
 */
#ifndef WARD_HINT_READER_H
#define WARD_HINT_READER_H

#include "../preload/ward_hint.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* The name of wrapper id fn (1..), or NULL when there is no such wrapper. */
const char *hint_fn_name(unsigned fn);
/* How many wrappers the table has: ids run from 1 to this. */
unsigned hint_fn_count(void);
/*
 * The family of syscall nr (x86-64) a hint can describe (WARD_HF_*), or 0.
 * Calls ward answers ENOSYS to without a notification are none.
 */
int hint_family_of(long nr);

struct hint {
	const char *via;  /* the libc function, from ward's table; NULL: none */
	int nframes;      /* return addresses in frames, innermost first */
	uint64_t frames[WARD_HINT_FRAMES];
	char host[WARD_HINT_NAME_MAX]; /* the process's resolver's name for the address, lower case; "" none */
};

/*
 * Read the hints for a syscall of thread tid (which made syscall nr with
 * args) from the region at base, with one process_vm_readv:
 *   - the slot of thread owner (tid itself, or the thread that started tid
 *     sharing its memory: a posix_spawn or vfork child runs in its
 *     parent's memory and the parent's slot describes it), matched on the
 *     wrapper's family and, for the wrappers that pass the syscall a
 *     pointer, on that pointer being one of args;
 *   - when addr is not NULL, the name the process's resolver recorded for
 *     that address (ward's own decoding of the syscall's address).
 * frames: read the stack too (the whole slot, not its head).
 * Returns 1 when it found something, 0 when not, -errno when the region
 * could not be read (no library in that process, or a process gone).
 */
int hint_read(pid_t tid, pid_t owner, uint64_t base, long nr, const uint64_t args[6],
	      const uint8_t addr[16], bool frames, struct hint *out);

/* The checks hint_read makes, on memory already read (for the tests and the fuzzer). */
bool hint_slot_matches(const struct ward_hint_slot *s, pid_t owner, long nr, const uint64_t args[6]);
bool hint_name_valid(const struct ward_hint_name *e, const uint8_t addr[16], char *out, size_t len);

/* One return address, named. */
struct hint_frame {
	uint64_t pc;
	char function[256]; /* "" when no symbol covers it */
	uint64_t offset;    /* from the function's start */
	char module[256];   /* the file mapped there ("" unknown) */
	char file[256];     /* the source file, where debug information has it */
	int line;           /* 0: unknown */
	char build_id[41];  /* the module's GNU build-id in hex ("" none) */
};

/*
 * Name the n addresses of pcs in process pid (its /proc/PID/maps and the
 * files mapped there, with libdwfl: symbol tables, and DWARF lines where
 * the file or /usr/lib/debug has them).  The frames inside
 * libward-preload.so itself are left out.  Returns how many frames it
 * wrote into out (at most max), or -errno.
 */
int hint_symbolise(pid_t pid, const uint64_t *pcs, int n, struct hint_frame *out, int max);
/* "function+0xOFF (file:line)" or "module+0xADDR": one frame as the log's stack shows it. */
void hint_frame_format(const struct hint_frame *f, char *out, size_t len);

#endif
