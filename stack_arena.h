/*
 * stack_arena.h — C stacks for coroutines, carved from large memory maps (stack_arena.c).
 *
 * The Zend fiber API maps every stack on its own and puts a guard page under it: two memory maps
 * per coroutine, so vm.max_map_count (65,530 by default) caps a process at ~28,000 suspended
 * coroutines. The arena maps chunks of many stacks at once and reuses a released stack without
 * a system call. Overflow: the chunk's lowest page is a guard; a stack gets a guard page of its
 * own while the map budget allows (a quarter of vm.max_map_count); a stack without one has a
 * canary zone just under it, checked each time its coroutine switches out. A fault in a guard, or a
 * broken canary, ends the process with a fatal error naming the overflow — never silently.
 */
#ifndef ASYNC_STACK_ARENA_H
#define ASYNC_STACK_ARENA_H

#include "php.h"

typedef struct {
	void *base;      /* lowest usable address (above the guard page, if any) */
	size_t size;     /* usable bytes */
	uint64_t *canary; /* its canary zone, ASYNC_STACK_CANARY_WORDS words (NULL: a guard page is
	                   * under it, its own or the chunk's) */
	uint32_t number; /* chunk * stacks per chunk + index */
	bool guarded;    /* it has a guard page of its own */
} async_stack_t;

/* The value every word of a canary zone holds. */
#define ASYNC_STACK_CANARY ((uint64_t) 0x5a17a5c0c0a57acfULL)
/* A zone, not a word: an overflow that passes by may leave a word of it unwritten (a caller's
 * padding or an unused local lying just there: seen on a debug build), hardly all of them. */
#define ASYNC_STACK_CANARY_WORDS 8

/* Whether the arena is usable on this build and machine (boost.context's make_fcontext is
 * exported by PHP; a build on ucontext keeps the Zend fiber API's stacks). */
bool async_stack_arena_available(void);

/* A stack of `size` bytes (rounded up to pages; one size per process: the first call decides,
 * and its `guards` too: how many stacks get a guard page, -1 for a quarter of vm.max_map_count),
 * or false when no memory could be mapped. */
bool async_stack_acquire(async_stack_t *stack, size_t size, zend_long guards);
/* The size of the arena's slots (a stack, its red zone and any guard page), 0 until the first
 * acquire sizes them. */
extern size_t async_stack_arena_slot;
/* Whether the arena can give a stack of `size` bytes: not sized yet, or its slots are as large
 * (a larger fiber.stack_size set later by ini_set() takes the fiber API's stacks instead). */
static zend_always_inline bool async_stack_arena_fits(size_t size)
{
	return async_stack_arena_slot == 0 || size <= async_stack_arena_slot;
}
void async_stack_release(async_stack_t *stack);

/* The canary zone under the stack (the red zone at the top of the stack below) is intact. Inline:
 * it is read on every switch out (a guarded stack has none: one test). */
static zend_always_inline bool async_stack_canary_intact(const async_stack_t *stack)
{
	const uint64_t *zone = stack->canary;
	if (EXPECTED(zone == NULL)) {
		return true;
	}
	uint64_t diff = 0;
	for (int i = 0; i < ASYNC_STACK_CANARY_WORDS; i++) {
		diff |= zone[i] ^ ASYNC_STACK_CANARY;
	}
	return diff == 0;
}

/* A broken canary: the fatal error, and the process ends (the stack below was overwritten). */
ZEND_NORETURN void async_stack_overflowed(const char *who);

/* Request end: chunks with no stack in use give their pages back (the mappings stay). */
void async_stack_arena_trim(void);
/* Process end. */
void async_stack_arena_shutdown(void);

#endif /* ASYNC_STACK_ARENA_H */
