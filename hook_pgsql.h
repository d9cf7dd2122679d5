/*
 * hook_pgsql.h — what the three parts of the PostgreSQL hook share (private to hook_pgsql*.c).
 *
 * - hook_pgsql.c: libpq's own waits. libpq blocks only in poll() on its socket and in
 *   getaddrinfo(); its imports of those (and of close()) are redirected, and so is pdo_pgsql's
 *   poll() (getNotify() with a timeout). Install, request end, uninstall.
 * - hook_pgsql_conn.c: which coroutine is inside which connection. The drivers' imports of the
 *   libpq functions that touch a connection's socket are redirected: one coroutine at a time per
 *   connection (its turn), and a record of the call, which the waits above find.
 * - hook_pgsql_cancel.c: what a cancellation of a waiting call does: the server is asked to
 *   cancel the statement, libpq reads its answer (the connection stays usable), within a grace.
 *
 * libpq is never linked: its functions are looked up through the drivers' own module handles, so
 * the hook always talks to the libpq the drivers use.
 */
#ifndef ASYNC_HOOK_PGSQL_H
#define ASYNC_HOOK_PGSQL_H

#include "php.h"
#include "zend_async_API.h"
#include "async_ring.h"
#include "async_io_wait.h"
#include <poll.h>
#include <libpq-fe.h>

/* libpq's functions the hook calls itself (the real ones: nothing redirects the hook's calls). */
typedef struct {
	__typeof__(PQsocket) *socket;
	__typeof__(PQstatus) *status;
	__typeof__(PQgetCancel) *get_cancel;
	__typeof__(PQcancel) *cancel;
	__typeof__(PQfreeCancel) *free_cancel;
	__typeof__(PQmakeEmptyPGresult) *make_empty_result;
	__typeof__(PQresultStatus) *result_status;
	__typeof__(PQclear) *clear;
	__typeof__(PQfreemem) *freemem;
	__typeof__(PQgetResult) *get_result;
	__typeof__(PQputCopyEnd) *put_copy_end;
	__typeof__(PQgetCopyData) *get_copy_data;
	__typeof__(PQfinish) *finish;
} async_pq_api_t;

/* per-process: filled once at MINIT by async_pq_api_load() */
extern async_pq_api_t async_pq_api;

/* Looks every function up through a driver's module handle (NULL: the process's global scope,
 * for a driver built into PHP). False when one is missing. */
bool async_pq_api_load(void *dl_handle);

/* What a cancellation of the call's waits means. */
typedef enum {
	PQ_CALL_QUERY,    /* on a made connection: the server is asked to cancel, libpq reads its answer */
	PQ_CALL_CONNECT,  /* making or resetting a connection: the attempt is given up at once */
	PQ_CALL_CLOSE,    /* PQfinish(): the connection is dropped at once */
} pq_call_kind_t;

typedef struct _pq_conn_s pq_conn_t;
typedef struct _pq_call_s pq_call_t;

/* One redirected libpq call made in a coroutine, on that coroutine's C stack while it runs. The
 * waits inside it (poll(), getaddrinfo()) find it by the coroutine (async_pq_call_current()). */
struct _pq_call_s {
	PGconn *conn;              /* NULL while a connect makes it */
	pq_conn_t *state;          /* the connection's turn (NULL for a connect) */
	zend_coroutine_t *co;
	pq_call_t *outer;          /* the call this coroutine was inside already (a notice callback's query) */
	pq_call_kind_t kind;
	zend_object *interrupted;  /* the cancellation that ended a wait, kept aside until the call returns */
	uint64_t grace_end_ns;     /* from the interruption: the cancel and libpq's reading of the answer */
	bool blocking;             /* waits are libc's own (a persistent connection's first connect) */
	bool cancel_sent;          /* the server was asked to cancel the statement */
	bool cancel_failed;        /* ... and said no, or could not be reached */
	bool cut;                  /* the grace passed: the socket was shut down */
	char cancel_error[128];    /* what PQcancel() said when it failed */
};

/* hook_pgsql_conn.c: the innermost call of the current coroutine, or NULL. */
pq_call_t *async_pq_call_current(void);

/* hook_pgsql_conn.c: true the first time the call's connection waits for `fd` in this request:
 * the poll registry is then told the descriptor's closes are announced (async_io_fd_track()). */
bool async_pq_call_track(pq_call_t *call, int fd);

/* poll()'s events as the descriptor-wait API's mask, and back. */
static inline int async_pq_poll_mask(short events)
{
	return ((events & POLLIN) ? ASYNC_POLL_READ : 0) | ((events & POLLOUT) ? ASYNC_POLL_WRITE : 0)
		| ((events & POLLPRI) ? ASYNC_POLL_PRI : 0);
}

static inline short async_pq_poll_revents(int ready, short events)
{
	short revents = 0;
	if (ready & ASYNC_POLL_READ) {
		revents |= POLLIN;
	}
	if (ready & ASYNC_POLL_WRITE) {
		revents |= POLLOUT;
	}
	if (ready & ASYNC_POLL_PRI) {
		revents |= POLLPRI;
	}
	if (ready & (ASYNC_POLL_ERROR | ASYNC_POLL_CLOSED)) {
		revents |= POLLERR | POLLHUP;
	}
	return (short) (revents & (events | POLLERR | POLLHUP));
}

/* hook_pgsql_conn.c: redirects the imports of libpq of the driver whose object holds
 * `driver_anchor` into table `slot` (0 pgsql, 1 pdo_pgsql) at MINIT; false when they could not all
 * be (nothing is left redirected then). Put back at MSHUTDOWN. At request end every call a
 * coroutine was left inside gets a blocking cancel, then the states go. */
bool async_pq_conn_install(const void *driver_anchor, void *dl_handle, size_t slot);
void async_pq_conn_uninstall(void);
void async_pq_conn_rshutdown(void);

/* hook_pgsql_cancel.c ------------------------------------------------------------------------ */

/* True on a thread of libuv's pool running a cancel request: the redirected imports go straight
 * to libc there (nothing of PHP's may be touched off the request's thread). */
bool async_pq_on_pool_thread(void);

/* A wait of `call` ended with an exception: it is taken out of EG(exception) and kept in the call
 * (the first one; a later one is dropped unless it is a forced exit), and the grace starts. */
void async_pq_call_interrupt(pq_call_t *call);

/* libpq's poll() of `fd` inside an interrupted call: the cancel request is sent once libpq waits
 * to read (its query is out), then the wait goes on until the grace ends, when the socket is shut
 * down (libpq then sees the connection closed). What poll() returns: 1 ready, 0 on libpq's own
 * timeout, -1 with errno ECANCELED for a connect or a close (given up at once). */
int async_pq_cancel_poll(pq_call_t *call, struct pollfd *pfd, int timeout_ms);

/* After an interrupted query call returned: reads what the connection still sends until it is
 * idle (a COPY is ended), so the next call on it starts clean. */
void async_pq_cancel_drain(pq_call_t *call);

/* A blocking cancel request for a connection whose call can never return (its coroutine was
 * dropped: a fatal error, the request ending). */
void async_pq_cancel_blocking(PGconn *conn);

/* The cancel request of a driver (PQcancel(), PQrequestCancel()) on the pool while the coroutine
 * waits; blocking where switching is impossible. PQcancel()'s contract. */
int async_pq_cancel_request(PGcancel *cancel, char *errbuf, int errbufsize);

#endif /* ASYNC_HOOK_PGSQL_H */
