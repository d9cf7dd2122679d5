/*
 * hooks/stdio_wrapper.c — PHP's plain-files wrapper (every local path) in a coroutine: opening a
 * FIFO waits for its peer without blocking the process, and truncating or unlinking a big file
 * frees its blocks on the thread pool.
 *
 * The wrapper's ops table is const, so its stream_opener and unlink slots are patched in place
 * once per process (mprotect() around each pointer store, restored at MSHUTDOWN; if the page
 * cannot be made writable, these calls stay stock). The patched ops change nothing but, in a
 * coroutine called from an internal function:
 *
 *   - a FIFO opened for writing: open(O_NONBLOCK) succeeds as soon as a reader exists and fails
 *     with ENXIO before; the coroutine retries on a timer (1 ms doubling to 16 ms, like flock()),
 *     then clears O_NONBLOCK. No thread is parked.
 *   - a FIFO opened for reading: a non-blocking open cannot tell whether a writer came, so the
 *     blocking open() runs on the pool (hooks/stdio_pool.c, which releases the thread when nobody
 *     waits any more). Writers never take a thread, so readers parked there are always woken.
 *   - an existing file of ASYNC_STDIO_BIG_FILE bytes or more opened with O_TRUNC, and unlink() of
 *     one: the system call runs on the pool (ext4 frees a 1 GiB file's blocks in ~170 ms).
 *
 * Read-write FIFO opens (Linux never blocks them), "n" (O_NONBLOCK) opens, small files,
 * includes, and everything outside a coroutine go to PHP's ops unchanged. What PHP's ops do
 * around the system call (open_basedir, path expansion, the stream, opened_path, warnings, the
 * stat cache) is done here with PHP's own helpers, in the same order.
 */
#include "php_async.h"
#include "hooks/hooks.h"
#include "core/core.h"
#include "ext/standard/php_filestat.h"
#include "main/fopen_wrappers.h"
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define FIFO_BACKOFF_MAX_MS 16

typedef php_stream *(*plain_opener_t)(php_stream_wrapper *wrapper, const char *filename, const char *mode,
	int options, zend_string **opened_path, php_stream_context *context STREAMS_DC);
typedef int (*plain_unlink_t)(php_stream_wrapper *wrapper, const char *url, int options, php_stream_context *context);

/* per-process: the plain wrapper's ops are patched once at MINIT */
static plain_opener_t plain_opener;
/* per-process: likewise */
static plain_unlink_t plain_unlink;
/* per-process: whether each slot holds ours */
static bool opener_installed;
/* per-process: likewise */
static bool unlink_installed;

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
		if (!async__wait_ms(delay, 0)) {
			errno = EINTR;
			return -1;
		}
		delay = MIN(delay * 2, FIFO_BACKOFF_MAX_MS);
	}
}

/* ---------------------------------------------------------------------------------------------
 * The opener
 * ------------------------------------------------------------------------------------------- */

typedef enum { OPEN_STOCK, OPEN_FIFO_READER, OPEN_FIFO_WRITER, OPEN_ON_POOL } open_kind_t;

/* How this open is done. Fills the open flags and the expanded path unless it is PHP's. */
static open_kind_t open_kind(const char *path, const char *mode, int options, int *flags, char *real)
{
	if ((options & (STREAM_OPEN_FOR_INCLUDE | STREAM_USE_BLOCKING_PIPE)) || !async__stdio_may_switch()
		|| php_stream_parse_fopen_modes(mode, flags) == FAILURE || (*flags & O_NONBLOCK)) {
		return OPEN_STOCK;
	}
	bool reads_only = (*flags & O_ACCMODE) == O_RDONLY;
	bool fifo_may_block = (*flags & O_ACCMODE) != O_RDWR;
	if (!fifo_may_block && !(*flags & O_TRUNC)) {
		return OPEN_STOCK;
	}
	if (!(options & STREAM_DISABLE_OPEN_BASEDIR) && php_check_open_basedir_ex(path, 0)) {
		return OPEN_STOCK; /* PHP's opener says so, with its warning */
	}
	if (options & STREAM_ASSUME_REALPATH) {
		strlcpy(real, path, MAXPATHLEN);
	} else if (expand_filepath(path, real) == NULL) {
		return OPEN_STOCK;
	}
	struct stat sb;
	if (stat(real, &sb) != 0) {
		return OPEN_STOCK;
	}
	if (S_ISFIFO(sb.st_mode)) {
		return !fifo_may_block ? OPEN_STOCK : reads_only ? OPEN_FIFO_READER : OPEN_FIFO_WRITER;
	}
	if (S_ISREG(sb.st_mode) && (*flags & O_TRUNC) && !reads_only && sb.st_size >= ASYNC_STDIO_BIG_FILE) {
		return OPEN_ON_POOL;
	}
	return OPEN_STOCK;
}

