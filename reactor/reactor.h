/*
 * reactor/reactor.h — the reactor layer (reactor/, and the spine's libuv_reactor.c): the libuv-free
 * view the layers above call; with ASYNC_REACTOR_UV defined before it (the reactor's own files
 * only), also what they share about libuv's loop and handles.
 */
#ifndef ASYNC_REACTOR_H
#define ASYNC_REACTOR_H

#include "php.h"
#include "zend_async_API.h"
#include "core/core.h"
#include <netinet/in.h>

/*
 * libuv_reactor.c — the reactor (reactor*.c) as the layers above see it: what the module entry
 * registers and shuts down, the DNS lookup events of the hooks, and the system facts libuv reads.
 * No libuv type appears here; the reactor's own files share reactor/reactor.h.
 *
 * Everything else of the reactor is reached through the ABI's tables (ZEND_ASYNC_NEW_TIMER_EVENT,
 * ZEND_ASYNC_NEW_POLL_PROXY_EVENT, ZEND_ASYNC_IO_*, ...) and the descriptor-wait API
 * (async_io_wait.h).
 */

/* libuv_reactor.c: the loop, timers and triggers (MINIT: the reactor table; request end: every handle
 * closed and the loop run until they are). */
zend_result async__reactor_minit(void);
zend_result async__reactor_timer_minit(void);
void async__reactor_rshutdown(void);

/* In a forked child: the loop inherited from the parent is re-armed (uv_loop_fork()), so the
 * two processes do not share its epoll instance. */
void async__reactor_after_fork(void);

/* reactor/poll.c: the poll slots; every poll dropped at request end (before the reactor). */
zend_result async__reactor_poll_minit(void);
void async__reactor_poll_rshutdown(void);

/* reactor/io.c: the ABI's unified I/O handle slots (zend_async_io_api). */
zend_result async__reactor_io_minit(void);

/* reactor/signal.c: the signal slot; request end disarms every armed signal event and puts back
 * the dispositions it replaced. */
zend_result async__reactor_signal_minit(void);
void async__reactor_signal_rshutdown(void);

/* reactor/work.c: the work slot (a C function on libuv's thread pool); request end detaches
 * what is still in flight. */
zend_result async__reactor_work_minit(void);
void async__reactor_work_rshutdown(void);

/* reactor/process.c: the process-exit slot (a pidfd poll, or waitid() polled; never reaps). */
zend_result async__reactor_process_minit(void);

/* reactor/fs_event.c: the filesystem slot; request end closes the handles of every live event. */
zend_result async__reactor_fs_minit(void);
void async__reactor_fs_rshutdown(void);

/* ---------------------------------------------------------------------------------------------
 * reactor/dns.c: lookups on libuv's thread pool
 *
 * The ABI slots getaddrinfo / getnameinfo / freeaddrinfo, plus gethostbyname_r(), because PHP's
 * gethostbyname()/gethostbynamel() are built on it and its answers (order, duplicates,
 * /etc/hosts handling) differ from getaddrinfo()'s.
 *
 * Events are one-shot C events (ref-counted). A lookup is submitted when the event is created;
 * the event completes (F_CLOSED) when the thread pool answers. Subscribers are notified with
 * result = the event's result field and, on failure, a DnsException whose code is the resolver's
 * own error (EAI_* or h_errno). The event owns its result: dispose frees it unless the taker set
 * the field to NULL (an addrinfo list is then freed with ZEND_ASYNC_FREEADDRINFO). Dropping the
 * last reference while the lookup runs is allowed: the memory is freed when the thread pool
 * gives the request back.
 * ------------------------------------------------------------------------------------------- */

/* gethostbyname_r() on the thread pool: the IPv4 addresses of the answer, in its order. */
typedef struct {
	zend_async_event_t base;
	const char *name;
	uint32_t count;
	struct in_addr *addrs; /* count entries (owned by the event) */
} async_dns_hostent_t;

zend_result async__reactor_dns_minit(void);
void async__reactor_dns_rshutdown(void); /* before the reactor's own shutdown: in-flight lookups deliver nothing */
async_dns_hostent_t *async__dns_new_hostent(const char *name);
/* The resolver's status of a completed lookup: 0, EAI_* (getaddrinfo/getnameinfo) or h_errno
 * (hostent). A request that never ran reports EAI_SYSTEM / NO_RECOVERY. */
int async__dns_status(zend_async_event_t *event);

/* ---------------------------------------------------------------------------------------------
 * libuv_reactor.c: what libuv knows of the machine
 * ------------------------------------------------------------------------------------------- */

/* libuv's version string (the running library's). */
const char *async__reactor_version(void);
/* A one-shot timer that is idle (stopped, or fired) takes a new timeout, to be started again by
 * the next wait on it. False when it is in use or its handle is gone: make a new one. */
bool async__reactor_timer_rearm(zend_async_timer_event_t *timer, zend_ulong timeout_ms);
/* The libuv headers the module was built against. */
const char *async__reactor_version_compiled(void);

/* Monotonic nanoseconds (the clock of every deadline). */
uint64_t async_reactor_hrtime(void);

/* CPU clocks at one instant, in nanoseconds; a source that cannot be read stays 0. */
typedef struct _async_cpu_times_s {
	uint64_t wall_ns;   /* async_reactor_hrtime() */
	uint64_t user_ns;   /* this process */
	uint64_t system_ns;
	uint64_t idle_ns;   /* every CPU of the machine, summed */
	uint64_t busy_ns;   /* user + nice + sys + irq */
	uint32_t cpu_count;
} async_cpu_times_t;

