/*
 * hooks/pcntl.c — pcntl_fork() and pcntl_signal() with the runtime alive.
 *
 * A forked child gets a copy of every coroutine of its parent: their stacks, their waits, and
 * the parent's libuv loop, whose epoll instance the two processes would then share (events for
 * one stolen by the other). So a fork while coroutines other than the main one exist is refused
 * (spec §5): nothing would make those copies safe. A fork before anything was spawned, or once
 * every coroutine has finished, is fine: the child re-arms the loop it inherited
 * (uv_loop_fork(), through async__reactor_after_fork()) and starts from an empty run queue.
 *
 * pcntl_signal(): PHP's signal handler only records the signal; the PHP callback runs at the next
 * VM interrupt (pcntl_async_signals(true)) or at pcntl_signal_dispatch(). While every coroutine
 * waits, the process sits in epoll_wait(), which libuv restarts after the signal's EINTR, so the
 * callback would wait for the next timer. So once PHP has installed its handler for a signal, we
 * wrap it: ours calls PHP's, then fires the request's trigger event (uv_async_send(), safe in a
 * signal handler). The trigger's callback runs in the loop and spawns a short coroutine that
 * dispatches the pending signals, as the VM interrupt would have: only with
 * pcntl_async_signals(true), otherwise the user's own pcntl_signal_dispatch() call does it.
 */
#include "php_async.h"
#include "hooks/hooks.h"
#include "core/core.h"
#include "reactor/reactor.h"
#include "zend_exceptions.h"
#include <signal.h>

static ZEND_FUNCTION(async_pcntl_fork);
static ZEND_FUNCTION(async_pcntl_signal);

enum { HOOK_FORK, HOOK_SIGNAL };
/* per-process: the function table's handlers, swapped at MINIT */
static async_function_hook_t hooks[] = {
	[HOOK_FORK] = { "pcntl_fork", ZEND_FN(async_pcntl_fork), NULL },
	[HOOK_SIGNAL] = { "pcntl_signal", ZEND_FN(async_pcntl_signal), NULL },
};

/* per-process: the handler PHP installed for each wrapped signal, like dispositions themselves */
static struct sigaction wrapped[NSIG];

/* Coroutines besides the main one: spawned and not finished, or the caller itself. */
static bool others_alive(void)
{
	zend_coroutine_t *current = ZEND_ASYNC_G(coroutine);
	return ZEND_ASYNC_G(active_coroutine_count) > 0 || (current != NULL && !ZEND_COROUTINE_IS_MAIN(current));
}

static ZEND_FUNCTION(async_pcntl_fork)
{
	if (ASYNC_G(launched) && others_alive()) {
		zend_throw_error(NULL, "Cannot fork() while coroutines other than the main one are running: "
			"fork before spawning, or once every coroutine has finished");
		RETURN_THROWS();
	}
	hooks[HOOK_FORK].original(INTERNAL_FUNCTION_PARAM_PASSTHRU);
	if (Z_TYPE_P(return_value) == IS_LONG && Z_LVAL_P(return_value) == 0) {
		async__reactor_after_fork();
		async__stack_arena_after_fork();
	}
}

/* ---------------------------------------------------------------------------------------------
 * pcntl_signal(): wake the loop
 * ------------------------------------------------------------------------------------------- */

/* Runs in signal context: only async-signal-safe work (a call of PHP's own handler, which is
 * built for this, and uv_async_send() underneath the trigger). */
static void signal_wrapper(int signo, siginfo_t *info, void *context)
{
	const struct sigaction *php = &wrapped[signo];
	if (php->sa_flags & SA_SIGINFO) {
		php->sa_sigaction(signo, info, context);
	} else if (php->sa_handler != SIG_DFL && php->sa_handler != SIG_IGN) {
		php->sa_handler(signo);
	}
	zend_async_trigger_event_t *trigger = ASYNC_G(signal_trigger);
	if (trigger != NULL) {
		trigger->trigger(trigger);
	}
}

/* The dispatching coroutine: what the VM interrupt would do for pcntl_async_signals(true). */
static void dispatch_entry(void)
{
	zval async_on, ignored;
	ZVAL_UNDEF(&async_on);
	ZVAL_UNDEF(&ignored);
	zval fn;
	ZVAL_STRING(&fn, "pcntl_async_signals");
	if (call_user_function(NULL, NULL, &fn, &async_on, 0, NULL) == SUCCESS && zend_is_true(&async_on)) {
		zval_ptr_dtor(&fn);
		ZVAL_STRING(&fn, "pcntl_signal_dispatch");
		call_user_function(NULL, NULL, &fn, &ignored, 0, NULL);
	}
	zval_ptr_dtor(&fn);
	zval_ptr_dtor(&async_on);
	zval_ptr_dtor(&ignored);
}

