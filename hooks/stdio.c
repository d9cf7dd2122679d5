/*
 * hooks/stdio.c — PHP's stdio streams (plain files, pipes, FIFOs, TTYs, character devices) made
 * coroutine-aware. See docs/stdio.md.
 *
 * How: php_stream_stdio_ops is patched IN PLACE at MINIT (read, write, close, set_option), and
 * put back at MSHUTDOWN. PHP itself declares the table writable for exactly this ("This should be
 * const, but phpdbg overwrite it", plain_wrapper.c), and every `stream->ops == &php_stream_stdio_ops`
 * comparison (php_stream_is(PHP_STREAM_IS_STDIO): proc_open, stream_select's casts, copy's
 * copy_file_range, memory.c, gd, exif, file.c) keeps seeing a stdio stream. Replacing
 * stream->ops per stream (as the socket transports do) would break those comparisons; wrapping
 * the plain files wrapper misses proc_open/popen/php://fd streams, which never go through it.
 *
 * Each patched op calls PHP's own op unless the caller may suspend (async_io_can_wait()):
 * - non-seekable streams (PHP_STREAM_FLAG_NO_SEEK: pipes, FIFOs, TTYs, character devices, set by
 *   PHP's detect_is_seekable()) in blocking mode wait in the reactor before each read and each
 *   PIPE_BUF slice of a write, then let PHP's op do the I/O (it cannot block any more);
 *   stream_set_timeout() bounds the read wait;
 * - regular files are read and written in slices, and the coroutine yields once it has used its
 *   time budget (hooks/stdio_files.c);
 * - flock() that must wait polls with LOCK_NB under a back-off, in-process waiters queued per
 *   inode (hooks/stdio_lock.c).
 */
#include "php_async.h"
#include "hooks/hooks.h"
#include "async_io_wait.h"
#include "core/core.h"
#include "reactor/reactor.h"
#include "zend_exceptions.h"
#include <fcntl.h>
#include <poll.h>
#include <limits.h>
#ifdef __GLIBC__
#include <stdio_ext.h>
#endif

/* per-process: PHP's own ops, copied before the table is patched (MINIT) */
static php_stream_ops stdio_orig;
/* per-process: whether the table is ours (MINIT .. MSHUTDOWN) */
static bool stdio_installed;

const php_stream_ops *async__stdio_orig_ops(void)
{
	return &stdio_orig;
}

/* ---------------------------------------------------------------------------------------------
 * Per-stream state: the read timeout PHP's stdio layer has no room for, and who waits inside
 * ------------------------------------------------------------------------------------------- */

static void state_dtor(zval *zv)
{
	efree(Z_PTR_P(zv));
}

async_stdio_state_t *async__stdio_state_find(php_stream *stream)
{
	HashTable *ht = ASYNC_G(stdio_streams);
	return ht ? zend_hash_index_find_ptr(ht, (zend_ulong) (uintptr_t) stream) : NULL;
}

async_stdio_state_t *async__stdio_state_get(php_stream *stream)
{
	async_stdio_state_t *st = async__stdio_state_find(stream);
	if (st != NULL) {
		return st;
	}
	if (ASYNC_G(stdio_streams) == NULL) {
		ALLOC_HASHTABLE(ASYNC_G(stdio_streams));
		zend_hash_init(ASYNC_G(stdio_streams), 8, NULL, state_dtor, 0);
	}
	st = ecalloc(1, sizeof(*st));
	st->timeout_ms = -1;
	zend_hash_index_add_new_ptr(ASYNC_G(stdio_streams), (zend_ulong) (uintptr_t) stream, st);
	return st;
}

void async__hook_stdio_rshutdown(void)
{
	async__stdio_lock_rshutdown();
	async__stdio_copy_rshutdown();
	ASYNC_G(stdio_budget_co) = NULL;
	if (ASYNC_G(stdio_streams) != NULL) {
		zend_hash_destroy(ASYNC_G(stdio_streams));
		FREE_HASHTABLE(ASYNC_G(stdio_streams));
		ASYNC_G(stdio_streams) = NULL;
	}
}

