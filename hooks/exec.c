/*
 * hooks/exec.c — exec(), system(), passthru() and shell_exec() (the backtick operator compiles to
 * a shell_exec() call) suspend only the calling coroutine.
 *
 * PHP runs these through popen(3) and reads the pipe with blocking read()s inside its own C code
 * (php_exec()), then blocks again in pclose(3)'s waitpid(). Inside a coroutine we run the command
 * the way glibc's popen() does — posix_spawn() of `/bin/sh -c <cmd>` with the child's stdout on a
 * pipe, stdin and stderr inherited, the environment and working directory of the process — and:
 * - read the pipe through a small PHP stream of our own whose read op waits on the descriptor
 *   (async_io_wait.h) when the pipe is empty. php_exec()'s loop is copied below unchanged and
 *   runs on that stream, so line splitting, the 4096-byte line chunks, trailing-whitespace
 *   stripping, the "last line" return value and what system()/passthru() print (through PHP's
 *   output layer, hence into the calling coroutine's output buffers) are PHP's own.
 * - wait for the exit on the reactor's process event (it does not reap), then waitpid() the
 *   child, which returns at once: $result_code is what pclose(3) gives PHP (the exit status, or
 *   the raw wait status for a child killed by a signal).
 * Our pipe has O_CLOEXEC on both ends (popen's write end is close-on-exec in the child too), so
 * commands running at once in several coroutines never hold each other's pipes open.
 *
 * Cancelled (or the wait refused) while the command runs: the child is killed with SIGKILL and
 * reaped at once, so no zombie is left; the cancellation propagates. Output printed so far stays
 * printed. Only the shell itself is killed: grandchildren it started in the background are
 * re-parented to init as with any orphan.
 *
 * Outside coroutines, in destructors (PHP 8.2 cannot switch there) and before the scheduler
 * started, PHP's own functions run.
 */
#include "php_async.h"
#include "hooks/hooks.h"

#ifdef PHP_WIN32
/* POSIX only (posix_spawn, waitid, pidfd): on Windows PHP's own functions stay in place. */
zend_result async__hook_exec_minit(void) { return SUCCESS; }
void async__hook_exec_mshutdown(void) {}
#else
#include "async_io_wait.h"
#include "SAPI.h"
#include <spawn.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

extern char **environ;

static ZEND_FUNCTION(async_exec);
static ZEND_FUNCTION(async_system);
static ZEND_FUNCTION(async_passthru);
static ZEND_FUNCTION(async_shell_exec);

enum { HOOK_EXEC, HOOK_SYSTEM, HOOK_PASSTHRU, HOOK_SHELL_EXEC };
/* per-process: the function table's handlers, swapped at MINIT */
static async_function_hook_t hooks[] = {
	[HOOK_EXEC] = { "exec", ZEND_FN(async_exec), NULL },
	[HOOK_SYSTEM] = { "system", ZEND_FN(async_system), NULL },
	[HOOK_PASSTHRU] = { "passthru", ZEND_FN(async_passthru), NULL },
	[HOOK_SHELL_EXEC] = { "shell_exec", ZEND_FN(async_shell_exec), NULL },
};

/* ---------------------------------------------------------------------------------------------
 * The child and its pipe
 * ------------------------------------------------------------------------------------------- */

typedef struct {
	pid_t pid;
	int fd;        /* our end of the pipe (O_NONBLOCK); -1 once the stream closed it */
} exec_child_t;

/* popen(cmd, "r") as glibc does it, but with our end of the pipe non-blocking. */
static bool child_spawn(const char *cmd, exec_child_t *child)
{
	int fds[2];
	if (pipe2(fds, O_CLOEXEC) != 0) {
		return false;
	}
	posix_spawn_file_actions_t actions;
	posix_spawn_file_actions_init(&actions);
	/* dup2 clears close-on-exec on the copy; if the pipe got descriptor 1 itself (stdout was
	 * closed), dup2 onto itself clears it as well (POSIX 2018, glibc >= 2.29). */
	posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
	char *argv[] = { "sh", "-c", (char *) cmd, NULL };
	int rc = posix_spawn(&child->pid, "/bin/sh", &actions, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&actions);
	close(fds[1]);
	if (rc != 0) {
		close(fds[0]);
		errno = rc;
		return false;
	}
	fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK);
	child->fd = fds[0];
	return true;
}

/* The child's status as PHP's pclose path reports it (php_stdiop_close(): WEXITSTATUS for a
 * normal exit, the raw status otherwise, -1 when waitpid() fails). */
