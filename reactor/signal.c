/*
 * reactor/signal.c — the reactor's signal event (zend_async_reactor_api.new_signal_event) on a
 * libuv uv_signal_t.
 *
 * One-shot. The first start() arms the handle, the first delivery closes the event (F_CLOSED)
 * and notifies the subscribers with result = NULL (the number is in event->signal). An armed
 * event counts in active_event_count unless F_HIDDEN: a signal can come from outside at any
 * time, so a coroutine waiting for one is never part of a deadlock.
 *
 * One uv_signal_t per event. libuv dispatches a delivery to every started handle of that signal,
 * so independent waits on the same signal are all notified, with no fan-out table of our own.
 * The handle is started with uv_signal_start(), not uv_signal_start_oneshot(), and stopped from
 * its first callback: the one-shot variant installs its handler with SA_RESETHAND, so from the
 * kernel's delivery until our callback runs a second signal would get the default action (for
 * most signals: kill the process).
 *
 * Dispositions. libuv installs its own handler for a signal while a handle is started and sets
 * SIG_DFL when the last one stops, which would throw away a handler installed before (e.g.
 * pcntl_signal() for that signal). So the first armed event of a signal saves the disposition it
 * replaces and the last one puts it back, unless someone replaced libuv's handler in between
 * (then that newer one stays). A handler of the process's — the one libuv replaced, or one
 * installed over libuv's while a wait is armed (pcntl_signal()), which the reactor moves aside
 * before it blocks (signals_reclaim()) — still sees every signal: the wait's
 * delivery is forwarded to it. Other signals are untouched.
 */
#include "php_async.h"
#define ASYNC_REACTOR_UV /* the libuv side of the reactor's header */
#include "reactor/reactor.h"
#include "core/core.h"
#include <signal.h>
#ifdef __linux__
# include <ucontext.h>
#endif
#include "zend_signal.h"

typedef struct _async_signal_s async_signal_t;

struct _async_signal_s {
	zend_async_signal_event_t event; /* first: the allocation starts with the event */
	uv_signal_t uv;
	bool armed;
	async_list_node_t node;          /* in ASYNC_G(signals_armed) while armed */
};

#define SIGNAL_FROM_HANDLE(h) ((async_signal_t *) ((char *) (h) - XtOffsetOf(async_signal_t, uv)))

/* Per signal number: how many of our events have it armed and what it replaced. Process-wide
 * like the dispositions themselves (the runtime is NTS). */
typedef struct {
	uint32_t armed;
	bool saved;
	struct sigaction previous; /* the disposition before the first arm, or the one that replaced
	                              libuv's while armed (signals_reclaim()) */
	struct sigaction uv_action; /* libuv's, to see whether someone replaced it and to put it back */
	void *uv_handler;          /* libuv's handler */
} async_disposition_t;

/* per-process: signal dispositions belong to the process, like the signals themselves */
static async_disposition_t dispositions[NSIG];

static void *action_handler(const struct sigaction *sa)
{
	return (sa->sa_flags & SA_SIGINFO) ? (void *) sa->sa_sigaction : (void *) sa->sa_handler;
}

/* ---------------------------------------------------------------------------------------------
 * Arming
 * ------------------------------------------------------------------------------------------- */

static void signal_cb(uv_signal_t *handle, int signum);

static bool signal_arm(async_signal_t *s)
{
	int signum = s->event.signal;
	async_disposition_t *d = &dispositions[signum];

	if (d->armed == 0) {
		d->saved = sigaction(signum, NULL, &d->previous) == 0;
	}
	int rc = uv_signal_start(&s->uv, signal_cb, signum);
	if (rc != 0) {
		async__throw(async__ce_async_exception, "Cannot watch signal %d: %s", signum, uv_strerror(rc));
		return false;
	}
	if (d->armed++ == 0) {
		d->uv_handler = sigaction(signum, NULL, &d->uv_action) == 0 ? action_handler(&d->uv_action) : NULL;
	}
	/* A signal blocked in the process mask (inherited, say) would never arrive: the caller asked
	 * for it, so let it through, as zend_sigaction() does for pcntl_signal(). */
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, signum);
	sigprocmask(SIG_UNBLOCK, &set, NULL);

	s->armed = true;
	async_list_append(&ASYNC_G(signals_armed), &s->node);
	async__reactor_event_count_on(&s->event.base);
	return true;
}

