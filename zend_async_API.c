/*
 * zend_async_API.c — the Zend-side async ABI: callbacks, notification, wakers, registration.
 *
 * Nothing here knows libuv or ext-async's objects. The runtime installs its scheduler and reactor
 * through the *_register() functions; until then every slot is a stub that throws.
 */
#include "zend_async_API.h"
#include "zend_exceptions.h"

#ifdef ZTS
ZEND_API TSRM_TLS zend_async_globals_t zend_async_api_globals;
#else
ZEND_API zend_async_globals_t zend_async_api_globals;
#endif

ZEND_API const char *zend_async_get_api_version(void)
{
	return ZEND_ASYNC_API;
}

ZEND_API int zend_async_get_api_version_number(void)
{
	return ZEND_ASYNC_API_VERSION_NUMBER;
}

/* ---------------------------------------------------------------------------------------------
 * Callbacks
 * ------------------------------------------------------------------------------------------- */

/* Zeroed, with the creator's reference. Inline: with a constant size, emalloc() takes the
 * allocator's bin at once and the zeroing is a few stores. */
static zend_always_inline zend_async_event_callback_t *callback_alloc(zend_async_event_callback_fn callback, size_t size)
{
	zend_async_event_callback_t *cb = emalloc(size);
	memset(cb, 0, size);
	cb->ref_count = 1;
	cb->callback = callback;
	return cb;
}

ZEND_API zend_async_event_callback_t *zend_async_event_callback_new(zend_async_event_callback_fn callback, size_t size)
{
	return callback_alloc(callback, MAX(size, sizeof(zend_async_event_callback_t)));
}

ZEND_API zend_coroutine_event_callback_t *zend_async_coroutine_callback_new(
	zend_coroutine_t *coroutine, zend_async_event_callback_fn callback, size_t size)
{
	/* The usual one (every resume_when() without a callback of its own) has the constant size. */
	zend_coroutine_event_callback_t *cb = (zend_coroutine_event_callback_t *)
		(size <= sizeof(zend_coroutine_event_callback_t)
			? callback_alloc(callback, sizeof(zend_coroutine_event_callback_t))
			: callback_alloc(callback, size));
	cb->coroutine = coroutine;
	return cb;
}

ZEND_API void zend_async_event_callback_add_ref(zend_async_event_callback_t *callback)
{
	callback->ref_count++;
}

ZEND_API void zend_async_event_callback_release(zend_async_event_callback_t *callback, zend_async_event_t *event)
{
	ZEND_ASSERT(callback->ref_count > 0);
	if (--callback->ref_count > 0) {
		return;
	}
	if (callback->dispose) {
		callback->dispose(callback, event);
	} else {
		efree(callback);
	}
}

ZEND_API bool zend_async_callbacks_vector_push(zend_async_callbacks_vector_t *vector, zend_async_event_callback_t *callback)
{
	ZEND_ASSERT(callback->ref_count > 0 && "a released callback cannot be subscribed");
	if (vector->length == vector->capacity) {
		if (vector->data == NULL) {
			/* Most events never have more than a few subscribers: a constant size is the
			 * allocator's bin at once, where a realloc from NULL takes the general path. */
			vector->capacity = 4;
			vector->data = emalloc(4 * sizeof(*vector->data));
		} else {
			vector->capacity *= 2;
			vector->data = safe_erealloc(vector->data, vector->capacity, sizeof(*vector->data), 0);
		}
	}
	vector->data[vector->length++] = callback;
	callback->ref_count++;
	return true;
}

/* O(1) removal that keeps a running iterator correct: [0, it) is visited, [it, length) is not. */
static void callbacks_vector_remove_at(zend_async_callbacks_vector_t *vector, uint32_t index)
{
	ZEND_ASSERT(index < vector->length);
	uint32_t last = vector->length - 1;
	uint32_t *it = vector->current_iterator;
	ZEND_ASSERT((it == NULL || *it <= vector->length) && "the iterator never runs past the end");

	if (it != NULL && index < *it) {
		uint32_t last_visited = *it - 1;
		vector->data[index] = vector->data[last_visited];
		vector->data[last_visited] = vector->data[last];
		(*it)--;
	} else {
		vector->data[index] = vector->data[last];
	}
	vector->length--;
}

/* A callback most often leaves while it is being notified (a waker resolved by this event drops
 * its subscriptions): the slot the notification is at is looked at first. */
ZEND_API bool zend_async_callbacks_vector_remove(zend_async_callbacks_vector_t *vector, zend_async_event_callback_t *callback)
{
	uint32_t *it = vector->current_iterator;
	if (it != NULL && *it > 0 && *it <= vector->length && vector->data[*it - 1] == callback) {
		callbacks_vector_remove_at(vector, *it - 1);
		return true;
	}
	for (uint32_t i = 0; i < vector->length; i++) {
		if (vector->data[i] == callback) {
			callbacks_vector_remove_at(vector, i);
			return true;
		}
	}
	return false;
}

