/*
 * hook_stdio_open.c — opening a FIFO in a coroutine suspends only that coroutine.
 *
 * open() of a FIFO for reading blocks until a writer opens it, and for writing until a reader
 * does; nothing can poll for that. PHP opens every local path through its plain-files wrapper,
 * whose ops table is const, so its stream_opener slot is patched in place once per process
 * (mprotect() around one pointer, restored at MSHUTDOWN; if the page cannot be made writable,
 * FIFO opens stay stock). The patched opener changes nothing but FIFO opens that would block,
 * in a coroutine, from an internal function:
 *
 *   - for writing: open(O_NONBLOCK) succeeds as soon as a reader exists and fails with ENXIO
 *     before; the coroutine retries on a timer (1 ms doubling to 16 ms, like flock()), then
 *     clears O_NONBLOCK. No thread is parked.
 *   - for reading: a non-blocking open cannot tell whether a writer came, so the blocking open()
 *     runs on libuv's thread pool (the ABI's work event). If the coroutine stops waiting
 *     (cancellation, request end), the event's abandon hook opens the FIFO read-write and
 *     non-blocking — that counts as a writer, so the pool thread's open() returns — and closes
 *     both descriptors once it did. Writers never take a thread, so readers parked on the pool
 *     always have a way to be woken.
 *
 * Read-write opens (Linux never blocks them), O_NONBLOCK ("n" mode) opens, regular files,
 * includes, and everything outside a coroutine go to PHP's opener unchanged. What PHP's opener
 * does after open() (open_basedir, path expansion, the stream, opened_path) is done here with
 * PHP's own helpers, in the same order.
 */
#include "php_async.h"
#include "hooks.h"
#include "hook_stdio.h"
#include "async_wait.h"
#include "main/fopen_wrappers.h"
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define FIFO_BACKOFF_MAX_MS 16

typedef php_stream *(*plain_opener_t)(php_stream_wrapper *wrapper, const char *filename, const char *mode,
	int options, zend_string **opened_path, php_stream_context *context STREAMS_DC);

/* per-process: the plain wrapper's ops are patched once at MINIT */
static plain_opener_t plain_opener;
static bool open_installed;

/* ---------------------------------------------------------------------------------------------
 * The reader's open on a pool thread
 * ------------------------------------------------------------------------------------------- */

/* In the work event's extra area; shared with the pool thread. */
typedef struct {
	int flags;
	int state;        /* FIFO_WAITING → FIFO_DONE (run returned) or FIFO_ABANDONED (nobody waits) */
	int unblock_fd;   /* the abandon hook's read-write descriptor */
	char path[];      /* expanded */
} fifo_open_t;

enum { FIFO_WAITING, FIFO_DONE, FIFO_ABANDONED };

#define FIFO_OPEN(work) ((fifo_open_t *) ((char *) (work) + (work)->base.extra_offset))

