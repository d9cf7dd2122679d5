/*
 * reactor_uv.h — what the reactor's files (reactor*.c) share: the per-request libuv loop and the
 * common handle lifecycle of its events (see reactor.c). The only header that includes <uv.h>:
 * nothing above the reactor sees libuv (reactor.h is their view of it).
 */
#ifndef ASYNC_REACTOR_UV_H
#define ASYNC_REACTOR_UV_H

#include "php_async.h"
#include "reactor.h"
#include <uv.h>

/* Set on an event whose handle was closed by request shutdown while something still owned it
 * (after a fatal error, suspended coroutines keep their wakers until their objects are freed).
 * Its owner's final dispose then only frees the memory. */
#define ASYNC_EVENT_F_DETACHED (1u << 31)
/* Set while a started hidden event is counted in hidden_event_count (reactor.c), not in
 * active_event_count. */
#define ASYNC_EVENT_F_COUNTED_HIDDEN (1u << 30)

/* Registration name of the reactor table: every file registering a slot uses it. */
#define ASYNC_REACTOR_NAME "libuv"

/* The request's loop, created on first use; NULL if libuv could not initialise it. */
uv_loop_t *async_reactor_loop(void);
/* The same for an event's constructor: NULL with the one "cannot initialise" Error thrown. */
uv_loop_t *async_reactor_loop_or_throw(void);

/* The start/stop reference count every reactor event keeps in loop_ref_count: the first start
 * arms the libuv handle, the last stop disarms it, extra stops are harmless.
 *
 *     if (!async_reactor_first_start(event)) return true;   // already armed
 *     if (uv_xxx_start(...) != 0) { async_reactor_start_failed(event); return false; }
 *     ...
 *     if (!async_reactor_last_stop(event)) return true;     // others still wait
 *     uv_xxx_stop(...);
 */
static zend_always_inline bool async_reactor_first_start(zend_async_event_t *event)
{
	return event->loop_ref_count++ == 0;
}

static zend_always_inline void async_reactor_start_failed(zend_async_event_t *event)
{
	ZEND_ASSERT(event->loop_ref_count == 1 && "only the first start arms the handle");
	event->loop_ref_count = 0;
}

static zend_always_inline bool async_reactor_last_stop(zend_async_event_t *event)
{
	return event->loop_ref_count > 0 && --event->loop_ref_count == 0;
}
/* dispose()'s reference count: drops one and says whether that was the last (ref_count is then 0
 * and the caller frees the event):
 *
 *     if (!async_reactor_last_ref(event)) return true;   // others still hold it
 */
static zend_always_inline bool async_reactor_last_ref(zend_async_event_t *event)
{
	if (event->ref_count > 1) {
		event->ref_count--;
		return false;
	}
	event->ref_count = 0;
	return true;
}

/* A callback delivered something: make the running uv_run() return. */
void async_reactor_delivered(uv_loop_t *loop);
/* Before each uv_run(): drops the new watches of descriptors closed behind our back (reactor_poll.c). */
void async_poll_before_run(void);
/* The methods of a reactor event; the callback vector's are the ABI defaults. */
typedef struct {
	bool (*start)(zend_async_event_t *event);
	bool (*stop)(zend_async_event_t *event);
	bool (*dispose)(zend_async_event_t *event);
	zend_string *(*info)(zend_async_event_t *event);
} async_reactor_methods_t;

/* start()/stop() of an event that has no handle to arm (a lookup already submitted, an I/O
 * handle whose requests arm themselves): they only count it as something the program waits
 * for, first start to last stop. */
bool async_reactor_counting_start(zend_async_event_t *event);
bool async_reactor_counting_stop(zend_async_event_t *event);

/* A new event: ref_count 1, the default callback vector methods and these. */
void async_reactor_event_init(zend_async_event_t *event, const async_reactor_methods_t *methods);
/* Count the event in active_event_count (unless hidden) / stop counting it; both idempotent. */
void async_reactor_event_count_on(zend_async_event_t *event);
void async_reactor_event_count_off(zend_async_event_t *event);
/* Request shutdown closed the event's handle while something still owned the event. */
bool async_reactor_event_detached(zend_async_event_t *event);
/* dispose(): drops one reference; at zero the handle is closed and freed by close_cb. The event
 * struct must be the start of the allocation. */
bool async_reactor_handle_release(zend_async_event_t *event, uv_handle_t *handle, uv_close_cb close_cb);
/* dispose() of an event whose libuv request (a lookup, pool work) may still be in flight: drops
 * one reference (HELD while others remain); at zero the event stops counting, and with the
 * request still libuv's its subscribers are freed (ORPHANED: the caller marks it so, and the
 * request's callback frees it), else the caller frees it now (FREE). */
typedef enum { ASYNC_REQUEST_HELD, ASYNC_REQUEST_ORPHANED, ASYNC_REQUEST_FREE } async_request_release_t;
async_request_release_t async_reactor_request_release(zend_async_event_t *event, bool in_flight);

/* reactor_timer.c: the table's new_timer_event, and request shutdown's closing of the timer
 * batches (before the loop's other handles; their owners' timers are detached). */
zend_async_timer_event_t *async_reactor_new_timer_event(zend_ulong timeout_ms, zend_ulong nanoseconds,
	bool is_periodic, size_t extra_size);
void async_reactor_timers_shutdown(uv_loop_t *loop);

#endif /* ASYNC_REACTOR_UV_H */
