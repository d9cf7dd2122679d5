/*
 * hooks/sockets.c — ext/sockets' blocking calls suspend only the calling coroutine.
 *
 * socket_connect, socket_accept, socket_read, socket_write, socket_recv, socket_send,
 * socket_recvfrom, socket_sendto and socket_select get new handlers at MINIT (P18; the functions
 * of every loaded extension are registered before any MINIT runs, so the load order does not
 * matter). A new handler changes something only inside a coroutine (async_io_can_wait()) and for
 * a socket in blocking mode; otherwise PHP's own handler runs untouched.
 *
 * Two ways of not blocking, chosen per call by what keeps PHP's semantics:
 * - Delegate: accept, recvfrom, sendto and connect run PHP's own handler with O_NONBLOCK set
 *   for the duration of the call. When it reports EAGAIN (which PHP does without a warning), the
 *   errors are put back, the coroutine waits for the descriptor, and the call is made again.
 * - Own loop: read, write, recv and send are re-implemented with MSG_DONTWAIT, because one
 *   non-blocking syscall does not mean the same as one blocking one for them: a blocking write
 *   sends everything, a PHP_NORMAL_READ reads up to the end of a line, MSG_WAITALL fills the buffer.
 * SO_RCVTIMEO / SO_SNDTIMEO bound the waits as they bound the blocking calls, with the same
 * outcome (EAGAIN, no warning; EINPROGRESS for a connect). Warnings, socket_last_error() and the
 * socket's own error are what PHP's handler would leave.
 *
 * socket_close() and the destruction of a Socket announce the descriptor's end to the poll
 * registry (async_io_fd_closing), so a descriptor number reused later starts clean (P13).
 */
#include "php_async.h"
#include "hooks/hooks.h"
#include "core/core.h"
#include "async_io_wait.h"
#include "reactor/reactor.h"
#include "php_network.h"
#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <time.h>

#ifndef HAVE_SOCKETS
# define HAVE_SOCKETS 1
#endif
#include "ext/sockets/php_sockets.h"

/* ---------------------------------------------------------------------------------------------
 * ext/sockets' state, found at run time: it may load after us, and linking against another
 * extension's data symbols would make our module fail to load without it.
 * ------------------------------------------------------------------------------------------- */

/* per-process: ext/sockets' class, looked up once */
static zend_class_entry *sockets_ce;
#ifdef ZTS
/* per-process: ext/sockets' TSRM id (its globals are per thread), looked up once */
static ts_rsrc_id sockets_tsrm_id;
#else
/* per-process: ext/sockets' globals, looked up once */
static zend_sockets_globals *sockets_globals_ptr;
#endif
/* per-process: object handlers, filled once at MINIT */
static zend_object_handlers socket_handlers_copy;
/* per-process: ext/sockets' original handler, saved once */
static void (*socket_free_obj_orig)(zend_object *object);
/* per-process: ext/sockets' original create_object, saved once */
static zend_object *(*socket_create_object_orig)(zend_class_entry *ce);

static void socket_free_obj(zend_object *object)
{
	php_socket *sock = socket_from_obj(object);
	if (!IS_INVALID_SOCKET(sock) && Z_ISUNDEF(sock->zstream)) {
		async_io_fd_closing(sock->bsd_socket);
	}
	socket_free_obj_orig(object);
}

/* Every new Socket gets a copy of ext/sockets' handlers whose free_obj announces the close. */
static zend_object *socket_create_object(zend_class_entry *ce)
{
	zend_object *object = socket_create_object_orig(ce);
	if (socket_free_obj_orig == NULL) {
		socket_handlers_copy = *object->handlers;
		socket_free_obj_orig = socket_handlers_copy.free_obj;
		socket_handlers_copy.free_obj = socket_free_obj;
	}
	if (object->handlers->free_obj == socket_free_obj_orig) {
		object->handlers = &socket_handlers_copy;
	}
	return object;
}

static bool sockets_state(void)
{
	if (sockets_ce != NULL) {
		return true;
	}
	zend_module_entry *module = zend_hash_str_find_ptr(&module_registry, "sockets", sizeof("sockets") - 1);
	zend_class_entry *ce = zend_hash_str_find_ptr(CG(class_table), "socket", sizeof("socket") - 1);
	if (module == NULL || !module->module_started || ce == NULL) {
		return false;
	}
#ifdef ZTS
	if (module->globals_id_ptr == NULL || *module->globals_id_ptr == 0) {
		return false;
	}
	sockets_tsrm_id = *module->globals_id_ptr;
#else
	if (module->globals_ptr == NULL) {
		return false;
	}
	sockets_globals_ptr = module->globals_ptr;
#endif
	sockets_ce = ce;
	return true;
}

#ifdef ZTS
# define LAST_ERROR (ZEND_TSRMG(sockets_tsrm_id, zend_sockets_globals *, last_error))
#else
# define LAST_ERROR (sockets_globals_ptr->last_error)
#endif

/* The hooks install at MINIT; the class exists only after ext/sockets' MINIT, so its object
 * handlers are wrapped on the first request. */
void async__hook_sockets_rinit(void)
{
	if (socket_create_object_orig == NULL && sockets_state() && sockets_ce->create_object != NULL) {
		socket_create_object_orig = sockets_ce->create_object;
		sockets_ce->create_object = socket_create_object;
	}
}