static php_stream *plain_files_opener(php_stream_wrapper *wrapper, const char *path, const char *mode, int options,
	zend_string **opened_path, php_stream_context *context STREAMS_DC)
{
	int flags;
	char real[MAXPATHLEN];
	open_kind_t kind = open_kind(path, mode, options, &flags, real);
	if (kind == OPEN_STOCK) {
		return plain_opener(wrapper, path, mode, options, opened_path, context STREAMS_REL_CC);
	}
	int fd;
	if (kind == OPEN_FIFO_WRITER) {
		fd = fifo_open_writer(real, flags);
	} else {
		async_stdio_call_t call = { .op = kind == OPEN_FIFO_READER ? STDIO_CALL_OPEN_FIFO : STDIO_CALL_OPEN, .flags = flags };
		fd = (int) async__stdio_pool_call(&call, real, kind == OPEN_FIFO_READER ? "open a FIFO" : "open a file");
	}
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

/* unlink() of a big file on the pool; PHP's own steps around it (plain_wrapper.c). */
static int plain_files_unlink(php_stream_wrapper *wrapper, const char *url, int options, php_stream_context *context)
{
	const char *path = url;
	if (strncasecmp(path, "file://", sizeof("file://") - 1) == 0) {
		path += sizeof("file://") - 1;
	}
	struct stat sb;
	if (!async__stdio_may_switch() || php_check_open_basedir_ex(path, 0) || lstat(path, &sb) != 0
		|| !S_ISREG(sb.st_mode) || sb.st_size < ASYNC_STDIO_BIG_FILE || sb.st_nlink > 1) {
		return plain_unlink(wrapper, url, options, context);
	}
	async_stdio_call_t call = { .op = STDIO_CALL_UNLINK };
	if (async__stdio_pool_call(&call, path, "unlink a file") != 0) {
		if ((options & REPORT_ERRORS) && !EG(exception)) {
			php_error_docref1(NULL, path, E_WARNING, "%s", strerror(errno));
		}
		return 0;
	}
	php_clear_stat_cache(1, NULL, 0);
	return 1;
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

void async__stdio_wrapper_hooks_install(void)
{
	ZEND_ASSERT(!opener_installed && !unlink_installed);
	php_stream_wrapper_ops *wops = (php_stream_wrapper_ops *) php_plain_files_wrapper.wops;
	plain_opener = (plain_opener_t) wops->stream_opener;
	plain_unlink = (plain_unlink_t) wops->unlink;
	opener_installed = plain_opener != NULL && patch_pointer((void **) &wops->stream_opener, (void *) plain_files_opener);
	unlink_installed = plain_unlink != NULL && patch_pointer((void **) &wops->unlink, (void *) plain_files_unlink);
}

void async__stdio_wrapper_hooks_uninstall(void)
{
	php_stream_wrapper_ops *wops = (php_stream_wrapper_ops *) php_plain_files_wrapper.wops;
	if (opener_installed && patch_pointer((void **) &wops->stream_opener, (void *) plain_opener)) {
		opener_installed = false;
	}
	if (unlink_installed && patch_pointer((void **) &wops->unlink, (void *) plain_unlink)) {
		unlink_installed = false;
	}
}