ZEND_API void zend_async_callbacks_vector_free(zend_async_callbacks_vector_t *vector, zend_async_event_t *event)
{
	/* Detach first: a dispose may re-enter and look at the vector. */
	zend_async_event_callback_t **data = vector->data;
	uint32_t length = vector->length;
	vector->data = NULL;
	vector->length = 0;
	vector->capacity = 0;
	for (uint32_t i = 0; i < length; i++) {
		zend_async_event_callback_unref(data[i], event);
	}
	if (data) {
		efree(data);
	}
}

ZEND_API bool zend_async_callbacks_push(zend_async_event_t *event, zend_async_event_callback_t *callback)
{
	return zend_async_callbacks_vector_push(&event->callbacks, callback);
}

ZEND_API bool zend_async_callbacks_remove(zend_async_event_t *event, zend_async_event_callback_t *callback)
{
	if (!zend_async_callbacks_vector_remove(&event->callbacks, callback)) {
		return false;
	}
	zend_async_event_callback_unref(callback, event);
	return true;
}

ZEND_API void zend_async_callbacks_free(zend_async_event_t *event)
{
	zend_async_callbacks_vector_free(&event->callbacks, event);
}

ZEND_API void zend_async_callbacks_notify(zend_async_event_t *event, void *result, zend_object *exception, bool from_handler)
{
	if (!from_handler && event->notify_handler != NULL) {
		event->notify_handler(event, result, exception);
		return;
	}

	zend_async_callbacks_vector_t *vector = &event->callbacks;
	if (vector->current_iterator != NULL) {
		zend_error(E_CORE_WARNING, "Async: nested notification of the same event was refused");
		return;
	}
	if (vector->length == 0) {
		return;
	}

	/* The event must survive its own callbacks; one of them may drop the last outside ref. */
	ZEND_ASYNC_EVENT_ADD_REF(event);
	const bool had_exception = EG(exception) != NULL;
	uint32_t i = 0;
	vector->current_iterator = &i;

	while (i < vector->length) {
		zend_async_event_callback_t *cb = vector->data[i++];
		cb->ref_count++;
		cb->callback(event, cb, result, exception);
		zend_async_event_callback_unref(cb, event);
		if (!had_exception && EG(exception) != NULL) {
			break;
		}
	}

	ZEND_ASSERT(i <= vector->length || EG(exception) != NULL);
	vector->current_iterator = NULL;
	ZEND_ASYNC_EVENT_RELEASE(event);
}

ZEND_API void zend_async_callbacks_notify_and_close(zend_async_event_t *event, void *result, zend_object *exception)
{
	ZEND_ASYNC_EVENT_SET_CLOSED(event);
	const bool had_exception = EG(exception) != NULL;
	zend_async_callbacks_notify(event, result, exception, false);
	if (event->callbacks.current_iterator == NULL && (had_exception || EG(exception) == NULL)) {
		/* Every subscriber was told and a closed event tells nothing more: the subscriptions go
		 * now (the waiters' del_callback then finds nothing), not one by one in a search of the
		 * vector each — with a million waiters on one future, waking them took 75 s. */
		zend_async_callbacks_free(event);
	}
}

ZEND_API bool zend_async_event_default_add_callback(zend_async_event_t *event, zend_async_event_callback_t *callback)
{
	return zend_async_callbacks_push(event, callback);
}

ZEND_API bool zend_async_event_default_del_callback(zend_async_event_t *event, zend_async_event_callback_t *callback)
{
	return zend_async_callbacks_remove(event, callback);
}

ZEND_API bool zend_async_event_nop_start(zend_async_event_t *event)
{
	(void) event;
	return true;
}

ZEND_API bool zend_async_event_nop_stop(zend_async_event_t *event)
{
	(void) event;
	return true;
}

/* ---------------------------------------------------------------------------------------------
 * Coroutine switch handlers
 * ------------------------------------------------------------------------------------------- */

ZEND_API void zend_coroutine_add_switch_handler(zend_coroutine_t *coroutine, zend_coroutine_switch_handler_fn handler)
{
	zend_coroutine_switch_handlers_vector_t *v = coroutine->switch_handlers;
	if (v == NULL) {
		v = coroutine->switch_handlers = ecalloc(1, sizeof(*v));
	}
	if (v->length == v->capacity) {
		v->capacity = v->capacity ? v->capacity * 2 : 2;
		v->data = safe_erealloc(v->data, v->capacity, sizeof(*v->data), 0);
	}
	v->data[v->length++] = handler;
}