/* The trigger fired (in the loop, not in the signal handler): dispatch from a short coroutine. */
static void signal_woke(zend_async_event_t *event, zend_async_event_callback_t *callback,
	void *result, zend_object *exception)
{
	if (!ZEND_ASYNC_IS_ACTIVE || ZEND_ASYNC_GRACEFUL_SHUTDOWN) {
		return;
	}
	zend_coroutine_t *co = ZEND_ASYNC_SPAWN();
	if (co == NULL) {
		zend_clear_exception(); /* no room for a coroutine: the VM interrupt will dispatch later */
		return;
	}
	if (!ZEND_COROUTINE_IS_FINISHED(co)) {
		co->internal_entry = dispatch_entry;
	}
	ZEND_ASYNC_EVENT_RELEASE(&co->event); /* the handle; the coroutine keeps itself alive */
}

/* The request's trigger, made with the first wrapped signal (its loop is created on the way). */
static bool signal_trigger_ensure(void)
{
	if (ASYNC_G(signal_trigger) != NULL) {
		return true;
	}
	zend_async_trigger_event_t *trigger = ZEND_ASYNC_NEW_TRIGGER_EVENT();
	if (trigger == NULL) {
		return false;
	}
	ZEND_ASYNC_EVENT_SET(&trigger->base, ZEND_ASYNC_EVENT_F_HIDDEN);
	zend_async_event_callback_t *cb = ZEND_ASYNC_EVENT_CALLBACK(signal_woke);
	trigger->base.add_callback(&trigger->base, cb);
	ZEND_ASYNC_EVENT_CALLBACK_RELEASE(cb);
	ASYNC_G(signal_trigger) = trigger;
	return true;
}

/* PHP just installed its handler for signo: put ours in front of it. */
static void signal_wrap(int signo)
{
	struct sigaction now;
	if (signo <= 0 || signo >= NSIG || sigaction(signo, NULL, &now) != 0) {
		return;
	}
	void *handler = (now.sa_flags & SA_SIGINFO) ? (void *) now.sa_sigaction : (void *) now.sa_handler;
	if (handler == (void *) signal_wrapper || now.sa_handler == SIG_DFL || now.sa_handler == SIG_IGN) {
		return; /* ours already, or nothing of PHP's to forward to */
	}
	if (!signal_trigger_ensure()) {
		zend_clear_exception();
		return;
	}
	wrapped[signo] = now;
	struct sigaction ours = now;
	ours.sa_flags |= SA_SIGINFO;
	ours.sa_sigaction = signal_wrapper;
	sigaction(signo, &ours, NULL);
}

static ZEND_FUNCTION(async_pcntl_signal)
{
	hooks[HOOK_SIGNAL].original(INTERNAL_FUNCTION_PARAM_PASSTHRU);
	if (Z_TYPE_P(return_value) == IS_TRUE && ZEND_NUM_ARGS() >= 1) {
		zval *signo = ZEND_CALL_ARG(execute_data, 1);
		if (Z_TYPE_P(signo) == IS_LONG) {
			signal_wrap((int) Z_LVAL_P(signo));
		}
	}
}

/* Request end: PHP's own handlers go back in place of ours (the engine checks, at its signal
 * shutdown, that the handlers it installed are still there), then the trigger goes. */
void async__hook_pcntl_rshutdown(void)
{
	zend_async_trigger_event_t *trigger = ASYNC_G(signal_trigger);
	if (trigger == NULL) {
		return;
	}
	for (int signo = 1; signo < NSIG; signo++) {
		struct sigaction now;
		if (wrapped[signo].sa_flags & SA_SIGINFO || wrapped[signo].sa_handler != NULL) {
			if (sigaction(signo, NULL, &now) == 0 && (now.sa_flags & SA_SIGINFO)
				&& now.sa_sigaction == signal_wrapper) {
				sigaction(signo, &wrapped[signo], NULL);
			}
		}
	}
	ASYNC_G(signal_trigger) = NULL; /* a signal from now on only reaches PHP's handler */
	ZEND_ASYNC_EVENT_RELEASE(&trigger->base);
}

zend_result async__hook_pcntl_minit(void)
{
	async__function_hooks_install(hooks, sizeof(hooks) / sizeof(hooks[0]));
	return SUCCESS;
}

void async__hook_pcntl_mshutdown(void)
{
	async__function_hooks_uninstall(hooks, sizeof(hooks) / sizeof(hooks[0]));
}
