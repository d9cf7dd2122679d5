/*
 * hooks/hooks.h — the hook layer (hooks/): PHP's own functions and stream transports made to
 * suspend only the calling coroutine. One header for the layer; the sections for curl, libpq and
 * PDO exist only when this build has their headers.
 */
#ifndef ASYNC_HOOKS_H
#define ASYNC_HOOKS_H

#include "php.h"
#include "php_network.h"
#include "php_streams.h"
#include "zend_async_API.h"
#include "async_io_wait.h"
#include "async_ring.h"

/*
 * hooks — the hook layer: PHP's own functions and stream transports made to suspend only the
 * calling coroutine (hook_*.c). Each hook is written as another extension would write it: it
 * waits through the descriptor-wait API (async_io_wait.h), the one wait path (core/core.h) and the
 * ABI's events, and behaves exactly as stock PHP outside a coroutine.
 */

/* ---------------------------------------------------------------------------------------------
 * hooks/cancel_on_top.c: a driver's exception never hides the coroutine's cancellation
 * ------------------------------------------------------------------------------------------- */

/* A cancellation of the runtime, or a forced exit (what unwinds a coroutine). */
bool async__hook_is_cancellation(const zend_object *ex);
/* `ex`, somewhere in the chain of the pending exception, becomes the pending one, and what was
 * thrown over it goes to the end of its own chain; nothing when it is not in the chain. */
void async__exception_on_top(zend_object *ex);
/* The first cancellation in the pending exception's chain goes on top (see above). */
void async__cancellation_on_top(void);
/* `ex` or one in its chain of previous exceptions is a cancellation. */
bool async__exception_has_cancellation(zend_object *ex);
/* An exception's previous one, or NULL. */
zend_object *async__exception_previous(zend_object *ex);
zend_result async__hook_cancel_on_top_minit(void);
void async__hook_cancel_on_top_mshutdown(void);

/* ---------------------------------------------------------------------------------------------
 * hooks/functions.c: replacing the handlers of PHP's own functions in the function table
 * ------------------------------------------------------------------------------------------- */

/* One function made coroutine-aware: `original` is filled at install and is what the
 * replacement calls outside a coroutine. */
typedef struct {
	const char *name;
	zif_handler replacement;
	zif_handler original;
} async_function_hook_t;

/* MINIT (P18): functions that are missing (an extension not loaded) are left alone. */
void async__function_hooks_install(async_function_hook_t *hooks, size_t count);
/* MSHUTDOWN: the original handlers go back. */
void async__function_hooks_uninstall(async_function_hook_t *hooks, size_t count);

/* ---------------------------------------------------------------------------------------------
 * Each hook file's entry points (MINIT / MSHUTDOWN / RINIT)
 * ------------------------------------------------------------------------------------------- */

/* hooks/sleep.c: sleep(), usleep(), time_nanosleep(), time_sleep_until() */
zend_result async__hook_sleep_minit(void);
void async__hook_sleep_mshutdown(void);

/* hooks/dns.c: gethostbyname(), gethostbynamel(), gethostbyaddr() */
zend_result async__hook_dns_minit(void);
void async__hook_dns_mshutdown(void);

/* hooks/sockets.c: ext/sockets (nothing happens when it is not loaded) */
zend_result async__hook_sockets_minit(void);
void async__hook_sockets_mshutdown(void);
void async__hook_sockets_rinit(void);

/* hooks/stream_transport.c: the tcp/udp/unix/udg and TLS transports (wrapped at MINIT, put back
 * at MSHUTDOWN), and stream_socket_pair() */
zend_result async__hook_transports_minit(void);
void async__hook_transports_mshutdown(void);

/* hooks/pcntl.c: pcntl_fork() (refused while other coroutines live; the child re-arms the loop)
 * and pcntl_signal() (its handlers wake a loop blocked in the reactor); request end drops the
 * trigger those wake-ups use (before the reactor shuts down). */
zend_result async__hook_pcntl_minit(void);
void async__hook_pcntl_mshutdown(void);
void async__hook_pcntl_rshutdown(void);

/* hooks/curl.c: curl_exec() and curl_multi_select() (nothing happens when ext/curl is not loaded,
 * or when this build has no libcurl headers); rinit checks ext/curl's layout once per process;
 * rshutdown drops the handles' multi handles (before the poll registry goes). */
zend_result async__hook_curl_minit(void);
void async__hook_curl_mshutdown(void);
void async__hook_curl_rinit(void);
void async__hook_curl_rshutdown(void);

/* hooks/pgsql.c: ext/pgsql and pdo_pgsql (nothing happens when neither is loaded, or when this
 * build has no libpq headers): libpq's waits and the drivers' calls into libpq redirected at
 * MINIT, put back at MSHUTDOWN; rinit warns once when they could not be; rshutdown cancels what
 * coroutines were left inside (before the poll registry goes). */