ZEND_API bool zend_coroutine_remove_switch_handler(zend_coroutine_t *coroutine, zend_coroutine_switch_handler_fn handler)
{
	zend_coroutine_switch_handlers_vector_t *v = coroutine->switch_handlers;
	if (v == NULL) {
		return false;
	}
	for (uint32_t i = 0; i < v->length; i++) {
		if (v->data[i] == handler) {
			memmove(&v->data[i], &v->data[i + 1], (v->length - i - 1) * sizeof(*v->data));
			v->length--;
			return true;
		}
	}
	return false;
}

ZEND_API void zend_coroutine_call_switch_handlers(zend_coroutine_t *coroutine, bool is_enter, bool is_finishing)
{
	zend_coroutine_switch_handlers_vector_t *v = coroutine->switch_handlers;
	uint32_t i = 0;
	while (v != NULL && i < v->length) {
		zend_coroutine_switch_handler_fn handler = v->data[i];
		if (handler(coroutine, is_enter, is_finishing)) {
			i++;
		} else {
			zend_coroutine_remove_switch_handler(coroutine, handler);
		}
	}
	if (is_finishing && v != NULL) {
		if (v->data) {
			efree(v->data);
		}
		efree(v);
		coroutine->switch_handlers = NULL;
	}
}

/* ---------------------------------------------------------------------------------------------
 * Waker
 * ------------------------------------------------------------------------------------------- */

ZEND_API zend_async_waker_t *zend_async_waker_new(zend_coroutine_t *coroutine)
{
	zend_async_waker_t *waker = coroutine->waker;
	if (waker == NULL) {
		waker = coroutine->waker = ecalloc(1, sizeof(zend_async_waker_t));
		waker->triggers = waker->inline_triggers;
		waker->capacity = sizeof(waker->inline_triggers) / sizeof(waker->inline_triggers[0]);
		ZVAL_UNDEF(&waker->result);
	} else {
		zend_async_waker_clean(coroutine);
	}
	waker->status = ZEND_ASYNC_WAKER_WAITING;
	return waker;
}

ZEND_API bool zend_async_waker_is_event_exists(zend_async_waker_t *waker, zend_async_event_t *event)
{
	for (uint32_t i = 0; i < waker->length; i++) {
		if (waker->triggers[i].event == event) {
			return true;
		}
	}
	return false;
}

static void waker_push_trigger(zend_async_waker_t *waker, zend_async_event_t *event,
	zend_async_event_callback_t *callback, bool owns_event)
{
	if (waker->length == waker->capacity) {
		uint32_t capacity = waker->capacity * 2;
		if (waker->triggers == waker->inline_triggers) {
			waker->triggers = safe_emalloc(capacity, sizeof(zend_async_waker_trigger_t), 0);
			memcpy(waker->triggers, waker->inline_triggers, sizeof(waker->inline_triggers));
		} else {
			waker->triggers = safe_erealloc(waker->triggers, capacity, sizeof(zend_async_waker_trigger_t), 0);
		}
		waker->capacity = capacity;
	}
	waker->triggers[waker->length++] = (zend_async_waker_trigger_t) { event, callback, owns_event };
}

ZEND_API bool zend_async_resume_when(zend_coroutine_t *coroutine, zend_async_event_t *event, bool trans_event,
	zend_async_event_callback_fn callback, zend_coroutine_event_callback_t *coroutine_callback)
{
	zend_async_waker_t *waker = coroutine->waker;
	if (UNEXPECTED(waker == NULL)) {
		zend_throw_error(NULL, "Async: resume_when() needs a waker (ZEND_ASYNC_WAKER_NEW) first");
		return false;
	}
	if (UNEXPECTED(ZEND_ASYNC_EVENT_IS_CLOSED(event))) {
		zend_throw_error(NULL, "Async: cannot wait for an event that is already closed");
		return false;
	}

	if (coroutine_callback == NULL) {
		coroutine_callback = zend_async_coroutine_callback_new(coroutine, callback, 0);
	} else {
		coroutine_callback->coroutine = coroutine;
		if (callback) {
			coroutine_callback->base.callback = callback;
		}
	}
	coroutine_callback->event = event;

	/* The waker keeps the event alive while subscribed; a transferred event brings its own ref. */
	if (!trans_event) {
		ZEND_ASYNC_EVENT_ADD_REF(event);
	}

	if (!event->add_callback(event, &coroutine_callback->base)) {
		zend_async_event_callback_unref(&coroutine_callback->base, event);
		ZEND_ASYNC_EVENT_RELEASE(event);
		if (!EG(exception)) {
			zend_throw_error(NULL, "Async: failed to subscribe to an event");
		}
		return false;
	}
	waker_push_trigger(coroutine->waker, event, &coroutine_callback->base, trans_event);

	if (!event->start(event)) {
		if (!EG(exception)) {
			zend_throw_error(NULL, "Async: failed to start an event");
		}
		return false;
	}
	return true;
}

