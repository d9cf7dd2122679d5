/*
 * hooks/proc_wait.c — proc_close(), pclose(), pcntl_waitpid() and pcntl_wait() suspend only the
 * calling coroutine.
 *
 * "Wait, then delegate": the coroutine waits until the child has exited WITHOUT reaping it (the
 * reactor's process event: a pidfd, or waitid(WNOWAIT) polled), then PHP's own function runs and
 * its waitpid() returns at once. Exit codes, rusage, pcntl_get_last_error(), warnings and the
 * resources' bookkeeping are therefore PHP's own. Nothing here calls waitpid(-1) or touches
 * SIGCHLD.
 *
 * - proc_close(): PHP closes the pipes first ("to avoid a deadlock": a child reading its stdin
 *   waits for EOF), then waits. We do the same closes first (zend_list_close(), which PHP's
 *   destructor repeats harmlessly), wait, then call PHP's proc_close().
 * - pclose(): glibc's popen() keeps the child's pid in its private FILE (struct _IO_proc_file:
 *   the FILE, its vtable pointer, then the pid). We read it there, check that it is our running
 *   child, and, as pclose(3) does before it waits, end the pipe: the descriptor is replaced by
 *   /dev/null (dup2), so the child sees EOF (or SIGPIPE) while the FILE stays valid for PHP's own
 *   pclose() afterwards. Anything we cannot verify (not glibc, not a popen() stream, not our
 *   child) takes PHP's blocking path.
 * - pcntl_waitpid($pid > 0): the process event. With WUNTRACED/WCONTINUED, or for "any child" /
 *   a process group (pid <= 0, pcntl_wait()), waitid(WNOWAIT | WNOHANG) is polled on timers
 *   (1 ms doubling to 50 ms): there is no descriptor for "some child changed state" short of a
 *   SIGCHLD handler, which would break pcntl_signal(SIGCHLD). WNOHANG calls never wait.
 *
 * Cancelled while waiting: the wait ends with the cancellation, the child keeps running and stays
 * the caller's (the process resource or pid is still valid; PHP's destructor or a later call
 * reaps it as stock PHP would).
 */
#include "php_async.h"
#include "hooks/hooks.h"

#ifdef PHP_WIN32
/* POSIX only (posix_spawn, waitid, pidfd): on Windows PHP's own functions stay in place. */
zend_result async__hook_proc_wait_minit(void) { return SUCCESS; }
void async__hook_proc_wait_mshutdown(void) {}
#else
#include "async_io_wait.h"
#include "core/core.h"
#include "ext/standard/file.h"
#include "ext/standard/proc_open.h"
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

static ZEND_FUNCTION(async_proc_close);
static ZEND_FUNCTION(async_pclose);
static ZEND_FUNCTION(async_pcntl_waitpid);
static ZEND_FUNCTION(async_pcntl_wait);

enum { HOOK_PROC_CLOSE, HOOK_PCLOSE, HOOK_WAITPID, HOOK_WAIT };
/* per-process: the function table's handlers, swapped at MINIT */
static async_function_hook_t hooks[] = {
	[HOOK_PROC_CLOSE] = { "proc_close", ZEND_FN(async_proc_close), NULL },
	[HOOK_PCLOSE] = { "pclose", ZEND_FN(async_pclose), NULL },
	[HOOK_WAITPID] = { "pcntl_waitpid", ZEND_FN(async_pcntl_waitpid), NULL },
	[HOOK_WAIT] = { "pcntl_wait", ZEND_FN(async_pcntl_wait), NULL },
};

#define POLL_FIRST_MS 1
#define POLL_MAX_MS   50

/* ---------------------------------------------------------------------------------------------
 * Waiting for a child
 * ------------------------------------------------------------------------------------------- */

/* waitid() without reaping: 1 when a child matching (idtype, id) has a state change to report,
 * 0 when none has yet, -1 when there is nothing to wait for (ECHILD: the caller's own call
 * reports it). */
static int child_pending(idtype_t idtype, id_t id, int options)
{
	siginfo_t info;
	memset(&info, 0, sizeof(info));
	if (waitid(idtype, id, &info, options | WNOHANG | WNOWAIT) != 0) {
		return -1;
	}
	return info.si_pid != 0 ? 1 : 0;
}