zend_result async__hook_pgsql_minit(void);
void async__hook_pgsql_mshutdown(void);
void async__hook_pgsql_rinit(void);
void async__hook_pgsql_rshutdown(void);

/* hooks/pdo_pool.c: PDO::ATTR_POOL_* and PDO::getPool() on PHP's own PDO class (nothing happens
 * when pdo is not loaded, or when this build had no PDO headers); rshutdown closes the pools and
 * leaves what lives on to PHP (before the reactor goes). */
zend_result async__hook_pdo_pool_minit(void);
void async__hook_pdo_pool_mshutdown(void);
void async__hook_pdo_pool_rshutdown(void);

/* hooks/persistent.c: persistent connections held by one coroutine at a time (pfsockopen(),
 * stream_socket_client() with STREAM_CLIENT_PERSISTENT, PDO::ATTR_PERSISTENT): while a coroutine
 * holds one, its entry of EG(persistent_list) is under a private key, so a concurrent open of the
 * key makes another connection; released when closed or when the holder ends, put back under its
 * key (or a spare key) at the latest at rshutdown (before the reactor goes). */
zend_result async__hook_persistent_minit(void);
void async__hook_persistent_mshutdown(void);
void async__hook_persistent_rshutdown(void);
/* The transport factory made `stream` (registered under persistent_id when that is not NULL):
 * called by hooks/stream_transport.c before the connect can suspend. */
void async__persistent_stream_made(php_stream *stream, const char *persistent_id);
/* PDO::__construct() / PDO::connect() of PHP (`orig`) with PDO::ATTR_PERSISTENT taken care of:
 * constructions of one key take turns, and the connection is held by the calling coroutine until
 * its PDO objects are freed or it ends (hooks/pdo_pool.c calls it). */
void async__persistent_pdo_construct(INTERNAL_FUNCTION_PARAMETERS, zif_handler orig);

/* hooks/exec.c: exec(), system(), passthru(), shell_exec() (and the backtick operator): inside a
 * coroutine the command runs under /bin/sh -c with a pipe read through the descriptor-wait API,
 * and its exit is waited for on the reactor's process event. */
zend_result async__hook_exec_minit(void);
void async__hook_exec_mshutdown(void);

/* hooks/proc_wait.c: proc_close(), pclose(), pcntl_waitpid(), pcntl_wait(): wait for the child's
 * exit without reaping it, then PHP's own function reaps it. */
zend_result async__hook_proc_wait_minit(void);
void async__hook_proc_wait_mshutdown(void);

/* hooks/stdio.c: PHP's stdio streams (files, pipes, FIFOs, TTYs) and flock(), patched into
 * php_stream_stdio_ops at MINIT, put back at MSHUTDOWN; rshutdown drops per-stream state. */
zend_result async__hook_stdio_minit(void);
void async__hook_stdio_mshutdown(void);
void async__hook_stdio_rshutdown(void);

/* hooks/stream_select.c: stream_select() */
zend_result async__hook_net_functions_minit(void);
void async__hook_net_functions_mshutdown(void);

/* hooks/stream_read.c: fread(), fgets() and fgetcsv() with a length, stream_get_contents() with
 * a length, stream_socket_recvfrom() (and fgets() without a length, stream_get_line()): on a
 * socket stream, a read that has to wait waits before PHP allocates the length it asked for. */
zend_result async__hook_stream_read_minit(void);
void async__hook_stream_read_mshutdown(void);

/* ---------------------------------------------------------------------------------------------
 * What the hooks share
 * ------------------------------------------------------------------------------------------- */

/* hooks/stream_transport.c: makes a socket stream coroutine-aware (one made outside the
 * transports, e.g. by stream_socket_pair()). Persistent streams and streams already wrapped are
 * left alone. */
void async__net_stream_wrap(php_stream *stream);

/* hooks/stream_transport.c: called by hooks/stream_read.c before PHP allocates a read's buffer.
 * On a socket stream of ours, in a coroutine that may wait, blocking, with nothing buffered (in
 * the stream or inside OpenSSL) and nothing to read on the socket, it waits for readability as
 * the read op would (the stream's timeout, cancellation), holding no buffer: the stream's empty
 * read buffer is given back meanwhile. Then the read that follows at once goes on with the same
 * deadline: it finds the data, or reports the timeout (timed_out) without waiting again. */