ZEND_API void zend_async_waker_stop_events(zend_async_waker_t *waker)
{
	if (waker->events_stopped) {
		return;
	}
	waker->events_stopped = true;
	for (uint32_t i = 0; i < waker->length; i++) {
		zend_async_event_t *event = waker->triggers[i].event;
		event->del_callback(event, waker->triggers[i].callback);
		event->stop(event);
	}
}

ZEND_API void zend_async_waker_clean(zend_coroutine_t *coroutine)
{
	zend_async_waker_t *waker = coroutine->waker;
	if (waker == NULL) {
		return;
	}

	zend_async_waker_stop_events(waker);

	/* Detach before releasing: releasing an event may run code that looks at the waker. */
	uint32_t length = waker->length;
	zend_async_waker_trigger_t *triggers = waker->triggers;
	zend_async_waker_trigger_t inline_copy[2];
	if (triggers == waker->inline_triggers) {
		memcpy(inline_copy, triggers, sizeof(inline_copy));
		triggers = inline_copy;
	}
	waker->length = 0;
	waker->triggers = waker->inline_triggers;
	waker->capacity = sizeof(waker->inline_triggers) / sizeof(waker->inline_triggers[0]);
	waker->events_stopped = false;
	waker->triggered_event = NULL;
	waker->status = ZEND_ASYNC_WAKER_NO_STATUS;

	zend_object *error = waker->error;
	waker->error = NULL;
	zval result;
	ZVAL_COPY_VALUE(&result, &waker->result);
	ZVAL_UNDEF(&waker->result);

	for (uint32_t i = 0; i < length; i++) {
		zend_async_event_callback_unref(triggers[i].callback, triggers[i].event);
		ZEND_ASYNC_EVENT_RELEASE(triggers[i].event);
	}
	if (triggers != inline_copy) {
		efree(triggers);
	}
	if (error) {
		OBJ_RELEASE(error);
	}
	if (Z_REFCOUNTED(result)) {
		zval_ptr_dtor(&result);
	}
}

ZEND_API void zend_async_waker_destroy(zend_coroutine_t *coroutine)
{
	if (coroutine->waker == NULL) {
		return;
	}
	zend_async_waker_clean(coroutine);
	if (coroutine->waker->dtor) {
		coroutine->waker->dtor(coroutine);
	}
	if (coroutine->waker->filename) {
		zend_string_release(coroutine->waker->filename);
	}
	efree(coroutine->waker);
	coroutine->waker = NULL;
}

ZEND_API void zend_async_waker_apply_error(zend_async_waker_t *waker, zend_object *error, bool transfer, bool override)
{
	if (waker->error != NULL && !override) {
		/* Keep the first error; the new one rides along as its previous. */
		if (!transfer) {
			GC_ADDREF(error);
		}
		zend_exception_set_previous(waker->error, error);
		return;
	}
	if (!transfer) {
		GC_ADDREF(error);
	}
	if (waker->error != NULL) {
		zend_exception_set_previous(error, waker->error);
	}
	waker->error = error;
}

/* The first event to fire wins; later ones find the waker no longer WAITING. */
ZEND_API void zend_async_waker_callback_resolve(zend_async_event_t *event, zend_async_event_callback_t *callback,
	void *result, zend_object *exception)
{
	zend_coroutine_event_callback_t *cb = (zend_coroutine_event_callback_t *) callback;
	if (zend_async_waker_resolve(cb, event, result, exception)) {
		ZEND_ASYNC_ENQUEUE_COROUTINE(cb->coroutine);
	}
}

ZEND_API void zend_async_waker_callback_cancel(zend_async_event_t *event, zend_async_event_callback_t *callback,
	void *result, zend_object *exception)
{
	zend_coroutine_event_callback_t *cb = (zend_coroutine_event_callback_t *) callback;
	(void) result;
	if (!zend_async_waker_take(cb, event)) {
		return;
	}
	zend_object *error = exception;
	if (error == NULL) {
		error = zend_async_new_exception(ZEND_ASYNC_EXCEPTION_CANCELLATION, "Operation has been cancelled");
		zend_async_waker_apply_error(cb->coroutine->waker, error, true, true);
	} else {
		zend_async_waker_apply_error(cb->coroutine->waker, error, false, true);
	}
	ZEND_ASYNC_ENQUEUE_COROUTINE(cb->coroutine);
}

