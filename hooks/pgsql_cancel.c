/*
 * hooks/pgsql_cancel.c — a coroutine cancelled while libpq waits for the server.
 *
 * Stopping the wait is not enough: the backend would go on running the statement, and libpq's
 * connection would be left half-way through a protocol exchange. So the cancellation is kept
 * aside (async__pq_call_interrupt()), and the call goes on, bounded by async.pgsql_cancel_grace_ms:
 *
 * 1. once libpq waits to read (its query is out), the server is asked to cancel the statement:
 *    PQcancel(), which opens a connection of its own and waits for the server to take the
 *    request, runs on libuv's thread pool while the coroutine waits for it. The next step waits
 *    for it to finish, because a cancel request arriving late could hit the connection's next
 *    statement instead;
 * 2. libpq reads the server's answer ("canceling statement due to user request") and returns;
 *    the wrapper (hooks/pgsql_conn.c) then reads whatever the connection still sends until it is
 *    idle, ending a COPY (async__pq_cancel_drain()), so the next query works. In a transaction,
 *    that transaction is in the failed state, as after any error;
 * 3. the cancellation goes up from the driver's call.
 *
 * When the grace ends first (a server that does not answer: stopped, or a network gone), the
 * socket is shut down: libpq sees the connection closed, and the wrapper says why in a warning.
 * A connect or a close is simply given up (errno ECANCELED from poll(): libpq's connect fails
 * at once, and tries no further host). Cancellations that arrive during all this (a second
 * cancel, a timeout) are absorbed into the first; a forced exit replaces it.
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif
#include "php_async.h"
#include "hooks/hooks.h"

#ifdef HAVE_ASYNC_PGSQL

#include "async_io_wait.h"
#include "core/core.h"
#include "zend_exceptions.h"
#include <poll.h>
#include <sys/socket.h>

/* per-process: a thread's own flag (never request state): set on a pool thread while it runs a
 * cancel request */
static __thread bool pq_on_pool;

bool async__pq_on_pool_thread(void)
{
	return pq_on_pool;
}

/* Keeps EG(exception) in *kept: the first one stays, unless the new one is a forced exit (the
 * runtime unwinding the coroutine), which wins. */
static void pq_absorb(zend_object **kept)
{
	zend_object *exception = EG(exception);
	ZEND_ASSERT(exception != NULL);
	EG(exception) = NULL; /* inside a driver's internal function: no opline to restore */
	if (*kept == NULL) {
		*kept = exception;
	} else if (zend_is_unwind_exit(exception) || zend_is_graceful_exit(exception)) {
		OBJ_RELEASE(*kept);
		*kept = exception;
	} else {
		OBJ_RELEASE(exception);
	}
}

void async__pq_call_interrupt(pq_call_t *call)
{
	if (call->interrupted == NULL) {
		call->grace_end_ns = async_monotonic_ns() + (uint64_t) ASYNC_G(pgsql_cancel_grace_ms) * 1000000u;
	}
	pq_absorb(&call->interrupted);
}

static zend_long pq_ms_until(uint64_t end_ns)
{
	uint64_t now = async_monotonic_ns();
	return end_ns > now ? (zend_long) ((end_ns - now + 999999) / 1000000) : 0;
}

/* ---------------------------------------------------------------------------------------------
 * The cancel request on the pool
 * ------------------------------------------------------------------------------------------- */

/* In the work event's extra area. */
typedef struct {
	PGcancel *cancel;
	bool free_cancel;   /* the job frees it: the waiter may stop waiting before the job ends */
	int ok;
	char errbuf[256];
} pq_cancel_job_t;

#define PQ_JOB(work) ((pq_cancel_job_t *) ((char *) (work) + (work)->base.extra_offset))

/* On a pool thread: libpq only. */
static void pq_cancel_run(zend_async_work_event_t *work)
{
	pq_cancel_job_t *job = PQ_JOB(work);
	pq_on_pool = true;
	job->ok = async__pq_api.cancel(job->cancel, job->errbuf, (int) sizeof(job->errbuf));
	if (job->free_cancel) {
		async__pq_api.free_cancel(job->cancel);
	}
	pq_on_pool = false;
	work->result = job->ok;
}

