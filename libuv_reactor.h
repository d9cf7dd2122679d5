/*
 * libuv_reactor.h — what the reactor's event files (reactor_*.c) share with libuv_reactor.c:
 * the per-request loop and the common handle lifecycle of its events (see libuv_reactor.c).
 */
#ifndef ASYNC_LIBUV_REACTOR_H
#define ASYNC_LIBUV_REACTOR_H

#include "php_async.h"

/* Set on an event whose handle was closed by request shutdown while something still owned it
 * (after a fatal error, suspended coroutines keep their wakers until their objects are freed).
 * Its owner's final dispose then only frees the memory. */
#define ASYNC_EVENT_F_DETACHED (1u << 31)

/* Registration name of the reactor table: every file registering a slot uses it. */
#define ASYNC_REACTOR_NAME "libuv"

/* The request's loop, created on first use; NULL if libuv could not initialise it. */
uv_loop_t *async_reactor_loop(void);
/* A callback delivered something: make the running uv_run() return. */
void async_reactor_delivered(uv_loop_t *loop);
/* ref_count 1 and the default callback vector methods. */
void async_reactor_event_init(zend_async_event_t *event);
/* Count the event in active_event_count (unless hidden) / stop counting it; both idempotent. */
void async_reactor_event_count_on(zend_async_event_t *event);
void async_reactor_event_count_off(zend_async_event_t *event);
/* Request shutdown closed the event's handle while something still owned the event. */
bool async_reactor_event_detached(zend_async_event_t *event);
/* dispose(): drops one reference; at zero the handle is closed and freed by close_cb. The event
 * struct must be the start of the allocation. */
bool async_reactor_handle_release(zend_async_event_t *event, uv_handle_t *handle, uv_close_cb close_cb);

/* reactor_signal.c */
void async_reactor_signal_register(void);
/* Request end: disarms every armed signal event and puts back the dispositions it replaced. */
void async_reactor_signal_rshutdown(void);

#endif /* ASYNC_LIBUV_REACTOR_H */
