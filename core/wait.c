/*
 * core/wait.c — the one wait path (see core/core.h): the may-I-wait check, waker set-up, suspension,
 * clean-up, cancellation tokens and the blocking fallback, for every C caller of the runtime.
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include "php_async.h"
#include "core/core.h"
#include "zend_exceptions.h"

bool async__wait_allowed(void)
{
	return async__scheduler_may_switch();
}

ZEND_COLD void async__wait_throw_not_allowed(const char *what)
{
	if (ZEND_ASYNC_G(in_scheduler_context)) {
		async__throw(async__ce_async_exception, "The operation cannot be executed in the scheduler context");
	} else {
		async__throw(async__ce_async_exception, "Cannot %s " ASYNC_SWITCH_BLOCKED_WHERE ": PHP " PHP_VERSION
			" forbids switching coroutines there", what);
	}
}

/* The current coroutine, launching the scheduler first if needed (the main flow becomes the main
 * coroutine). NULL with an exception where there is none: after the runtime's request shutdown. */
static zend_always_inline zend_coroutine_t *wait_current(void)
{
	if (UNEXPECTED(ZEND_ASYNC_G(coroutine) == NULL)) {
		async__scheduler_launch();
		if (ZEND_ASYNC_G(coroutine) == NULL) {
			async__throw(async__ce_async_exception, "Cannot wait: the async runtime has shut down for this request");
			return NULL;
		}
	}
	return ZEND_ASYNC_G(coroutine);
}

static zend_always_inline void wait_waker_reset(zend_coroutine_t *co)
{
	if (!async__wait_waker_rearm(co)) {
		zend_async_waker_new(co); /* cleans what the last wait left */
	}
}

/* async__wait_begin() past its inline case (core/core.h): a token, a launch, a refusal, or a waker
 * to clean. */
zend_coroutine_t *async__wait_begin_slow(zend_async_event_t *token, const char *what)
{
	if (token != NULL && ZEND_ASYNC_EVENT_IS_CLOSED(token)) {
		async__throw_token_fired(token);
		return NULL;
	}
	if (UNEXPECTED(!async__wait_allowed())) {
		async__wait_throw_not_allowed(what);
		return NULL;
	}
	zend_coroutine_t *co = wait_current();
	if (UNEXPECTED(co == NULL)) {
		return NULL;
	}
	wait_waker_reset(co);
	if (token != NULL && !zend_async_resume_when(co, token, false, async__token_fired, NULL)) {
		async__wait_end(co);
		return NULL;
	}
	return co;
}

bool async__wait_on_timer(zend_coroutine_t *co, zend_ulong ms, zend_ulong ns, zend_async_event_callback_fn callback)
{
	zend_async_timer_event_t *timer = ZEND_ASYNC_NEW_TIMER_EVENT_NS(ms, ns, false);
	return timer != NULL && zend_async_resume_when(co, &timer->base, true, callback, NULL);
}

/* The waker's result moved out (NULL for none): the clean-up that follows a wait would only drop
 * it, and a waker left with nothing in it is cleaned without a call per event
 * (async__wait_end_own()). */
static void wait_take_result(zend_coroutine_t *co, zval *result)
{
	zend_async_waker_t *waker = co->waker;
	if (waker != NULL && Z_TYPE(waker->result) != IS_UNDEF) {
		ZVAL_COPY_VALUE(result, &waker->result);
		ZVAL_UNDEF(&waker->result);
	} else {
		ZVAL_NULL(result);
	}
}

bool async__wait_event(zend_async_event_t *event, zend_async_event_t *token, zval *result, const char *what)
{
	zend_coroutine_t *co = async__wait_begin(token, what);
	if (co == NULL) {
		return false;
	}
	bool ok = async__wait_on(co, event, false, zend_async_waker_callback_resolve, NULL) && async__wait_suspend(co);
	if (ok && result != NULL) {
		wait_take_result(co, result);
	}
	async__wait_end(co);
	return ok;
}

/* P9: where switching is impossible, block the process as PHP would. */
static void wait_block(zend_ulong ms, zend_ulong ns)
{
	zend_ulong us = ms * 1000 + ns / 1000;
	while (us >= 1000000) {
		usleep(999999);
		us -= 999999;
	}
	usleep((useconds_t) us);
}

bool async__wait_ms(zend_ulong ms, zend_ulong ns)
{
	if (!async__wait_allowed()) {
		wait_block(ms, ns);
		return true;
	}
	if (ms == 0 && ns == 0) {
		if (wait_current() == NULL) { /* delay(0) launches the scheduler, unlike suspend() */
			return false;
		}
		async__wait_yield();
		return !EG(exception);
	}
	zend_coroutine_t *co = async__wait_begin(NULL, "sleep");
	if (co == NULL) {
		return false;
	}
	bool ok = async__wait_on_timer(co, ms, ns, zend_async_waker_callback_resolve) && async__wait_suspend(co);
	async__wait_end(co);
	return ok;
}

