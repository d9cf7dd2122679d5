/*
 * reactor/process.c — the reactor's process-exit event (zend_async_reactor_api.new_process_event):
 * fires once when the process `pid` has exited, WITHOUT reaping it.
 *
 * Not reaping is the point: the waiter then lets PHP's own code (proc_close(), pclose(),
 * pcntl_waitpid(), or our exec hooks) call waitpid(), which finds the child exited and returns at
 * once with every bit of stock bookkeeping (exit status, rusage, pcntl's errno). The runtime
 * never calls waitpid(-1) and never touches SIGCHLD: a pcntl_signal(SIGCHLD) handler and
 * processes started outside coroutines are left exactly as they were.
 *
 * How. On Linux >= 5.3 a pidfd (pidfd_open()) becomes readable when the process exits, zombie
 * or not; a uv_poll_t on it wakes the loop. Where pidfd_open() is missing (older kernels, other
 * systems, too many open files) a uv_timer_t polls waitid(WEXITED | WNOHANG | WNOWAIT), which
 * also leaves the child unreaped, every 1 ms doubling to 50 ms.
 *
 * libuv's own uv_spawn()/uv_process_t is not used: it reaps through a SIGCHLD handler of its own
 * (which replaces a pcntl_signal(SIGCHLD) handler while it runs and resets it to SIG_DFL after)
 * and only for processes it spawned itself.
 *
 * One-shot, like the signal event: the first start() arms the handle, the exit closes the event
 * (F_CLOSED) and notifies the subscribers with result = NULL; event->exit_code then holds the
 * exit status (0..255), 128 + the signal number for a child killed by a signal, or -1 when the
 * status cannot be read without reaping (not our child, or already reaped by someone else).
 * An armed event counts in active_event_count unless F_HIDDEN: a process exits on its own.
 */
#include "php_async.h"
#define ASYNC_REACTOR_UV /* the libuv side of the reactor's header */
#include "reactor/reactor.h"
#include "core/core.h"

#ifdef PHP_WIN32
/* POSIX only (pidfd, waitid): the slot keeps its stub on Windows. */
zend_result async__reactor_process_minit(void) { return SUCCESS; }
#else
#include <sys/wait.h>
#include <sys/syscall.h>
#include <signal.h>
#include <unistd.h>
#if defined(__has_include)
# if __has_include(<valgrind/valgrind.h>)
#  include <valgrind/valgrind.h>
#  define PROCESS_UNDER_VALGRIND() RUNNING_ON_VALGRIND
# endif
#endif
#ifndef PROCESS_UNDER_VALGRIND
# define PROCESS_UNDER_VALGRIND() 0
#endif

#define PROCESS_POLL_FIRST_MS 1
#define PROCESS_POLL_MAX_MS   50

typedef struct {
	zend_async_process_event_t event; /* first: the allocation starts with the event */
	uv_poll_t poll;                   /* on the pidfd, when there is one */
	uv_timer_t timer;                 /* otherwise: waitid() polled */
	uv_handle_t *handle;              /* whichever of the two is initialised */
	int pidfd;                        /* -1: the timer is used */
	uint64_t interval_ms;             /* the timer's next interval */
} async_process_t;

/* valgrind 3.19 (Debian 12) does not know pidfd_open (syscall 434): it prints a warning for
 * every call, which the test lanes count as a failure. Under valgrind the polled fallback runs,
 * so that lane exercises it. */
static int pidfd_open_compat(pid_t pid)
{
#ifdef SYS_pidfd_open
	if (PROCESS_UNDER_VALGRIND()) {
		errno = ENOSYS;
		return -1;
	}
	return (int) syscall(SYS_pidfd_open, pid, 0);
#else
	(void) pid;
	errno = ENOSYS;
	return -1;
#endif
}

/* Has the process exited? Fills exit_code when it can read the status without reaping. */
static bool process_exited(async_process_t *p)
{
	pid_t pid = p->event.process;
	siginfo_t info;
	memset(&info, 0, sizeof(info));
	if (waitid(P_PID, (id_t) pid, &info, WEXITED | WNOHANG | WNOWAIT) == 0) {
		if (info.si_pid != pid) {
			return false; /* our child, still running */
		}
		p->event.exit_code = info.si_code == CLD_EXITED ? info.si_status : 128 + info.si_status;
		return true;
	}
	/* Not our child (or reaped already): gone once kill(0) says so. */
	p->event.exit_code = -1;
	return errno == ECHILD && kill(pid, 0) != 0 && errno == ESRCH;
}

/* ---------------------------------------------------------------------------------------------
 * Arming
 * ------------------------------------------------------------------------------------------- */

static void process_fired(async_process_t *p);

static void process_poll_cb(uv_poll_t *handle, int status, int events)
{
	(void) status;
	(void) events; /* readable, or an error on the pidfd: either way the process is gone */
	async_process_t *p = (async_process_t *) handle->data;
	if (!process_exited(p)) {
		p->event.exit_code = -1; /* gone, but its status cannot be read without reaping */
	}
	process_fired(p);
}