enum {
	ASYNC_NET_READ_GO,      /* call PHP's function now (nothing to wait for, ready, or timed out) */
	ASYNC_NET_READ_CLOSED,  /* another coroutine closed the stream meanwhile: end of stream, and
	                         * the stream must not be touched (it may be freed) */
	ASYNC_NET_READ_THROWN,  /* the wait was cancelled: the exception is set */
};
int async__net_read_wait(php_stream *stream);
/* The stream is a socket stream of ours (its read op is hooks/stream_transport.c's). */
bool async__net_stream_owned(php_stream *stream);

/* hooks/dns.c: whether the caller may suspend for a lookup (inside a coroutine, switching
 * allowed). */
bool async__dns_can_wait(void);
/* Waits for a lookup event created by the caller. true when it completed (read
 * async__dns_status()); false with an exception (the coroutine was cancelled, ...). The caller
 * keeps its reference. */
bool async__dns_wait(zend_async_event_t *event);
/* getaddrinfo() for the current coroutine: the same contract as getaddrinfo(3) (returns 0 or an
 * EAI_* code, *res to be freed with ZEND_ASYNC_FREEADDRINFO), or -1 with an exception set when the
 * wait was interrupted. Only call when async__dns_can_wait(). */
int async__dns_getaddrinfo(const char *node, const char *service, const struct addrinfo *hints, struct addrinfo **res);
/* An IPv4 or IPv6 address written out: no resolver is ever asked for it. */
bool async__dns_is_literal_address(const char *host);
/* php_network_getaddresses() with the lookup on the thread pool while the coroutine waits: the
 * same hints, result, warnings and *error_string. Outside a coroutine, and for literal addresses
 * (which never reach a resolver), it is PHP's own function. 0 with an exception when the wait was
 * interrupted (the coroutine was cancelled). */
int async__dns_network_getaddresses(const char *host, int socktype, struct sockaddr ***sal, zend_string **error_string);

/* hooks/proc_wait.c: suspends the current coroutine until the child `pid` has exited (it is not
 * reaped: the caller's waitpid() then returns at once). True at once when it has exited already
 * or is not ours to wait for; false with an exception (the coroutine was cancelled). Only call
 * when async_io_can_wait(). */
bool async__child_wait_exit(pid_t pid);

/* hooks/watchdog.c: async.block_warning_ms. A watcher thread (started when the setting is on)
 * raises the VM interrupt when no switch happened for the limit; the interrupt function names the
 * coroutine and where it is. */
zend_result async__hook_watchdog_minit(void);
void async__hook_watchdog_mshutdown(void);
void async__hook_watchdog_rinit(void);  /* (starts the thread when the setting is on) */
void async__watchdog_start(void);  /* turned on at runtime */
/* The thread whose globals hold *slot ends: its watcher stops (MSHUTDOWN, and GSHUTDOWN on ZTS). */
struct _async_watchdog_s;
void async__watchdog_stop(struct _async_watchdog_s **slot);

/* hooks/dump.c: async.dump_on_signal. The signal prints every coroutine's state and trace through
 * PHP's error channel. parse: 0 for off, -1 for a value that names no usable signal. */
int async__dump_parse_signal(const char *value);
zend_result async__hook_dump_minit(void);
void async__hook_dump_mshutdown(void);
void async__hook_dump_rinit(void);
void async__hook_dump_rshutdown(void);

/* hooks/time.c: time(), microtime(), hrtime(), gettimeofday(), the date functions without a
 * timestamp and DateTime's "now" read the clock of a virtual_time() bubble inside one. */
zend_result async__hook_time_minit(void);
void async__hook_time_mshutdown(void);

/*
 * hooks/stdio.c — what the stdio stream hook files share (hooks/stdio.c, hooks/stdio_files.c,
 * hooks/stdio_lock.c). See docs/stdio.md.
 */

/* What we keep per stdio stream that needed it (ASYNC_G(stdio_streams), keyed by the stream's
 * address, dropped when the stream closes). */
typedef struct {
	zend_long timeout_ms;  /* stream_set_timeout(); -1 = none (PHP's stdio layer has no slot) */
	bool timed_out;        /* the last read timed out: stream_get_meta_data()['timed_out'] */
	bool closing;          /* close() runs: waiters leave without touching the stream */
	uint32_t inflight;     /* coroutines waiting inside one of our ops */
} async_stdio_state_t;

/* The head of PHP's private php_stdio_stream_data (plain_wrapper.c): `FILE *file; int fd;` have
 * led the struct since PHP 5 and are all we read. */
typedef struct {
	FILE *file;
	int fd;
} async_stdio_head_t;

static zend_always_inline FILE *async__stdio_file(php_stream *stream)
{
	return ((async_stdio_head_t *) stream->abstract)->file;
}

/* The descriptor as PHP's PHP_STDIOP_GET_FD() finds it. */
static zend_always_inline int async__stdio_fd(php_stream *stream)
{
	async_stdio_head_t *head = (async_stdio_head_t *) stream->abstract;
	return head->file ? fileno(head->file) : head->fd;
}

