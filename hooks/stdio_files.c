/*
 * hooks/stdio_files.c — regular files (and every stdio stream not waited for in the reactor):
 * scheduling latency without a thread per call. See docs/stdio.md for the measurements.
 *
 * The rule: inside a coroutine a request is done on the calling thread, by PHP's own op, in
 * slices of at most STDIO_SLICE bytes; after each slice the coroutine checks how long it has
 * been doing file I/O since it last gave others a turn, and yields once that passes
 * STDIO_BUDGET_NS. After, not before: a call's first slice never waits behind the others, and
 * what a short call does (a file_put_contents(): the create, then the write) is not split by a
 * turn of the loop in between. A 4 KiB read from the page cache costs one clock read more than stock; a
 * 256 MB read yields every ~2 ms. (A per-call thread-pool hop costs ~20-40 us: more than most
 * page-cache reads themselves, see docs/stdio.md.)
 */
#include "php_async.h"
#include "hooks/hooks.h"
#include "async_io_wait.h"
#include "core/core.h"
#include <fcntl.h>
#include <sys/stat.h>

#define STDIO_SLICE     (1024 * 1024)
#define STDIO_BUDGET_NS (2 * 1000 * 1000)

/* Gives the other coroutines a turn once the current one has used its budget. False when the
 * stream was closed meanwhile, or with an exception (the coroutine was cancelled). */
static bool budget_spend(php_stream *stream)
{
	zend_coroutine_t *co = ZEND_ASYNC_CURRENT_COROUTINE;
	uint64_t now = async_monotonic_ns();
	if (co != ASYNC_G(stdio_budget_co)) {
		ASYNC_G(stdio_budget_co) = co; /* another coroutine ran since: a fresh budget */
		ASYNC_G(stdio_budget_start) = now;
		return true;
	}
	if (now - ASYNC_G(stdio_budget_start) < STDIO_BUDGET_NS) {
		return true;
	}
	async_stdio_state_t *st = async__stdio_state_get(stream);
	st->inflight++;
	async__wait_yield();
	st->inflight--;
	ASYNC_G(stdio_budget_co) = co;
	ASYNC_G(stdio_budget_start) = async_monotonic_ns();
	return !st->closing && !EG(exception);
}

/* Only descriptor-backed streams are sliced: a FILE's own buffering (fopencookie, a stream cast
 * to FILE*) is left to stdio. */
static bool files_can_slice(php_stream *stream)
{
	return async__stdio_may_switch() && async__stdio_file(stream) == NULL && async__stdio_fd(stream) >= 0;
}

ssize_t async__stdio_file_read(php_stream *stream, char *buf, size_t count)
{
	const php_stream_ops *orig = async__stdio_orig_ops();
	if (!files_can_slice(stream)) {
		return orig->read(stream, buf, count);
	}
	size_t done = 0;
	for (;;) {
		size_t slice = MIN(count - done, STDIO_SLICE);
		ssize_t n = orig->read(stream, buf + done, slice);
		if (n < 0) {
			return done > 0 ? (ssize_t) done : n;
		}
		done += (size_t) n;
		if ((size_t) n < slice || done == count) {
			break; /* end of file (or a short read): what one read() would have returned */
		}
		if (!budget_spend(stream)) {
			return (ssize_t) done;
		}
	}
	budget_spend(stream);
	return (ssize_t) done;
}

ssize_t async__stdio_file_write(php_stream *stream, const char *buf, size_t count)
{
	const php_stream_ops *orig = async__stdio_orig_ops();
	if (!files_can_slice(stream)) {
		return orig->write(stream, buf, count);
	}
	size_t done = 0;
	for (;;) {
		size_t slice = MIN(count - done, STDIO_SLICE);
		ssize_t n = orig->write(stream, buf + done, slice);
		if (n < 0) {
			return done > 0 ? (ssize_t) done : n;
		}
		done += (size_t) n;
		if ((size_t) n < slice || done == count) {
			break; /* disk full, a non-blocking descriptor: what one write() would have returned */
		}
		if (!budget_spend(stream)) {
			return (ssize_t) done;
		}
	}
	budget_spend(stream);
	return (ssize_t) done;
}

/* fsync()/fdatasync(): on the reactor's thread pool while the coroutine waits (a big dirty file
 * takes tens of ms, more on a slow disk); PHP's own op elsewhere. As PHP does, a FILE's buffer
 * is flushed first. */
int async__stdio_file_sync(php_stream *stream, int value, void *ptrparam)
{
	const php_stream_ops *orig = async__stdio_orig_ops();
	int fd = async__stdio_fd(stream);
	if ((value != PHP_STREAM_SYNC_FSYNC && value != PHP_STREAM_SYNC_FDSYNC) || fd < 0 || !async__stdio_may_switch()) {
		return orig->set_option(stream, PHP_STREAM_OPTION_SYNC_API, value, ptrparam);
	}
	FILE *file = async__stdio_file(stream);
	if (file != NULL && fflush(file) != 0) {
		return PHP_STREAM_OPTION_RETURN_ERR;
	}
	async_stdio_call_t call = { .op = value == PHP_STREAM_SYNC_FDSYNC ? STDIO_CALL_FDATASYNC : STDIO_CALL_FSYNC, .fd = fd };
	return async__stdio_pool_call(&call, NULL, "sync a file") == 0 ? PHP_STREAM_OPTION_RETURN_OK : PHP_STREAM_OPTION_RETURN_ERR;
}