/* ---------------------------------------------------------------------------------------------
 * Errors as ext/sockets reports them
 * ------------------------------------------------------------------------------------------- */

static void set_error(php_socket *sock, int err)
{
	sock->error = err;
	LAST_ERROR = err;
}

/* PHP_SOCKET_ERROR: record the error; warn unless it only means "would block". */
static void report_error(php_socket *sock, const char *message, int err)
{
	set_error(sock, err);
	if (err != EAGAIN && err != EWOULDBLOCK && err != EINPROGRESS) {
		php_error_docref(NULL, E_WARNING, "%s [%d]: %s", message, err, strerror(err));
	}
}

typedef struct {
	int sock_error;
	int last_error;
} saved_errors_t;

static saved_errors_t save_errors(php_socket *sock)
{
	return (saved_errors_t) { sock->error, LAST_ERROR };
}

static void restore_errors(php_socket *sock, saved_errors_t saved)
{
	sock->error = saved.sock_error;
	LAST_ERROR = saved.last_error;
}

static bool would_block(int err)
{
	return err == EAGAIN || err == EWOULDBLOCK;
}

/* ---------------------------------------------------------------------------------------------
 * Which calls change: a coroutine that may wait, and a valid Socket in blocking mode
 * ------------------------------------------------------------------------------------------- */

/* A Socket made by socket_import_stream() from a socket stream follows the stream's own
 * blocking flag: the stream transports keep such a descriptor O_NONBLOCK under the hood, which
 * ext/sockets read as "non-blocking" when it imported it. 1 / 0, or -1 for any other Socket. */
static int imported_blocking(php_socket *sock)
{
	if (Z_TYPE(sock->zstream) != IS_RESOURCE) {
		return -1;
	}
	php_stream *stream = zend_fetch_resource2_ex(&sock->zstream, NULL, php_file_le_stream(), php_file_le_pstream());
	if (stream == NULL || stream->abstract == NULL || stream->ops->label == NULL) {
		return -1;
	}
	const char *label = stream->ops->label;
	if (strncmp(label, "tcp_socket", sizeof("tcp_socket") - 1) != 0 && strcmp(label, "unix_socket") != 0
			&& strcmp(label, "udp_socket") != 0 && strcmp(label, "udg_socket") != 0) {
		return -1; /* another kind of stream: its abstract data is not php_netstream_data_t */
	}
	return ((php_netstream_data_t *) stream->abstract)->is_blocked ? 1 : 0;
}

/* The first argument as a Socket, if it is a valid one. */
static php_socket *socket_arg(zend_execute_data *execute_data)
{
	if (ZEND_NUM_ARGS() < 1 || !sockets_state()) {
		return NULL;
	}
	zval *arg = ZEND_CALL_ARG(execute_data, 1);
	if (Z_TYPE_P(arg) != IS_OBJECT || Z_OBJCE_P(arg) != sockets_ce) {
		return NULL;
	}
	php_socket *sock = Z_SOCKET_P(arg);
	return IS_INVALID_SOCKET(sock) ? NULL : sock;
}

/* The first argument as a blocking Socket (its descriptor flags in *fl), or NULL: PHP's own
 * handler then runs, which also reports any argument error. */
static php_socket *blocking_socket(zend_execute_data *execute_data, int *fl)
{
	if (!async_io_can_wait()) {
		return NULL;
	}
	php_socket *sock = socket_arg(execute_data);
	if (sock == NULL) {
		return NULL;
	}
	int imported = imported_blocking(sock);
	if (imported == 0 || (imported < 0 && !sock->blocking)) {
		return NULL;
	}
	int flags = fcntl(sock->bsd_socket, F_GETFL);
	if (flags < 0 || (imported < 0 && (flags & O_NONBLOCK))) {
		return NULL;
	}
	*fl = flags; /* put back as found: an imported descriptor's mode belongs to its stream */
	return sock;
}

/* PHP's own handler. For an imported blocking Socket whose descriptor the stream transports made
 * O_NONBLOCK, the descriptor blocks for the call, as PHP expects it to. */