/* ---------------------------------------------------------------------------------------------
 * Pipes, FIFOs, TTYs, character devices
 * ------------------------------------------------------------------------------------------- */

/* A non-seekable stream whose descriptor the user left blocking, read or written from a
 * coroutine: the only case that may wait in the reactor. */
static bool pipe_can_wait(php_stream *stream, int *fd)
{
	if (!(stream->flags & PHP_STREAM_FLAG_NO_SEEK) || !async__stdio_may_switch()) {
		return false;
	}
	*fd = async__stdio_fd(stream);
	if (*fd < 0) {
		return false;
	}
	int fl = fcntl(*fd, F_GETFL);
	return fl != -1 && !(fl & O_NONBLOCK);
}

static bool fd_ready_now(int fd, int mask)
{
	struct pollfd p = { .fd = fd, .events = (mask & ASYNC_POLL_READ ? POLLIN : 0) | (mask & ASYNC_POLL_WRITE ? POLLOUT : 0) };
	int r;
	do {
		r = poll(&p, 1, 0);
	} while (r < 0 && errno == EINTR);
	return r > 0;
}

typedef enum { PIPE_READY, PIPE_TIMEOUT, PIPE_CLOSED, PIPE_ERROR } pipe_wait_t;

/* Waits until fd is ready for `mask`, or the stream's read timeout passes (timeout_ms < 0: no
 * timeout). Never shorter than asked: libuv's millisecond timer may fire early, the rest is
 * waited out. */
static pipe_wait_t pipe_wait(async_stdio_state_t *st, int fd, int mask, zend_long timeout_ms)
{
	if (fd_ready_now(fd, mask)) {
		return PIPE_READY;
	}
	uint64_t deadline = timeout_ms >= 0 ? async_reactor_hrtime() + (uint64_t) timeout_ms * 1000000u : 0;
	for (;;) {
		zend_long left = -1;
		if (timeout_ms >= 0) {
			uint64_t now = async_reactor_hrtime();
			if (now >= deadline) {
				return PIPE_TIMEOUT;
			}
			left = (zend_long) ((deadline - now + 999999u) / 1000000u);
		}
		st->inflight++;
		int r = async_io_wait_fd(fd, mask, left);
		st->inflight--;
		if (st->closing) {
			return PIPE_CLOSED; /* another coroutine closed the stream: it waits for us to leave */
		}
		if (r < 0) {
			return PIPE_ERROR;
		}
		if (r & ASYNC_POLL_CLOSED) {
			return PIPE_CLOSED;
		}
		if (r > 0) {
			return PIPE_READY;
		}
	}
}

/* stdio's FILE may already hold bytes read earlier (a popen() stream read outside a coroutine):
 * those are served first, never waited for. */
static size_t file_buffered(FILE *file)
{
#ifdef __GLIBC__
	return file->_IO_read_ptr < file->_IO_read_end ? (size_t) (file->_IO_read_end - file->_IO_read_ptr) : 0;
#else
	(void) file;
	return 0;
#endif
}

/* A FILE-backed pipe (popen()) with nothing buffered: read the descriptor ourselves, as the
 * fd-backed op does — fread() would loop until `count` bytes or EOF, blocking the process. */
static ssize_t file_pipe_read(php_stream *stream, int fd, char *buf, size_t count)
{
	ssize_t n;
	do {
		n = read(fd, buf, count);
	} while (n < 0 && errno == EINTR);
	if (n == 0) {
		stream->eof = 1;
	} else if (n < 0) {
		if (PHP_IS_TRANSIENT_ERROR(errno)) {
			return 0;
		}
		if (!(stream->flags & PHP_STREAM_FLAG_SUPPRESS_ERRORS)) {
			php_error_docref(NULL, E_NOTICE, "Read of %zu bytes failed with errno=%d %s", count, errno, strerror(errno));
		}
		stream->eof = 1;
	}
	return n;
}

