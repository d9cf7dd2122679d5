/*
 * classes/timeout.c — Async\Timeout, the object Async\timeout() returns.
 *
 * A Timeout is an event reference to a one-shot reactor timer (seed "Event Reference": the
 * libuv handle must outlive a collected PHP object until uv_close() is done). The timer is armed
 * only while someone waits on it: a waker's start()/stop() move its loop_ref_count, so an unused
 * or finished Timeout keeps nothing in the loop and never holds back deadlock detection.
 *
 * The timer itself notifies without a result. The event's notify_handler intercepts that
 * notification and hands every subscriber a TimeoutException instead, which the token path of
 * await() wraps in OperationCanceledException; replay() gives late subscribers one too. The
 * exception is made per delivery and never stored: its trace holds the await() arguments, this
 * Timeout among them, and a Timeout keeping it would be a cycle only the GC could break.
 *
 * The reactor's timer struct has no room for our state, so the Timeout keeps it in a callback of
 * its own, subscribed to the timer for the timer's whole life (freed with the timer's callbacks).
 */
#include "php_async.h"
#include "classes/classes.h"
#include "core/core.h"
#include "zend_exceptions.h"
#include "timeout_arginfo.h"

zend_class_entry *async__ce_timeout;
/* per-process: object handlers, filled once at MINIT */
static zend_object_handlers timeout_handlers;

typedef struct {
	ZEND_ASYNC_EVENT_REF_FIELDS
	zend_object std;
} async_timeout_obj_t;

/* The Timeout's state, riding in the timer's callback vector. */
typedef struct {
	zend_async_event_callback_t base;
	zend_long ms;
	zend_object *cancellation; /* set by cancel() */
} async_timeout_state_t;

#define TIMEOUT_OBJ(o) ((async_timeout_obj_t *) ((char *) (o) - XtOffsetOf(async_timeout_obj_t, std)))

/* Never called: the state callback only carries data (the notify_handler does the work). */
static void timeout_state_cb(zend_async_event_t *event, zend_async_event_callback_t *callback,
	void *result, zend_object *exception)
{
}

static void timeout_state_dispose(zend_async_event_callback_t *callback, zend_async_event_t *event)
{
	async_timeout_state_t *state = (async_timeout_state_t *) callback;
	if (state->cancellation) {
		OBJ_RELEASE(state->cancellation);
	}
	efree(state);
}

/* A handful of subscribers at most: the Timeout's own state and its waiters. */
static async_timeout_state_t *timeout_state(zend_async_event_t *event)
{
	for (uint32_t i = 0; i < event->callbacks.length; i++) {
		if (event->callbacks.data[i]->callback == timeout_state_cb) {
			return (async_timeout_state_t *) event->callbacks.data[i];
		}
	}
	return NULL;
}

/* What a finished Timeout delivers: its cancellation, else a new TimeoutException (a reference
 * for the caller either way). */
static zend_object *timeout_error(zend_async_event_t *event)
{
	async_timeout_state_t *state = timeout_state(event);
	if (state != NULL && state->cancellation != NULL) {
		GC_ADDREF(state->cancellation);
		return state->cancellation;
	}
	return zend_async_new_exception(ZEND_ASYNC_EXCEPTION_TIMEOUT,
		"Timeout occurred after " ZEND_LONG_FMT " milliseconds", state ? state->ms : 0);
}

/* The timer fired: every current waiter gets the same TimeoutException. */
static void timeout_notify(zend_async_event_t *event, void *result, zend_object *exception)
{
	if (exception != NULL) {
		ZEND_ASYNC_CALLBACKS_NOTIFY_FROM_HANDLER(event, result, exception);
		return;
	}
	zend_object *error = timeout_error(event);
	ZEND_ASYNC_CALLBACKS_NOTIFY_FROM_HANDLER(event, result, error);
	OBJ_RELEASE(error);
}

static bool timeout_replay(zend_async_event_t *event, zend_async_event_callback_t *callback,
	zval *result, zend_object **exception)
{
	/* Only a finished Timeout has something to replay. */
	zend_object *error = ZEND_ASYNC_EVENT_IS_CLOSED(event) ? timeout_error(event) : NULL;
	if (error == NULL) {
		if (result != NULL) {
			ZVAL_NULL(result);
		}
		if (exception != NULL) {
			*exception = NULL;
		}
		return true;
	}
	if (callback != NULL) {
		callback->callback(event, callback, NULL, error);
		OBJ_RELEASE(error);
		return false;
	}
	if (result != NULL) {
		ZVAL_NULL(result);
	}
	if (exception != NULL) {
		*exception = error; /* the caller's reference */
	} else {
		OBJ_RELEASE(error);
	}
	return false;
}

static zend_string *timeout_info(zend_async_event_t *event)
{
	async_timeout_state_t *state = timeout_state(event);
	return zend_strpprintf(0, "Timeout(" ZEND_LONG_FMT " ms)", state ? state->ms : 0);
}

/* ---------------------------------------------------------------------------------------------
 * The object
 * ------------------------------------------------------------------------------------------- */

static zend_object *timeout_create_object(zend_class_entry *ce)
{
	async_timeout_obj_t *obj = zend_object_alloc(sizeof(async_timeout_obj_t), ce);
	ZEND_ASYNC_EVENT_REF_PROLOG(obj, std);
	zend_object_std_init(&obj->std, ce);
	obj->std.handlers = &timeout_handlers;
	return &obj->std;
}