void async__reactor_cpu_times(async_cpu_times_t *times);
/* [1m, 5m, 15m] (zeros where the OS has none). */
void async__reactor_loadavg(double avg[3]);

#ifdef ASYNC_REACTOR_UV
#include <uv.h>

/*
 * reactor_uv — what the reactor's files (reactor*.c) share: the per-request libuv loop and the
 * common handle lifecycle of its events (see libuv_reactor.c). The only header that includes <uv.h>:
 * nothing above the reactor sees libuv (reactor.h is their view of it).
 */

/* Set on an event whose handle was closed by request shutdown while something still owned it
 * (after a fatal error, suspended coroutines keep their wakers until their objects are freed).
 * Its owner's final dispose then only frees the memory. */
#define ASYNC_EVENT_F_DETACHED (1u << 31)
/* Set while a started hidden event is counted in hidden_event_count (libuv_reactor.c), not in
 * active_event_count. */
#define ASYNC_EVENT_F_COUNTED_HIDDEN (1u << 30)

/* Registration name of the reactor table: every file registering a slot uses it. */
#define ASYNC_REACTOR_NAME "libuv"

/* The request's loop, created on first use; NULL if libuv could not initialise it. */
uv_loop_t *async__reactor_loop(void);
/* The same for an event's constructor: NULL with the one "cannot initialise" Error thrown. */
uv_loop_t *async__reactor_loop_or_throw(void);

/* The start/stop reference count every reactor event keeps in loop_ref_count: the first start
 * arms the libuv handle, the last stop disarms it, extra stops are harmless.
 *
 *     if (!async__reactor_first_start(event)) return true;   // already armed
 *     if (uv_xxx_start(...) != 0) { async__reactor_start_failed(event); return false; }
 *     ...
 *     if (!async__reactor_last_stop(event)) return true;     // others still wait
 *     uv_xxx_stop(...);
 */
static zend_always_inline bool async__reactor_first_start(zend_async_event_t *event)
{
	return event->loop_ref_count++ == 0;
}

static zend_always_inline void async__reactor_start_failed(zend_async_event_t *event)
{
	ZEND_ASSERT(event->loop_ref_count == 1 && "only the first start arms the handle");
	event->loop_ref_count = 0;
}

static zend_always_inline bool async__reactor_last_stop(zend_async_event_t *event)
{
	return event->loop_ref_count > 0 && --event->loop_ref_count == 0;
}
/* dispose()'s reference count: drops one and says whether that was the last (ref_count is then 0
 * and the caller frees the event):
 *
 *     if (!async__reactor_last_ref(event)) return true;   // others still hold it
 */
static zend_always_inline bool async__reactor_last_ref(zend_async_event_t *event)
{
	if (event->ref_count > 1) {
		event->ref_count--;
		return false;
	}
	event->ref_count = 0;
	return true;
}

/* A callback delivered something: make the running uv_run() return. */
void async__reactor_delivered(uv_loop_t *loop);

/* start()/stop() of an event that has no handle to arm (a lookup already submitted, an I/O
 * handle whose requests arm themselves): they only count it as something the program waits
 * for, first start to last stop. */
bool async__reactor_counting_start(zend_async_event_t *event);
bool async__reactor_counting_stop(zend_async_event_t *event);

/* Count the event in active_event_count (unless hidden) / stop counting it; both idempotent. */
void async__reactor_event_count_on(zend_async_event_t *event);
void async__reactor_event_count_off(zend_async_event_t *event);
/* Request shutdown closed the event's handle while something still owned the event. */
bool async__reactor_event_detached(zend_async_event_t *event);
/* dispose(): drops one reference; at zero the handle is closed and freed by close_cb. The event
 * struct must be the start of the allocation. */
bool async__reactor_handle_release(zend_async_event_t *event, uv_handle_t *handle, uv_close_cb close_cb);
/* dispose() of an event whose libuv request (a lookup, pool work) may still be in flight: drops
 * one reference (HELD while others remain); at zero the event stops counting, and with the
 * request still libuv's its subscribers are freed (ORPHANED: the caller marks it so, and the
 * request's callback frees it), else the caller frees it now (FREE). */
typedef enum { ASYNC_REQUEST_HELD, ASYNC_REQUEST_ORPHANED, ASYNC_REQUEST_FREE } async_request_release_t;
async_request_release_t async__reactor_request_release(zend_async_event_t *event, bool in_flight);

/* The reactor's parts (timers, polls, signals) as the loop sees them: what each does before the
 * loop runs, and when the loop closes. A part adds itself at its MINIT; libuv_reactor.c names
 * none of them. */
typedef struct {
	/* before every run of the loop; `blocking`: the run may wait for events */
	void (*before_run)(bool blocking);
	/* the request's loop closes: before the other handles are walked and closed */
	void (*close)(uv_loop_t *loop);
} async_reactor_part_t;
void async__reactor_add_part(const async_reactor_part_t *part);

/* timer.c: the table's new_timer_event and the timer batches (closed before the loop's other
 * handles at the request's end; their owners' timers are detached). */
zend_async_timer_event_t *async__reactor_new_timer_event(zend_ulong timeout_ms, zend_ulong nanoseconds,
	bool is_periodic, size_t extra_size);

#endif /* ASYNC_REACTOR_UV */

#endif /* ASYNC_REACTOR_H */
