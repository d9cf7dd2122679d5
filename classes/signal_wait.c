/*
 * classes/signal_wait.c — Async\signal(): a one-shot wait for an OS signal, delivered through a Future.
 *
 * A call makes a pending wait: the reactor's signal event (reactor/signal.c), the Future's hidden
 * FutureState and the optional cancellation token, tied together by three callbacks. Whichever
 * comes first ends the wait, and the end undoes everything at once:
 * - the signal arrives: the Future resolves with the Signal case;
 * - the token fires: the Future is rejected with the token's own exception (a timeout() token
 *   gives TimeoutException), or AsyncCancellation("Signal wait cancelled") if it has none;
 * - the Future is settled from outside (Future::cancel()): the signal is simply not waited for.
 *
 * The wait does not need anyone to await the Future: it is armed at once and holds the
 * FutureState, so a signal that comes before the await is not lost. While armed it is an active
 * reactor event: the scheduler keeps running (and never reports a deadlock) as long as a signal
 * can still come and someone can learn of it. When the Future is dropped unsettled — or was the
 * loser of an await_any_*() and nobody kept it — with no map/catch/finally on it, the wait is
 * disarmed (async__future_on_reader_gone()): it never keeps the script alive. A Future that is
 * kept but never awaited still does: give it a token. The wait subscribes to its own FutureState without marking it used: a Future nobody
 * awaits still gets the "never used" warning when it is dropped after it settled.
 *
 * A graceful shutdown (exit() in a coroutine, an unobserved error) rejects every pending wait with
 * AsyncCancellation("Graceful shutdown"), as it cancels every coroutine: nothing is left to act
 * on a signal, and the drain must not wait for one. Waits still pending at request shutdown
 * (after a fatal error) are dropped quietly.
 */
#include "php_async.h"
#include "classes/classes.h"
#include "core/core.h"
#include "zend_enum.h"
#include "zend_exceptions.h"
#include <signal.h>
#include "signal_wait_arginfo.h"

typedef struct _async_signal_wait_s async_signal_wait_t;

zend_class_entry *async__ce_signal;

#define FIRST_WAIT() ASYNC_LIST_ITEM(ASYNC_G(signal_waits).first, async_signal_wait_t, node)

/* One subscription of a wait: to the signal event, the token or the FutureState. */
typedef struct {
	zend_async_event_callback_t base;
	async_signal_wait_t *wait;
} async_signal_wait_cb_t;

struct _async_signal_wait_s {
	zend_future_t *future;        /* one reference */
	zend_object *signal_case;     /* the Async\Signal case the Future resolves with */
	zend_async_event_t *event;    /* the reactor's signal event (the creation reference) */
	zend_async_event_t *token;    /* one reference, or NULL */
	async_signal_wait_cb_t *on_signal, *on_token, *on_future;
	async_list_node_t node;       /* in ASYNC_G(signal_waits) */
};


/* ---------------------------------------------------------------------------------------------
 * Signal numbers
 * ------------------------------------------------------------------------------------------- */

/* The enum keeps Linux numbers whatever the platform; the OS gets its own. SIGBREAK and SIGABRT2
 * are Windows signals: elsewhere the number is passed through (21 and 22 are SIGTTIN and SIGTTOU
 * on Linux), which is what code written for TrueAsync gets there too. */
static int signal_native(zend_long value)
{
	switch (value) {
		case 1: return SIGHUP;
		case 2: return SIGINT;
		case 3: return SIGQUIT;
		case 4: return SIGILL;
		case 6: return SIGABRT;
		case 8: return SIGFPE;
		case 9: return SIGKILL;
		case 10: return SIGUSR1;
		case 11: return SIGSEGV;
		case 12: return SIGUSR2;
		case 15: return SIGTERM;
		case 28: return SIGWINCH;
#ifdef SIGBREAK
		case 21: return SIGBREAK;
#endif
		default: return (int) value;
	}
}

/* ---------------------------------------------------------------------------------------------
 * The end of a wait
 * ------------------------------------------------------------------------------------------- */

static void wait_cb_release(async_signal_wait_cb_t *cb)
{
	cb->wait = NULL;
	ZEND_ASYNC_EVENT_CALLBACK_RELEASE(&cb->base);
}

/* Unsubscribes from everything, drops every reference but the future's, which is returned. */
static zend_future_t *wait_detach(async_signal_wait_t *wait)
{
	async_list_remove(&ASYNC_G(signal_waits), &wait->node);

	zend_async_event_t *event = wait->event;
	event->del_callback(event, &wait->on_signal->base);
	event->stop(event);
	ZEND_ASYNC_EVENT_RELEASE(event);
	wait_cb_release(wait->on_signal);

	if (wait->token != NULL) {
		zend_async_event_t *token = wait->token;
		token->del_callback(token, &wait->on_token->base);
		token->stop(token);
		ZEND_ASYNC_EVENT_RELEASE(token);
		wait_cb_release(wait->on_token);
	}

	zend_future_t *future = wait->future;
	zend_async_callbacks_remove(&future->event, &wait->on_future->base);
	wait_cb_release(wait->on_future);

	OBJ_RELEASE(wait->signal_case);
	efree(wait);
	return future;
}