/* Nobody waits any more: the job still runs (it frees what it holds), its answer is dropped. */
static void pq_cancel_abandon(zend_async_work_event_t *work)
{
	(void) work;
}

/* Waits for the job until end_ns (0: no end), the exceptions meanwhile kept in *kept. False when
 * it did not finish by then, or the wait became impossible (the request is ending). */
static bool pq_job_wait(zend_async_work_event_t *work, uint64_t end_ns, zend_object **kept)
{
	for (int tries = 0; !ZEND_ASYNC_EVENT_IS_CLOSED(&work->base); tries++) {
		zend_long ms = end_ns != 0 ? pq_ms_until(end_ns) : -1;
		if (ms == 0 || tries > 100 || !async_io_can_wait()) {
			return false;
		}
		zend_coroutine_t *co = async__wait_begin(NULL, "wait for a PostgreSQL cancel request");
		if (co == NULL) {
			if (!EG(exception)) {
				return false;
			}
			pq_absorb(kept);
			continue;
		}
		bool ok = async__wait_on(co, &work->base, false, zend_async_waker_callback_resolve, NULL)
			&& (ms < 0 || async__wait_on_timer(co, (zend_ulong) ms, 0, zend_async_waker_callback_resolve))
			&& async__wait_suspend(co);
		async__wait_end(co);
		if (!ok) {
			pq_absorb(kept);
		}
	}
	return true;
}

/* Sends PQcancel() on the pool. The job frees `cancel` when free_cancel. -1: not done by end_ns
 * (the job goes on alone), else PQcancel()'s result with errbuf filled. */
static int pq_cancel_on_pool(PGcancel *cancel, bool free_cancel, uint64_t end_ns, zend_object **kept,
	char *errbuf, size_t errbufsize)
{
	zend_async_work_event_t *work = ZEND_ASYNC_NEW_WORK_EX(pq_cancel_run, NULL, sizeof(pq_cancel_job_t));
	if (work == NULL) {
		if (EG(exception)) {
			pq_absorb(kept);
		}
		return -2;
	}
	pq_cancel_job_t *job = PQ_JOB(work);
	job->cancel = cancel;
	job->free_cancel = free_cancel;
	job->ok = 0;
	job->errbuf[0] = '\0';
	work->abandon = pq_cancel_abandon;
	int result = -1;
	if (pq_job_wait(work, end_ns, kept) && ZEND_ASYNC_EVENT_IS_CLOSED(&work->base)) {
		result = job->ok;
		strlcpy(errbuf, job->errbuf, errbufsize);
	}
	ZEND_ASYNC_EVENT_RELEASE(&work->base); /* a job not done is abandoned: it still frees its cancel */
	return result;
}

/* Step 1 for an interrupted call. */
static void pq_send_cancel(pq_call_t *call)
{
	call->cancel_sent = true;
	PGcancel *cancel = async__pq_api.get_cancel(call->conn);
	if (cancel == NULL) {
		call->cancel_failed = true;
		strlcpy(call->cancel_error, "no cancel key for this connection", sizeof(call->cancel_error));
		return;
	}
	int ok = -2;
	if (async_io_can_wait()) {
		ok = pq_cancel_on_pool(cancel, true, call->grace_end_ns, &call->interrupted, call->cancel_error,
			sizeof(call->cancel_error));
		if (ok == -1) {
			call->cancel_failed = true;
			strlcpy(call->cancel_error, "no answer to the cancel request", sizeof(call->cancel_error));
			return;
		}
		/* -2: no job was made (it never took the cancel object): blocking below */
	}
	if (ok == -2) {
		ok = async__pq_api.cancel(cancel, call->cancel_error, (int) sizeof(call->cancel_error));
		async__pq_api.free_cancel(cancel);
	}
	if (!ok) {
		call->cancel_failed = true;
	}
}

void async__pq_cancel_blocking(PGconn *conn)
{
	PGcancel *cancel = async__pq_api.get_cancel(conn);
	if (cancel == NULL) {
		return;
	}
	char errbuf[256];
	async__pq_api.cancel(cancel, errbuf, (int) sizeof(errbuf));
	async__pq_api.free_cancel(cancel);
}