static void fifo_open_run(zend_async_work_event_t *work)
{
	fifo_open_t *fo = FIFO_OPEN(work);
	int fd = open(fo->path, fo->flags, 0666);
	int error = errno;
	work->result = fd;
	work->error = error;
	int expected = FIFO_WAITING;
	if (!__atomic_compare_exchange_n(&fo->state, &expected, FIFO_DONE, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		/* abandoned while we waited: nobody takes the descriptor */
		ZEND_ASSERT(expected == FIFO_ABANDONED);
		if (fd >= 0) {
			close(fd);
		}
		if (fo->unblock_fd >= 0) {
			close(fo->unblock_fd);
		}
	}
}

/* On the loop thread: become the writer the pool thread's open() waits for. */
static void fifo_open_abandon(zend_async_work_event_t *work)
{
	fifo_open_t *fo = FIFO_OPEN(work);
	fo->unblock_fd = open(fo->path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	int expected = FIFO_WAITING;
	if (__atomic_compare_exchange_n(&fo->state, &expected, FIFO_ABANDONED, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		return; /* run closes both when its open() returned */
	}
	/* run already returned: its descriptor is ours to drop */
	if (fo->unblock_fd >= 0) {
		close(fo->unblock_fd);
	}
	if (work->result >= 0) {
		close((int) work->result);
	}
}

/* -1 with errno, or with an exception when the coroutine was cancelled. */
static int fifo_open_reader(const char *path, int flags)
{
	size_t len = strlen(path);
	zend_async_work_event_t *work = ZEND_ASYNC_NEW_WORK_EX(fifo_open_run, NULL, sizeof(fifo_open_t) + len + 1);
	if (work == NULL) {
		return -1;
	}
	fifo_open_t *fo = FIFO_OPEN(work);
	fo->flags = flags;
	fo->state = FIFO_WAITING;
	fo->unblock_fd = -1;
	memcpy(fo->path, path, len + 1);
	work->abandon = fifo_open_abandon;
	int fd = -1;
	if (async_wait_event(&work->base, NULL, NULL, "open a FIFO")) {
		fd = (int) work->result;
		errno = work->error;
	} else {
		errno = EINTR;
	}
	ZEND_ASYNC_EVENT_RELEASE(&work->base); /* a wait that ended early abandons the open */
	return fd;
}

/* ---------------------------------------------------------------------------------------------
 * The writer's open: retried on a timer
 * ------------------------------------------------------------------------------------------- */

static int fifo_open_writer(const char *path, int flags)
{
	zend_ulong delay = 1;
	for (;;) {
		int fd = open(path, flags | O_NONBLOCK, 0666);
		if (fd >= 0) {
			if (!(flags & O_NONBLOCK)) {
				fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
			}
			return fd;
		}
		if (errno != ENXIO) {
			return -1;
		}
		if (!async_wait_ms(delay, 0)) {
			errno = EINTR;
			return -1;
		}
		delay = MIN(delay * 2, FIFO_BACKOFF_MAX_MS);
	}
}

/* ---------------------------------------------------------------------------------------------
 * The opener
 * ------------------------------------------------------------------------------------------- */

/* Would PHP's open() of this path block? Fills the open flags and the expanded path. */
static bool fifo_open_would_block(const char *path, const char *mode, int options, int *flags, char *real)
{
	if ((options & (STREAM_OPEN_FOR_INCLUDE | STREAM_USE_BLOCKING_PIPE)) || !async_stdio_may_switch()
		|| php_stream_parse_fopen_modes(mode, flags) == FAILURE
		|| (*flags & O_ACCMODE) == O_RDWR || (*flags & O_NONBLOCK)) {
		return false;
	}
	if (!(options & STREAM_DISABLE_OPEN_BASEDIR) && php_check_open_basedir_ex(path, 0)) {
		return false; /* PHP's opener says so, with its warning */
	}
	if (options & STREAM_ASSUME_REALPATH) {
		strlcpy(real, path, MAXPATHLEN);
	} else if (expand_filepath(path, real) == NULL) {
		return false;
	}
	struct stat sb;
	return stat(real, &sb) == 0 && S_ISFIFO(sb.st_mode);
}

static php_stream *fifo_opener(php_stream_wrapper *wrapper, const char *path, const char *mode, int options,
	zend_string **opened_path, php_stream_context *context STREAMS_DC)
{
	int flags;
	char real[MAXPATHLEN];
	if (!fifo_open_would_block(path, mode, options, &flags, real)) {
		return plain_opener(wrapper, path, mode, options, opened_path, context STREAMS_REL_CC);
	}
	int fd = (flags & O_ACCMODE) == O_RDONLY ? fifo_open_reader(real, flags) : fifo_open_writer(real, flags);
	if (fd < 0) {
		return NULL; /* PHP's caller reports errno: "Failed to open stream: ..." */
	}
	php_stream *stream = php_stream_fopen_from_fd_rel(fd, mode, NULL, (flags & O_APPEND) == 0);
	if (stream == NULL) {
		close(fd);
		return NULL;
	}
	if (opened_path) {
		*opened_path = zend_string_init(real, strlen(real), 0);
	}
	return stream;
}

/* ---------------------------------------------------------------------------------------------
 * Patching the const ops table
 * ------------------------------------------------------------------------------------------- */

/* The protection of the mapping holding addr, from /proc/self/maps; -1 if not found. */
static int page_protection(uintptr_t addr)
{
	FILE *maps = fopen("/proc/self/maps", "r");
	if (maps == NULL) {
		return -1;
	}
	char line[512];
	int prot = -1;
	while (fgets(line, sizeof(line), maps) != NULL) {
		unsigned long lo, hi;
		char perms[5];
		if (sscanf(line, "%lx-%lx %4s", &lo, &hi, perms) == 3 && addr >= lo && addr < hi) {
			prot = (perms[0] == 'r' ? PROT_READ : 0) | (perms[1] == 'w' ? PROT_WRITE : 0)
				| (perms[2] == 'x' ? PROT_EXEC : 0);
			break;
		}
	}
	fclose(maps);
	return prot;
}

/* Store value into a pointer slot of read-only data (a const ops table); false if impossible. */
static bool patch_pointer(void **slot, void *value)
{
	int prot = page_protection((uintptr_t) slot);
	if (prot < 0) {
		return false;
	}
	if (prot & PROT_WRITE) {
		*slot = value;
		return true;
	}
	long page = sysconf(_SC_PAGESIZE);
	void *start = (void *) ((uintptr_t) slot & ~(uintptr_t) (page - 1));
	size_t len = ((uintptr_t) slot + sizeof(void *)) - (uintptr_t) start;
	if (mprotect(start, len, prot | PROT_WRITE) != 0) {
		return false;
	}
	*slot = value;
	mprotect(start, len, prot);
	return true;
}

void async_stdio_open_hook_install(void)
{
	ZEND_ASSERT(!open_installed);
	php_stream_wrapper_ops *wops = (php_stream_wrapper_ops *) php_plain_files_wrapper.wops;
	plain_opener = (plain_opener_t) wops->stream_opener;
	if (plain_opener != NULL && patch_pointer((void **) &wops->stream_opener, (void *) fifo_opener)) {
		open_installed = true;
	}
}

void async_stdio_open_hook_uninstall(void)
{
	if (!open_installed) {
		return;
	}
	php_stream_wrapper_ops *wops = (php_stream_wrapper_ops *) php_plain_files_wrapper.wops;
	if (patch_pointer((void **) &wops->stream_opener, (void *) plain_opener)) {
		open_installed = false;
	}
}
