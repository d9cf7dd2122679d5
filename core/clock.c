/*
 * core/clock.c — virtual time for Async\Testing\virtual_time() (see core/core.h).
 *
 * A clock is frozen: it moves only when the scheduler finds nothing runnable and every coroutine
 * of the bubble waits on time (its virtual timers) or on something inside the bubble (another of
 * its coroutines, a channel or a future one of them completes). It then jumps to the earliest
 * timer, and every timer due at that instant fires, in the order the timers were armed. A
 * coroutine waiting on anything the real loop delivers (a socket, a process, a signal, a real
 * timer, a thread-pool job) or on a coroutine outside the bubble holds the clock: the loop waits
 * for the real event first, as it would without the bubble.
 *
 * Bubbles nest: a coroutine carries its innermost clock; one of an inner bubble is also a
 * coroutine of the outer ones (for the question whether the outer may jump), and the deepest
 * bubble that may jump does so first.
 */
#include "php_async.h"
#include "core/core.h"

struct _async_vtimer_s {
	zend_async_timer_event_t event;  /* first: the event sits at offset 0 */
	async_clock_t *clock;
	uint64_t timeout_ns;
	uint64_t deadline_ns;            /* in the clock's elapsed time */
	uint64_t seq;
	async_vtimer_t *prev, *next;     /* in clock->timers while armed */
	bool armed;
};

/* ---------------------------------------------------------------------------------------------
 * Clocks
 * ------------------------------------------------------------------------------------------- */

static uint64_t real_wall_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

uint64_t async__clock_mono_ns(async_clock_t *clock)
{
	return clock->start_mono_ns + clock->elapsed_ns;
}

uint64_t async__clock_wall_ns(async_clock_t *clock)
{
	return clock->start_wall_ns + clock->elapsed_ns;
}

async_clock_t *async__clock_new(async_clock_t *parent)
{
	async_clock_t *clock = ecalloc(1, sizeof(async_clock_t));
	clock->refcount = 1;
	clock->parent = parent;
	if (parent != NULL) {
		async__clock_addref(parent);
	}
	/* an inner bubble starts at its outer bubble's now */
	clock->start_mono_ns = parent != NULL ? async__clock_mono_ns(parent) : async_monotonic_ns();
	clock->start_wall_ns = parent != NULL ? async__clock_wall_ns(parent) : real_wall_ns();
	/* live list, newest first: the deepest bubbles come first */
	clock->next_live = ASYNC_G(clocks);
	if (clock->next_live != NULL) {
		clock->next_live->prev_live = clock;
	}
	ASYNC_G(clocks) = clock;
	return clock;
}

void async__clock_addref(async_clock_t *clock)
{
	clock->refcount++;
}

static void timer_disarm(async_vtimer_t *timer);

void async__clock_end(async_clock_t *clock)
{
	if (clock->ended) {
		return;
	}
	clock->ended = true;
	while (clock->timers != NULL) {
		timer_disarm(clock->timers);
	}
	if (clock->prev_live != NULL) {
		clock->prev_live->next_live = clock->next_live;
	} else {
		ZEND_ASSERT(ASYNC_G(clocks) == clock);
		ASYNC_G(clocks) = clock->next_live;
	}
	if (clock->next_live != NULL) {
		clock->next_live->prev_live = clock->prev_live;
	}
	clock->prev_live = clock->next_live = NULL;
}

void async__clock_release(async_clock_t *clock)
{
	ZEND_ASSERT(clock->refcount > 0);
	if (--clock->refcount > 0) {
		return;
	}
	async__clock_end(clock);
	if (clock->parent != NULL) {
		async__clock_release(clock->parent);
	}
	efree(clock);
}

void async__clock_rshutdown(void)
{
	while (ASYNC_G(clocks) != NULL) {
		async__clock_end(ASYNC_G(clocks));
	}
}

async_clock_t *async__clock_of_current(void)
{
	if (ASYNC_G(clock_firing) != NULL) {
		return ASYNC_G(clock_firing); /* a virtual timer's callbacks run inside its bubble */
	}
	zend_coroutine_t *co = ZEND_ASYNC_CURRENT_COROUTINE;
	return co != NULL ? ASYNC_CO_FROM_CORO(co)->clock : NULL;
}