int async__pq_cancel_request(PGcancel *cancel, char *errbuf, int errbufsize)
{
	if (pq_on_pool || cancel == NULL || !async_io_can_wait()) {
		return async__pq_api.cancel(cancel, errbuf, errbufsize);
	}
	/* the caller frees `cancel` when we return: wait for the job, whatever comes meanwhile */
	zend_object *kept = NULL;
	int ok = pq_cancel_on_pool(cancel, false, 0, &kept, errbuf, errbufsize > 0 ? (size_t) errbufsize : 0);
	if (ok < 0) {
		ZEND_ASSERT(ok == -2 && "without an end the job is waited for");
		ok = async__pq_api.cancel(cancel, errbuf, errbufsize);
	}
	if (kept != NULL) {
		zend_throw_exception_internal(kept);
	}
	return ok;
}

/* ---------------------------------------------------------------------------------------------
 * libpq's waits in an interrupted call
 * ------------------------------------------------------------------------------------------- */

/* The grace is over: libpq's next read sees the connection closed. */
static int pq_cut(pq_call_t *call, struct pollfd *pfd)
{
	call->cut = true;
	shutdown(pfd->fd, SHUT_RDWR);
	pfd->revents = (short) ((pfd->events & (POLLIN | POLLOUT)) | POLLHUP);
	return 1;
}

int async__pq_cancel_poll(pq_call_t *call, struct pollfd *pfd, int timeout_ms)
{
	ZEND_ASSERT(call->interrupted != NULL);
	if (call->kind != PQ_CALL_QUERY || call->conn == NULL || async__pq_api.status(call->conn) != CONNECTION_OK) {
		errno = ECANCELED;
		return -1;
	}
	int mask = async__pq_poll_mask(pfd->events);
	if (!call->cancel_sent && !call->cut && !(mask & ASYNC_POLL_WRITE)) {
		pq_send_cancel(call);
	}
	for (int tries = 0; ; tries++) {
		zend_long left = pq_ms_until(call->grace_end_ns);
		if (left == 0 || call->cut) {
			return pq_cut(call, pfd);
		}
		bool libpq_first = timeout_ms >= 0 && timeout_ms < left;
		zend_long ms = libpq_first ? timeout_ms : left;
		int ready;
		if (async_io_can_wait() && tries < 100) {
			ready = async_io_wait_fd(pfd->fd, mask, ms);
			if (ready < 0) {
				pq_absorb(&call->interrupted);
				continue;
			}
			pfd->revents = async__pq_poll_revents(ready, pfd->events);
		} else {
			/* switching became impossible (the request is ending): block, still bounded */
			ready = poll(pfd, 1, (int) ms);
			if (ready < 0 && errno == EINTR) {
				continue;
			}
			if (ready < 0) {
				return -1;
			}
		}
		if (ready > 0) {
			return 1;
		}
		if (libpq_first) {
			return 0;
		}
	}
}

void async__pq_cancel_drain(pq_call_t *call)
{
	PGconn *conn = call->conn;
	ZEND_ASSERT(conn != NULL && call->interrupted != NULL);
	/* bounded: each round waits within the grace, and a result is read each time */
	for (int i = 0; i < 100000 && !call->cut; i++) {
		if (async__pq_api.status(conn) != CONNECTION_OK) {
			return;
		}
		PGresult *result = async__pq_api.get_result(conn);
		if (result == NULL) {
			return; /* idle (in pipeline mode: the end of one query's results) */
		}
		ExecStatusType status = async__pq_api.result_status(result);
		async__pq_api.clear(result);
		if (status == PGRES_COPY_IN) {
			async__pq_api.put_copy_end(conn, "COPY cancelled: the coroutine was cancelled");
		} else if (status == PGRES_COPY_OUT) {
			char *buffer = NULL;
			while (async__pq_api.get_copy_data(conn, &buffer, 0) > 0) {
				async__pq_api.freemem(buffer);
				buffer = NULL;
			}
		} else if (status == PGRES_COPY_BOTH) {
			return; /* replication: never the drivers' */
		}
	}
}

#else /* !HAVE_ASYNC_PGSQL */

typedef int async_pgsql_cancel_unused_t; /* an empty translation unit is not ISO C */

#endif /* HAVE_ASYNC_PGSQL */
