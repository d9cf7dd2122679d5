/*
 * hooks/pgsql_conn.c — one coroutine at a time inside a PostgreSQL connection, and a record of
 * each call the waits of hooks/pgsql.c can find.
 *
 * libpq keeps a connection's whole protocol state in its PGconn. Stock PHP never enters one
 * connection twice at once; with coroutines, a second coroutine could call PQexec() on a
 * connection whose first caller is suspended inside PQgetResult(): the second one's PQexec()
 * would first drain the first one's results (crossed answers), or read the socket dry while the
 * first one waits for it (a hang). So the drivers' imports of every libpq function that reads or
 * writes a connection's socket are redirected to wrappers that take the connection's turn:
 *
 * - in a coroutine, the call waits (FIFO) while another coroutine is inside the connection, then
 *   runs with the turn; the turn passes to the next waiter when it returns. The coroutine that
 *   holds it may enter again (a notice callback that queries), as stock PHP would;
 * - where switching is impossible (outside coroutines, a destructor on PHP 8.2/8.3) the call is
 *   stock, unless another coroutine is suspended inside the connection: then it is refused with
 *   an Error (PQfinish() is deferred until that coroutine's call returns, or the request ends),
 *   or, at the request's end (that coroutine will not run again), the server is asked to cancel
 *   its statement and the call goes on;
 * - a call refused, or interrupted by a cancellation, returns what the drivers take as "done,
 *   nothing more" (an empty PGRES_COMMAND_OK result, NULL from PQgetResult(), 1 from a send)
 *   with the exception pending, so neither a warning of pg_query() nor a PDOException lands over
 *   the cancellation. It is never seen by PHP code: the exception discards the driver's return.
 *   While a cancellation is pending, every further query call is refused the same way
 *   (pdo_pgsql's execute after an interrupted prepare, its DEALLOCATE as the statement is freed),
 *   so the cancelled call ends within the cancel grace;
 *
 * Some driver functions still report what the refused value means to them (pg_copy_to() wants a
 * COPY result: "Copy command failed"); a warning or notice the driver's function raises while
 * the cancellation is pending is dropped (pq_error_filter(), scoped to that function's frame), as
 * PHP itself drops warnings under a pending exception in EH_THROW mode.
 *
 * Connects take no turn (the connection is new); a connect the coroutine's cancellation gave up
 * returns a bad connection with the cancellation pending, the driver reports that (pg_connect()'s
 * warning, dropped as above; PDO's constructor throws its PDOException over whatever is pending)
 * and calls PQfinish(), which puts the cancellation back on top of the chain.
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif
#include "php_async.h"
#include "hooks/hooks.h"

#ifdef HAVE_ASYNC_PGSQL

#include "async_import.h"
#include "async_io_wait.h"
#include "core/core.h"
#include "zend_exceptions.h"

/* A connection some coroutine used: per request, in ASYNC_G(pgsql_conns) while the PGconn lives
 * and in the list of all states until the request ends. */
struct _pq_conn_s {
	PGconn *conn;
	zend_coroutine_t *owner;     /* holds the turn; NULL: free */
	uint32_t depth;              /* the owner's nested calls */
	async_list_t waiters;        /* pq_waiter_t, in arrival order */
	zend_async_event_t turn;     /* notified when the turn passes to a waiter, or the connection closes */
	uint32_t holders;            /* waiters (they keep the state after the connection closed) */
	bool closed;                 /* PQfinish() ran: waiters give up */
	bool finish_deferred;        /* PQfinish() came while the owner was suspended inside */
	bool end_cancelled;          /* the request is ending with the owner inside: its statement was cancelled */
	zend_object *connect_cancel; /* a connect given up by a cancellation (not a reference): on top at PQfinish() */
	int tracked_fd;              /* the socket the poll registry knows its closes are announced for */
	async_list_node_t all;       /* in ASYNC_G(pgsql_states) */
};

typedef struct {
	async_list_node_t node;
	zend_coroutine_t *co;
} pq_waiter_t;

/* ---------------------------------------------------------------------------------------------
 * The functions redirected, and what each returns when refused or interrupted
 * ------------------------------------------------------------------------------------------- */

/* X(return type, name, (parameters), (arguments), value when refused, discard the real result)
 * Calls on a made connection (PQ_CALL_QUERY). The values when refused are what each driver takes
 * as success without data; an Oid one is never used (the pending exception discards it). */
#define PQ_RESULT_CALLS(X) \
	X(PGresult *, PQexec, (PGconn *conn, const char *query), (conn, query)) \
	X(PGresult *, PQexecParams, (PGconn *conn, const char *command, int nParams, const Oid *paramTypes, \
		const char *const *paramValues, const int *paramLengths, const int *paramFormats, int resultFormat), \
		(conn, command, nParams, paramTypes, paramValues, paramLengths, paramFormats, resultFormat)) \
	X(PGresult *, PQprepare, (PGconn *conn, const char *stmtName, const char *query, int nParams, \
		const Oid *paramTypes), (conn, stmtName, query, nParams, paramTypes)) \
	X(PGresult *, PQexecPrepared, (PGconn *conn, const char *stmtName, int nParams, const char *const *paramValues, \
		const int *paramLengths, const int *paramFormats, int resultFormat), \
		(conn, stmtName, nParams, paramValues, paramLengths, paramFormats, resultFormat)) \
	X(PGresult *, PQdescribePrepared, (PGconn *conn, const char *stmt), (conn, stmt)) \
	X(PGresult *, PQdescribePortal, (PGconn *conn, const char *portal), (conn, portal)) \
	X(PGresult *, PQfn, (PGconn *conn, int fnid, int *result_buf, int *result_len, int result_is_int, \
		const PQArgBlock *args, int nargs), (conn, fnid, result_buf, result_len, result_is_int, args, nargs)) \
	PQ_RESULT_CALLS_CLOSE(X) \
	PQ_RESULT_CALLS_PASSWORD(X)