/* ---------------------------------------------------------------------------------------------
 * Virtual timers: the reactor's timer event, on a clock
 * ------------------------------------------------------------------------------------------- */

static void timer_arm(async_vtimer_t *timer)
{
	async_clock_t *clock = timer->clock;
	ZEND_ASSERT(!timer->armed);
	if (clock->ended) {
		return; /* the bubble is over: nothing will ever fire */
	}
	timer->deadline_ns = clock->elapsed_ns + timer->timeout_ns;
	timer->seq = ++clock->timer_seq;
	async_vtimer_t **at = &clock->timers, *before = NULL;
	while (*at != NULL && (*at)->deadline_ns <= timer->deadline_ns) {
		before = *at;
		at = &(*at)->next;
	}
	timer->next = *at;
	timer->prev = before;
	if (timer->next != NULL) {
		timer->next->prev = timer;
	}
	*at = timer;
	timer->armed = true;
}

static void timer_disarm(async_vtimer_t *timer)
{
	if (!timer->armed) {
		return;
	}
	if (timer->prev != NULL) {
		timer->prev->next = timer->next;
	} else {
		timer->clock->timers = timer->next;
	}
	if (timer->next != NULL) {
		timer->next->prev = timer->prev;
	}
	timer->prev = timer->next = NULL;
	timer->armed = false;
}

static bool vtimer_start(zend_async_event_t *event)
{
	async_vtimer_t *timer = (async_vtimer_t *) event;
	if (ZEND_ASYNC_EVENT_IS_CLOSED(event) || event->loop_ref_count++ > 0) {
		return true;
	}
	timer_arm(timer);
	return true;
}

static bool vtimer_stop(zend_async_event_t *event)
{
	async_vtimer_t *timer = (async_vtimer_t *) event;
	if (event->loop_ref_count == 0 || --event->loop_ref_count > 0) {
		return true;
	}
	timer_disarm(timer);
	return true;
}

static bool vtimer_dispose(zend_async_event_t *event)
{
	async_vtimer_t *timer = (async_vtimer_t *) event;
	if (event->ref_count > 1) {
		event->ref_count--;
		return true;
	}
	event->ref_count = 0;
	timer_disarm(timer);
	zend_async_callbacks_free(event);
	async__clock_release(timer->clock);
	efree(timer);
	return true;
}

static zend_string *vtimer_info(zend_async_event_t *event)
{
	async_vtimer_t *timer = (async_vtimer_t *) event;
	return zend_strpprintf(0, "Timer(%u ms%s, virtual)", timer->event.timeout, timer->event.is_periodic ? ", periodic" : "");
}

bool async__clock_is_timer(zend_async_event_t *event)
{
	return event->start == vtimer_start;
}

static const async_event_methods_t vtimer_methods = {
	.start = vtimer_start,
	.stop = vtimer_stop,
	.dispose = vtimer_dispose,
	.info = vtimer_info,
};

zend_async_timer_event_t *async__clock_new_timer(async_clock_t *clock, uint64_t timeout_ns, bool periodic,
	size_t extra_size)
{
	async_vtimer_t *timer = ecalloc(1, sizeof(async_vtimer_t) + extra_size);
	async__event_init(&timer->event.base, &vtimer_methods);
	timer->clock = clock;
	async__clock_addref(clock);
	/* a periodic timer of 0 would fire for ever at one instant */
	timer->timeout_ns = periodic && timeout_ns == 0 ? 1000000 : timeout_ns;
	timer->event.timeout = (unsigned int) (timeout_ns / 1000000);
	timer->event.is_periodic = periodic;
	if (periodic) {
		ZEND_ASYNC_EVENT_SET(&timer->event.base, ZEND_ASYNC_TIMER_F_MULTISHOT);
	}
	return &timer->event;
}

/* ---------------------------------------------------------------------------------------------
 * Jumping
 * ------------------------------------------------------------------------------------------- */

static bool clock_within(async_clock_t *inner, async_clock_t *outer)
{
	for (; inner != NULL; inner = inner->parent) {
		if (inner == outer) {
			return true;
		}
	}
	return false;
}