static ssize_t pipe_read(php_stream *stream, int fd, char *buf, size_t count)
{
	FILE *file = async__stdio_file(stream);
	if (file != NULL) {
		size_t buffered = file_buffered(file);
		if (buffered > 0) {
			return stdio_orig.read(stream, buf, MIN(count, buffered));
		}
	}
	async_stdio_state_t *st = async__stdio_state_get(stream);
	st->timed_out = false;
	switch (pipe_wait(st, fd, ASYNC_POLL_READ, st->timeout_ms)) {
		case PIPE_TIMEOUT:
			st->timed_out = true;
			return -1;
		case PIPE_CLOSED:
			/* closed under the reader by another coroutine: the read fails (fread() gives false),
			 * as TrueAsync's does; it is not the writer's end of data */
			stream->eof = 1;
			return -1;
		case PIPE_ERROR:
			return -1;
		case PIPE_READY:
			break;
	}
	return file != NULL ? file_pipe_read(stream, fd, buf, count) : stdio_orig.read(stream, buf, count);
}

/* Writes in PIPE_BUF slices, each after the descriptor reported writable: a pipe that polls
 * writable has a free page, so a slice never blocks (POSIX: writes up to PIPE_BUF are whole). */
static ssize_t pipe_write(php_stream *stream, int fd, const char *buf, size_t count)
{
	FILE *file = async__stdio_file(stream);
#ifdef __GLIBC__
	if (file != NULL && __fpending(file) > 0) {
		return stdio_orig.write(stream, buf, count); /* bytes buffered outside a coroutine go first */
	}
#else
	if (file != NULL) {
		return stdio_orig.write(stream, buf, count);
	}
#endif
	async_stdio_state_t *st = async__stdio_state_get(stream);
	size_t done = 0;
	while (done < count) {
		pipe_wait_t w = pipe_wait(st, fd, ASYNC_POLL_WRITE, -1);
		if (w != PIPE_READY) {
			return done > 0 ? (ssize_t) done : -1;
		}
		size_t slice = MIN(count - done, PIPE_BUF);
		ssize_t n;
		if (file != NULL) {
			do {
				n = write(fd, buf + done, slice);
			} while (n < 0 && errno == EINTR);
			if (n < 0 && PHP_IS_TRANSIENT_ERROR(errno)) {
				n = 0;
			}
		} else {
			n = stdio_orig.write(stream, buf + done, slice); /* PHP's notice on failure */
		}
		if (n < 0) {
			return done > 0 ? (ssize_t) done : n;
		}
		done += (size_t) n;
	}
	return (ssize_t) done;
}

/* ---------------------------------------------------------------------------------------------
 * The patched ops
 * ------------------------------------------------------------------------------------------- */

static ssize_t stdio_read(php_stream *stream, char *buf, size_t count)
{
	int fd;
	if (pipe_can_wait(stream, &fd)) {
		return pipe_read(stream, fd, buf, count);
	}
	return async__stdio_file_read(stream, buf, count);
}

static ssize_t stdio_write(php_stream *stream, const char *buf, size_t count)
{
	int fd;
	if (pipe_can_wait(stream, &fd)) {
		return pipe_write(stream, fd, buf, count);
	}
	return async__stdio_file_write(stream, buf, count);
}

/* Coroutines still waiting on the stream are woken (async_io_fd_closing) and given up to 64
 * turns to leave before PHP frees what they would touch on their way out. */
static void stdio_let_waiters_leave(async_stdio_state_t *st)
{
	if (st->inflight == 0 || !async_io_can_wait()) {
		return;
	}
	async_coroutine_t *co = async__coroutine_protect();
	for (int i = 0; i < 64 && st->inflight > 0 && !EG(exception); i++) {
		async__wait_yield();
	}
	zend_object *error = async__coroutine_unprotect(co, !EG(exception));
	if (error != NULL) {
		zend_throw_exception_internal(error);
	}
}