/* May a stdio op suspend here? In a coroutine (async_io_can_wait()) AND called from an internal
 * function (fread(), file_get_contents(), flock(), ...). Not when the engine reads a file it is
 * about to compile (include/require, autoloading: the frame is user code): a switch in the middle
 * of that let another coroutine compile meanwhile (seen with opcache: "Class not found" in
 * Guzzle's autoloaded classes, tests/curl/053 and 054 under the jit-tracing lane). */
static zend_always_inline bool async__stdio_may_switch(void)
{
	zend_execute_data *ex = EG(current_execute_data);
	return ex != NULL && ex->func != NULL && ex->func->type == ZEND_INTERNAL_FUNCTION && async_io_can_wait();
}

/* hooks/stdio.c: PHP's own stdio ops (copied before the table was patched). */
const php_stream_ops *async__stdio_orig_ops(void);
/* The stream's state, or NULL; _get creates it. */
async_stdio_state_t *async__stdio_state_find(php_stream *stream);
async_stdio_state_t *async__stdio_state_get(php_stream *stream);

/* hooks/stdio_files.c: regular files and everything else not waited for — sliced, with a time
 * budget per coroutine; fsync()/fdatasync(), shrinking ftruncate() and the writeback before close() of big files on the pool. */
ssize_t async__stdio_file_read(php_stream *stream, char *buf, size_t count);
ssize_t async__stdio_file_write(php_stream *stream, const char *buf, size_t count);
int async__stdio_file_sync(php_stream *stream, int value, void *ptrparam);
int async__stdio_file_truncate(php_stream *stream, int value, void *ptrparam);
/* Before PHP's close() of a big file written to: its writeback started on the pool. */
void async__stdio_file_close_prepare(php_stream *stream);
/* copy() in a coroutine: PHP's copy_file_range() fast path would copy the whole file in one
 * blocking call. While the coroutine's copy() runs, its stdio streams refuse to be cast to a
 * descriptor, so PHP falls back to its mmap/read-write copy through the sliced ops. */
bool async__stdio_copy_refuses_fd(void);
void async__stdio_copy_hook_install(void);
void async__stdio_copy_hook_uninstall(void);
void async__stdio_copy_rshutdown(void);

/* hooks/stdio_pool.c: one blocking file system call on the thread pool while the coroutine waits.
 * Its result (-1 with errno), or -1 with errno EINTR and an exception (cancelled: the call still
 * completes on its thread; a descriptor it opened is closed). */
typedef enum {
	STDIO_CALL_FSYNC, STDIO_CALL_FDATASYNC, STDIO_CALL_FTRUNCATE, STDIO_CALL_WRITEBACK,
	STDIO_CALL_UNLINK, STDIO_CALL_OPEN, STDIO_CALL_OPEN_FIFO,
} async_stdio_call_op_t;

typedef struct {
	async_stdio_call_op_t op;
	int fd;         /* FSYNC, FDATASYNC, FTRUNCATE, WRITEBACK */
	int flags;      /* OPEN, OPEN_FIFO */
	off_t size;     /* FTRUNCATE */
} async_stdio_call_t;

intptr_t async__stdio_pool_call(const async_stdio_call_t *call, const char *path, const char *what);

/* Files at least this big are truncated, closed after writing, and unlinked on the pool (their
 * blocks are freed or written back there); below, the call is quicker than the pool's hop. */
#define ASYNC_STDIO_BIG_FILE (8 * 1024 * 1024)

/* hooks/stdio_wrapper.c: the plain-files wrapper's opener and unlink, patched (FIFOs, big files). */
void async__stdio_wrapper_hooks_install(void);
void async__stdio_wrapper_hooks_uninstall(void);

/* hooks/stdio_lock.c: flock() (PHP_STREAM_OPTION_LOCKING). */
int async__stdio_lock(php_stream *stream, int value, void *ptrparam);
void async__stdio_lock_rshutdown(void);

#ifdef HAVE_ASYNC_CURL
#include <curl/curl.h>

/*
 * hooks/curl.c — what the two halves of the curl hook share (private to hooks/curl*.c).
 *
 * hooks/curl_multi.c knows libcurl only: its functions (taken from the libcurl ext/curl itself
 * uses), and a transfer driven by the multi-socket interface on the reactor.
 * hooks/curl.c knows which of ext/curl's calls into libcurl block, and redirects them.
 */

/* libcurl's functions, looked up in the library ext/curl was loaded with (never linked: a
 * second libcurl, or a different flavour of it, must never see ext/curl's handles). */