/* libpq 17 */
#ifdef LIBPQ_HAS_CLOSE_PREPARED
# define PQ_RESULT_CALLS_CLOSE(X) \
	X(PGresult *, PQclosePrepared, (PGconn *conn, const char *stmt), (conn, stmt)) \
	X(PGresult *, PQclosePortal, (PGconn *conn, const char *portal), (conn, portal))
#else
# define PQ_RESULT_CALLS_CLOSE(X)
#endif
#ifdef LIBPQ_HAS_CHANGE_PASSWORD
# define PQ_RESULT_CALLS_PASSWORD(X) \
	X(PGresult *, PQchangePassword, (PGconn *conn, const char *user, const char *passwd), (conn, user, passwd))
#else
# define PQ_RESULT_CALLS_PASSWORD(X)
#endif

/* X(return type, name, (parameters), (arguments), value when refused) */
#define PQ_VALUE_CALLS(X) \
	X(int, PQsendQuery, (PGconn *conn, const char *query), (conn, query), 1) \
	X(int, PQsendQueryParams, (PGconn *conn, const char *command, int nParams, const Oid *paramTypes, \
		const char *const *paramValues, const int *paramLengths, const int *paramFormats, int resultFormat), \
		(conn, command, nParams, paramTypes, paramValues, paramLengths, paramFormats, resultFormat), 1) \
	X(int, PQsendPrepare, (PGconn *conn, const char *stmtName, const char *query, int nParams, \
		const Oid *paramTypes), (conn, stmtName, query, nParams, paramTypes), 1) \
	X(int, PQsendQueryPrepared, (PGconn *conn, const char *stmtName, int nParams, const char *const *paramValues, \
		const int *paramLengths, const int *paramFormats, int resultFormat), \
		(conn, stmtName, nParams, paramValues, paramLengths, paramFormats, resultFormat), 1) \
	X(int, PQsendDescribePrepared, (PGconn *conn, const char *stmt), (conn, stmt), 1) \
	X(int, PQsendDescribePortal, (PGconn *conn, const char *portal), (conn, portal), 1) \
	X(int, PQisBusy, (PGconn *conn), (conn), 0) \
	X(int, PQconsumeInput, (PGconn *conn), (conn), 1) \
	X(int, PQflush, (PGconn *conn), (conn), 0) \
	X(int, PQsetnonblocking, (PGconn *conn, int arg), (conn, arg), 0) \
	X(int, PQsetClientEncoding, (PGconn *conn, const char *encoding), (conn, encoding), 0) \
	X(int, PQputCopyData, (PGconn *conn, const char *buffer, int nbytes), (conn, buffer, nbytes), 1) \
	X(int, PQputCopyEnd, (PGconn *conn, const char *errormsg), (conn, errormsg), 1) \
	X(int, PQputline, (PGconn *conn, const char *string), (conn, string), 0) \
	X(int, PQputnbytes, (PGconn *conn, const char *buffer, int nbytes), (conn, buffer, nbytes), 0) \
	X(int, PQgetline, (PGconn *conn, char *string, int length), (conn, string, length), EOF) \
	X(int, PQendcopy, (PGconn *conn), (conn), 0) \
	X(int, PQenterPipelineMode, (PGconn *conn), (conn), 1) \
	X(int, PQexitPipelineMode, (PGconn *conn), (conn), 1) \
	X(int, PQpipelineSync, (PGconn *conn), (conn), 1) \
	X(int, PQsendFlushRequest, (PGconn *conn), (conn), 1) \
	X(int, lo_open, (PGconn *conn, Oid lobjId, int mode), (conn, lobjId, mode), 0) \
	X(int, lo_close, (PGconn *conn, int fd), (conn, fd), 0) \
	X(int, lo_read, (PGconn *conn, int fd, char *buf, size_t len), (conn, fd, buf, len), 0) \
	X(int, lo_write, (PGconn *conn, int fd, const char *buf, size_t len), (conn, fd, buf, len), (int) len) \
	X(int, lo_lseek, (PGconn *conn, int fd, int offset, int whence), (conn, fd, offset, whence), 0) \
	X(pg_int64, lo_lseek64, (PGconn *conn, int fd, pg_int64 offset, int whence), (conn, fd, offset, whence), 0) \
	X(int, lo_tell, (PGconn *conn, int fd), (conn, fd), 0) \
	X(pg_int64, lo_tell64, (PGconn *conn, int fd), (conn, fd), 0) \
	X(int, lo_truncate, (PGconn *conn, int fd, size_t len), (conn, fd, len), 0) \
	X(int, lo_truncate64, (PGconn *conn, int fd, pg_int64 len), (conn, fd, len), 0) \
	X(int, lo_unlink, (PGconn *conn, Oid lobjId), (conn, lobjId), 1) \
	X(int, lo_export, (PGconn *conn, Oid lobjId, const char *filename), (conn, lobjId, filename), 1) \
	X(Oid, lo_creat, (PGconn *conn, int mode), (conn, mode), PQ_UNUSED_OID) \
	X(Oid, lo_create, (PGconn *conn, Oid lobjId), (conn, lobjId), lobjId ? lobjId : PQ_UNUSED_OID) \
	X(Oid, lo_import, (PGconn *conn, const char *filename), (conn, filename), PQ_UNUSED_OID) \
	X(Oid, lo_import_with_oid, (PGconn *conn, const char *filename, Oid lobjId), (conn, filename, lobjId), \
		lobjId ? lobjId : PQ_UNUSED_OID) \
	PQ_VALUE_CALLS_CLOSE(X) \
	PQ_VALUE_CALLS_SYNC(X)

/* libpq 17 */
#ifdef LIBPQ_HAS_CLOSE_PREPARED
# define PQ_VALUE_CALLS_CLOSE(X) \
	X(int, PQsendClosePrepared, (PGconn *conn, const char *stmt), (conn, stmt), 1) \
	X(int, PQsendClosePortal, (PGconn *conn, const char *portal), (conn, portal), 1)