/* A handler of the process's (pcntl_signal()'s, say) that a wait's delivery must reach too: the
 * disposition libuv replaced, or the one that replaced libuv's meanwhile. Called once per
 * delivery, when the last armed wait of the signal has taken it, from the loop (not from the
 * signal context), as the kernel would have: with a siginfo that says only which signal. */
static bool handler_is_default(int signum, void *handler)
{
	if (handler == (void *) SIG_DFL || handler == (void *) SIG_IGN || handler == NULL) {
		return true;
	}
#ifdef ZEND_SIGNALS
	/* PHP's own signal layer puts one deferring handler (not exported) in front of the signals it
	 * manages and keeps what each stands for in SIGG(handlers): a process handler that is not
	 * that entry is the deferring one. Forwarding to it when the entry is the default action
	 * would re-raise the signal with it, and kill the process the wait just served. */
	void *php_level = SIGG(handlers)[signum - 1].handler;
	if (handler != php_level) {
		return php_level == (void *) SIG_DFL || php_level == (void *) SIG_IGN || php_level == NULL;
	}
#endif
	return false;
}

static void signal_forward(int signum, const struct sigaction *sa)
{
	void *handler = action_handler(sa);
	if (handler_is_default(signum, handler)) {
		return;
	}
	if (sa->sa_flags & SA_SIGINFO) {
		siginfo_t info;
		memset(&info, 0, sizeof(info));
		info.si_signo = signum;
		info.si_code = SI_USER;
		void *context = NULL;
#ifdef __linux__
		/* A handler may read the context the kernel always passes (a crash reporter's registers,
		 * ASan's fault flags): give it this thread's, never NULL. */
		ucontext_t uc;
		if (getcontext(&uc) == 0) {
			context = &uc;
		}
#endif
		sa->sa_sigaction(signum, &info, context);
	} else {
		sa->sa_handler(signum);
	}
}

static void signal_disarm(async_signal_t *s)
{
	if (!s->armed) {
		return;
	}
	int signum = s->event.signal;
	async_disposition_t *d = &dispositions[signum];
	struct sigaction now;
	bool replaced = false;

	if (d->armed == 1 && sigaction(signum, NULL, &now) == 0) {
		replaced = action_handler(&now) != d->uv_handler;
	}
	if (!async__reactor_event_detached(&s->event.base)) {
		uv_signal_stop(&s->uv); /* a detached handle was stopped by its uv_close() */
	}
	if (--d->armed == 0) {
		if (replaced) {
			sigaction(signum, &now, NULL);         /* installed during the wait: it stays */
		} else if (d->saved) {
			sigaction(signum, &d->previous, NULL); /* what libuv had replaced */
		}
		d->saved = false;
	}

	s->armed = false;
	async_list_remove(&ASYNC_G(signals_armed), &s->node);
	async__reactor_event_count_off(&s->event.base);
}

/* ---------------------------------------------------------------------------------------------
 * Event methods
 * ------------------------------------------------------------------------------------------- */

static void signal_close_cb(uv_handle_t *handle)
{
	efree(SIGNAL_FROM_HANDLE(handle));
}

static void signal_cb(uv_signal_t *handle, int signum)
{
	async_signal_t *s = SIGNAL_FROM_HANDLE(handle);
	zend_async_event_t *event = &s->event.base;
	uv_loop_t *loop = handle->loop;

	if (ZEND_ASYNC_EVENT_IS_CLOSED(event)) {
		return;
	}
	event->loop_ref_count = 0;
	async_disposition_t *d = &dispositions[signum];
	bool last = d->armed == 1;
	struct sigaction forward = d->previous;
	bool forward_saved = d->saved;
	signal_disarm(s);
	if (last && forward_saved) {
		signal_forward(signum, &forward); /* the process's own handler sees the signal too */
	}
	ZEND_ASYNC_EVENT_SET_CLOSED(event);
	ZEND_ASYNC_CALLBACKS_NOTIFY(event, NULL, NULL); /* may drop the last reference */
	async__reactor_delivered(loop);
}