bool async__child_wait_exit(pid_t pid)
{
	ZEND_ASSERT(pid > 0);
	if (child_pending(P_PID, (id_t) pid, WEXITED) != 0) {
		return true; /* exited already, or not ours: the caller's waitpid() answers at once */
	}
	zend_async_process_event_t *event = ZEND_ASYNC_NEW_PROCESS_EVENT(pid);
	if (event == NULL) {
		return false;
	}
	bool ok = async__wait_event(&event->base, NULL, NULL, "wait for a process");
	ZEND_ASYNC_EVENT_RELEASE(&event->base);
	return ok;
}

/* Any state change waitid() can see for (idtype, id), polled on timers. */
static bool child_wait_polled(idtype_t idtype, id_t id, int options)
{
	zend_ulong interval = POLL_FIRST_MS;
	while (child_pending(idtype, id, options) == 0) {
		if (!async__wait_ms(interval, 0)) {
			return false;
		}
		interval = MIN(interval * 2, POLL_MAX_MS);
	}
	return true;
}

/* ---------------------------------------------------------------------------------------------
 * pcntl_waitpid(), pcntl_wait()
 * ------------------------------------------------------------------------------------------- */

/* The waitid() options matching waitpid()'s; false for options we do not know (the caller then
 * lets PHP's function run: it reports or blocks as stock). */
static bool waitid_options(zend_long waitpid_options, int *options)
{
	if (waitpid_options & ~(zend_long) (WUNTRACED | WCONTINUED)) {
		return false;
	}
	*options = WEXITED;
	if (waitpid_options & WUNTRACED) {
		*options |= WSTOPPED;
	}
	if (waitpid_options & WCONTINUED) {
		*options |= WCONTINUED;
	}
	return true;
}

/* Waits as waitpid(pid, ..., waitpid_options) would, without reaping. True when the original
 * may run now (it will not block, or we could not tell); false with an exception. */
static bool waitpid_wait(zend_long pid, zend_long waitpid_options)
{
	int options;
	if (!waitid_options(waitpid_options, &options)) {
		return true;
	}
	if (pid > 0 && options == WEXITED) {
		return async__child_wait_exit((pid_t) pid);
	}
	if (pid > 0) {
		return child_wait_polled(P_PID, (id_t) pid, options);
	}
	if (pid == -1) {
		return child_wait_polled(P_ALL, 0, options);
	}
	if (pid == 0) {
		return child_wait_polled(P_PGID, (id_t) getpgrp(), options);
	}
	return child_wait_polled(P_PGID, (id_t) -pid, options);
}

/* The argument `n` (1-based) when it is an int (or absent: `dflt`); false for anything else,
 * which PHP's own parsing must see. */
static bool long_arg(zend_execute_data *execute_data, uint32_t n, zend_long dflt, zend_long *out)
{
	if (ZEND_NUM_ARGS() < n) {
		*out = dflt;
		return true;
	}
	zval *arg = ZEND_CALL_ARG(execute_data, n);
	if (Z_TYPE_P(arg) != IS_LONG) {
		return false;
	}
	*out = Z_LVAL_P(arg);
	return true;
}

static ZEND_FUNCTION(async_pcntl_waitpid)
{
	zend_long pid, options;
	if (async_io_can_wait() && ZEND_NUM_ARGS() >= 2 && long_arg(execute_data, 1, 0, &pid)
		&& long_arg(execute_data, 3, 0, &options) && !(options & WNOHANG)) {
		if (!waitpid_wait(pid, options)) {
			RETURN_THROWS();
		}
	}
	hooks[HOOK_WAITPID].original(INTERNAL_FUNCTION_PARAM_PASSTHRU);
}

static ZEND_FUNCTION(async_pcntl_wait)
{
	zend_long options;
	if (async_io_can_wait() && ZEND_NUM_ARGS() >= 1 && long_arg(execute_data, 2, 0, &options)
		&& !(options & WNOHANG)) {
		if (!waitpid_wait(-1, options)) {
			RETURN_THROWS();
		}
	}
	hooks[HOOK_WAIT].original(INTERNAL_FUNCTION_PARAM_PASSTHRU);
}

/* ---------------------------------------------------------------------------------------------
 * proc_close()
 * ------------------------------------------------------------------------------------------- */

/* The process handle behind proc_close()'s argument, or NULL (PHP's function reports it). */
static php_process_handle *proc_handle(zend_execute_data *execute_data)
{
	if (ZEND_NUM_ARGS() != 1) {
		return NULL;
	}
	zval *arg = ZEND_CALL_ARG(execute_data, 1);
	if (Z_TYPE_P(arg) != IS_RESOURCE) {
		return NULL;
	}
	int type = zend_fetch_list_dtor_id("process");
	return type > 0 && Z_RES_TYPE_P(arg) == type ? (php_process_handle *) Z_RES_VAL_P(arg) : NULL;
}