typedef struct {
	__typeof__(curl_easy_setopt) *easy_setopt;
	__typeof__(curl_multi_init) *multi_init;
	__typeof__(curl_multi_cleanup) *multi_cleanup;
	__typeof__(curl_multi_setopt) *multi_setopt;
	__typeof__(curl_multi_add_handle) *multi_add_handle;
	__typeof__(curl_multi_remove_handle) *multi_remove_handle;
	__typeof__(curl_multi_socket_action) *multi_socket_action;
	__typeof__(curl_multi_info_read) *multi_info_read;
	__typeof__(curl_multi_fdset) *multi_fdset;
	__typeof__(curl_multi_timeout) *multi_timeout;
} async_curl_api_t;

/* per-process: filled once by async__curl_api_load() */
extern async_curl_api_t async__curl_api;

/* Looks every function up through `dl_handle` (ext/curl's module handle; NULL: the process's
 * global scope, for a curl built into PHP). False when one is missing. */
bool async__curl_api_load(void *dl_handle);

/* One easy handle's private multi: the transfers of curl_exec() on that handle run there, so
 * every callback of the transfer runs in the coroutine that called curl_exec() (see
 * docs/curl.md for why not one multi for all). Kept while the handle lives, so the connection
 * of one curl_exec() is reused by the next. */
typedef struct _async_curl_driver_s async_curl_driver_t;

async_curl_driver_t *async__curl_driver_new(CURL *easy);
void async__curl_driver_free(async_curl_driver_t *driver);
/* A transfer of this driver is running (a callback called curl_exec() on its own handle). */
bool async__curl_driver_busy(const async_curl_driver_t *driver);

typedef enum {
	ASYNC_CURL_DONE,     /* *result holds the transfer's CURLcode */
	ASYNC_CURL_ABORTED,  /* an exception (cancellation, a callback threw): the transfer was ended */
	ASYNC_CURL_REFUSED,  /* libcurl would not take the handle (in another multi): nothing done */
} async_curl_outcome_t;

/* Runs the handle's transfer to its end, suspending only the current coroutine while libcurl
 * waits for its sockets and timers. Call only when async_io_can_wait(). The handle is detached
 * again whatever the outcome, so it stays usable. */
async_curl_outcome_t async__curl_driver_run(async_curl_driver_t *driver, CURLcode *result);

/* curl_multi_wait() for a multi handle the caller drives with curl_multi_perform(): waits for
 * its sockets on the reactor, at most timeout_ms (shortened to libcurl's own timeout), or until
 * `progress` is notified (0 then, as on a timeout). The number of ready sockets; -1 with *error
 * set (a libcurl error) or with an exception (cancellation). */
int async__curl_multi_wait(CURLM *multi, int timeout_ms, zend_async_event_t *progress, CURLMcode *error);

#endif /* HAVE_ASYNC_CURL */

#ifdef HAVE_ASYNC_PGSQL
#include <poll.h>
#include <libpq-fe.h>

/*
 * hooks/pgsql.c — what the three parts of the PostgreSQL hook share (private to hooks/pgsql*.c).
 *
 * - hooks/pgsql.c: libpq's own waits. libpq blocks only in poll() on its socket and in
 *   getaddrinfo(); its imports of those (and of close()) are redirected, and so is pdo_pgsql's
 *   poll() (getNotify() with a timeout). Install, request end, uninstall.
 * - hooks/pgsql_conn.c: which coroutine is inside which connection. The drivers' imports of the
 *   libpq functions that touch a connection's socket are redirected: one coroutine at a time per
 *   connection (its turn), and a record of the call, which the waits above find.
 * - hooks/pgsql_cancel.c: what a cancellation of a waiting call does: the server is asked to
 *   cancel the statement, libpq reads its answer (the connection stays usable), within a grace.
 *
 * libpq is never linked: its functions are looked up through the drivers' own module handles, so
 * the hook always talks to the libpq the drivers use.
 */

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

/* per-process: filled once at MINIT by async__pq_api_load() */
extern async_pq_api_t async__pq_api;

/* Looks every function up through a driver's module handle (NULL: the process's global scope,
 * for a driver built into PHP). False when one is missing. */
bool async__pq_api_load(void *dl_handle);

/* What a cancellation of the call's waits means. */
typedef enum {
	PQ_CALL_QUERY,    /* on a made connection: the server is asked to cancel, libpq reads its answer */
	PQ_CALL_CONNECT,  /* making or resetting a connection: the attempt is given up at once */
	PQ_CALL_CLOSE,    /* PQfinish(): the connection is dropped at once */
} pq_call_kind_t;

typedef struct _pq_conn_s pq_conn_t;
typedef struct _pq_call_s pq_call_t;

/* One redirected libpq call made in a coroutine, on that coroutine's C stack while it runs. The
 * waits inside it (poll(), getaddrinfo()) find it by the coroutine (async__pq_call_current()). */
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

