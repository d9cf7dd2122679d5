/*
 * clock.h — virtual time: the clock of a bubble made by Async\Testing\virtual_time() (clock.c).
 *
 * A bubble's coroutines (the one virtual_time() spawns and everything spawned from inside) carry
 * its clock. Timers made by them are the clock's own, not libuv's; time read by them
 * (time(), microtime(), hrtime(), date(), ...) is the clock's. When the run queue is empty and
 * every coroutine of a bubble waits only on its virtual timers or on things inside the bubble, the
 * scheduler asks the clock to jump to its earliest timer (async_clock_advance()).
 */
#ifndef ASYNC_CLOCK_H
#define ASYNC_CLOCK_H

#include "php_async.h"

typedef struct _async_clock_s async_clock_t;
typedef struct _async_vtimer_s async_vtimer_t;

struct _async_clock_s {
	uint32_t refcount;
	async_clock_t *parent;       /* the bubble this one was made in */
	uint64_t start_mono_ns;      /* monotonic time (the parent's) when the bubble began */
	uint64_t start_wall_ns;      /* Unix time in ns (the parent's) when the bubble began */
	uint64_t elapsed_ns;         /* virtual time passed inside the bubble */
	uint64_t timer_seq;          /* creation order of timers: same instant, same order */
	async_vtimer_t *timers;      /* armed timers, by (deadline, seq) */
	async_clock_t *prev_live, *next_live; /* ASYNC_G(clocks): bubbles still running */
	zend_coroutine_t *root;      /* the coroutine virtual_time() spawned, while it runs (weak) */
	bool ended;
};

/* The calling coroutine's clock, or NULL when it runs in real time (no bubble: one load). */
async_clock_t *async_clock_of_current(void);
static zend_always_inline async_clock_t *async_clock_current(void)
{
	return ASYNC_G(clocks) != NULL ? async_clock_of_current() : NULL;
}

async_clock_t *async_clock_new(async_clock_t *parent);
void async_clock_addref(async_clock_t *clock);
void async_clock_release(async_clock_t *clock);
/* The bubble is over: its timers never fire again, and the scheduler stops looking at it. */
void async_clock_end(async_clock_t *clock);

uint64_t async_clock_mono_ns(async_clock_t *clock);
uint64_t async_clock_wall_ns(async_clock_t *clock);

/* The reactor's timer constructor for a coroutine inside a bubble. */
zend_async_timer_event_t *async_clock_new_timer(async_clock_t *clock, uint64_t timeout_ns, bool periodic,
	size_t extra_size);
bool async_clock_is_timer(zend_async_event_t *event);

/* The scheduler's question when nothing is runnable: fires the earliest timers of the deepest
 * bubble whose coroutines all wait on time only. True when one fired, or when a bubble whose
 * coroutines wait on nothing that can happen (no timer, and no real event live in the process)
 * had its root cancelled with a DeadlockError. */
bool async_clock_advance(void);

/* Request end: every clock still live is ended. */
void async_clock_rshutdown(void);

#endif /* ASYNC_CLOCK_H */