ZEND_API void zend_async_waker_callback_timeout(zend_async_event_t *event, zend_async_event_callback_t *callback,
	void *result, zend_object *exception)
{
	zend_coroutine_event_callback_t *cb = (zend_coroutine_event_callback_t *) callback;
	(void) result;
	(void) exception;
	if (!zend_async_waker_take(cb, event)) {
		return;
	}
	zend_object *error = zend_async_new_exception(ZEND_ASYNC_EXCEPTION_TIMEOUT,
		"Timeout occurred after %u milliseconds", ((zend_async_timer_event_t *) event)->timeout);
	zend_async_waker_apply_error(cb->coroutine->waker, error, true, true);
	ZEND_ASYNC_ENQUEUE_COROUTINE(cb->coroutine);
}

/* ---------------------------------------------------------------------------------------------
 * Exceptions
 * ------------------------------------------------------------------------------------------- */

static zend_object *new_exception_va(zend_async_class type, const char *format, va_list args)
{
	zend_class_entry *ce = zend_scheduler_is_enabled() ? ZEND_ASYNC_GET_EXCEPTION_CE(type) : NULL;
	if (ce == NULL) {
		ce = zend_ce_error;
	}
	zend_string *message = zend_vstrpprintf(0, format, args);
	zval ex;
	/* As async__new_exception(): made in the scheduler's context or for another coroutine (a
	 * cancellation), the backtrace must not hold the argument values of frames it does not
	 * belong to (they may hold the coroutine that stores it: a cycle). */
	bool ignore_args = EG(exception_ignore_args);
	EG(exception_ignore_args) = ignore_args || ZEND_ASYNC_IS_SCHEDULER_CONTEXT
		|| type == ZEND_ASYNC_EXCEPTION_CANCELLATION || type == ZEND_ASYNC_EXCEPTION_OPERATION_CANCELLED;
	object_init_ex(&ex, ce);
	EG(exception_ignore_args) = ignore_args;
	zend_update_property_str(zend_get_exception_base(Z_OBJ(ex)), Z_OBJ(ex), "message", sizeof("message") - 1, message);
	zend_string_release(message);
	return Z_OBJ(ex);
}

ZEND_API zend_object *zend_async_new_exception(zend_async_class type, const char *format, ...)
{
	va_list args;
	va_start(args, format);
	zend_object *ex = new_exception_va(type, format, args);
	va_end(args);
	return ex;
}

static zend_object *throw_va(zend_async_class type, const char *format, va_list args)
{
	zend_object *ex = new_exception_va(type, format, args);
	zend_throw_exception_internal(ex);
	return ex;
}

/* The three throw helpers differ only in the class. */
#define ASYNC_API_THROW_BODY(type) \
	va_list args; \
	va_start(args, format); \
	zend_object *ex = throw_va((type), format, args); \
	va_end(args); \
	return ex

ZEND_API zend_object *zend_async_throw(zend_async_class type, const char *format, ...)
{
	ASYNC_API_THROW_BODY(type);
}

ZEND_API zend_object *zend_async_throw_cancellation(const char *format, ...)
{
	ASYNC_API_THROW_BODY(ZEND_ASYNC_EXCEPTION_CANCELLATION);
}

ZEND_API zend_object *zend_async_throw_timeout(const char *format, ...)
{
	ASYNC_API_THROW_BODY(ZEND_ASYNC_EXCEPTION_TIMEOUT);
}

ZEND_API void zend_fcall_release(zend_fcall_t *fcall)
{
	if (fcall == NULL) {
		return;
	}
	zend_async_fcall_dtor(fcall, NULL);
	efree(fcall);
}

ZEND_API zend_fcall_t *zend_async_fcall_new(zend_fcall_info *fci, zend_fcall_info_cache *fcc)
{
	return zend_async_fcall_new_with_args(fci, fcc, NULL, 0, NULL);
}

ZEND_API void zend_async_fcall_call(zend_fcall_t *fcall, zval *retval, uint32_t argc, zval *argv)
{
	zend_fcall_info fci = fcall->fci;
	zend_fcall_info_cache fcc = fcall->fci_cache;
	fci.retval = retval;
	fci.params = argv;
	fci.param_count = argc;
	fci.named_params = NULL;
	zend_call_function(&fci, &fcc);
}

ZEND_API zend_fcall_t *zend_async_fcall_new_with_args(zend_fcall_info *fci, zend_fcall_info_cache *fcc,
	zval *args, uint32_t args_count, HashTable *named_args)
{
	if (fci->size == 0) {
		return NULL;
	}
	zend_fcall_t *fcall = emalloc(sizeof(zend_fcall_t));
	zend_async_fcall_init(fcall, fci, fcc, args, args_count, named_args, NULL, 0);
	return fcall;
}