/* ftruncate() that shrinks a big file frees its blocks: on the pool. Growing, small files and
 * everything outside coroutines: PHP's op. */
int async__stdio_file_truncate(php_stream *stream, int value, void *ptrparam)
{
	const php_stream_ops *orig = async__stdio_orig_ops();
	int fd = async__stdio_fd(stream);
	struct stat sb;
	if (value != PHP_STREAM_TRUNCATE_SET_SIZE || fd < 0 || !async__stdio_may_switch()
		|| *(ptrdiff_t *) ptrparam < 0 || fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)
		|| sb.st_size < ASYNC_STDIO_BIG_FILE || (off_t) *(ptrdiff_t *) ptrparam >= sb.st_size) {
		return orig->set_option(stream, PHP_STREAM_OPTION_TRUNCATE_API, value, ptrparam);
	}
	async_stdio_call_t call = { .op = STDIO_CALL_FTRUNCATE, .fd = fd, .size = (off_t) *(ptrdiff_t *) ptrparam };
	return async__stdio_pool_call(&call, NULL, "truncate a file") == 0 ? PHP_STREAM_OPTION_RETURN_OK : PHP_STREAM_OPTION_RETURN_ERR;
}

/* close() of a big file opened for writing can start its writeback there (ext4 does after a
 * truncate to zero, "auto_da_alloc": 62 ms for 256 MB measured). In a coroutine that writeback is
 * started on the pool first (sync_file_range(SYNC_FILE_RANGE_WRITE), what the file system's
 * close would do), so PHP's close() that follows finds nothing to start. The stream is intact
 * meanwhile, and the close itself stays PHP's: locks go with it as stock. */
void async__stdio_file_close_prepare(php_stream *stream)
{
	int fd = async__stdio_fd(stream);
	struct stat sb;
	if (fd < 0 || async__stdio_file(stream) != NULL || !async__stdio_may_switch()
		|| (fcntl(fd, F_GETFL) & O_ACCMODE) == O_RDONLY
		|| fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode) || sb.st_size < ASYNC_STDIO_BIG_FILE) {
		return;
	}
	async_stdio_call_t call = { .op = STDIO_CALL_WRITEBACK, .fd = fd };
	async__stdio_pool_call(&call, NULL, "close a file"); /* cancelled: the close goes on */
}

/* ---------------------------------------------------------------------------------------------
 * copy()
 * ------------------------------------------------------------------------------------------- */

static ZEND_FUNCTION(async_copy);

/* per-process: the function table's handler is swapped at MINIT */
static async_function_hook_t copy_hooks[] = {
	{ "copy", ZEND_FN(async_copy), NULL },
};

static zend_ulong copy_key(void)
{
	return (zend_ulong) (uintptr_t) ZEND_ASYNC_CURRENT_COROUTINE;
}

bool async__stdio_copy_refuses_fd(void)
{
	HashTable *copying = ASYNC_G(stdio_copying);
	return copying != NULL && ZEND_ASYNC_CURRENT_COROUTINE != NULL && zend_hash_index_exists(copying, copy_key());
}

/* PHP's own copy() — its checks, warnings and result — with the descriptor casts refused for
 * the calling coroutine meanwhile (only its own streams: the others keep theirs). */
static ZEND_FUNCTION(async_copy)
{
	if (!async__stdio_may_switch() || async__stdio_copy_refuses_fd()) {
		copy_hooks[0].original(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	HashTable *copying = ASYNC_G(stdio_copying);
	if (copying == NULL) {
		ALLOC_HASHTABLE(copying);
		zend_hash_init(copying, 4, NULL, NULL, 0);
		ASYNC_G(stdio_copying) = copying;
	}
	zend_ulong key = copy_key();
	zend_hash_index_add_empty_element(copying, key);
	copy_hooks[0].original(INTERNAL_FUNCTION_PARAM_PASSTHRU);
	if (ASYNC_G(stdio_copying) != NULL) {
		zend_hash_index_del(ASYNC_G(stdio_copying), key);
	}
}

void async__stdio_copy_rshutdown(void)
{
	HashTable *copying = ASYNC_G(stdio_copying);
	if (copying != NULL) {
		ASYNC_G(stdio_copying) = NULL;
		zend_hash_destroy(copying);
		FREE_HASHTABLE(copying);
	}
}

void async__stdio_copy_hook_install(void)
{
	async__function_hooks_install(copy_hooks, 1);
}

void async__stdio_copy_hook_uninstall(void)
{
	async__function_hooks_uninstall(copy_hooks, 1);
}
