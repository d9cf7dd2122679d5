/*
 * hooks/stdio_pool.c — the file system calls that can take long and that no poll reports on,
 * run on libuv's thread pool (the ABI's work event, ZEND_ASYNC_NEW_WORK_EX) while the calling
 * coroutine waits: fsync()/fdatasync(); open() with O_TRUNC, ftruncate() and unlink() of big
 * files, and the writeback a close() of one may start (the file system frees or writes back their
 * blocks there: tens of ms for a few hundred MB, measured in docs/stdio.md); open() of a FIFO for
 * reading (until a writer comes).
 *
 * A cancellation ends the wait, not the call: a thread that runs it finishes it, and what it
 * produced nobody takes (an opened descriptor) is closed. A FIFO open can wait for ever, so when
 * nobody waits any more the event's abandon hook becomes its peer: it opens the FIFO read-write
 * and non-blocking (a writer and a reader), the thread's open() returns, and the thread closes
 * both. The pool thread and the abandon hook agree through one atomic state word.
 */
#include "php_async.h"
#include "hooks/hooks.h"
#include "core/core.h"
#include <fcntl.h> /* sync_file_range(): PHP builds with _GNU_SOURCE */
#include <sys/stat.h>
#include <unistd.h>

/* In the work event's extra area, shared with the pool thread. */
typedef struct {
	async_stdio_call_t call;
	int state;        /* CALL_RUNNING → CALL_DONE (run returned) or CALL_ABANDONED (nobody waits) */
	int unblock_fd;   /* the abandon hook's descriptor (FIFO opens) */
	char path[];
} pool_call_t;

enum { CALL_RUNNING, CALL_DONE, CALL_ABANDONED };

#define POOL_CALL(work) ((pool_call_t *) ((char *) (work) + (work)->base.extra_offset))

static intptr_t call_run(const async_stdio_call_t *c, const char *path)
{
	switch (c->op) {
		case STDIO_CALL_FSYNC:
			return fsync(c->fd);
		case STDIO_CALL_FDATASYNC:
			return fdatasync(c->fd);
		case STDIO_CALL_FTRUNCATE:
			return ftruncate(c->fd, c->size);
		case STDIO_CALL_WRITEBACK:
			return sync_file_range(c->fd, 0, 0, SYNC_FILE_RANGE_WRITE);
		case STDIO_CALL_UNLINK:
			return unlink(path);
		case STDIO_CALL_OPEN:
		case STDIO_CALL_OPEN_FIFO:
			return open(path, c->flags, 0666);
	}
	ZEND_UNREACHABLE();
	return -1;
}

static bool call_opens(const async_stdio_call_t *c)
{
	return c->op == STDIO_CALL_OPEN || c->op == STDIO_CALL_OPEN_FIFO;
}

/* On a pool thread: nothing of PHP's. */
static void pool_run(zend_async_work_event_t *work)
{
	pool_call_t *pc = POOL_CALL(work);
	intptr_t r = call_run(&pc->call, pc->path);
	work->result = r;
	work->error = r < 0 ? errno : 0;
	int expected = CALL_RUNNING;
	if (__atomic_compare_exchange_n(&pc->state, &expected, CALL_DONE, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		return;
	}
	/* abandoned meanwhile: nobody takes what the call produced */
	ZEND_ASSERT(expected == CALL_ABANDONED);
	if (call_opens(&pc->call) && r >= 0) {
		close((int) r);
	}
	if (pc->unblock_fd >= 0) {
		close(pc->unblock_fd);
	}
}

/* On the loop thread, when nobody waits any more while a thread may run the call. */
static void pool_abandon(zend_async_work_event_t *work)
{
	pool_call_t *pc = POOL_CALL(work);
	if (pc->call.op == STDIO_CALL_OPEN_FIFO) {
		/* both ends at once: the thread's open() of either end returns */
		pc->unblock_fd = open(pc->path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	}
	int expected = CALL_RUNNING;
	if (__atomic_compare_exchange_n(&pc->state, &expected, CALL_ABANDONED, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		return; /* the thread closes what it opens, and our descriptor */
	}
	/* the call returned already: its result is ours to drop */
	if (pc->unblock_fd >= 0) {
		close(pc->unblock_fd);
	}
	if (call_opens(&pc->call) && work->result >= 0) {
		close((int) work->result);
	}
}

intptr_t async__stdio_pool_call(const async_stdio_call_t *call, const char *path, const char *what)
{
	size_t len = path != NULL ? strlen(path) : 0;
	zend_async_work_event_t *work = ZEND_ASYNC_NEW_WORK_EX(pool_run, NULL, sizeof(pool_call_t) + len + 1);
	if (work == NULL) {
		errno = EIO;
		return -1;
	}
	pool_call_t *pc = POOL_CALL(work);
	pc->call = *call;
	pc->state = CALL_RUNNING;
	pc->unblock_fd = -1;
	memcpy(pc->path, path != NULL ? path : "", len + 1);
	work->abandon = pool_abandon;
	intptr_t r = -1;
	int error = EINTR;
	if (async__wait_event(&work->base, NULL, NULL, what)) {
		r = work->result;
		error = work->error;
	}
	ZEND_ASYNC_EVENT_RELEASE(&work->base); /* a wait that ended early abandons the call */
	errno = error;
	return r;
}