ZEND_API bool zend_async_replay_stored(zend_async_event_t *event, zend_async_event_callback_t *callback,
	zval *stored_result, zend_object *stored_exception, zval *result, zend_object **exception)
{
	if (callback != NULL) {
		callback->callback(event, callback, stored_result, stored_exception);
		return true;
	}
	if (result != NULL) {
		ZVAL_COPY(result, stored_result);
	}
	if (exception != NULL) {
		*exception = stored_exception;
		if (stored_exception) {
			GC_ADDREF(stored_exception);
		}
	}
	return stored_exception == NULL;
}

ZEND_API zend_string *zend_coroutine_callable_name(zend_coroutine_t *coroutine)
{
	if (coroutine->fcall == NULL) {
		return zend_string_init("internal", sizeof("internal") - 1, 0);
	}
	zend_string *name = zend_get_callable_name(&coroutine->fcall->fci.function_name);
	return name ? name : zend_string_init("unknown", sizeof("unknown") - 1, 0);
}

ZEND_API zend_string *zend_coroutine_gen_info(zend_coroutine_t *coroutine, const char *zend_coroutine_name)
{
	zend_string *callable = zend_coroutine_callable_name(coroutine);
	zend_string *info;
	const char *spawn_file = coroutine->filename ? ZSTR_VAL(coroutine->filename) : "unknown";
	if (coroutine->waker != NULL && coroutine->waker->filename != NULL) {
		info = zend_strpprintf(0, "%s spawned at %s:%u, suspended at %s:%u (%s)",
			zend_coroutine_name, spawn_file, coroutine->lineno,
			ZSTR_VAL(coroutine->waker->filename), coroutine->waker->lineno, ZSTR_VAL(callable));
	} else {
		info = zend_strpprintf(0, "%s spawned at %s:%u (%s)",
			zend_coroutine_name, spawn_file, coroutine->lineno, ZSTR_VAL(callable));
	}
	zend_string_release(callable);
	return info;
}

/* ---------------------------------------------------------------------------------------------
 * Registration and the stubs that stand in before it.
 * ------------------------------------------------------------------------------------------- */

static void api_not_enabled(const char *what)
{
	if (!EG(exception)) {
		zend_throw_error(NULL, "Async API is not enabled: no %s is registered", what);
	}
}

#define SCHED_STUB(ret, name, args, retval) \
	static ret stub_sched_##name args { api_not_enabled("scheduler"); return retval; }
#define SCHED_STUB_VOID(name, args) \
	static void stub_sched_##name args { api_not_enabled("scheduler"); }

SCHED_STUB_VOID(launch, (void))
SCHED_STUB(zend_coroutine_t *, new_coroutine, (zend_async_scope_t *s), NULL)
SCHED_STUB(zend_async_scope_t *, new_scope, (zend_async_scope_t *p, bool o), NULL)
SCHED_STUB(zend_async_context_t *, new_context, (void), NULL)
SCHED_STUB(zend_coroutine_t *, spawn, (zend_async_scope_t *s, zend_object *p, int32_t prio), NULL)
SCHED_STUB_VOID(suspend, (bool from_main))
SCHED_STUB(bool, enqueue_coroutine, (zend_coroutine_t *c), false)
SCHED_STUB_VOID(resume, (zend_coroutine_t *c, zend_object *e, bool t))
SCHED_STUB_VOID(cancel, (zend_coroutine_t *c, zend_object *e, bool t, bool s))
SCHED_STUB_VOID(shutdown, (void))
SCHED_STUB(zend_array *, get_coroutines, (void), NULL)
SCHED_STUB_VOID(add_microtask, (zend_async_microtask_t *m))
SCHED_STUB(zend_array *, get_awaiting_info, (zend_coroutine_t *c), NULL)
SCHED_STUB(zend_future_t *, new_future, (bool ts, size_t extra), NULL)
SCHED_STUB(zend_async_channel_t *, new_channel, (size_t n, bool r, bool ts, size_t extra), NULL)
SCHED_STUB(zend_async_group_t *, new_group, (size_t extra), NULL)

/* Class lookup never throws: before registration there are simply no classes. */
static zend_class_entry *stub_sched_get_class_ce(zend_async_class type)
{
	(void) type;
	return NULL;
}

#define REACTOR_STUB(ret, name, args, retval) \
	static ret stub_reactor_##name args { api_not_enabled("reactor"); return retval; }

