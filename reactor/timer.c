/*
 * reactor/timer.c — the reactor's timers, armed in batches.
 *
 * A timer event is not a libuv handle of its own. One-shot timers that fall due at the same loop
 * millisecond share one uv_timer_t, a batch: 10,000 coroutines sleeping 1 ms put about ten
 * entries in libuv's heap instead of 10,000, and a timer costs a list append and unlink instead of
 * a heap insert, a heap removal and a uv_close() (about 900 instructions a wait at that size).
 * Nothing is lost by it: libuv's clock is in milliseconds, so timers due the same millisecond
 * fired in one uv__run_timers() pass already, in the order they were started — a batch's list
 * keeps that order, and a batch is joined only while it is the newest one armed, so no timer of
 * another batch was started between two of its members. Periodic and hidden (unreferenced) timers
 * get a batch of their own: the repeat and uv_unref() belong to the handle.
 *
 * Batches are recycled (stopped, not closed) on a short free list; request shutdown closes every
 * one and detaches its members, whose owners then only free them.
 */
#include "php_async.h"
#define ASYNC_REACTOR_UV /* the libuv side of the reactor's header */
#include "reactor/reactor.h"
#include "core/core.h"

typedef struct _async_timer_s async_timer_t;

typedef struct _async_timer_batch_s {
	uv_timer_t uv;                 /* first: the handle is the batch */
	uint64_t due;                  /* loop time (ms) it falls due */
	async_list_t members;          /* armed timers, in start order */
	bool shared;                   /* one-shot and referenced: others due then may join */
	struct _async_timer_batch_s *next_free;
} async_timer_batch_t;

struct _async_timer_s {
	zend_async_timer_event_t event;
	uint64_t timeout_ms;
	async_timer_batch_t *batch;    /* NULL while not armed */
	async_list_node_t node;        /* in batch->members */
};

/* Parked batches kept for reuse; more are closed. */
#define TIMER_BATCH_FREE_MAX 64

/* handle->data of a batch: request shutdown tells batches from the handles of events by it */
static const char batch_marker = 'B'; /* per-process: a constant, its address is the tag */

/* ---------------------------------------------------------------------------------------------
 * Batches
 * ------------------------------------------------------------------------------------------- */

static void batch_close_cb(uv_handle_t *handle)
{
	efree(handle); /* the handle is the batch's first member */
}

static void batch_park(async_timer_batch_t *batch)
{
	ZEND_ASSERT(batch->members.length == 0);
	uv_timer_stop(&batch->uv);
	if (ASYNC_G(timer_batch_open) == batch) {
		ASYNC_G(timer_batch_open) = NULL;
	}
	if (ASYNC_G(timer_batch_free_count) >= TIMER_BATCH_FREE_MAX) {
		uv_close((uv_handle_t *) &batch->uv, batch_close_cb);
		return;
	}
	uv_ref((uv_handle_t *) &batch->uv); /* a hidden one goes back referenced */
	batch->next_free = ASYNC_G(timer_batch_free);
	ASYNC_G(timer_batch_free) = batch;
	ASYNC_G(timer_batch_free_count)++;
}

static async_timer_batch_t *batch_take(uv_loop_t *loop)
{
	async_timer_batch_t *batch = ASYNC_G(timer_batch_free);
	if (batch != NULL) {
		ASYNC_G(timer_batch_free) = batch->next_free;
		ASYNC_G(timer_batch_free_count)--;
		return batch;
	}
	batch = emalloc(sizeof(async_timer_batch_t));
	uv_timer_init(loop, &batch->uv);
	batch->uv.data = (void *) &batch_marker;
	memset(&batch->members, 0, sizeof(async_list_t));
	return batch;
}

static void batch_append(async_timer_batch_t *batch, async_timer_t *timer)
{
	timer->batch = batch;
	async_list_append(&batch->members, &timer->node);
}

static void batch_unlink(async_timer_t *timer)
{
	async_list_remove(&timer->batch->members, &timer->node);
	timer->batch = NULL;
}

/* The member due first, or NULL. */
static async_timer_t *batch_head(async_timer_batch_t *batch)
{
	async_list_node_t *node = batch->members.first;
	return node != NULL ? ASYNC_LIST_ITEM(node, async_timer_t, node) : NULL;
}

/* Takes the timer out of its batch; a batch left empty stops (unless its callback runs now: it
 * parks it itself when done). */
static void timer_disarm(async_timer_t *timer)
{
	async_timer_batch_t *batch = timer->batch;
	if (batch == NULL) {
		return;
	}
	batch_unlink(timer);
	if (batch->members.length == 0 && ASYNC_G(timer_batch_firing) != batch) {
		batch_park(batch);
	}
}