#else
# define PQ_VALUE_CALLS_CLOSE(X)
#endif
#ifdef LIBPQ_HAS_SEND_PIPELINE_SYNC
# define PQ_VALUE_CALLS_SYNC(X) X(int, PQsendPipelineSync, (PGconn *conn), (conn), 1)
#else
# define PQ_VALUE_CALLS_SYNC(X)
#endif

/* An Oid a refused lo_creat()/lo_import() returns: never reaches PHP code (see the top). */
#define PQ_UNUSED_OID ((Oid) 1)

/* Making or resetting a connection (PQ_CALL_CONNECT). */
#define PQ_CONNECT_CALLS(X) \
	X(PGconn *, PQconnectdb, (const char *conninfo), (conninfo)) \
	X(PGconn *, PQconnectdbParams, (const char *const *keywords, const char *const *values, int expand_dbname), \
		(keywords, values, expand_dbname)) \
	X(PGconn *, PQsetdbLogin, (const char *pghost, const char *pgport, const char *pgoptions, const char *pgtty, \
		const char *dbName, const char *login, const char *pwd), (pghost, pgport, pgoptions, pgtty, dbName, login, pwd)) \
	X(PGconn *, PQconnectStart, (const char *conninfo), (conninfo)) \
	X(PGconn *, PQconnectStartParams, (const char *const *keywords, const char *const *values, int expand_dbname), \
		(keywords, values, expand_dbname))

/* On a connection, making it anew. X(return type, name, (parameters), (arguments), value when refused) */
#define PQ_RECONNECT_CALLS(X) \
	X(PostgresPollingStatusType, PQconnectPoll, (PGconn *conn), (conn), PGRES_POLLING_FAILED) \
	X(PostgresPollingStatusType, PQresetPoll, (PGconn *conn), (conn), PGRES_POLLING_FAILED) \
	X(int, PQresetStart, (PGconn *conn), (conn), 0)

/* The real functions: looked up in the drivers' libpq, called by every wrapper. */
typedef struct {
#define PQ_REAL_FIELD(type, name, params, args, ...) __typeof__(name) *name;
	PQ_RESULT_CALLS(PQ_REAL_FIELD)
	PQ_VALUE_CALLS(PQ_REAL_FIELD)
	PQ_CONNECT_CALLS(PQ_REAL_FIELD)
	PQ_RECONNECT_CALLS(PQ_REAL_FIELD)
	__typeof__(PQgetResult) *PQgetResult;
	__typeof__(PQnotifies) *PQnotifies;
	__typeof__(PQgetCopyData) *PQgetCopyData;
	__typeof__(PQreset) *PQreset;
	__typeof__(PQfinish) *PQfinish;
	__typeof__(PQrequestCancel) *PQrequestCancel;
	__typeof__(PQcancel) *PQcancel;
#undef PQ_REAL_FIELD
} pq_real_t;

/* per-process: filled at MINIT from the drivers' libpq (a function it lacks stays NULL and its
 * import, which the drivers cannot have then, is not redirected) */
static pq_real_t pq_real;

#define REAL(name) (pq_real.name)

/* ---------------------------------------------------------------------------------------------
 * States and turns
 * ------------------------------------------------------------------------------------------- */

static zend_string *pq_turn_info(zend_async_event_t *event)
{
	(void) event;
	return zend_string_init("PostgreSQL connection turn", sizeof("PostgreSQL connection turn") - 1, 0);
}

static zend_ulong pq_key(const void *p)
{
	return (zend_ulong) (uintptr_t) p;
}

static pq_conn_t *pq_conn_find(PGconn *conn)
{
	HashTable *conns = ASYNC_G(pgsql_conns);
	return conns != NULL && conn != NULL ? zend_hash_index_find_ptr(conns, pq_key(conn)) : NULL;
}

static pq_conn_t *pq_conn_get(PGconn *conn)
{
	pq_conn_t *st = pq_conn_find(conn);
	if (st != NULL) {
		return st;
	}
	HashTable *conns = ASYNC_G(pgsql_conns);
	if (conns == NULL) {
		ALLOC_HASHTABLE(conns);
		zend_hash_init(conns, 8, NULL, NULL, 0);
		ASYNC_G(pgsql_conns) = conns;
	}
	st = ecalloc(1, sizeof(*st));
	st->conn = conn;
	st->tracked_fd = -1;
	async__wait_plain_event_init(&st->turn, pq_turn_info);
	async_list_append(&ASYNC_G(pgsql_states), &st->all);
	zend_hash_index_add_new_ptr(conns, pq_key(conn), st);
	return st;
}

static void pq_conn_free(pq_conn_t *st)
{
	ZEND_ASSERT(st->holders == 0 && st->owner == NULL);
	async_list_remove(&ASYNC_G(pgsql_states), &st->all);
	async__wait_plain_event_free(&st->turn);
	efree(st);
}

/* Connections finished in this request, until a new one gets the same address. A driver function
 * that fetched its PGconn before another coroutine's pg_close() freed it may still call libpq with
 * it (it was waiting for its turn, or suspended between two calls, as pg_send_query() sleeps while
 * it flushes): those calls are refused, never run on freed memory (P22). */
static void pq_finished(PGconn *conn)
{
	HashTable *closed = ASYNC_G(pgsql_closed);
	if (ASYNC_G(pgsql_conns) == NULL) {
		return; /* no coroutine used a connection in this request (or it ended: MSHUTDOWN's closes) */
	}
	if (closed == NULL) {
		ALLOC_HASHTABLE(closed);
		zend_hash_init(closed, 8, NULL, NULL, 0);
		ASYNC_G(pgsql_closed) = closed;
	}
	zend_hash_index_add_empty_element(closed, pq_key(conn));
}

static bool pq_is_finished(PGconn *conn)
{
	HashTable *closed = ASYNC_G(pgsql_closed);
	return UNEXPECTED(closed != NULL) && zend_hash_index_exists(closed, pq_key(conn));
}