REACTOR_STUB(bool, startup, (void), false)
static void stub_reactor_shutdown(void) { }
REACTOR_STUB(bool, execute, (bool no_wait), false)
static bool stub_reactor_loop_alive(void) { return false; }
REACTOR_STUB(zend_async_poll_event_t *, new_socket_event, (zend_socket_t s, async_poll_event e, size_t x), NULL)
REACTOR_STUB(zend_async_poll_event_t *, new_poll_event, (zend_file_descriptor_t f, zend_socket_t s, async_poll_event e, size_t x), NULL)
REACTOR_STUB(zend_async_poll_proxy_t *, new_poll_proxy_event, (zend_async_poll_event_t *p, async_poll_event e, size_t x), NULL)
REACTOR_STUB(zend_async_timer_event_t *, new_timer_event, (zend_ulong ms, zend_ulong ns, bool p, size_t x), NULL)
REACTOR_STUB(zend_async_signal_event_t *, new_signal_event, (int s, size_t x), NULL)
REACTOR_STUB(zend_async_process_event_t *, new_process_event, (zend_process_t p, size_t x), NULL)
REACTOR_STUB(zend_async_filesystem_event_t *, new_filesystem_event, (zend_string *p, unsigned int f, size_t x), NULL)
REACTOR_STUB(zend_async_dns_nameinfo_t *, getnameinfo, (const struct sockaddr *a, int f, size_t x), NULL)
REACTOR_STUB(zend_async_dns_addrinfo_t *, getaddrinfo, (const char *n, const char *s, const struct addrinfo *h, size_t x), NULL)
static void stub_reactor_freeaddrinfo(struct addrinfo *ai) { (void) ai; }
REACTOR_STUB(zend_async_exec_event_t *, new_exec_event, (zend_async_exec_mode m, const char *c, zval *b, zval *r, zval *e,
	const char *cwd, const char *env, size_t x), NULL)
REACTOR_STUB(zend_async_trigger_event_t *, new_trigger_event, (size_t x), NULL)
static uint32_t stub_reactor_available_parallelism(void) { return 1; }
REACTOR_STUB(zend_async_work_event_t *, new_work_event, (zend_async_work_fn r, void *a, size_t x), NULL)
static uint64_t stub_reactor_now(void) { return 0; }

#define IO_STUB(ret, name, args, retval) \
	static ret stub_io_##name args { api_not_enabled("async I/O driver"); return retval; }

IO_STUB(zend_async_io_t *, create, (zend_file_descriptor_t fd, zend_async_io_type t, uint32_t s), NULL)
IO_STUB(zend_async_io_req_t *, read, (zend_async_io_t *io, size_t n), NULL)
IO_STUB(zend_async_io_req_t *, write, (zend_async_io_t *io, const char *b, size_t n), NULL)
IO_STUB(int, close, (zend_async_io_t *io), -1)
IO_STUB(int, flush, (zend_async_io_t *io), -1)
IO_STUB(zend_async_listen_event_t *, socket_listen, (const char *h, int p, int b, uint32_t f, size_t x), NULL)

#define POOL_STUB(ret, name, args, retval) \
	static ret stub_pool_##name args { api_not_enabled("pool implementation"); return retval; }

POOL_STUB(zend_async_pool_t *, create, (zend_fcall_t *f, zend_fcall_t *d, zend_fcall_t *h, zend_fcall_t *ba,
	zend_fcall_t *br, uint32_t min, uint32_t max, uint32_t hi, size_t x), NULL)
POOL_STUB(zend_async_pool_t *, create_internal, (zend_async_pool_factory_fn f, zend_async_pool_destructor_fn d,
	zend_async_pool_check_fn h, zend_async_pool_check_fn ba, zend_async_pool_check_fn br,
	uint32_t min, uint32_t max, uint32_t hi, size_t x), NULL)
POOL_STUB(zend_object *, new_pool_obj, (zend_async_pool_t *p), NULL)
POOL_STUB(bool, acquire, (zend_async_pool_t *p, zval *r, zend_long t), false)
POOL_STUB(bool, try_acquire, (zend_async_pool_t *p, zval *r), false)
static void stub_pool_release(zend_async_pool_t *p, zval *r) { (void) p; (void) r; api_not_enabled("pool implementation"); }
static void stub_pool_close(zend_async_pool_t *p) { (void) p; api_not_enabled("pool implementation"); }

#define SCHEDULER_STUBS { \
	stub_sched_launch, stub_sched_new_coroutine, stub_sched_new_scope, stub_sched_new_context, stub_sched_spawn, \
	stub_sched_suspend, stub_sched_enqueue_coroutine, stub_sched_resume, stub_sched_cancel, stub_sched_shutdown, \
	stub_sched_get_coroutines, stub_sched_add_microtask, stub_sched_get_awaiting_info, stub_sched_get_class_ce, \
	stub_sched_new_future, stub_sched_new_channel, stub_sched_new_group }