static bool signal_start(zend_async_event_t *event)
{
	async_signal_t *s = (async_signal_t *) event;
	if (ZEND_ASYNC_EVENT_IS_CLOSED(event) || async__reactor_event_detached(event)) {
		return true;
	}
	if (!async__reactor_first_start(event)) {
		return true;
	}
	if (!signal_arm(s)) {
		async__reactor_start_failed(event);
		return false;
	}
	if (ZEND_ASYNC_EVENT_IS_HIDDEN(event)) {
		uv_unref((uv_handle_t *) &s->uv);
	}
	return true;
}

static bool signal_stop(zend_async_event_t *event)
{
	if (async__reactor_last_stop(event)) {
		signal_disarm((async_signal_t *) event);
	}
	return true;
}

static bool signal_dispose(zend_async_event_t *event)
{
	async_signal_t *s = (async_signal_t *) event;
	if (event->ref_count <= 1) {
		event->loop_ref_count = 0;
		signal_disarm(s); /* the list must not keep a freed event */
	}
	return async__reactor_handle_release(event, (uv_handle_t *) &s->uv, signal_close_cb);
}

static zend_string *signal_info(zend_async_event_t *event)
{
	return zend_strpprintf(0, "Signal(%d)", ((zend_async_signal_event_t *) event)->signal);
}

static const async_event_methods_t signal_methods = {
	.start = signal_start, .stop = signal_stop, .dispose = signal_dispose, .info = signal_info,
};

static zend_async_signal_event_t *reactor_new_signal_event(int signum, size_t extra_size)
{
	if (signum <= 0 || signum >= NSIG) {
		zend_value_error("Signal number must be between 1 and %d, %d given", NSIG - 1, signum);
		return NULL;
	}
	uv_loop_t *loop = async__reactor_loop_or_throw();
	if (loop == NULL) {
		return NULL;
	}
	async_signal_t *s = ecalloc(1, sizeof(async_signal_t) + extra_size);
	int rc = uv_signal_init(loop, &s->uv);
	if (rc != 0) {
		efree(s);
		async__throw(async__ce_async_exception, "Cannot watch signal %d: %s", signum, uv_strerror(rc));
		return NULL;
	}
	s->uv.data = &s->event.base;
	async__event_init(&s->event.base, &signal_methods);
	if (extra_size) {
		s->event.base.extra_offset = sizeof(async_signal_t);
	}
	s->event.signal = signum;
	return &s->event;
}

/* ---------------------------------------------------------------------------------------------
 * Module
 * ------------------------------------------------------------------------------------------- */

static void signals_reclaim(bool blocking)
{
	if (!blocking || ASYNC_G(signals_armed).first == NULL) {
		return;
	}
	for (async_list_node_t *node = ASYNC_G(signals_armed).first; node != NULL; node = node->next) {
		int signum = ASYNC_LIST_ITEM(node, async_signal_t, node)->event.signal;
		async_disposition_t *d = &dispositions[signum];
		struct sigaction now;
		if (d->armed == 0 || d->uv_handler == NULL || sigaction(signum, NULL, &now) != 0
			|| action_handler(&now) == d->uv_handler) {
			continue;
		}
		/* pcntl_signal() (or another) replaced libuv's handler while a wait is armed: the wait
		 * would never hear the signal. Take it back; the newcomer gets every delivery forwarded. */
		d->previous = now;
		d->saved = true;
		sigaction(signum, &d->uv_action, NULL);
	}
}

void async__reactor_signal_rshutdown(void)
{
	while (ASYNC_G(signals_armed).first != NULL) {
		async_signal_t *s = ASYNC_LIST_ITEM(ASYNC_G(signals_armed).first, async_signal_t, node);
		s->event.base.loop_ref_count = 0;
		signal_disarm(s);
	}
}

zend_result async__reactor_signal_minit(void)
{
	zend_async_reactor_api_t api = { .new_signal_event = reactor_new_signal_event };
	static const async_reactor_part_t part = { .before_run = signals_reclaim }; /* per-process: constant */
	async__reactor_add_part(&part);
	/* false: another implementation of this ABI table is registered */
	return zend_async_reactor_register(ASYNC_REACTOR_NAME, false, &api) ? SUCCESS : FAILURE;
}