static void process_timer_cb(uv_timer_t *handle)
{
	async_process_t *p = (async_process_t *) handle->data;
	if (process_exited(p)) {
		process_fired(p);
		return;
	}
	p->interval_ms = MIN(p->interval_ms * 2, PROCESS_POLL_MAX_MS);
	uv_timer_start(&p->timer, process_timer_cb, p->interval_ms, 0);
}

static bool process_arm(async_process_t *p)
{
	int rc;
	if (p->pidfd >= 0) {
		rc = uv_poll_start(&p->poll, UV_READABLE, process_poll_cb);
	} else {
		p->interval_ms = PROCESS_POLL_FIRST_MS;
		uv_update_time(p->timer.loop); /* P11 */
		rc = uv_timer_start(&p->timer, process_timer_cb, p->interval_ms, 0);
	}
	if (rc != 0) {
		async__throw(async__ce_async_exception, "Cannot watch process %d: %s", (int) p->event.process, uv_strerror(rc));
		return false;
	}
	if (ZEND_ASYNC_EVENT_IS_HIDDEN(&p->event.base)) {
		uv_unref(p->handle);
	}
	async__reactor_event_count_on(&p->event.base);
	return true;
}

static void process_disarm(async_process_t *p)
{
	if (!async__reactor_event_detached(&p->event.base)) {
		if (p->pidfd >= 0) {
			uv_poll_stop(&p->poll);
		} else {
			uv_timer_stop(&p->timer);
		}
	}
	async__reactor_event_count_off(&p->event.base);
}

static void process_fired(async_process_t *p)
{
	zend_async_event_t *event = &p->event.base;
	uv_loop_t *loop = p->handle->loop;
	if (ZEND_ASYNC_EVENT_IS_CLOSED(event)) {
		return;
	}
	event->loop_ref_count = 0;
	process_disarm(p);
	ZEND_ASYNC_EVENT_SET_CLOSED(event);
	ZEND_ASYNC_CALLBACKS_NOTIFY(event, NULL, NULL); /* may drop the last reference */
	async__reactor_delivered(loop);
}

/* ---------------------------------------------------------------------------------------------
 * Event methods
 * ------------------------------------------------------------------------------------------- */

static void process_close_cb(uv_handle_t *handle)
{
	async_process_t *p = (async_process_t *) handle->data;
	if (p->pidfd >= 0) {
		close(p->pidfd); /* only now: epoll must not watch a closed descriptor (P13) */
	}
	efree(p);
}

static bool process_start(zend_async_event_t *event)
{
	if (ZEND_ASYNC_EVENT_IS_CLOSED(event) || async__reactor_event_detached(event)) {
		return true;
	}
	if (!async__reactor_first_start(event)) {
		return true;
	}
	if (!process_arm((async_process_t *) event)) {
		async__reactor_start_failed(event);
		return false;
	}
	return true;
}

static bool process_stop(zend_async_event_t *event)
{
	if (async__reactor_last_stop(event)) {
		process_disarm((async_process_t *) event);
	}
	return true;
}

static bool process_dispose(zend_async_event_t *event)
{
	async_process_t *p = (async_process_t *) event;
	if (event->ref_count <= 1 && async__reactor_event_detached(event) && p->pidfd >= 0) {
		close(p->pidfd); /* request shutdown closed the handle: no close_cb will run */
		p->pidfd = -1;
	}
	return async__reactor_handle_release(event, p->handle, process_close_cb);
}

static zend_string *process_info(zend_async_event_t *event)
{
	return zend_strpprintf(0, "Process(%d)", (int) ((zend_async_process_event_t *) event)->process);
}

static const async_event_methods_t process_methods = {
	.start = process_start, .stop = process_stop, .dispose = process_dispose, .info = process_info,
};

static zend_async_process_event_t *reactor_new_process_event(zend_process_t pid, size_t extra_size)
{
	if (pid <= 0) {
		zend_value_error("Process ID must be greater than 0, %d given", (int) pid);
		return NULL;
	}
	uv_loop_t *loop = async__reactor_loop_or_throw();
	if (loop == NULL) {
		return NULL;
	}
	async_process_t *p = ecalloc(1, sizeof(async_process_t) + extra_size);
	p->pidfd = pidfd_open_compat(pid);
	if (p->pidfd >= 0 && uv_poll_init(loop, &p->poll, p->pidfd) == 0) {
		p->handle = (uv_handle_t *) &p->poll;
	} else {
		if (p->pidfd >= 0) {
			close(p->pidfd);
		}
		p->pidfd = -1;
		uv_timer_init(loop, &p->timer);
		p->handle = (uv_handle_t *) &p->timer;
	}
	p->handle->data = p;
	async__event_init(&p->event.base, &process_methods);
	if (extra_size) {
		p->event.base.extra_offset = sizeof(async_process_t);
	}
	p->event.process = pid;
	p->event.exit_code = -1;
	return &p->event;
}

/* ---------------------------------------------------------------------------------------------
 * Module
 * ------------------------------------------------------------------------------------------- */

zend_result async__reactor_process_minit(void)
{
	zend_async_reactor_api_t api = { .new_process_event = reactor_new_process_event };
	/* false: another implementation of this ABI table is registered */
	return zend_async_reactor_register(ASYNC_REACTOR_NAME, false, &api) ? SUCCESS : FAILURE;
}

#endif /* PHP_WIN32 */