static int stdio_close(php_stream *stream, int close_handle)
{
	async_stdio_state_t *st = async__stdio_state_find(stream);
	if (st != NULL) {
		int fd = async__stdio_fd(stream);
		st->closing = true;
		if (fd >= 0 && (stream->flags & PHP_STREAM_FLAG_NO_SEEK)) {
			async_io_fd_closing(fd);
		}
		stdio_let_waiters_leave(st);
		if (st->inflight == 0) {
			zend_hash_index_del(ASYNC_G(stdio_streams), (zend_ulong) (uintptr_t) stream);
		}
	}
	if (close_handle && !EG(exception)) {
		async__stdio_file_close_prepare(stream);
	}
	return stdio_orig.close(stream, close_handle);
}

/* stream_set_timeout(): PHP's stdio layer has no read timeout (stock returns false and reads wait
 * for ever). It is recorded for every non-seekable stream and bounds reads inside coroutines;
 * the call answers true there, and false as stock outside a coroutine. */
static int stdio_set_timeout(php_stream *stream, struct timeval *tv)
{
	if (!(stream->flags & PHP_STREAM_FLAG_NO_SEEK)) {
		return PHP_STREAM_OPTION_RETURN_NOTIMPL;
	}
	async_stdio_state_t *st = async__stdio_state_get(stream);
	if (tv->tv_sec < 0 || (tv->tv_sec == 0 && tv->tv_usec <= 0) ) {
		st->timeout_ms = tv->tv_sec < 0 ? -1 : 0;
	} else {
		st->timeout_ms = (zend_long) tv->tv_sec * 1000 + (tv->tv_usec + 999) / 1000;
	}
	return async_io_can_wait() ? PHP_STREAM_OPTION_RETURN_OK : PHP_STREAM_OPTION_RETURN_NOTIMPL;
}

static int stdio_cast(php_stream *stream, int castas, void **ret)
{
	if ((castas & ~PHP_STREAM_CAST_MASK) == PHP_STREAM_AS_FD && async__stdio_copy_refuses_fd()) {
		return FAILURE;
	}
	return stdio_orig.cast(stream, castas, ret);
}

static int stdio_set_option(php_stream *stream, int option, int value, void *ptrparam)
{
	switch (option) {
		case PHP_STREAM_OPTION_READ_TIMEOUT:
			return stdio_set_timeout(stream, (struct timeval *) ptrparam);
		case PHP_STREAM_OPTION_META_DATA_API: {
			int r = stdio_orig.set_option(stream, option, value, ptrparam);
			async_stdio_state_t *st = async__stdio_state_find(stream);
			if (r == PHP_STREAM_OPTION_RETURN_OK && st != NULL && st->timed_out) {
				add_assoc_bool((zval *) ptrparam, "timed_out", 1);
			}
			return r;
		}
		case PHP_STREAM_OPTION_LOCKING:
			return async__stdio_lock(stream, value, ptrparam);
		case PHP_STREAM_OPTION_SYNC_API:
			return async__stdio_file_sync(stream, value, ptrparam);
		case PHP_STREAM_OPTION_TRUNCATE_API:
			return async__stdio_file_truncate(stream, value, ptrparam);
		default:
			return stdio_orig.set_option(stream, option, value, ptrparam);
	}
}

zend_result async__hook_stdio_minit(void)
{
	ZEND_ASSERT(!stdio_installed);
	stdio_orig = php_stream_stdio_ops;
	php_stream_stdio_ops.read = stdio_read;
	php_stream_stdio_ops.write = stdio_write;
	php_stream_stdio_ops.close = stdio_close;
	php_stream_stdio_ops.set_option = stdio_set_option;
	php_stream_stdio_ops.cast = stdio_cast;
	async__stdio_copy_hook_install();
	async__stdio_wrapper_hooks_install();
	stdio_installed = true;
	return SUCCESS;
}

void async__hook_stdio_mshutdown(void)
{
	if (!stdio_installed) {
		return;
	}
	php_stream_stdio_ops.read = stdio_orig.read;
	php_stream_stdio_ops.write = stdio_orig.write;
	php_stream_stdio_ops.close = stdio_orig.close;
	php_stream_stdio_ops.set_option = stdio_orig.set_option;
	php_stream_stdio_ops.cast = stdio_orig.cast;
	async__stdio_copy_hook_uninstall();
	async__stdio_wrapper_hooks_uninstall();
	stdio_installed = false;
}