/* Whether waiting on this event keeps the bubble's clock where it is. */
static bool event_holds(zend_async_event_t *event, async_clock_t *bubble)
{
	if (async__clock_is_timer(event)) {
		return !clock_within(((async_vtimer_t *) event)->clock, bubble);
	}
	if (ZEND_ASYNC_EVENT_HAS(event, ZEND_ASYNC_EVENT_F_STARTED_LOOP)) {
		return true; /* the real loop delivers it: I/O, a process, a signal, a real timer */
	}
	if (event->info == async__coroutine_info) {
		/* awaiting a coroutine: one outside the bubble goes at its own pace */
		return !clock_within(ASYNC_CO_FROM_CORO((zend_coroutine_t *) event)->clock, bubble);
	}
	return false; /* a channel, a future, a scope: completed by the bubble's own coroutines */
}

/* Every coroutine of the bubble waits, and on nothing that holds its clock. */
static bool bubble_blocked_on_time(async_clock_t *bubble)
{
	uint32_t members = 0;
	ASYNC_LIVE_FOREACH(co) {
		if (!clock_within(co->clock, bubble)) {
			continue; /* (a finished coroutine has left the live list) */
		}
		members++;
		zend_async_waker_t *waker = co->coro.waker;
		if (&co->coro == ZEND_ASYNC_CURRENT_COROUTINE && !ZEND_ASYNC_G(in_scheduler_context)) {
			return false; /* running */
		}
		if (waker == NULL || waker->status != ZEND_ASYNC_WAKER_WAITING || co->in_queue) {
			return false; /* runnable, or not started */
		}
		for (uint32_t i = 0; i < waker->length; i++) {
			if (event_holds(waker->triggers[i].event, bubble)) {
				return false;
			}
		}
	}
	return members > 0;
}

/* Jumps to the earliest timer and fires every timer due then, in the order they were armed. */
static void clock_jump(async_clock_t *clock)
{
	uint64_t target = clock->timers->deadline_ns;
	ZEND_ASSERT(target >= clock->elapsed_ns && "a timer is armed at the clock's now or later");
	clock->elapsed_ns = target;
	async__clock_addref(clock);
	while (!clock->ended && clock->timers != NULL && clock->timers->deadline_ns <= target) {
		async_vtimer_t *timer = clock->timers;
		zend_async_event_t *event = &timer->event.base;
		timer_disarm(timer);
		if (timer->event.is_periodic) {
			timer_arm(timer); /* past the target: it fires once per jump */
		} else {
			event->loop_ref_count = 0;
			ZEND_ASYNC_EVENT_SET_CLOSED(event);
		}
		/* what the callbacks arm or read (a timer re-armed for the rest of a wait) is the
		 * bubble's, though no coroutine of it runs */
		async_clock_t *outer = ASYNC_G(clock_firing);
		ASYNC_G(clock_firing) = clock;
		ZEND_ASYNC_EVENT_ADD_REF(event);
		ZEND_ASYNC_CALLBACKS_NOTIFY(event, NULL, NULL);
		ZEND_ASYNC_EVENT_RELEASE(event);
		ASYNC_G(clock_firing) = outer;
	}
	async__clock_release(clock);
}

/* §8.5 for one bubble: its root gets the DeadlockError; virtual_time() then cancels the rest. */
static void bubble_deadlock(async_clock_t *clock)
{
	zend_coroutine_t *root = clock->root;
	clock->root = NULL;
	zend_object *error = zend_async_new_exception(ZEND_ASYNC_EXCEPTION_DEADLOCK,
		"Deadlock detected in virtual_time(): every coroutine of the bubble waits, and no timer is pending");
	async__coroutine_cancel(root, error, true, false);
}

bool async__clock_advance(void)
{
	/* newest first: a bubble made inside another comes before it */
	for (async_clock_t *clock = ASYNC_G(clocks); clock != NULL; clock = clock->next_live) {
		if (clock->timers != NULL) {
			if (bubble_blocked_on_time(clock)) {
				clock_jump(clock);
				return true;
			}
		} else if (clock->root != NULL && ZEND_ASYNC_G(active_event_count) == 0 && bubble_blocked_on_time(clock)) {
			bubble_deadlock(clock);
			return true;
		}
	}
	return false;
}