static ZEND_FUNCTION(async_proc_close)
{
	php_process_handle *proc = async_io_can_wait() ? proc_handle(execute_data) : NULL;
	if (proc != NULL && proc->child > 0) {
		/* PHP closes the pipes before it waits; so must we. Its destructor closes them again
		 * (a no-op on a closed resource) and drops its references. */
		for (int i = 0; i < proc->npipes; i++) {
			if (proc->pipes[i] != NULL) {
				zend_list_close(proc->pipes[i]);
			}
		}
		if (!async__child_wait_exit(proc->child)) {
			RETURN_THROWS();
		}
	}
	hooks[HOOK_PROC_CLOSE].original(INTERNAL_FUNCTION_PARAM_PASSTHRU);
}

/* ---------------------------------------------------------------------------------------------
 * pclose()
 * ------------------------------------------------------------------------------------------- */

/* The head of PHP's private php_stdio_stream_data (main/streams/plain_wrapper.c, unchanged
 * from 7.0 to 8.4). */
typedef struct {
	FILE *file;
	int fd;
	unsigned is_process_pipe:1;
} stdio_data_head_t;

#ifdef __GLIBC__
/* glibc's libio/iopopen.c: struct _IO_proc_file { struct _IO_FILE_plus file; pid_t pid; ... },
 * and _IO_FILE_plus is a FILE followed by its vtable pointer. */
typedef struct {
	FILE file;
	const void *vtable;
	pid_t pid;
} glibc_proc_file_t;
#endif

/* The pid of the child behind a popen() stream, checked to be our running child; 0 if unknown. */
static pid_t popen_child(php_stream *stream)
{
#ifdef __GLIBC__
	if (stream->ops == NULL || strcmp(stream->ops->label, "STDIO") != 0 || stream->abstract == NULL) {
		return 0;
	}
	stdio_data_head_t *data = (stdio_data_head_t *) stream->abstract;
	if (!data->is_process_pipe || data->file == NULL || data->fd < 0 || fileno(data->file) != data->fd) {
		return 0;
	}
	pid_t pid = ((glibc_proc_file_t *) data->file)->pid;
	if (pid <= 0 || child_pending(P_PID, (id_t) pid, WEXITED) != 0) {
		return 0; /* not ours, or exited already: PHP's pclose() does not block */
	}
	return pid;
#else
	(void) stream;
	return 0;
#endif
}

/* What pclose(3) does before it waits: the pipe ends (EOF for a reader child, SIGPIPE for a
 * writer), but the descriptor number stays valid (/dev/null) for PHP's own pclose() later. */
static bool popen_end_pipe(php_stream *stream, int fd)
{
	php_stream_flush(stream);
	int null_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null_fd < 0) {
		return false;
	}
	async_io_fd_closing(fd);
	bool ok = dup2(null_fd, fd) == fd;
	close(null_fd);
	return ok;
}

static ZEND_FUNCTION(async_pclose)
{
	zval *arg = ZEND_NUM_ARGS() == 1 ? ZEND_CALL_ARG(execute_data, 1) : NULL;
	php_stream *stream = NULL;
	if (async_io_can_wait() && arg != NULL && Z_TYPE_P(arg) == IS_RESOURCE) {
		stream = (php_stream *) zend_fetch_resource2(Z_RES_P(arg), NULL, php_file_le_stream(), php_file_le_pstream());
	}
	pid_t pid = stream != NULL ? popen_child(stream) : 0;
	if (pid > 0 && popen_end_pipe(stream, ((stdio_data_head_t *) stream->abstract)->fd)) {
		if (!async__child_wait_exit(pid)) {
			RETURN_THROWS();
		}
	}
	hooks[HOOK_PCLOSE].original(INTERNAL_FUNCTION_PARAM_PASSTHRU);
}

zend_result async__hook_proc_wait_minit(void)
{
	async__function_hooks_install(hooks, sizeof(hooks) / sizeof(hooks[0]));
	return SUCCESS;
}

void async__hook_proc_wait_mshutdown(void)
{
	async__function_hooks_uninstall(hooks, sizeof(hooks) / sizeof(hooks[0]));
}

#endif /* PHP_WIN32 */