/* A connect returned `conn`: an address reused by libpq's allocator is a live connection again. */
static void pq_made(PGconn *conn)
{
	HashTable *closed = ASYNC_G(pgsql_closed);
	if (UNEXPECTED(closed != NULL) && conn != NULL) {
		zend_hash_index_del(closed, pq_key(conn));
	}
}

/* Every PQfinish() the hook makes, or lets through. */
static void pq_finish(PGconn *conn)
{
	REAL(PQfinish)(conn);
	pq_finished(conn);
}

/* PQfinish() ran: a new PGconn may get the same address, so the state leaves the table; waiters
 * wake and give up, the last one frees it. */
static void pq_conn_closed(pq_conn_t *st)
{
	st->closed = true;
	if (ASYNC_G(pgsql_conns) != NULL) {
		zend_hash_index_del(ASYNC_G(pgsql_conns), pq_key(st->conn));
	}
	if (st->holders > 0) {
		ZEND_ASYNC_CALLBACKS_NOTIFY(&st->turn, NULL, NULL);
		async__wait_plain_event_trim(&st->turn);
		return;
	}
	pq_conn_free(st);
}

/* The turn goes to the first waiter (FIFO: a coroutine that queries in a loop cannot keep it
 * from the others), or is free. */
static void pq_turn_give(pq_conn_t *st)
{
	async_list_node_t *next = async_list_shift(&st->waiters);
	st->owner = next != NULL ? ASYNC_LIST_ITEM(next, pq_waiter_t, node)->co : NULL;
	st->depth = next != NULL ? 1 : 0;
	if (next != NULL) {
		ZEND_ASYNC_CALLBACKS_NOTIFY(&st->turn, NULL, NULL);
		async__wait_plain_event_trim(&st->turn);
	}
}

static ZEND_COLD void pq_throw_closed(void)
{
	zend_throw_error(NULL, "The PostgreSQL connection was closed by another coroutine while this call waited for it");
}

/* Waits for the turn. False with an exception: cancelled while waiting, or the connection was
 * closed meanwhile (the state may be gone then: the caller must not touch it). */
static bool pq_turn_take(pq_conn_t *st, zend_coroutine_t *me)
{
	pq_waiter_t waiter = { .co = me };
	async_list_append(&st->waiters, &waiter.node);
	st->holders++;
	bool ok = true;
	while (st->owner != me && !st->closed) {
		if (!async__wait_event(&st->turn, NULL, NULL, "wait for a PostgreSQL connection")) {
			ok = false;
			break;
		}
		async__wait_plain_event_trim(&st->turn);
	}
	st->holders--;
	if (st->closed) {
		if (waiter.node.prev != NULL || st->waiters.first == &waiter.node) {
			async_list_remove(&st->waiters, &waiter.node);
		}
		if (ok) {
			pq_throw_closed();
		}
		if (st->holders == 0) {
			pq_conn_free(st);
		}
		return false;
	}
	if (ok) {
		return true;
	}
	async__wait_plain_event_trim(&st->turn);
	if (st->owner == me) {
		pq_turn_give(st); /* handed to us as the cancellation came: the next one's */
	} else {
		async_list_remove(&st->waiters, &waiter.node);
	}
	return false;
}

/* ---------------------------------------------------------------------------------------------
 * Call records
 * ------------------------------------------------------------------------------------------- */

pq_call_t *async__pq_call_current(void)
{
	HashTable *calls = ASYNC_G(pgsql_calls);
	zend_coroutine_t *co = ZEND_ASYNC_CURRENT_COROUTINE;
	return calls != NULL && co != NULL ? zend_hash_index_find_ptr(calls, pq_key(co)) : NULL;
}

bool async__pq_call_track(pq_call_t *call, int fd)
{
	if (call->state == NULL) {
		return true; /* a connect: rare, and its descriptor changes from host to host */
	}
	if (call->state->tracked_fd == fd) {
		return false;
	}
	call->state->tracked_fd = fd;
	return true;
}

static void pq_call_push(pq_call_t *call, PGconn *conn, pq_conn_t *st, pq_call_kind_t kind)
{
	HashTable *calls = ASYNC_G(pgsql_calls);
	if (calls == NULL) {
		ALLOC_HASHTABLE(calls);
		zend_hash_init(calls, 8, NULL, NULL, 0);
		ASYNC_G(pgsql_calls) = calls;
	}
	memset(call, 0, XtOffsetOf(pq_call_t, cancel_error));
	call->cancel_error[0] = '\0';
	call->conn = conn;
	call->state = st;
	call->kind = kind;
	call->co = ZEND_ASYNC_CURRENT_COROUTINE;
	zval *slot = zend_hash_index_lookup(calls, pq_key(call->co));
	call->outer = Z_TYPE_P(slot) == IS_PTR ? Z_PTR_P(slot) : NULL;
	ZVAL_PTR(slot, call);
}

static void pq_call_pop(pq_call_t *call)
{
	HashTable *calls = ASYNC_G(pgsql_calls);
	ZEND_ASSERT(calls != NULL && zend_hash_index_find_ptr(calls, pq_key(call->co)) == call);
	if (call->outer != NULL) {
		zend_hash_index_update_ptr(calls, pq_key(call->co), call->outer);
	} else {
		zend_hash_index_del(calls, pq_key(call->co));
	}
}

/* The cancellation kept aside goes back into EG(exception), on top of anything thrown since. */
static void pq_rethrow(zend_object *exception)
{
	if (EG(current_execute_data) == NULL) {
		OBJ_RELEASE(exception); /* no PHP frame to throw into (a close at the request's end) */
		return;
	}
	zend_throw_exception_internal(exception);
}

/* The driver's function that called us says no more: until it returns with `pending` (NULL: until
 * its PQfinish()), its warnings and notices are dropped. */