#define REACTOR_STUBS { \
	stub_reactor_startup, stub_reactor_shutdown, stub_reactor_execute, stub_reactor_loop_alive, \
	stub_reactor_new_socket_event, stub_reactor_new_poll_event, stub_reactor_new_poll_proxy_event, \
	stub_reactor_new_timer_event, stub_reactor_new_signal_event, stub_reactor_new_process_event, \
	stub_reactor_new_filesystem_event, stub_reactor_getnameinfo, stub_reactor_getaddrinfo, \
	stub_reactor_freeaddrinfo, stub_reactor_new_exec_event, stub_reactor_new_trigger_event, \
	stub_reactor_available_parallelism, stub_reactor_now, stub_reactor_new_work_event }

#define IO_STUBS { stub_io_create, stub_io_read, stub_io_write, stub_io_close, stub_io_flush, stub_io_socket_listen }

#define POOL_STUBS { \
	stub_pool_create, stub_pool_create_internal, stub_pool_new_pool_obj, stub_pool_acquire, stub_pool_try_acquire, \
	stub_pool_release, stub_pool_close }

static const zend_async_scheduler_api_t scheduler_stubs = SCHEDULER_STUBS;
static const zend_async_reactor_api_t reactor_stubs = REACTOR_STUBS;
static const zend_async_io_api_t io_stubs = IO_STUBS;
static const zend_async_pool_api_t pool_stubs = POOL_STUBS;

/* Statically initialised so that a call before any registration lands in a stub. */
ZEND_API zend_async_scheduler_api_t zend_async_scheduler_api = SCHEDULER_STUBS;
ZEND_API zend_async_reactor_api_t zend_async_reactor_api = REACTOR_STUBS;
ZEND_API zend_async_io_api_t zend_async_io_api = IO_STUBS;
ZEND_API zend_async_pool_api_t zend_async_pool_api = POOL_STUBS;

typedef struct {
	const char *module;
	bool busy;
} registration_t;

/* per-process: which module registered each ABI table (MINIT) */
static registration_t scheduler_reg, reactor_reg, io_reg, pool_reg;

/* Copies every non-NULL slot of `api` over `table`; slots are all function pointers. */
static bool api_register(registration_t *reg, const char *group, const char *module, bool allow_override,
	void *table, const void *api, size_t size)
{
	if (reg->busy) {
		return false;
	}
	if (reg->module != NULL && strcmp(reg->module, module) != 0 && !allow_override) {
		zend_error(E_CORE_ERROR, "The async %s is already registered by module \"%s\"; \"%s\" cannot replace it",
			group, reg->module, module);
		return false;
	}
	reg->busy = true;
	void (**dst)(void) = table;
	void (*const *src)(void) = api;
	for (size_t i = 0; i < size / sizeof(*dst); i++) {
		if (src[i] != NULL) {
			dst[i] = src[i];
		}
	}
	reg->module = module;
	reg->busy = false;
	return true;
}

ZEND_API bool zend_async_scheduler_register(const char *module, bool allow_override, const zend_async_scheduler_api_t *api)
{
	return api_register(&scheduler_reg, "scheduler", module, allow_override, &zend_async_scheduler_api, api, sizeof(*api));
}

ZEND_API bool zend_async_reactor_register(const char *module, bool allow_override, const zend_async_reactor_api_t *api)
{
	return api_register(&reactor_reg, "reactor", module, allow_override, &zend_async_reactor_api, api, sizeof(*api));
}

ZEND_API bool zend_async_io_register(const char *module, bool allow_override, const zend_async_io_api_t *api)
{
	return api_register(&io_reg, "I/O driver", module, allow_override, &zend_async_io_api, api, sizeof(*api));
}

ZEND_API bool zend_async_pool_api_register(const char *module, bool allow_override, const zend_async_pool_api_t *api)
{
	return api_register(&pool_reg, "pool implementation", module, allow_override, &zend_async_pool_api, api, sizeof(*api));
}

ZEND_API void zend_async_api_unregister_all(void)
{
	zend_async_scheduler_api = scheduler_stubs;
	zend_async_reactor_api = reactor_stubs;
	zend_async_io_api = io_stubs;
	zend_async_pool_api = pool_stubs;
	scheduler_reg.module = reactor_reg.module = io_reg.module = pool_reg.module = NULL;
}

ZEND_API bool zend_scheduler_is_enabled(void)
{
	return scheduler_reg.module != NULL;
}

ZEND_API bool zend_async_reactor_is_enabled(void)
{
	return reactor_reg.module != NULL;
}

ZEND_API bool zend_async_is_enabled(void)
{
	return zend_scheduler_is_enabled() && zend_async_reactor_is_enabled();
}

ZEND_API const char *zend_async_scheduler_module(void)
{
	return scheduler_reg.module;
}

ZEND_API const char *zend_async_reactor_module(void)
{
	return reactor_reg.module;
}