/* Ends the wait and settles the Future with the value or the error (neither: leave it). */
static void wait_finish(async_signal_wait_t *wait, zval *value, zend_object *error)
{
	zend_future_t *future = wait_detach(wait);
	if (error != NULL) {
		async__future_reject(future, error);
	} else if (value != NULL) {
		async__future_resolve(future, value);
	}
	ZEND_ASYNC_EVENT_RELEASE(&future->event);
}

static void wait_on_signal(zend_async_event_t *event, zend_async_event_callback_t *callback,
	void *result, zend_object *exception)
{
	async_signal_wait_t *wait = ((async_signal_wait_cb_t *) callback)->wait;
	if (wait == NULL) {
		return;
	}
	zval value;
	ZVAL_OBJ_COPY(&value, wait->signal_case);
	wait_finish(wait, &value, NULL);
	zval_ptr_dtor(&value);
}

/* A token's outcome as the Future's error: its exception (a new reference), or the cancellation. */
static zend_object *token_error(zend_async_event_t *token, zend_object *exception)
{
	if (exception != NULL) {
		ZEND_ASYNC_EVENT_SET_EXCEPTION_HANDLED(token);
		GC_ADDREF(exception);
		return exception;
	}
	return async__new_exception(async__ce_async_cancellation, "Signal wait cancelled");
}

static void wait_on_token(zend_async_event_t *event, zend_async_event_callback_t *callback,
	void *result, zend_object *exception)
{
	async_signal_wait_t *wait = ((async_signal_wait_cb_t *) callback)->wait;
	if (wait == NULL) {
		return;
	}
	zend_object *error = token_error(event, exception);
	wait_finish(wait, NULL, error);
	OBJ_RELEASE(error);
}

/* The Future was settled by someone else (Future::cancel()): stop waiting. */
static void wait_on_future(zend_async_event_t *event, zend_async_event_callback_t *callback,
	void *result, zend_object *exception)
{
	async_signal_wait_t *wait = ((async_signal_wait_cb_t *) callback)->wait;
	if (wait != NULL) {
		wait_finish(wait, NULL, NULL);
	}
}

static async_signal_wait_cb_t *wait_cb_new(async_signal_wait_t *wait, zend_async_event_callback_fn fn)
{
	async_signal_wait_cb_t *cb = (async_signal_wait_cb_t *) ZEND_ASYNC_EVENT_CALLBACK_EX(fn, sizeof(async_signal_wait_cb_t));
	cb->wait = wait;
	return cb;
}

/* ---------------------------------------------------------------------------------------------
 * Async\signal()
 * ------------------------------------------------------------------------------------------- */

/* A Future that is already rejected with `error` (which stays the caller's). */
static zend_object *rejected_future(zend_object *error)
{
	zend_future_t *future = async__future_new();
	async__future_reject(future, error);
	zend_object *result = async__future_new_object(future);
	ZEND_ASYNC_EVENT_RELEASE(&future->event);
	return result;
}

/* The token fired before the call: the Future comes back already rejected. */
static zend_object *signal_already_cancelled(zend_async_event_t *token)
{
	zend_object *exception = NULL;
	zval ignored;
	ZVAL_UNDEF(&ignored);
	if (token->replay) {
		token->replay(token, NULL, &ignored, &exception);
	}
	zval_ptr_dtor(&ignored);
	zend_object *error = token_error(token, exception);
	if (exception != NULL) {
		OBJ_RELEASE(exception); /* token_error took its own */
	}
	zend_object *result = rejected_future(error);
	OBJ_RELEASE(error);
	return result;
}

/* The armed signal event (the caller's reference), or NULL with an exception. */
static zend_async_event_t *signal_event_start(int signum)
{
	zend_async_signal_event_t *signal = ZEND_ASYNC_NEW_SIGNAL_EVENT(signum);
	if (signal == NULL) {
		return NULL;
	}
	zend_async_event_t *event = &signal->base;
	if (!event->start(event)) {
		if (!EG(exception)) {
			async__throw(async__ce_async_exception, "Cannot watch signal %d", signum);
		}
		ZEND_ASYNC_EVENT_RELEASE(event);
		return NULL;
	}
	return event;
}

