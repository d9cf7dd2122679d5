/*
 * hook_stdio.h — what the stdio stream hook files share (hook_stdio.c, hook_stdio_files.c,
 * hook_stdio_lock.c). See docs/stdio.md.
 */
#ifndef ASYNC_HOOK_STDIO_H
#define ASYNC_HOOK_STDIO_H

#include "php.h"
#include "php_streams.h"
#include "async_io_wait.h"

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

static zend_always_inline FILE *async_stdio_file(php_stream *stream)
{
	return ((async_stdio_head_t *) stream->abstract)->file;
}

/* The descriptor as PHP's PHP_STDIOP_GET_FD() finds it. */
static zend_always_inline int async_stdio_fd(php_stream *stream)
{
	async_stdio_head_t *head = (async_stdio_head_t *) stream->abstract;
	return head->file ? fileno(head->file) : head->fd;
}

/* May a stdio op suspend here? In a coroutine (async_io_can_wait()) AND called from an internal
 * function (fread(), file_get_contents(), flock(), ...). Not when the engine reads a file it is
 * about to compile (include/require, autoloading: the frame is user code): a switch in the middle
 * of that let another coroutine compile meanwhile (seen with opcache: "Class not found" in
 * Guzzle's autoloaded classes, tests/curl/053 and 054 under the jit-tracing lane). */
static zend_always_inline bool async_stdio_may_switch(void)
{
	zend_execute_data *ex = EG(current_execute_data);
	return ex != NULL && ex->func != NULL && ex->func->type == ZEND_INTERNAL_FUNCTION && async_io_can_wait();
}

/* hook_stdio.c: PHP's own stdio ops (copied before the table was patched). */
const php_stream_ops *async_stdio_orig_ops(void);
/* The stream's state, or NULL; _get creates it. */
async_stdio_state_t *async_stdio_state_find(php_stream *stream);
async_stdio_state_t *async_stdio_state_get(php_stream *stream);

/* hook_stdio_files.c: regular files and everything else not waited for — sliced, with a time
 * budget per coroutine; fsync()/fdatasync(), shrinking ftruncate() and the writeback before close() of big files on the pool. */
ssize_t async_stdio_file_read(php_stream *stream, char *buf, size_t count);
ssize_t async_stdio_file_write(php_stream *stream, const char *buf, size_t count);
int async_stdio_file_sync(php_stream *stream, int value, void *ptrparam);
int async_stdio_file_truncate(php_stream *stream, int value, void *ptrparam);
/* Before PHP's close() of a big file written to: its writeback started on the pool. */
void async_stdio_file_close_prepare(php_stream *stream);
/* copy() in a coroutine: PHP's copy_file_range() fast path would copy the whole file in one
 * blocking call. While the coroutine's copy() runs, its stdio streams refuse to be cast to a
 * descriptor, so PHP falls back to its mmap/read-write copy through the sliced ops. */
bool async_stdio_copy_refuses_fd(void);
void async_stdio_copy_hook_install(void);
void async_stdio_copy_hook_uninstall(void);
void async_stdio_copy_rshutdown(void);

/* hook_stdio_pool.c: one blocking file system call on the thread pool while the coroutine waits.
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

intptr_t async_stdio_pool_call(const async_stdio_call_t *call, const char *path, const char *what);

/* Files at least this big are truncated, closed after writing, and unlinked on the pool (their
 * blocks are freed or written back there); below, the call is quicker than the pool's hop. */
#define ASYNC_STDIO_BIG_FILE (8 * 1024 * 1024)

/* hook_stdio_wrapper.c: the plain-files wrapper's opener and unlink, patched (FIFOs, big files). */
void async_stdio_wrapper_hooks_install(void);
void async_stdio_wrapper_hooks_uninstall(void);

/* hook_stdio_lock.c: flock() (PHP_STREAM_OPTION_LOCKING). */
int async_stdio_lock(php_stream *stream, int value, void *ptrparam);
void async_stdio_lock_rshutdown(void);

#endif /* ASYNC_HOOK_STDIO_H */