static void call_stock(zif_handler original, INTERNAL_FUNCTION_PARAMETERS)
{
	php_socket *sock = socket_arg(execute_data);
	int fl;
	if (sock == NULL || imported_blocking(sock) != 1 || (fl = fcntl(sock->bsd_socket, F_GETFL)) < 0
			|| !(fl & O_NONBLOCK)) {
		original(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	php_socket_t fd = sock->bsd_socket;
	fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	original(INTERNAL_FUNCTION_PARAM_PASSTHRU);
	if (!IS_INVALID_SOCKET(sock) && sock->bsd_socket == fd) {
		fcntl(fd, F_SETFL, fl);
	}
}

/* ---------------------------------------------------------------------------------------------
 * Waiting, bounded by SO_RCVTIMEO / SO_SNDTIMEO from the first wait of a call on
 * ------------------------------------------------------------------------------------------- */

typedef struct {
	bool started;
	bool bounded;
	uint64_t deadline_ns;
} wait_budget_t;

/* The socket's timeout for this direction in ms; -1 = none. */
static zend_long socket_timeout_ms(php_socket_t fd, int optname)
{
	struct timeval tv;
	socklen_t len = sizeof(tv);
	if (getsockopt(fd, SOL_SOCKET, optname, &tv, &len) != 0 || (tv.tv_sec == 0 && tv.tv_usec == 0)) {
		return -1;
	}
	return (zend_long) tv.tv_sec * 1000 + (tv.tv_usec + 999) / 1000;
}

typedef enum { WAIT_READY, WAIT_TIMEOUT, WAIT_THROWN } wait_result_t;

static void budget_start(php_socket_t fd, int timeout_opt, wait_budget_t *budget)
{
	if (budget->started) {
		return;
	}
	budget->started = true;
	zend_long ms = timeout_opt ? socket_timeout_ms(fd, timeout_opt) : -1;
	budget->bounded = ms >= 0;
	if (budget->bounded) {
		budget->deadline_ns = async_reactor_hrtime() + (uint64_t) ms * 1000000u;
	}
}

/* Milliseconds left (-1 = unbounded), or 0 when the time is up. */
static zend_long budget_remaining(wait_budget_t *budget)
{
	if (!budget->bounded) {
		return -1;
	}
	uint64_t now = async_reactor_hrtime();
	return now >= budget->deadline_ns ? 0 : (zend_long) ((budget->deadline_ns - now + 999999) / 1000000);
}

static wait_result_t wait_for(php_socket_t fd, int mask, int timeout_opt, wait_budget_t *budget)
{
	budget_start(fd, timeout_opt, budget);
	zend_long remaining = budget_remaining(budget);
	if (remaining == 0) {
		return WAIT_TIMEOUT;
	}
	int ready = async_io_wait_fd(fd, mask, remaining);
	if (ready < 0) {
		return WAIT_THROWN;
	}
	return ready == 0 ? WAIT_TIMEOUT : WAIT_READY;
}

/* ---------------------------------------------------------------------------------------------
 * Delegated calls: PHP's handler with O_NONBLOCK around it
 * ------------------------------------------------------------------------------------------- */

enum {
	HOOK_CONNECT, HOOK_ACCEPT, HOOK_READ, HOOK_WRITE, HOOK_RECV, HOOK_SEND, HOOK_RECVFROM, HOOK_SENDTO,
	HOOK_SELECT, HOOK_CLOSE, HOOK_COUNT
};

/* per-process: the function table's handlers, swapped at MINIT */
static async_function_hook_t hooks[HOOK_COUNT];

/* PHP's handler with O_NONBLOCK for the one call. Switching is blocked meanwhile, as PHP does
 * around destructors: a warning it raises may run a user error handler that waits, and another
 * coroutine must not find the socket non-blocking (it would take it for the user's choice). */
static void call_nonblocking(int which, php_socket *sock, int fl, INTERNAL_FUNCTION_PARAMETERS)
{
	fcntl(sock->bsd_socket, F_SETFL, fl | O_NONBLOCK);
	zend_fiber_switch_block();
	hooks[which].original(INTERNAL_FUNCTION_PARAM_PASSTHRU);
	zend_fiber_switch_unblock();
	if (!IS_INVALID_SOCKET(sock)) {
		fcntl(sock->bsd_socket, F_SETFL, fl);
	}
}

/* Runs the handler until it does not report "would block": waiting in between, and once more
 * after the socket's timeout ran out (which then reports what the blocking call would). */
static void delegate(int which, int mask, int timeout_opt, INTERNAL_FUNCTION_PARAMETERS)
{
	int fl;
	php_socket *sock = blocking_socket(execute_data, &fl);
	if (sock == NULL) {
		call_stock(hooks[which].original, INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	wait_budget_t budget = { 0 };
	for (;;) {
		saved_errors_t saved = save_errors(sock);
		LAST_ERROR = 0;
		call_nonblocking(which, sock, fl, INTERNAL_FUNCTION_PARAM_PASSTHRU);
		if (EG(exception) || Z_TYPE_P(return_value) != IS_FALSE || !would_block(LAST_ERROR)) {
			if (LAST_ERROR == 0) {
				LAST_ERROR = saved.last_error;
			}
			return;
		}
		restore_errors(sock, saved);
		wait_result_t waited = wait_for(sock->bsd_socket, mask, timeout_opt, &budget);
		if (waited == WAIT_THROWN) {
			return;
		}
		if (waited == WAIT_TIMEOUT) {
			/* The last try reports EAGAIN as the timed-out blocking call does. */
			call_nonblocking(which, sock, fl, INTERNAL_FUNCTION_PARAM_PASSTHRU);
			return;
		}
		if (IS_INVALID_SOCKET(sock)) {
			hooks[which].original(INTERNAL_FUNCTION_PARAM_PASSTHRU); /* closed meanwhile: PHP's error */
			return;
		}
		zval_ptr_dtor(return_value);
		ZVAL_NULL(return_value);
	}
}

static ZEND_FUNCTION(async_socket_accept)
{
	delegate(HOOK_ACCEPT, ASYNC_POLL_READ, SO_RCVTIMEO, INTERNAL_FUNCTION_PARAM_PASSTHRU);
}

static ZEND_FUNCTION(async_socket_recvfrom)
{
	delegate(HOOK_RECVFROM, ASYNC_POLL_READ, SO_RCVTIMEO, INTERNAL_FUNCTION_PARAM_PASSTHRU);
}

static ZEND_FUNCTION(async_socket_sendto)
{
	delegate(HOOK_SENDTO, ASYNC_POLL_WRITE, SO_SNDTIMEO, INTERNAL_FUNCTION_PARAM_PASSTHRU);
}

/* connect: the non-blocking attempt answers EINPROGRESS (no warning); the coroutine waits for
 * the outcome and reports it as the blocking connect would have. */
static ZEND_FUNCTION(async_socket_connect)
{
	int fl;
	php_socket *sock = blocking_socket(execute_data, &fl);
	if (sock == NULL) {
		call_stock(hooks[HOOK_CONNECT].original, INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	wait_budget_t budget = { 0 };
	for (;;) {
		saved_errors_t saved = save_errors(sock);
		LAST_ERROR = 0;
		call_nonblocking(HOOK_CONNECT, sock, fl, INTERNAL_FUNCTION_PARAM_PASSTHRU);
		if (EG(exception) || Z_TYPE_P(return_value) != IS_FALSE) {
			LAST_ERROR = saved.last_error;
			return;
		}
		int err = LAST_ERROR;
		if (err == EINPROGRESS) {
			wait_result_t waited = wait_for(sock->bsd_socket, ASYNC_POLL_WRITE, SO_SNDTIMEO, &budget);
			if (waited != WAIT_READY) {
				return; /* thrown, or timed out: EINPROGRESS stays, as after a blocking timeout */
			}
			int so_error = 0;
			socklen_t len = sizeof(so_error);
			if (getsockopt(sock->bsd_socket, SOL_SOCKET, SO_ERROR, &so_error, &len) != 0) {
				so_error = errno;
			}
			if (so_error == 0) {
				restore_errors(sock, saved);
				RETURN_TRUE;
			}
			report_error(sock, "unable to connect", so_error);
			RETURN_FALSE;
		}
		if (!would_block(err)) {
			return; /* a real error, reported by PHP's handler */
		}
		/* A Unix socket whose listener's backlog is full: the blocking call would wait for room. */
		restore_errors(sock, saved);
		budget_start(sock->bsd_socket, SO_SNDTIMEO, &budget);
		if (budget_remaining(&budget) == 0) {
			call_nonblocking(HOOK_CONNECT, sock, fl, INTERNAL_FUNCTION_PARAM_PASSTHRU);
			return;
		}
		if (!async__wait_ms(5, 0)) {
			return;
		}
	}
}

/* ---------------------------------------------------------------------------------------------
 * Own loops: read, write, recv, send
 * ------------------------------------------------------------------------------------------- */

#define IO_THROWN (-2)

/* One recv() that waits like a blocking one: -1 with errno, or IO_THROWN. */
static ssize_t recv_waiting(php_socket *sock, char *buf, size_t len, int flags, wait_budget_t *budget, bool bounded)
{
	for (;;) {
		ssize_t n = recv(sock->bsd_socket, buf, len, flags | MSG_DONTWAIT);
		if (n >= 0 || !would_block(errno)) {
			return n;
		}
		wait_result_t waited = wait_for(sock->bsd_socket, ASYNC_POLL_READ, bounded ? SO_RCVTIMEO : 0, budget);
		if (waited == WAIT_THROWN) {
			return IO_THROWN;
		}
		if (waited == WAIT_TIMEOUT) {
			errno = EAGAIN;
			return -1;
		}
	}
}

/* Below this a read's buffer costs what the socket's own memory does: allocated at once. */
#define WAIT_FIRST_ABOVE 8192

/* Waits for data (or the end, or an error) before the caller allocates a buffer of `len` bytes, so
 * an idle socket does not hold it (socket_read($s, 65536) on ten thousand idle connections).
 * A one-byte MSG_PEEK says whether recv() would block; nothing is consumed. 1 when the read may
 * go on, -1 with errno EAGAIN when the timeout came first, or IO_THROWN. */
static ssize_t wait_data_first(php_socket *sock, size_t len, wait_budget_t *budget, bool bounded)
{
	if (len <= WAIT_FIRST_ABOVE) {
		return 1;
	}
	for (;;) {
		char byte;
		ssize_t n = recv(sock->bsd_socket, &byte, 1, MSG_PEEK | MSG_DONTWAIT);
		if (n >= 0 || !would_block(errno)) {
			return 1; /* data, the end, or an error the read itself reports */
		}
		wait_result_t waited = wait_for(sock->bsd_socket, ASYNC_POLL_READ, bounded ? SO_RCVTIMEO : 0, budget);
		if (waited == WAIT_THROWN) {
			return IO_THROWN;
		}
		if (waited == WAIT_TIMEOUT) {
			errno = EAGAIN;
			return -1;
		}
	}
}

/* PHP_NORMAL_READ on a blocking socket: byte by byte up to and including "\n" or "\r". As in
 * PHP, end of stream is reported as ECONNRESET, and a receive timeout only means "keep waiting". */
static ssize_t read_line(php_socket *sock, char *buf, size_t maxlen)
{
	wait_budget_t budget = { 0 };
	size_t n = 0;
	while (n < maxlen) {
		ssize_t m = recv_waiting(sock, buf + n, 1, 0, &budget, false);
		if (m == IO_THROWN) {
			return IO_THROWN;
		}
		if (m == 1) {
			if (buf[n] == '\n' || buf[n] == '\r') {
				return (ssize_t) n + 1;
			}
			n++;
		} else if (m == 0) {
			errno = ECONNRESET;
			return -1;
		} else if (errno != ESPIPE) {
			return -1;
		}
	}
	return (ssize_t) n;
}

static ZEND_FUNCTION(async_socket_read)
{
	int fl;
	php_socket *sock = blocking_socket(execute_data, &fl);
	if (sock == NULL) {
		call_stock(hooks[HOOK_READ].original, INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	zval *arg1;
	zend_long length, type = PHP_BINARY_READ;
	if (zend_parse_parameters(ZEND_NUM_ARGS(), "Ol|l", &arg1, sockets_ce, &length, &type) == FAILURE) {
		RETURN_THROWS();
	}
	if ((length + 1) < 2) {
		RETURN_FALSE;
	}

	/* A line read's timeout only means "keep waiting" (see read_line()). */
	wait_budget_t budget = { 0 };
	ssize_t n = wait_data_first(sock, (size_t) length, &budget, type != PHP_NORMAL_READ);
	zend_string *buf = n == 1 ? zend_string_alloc(length, 0) : NULL;
	if (buf == NULL) {
		/* nothing came within the timeout, or the wait was cancelled: as the read's own wait */
	} else if (type == PHP_NORMAL_READ) {
		n = read_line(sock, ZSTR_VAL(buf), (size_t) length);
	} else {
		n = recv_waiting(sock, ZSTR_VAL(buf), (size_t) length, 0, &budget, true);
	}
	if (n == IO_THROWN) {
		if (buf != NULL) {
			zend_string_efree(buf);
		}
		RETURN_THROWS();
	}
	if (n == -1) {
		int err = errno;
		if (PHP_IS_TRANSIENT_ERROR(err)) {
			set_error(sock, err);
		} else {
			report_error(sock, "unable to read from socket", err);
		}
		if (buf != NULL) {
			zend_string_efree(buf);
		}
		RETURN_FALSE;
	}
	if (n == 0) {
		zend_string_efree(buf);
		RETURN_EMPTY_STRING();
	}
	buf = zend_string_truncate(buf, n, 0);
	ZSTR_VAL(buf)[n] = '\0';
	RETURN_NEW_STR(buf);
}

/* Everything, as a blocking send does: the count so far when an error or the timeout stops it
 * after some bytes went, -1 with errno when none did, or IO_THROWN. */
static ssize_t send_all(php_socket *sock, const char *buf, size_t len, int flags)
{
	/* MSG_DONTWAIT asked for by the caller: one non-blocking send, as PHP's own. */
	bool may_wait = !(flags & MSG_DONTWAIT);
	wait_budget_t budget = { 0 };
	size_t sent = 0;
	for (;;) {
		ssize_t n = send(sock->bsd_socket, buf + sent, len - sent, flags | MSG_DONTWAIT);
		if (n >= 0) {
			sent += (size_t) n;
			if (sent >= len || !may_wait) {
				return (ssize_t) sent;
			}
			continue;
		}
		int err = errno;
		if (err == EINTR) {
			continue;
		}
		if (!would_block(err) || !may_wait) {
			if (sent > 0) {
				return (ssize_t) sent;
			}
			errno = err;
			return -1;
		}
		wait_result_t waited = wait_for(sock->bsd_socket, ASYNC_POLL_WRITE, SO_SNDTIMEO, &budget);
		if (waited == WAIT_THROWN) {
			return IO_THROWN;
		}
		if (waited == WAIT_TIMEOUT) {
			if (sent > 0) {
				return (ssize_t) sent;
			}
			errno = EAGAIN;
			return -1;
		}
	}
}

static ZEND_FUNCTION(async_socket_write)
{
	int fl;
	php_socket *sock = blocking_socket(execute_data, &fl);
	if (sock == NULL) {
		call_stock(hooks[HOOK_WRITE].original, INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	zval *arg1;
	char *str;
	size_t str_len;
	zend_long length = 0;
	bool length_is_null = true;
	if (zend_parse_parameters(ZEND_NUM_ARGS(), "Os|l!", &arg1, sockets_ce, &str, &str_len, &length, &length_is_null) == FAILURE) {
		RETURN_THROWS();
	}
	if (length < 0) {
		zend_argument_value_error(3, "must be greater than or equal to 0");
		RETURN_THROWS();
	}
	if (length_is_null) {
		length = (zend_long) str_len;
	}
	ssize_t n = send_all(sock, str, MIN((size_t) length, str_len), 0);
	if (n == IO_THROWN) {
		RETURN_THROWS();
	}
	if (n < 0) {
		report_error(sock, "unable to write to socket", errno);
		RETURN_FALSE;
	}
	RETURN_LONG(n);
}

static ZEND_FUNCTION(async_socket_send)
{
	int fl;
	php_socket *sock = blocking_socket(execute_data, &fl);
	if (sock == NULL) {
		call_stock(hooks[HOOK_SEND].original, INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	zval *arg1;
	char *buf;
	size_t buf_len;
	zend_long len, flags;
	if (zend_parse_parameters(ZEND_NUM_ARGS(), "Osll", &arg1, sockets_ce, &buf, &buf_len, &len, &flags) == FAILURE) {
		RETURN_THROWS();
	}
	if (len < 0) {
		zend_argument_value_error(3, "must be greater than or equal to 0");
		RETURN_THROWS();
	}
	ssize_t n = send_all(sock, buf, MIN(buf_len, (size_t) len), (int) flags);
	if (n == IO_THROWN) {
		RETURN_THROWS();
	}
	if (n < 0) {
		report_error(sock, "Unable to write to socket", errno);
		RETURN_FALSE;
	}
	RETURN_LONG(n);
}

static bool is_stream_socket(php_socket *sock)
{
	int type = 0;
	socklen_t len = sizeof(type);
	return getsockopt(sock->bsd_socket, SOL_SOCKET, SO_TYPE, &type, &len) == 0 && type == SOCK_STREAM;
}

/* recv with MSG_WAITALL on a stream socket fills the buffer unless the stream ends, an error
 * comes or the timeout passes (then the bytes so far count, as with the blocking call). */
static ssize_t recv_all(php_socket *sock, char *buf, size_t len, int flags, wait_budget_t *budget)
{
	size_t got = 0;
	while (got < len) {
		ssize_t n = recv_waiting(sock, buf + got, len - got, flags & ~MSG_WAITALL, budget, true);
		if (n == IO_THROWN) {
			return IO_THROWN;
		}
		if (n < 0) {
			return got > 0 ? (ssize_t) got : -1;
		}
		if (n == 0) {
			break;
		}
		got += (size_t) n;
	}
	return (ssize_t) got;
}

static ZEND_FUNCTION(async_socket_recv)
{
	int fl;
	php_socket *sock = blocking_socket(execute_data, &fl);
	if (sock == NULL) {
		call_stock(hooks[HOOK_RECV].original, INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	zval *arg1, *buf_ref;
	zend_long len, flags;
	if (zend_parse_parameters(ZEND_NUM_ARGS(), "Ozll", &arg1, sockets_ce, &buf_ref, &len, &flags) == FAILURE) {
		RETURN_THROWS();
	}
	/* MSG_DONTWAIT is the caller's own non-blocking call; MSG_PEEK|MSG_WAITALL cannot be waited
	 * for by readiness (peeked bytes stay readable): both keep PHP's own call. */
	if ((flags & MSG_DONTWAIT) || (flags & (MSG_PEEK | MSG_WAITALL)) == (MSG_PEEK | MSG_WAITALL)) {
		hooks[HOOK_RECV].original(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	if ((len + 1) < 2) {
		RETURN_FALSE;
	}
	/* Out-of-band data is not announced by readability: no wait before the buffer for it. */
	wait_budget_t budget = { 0 };
	ssize_t n = (flags & MSG_OOB) ? 1 : wait_data_first(sock, (size_t) len, &budget, true);
	zend_string *buf = n == 1 ? zend_string_alloc(len, 0) : NULL;
	if (buf == NULL) {
		/* nothing came within the timeout, or the wait was cancelled: as the read's own wait */
	} else if ((flags & MSG_WAITALL) && is_stream_socket(sock)) {
		n = recv_all(sock, ZSTR_VAL(buf), (size_t) len, (int) flags, &budget);
	} else {
		n = recv_waiting(sock, ZSTR_VAL(buf), (size_t) len, (int) flags, &budget, true);
	}
	if (n == IO_THROWN) {
		if (buf != NULL) {
			zend_string_efree(buf);
		}
		RETURN_THROWS();
	}
	int err = errno;
	if (n < 1) {
		if (buf != NULL) {
			zend_string_efree(buf);
		}
		ZEND_TRY_ASSIGN_REF_NULL(buf_ref);
	} else {
		ZSTR_LEN(buf) = n;
		ZSTR_VAL(buf)[n] = '\0';
		ZEND_TRY_ASSIGN_REF_NEW_STR(buf_ref, buf);
	}
	if (n == -1) {
		report_error(sock, "Unable to read from socket", err);
		RETURN_FALSE;
	}
	RETURN_LONG(n);
}

/* ---------------------------------------------------------------------------------------------
 * socket_select: the arrays checked as PHP checks them, the wait done by the poll registry, the
 * answer computed like select() (a descriptor counts once per set).
 * ------------------------------------------------------------------------------------------- */

typedef struct {
	zval *arrays[3];
	fd_set sets[3];
	php_socket_t max_fd;
	struct pollfd *pfds;
	uint32_t count;
} select_state_t;

/* PHP's own checks (same messages); -1 with an exception, else whether the array had sockets. */
static int select_collect(uint32_t arg_num, zval *array, fd_set *set, php_socket_t *max_fd)
{
	zval *element;
	int num = 0;
	if (Z_TYPE_P(array) != IS_ARRAY) {
		return 0;
	}
	ZEND_HASH_FOREACH_VAL(Z_ARRVAL_P(array), element) {
		ZVAL_DEREF(element);
		if (Z_TYPE_P(element) != IS_OBJECT || Z_OBJCE_P(element) != sockets_ce) {
			zend_argument_type_error(arg_num, "must only have elements of type Socket, %s given", zend_zval_type_name(element));
			return -1;
		}
		php_socket *sock = Z_SOCKET_P(element);
		if (IS_INVALID_SOCKET(sock)) {
			zend_argument_type_error(arg_num, "contains a closed socket");
			return -1;
		}
		PHP_SAFE_FD_SET(sock->bsd_socket, set);
		if (sock->bsd_socket > *max_fd) {
			*max_fd = sock->bsd_socket;
		}
		num++;
	} ZEND_HASH_FOREACH_END();
	return num ? 1 : 0;
}

/* Keeps the entries whose descriptor is in `ready`, keys preserved. */
static void select_filter(zval *array, fd_set *ready)
{
	zval result, *element;
	zend_ulong index;
	zend_string *key;
	array_init(&result);
	ZEND_HASH_FOREACH_KEY_VAL(Z_ARRVAL_P(array), index, key, element) {
		ZVAL_DEREF(element);
		php_socket *sock = Z_SOCKET_P(element);
		if (PHP_SAFE_FD_ISSET(sock->bsd_socket, ready)) {
			zval *added = key ? zend_hash_add(Z_ARRVAL(result), key, element)
				: zend_hash_index_update(Z_ARRVAL(result), index, element);
			if (added) {
				Z_ADDREF_P(added);
			}
		}
	} ZEND_HASH_FOREACH_END();
	zval_ptr_dtor(array);
	ZVAL_COPY_VALUE(array, &result);
}

/* select()'s readiness sets in poll() terms (as Linux defines them). */
#define SELECT_IN  (POLLIN | POLLRDNORM | POLLRDBAND | POLLHUP | POLLERR)
#define SELECT_OUT (POLLOUT | POLLWRNORM | POLLWRBAND | POLLERR)
#define SELECT_EX  (POLLPRI)

static void select_build_pollfds(select_state_t *st)
{
	st->pfds = safe_emalloc((size_t) st->max_fd + 1, sizeof(struct pollfd), 0);
	st->count = 0;
	for (php_socket_t fd = 0; fd <= st->max_fd; fd++) {
		short events = 0;
		if (FD_ISSET(fd, &st->sets[0])) events |= POLLIN;
		if (FD_ISSET(fd, &st->sets[1])) events |= POLLOUT;
		if (FD_ISSET(fd, &st->sets[2])) events |= POLLPRI;
		if (events) {
			st->pfds[st->count++] = (struct pollfd) { .fd = fd, .events = events };
		}
	}
}

/* A zero-timeout look: the ready sets and their bit count, or -1 with errno. */
static int select_look(select_state_t *st, fd_set ready[3])
{
	for (int i = 0; i < 3; i++) {
		FD_ZERO(&ready[i]);
	}
	int rc;
	do {
		rc = poll(st->pfds, st->count, 0);
	} while (rc < 0 && errno == EINTR);
	if (rc < 0) {
		return -1;
	}
	int bits = 0;
	for (uint32_t i = 0; i < st->count; i++) {
		if (st->pfds[i].revents & POLLNVAL) {
			errno = EBADF; /* closed meanwhile: select() says so */
			return -1;
		}
	}
	for (uint32_t i = 0; i < st->count; i++) {
		struct pollfd *p = &st->pfds[i];
		if ((p->events & POLLIN) && (p->revents & SELECT_IN)) { FD_SET(p->fd, &ready[0]); bits++; }
		if ((p->events & POLLOUT) && (p->revents & SELECT_OUT)) { FD_SET(p->fd, &ready[1]); bits++; }
		if ((p->events & POLLPRI) && (p->revents & SELECT_EX)) { FD_SET(p->fd, &ready[2]); bits++; }
	}
	return bits;
}

/* Waits until select_look() finds something or the time is up; -1 with errno, -2 thrown. */
static int select_wait(select_state_t *st, fd_set ready[3], zend_long timeout_ms)
{
	uint64_t deadline = timeout_ms >= 0 ? async_reactor_hrtime() + (uint64_t) timeout_ms * 1000000u : 0;
	async_io_pollfd_t *wait = safe_emalloc(st->count, sizeof(async_io_pollfd_t), 0);
	for (uint32_t i = 0; i < st->count; i++) {
		int mask = 0;
		if (st->pfds[i].events & POLLIN) mask |= ASYNC_POLL_READ;
		if (st->pfds[i].events & POLLOUT) mask |= ASYNC_POLL_WRITE;
		if (st->pfds[i].events & POLLPRI) mask |= ASYNC_POLL_PRI;
		wait[i] = (async_io_pollfd_t) { .fd = st->pfds[i].fd, .events = mask, .revents = 0 };
	}
	int bits;
	bool woke_for_nothing = false;
	for (;;) {
		bits = select_look(st, ready);
		if (bits != 0) {
			break;
		}
		zend_long remaining = -1;
		if (timeout_ms >= 0) {
			uint64_t now = async_reactor_hrtime();
			if (now >= deadline) {
				break;
			}
			remaining = (zend_long) ((deadline - now + 999999) / 1000000);
		}
		if (woke_for_nothing) {
			/* The registry saw something select() does not count (a hang-up on a descriptor
			 * only watched for writing): look again shortly instead of spinning. */
			if (!async__wait_ms(remaining < 0 || remaining > 5 ? 5 : (zend_ulong) remaining, 0)) {
				bits = -2;
				break;
			}
			woke_for_nothing = false;
			continue;
		}
		int woke = async_io_wait_many(wait, st->count, remaining);
		if (woke < 0) {
			bits = -2;
			break;
		}
		woke_for_nothing = woke > 0;
	}
	efree(wait);
	return bits;
}

static ZEND_FUNCTION(async_socket_select)
{
	if (!async_io_can_wait() || !sockets_state()) {
		hooks[HOOK_SELECT].original(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	zval *r_array, *w_array, *e_array;
	zend_long sec, usec = 0;
	bool sec_is_null = false;
	if (zend_parse_parameters(ZEND_NUM_ARGS(), "a!a!a!l!|l", &r_array, &w_array, &e_array, &sec, &sec_is_null, &usec) == FAILURE) {
		RETURN_THROWS();
	}

	select_state_t st = { .arrays = { r_array, w_array, e_array }, .max_fd = 0 };
	int sets = 0;
	for (int i = 0; i < 3; i++) {
		FD_ZERO(&st.sets[i]);
		if (st.arrays[i] != NULL) {
			int r = select_collect(i + 1, st.arrays[i], &st.sets[i], &st.max_fd);
			if (r < 0) {
				RETURN_THROWS();
			}
			sets += r;
		}
	}
	if (!sets) {
		zend_value_error("socket_select(): At least one array argument must be passed");
		RETURN_THROWS();
	}
	if (!PHP_SAFE_MAX_FD(st.max_fd, 0)) {
		RETURN_FALSE;
	}

	/* seconds = null waits for ever; microseconds >= 1 s carry over, as PHP does for select(). */
	zend_long timeout_ms = -1;
	if (!sec_is_null) {
		zend_long s = sec + (usec > 999999 ? usec / 1000000 : 0);
		zend_long us = usec > 999999 ? usec % 1000000 : usec;
		if (s < 0 || us < 0) {
			/* select() itself rejects these: let PHP's handler say so. */
			hooks[HOOK_SELECT].original(INTERNAL_FUNCTION_PARAM_PASSTHRU);
			return;
		}
		timeout_ms = s > ZEND_LONG_MAX / 1000 - 1 ? ZEND_LONG_MAX / 2 : s * 1000 + (us + 999) / 1000;
	}

	select_build_pollfds(&st);
	fd_set ready[3];
	int bits = select_wait(&st, ready, timeout_ms);
	efree(st.pfds);
	if (bits == -2) {
		RETURN_THROWS();
	}
	if (bits == -1) {
		int err = errno;
		LAST_ERROR = err;
		php_error_docref(NULL, E_WARNING, "Unable to select [%d]: %s", err, strerror(err));
		RETURN_FALSE;
	}
	for (int i = 0; i < 3; i++) {
		if (st.arrays[i] != NULL) {
			select_filter(st.arrays[i], &ready[i]);
		}
	}
	RETURN_LONG(bits);
}

/* socket_close: waiters on the descriptor learn of the close before the number can be reused. */
static ZEND_FUNCTION(async_socket_close)
{
	if (ZEND_NUM_ARGS() >= 1 && sockets_state()) {
		zval *arg = ZEND_CALL_ARG(execute_data, 1);
		if (Z_TYPE_P(arg) == IS_OBJECT && Z_OBJCE_P(arg) == sockets_ce) {
			php_socket *sock = Z_SOCKET_P(arg);
			if (!IS_INVALID_SOCKET(sock)) {
				async_io_fd_closing(sock->bsd_socket);
			}
		}
	}
	hooks[HOOK_CLOSE].original(INTERNAL_FUNCTION_PARAM_PASSTHRU);
}

static async_function_hook_t hooks[HOOK_COUNT] = {
	[HOOK_CONNECT] = { "socket_connect", ZEND_FN(async_socket_connect), NULL },
	[HOOK_ACCEPT] = { "socket_accept", ZEND_FN(async_socket_accept), NULL },
	[HOOK_READ] = { "socket_read", ZEND_FN(async_socket_read), NULL },
	[HOOK_WRITE] = { "socket_write", ZEND_FN(async_socket_write), NULL },
	[HOOK_RECV] = { "socket_recv", ZEND_FN(async_socket_recv), NULL },
	[HOOK_SEND] = { "socket_send", ZEND_FN(async_socket_send), NULL },
	[HOOK_RECVFROM] = { "socket_recvfrom", ZEND_FN(async_socket_recvfrom), NULL },
	[HOOK_SENDTO] = { "socket_sendto", ZEND_FN(async_socket_sendto), NULL },
	[HOOK_SELECT] = { "socket_select", ZEND_FN(async_socket_select), NULL },
	[HOOK_CLOSE] = { "socket_close", ZEND_FN(async_socket_close), NULL },
};

zend_result async__hook_sockets_minit(void)
{
	async__function_hooks_install(hooks, HOOK_COUNT);
	return SUCCESS;
}

void async__hook_sockets_mshutdown(void)
{
	async__function_hooks_uninstall(hooks, HOOK_COUNT);
	/* ext/sockets' class may already be gone (modules shut down in reverse order): its
	 * create_object is left as is, the whole process ends. */
	sockets_ce = NULL;
#ifdef ZTS
	sockets_tsrm_id = 0;
#else
	sockets_globals_ptr = NULL;
#endif
}