static void wait_subscribe(async_signal_wait_t *wait, zend_async_event_t *token)
{
	zend_async_event_t *event = wait->event;
	wait->on_signal = wait_cb_new(wait, wait_on_signal);
	event->add_callback(event, &wait->on_signal->base);

	/* Not through add_callback: for a future that would count as a use of it. */
	wait->on_future = wait_cb_new(wait, wait_on_future);
	zend_async_callbacks_push(&wait->future->event, &wait->on_future->base);

	if (token != NULL) {
		wait->token = token;
		ZEND_ASYNC_EVENT_ADD_REF(token);
		wait->on_token = wait_cb_new(wait, wait_on_token);
		token->add_callback(token, &wait->on_token->base);
		/* A timeout() token's timer runs from now on. */
		token->start(token);
	}

	async_list_append(&ASYNC_G(signal_waits), &wait->node);
}

static void wait_reader_gone(zend_future_t *future);

ZEND_FUNCTION(Async_signal)
{
	zend_object *signal_case, *cancellation = NULL;
	ZEND_PARSE_PARAMETERS_START(1, 2)
		Z_PARAM_OBJ_OF_CLASS(signal_case, async__ce_signal)
		Z_PARAM_OPTIONAL
		Z_PARAM_OBJ_OF_CLASS_OR_NULL(cancellation, async__ce_completable)
	ZEND_PARSE_PARAMETERS_END();

	int signum = signal_native(Z_LVAL_P(zend_enum_fetch_case_value(signal_case)));
	if (signum == SIGKILL || signum == SIGSTOP) {
		zend_argument_value_error(1, "must not be %s::%s, which cannot be caught",
			ZSTR_VAL(async__ce_signal->name), Z_STRVAL_P(zend_enum_fetch_case_name(signal_case)));
		RETURN_THROWS();
	}

	zend_async_event_t *token = cancellation ? ZEND_ASYNC_OBJECT_TO_EVENT(cancellation) : NULL;
	if (token != NULL && ZEND_ASYNC_EVENT_IS_CLOSED(token)) {
		RETURN_OBJ(signal_already_cancelled(token));
	}
	if (ZEND_ASYNC_G(graceful_shutdown)) {
		/* Like a spawn after a graceful shutdown began: cancelled at once. */
		zend_object *error = async__new_exception(async__ce_async_cancellation, "Graceful shutdown");
		RETVAL_OBJ(rejected_future(error));
		OBJ_RELEASE(error);
		return;
	}

	/* The wait is an active event from now on: the scheduler must be there to drive the loop. */
	if (!ASYNC_G(launched)) {
		async__scheduler_launch();
	}
	zend_async_event_t *event = signal_event_start(signum);
	if (event == NULL) {
		RETURN_THROWS();
	}

	async_signal_wait_t *wait = ecalloc(1, sizeof(async_signal_wait_t));
	wait->event = event;
	wait->future = async__future_new();
	wait->signal_case = signal_case;
	GC_ADDREF(signal_case);
	wait_subscribe(wait, token);
	async__future_on_reader_gone(wait->future, wait_reader_gone);
	RETURN_OBJ(async__future_new_object(wait->future));
}

/* The Future was dropped unsettled (or lost an await_any_*() and nobody kept it): nobody can
 * learn of the signal any more, so the wait is disarmed and must not keep the script alive. The
 * FutureState goes with it (and says "never used" if it was not). */
static void wait_reader_gone(zend_future_t *future)
{
	async_list_node_t *node = ASYNC_G(signal_waits).first;
	while (node != NULL) {
		async_signal_wait_t *wait = ASYNC_LIST_ITEM(node, async_signal_wait_t, node);
		node = node->next;
		if (wait->future == future) {
			zend_future_t *f = wait_detach(wait);
			ZEND_ASYNC_EVENT_RELEASE(&f->event);
			return;
		}
	}
}

/* A shutdown listener (core/core.h): a graceful shutdown rejects every pending wait. */
static void signal_cancel_all(const char *message)
{
	while (ASYNC_G(signal_waits).first != NULL) {
		zend_object *error = async__new_exception(async__ce_async_cancellation, message);
		wait_finish(FIRST_WAIT(), NULL, error);
		OBJ_RELEASE(error);
	}
}

void async__signal_rshutdown(void)
{
	while (ASYNC_G(signal_waits).first != NULL) {
		zend_future_t *future = wait_detach(FIRST_WAIT());
		ZEND_ASYNC_EVENT_SET(&future->event, ZEND_FUTURE_F_IGNORED);
		ZEND_ASYNC_EVENT_RELEASE(&future->event);
	}
}

/* ---------------------------------------------------------------------------------------------
 * Registration
 * ------------------------------------------------------------------------------------------- */

zend_result async__signal_minit(void)
{
	async__ce_signal = register_class_Async_Signal();
	zend_register_functions(NULL, ext_functions, NULL, MODULE_PERSISTENT);
	async__scheduler_add_shutdown_listener(signal_cancel_all);
	return SUCCESS;
}