static void pq_quiet(zend_object *pending)
{
	ASYNC_G(pgsql_quiet_frame) = EG(current_execute_data);
	ASYNC_G(pgsql_quiet_exception) = pending;
}

/* The error callback's filter (main_end.c). */
static bool pq_error_filter(int type)
{
	zend_execute_data *frame = ASYNC_G(pgsql_quiet_frame);
	if (EXPECTED(frame == NULL)) {
		return false;
	}
	zend_object *pending = ASYNC_G(pgsql_quiet_exception);
	if (EG(current_execute_data) != frame || (pending != NULL && EG(exception) != pending)) {
		ASYNC_G(pgsql_quiet_frame) = NULL; /* that function returned */
		return false;
	}
	return (type & (E_WARNING | E_NOTICE | E_USER_WARNING | E_USER_NOTICE)) != 0;
}

/* ---------------------------------------------------------------------------------------------
 * Entering and leaving a connection
 * ------------------------------------------------------------------------------------------- */

typedef enum {
	PQ_STOCK,     /* call libpq as is: nobody else is inside, or not in a coroutine */
	PQ_ENTERED,   /* the turn is ours and the call recorded: pq_leave() after the call */
	PQ_REFUSED,   /* return the refused value: an exception is pending */
	PQ_DEFERRED,  /* PQfinish() only: it runs when the suspended owner's call returns */
} pq_entry_t;

/* The request is ending: the coroutine inside will not run again before the request's end (a
 * fatal error dropped its stack, or the drain abandoned it: it may get one last turn at object
 * destruction). Code runs outside every coroutine and outside the scheduler only then, once the
 * scheduler ran. */
static bool pq_request_ending(void)
{
	return ZEND_ASYNC_CURRENT_COROUTINE == NULL && !ZEND_ASYNC_IS_SCHEDULER_CONTEXT;
}

/* The server is asked, once, to cancel the statement of the owner left inside; the answer is read
 * by whoever calls next (the driver's clean-up, stock). The owner stays recorded: its libpq frame
 * may still resume, so the connection is never freed before the request's end (P22). */
static void pq_conn_end_cancel(pq_conn_t *st)
{
	if (!st->end_cancelled) {
		st->end_cancelled = true;
		async__pq_cancel_blocking(st->conn);
	}
}

/* A cancellation (or a forced exit) is pending: the coroutine is being torn down, and the driver
 * goes on regardless: pdo_pgsql executes what an interrupted prepare said was done, then frees the
 * statement with a DEALLOCATE. Each of those would be one more round trip to a server the caller
 * has given up on, past the cancel grace; they are refused at once instead. What is left on the
 * server (a prepared statement, a cursor) belongs to the session and goes with it or with the
 * transaction. The drivers' clean-up of the connection itself (PQfinish()) is not a query. */
static bool pq_cancellation_pending(void)
{
	return EG(exception) != NULL && async__hook_is_cancellation(EG(exception));
}

static ZEND_COLD void pq_throw_busy(void)
{
	zend_throw_error(NULL, "Cannot use a PostgreSQL connection while another coroutine waits inside it: "
		"switching to that coroutine is impossible here");
}

static pq_entry_t pq_enter_ex(PGconn *conn, pq_call_t *call, pq_call_kind_t kind, bool refuse_quietly)
{
	if (pq_is_finished(conn)) {
		if (kind == PQ_CALL_CLOSE) {
			return PQ_DEFERRED; /* finished already: nothing left to close */
		}
		if (!EG(exception)) {
			pq_throw_closed();
		}
		return PQ_REFUSED;
	}
	if (kind == PQ_CALL_QUERY && pq_cancellation_pending()) {
		return PQ_REFUSED;
	}
	pq_conn_t *st = pq_conn_find(conn);
	zend_coroutine_t *me = ZEND_ASYNC_CURRENT_COROUTINE;
	if (!async_io_can_wait()) {
		if (st == NULL || st->owner == NULL || st->owner == me) {
			return PQ_STOCK;
		}
		if (kind == PQ_CALL_CLOSE) {
			st->finish_deferred = true;
			return PQ_DEFERRED;
		}
		if (pq_request_ending()) {
			pq_conn_end_cancel(st);
			return PQ_STOCK;
		}
		if (!EG(exception) && !refuse_quietly) {
			pq_throw_busy();
		}
		return PQ_REFUSED;
	}
	if (st == NULL) {
		st = pq_conn_get(conn);
	}
	if (st->owner == NULL) {
		st->owner = me;
		st->depth = 1;
	} else if (st->owner == me) {
		st->depth++;
	} else if (!pq_turn_take(st, me)) {
		return PQ_REFUSED;
	}
	pq_call_push(call, conn, st, kind);
	return PQ_ENTERED;
}

static pq_entry_t pq_enter(PGconn *conn, pq_call_t *call, pq_call_kind_t kind)
{
	return pq_enter_ex(conn, call, kind, false);
}

static ZEND_COLD void pq_warn_cut(const pq_call_t *call)
{
	if (call->cancel_failed) {
		php_error_docref(NULL, E_WARNING, "The PostgreSQL connection was closed: the cancel request of the cancelled "
			"coroutine failed (%s) and the server did not answer within async.pgsql_cancel_grace_ms (" ZEND_LONG_FMT " ms)",
			call->cancel_error, ASYNC_G(pgsql_cancel_grace_ms));
	} else {
		php_error_docref(NULL, E_WARNING, "The PostgreSQL connection was closed: the server did not answer the cancel "
			"request of the cancelled coroutine within async.pgsql_cancel_grace_ms (" ZEND_LONG_FMT " ms)",
			ASYNC_G(pgsql_cancel_grace_ms));
	}
}

static void pq_release_turn(pq_conn_t *st)
{
	ZEND_ASSERT(st->depth > 0);
	if (--st->depth > 0) {
		return;
	}
	pq_turn_give(st);
	if (st->finish_deferred && st->owner == NULL && !st->closed) {
		/* the close that came while we were inside: now */
		st->finish_deferred = false;
		pq_finish(st->conn);
		pq_conn_closed(st);
	}
}