static int child_reap(pid_t pid)
{
	int status;
	pid_t rc;
	do {
		rc = waitpid(pid, &status, 0);
	} while (rc == -1 && errno == EINTR);
	if (rc != pid) {
		return -1;
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : status;
}

/* The exit: waited for on the reactor, then reaped. -1 with an exception when the wait ended
 * early (the child is then killed and reaped). */
static int child_finish(pid_t pid)
{
	if (!async__child_wait_exit(pid)) {
		kill(pid, SIGKILL);
		child_reap(pid);
		return -1;
	}
	return child_reap(pid);
}

/* ---------------------------------------------------------------------------------------------
 * The pipe as a PHP stream whose reads suspend
 * ------------------------------------------------------------------------------------------- */

static ssize_t pipe_read(php_stream *stream, char *buf, size_t count)
{
	exec_child_t *child = (exec_child_t *) stream->abstract;
	for (;;) {
		ssize_t n = read(child->fd, buf, count);
		if (n > 0) {
			return n;
		}
		if (n == 0) {
			stream->eof = 1;
			return 0;
		}
		if (errno == EINTR) {
			continue;
		}
		if (errno != EAGAIN && errno != EWOULDBLOCK) {
			stream->eof = 1;
			return -1;
		}
		if (async_io_wait_fd(child->fd, ASYNC_POLL_READ, -1) < 0) {
			stream->eof = 1; /* cancelled: the exception is set, the loops above us stop */
			return -1;
		}
	}
}

static ssize_t pipe_write(php_stream *stream, const char *buf, size_t count)
{
	(void) stream;
	(void) buf;
	(void) count;
	return -1; /* read-only, as popen(cmd, "r") */
}

static int pipe_close(php_stream *stream, int close_handle)
{
	exec_child_t *child = (exec_child_t *) stream->abstract;
	if (close_handle && child->fd >= 0) {
		async_io_fd_closing(child->fd);
		close(child->fd);
		child->fd = -1;
	}
	return 0;
}

static int pipe_flush(php_stream *stream)
{
	(void) stream;
	return 0;
}

/* per-process: stream ops, constant */
static const php_stream_ops pipe_ops = {
	pipe_write, pipe_read, pipe_close, pipe_flush, "exec pipe", NULL, NULL, NULL, NULL,
};

/* The stream php_stream_fopen_from_pipe() would have made (no seeking, PHP's chunk size). */
static php_stream *pipe_stream(exec_child_t *child)
{
	php_stream *stream = php_stream_alloc(&pipe_ops, child, 0, "rb");
	stream->flags |= PHP_STREAM_FLAG_NO_SEEK;
	return stream;
}

/* ---------------------------------------------------------------------------------------------
 * php_exec(), as ext/standard/exec.c has it (PHP 8.2), on our stream
 * ------------------------------------------------------------------------------------------- */

static size_t strip_trailing_whitespace(char *buf, size_t bufl)
{
	size_t l = bufl;
	while (l-- > 0 && isspace((unsigned char) buf[l]));
	if (l != (bufl - 1)) {
		bufl = l + 1;
		buf[bufl] = '\0';
	}
	return bufl;
}

static size_t handle_line(int type, zval *array, char *buf, size_t bufl)
{
	if (type == 1) {
		PHPWRITE(buf, bufl);
		if (php_output_get_level() < 1) {
			sapi_flush();
		}
	} else if (type == 2) {
		bufl = strip_trailing_whitespace(buf, bufl);
		add_next_index_stringl(array, buf, bufl);
	}
	return bufl;
}

/* php_exec()'s reading loop, unchanged: lines (types 0, 1, 2) or raw chunks (3). */
static void exec_read(int type, php_stream *stream, zval *array, zval *return_value)
{
	char *buf = (char *) emalloc(EXEC_INPUT_BUF);
	size_t buflen = EXEC_INPUT_BUF, bufl = 0;

	if (type != 3) {
		char *b = buf;
		/* !EG(exception): a cancelled read ends the loop (the only change to PHP's loop) */
		while (!EG(exception) && php_stream_get_line(stream, b, EXEC_INPUT_BUF, &bufl)) {
			/* no new line found, let's read some more */
			if (b[bufl - 1] != '\n' && !php_stream_eof(stream)) {
				if (buflen < (bufl + (b - buf) + EXEC_INPUT_BUF)) {
					bufl += b - buf;
					buflen = bufl + EXEC_INPUT_BUF;
					buf = erealloc(buf, buflen);
					b = buf + bufl;
				} else {
					b += bufl;
				}
				continue;
			} else if (b != buf) {
				bufl += b - buf;
			}
			bufl = handle_line(type, array, buf, bufl);
			b = buf;
		}
		if (EG(exception)) {
			efree(buf);
			return;
		}
		if (bufl) {
			if (buf != b) {
				/* Process remaining output */
				bufl = handle_line(type, array, buf, bufl);
			}
			/* Return last line from the shell command */
			bufl = strip_trailing_whitespace(buf, bufl);
			RETVAL_STRINGL(buf, bufl);
		} else { /* should return NULL, but for BC we return "" */
			RETVAL_EMPTY_STRING();
		}
	} else {
		ssize_t read;
		while (!EG(exception) && (read = php_stream_read(stream, buf, EXEC_INPUT_BUF)) > 0) {
			PHPWRITE(buf, read);
		}
	}
	efree(buf);
}

/* php_exec(): the exit code (PHP's pclose_return), or -1 after a failed spawn (RETVAL false)
 * or with an exception. */
static int exec_run(int type, const char *cmd, zval *array, zval *return_value)
{
	exec_child_t child;
	if (!child_spawn(cmd, &child)) {
		php_error_docref(NULL, E_WARNING, "Unable to fork [%s]", cmd);
		RETVAL_FALSE;
		return -1;
	}
	php_stream *stream = pipe_stream(&child);
	exec_read(type, stream, array, return_value);
	php_stream_close(stream); /* closes our end first, as pclose(3) does */
	if (EG(exception)) {
		kill(child.pid, SIGKILL);
		child_reap(child.pid);
		return -1;
	}
	return child_finish(child.pid);
}

/* An empty command, or one with a NUL byte: PHP's own function throws its own ValueError (its
 * words differ between versions), before running anything. */
static bool command_refused(const char *cmd, size_t cmd_len)
{
	return cmd_len == 0 || strlen(cmd) != cmd_len;
}

/* php_exec_ex(): argument checks and $output/$result_code as PHP has them. */
static void exec_ex(INTERNAL_FUNCTION_PARAMETERS, int mode, zif_handler original)
{
	char *cmd;
	size_t cmd_len;
	zval *ret_code = NULL, *ret_array = NULL;
	int ret;

	ZEND_PARSE_PARAMETERS_START(1, (mode ? 2 : 3))
		Z_PARAM_STRING(cmd, cmd_len)
		Z_PARAM_OPTIONAL
		if (!mode) {
			Z_PARAM_ZVAL(ret_array)
		}
		Z_PARAM_ZVAL(ret_code)
	ZEND_PARSE_PARAMETERS_END();

	if (command_refused(cmd, cmd_len)) {
		original(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}

	if (!ret_array) {
		ret = exec_run(mode, cmd, NULL, return_value);
	} else {
		if (Z_TYPE_P(Z_REFVAL_P(ret_array)) == IS_ARRAY) {
			ZVAL_DEREF(ret_array);
			SEPARATE_ARRAY(ret_array);
		} else {
			ret_array = zend_try_array_init(ret_array);
			if (!ret_array) {
				RETURN_THROWS();
			}
		}
		ret = exec_run(2, cmd, ret_array, return_value);
	}
	if (EG(exception)) {
		RETURN_THROWS();
	}
	if (ret_code) {
		ZEND_TRY_ASSIGN_REF_LONG(ret_code, ret);
	}
}

static ZEND_FUNCTION(async_exec)
{
	if (!async_io_can_wait()) {
		hooks[HOOK_EXEC].original(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	exec_ex(INTERNAL_FUNCTION_PARAM_PASSTHRU, 0, hooks[HOOK_EXEC].original);
}

static ZEND_FUNCTION(async_system)
{
	if (!async_io_can_wait()) {
		hooks[HOOK_SYSTEM].original(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	exec_ex(INTERNAL_FUNCTION_PARAM_PASSTHRU, 1, hooks[HOOK_SYSTEM].original);
}

static ZEND_FUNCTION(async_passthru)
{
	if (!async_io_can_wait()) {
		hooks[HOOK_PASSTHRU].original(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	exec_ex(INTERNAL_FUNCTION_PARAM_PASSTHRU, 3, hooks[HOOK_PASSTHRU].original);
}

/* shell_exec(): the whole output, or null when there was none; the exit code is dropped. */
static ZEND_FUNCTION(async_shell_exec)
{
	if (!async_io_can_wait()) {
		hooks[HOOK_SHELL_EXEC].original(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	char *command;
	size_t command_len;

	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_STRING(command, command_len)
	ZEND_PARSE_PARAMETERS_END();

	if (command_refused(command, command_len)) {
		hooks[HOOK_SHELL_EXEC].original(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}

	exec_child_t child;
	if (!child_spawn(command, &child)) {
		php_error_docref(NULL, E_WARNING, "Unable to execute '%s'", command);
		RETURN_FALSE;
	}
	php_stream *stream = pipe_stream(&child);
	zend_string *ret = php_stream_copy_to_mem(stream, PHP_STREAM_COPY_ALL, 0);
	php_stream_close(stream);
	if (EG(exception)) {
		kill(child.pid, SIGKILL);
		child_reap(child.pid);
		if (ret) {
			zend_string_release_ex(ret, false);
		}
		RETURN_THROWS();
	}
	child_finish(child.pid);
	if (EG(exception)) {
		if (ret) {
			zend_string_release_ex(ret, false);
		}
		RETURN_THROWS();
	}
	if (ret && ZSTR_LEN(ret) > 0) {
		RETVAL_STR(ret);
	} else if (ret) {
		zend_string_release_ex(ret, false);
	}
}

zend_result async__hook_exec_minit(void)
{
	async__function_hooks_install(hooks, sizeof(hooks) / sizeof(hooks[0]));
	return SUCCESS;
}

void async__hook_exec_mshutdown(void)
{
	async__function_hooks_uninstall(hooks, sizeof(hooks) / sizeof(hooks[0]));
}

#endif /* PHP_WIN32 */