zend_object *async__timeout_new(zend_long ms)
{
	zend_async_timer_event_t *timer = ZEND_ASYNC_NEW_TIMER_EVENT((zend_ulong) ms, false);
	if (timer == NULL) {
		return NULL;
	}
	zend_async_event_t *event = &timer->base;
	event->notify_handler = timeout_notify;
	event->replay = timeout_replay;
	event->info = timeout_info;

	async_timeout_state_t *state = (async_timeout_state_t *) ZEND_ASYNC_EVENT_CALLBACK_EX(timeout_state_cb, sizeof(async_timeout_state_t));
	state->base.dispose = timeout_state_dispose;
	state->ms = ms;
	event->add_callback(event, &state->base);
	ZEND_ASYNC_EVENT_CALLBACK_RELEASE(&state->base);

	zend_object *object = timeout_create_object(async__ce_timeout);
	TIMEOUT_OBJ(object)->event = event; /* the creation reference */
	return object;
}

static void timeout_free_obj(zend_object *object)
{
	async_timeout_obj_t *obj = TIMEOUT_OBJ(object);
	if (obj->event != NULL) {
		zend_async_event_t *event = obj->event;
		obj->event = NULL;
		ZEND_ASYNC_EVENT_RELEASE(event);
	}
	zend_object_std_dtor(object);
}

/* A cancellation's trace may hold this very object. Reported only while the object holds the
 * timer's only reference: a waiter's reference is invisible to the GC. */
static HashTable *timeout_get_gc(zend_object *object, zval **table, int *num)
{
	zend_async_event_t *event = TIMEOUT_OBJ(object)->event;
	async_timeout_state_t *state = event != NULL && event->ref_count == 1 ? timeout_state(event) : NULL;
	zend_get_gc_buffer *buf = zend_get_gc_buffer_create();
	if (state != NULL && state->cancellation != NULL) {
		zend_get_gc_buffer_add_obj(buf, state->cancellation);
	}
	zend_get_gc_buffer_use(buf, table, num);
	return NULL;
}

/* Timeouts come from timeout() only; the private constructor keeps it so. */
static zend_async_event_t *timeout_from_this(zval *this_ptr)
{
	zend_async_event_t *event = TIMEOUT_OBJ(Z_OBJ_P(this_ptr))->event;
	if (UNEXPECTED(event == NULL)) {
		zend_throw_error(NULL, "Async\\Timeout is not initialized");
	}
	return event;
}

#define THIS_TIMEOUT(ev) \
	zend_async_event_t *ev = timeout_from_this(ZEND_THIS); \
	if (UNEXPECTED(ev == NULL)) { RETURN_THROWS(); }

ZEND_METHOD(Async_Timeout, __construct)
{
	ZEND_PARSE_PARAMETERS_NONE();
}

/* Cancelling completes the Timeout with the cancellation, like any Completable: the timer is
 * stopped for good, current waiters are woken with it, later ones get it at once. */
ZEND_METHOD(Async_Timeout, cancel)
{
	zend_object *cancellation = NULL;
	ZEND_PARSE_PARAMETERS_START(0, 1)
		Z_PARAM_OPTIONAL
		Z_PARAM_OBJ_OF_CLASS_OR_NULL(cancellation, async__ce_async_cancellation)
	ZEND_PARSE_PARAMETERS_END();
	THIS_TIMEOUT(event);

	async_timeout_state_t *state = timeout_state(event);
	if (ZEND_ASYNC_EVENT_IS_CLOSED(event) || state == NULL) {
		return;
	}
	while (event->loop_ref_count > 0) {
		event->stop(event);
	}
	ZEND_ASYNC_EVENT_SET_CLOSED(event);
	if (cancellation != NULL) {
		GC_ADDREF(cancellation);
		state->cancellation = cancellation;
	} else {
		state->cancellation = async__new_exception(async__ce_async_cancellation, "Timeout has been cancelled");
	}
	ZEND_ASYNC_CALLBACKS_NOTIFY_FROM_HANDLER(event, NULL, state->cancellation);
}

ZEND_METHOD(Async_Timeout, isCompleted)
{
	ZEND_PARSE_PARAMETERS_NONE();
	THIS_TIMEOUT(event);
	RETURN_BOOL(ZEND_ASYNC_EVENT_IS_CLOSED(event));
}

ZEND_METHOD(Async_Timeout, isCancelled)
{
	ZEND_PARSE_PARAMETERS_NONE();
	THIS_TIMEOUT(event);
	async_timeout_state_t *state = timeout_state(event);
	RETURN_BOOL(state != NULL && state->cancellation != NULL);
}

/* ---------------------------------------------------------------------------------------------
 * Async\timeout()
 * ------------------------------------------------------------------------------------------- */

ZEND_FUNCTION(Async_timeout)
{
	zend_long ms;
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_LONG(ms)
	ZEND_PARSE_PARAMETERS_END();
	if (ms <= 0) {
		zend_value_error("Timeout value must be greater than 0");
		RETURN_THROWS();
	}
	zend_object *timeout = async__timeout_new(ms);
	if (timeout == NULL) {
		RETURN_THROWS();
	}
	RETURN_OBJ(timeout);
}

/* ---------------------------------------------------------------------------------------------
 * Registration
 * ------------------------------------------------------------------------------------------- */

zend_result async__timeout_minit(void)
{
	zend_class_entry *ce = async__ce_timeout = register_class_Async_Timeout(async__ce_completable);
	ce->create_object = timeout_create_object;
	async__object_handlers_init(&timeout_handlers, XtOffsetOf(async_timeout_obj_t, std), NULL, timeout_free_obj, timeout_get_gc);
	zend_register_functions(NULL, ext_functions, NULL, MODULE_PERSISTENT);
	return SUCCESS;
}
