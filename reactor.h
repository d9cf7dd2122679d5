/*
 * reactor.h — the reactor (reactor*.c) as the layers above see it: what the module entry
 * registers and shuts down, the DNS lookup events of the hooks, and the system facts libuv reads.
 * No libuv type appears here; the reactor's own files share reactor_uv.h.
 *
 * Everything else of the reactor is reached through the ABI's tables (ZEND_ASYNC_NEW_TIMER_EVENT,
 * ZEND_ASYNC_NEW_POLL_PROXY_EVENT, ZEND_ASYNC_IO_*, ...) and the descriptor-wait API
 * (async_io_wait.h).
 */
#ifndef ASYNC_REACTOR_H
#define ASYNC_REACTOR_H

#include "php.h"
#include "zend_async_API.h"
#include <netinet/in.h>

/* reactor.c: the loop, timers and triggers (MINIT: the reactor table; request end: every handle
 * closed and the loop run until they are). */
void async_reactor_register(void);
void async_reactor_rshutdown(void);

/* In a forked child: the loop inherited from the parent is re-armed (uv_loop_fork()), so the
 * two processes do not share its epoll instance. */
void async_reactor_after_fork(void);

/* reactor_poll.c: the poll slots; every poll dropped at request end (before the reactor). */
void async_poll_register(void);
void async_poll_rshutdown(void);

/* reactor_io.c: the ABI's unified I/O handle slots (zend_async_io_api). */
void async_io_register(void);

/* reactor_signal.c: the signal slot; request end disarms every armed signal event and puts back
 * the dispositions it replaced. */
void async_reactor_signal_register(void);
void async_reactor_signal_rshutdown(void);
/* Before the loop blocks: a handler installed over an armed wait's (pcntl_signal()) is moved
 * aside, to be forwarded to, and the wait's is put back. */
void async_reactor_signal_reclaim(void);

/* reactor_work.c: the work slot (a C function on libuv's thread pool); request end detaches
 * what is still in flight. */
void async_work_reactor_register(void);
void async_work_rshutdown(void);

/* reactor_process.c: the process-exit slot (a pidfd poll, or waitid() polled; never reaps). */
void async_reactor_process_register(void);

/* reactor_fs_event.c: the filesystem slot; request end closes the handles of every live event. */
void async_reactor_fs_register(void);
void async_reactor_fs_rshutdown(void);

/* ---------------------------------------------------------------------------------------------
 * reactor_dns.c: lookups on libuv's thread pool
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

void async_dns_reactor_register(void);
void async_dns_rshutdown(void); /* before the reactor's own shutdown: in-flight lookups deliver nothing */
async_dns_hostent_t *async_dns_new_hostent(const char *name);
/* The resolver's status of a completed lookup: 0, EAI_* (getaddrinfo/getnameinfo) or h_errno
 * (hostent). A request that never ran reports EAI_SYSTEM / NO_RECOVERY. */
int async_dns_status(zend_async_event_t *event);

/* ---------------------------------------------------------------------------------------------
 * reactor.c: what libuv knows of the machine
 * ------------------------------------------------------------------------------------------- */

/* libuv's version string (the running library's). */
const char *async_reactor_version(void);
/* A one-shot timer that is idle (stopped, or fired) takes a new timeout, to be started again by
 * the next wait on it. False when it is in use or its handle is gone: make a new one. */
bool async_reactor_timer_rearm(zend_async_timer_event_t *timer, zend_ulong timeout_ms);
/* The libuv headers the module was built against. */
const char *async_reactor_version_compiled(void);

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

void async_reactor_cpu_times(async_cpu_times_t *times);
/* [1m, 5m, 15m] (zeros where the OS has none). */
void async_reactor_loadavg(double avg[3]);

#endif /* ASYNC_REACTOR_H */
