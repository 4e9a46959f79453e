/*
 * ward_hint.h - the wire between libward-preload.so and ward.
 *
 * The channel is a region of the agent's own memory at an address ward
 * chooses and passes in the environment (WARD_HINT=1:BASE:FLAGS).  Each
 * process maps it once, in the library's constructor, with
 * MAP_FIXED_NOREPLACE; the address is the same in every process of the
 * session, so ward needs no message to learn where it is.
 *
 *   slots   one per thread, claimed by the thread's first wrapped call at
 *           index tid % WARD_HINT_SLOTS or one of the next
 *           WARD_HINT_WINDOW - 1.  A wrapper fills in the key and frames,
 *           then stores fn (non-zero: a call is in progress), calls the real
 *           function and stores fn = 0.  Only stores: no lock, no syscall.
 *   names   which host name the process's resolver turned into which
 *           address: a direct-mapped table indexed by a hash of the
 *           address, written by the resolver wrappers (getaddrinfo,
 *           gethostbyname*, res_*).  The connect wrapper does not copy
 *           the name: ward, which decoded the address itself, reads the
 *           entry for that address.
 *
 * ward reads a slot window and the name entry with one process_vm_readv,
 * only while it handles a notification of that thread (the thread is then
 * blocked in the kernel, so its own slot cannot change under the read).
 * Everything in the region is written by the agent: ward checks every
 * field and never lets a hint allow anything (supervisor/hint.c).
 */
#ifndef WARD_HINT_H
#define WARD_HINT_H

#include <stdint.h>

#define WARD_HINT_ENV "WARD_HINT"
#define WARD_HINT_VERSION 1
/*
 * Where ward puts the region unless told otherwise: far below where the
 * kernel places mappings (just under the stack, 0x7f..., and
 * PIE programs at 0x55...), far above where brk heaps of non-PIE programs
 * grow.  A process that already has something there runs without the
 * channel (the library then writes nothing).
 */
#define WARD_HINT_BASE 0x3a5e00000000ULL

#define WARD_HINT_SLOTS 256
#define WARD_HINT_WINDOW 4
#define WARD_HINT_FRAMES 56
#define WARD_HINT_NAMES 256
#define WARD_HINT_NAME_MAX 256 /* with its NUL: a DNS name has at most 253 characters */

/* WARD_HINT's FLAGS, a hexadecimal number. */
#define WARD_HINT_F_BACKTRACE 0x1u

#define WARD_HINT_MAGIC 0x57484e31u /* "WHN1" */

/* How a slot's key ties the hint to the syscall ward is handling. */
enum ward_hint_match {
	WARD_MATCH_ARG = 1, /* the key (a pointer) is one of the syscall's arguments */
	WARD_MATCH_ANY = 2, /* any syscall of the family while the call is in progress */
};

/* Which syscalls a wrapper's hint can describe. */
enum ward_hint_family {
	WARD_HF_FILE = 1, /* open, stat and change calls: the ones with a path */
	WARD_HF_EXEC = 2, /* execve, execveat */
	WARD_HF_NET = 3,  /* socket, connect, bind, sendto, sendmsg, sendmmsg */
};

struct ward_hint_slot {
	uint32_t magic; /* WARD_HINT_MAGIC once a thread claimed the slot */
	int32_t tid;    /* the thread that claimed it */
	uint32_t seq;   /* counts the calls the slot described */
	uint16_t fn;    /* 0: no call in progress; else the wrapper's id (table.h) */
	uint16_t nframes;
	uint64_t key;   /* for WARD_MATCH_ARG: the pointer the syscall must carry */
	uint64_t reserved[5];
	uint64_t frames[WARD_HINT_FRAMES]; /* return addresses, innermost first */
};
_Static_assert(sizeof(struct ward_hint_slot) == 512, "a slot is 512 bytes");
#define WARD_HINT_SLOT_HEAD 64 /* what ward reads when it wants no frames */

struct ward_hint_name {
	uint32_t seq;   /* odd while the entry is being written */
	uint16_t len;   /* of name, without its NUL */
	uint16_t pad;
	uint8_t addr[16]; /* IPv6, IPv4 as ::ffff:a.b.c.d */
	char name[WARD_HINT_NAME_MAX];
};
_Static_assert(sizeof(struct ward_hint_name) == 280, "a name entry is 280 bytes");

#define WARD_HINT_SLOTS_SIZE ((uint64_t)(WARD_HINT_SLOTS + WARD_HINT_WINDOW - 1) * sizeof(struct ward_hint_slot))
#define WARD_HINT_SIZE \
	((WARD_HINT_SLOTS_SIZE + WARD_HINT_NAMES * sizeof(struct ward_hint_name) + 4095) & ~(uint64_t)4095)

static inline uint64_t ward_hint_slot_at(uint64_t base, unsigned idx)
{
	return base + (uint64_t)idx * sizeof(struct ward_hint_slot);
}

/* The first slot of tid's window. */
static inline unsigned ward_hint_slot_index(int32_t tid)
{
	return (unsigned)tid % WARD_HINT_SLOTS;
}

/* FNV-1a of the 16 bytes of an address: which name entry holds it. */
static inline unsigned ward_hint_name_index(const uint8_t addr[16])
{
	uint32_t h = 2166136261u;
	for (int i = 0; i < 16; i++)
		h = (h ^ addr[i]) * 16777619u;
	return h % WARD_HINT_NAMES;
}

static inline uint64_t ward_hint_name_at(uint64_t base, unsigned idx)
{
	return base + WARD_HINT_SLOTS_SIZE + (uint64_t)idx * sizeof(struct ward_hint_name);
}

#endif