/* After the real call. True when a cancellation interrupted it: the connection was drained,
 * the exception is pending again, and the caller returns its refused value. */
static bool pq_leave(pq_call_t *call)
{
	bool interrupted = call->interrupted != NULL;
	if (interrupted && call->kind == PQ_CALL_QUERY && !call->cut) {
		async__pq_cancel_drain(call);
	}
	pq_call_pop(call);
	if (call->state != NULL) {
		pq_release_turn(call->state);
	}
	if (!interrupted) {
		return false;
	}
	if (call->cut) {
		pq_warn_cut(call);
	}
	pq_rethrow(call->interrupted);
	pq_quiet(EG(exception));
	return true;
}

/* ---------------------------------------------------------------------------------------------
 * The wrappers
 * ------------------------------------------------------------------------------------------- */

#define PQ_RESULT_WRAPPER(type, name, params, args) \
	static type pq_w_##name params \
	{ \
		pq_call_t call; \
		switch (pq_enter(conn, &call, PQ_CALL_QUERY)) { \
			case PQ_STOCK: return REAL(name) args; \
			case PQ_REFUSED: return async__pq_api.make_empty_result(NULL, PGRES_COMMAND_OK); \
			default: break; \
		} \
		type result = REAL(name) args; \
		if (UNEXPECTED(pq_leave(&call))) { \
			if (result != NULL) { \
				async__pq_api.clear(result); \
			} \
			result = async__pq_api.make_empty_result(NULL, PGRES_COMMAND_OK); \
		} \
		return result; \
	}
PQ_RESULT_CALLS(PQ_RESULT_WRAPPER)

/* An interrupted reconnect returns its refused value too: the attempt was given up. */
#define PQ_VALUE_WRAPPER_OF(kind, type, name, params, args, refused) \
	static type pq_w_##name params \
	{ \
		pq_call_t call; \
		switch (pq_enter(conn, &call, kind)) { \
			case PQ_STOCK: return REAL(name) args; \
			case PQ_REFUSED: return refused; \
			default: break; \
		} \
		type result = REAL(name) args; \
		return UNEXPECTED(pq_leave(&call)) ? (refused) : result; \
	}
#define PQ_VALUE_WRAPPER(...) PQ_VALUE_WRAPPER_OF(PQ_CALL_QUERY, __VA_ARGS__)
#define PQ_RECONNECT_WRAPPER(...) PQ_VALUE_WRAPPER_OF(PQ_CALL_CONNECT, __VA_ARGS__)
PQ_VALUE_CALLS(PQ_VALUE_WRAPPER)
PQ_RECONNECT_CALLS(PQ_RECONNECT_WRAPPER)

/* The results of an interrupted call are not the caller's: the connection was drained, and
 * NULL says "no more". Where the caller cannot wait for another coroutine inside, the results
 * are that coroutine's: NULL, without an Error (the drivers' own clean-up loops call it, as
 * pg_close() does before PQfinish(), which is then deferred). */
static PGresult *pq_w_PQgetResult(PGconn *conn)
{
	pq_call_t call;
	switch (pq_enter_ex(conn, &call, PQ_CALL_QUERY, true)) {
		case PQ_STOCK: return REAL(PQgetResult)(conn);
		case PQ_REFUSED: return NULL;
		default: break;
	}
	PGresult *result = REAL(PQgetResult)(conn);
	if (UNEXPECTED(pq_leave(&call))) {
		if (result != NULL) {
			async__pq_api.clear(result);
		}
		return NULL;
	}
	return result;
}

static PGnotify *pq_w_PQnotifies(PGconn *conn)
{
	pq_call_t call;
	switch (pq_enter(conn, &call, PQ_CALL_QUERY)) {
		case PQ_STOCK: return REAL(PQnotifies)(conn);
		case PQ_REFUSED: return NULL;
		default: break;
	}
	PGnotify *notify = REAL(PQnotifies)(conn);
	if (UNEXPECTED(pq_leave(&call))) {
		if (notify != NULL) {
			async__pq_api.freemem(notify);
		}
		return NULL;
	}
	return notify;
}

/* -1: the copy is over (what the drivers stop their loop at). */
static int pq_w_PQgetCopyData(PGconn *conn, char **buffer, int async)
{
	pq_call_t call;
	switch (pq_enter(conn, &call, PQ_CALL_QUERY)) {
		case PQ_STOCK: return REAL(PQgetCopyData)(conn, buffer, async);
		case PQ_REFUSED: *buffer = NULL; return -1;
		default: break;
	}
	int result = REAL(PQgetCopyData)(conn, buffer, async);
	if (UNEXPECTED(pq_leave(&call))) {
		if (result > 0 && *buffer != NULL) {
			async__pq_api.freemem(*buffer);
		}
		*buffer = NULL;
		return -1;
	}
	return result;
}

static void pq_w_PQreset(PGconn *conn)
{
	pq_call_t call;
	switch (pq_enter(conn, &call, PQ_CALL_CONNECT)) {
		case PQ_STOCK: REAL(PQreset)(conn); return;
		case PQ_REFUSED: return;
		default: break;
	}
	REAL(PQreset)(conn);
	pq_leave(&call);
}

/* A new connection: no turn. Given up by a cancellation, it comes back bad; the drivers report
 * that and call PQfinish(), which puts the cancellation back on top of what they threw. */
static PGconn *pq_connected(pq_call_t *call, PGconn *conn)
{
	pq_call_pop(call);
	pq_made(conn);
	zend_object *interrupted = call->interrupted;
	if (interrupted == NULL) {
		return conn;
	}
	pq_rethrow(interrupted);
	pq_quiet(EG(exception));
	if (conn != NULL && async__pq_api.status(conn) == CONNECTION_BAD) {
		pq_conn_get(conn)->connect_cancel = interrupted;
	}
	return conn;
}