/* ---------------------------------------------------------------------------------------------
 * Cancellation tokens
 * ------------------------------------------------------------------------------------------- */

void async__token_fired(zend_async_event_t *event, zend_async_event_callback_t *callback, void *result, zend_object *exception)
{
	zend_coroutine_event_callback_t *cb = (zend_coroutine_event_callback_t *) callback;
	zend_async_waker_t *waker = cb->coroutine->waker;
	(void) result;
	if (waker == NULL || waker->status != ZEND_ASYNC_WAKER_WAITING) {
		return;
	}
	if (exception != NULL) {
		ZEND_ASYNC_EVENT_SET_EXCEPTION_HANDLED(event);
	}
	waker->triggered_event = event;
	zend_object *error = async__new_exception(async__ce_operation_canceled, "Operation has been cancelled");
	if (exception != NULL) {
		GC_ADDREF(exception);
		zend_exception_set_previous(error, exception);
	}
	zend_async_waker_apply_error(waker, error, true, true);
	ZEND_ASYNC_ENQUEUE_COROUTINE(cb->coroutine);
}

void async__throw_token_fired(zend_async_event_t *token)
{
	ZEND_ASSERT(ZEND_ASYNC_EVENT_IS_CLOSED(token) && "only a fired token is thrown at once");
	zend_object *previous = NULL;
	zval ignored;
	ZVAL_UNDEF(&ignored);
	if (token->replay) {
		token->replay(token, NULL, &ignored, &previous);
	}
	zval_ptr_dtor(&ignored);
	zend_object *error = async__new_exception(async__ce_operation_canceled, "Operation has been cancelled");
	if (previous) {
		ZEND_ASYNC_EVENT_SET_EXCEPTION_HANDLED(token);
		zend_exception_set_previous(error, previous);
	}
	zend_throw_exception_internal(error);
}

/* ---------------------------------------------------------------------------------------------
 * await()
 * ------------------------------------------------------------------------------------------- */

/* Replays a finished awaitable: its result, or its exception thrown again (idempotent). */
static void await_replay(zend_async_event_t *event, zval *return_value)
{
	zend_object *exception = NULL;
	ZEND_ASYNC_EVENT_SET_RESULT_USED(event);
	ZEND_ASYNC_EVENT_SET_EXCEPTION_HANDLED(event);
	if (event->replay == NULL) {
		RETURN_NULL();
	}
	event->replay(event, NULL, return_value, &exception);
	if (exception != NULL) {
		zval_ptr_dtor(return_value);
		ZVAL_NULL(return_value);
		zend_throw_exception_internal(exception);
	}
}

void async__await(zend_object *awaitable, zend_object *cancellation, zval *return_value)
{
	zend_async_event_t *event = ZEND_ASYNC_OBJECT_TO_EVENT(awaitable);
	zend_async_event_t *token = async__wait_token(cancellation);

	if (ZEND_ASYNC_EVENT_IS_CLOSED(event)) {
		await_replay(event, return_value);
		return;
	}
	zend_coroutine_t *co = async__wait_begin(token, "await");
	if (co == NULL) {
		return;
	}
	/* Marked only once the wait really starts: a refused wait observed nothing. */
	ZEND_ASYNC_EVENT_SET_RESULT_USED(event);
	ZEND_ASYNC_EVENT_SET_EXCEPTION_HANDLED(event);
	if (token == NULL && awaitable->ce == async__ce_coroutine
		&& async__coroutine_list_awaiter(ASYNC_CO_FROM_OBJ(awaitable), co)) {
		if (async__wait_suspend_inline(co)) {
			wait_take_result(co, return_value);
		}
		async__coroutine_end_awaiter(ASYNC_CO_FROM_OBJ(awaitable), co);
		return;
	}
	if (async__wait_on(co, event, false, zend_async_waker_callback_resolve, NULL) && async__wait_suspend(co)) {
		wait_take_result(co, return_value);
	}
	async__wait_end(co);
}

/* The struct holding the event owns its memory: a release only counts down. */
static bool plain_event_dispose(zend_async_event_t *event)
{
	if (event->ref_count > 0) {
		event->ref_count--;
	}
	return true;
}

void async__wait_plain_event_init(zend_async_event_t *event, zend_string *(*info)(zend_async_event_t *event))
{
	static const async_event_methods_t plain_event_methods = { .dispose = plain_event_dispose };
	memset(event, 0, sizeof(*event));
	async__event_init(event, &plain_event_methods);
	event->info = info;
}