/* hooks/pgsql_conn.c: the innermost call of the current coroutine, or NULL. */
pq_call_t *async__pq_call_current(void);

/* hooks/pgsql_conn.c: true the first time the call's connection waits for `fd` in this request:
 * the poll registry is then told the descriptor's closes are announced (async_io_fd_track()). */
bool async__pq_call_track(pq_call_t *call, int fd);

/* poll()'s events as the descriptor-wait API's mask, and back. */
static inline int async__pq_poll_mask(short events)
{
	return ((events & POLLIN) ? ASYNC_POLL_READ : 0) | ((events & POLLOUT) ? ASYNC_POLL_WRITE : 0)
		| ((events & POLLPRI) ? ASYNC_POLL_PRI : 0);
}

static inline short async__pq_poll_revents(int ready, short events)
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

/* hooks/pgsql_conn.c: redirects the imports of libpq of the driver whose object holds
 * `driver_anchor` into table `slot` (0 pgsql, 1 pdo_pgsql) at MINIT; false when they could not all
 * be (nothing is left redirected then). Put back at MSHUTDOWN. At request end every call a
 * coroutine was left inside gets a blocking cancel, then the states go. */
bool async__pq_conn_install(const void *driver_anchor, void *dl_handle, size_t slot);
void async__pq_conn_uninstall(void);
void async__pq_conn_rshutdown(void);

/* hooks/pgsql_cancel.c ------------------------------------------------------------------------ */

/* True on a thread of libuv's pool running a cancel request: the redirected imports go straight
 * to libc there (nothing of PHP's may be touched off the request's thread). */
bool async__pq_on_pool_thread(void);

/* A wait of `call` ended with an exception: it is taken out of EG(exception) and kept in the call
 * (the first one; a later one is dropped unless it is a forced exit), and the grace starts. */
void async__pq_call_interrupt(pq_call_t *call);

/* libpq's poll() of `fd` inside an interrupted call: the cancel request is sent once libpq waits
 * to read (its query is out), then the wait goes on until the grace ends, when the socket is shut
 * down (libpq then sees the connection closed). What poll() returns: 1 ready, 0 on libpq's own
 * timeout, -1 with errno ECANCELED for a connect or a close (given up at once). */
int async__pq_cancel_poll(pq_call_t *call, struct pollfd *pfd, int timeout_ms);

/* After an interrupted query call returned: reads what the connection still sends until it is
 * idle (a COPY is ended), so the next call on it starts clean. */
void async__pq_cancel_drain(pq_call_t *call);

/* A blocking cancel request for a connection whose call can never return (its coroutine was
 * dropped: a fatal error, the request ending). */
void async__pq_cancel_blocking(PGconn *conn);

/* The cancel request of a driver (PQcancel(), PQrequestCancel()) on the pool while the coroutine
 * waits; blocking where switching is impossible. PQcancel()'s contract. */
int async__pq_cancel_request(PGcancel *cancel, char *errbuf, int errbufsize);

#endif /* HAVE_ASYNC_PGSQL */

#ifdef HAVE_ASYNC_PDO_POOL
#include "ext/pdo/php_pdo_driver.h"

/*
 * hooks/pdo_pool.c — what the PDO pool's files share (hooks/pdo_pool*.c): one PDO object used by
 * many coroutines, each call run on a physical connection bound to the calling coroutine.
 *
 * Three records:
 * - a template (async_pdo_tpl_t): the user's PDO object built with PDO::ATTR_POOL_ENABLED, its
 *   constructor's arguments, its Async\Pool (the ABI's, C callbacks) and what was registered on
 *   it to be repeated on every connection;
 * - a connection (async_pdo_conn_t): one physical PDO object of the pool (the pool's resource
 *   is that object), the statements prepared on it, the coroutine it is bound to;
 * - a view (async_pdo_view_t): one coroutine's side of one template: its bound connection, the
 *   attributes it set, and what a private connection would still report after the connection went
 *   back (error state, last insert id).
 *
 * A call on a template from a coroutine swaps the frame's $this for the bound connection's object
 * and runs PHP's own method: nothing of PDO or its drivers is copied, and the statement it makes
 * belongs to the physical connection (docs/pdo-pool.md).
 */

/* The constants PHP's PDO class gets (TrueAsync's names; our own values, beyond PDO's and its
 * drivers' ranges). */
#define ASYNC_PDO_ATTR_POOL_ENABLED              9100
#define ASYNC_PDO_ATTR_POOL_MIN                  9101
#define ASYNC_PDO_ATTR_POOL_MAX                  9102
#define ASYNC_PDO_ATTR_POOL_HEALTHCHECK_INTERVAL 9103
#define ASYNC_PDO_ATTR_POOL_STMT_CACHE_SIZE      9104
#define ASYNC_PDO_ATTR_POOL_FIRST                ASYNC_PDO_ATTR_POOL_ENABLED
#define ASYNC_PDO_ATTR_POOL_LAST                 ASYNC_PDO_ATTR_POOL_STMT_CACHE_SIZE