static void timer_fire(async_timer_t *timer)
{
	zend_async_event_t *event = &timer->event.base;
	if (!timer->event.is_periodic) {
		/* A one-shot timer is no longer active once it fired. */
		async__reactor_event_count_off(event);
		event->loop_ref_count = 0;
		ZEND_ASYNC_EVENT_SET_CLOSED(event);
	}
	ZEND_ASYNC_CALLBACKS_NOTIFY(event, NULL, NULL);
}

static void batch_cb(uv_timer_t *handle)
{
	async_timer_batch_t *batch = (async_timer_batch_t *) handle;
	uv_loop_t *loop = handle->loop;

	async_timer_t *timer = batch_head(batch);
	if (!batch->shared && timer != NULL && timer->event.is_periodic) {
		/* a periodic timer's own batch: libuv re-armed it, the member stays */
		timer_fire(timer);
		async__reactor_delivered(loop);
		return;
	}
	/* Due now: nothing joins it any more (a timer started by a callback below is due later). */
	if (ASYNC_G(timer_batch_open) == batch) {
		ASYNC_G(timer_batch_open) = NULL;
	}
	async_timer_batch_t *outer = ASYNC_G(timer_batch_firing);
	ASYNC_G(timer_batch_firing) = batch;
	/* a callback may stop or start any other member: take the head afresh each time */
	while ((timer = batch_head(batch)) != NULL) {
		batch_unlink(timer);
		timer_fire(timer);
	}
	ASYNC_G(timer_batch_firing) = outer;
	batch_park(batch);
	async__reactor_delivered(loop);
}

/* ---------------------------------------------------------------------------------------------
 * Timer events
 * ------------------------------------------------------------------------------------------- */

static bool timer_arm(async_timer_t *timer, uv_loop_t *loop)
{
	const bool periodic = timer->event.is_periodic;
	const bool hidden = ZEND_ASYNC_EVENT_IS_HIDDEN(&timer->event.base);
	/* P11: libuv caches loop time; without this a timer armed after CPU work fires early. */
	uv_update_time(loop);
	uint64_t now = uv_now(loop);
	uint64_t due = timer->timeout_ms > UINT64_MAX - now ? UINT64_MAX : now + timer->timeout_ms;

	async_timer_batch_t *batch = ASYNC_G(timer_batch_open);
	if (!periodic && !hidden && batch != NULL && batch->due == due) {
		batch_append(batch, timer);
		return true;
	}
	batch = batch_take(loop);
	if (uv_timer_start(&batch->uv, batch_cb, timer->timeout_ms, periodic ? timer->timeout_ms : 0) != 0) {
		batch_park(batch);
		return false;
	}
	batch->due = due;
	batch->shared = !periodic && !hidden;
	if (hidden) {
		/* A background timer (a pool healthcheck) must not keep the loop alive either. */
		uv_unref((uv_handle_t *) &batch->uv);
	}
	/* the newest batch is the only one open: order within a millisecond stays start order */
	ASYNC_G(timer_batch_open) = batch->shared ? batch : NULL;
	batch_append(batch, timer);
	return true;
}

static bool timer_start(zend_async_event_t *event)
{
	async_timer_t *timer = (async_timer_t *) event;
	if (ZEND_ASYNC_EVENT_IS_CLOSED(event) || ZEND_ASYNC_EVENT_HAS(event, ASYNC_EVENT_F_DETACHED)) {
		return true;
	}
	if (!async__reactor_first_start(event)) {
		return true;
	}
	uv_loop_t *loop = ASYNC_G(loop);
	if (UNEXPECTED(loop == NULL)) {
		/* made before request shutdown closed the loop, started after: as a detached one */
		ZEND_ASYNC_EVENT_SET(event, ASYNC_EVENT_F_DETACHED);
		event->loop_ref_count = 0;
		return true;
	}
	if (!timer_arm(timer, loop)) {
		async__reactor_start_failed(event);
		return false;
	}
	async__reactor_event_count_on(event);
	return true;
}

static bool timer_stop(zend_async_event_t *event)
{
	if (!async__reactor_last_stop(event)) {
		return true;
	}
	timer_disarm((async_timer_t *) event);
	async__reactor_event_count_off(event);
	return true;
}