/* A persistent connection's first connect (pg_pconnect(), PDO with ATTR_PERSISTENT) does not
 * suspend: both drivers look their persistent list up before connecting and register the new
 * connection after, so a second coroutine connecting meanwhile would register the same key
 * again, and PHP would free the first connection under the coroutine that made it (P22). */
static bool pq_connect_is_persistent(void)
{
	zend_execute_data *ex = EG(current_execute_data);
	if (ex == NULL || ex->func == NULL || ex->func->type != ZEND_INTERNAL_FUNCTION) {
		return false;
	}
	zend_class_entry *scope = ex->func->common.scope;
	if (scope == NULL) {
		return zend_string_equals_literal(ex->func->common.function_name, "pg_pconnect");
	}
	while (scope->parent != NULL) {
		scope = scope->parent;
	}
	if (!zend_string_equals_literal(scope->name, "PDO") || ZEND_CALL_NUM_ARGS(ex) < 4) {
		return false;
	}
	/* PDO::__construct() and PDO::connect(): the options are the fourth argument */
	zval *options = ZEND_CALL_ARG(ex, 4);
	ZVAL_DEREF(options);
	zend_class_constant *id = zend_hash_str_find_ptr(&scope->constants_table, "ATTR_PERSISTENT", sizeof("ATTR_PERSISTENT") - 1);
	if (Z_TYPE_P(options) != IS_ARRAY || id == NULL || Z_TYPE(id->value) != IS_LONG) {
		return false;
	}
	zval *persistent = zend_hash_index_find(Z_ARRVAL_P(options), Z_LVAL(id->value));
	return persistent != NULL && zend_is_true(persistent);
}

#define PQ_CONNECT_WRAPPER(type, name, params, args) \
	static type pq_w_##name params \
	{ \
		if (!async_io_can_wait()) { \
			type conn = REAL(name) args; \
			pq_made(conn); \
			return conn; \
		} \
		pq_call_t call; \
		pq_call_push(&call, NULL, NULL, PQ_CALL_CONNECT); \
		call.blocking = pq_connect_is_persistent(); \
		return pq_connected(&call, REAL(name) args); \
	}
PQ_CONNECT_CALLS(PQ_CONNECT_WRAPPER)

/* The connection's last call: it takes its turn, so no coroutine is inside libpq on it when it
 * is freed (P22). Where it cannot wait for the coroutine inside, or comes from inside a call of
 * our own on it (a callback), it runs when that call returns. */
static void pq_finish_deferred(PGconn *conn)
{
	pq_conn_t *st = pq_conn_find(conn);
	if (st != NULL && st->owner != NULL) {
		st->finish_deferred = true;
		return;
	}
	pq_finish(conn);
	if (st != NULL) {
		pq_conn_closed(st);
	}
}

static void pq_w_PQfinish(PGconn *conn)
{
	pq_conn_t *st = pq_conn_find(conn);
	zend_object *connect_cancel = NULL;
	if (st != NULL && st->connect_cancel != NULL) {
		connect_cancel = st->connect_cancel;
		st->connect_cancel = NULL;
	}
	pq_call_t call;
	switch (pq_enter(conn, &call, PQ_CALL_CLOSE)) {
		case PQ_STOCK:
		case PQ_REFUSED: /* (cancelled while waiting for the turn: closed when it is free) */
			pq_finish_deferred(conn);
			break;
		case PQ_DEFERRED:
			break;
		case PQ_ENTERED:
			st = call.state;
			pq_call_pop(&call);
			if (st->depth > 1) {
				st->depth--;
				st->finish_deferred = true;
				break;
			}
			pq_finish(conn);
			st->owner = NULL; /* the turn is never handed on: waiters wake and give up */
			st->depth = 0;
			pq_conn_closed(st);
			if (call.interrupted != NULL) {
				pq_rethrow(call.interrupted);
			}
			break;
	}
	if (connect_cancel != NULL) {
		async__exception_on_top(connect_cancel);
		pq_quiet(EG(exception));
	}
}

/* PQrequestCancel() opens a connection of its own to the server and waits for its answer: on
 * the pool (PQcancel() is the thread-safe form of it). Its error text is not put in the
 * connection's error message then. */
static int pq_w_PQrequestCancel(PGconn *conn)
{
	if (pq_is_finished(conn)) {
		return 0;
	}
	if (!async_io_can_wait()) {
		return REAL(PQrequestCancel)(conn);
	}
	PGcancel *cancel = async__pq_api.get_cancel(conn);
	if (cancel == NULL) {
		return REAL(PQrequestCancel)(conn);
	}
	char errbuf[256];
	int ok = async__pq_cancel_request(cancel, errbuf, sizeof(errbuf));
	async__pq_api.free_cancel(cancel);
	return ok;
}

static int pq_w_PQcancel(PGcancel *cancel, char *errbuf, int errbufsize)
{
	return async__pq_cancel_request(cancel, errbuf, errbufsize);
}

/* ---------------------------------------------------------------------------------------------
 * The import tables: one per driver
 * ------------------------------------------------------------------------------------------- */

enum {
#define PQ_IMPORT_ENUM(type, name, ...) PQ_IMPORT_##name,
	PQ_RESULT_CALLS(PQ_IMPORT_ENUM)
	PQ_VALUE_CALLS(PQ_IMPORT_ENUM)
	PQ_CONNECT_CALLS(PQ_IMPORT_ENUM)
	PQ_RECONNECT_CALLS(PQ_IMPORT_ENUM)
#undef PQ_IMPORT_ENUM
	PQ_IMPORT_PQgetResult, PQ_IMPORT_PQnotifies, PQ_IMPORT_PQgetCopyData, PQ_IMPORT_PQreset,
	PQ_IMPORT_PQfinish, PQ_IMPORT_PQrequestCancel, PQ_IMPORT_PQcancel,
	PQ_IMPORT_COUNT
};

#define PQ_DRIVERS 2