#define ASYNC_PDO_POOL_MAX_DEFAULT 10

typedef enum {
	ASYNC_PDO_DRIVER_MYSQL,
	ASYNC_PDO_DRIVER_PGSQL,
	ASYNC_PDO_DRIVER_SQLITE,
} async_pdo_driver_t;

/* What a method does, as far as the pool cares (decided once per method at MINIT, by name). */
typedef enum {
	ASYNC_PDO_M_GENERIC,        /* runs on the bound connection */
	ASYNC_PDO_M_PREPARE,        /* ... and makes a statement (pins the connection) */
	ASYNC_PDO_M_QUERY,          /* ... likewise, and runs SQL */
	ASYNC_PDO_M_EXEC,           /* runs SQL */
	ASYNC_PDO_M_ERROR_CODE,     /* answered from the view when no connection is bound */
	ASYNC_PDO_M_ERROR_INFO,
	ASYNC_PDO_M_LAST_INSERT_ID,
	ASYNC_PDO_M_IN_TRANSACTION, /* false when no connection is bound */
	ASYNC_PDO_M_GET_ATTRIBUTE,  /* the pool's own attributes answered here */
	ASYNC_PDO_M_SET_ATTRIBUTE,  /* per coroutine (the view's), the pool's own refused */
	ASYNC_PDO_M_REGISTER,       /* registers something on the connection (SQLite functions, a
	                             * notice callback): run on the template, repeated on every one */
} async_pdo_method_kind_t;

typedef struct _async_pdo_tpl_s async_pdo_tpl_t;
typedef struct _async_pdo_conn_s async_pdo_conn_t;
typedef struct _async_pdo_view_s async_pdo_view_t;

/* One call repeated on every connection (a method of the template and its arguments). */
typedef struct {
	zend_string *method;       /* lower case */
	uint32_t argc;
	zval *argv;
} async_pdo_replay_t;

struct _async_pdo_tpl_s {
	uint32_t refcount;           /* the template object's, and one per connection alive */
	zend_object *obj;            /* the user's PDO object (not a reference); NULL once freed */
	zend_async_pool_t *pool;     /* NULL once closed and released */
	zend_class_entry *conn_ce;   /* the class of the physical objects: the template's PHP one */
	async_pdo_driver_t driver;
	zval ctor_args[4];           /* dsn, username, password, options without the pool's keys */
	uint32_t ctor_argc;
	zend_long min, max, healthcheck_interval, stmt_cache_size;
	HashTable views;             /* zend_coroutine_t * -> async_pdo_view_t * */
	HashTable conns;             /* physical object handle -> async_pdo_conn_t * */
	async_pdo_replay_t *replay;  /* calls made on the template, repeated on every connection */
	uint32_t replay_count, replay_capacity;
	bool closed;                 /* the template is gone or the request ends: no more binding */
};

struct _async_pdo_conn_s {
	zend_object *obj;          /* the physical PDO object (the pool's resource) */
	async_pdo_tpl_t *tpl;      /* a reference */
	async_pdo_view_t *view;    /* the coroutine it is bound to, or NULL */
	uint32_t statements;       /* live statements prepared on it */
	uint32_t replayed;         /* entries of tpl->replay applied */
	HashTable *saved_attrs;    /* attribute -> the template's value, while a view overrides it */
	HashTable *stmt_cache;     /* SQL -> cached statement (hooks/pdo_pool_stmt.c), or NULL */
	bool broken;               /* destroyed when it leaves its coroutine, never handed out again */
	bool out;                  /* taken from the pool (bound, pinned or acquired by user code) */
	bool releasing;            /* inside async_pdo_conn_release() */
	bool maybe_inserted;       /* SQL that may have made an id ran since the last release */
	zend_long thread_id;       /* MySQL's CONNECTION_ID(), for a KILL QUERY when cancelled (0: unknown) */
};

struct _async_pdo_view_s {
	async_pdo_tpl_t *tpl;
	zend_coroutine_t *co;
	async_pdo_conn_t *conn;   /* bound, or NULL */
	uint32_t depth;           /* calls of this coroutine running on the template */
	bool made_sql;            /* SQL ran through the template on the bound connection */
	HashTable *attrs;         /* attribute -> value this coroutine set */
	/* What the coroutine's last connection reported when it went back: */
	bool has_error;           /* an error state was kept (else: as a fresh connection) */
	zval error_code;          /* errorCode()'s answer */
	zval error_info;          /* errorInfo()'s answer */
	zval last_id;             /* lastInsertId()'s answer, or UNDEF */
	async_pdo_view_t *next_of_co; /* the coroutine's other views */
};