/* No handle of its own to close: the last reference frees it at once. */
static bool timer_dispose(zend_async_event_t *event)
{
	if (!async__reactor_last_ref(event)) {
		return true;
	}
	timer_disarm((async_timer_t *) event);
	async__reactor_event_count_off(event);
	event->loop_ref_count = 0;
	zend_async_callbacks_free(event);
	efree(event);
	return true;
}

bool async__reactor_timer_rearm(zend_async_timer_event_t *t, zend_ulong timeout_ms)
{
	async_timer_t *timer = (async_timer_t *) t;
	zend_async_event_t *event = &t->base;
	if (event->start != timer_start || t->is_periodic || event->loop_ref_count != 0 || event->callbacks.length != 0
		|| ZEND_ASYNC_EVENT_HAS(event, ASYNC_EVENT_F_DETACHED)) {
		return false; /* in use, or the loop is gone */
	}
	ZEND_ASSERT(timer->batch == NULL);
	timer->timeout_ms = timeout_ms;
	t->timeout = (unsigned int) timeout_ms;
	ZEND_ASYNC_EVENT_CLR(event, ZEND_ASYNC_EVENT_F_CLOSED); /* a one-shot that fired may go again */
	return true;
}

static zend_string *timer_info(zend_async_event_t *event)
{
	async_timer_t *timer = (async_timer_t *) event;
	return zend_strpprintf(0, "Timer(%" PRIu64 " ms%s)", timer->timeout_ms, timer->event.is_periodic ? ", periodic" : "");
}

static const async_event_methods_t timer_methods = {
	.start = timer_start, .stop = timer_stop, .dispose = timer_dispose, .info = timer_info,
};

zend_async_timer_event_t *async__reactor_new_timer_event(zend_ulong timeout_ms, zend_ulong nanoseconds,
	bool is_periodic, size_t extra_size)
{
	async_clock_t *clock = async__clock_current();
	if (clock != NULL) {
		/* inside a bubble of virtual time: the clock's own timer, not libuv's */
		uint64_t ns = timeout_ms > (UINT64_MAX - nanoseconds) / 1000000 ? UINT64_MAX : timeout_ms * 1000000 + nanoseconds;
		return async__clock_new_timer(clock, ns, is_periodic, extra_size);
	}
	if (async__reactor_loop_or_throw() == NULL) {
		return NULL;
	}
	async_timer_t *timer = ecalloc(1, sizeof(async_timer_t) + extra_size);
	async__event_init(&timer->event.base, &timer_methods);
	/* libuv timers have millisecond resolution: round sub-millisecond waits up. */
	zend_ulong extra_ms = (nanoseconds + 999999) / 1000000;
	timer->timeout_ms = timeout_ms > UINT64_MAX - extra_ms ? UINT64_MAX : timeout_ms + extra_ms;
	timer->event.timeout = (unsigned int) timer->timeout_ms;
	timer->event.is_periodic = is_periodic;
	if (is_periodic) {
		ZEND_ASYNC_EVENT_SET(&timer->event.base, ZEND_ASYNC_TIMER_F_MULTISHOT);
	}
	return &timer->event;
}

/* ---------------------------------------------------------------------------------------------
 * Request shutdown
 * ------------------------------------------------------------------------------------------- */

static void batch_close_walk_cb(uv_handle_t *handle, void *arg)
{
	(void) arg;
	if (handle->data != &batch_marker || uv_is_closing(handle)) {
		return;
	}
	async_timer_batch_t *batch = (async_timer_batch_t *) handle;
	async_timer_t *timer;
	/* members still owned (a coroutine suspended at a fatal error): never armed again */
	while ((timer = batch_head(batch)) != NULL) {
		batch_unlink(timer);
		ZEND_ASYNC_EVENT_SET(&timer->event.base, ASYNC_EVENT_F_DETACHED);
	}
	uv_close(handle, batch_close_cb);
}

static void timers_close(uv_loop_t *loop)
{
	uv_walk(loop, batch_close_walk_cb, NULL);
	ASYNC_G(timer_batch_open) = NULL;
	ASYNC_G(timer_batch_free) = NULL; /* closed by the walk: freed by their close callbacks */
	ASYNC_G(timer_batch_free_count) = 0;
	ASYNC_G(timer_batch_firing) = NULL;
}

zend_result async__reactor_timer_minit(void)
{
	static const async_reactor_part_t part = { .close = timers_close }; /* per-process: constant */
	async__reactor_add_part(&part);
	zend_async_reactor_api_t api = { .new_timer_event = async__reactor_new_timer_event };
	/* false: another implementation of this ABI table is registered */
	return zend_async_reactor_register(ASYNC_REACTOR_NAME, false, &api) ? SUCCESS : FAILURE;
}