/* per-process: the drivers' GOT entries, rewritten at MINIT and put back at MSHUTDOWN */
static async_import_t pq_imports[PQ_DRIVERS][PQ_IMPORT_COUNT];

/* per-process: the replacements and names, the template of each driver's table */
static const struct {
	const char *symbol;
	void *replacement;
	size_t real_offset;
} pq_wrappers[PQ_IMPORT_COUNT] = {
#define PQ_WRAPPER_ENTRY(type, name, ...) \
	[PQ_IMPORT_##name] = { #name, (void *) pq_w_##name, XtOffsetOf(pq_real_t, name) },
	PQ_RESULT_CALLS(PQ_WRAPPER_ENTRY)
	PQ_VALUE_CALLS(PQ_WRAPPER_ENTRY)
	PQ_CONNECT_CALLS(PQ_WRAPPER_ENTRY)
	PQ_RECONNECT_CALLS(PQ_WRAPPER_ENTRY)
	PQ_WRAPPER_ENTRY(x, PQgetResult)
	PQ_WRAPPER_ENTRY(x, PQnotifies)
	PQ_WRAPPER_ENTRY(x, PQgetCopyData)
	PQ_WRAPPER_ENTRY(x, PQreset)
	PQ_WRAPPER_ENTRY(x, PQfinish)
	PQ_WRAPPER_ENTRY(x, PQrequestCancel)
	PQ_WRAPPER_ENTRY(x, PQcancel)
#undef PQ_WRAPPER_ENTRY
};

/* The wrappers have the exact types of libpq's functions (async_import.h's rule). */
#define PQ_TYPE_CHECK(type, name, ...) \
	_Static_assert(__builtin_types_compatible_p(__typeof__(&pq_w_##name), __typeof__(&name)), #name);
PQ_RESULT_CALLS(PQ_TYPE_CHECK)
PQ_VALUE_CALLS(PQ_TYPE_CHECK)
PQ_CONNECT_CALLS(PQ_TYPE_CHECK)
PQ_RECONNECT_CALLS(PQ_TYPE_CHECK)
#undef PQ_TYPE_CHECK

/* per-process: which driver tables were filled */
static bool pq_driver_redirected[PQ_DRIVERS];

static void pq_real_load(void *dl_handle)
{
	for (size_t i = 0; i < PQ_IMPORT_COUNT; i++) {
		void **field = (void **) ((char *) &pq_real + pq_wrappers[i].real_offset);
		if (*field == NULL) {
			*field = DL_FETCH_SYMBOL(dl_handle != NULL ? dl_handle : RTLD_DEFAULT, pq_wrappers[i].symbol);
		}
	}
}

bool async__pq_conn_install(const void *driver_anchor, void *dl_handle, size_t slot)
{
	ZEND_ASSERT(slot < PQ_DRIVERS);
	pq_real_load(dl_handle);
	async_import_t *table = pq_imports[slot];
	size_t used = 0;
	for (size_t i = 0; i < PQ_IMPORT_COUNT; i++) {
		void *real = *(void **) ((char *) &pq_real + pq_wrappers[i].real_offset);
		if (real == NULL) {
			continue; /* this libpq lacks it: the driver cannot import it */
		}
		table[used++] = (async_import_t) { pq_wrappers[i].symbol, pq_wrappers[i].replacement };
	}
	async_import_redirect(driver_anchor, table, used);
	pq_driver_redirected[slot] = true;
	async__error_filter_register(pq_error_filter);
	/* the waits must find a record wherever the driver enters: all or nothing */
	for (size_t i = 0; i < used; i++) {
		if (table[i].original == NULL) {
			continue; /* not imported by this driver */
		}
		if (table[i].slot_count == 0) {
			async_import_restore(table, used);
			pq_driver_redirected[slot] = false;
			return false;
		}
	}
	return true;
}

void async__pq_conn_uninstall(void)
{
	for (size_t slot = 0; slot < PQ_DRIVERS; slot++) {
		if (pq_driver_redirected[slot]) {
			async_import_restore(pq_imports[slot], PQ_IMPORT_COUNT);
			pq_driver_redirected[slot] = false;
		}
	}
}

/* ---------------------------------------------------------------------------------------------
 * Request end
 * ------------------------------------------------------------------------------------------- */

void async__pq_conn_rshutdown(void)
{
	ASYNC_G(pgsql_quiet_frame) = NULL;
	/* The call records lived on coroutines' stacks, which are gone or unwound now. */
	HashTable *calls = ASYNC_G(pgsql_calls);
	if (calls != NULL) {
		ASYNC_G(pgsql_calls) = NULL;
		zend_hash_destroy(calls);
		FREE_HASHTABLE(calls);
	}
	HashTable *closed = ASYNC_G(pgsql_closed);
	if (closed != NULL) {
		ASYNC_G(pgsql_closed) = NULL;
		zend_hash_destroy(closed);
		FREE_HASHTABLE(closed);
	}
	HashTable *conns = ASYNC_G(pgsql_conns);
	ASYNC_G(pgsql_conns) = NULL;
	async_list_node_t *node;
	while ((node = async_list_shift(&ASYNC_G(pgsql_states))) != NULL) {
		pq_conn_t *st = ASYNC_LIST_ITEM(node, pq_conn_t, all);
		if (st->owner != NULL && !st->closed) {
			/* a coroutine left inside (a fatal error dropped it): its statement must not run on;
			 * no stack can resume into libpq any more, so a deferred close can run now */
			pq_conn_end_cancel(st);
			if (st->finish_deferred) {
				REAL(PQfinish)(st->conn);
			}
		}
		async__wait_plain_event_free(&st->turn);
		efree(st);
	}
	if (conns != NULL) {
		zend_hash_destroy(conns);
		FREE_HASHTABLE(conns);
	}
}

#else /* !HAVE_ASYNC_PGSQL */

typedef int async_pgsql_conn_unused_t; /* an empty translation unit is not ISO C */

#endif /* HAVE_ASYNC_PGSQL */