/* ---------------------------------------------------------------------------------------------
 * hooks/pdo_pool.c: installation, templates, the methods' trampolines
 * ------------------------------------------------------------------------------------------- */

extern zend_class_entry *async__pdo_exception_ce;

/* The template of a PDO object, or NULL when pooling is off for it. */
async_pdo_tpl_t *async__pdo_tpl_of(zend_object *obj);
void async__pdo_tpl_release(async_pdo_tpl_t *tpl);
/* The request's end: the template's object and its connections still out become PHP's own. */
void async__pdo_pool_detach(async_pdo_tpl_t *tpl);
/* Calls a method of a PDO object by its lower-case name, as PHP's own (no pool in between): true
 * when it returned without an exception. `quiet`: no warning, no exception left (the connection's
 * error mode silenced for the call). */
bool async__pdo_call(zend_object *obj, const char *lc_name, uint32_t argc, zval *argv, zval *retval, bool quiet);
pdo_dbh_t *async__pdo_dbh(zend_object *obj);
bool async__pdo_in_transaction(zend_object *obj);

/* ---------------------------------------------------------------------------------------------
 * hooks/pdo_pool_conn.c: the pool's callbacks, views and bindings, the statements' lifetimes
 * ------------------------------------------------------------------------------------------- */

/* The pool of a new template (its MIN connections made now); false with an exception. */
bool async__pdo_pool_create(async_pdo_tpl_t *tpl);
/* The template goes: views dropped, idle connections destroyed, busy ones when they come back. */
void async__pdo_pool_close(async_pdo_tpl_t *tpl);

async_pdo_view_t *async__pdo_view_get(async_pdo_tpl_t *tpl, zend_coroutine_t *co);
/* Binds a connection to the view (suspends at MAX; may_wait false: only an idle one); false with
 * an exception. */
bool async__pdo_view_bind(async_pdo_view_t *view, bool may_wait);
/* After a call: the connection goes back to the pool unless a statement or a transaction pins it. */
void async__pdo_view_after_call(async_pdo_view_t *view);
/* A call made a statement on the view's connection: it pins the connection while it lives. */
void async__pdo_conn_track_statement(async_pdo_conn_t *conn, zend_object *stmt);
/* A statement no longer pins its connection (taken back by the statement cache). */
void async__pdo_conn_untrack_statement(async_pdo_conn_t *conn, zend_object *stmt);
/* A call ended with an exception or an error: a cancelled, dead or dropped connection is broken. */
void async__pdo_conn_after_error(async_pdo_conn_t *conn, bool cancelled);
/* Applies what the template registered since the connection last took it. */
void async__pdo_conn_replay(async_pdo_conn_t *conn);
/* A view sets an attribute on its connection: the template's value is kept to be put back. */
bool async__pdo_conn_override(async_pdo_conn_t *conn, zend_long attr, zval *value);

void async__pdo_pool_conn_minit(void);
void async__pdo_pool_conn_mshutdown(void);

/* ---------------------------------------------------------------------------------------------
 * hooks/pdo_pool_sever.c: a MySQL connection broken by a cancellation, cut off on the wire
 * ------------------------------------------------------------------------------------------- */

/* Shuts the connection's socket down (the server rolls its transaction back now), whatever keeps
 * the PDO object alive; the descriptor stays mysqlnd's. */
void async__pdo_conn_sever(async_pdo_conn_t *conn);
void async__pdo_sever_minit(void);

/* ---------------------------------------------------------------------------------------------
 * hooks/pdo_pool_stmt.c: the prepared-statement cache of each connection
 * ------------------------------------------------------------------------------------------- */

/* prepare() of `sql` on a connection with a cache: a cached statement handed out again (true,
 * *retval set), or false to prepare as PHP does. */
bool async__pdo_stmt_cache_take(async_pdo_conn_t *conn, zend_string *sql, zval *options, zval *retval);
/* A statement prepare() just made: kept in the cache when it can be. */
void async__pdo_stmt_cache_put(async_pdo_conn_t *conn, zend_string *sql, zval *options, zend_object *stmt);
/* A statement's caller let it go (its destructor): true when the cache took it back. */
bool async__pdo_stmt_cache_back(zend_object *stmt);
void async__pdo_stmt_cache_free(async_pdo_conn_t *conn);
void async__pdo_stmt_cache_minit(void);
void async__pdo_stmt_cache_mshutdown(void);
void async__pdo_stmt_cache_rshutdown(void);

#endif /* HAVE_ASYNC_PDO_POOL */

#endif /* ASYNC_HOOKS_H */
