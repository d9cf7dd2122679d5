/*
 * classes/await.c — the await family (spec §1, §8.4): await_any_or_fail, await_first_success,
 * await_all_or_fail, await_all, await_any_of_or_fail, await_any_of.
 *
 * One wait, many triggers. The waiting coroutine's waker is subscribed to the event of every
 * trigger, each through a callback of its own (a coroutine callback extended with the trigger's
 * key and outcome). The callbacks record outcomes in the wait and wake the waiter only once the
 * wait is decided. The waker's clean-up then unsubscribes whatever has not fired, so nothing fires
 * into a finished wait, and getAwaitingInfo() and the deadlock report list every trigger.
 * Triggers that already completed are replayed through the same callback.
 *
 * Arrays are subscribed by the waiter itself. Any other iterable is consumed by a helper
 * coroutine (spec §8.4): a generator may suspend, and the triggers it already yielded may
 * complete (and decide the wait) meanwhile. The helper subscribes into the waiter's waker and
 * hands an exception thrown by the iteration to the waiter, which rethrows it. The helper runs in
 * a child scope of the waiter's, so what the iterator spawns lives there too: when the iteration
 * throws, that scope is cancelled at once, before the waiter resumes.
 */
#include "php_async.h"
#include "classes/classes.h"
#include "core/core.h"
#include "zend_exceptions.h"
#include "zend_interfaces.h"
#include "await_arginfo.h"

typedef struct _await_s await_t;

/* One trigger: what the waker links to its event, plus the key and the outcome. */
typedef struct {
	zend_coroutine_event_callback_t base; /* base.event: set only while subscribed */
	await_t *wait;                        /* NULL once the wait is freed */
	zval key;                             /* a long or a non-numeric string */
	zval result;                          /* the value, once it succeeded */
	zend_object *error;                   /* the error, once it failed */
	bool settled;                         /* its outcome counts for the wait */
	bool is_coroutine;                    /* waited for after the wait ("cancel on exit") */
	bool drain_pending;                   /* ... and still running when that began */
} await_trigger_t;

typedef struct {
	uint32_t count;      /* successes that decide the wait; UINT32_MAX = all of them */
	bool fail_fast;      /* the first error decides it (the *_or_fail functions) */
	bool wait_running;   /* afterwards, wait for still-running Coroutine triggers (spec §8.4) */
	bool preserve_order; /* results in input order rather than completion order */
	bool fill_null;      /* failed keys appear in the results as null */
} await_options_t;

struct _await_s {
	uint32_t ref_count;          /* the waiter's, and the helper's until it is freed */
	await_options_t opt;
	zend_coroutine_t *waiter;
	await_trigger_t **triggers;  /* input order, one reference each */
	await_trigger_t **settled;   /* completion order (borrowed) */
	uint32_t length, capacity, settled_count, successes, drain_left;
	await_trigger_t *first_error;
	zend_object *iterator_error; /* the iteration threw, or its helper died */
	zval iterable;               /* what the helper iterates */
	zend_coroutine_t *helper;    /* while it has not finished */
	zend_async_scope_t *scope;   /* the helper's child scope (a reference): what the iterator spawns */
	bool iterating;              /* the helper may still add triggers */
	bool suspended;              /* the waiter sleeps: a decision must wake it */
	bool done;                   /* decided: outcomes no longer count */
	bool draining;               /* waiting for the running coroutines */
};

typedef struct {
	zend_async_event_callback_t base;
	await_t *wait; /* a reference */
} await_helper_callback_t;

/* ---------------------------------------------------------------------------------------------
 * The wait and its triggers
 * ------------------------------------------------------------------------------------------- */

static await_t *await_new(const await_options_t *opt, zend_coroutine_t *waiter)
{
	await_t *w = ecalloc(1, sizeof(await_t));
	w->ref_count = 1;
	w->opt = *opt;
	w->waiter = waiter;
	ZVAL_UNDEF(&w->iterable);
	return w;
}

static void await_release(await_t *w)
{
	if (--w->ref_count > 0) {
		return;
	}
	for (uint32_t i = 0; i < w->length; i++) {
		w->triggers[i]->wait = NULL; /* a callback somebody still holds must find no wait */
		ZEND_ASYNC_EVENT_CALLBACK_RELEASE(&w->triggers[i]->base.base);
	}
	if (w->triggers) {
		efree(w->triggers);
		efree(w->settled);
	}
	zval_ptr_dtor(&w->iterable);
	if (w->iterator_error) {
		OBJ_RELEASE(w->iterator_error);
	}
	if (w->scope != NULL) {
		/* not closed: coroutines the iterator spawned may still spawn; it is disposed once
		 * they are done */
		async__scope_release(w->scope);
	}
	efree(w);
}

static void await_trigger_dispose(zend_async_event_callback_t *callback, zend_async_event_t *event)
{
	await_trigger_t *t = (await_trigger_t *) callback;
	zval_ptr_dtor(&t->key);
	zval_ptr_dtor(&t->result);
	if (t->error) {
		OBJ_RELEASE(t->error);
	}
	efree(t);
}

static bool await_satisfied(await_t *w)
{
	return w->iterator_error != NULL
		|| (w->opt.fail_fast && w->first_error != NULL)
		|| w->successes >= w->opt.count
		|| (!w->iterating && w->settled_count == w->length);
}

static void await_wake(await_t *w, zend_async_event_t *event)
{
	zend_async_waker_t *waker = w->waiter->waker;
	if (w->suspended && waker != NULL && waker->status == ZEND_ASYNC_WAKER_WAITING) {
		waker->triggered_event = event;
		ZEND_ASYNC_ENQUEUE_COROUTINE(w->waiter);
	}
}

static void await_decide(await_t *w, zend_async_event_t *event)
{
	if (!w->done && await_satisfied(w)) {
		ZEND_ASSERT(w->settled_count <= w->length && "a trigger settles once");
		w->done = true;
		await_wake(w, event);
	}
}

/* After the wait: a running coroutine we were waiting for has finished. Its outcome is not
 * part of the result, but we did wait for it, so it counts as observed. */
static void await_trigger_drained(await_t *w, await_trigger_t *t, zend_async_event_t *event)
{
	if (!t->drain_pending) {
		return;
	}
	t->drain_pending = false;
	ZEND_ASYNC_EVENT_SET(event, ZEND_ASYNC_EVENT_F_RESULT_USED | ZEND_ASYNC_EVENT_F_EXCEPTION_HANDLED);
	if (--w->drain_left == 0) {
		await_wake(w, event);
	}
}

/* Every trigger's callback, live or replayed. The outcome it consumes is marked used/handled,
 * as await() does (spec §8.2). */
static void await_trigger_fired(zend_async_event_t *event, zend_async_event_callback_t *callback,
	void *result, zend_object *exception)
{
	await_trigger_t *t = (await_trigger_t *) callback;
	await_t *w = t->wait;
	if (w == NULL || t->settled) {
		return;
	}
	if (w->draining) {
		await_trigger_drained(w, t, event);
		return;
	}
	if (w->done) {
		return;
	}
	t->settled = true;
	w->settled[w->settled_count++] = t;
	ZEND_ASYNC_EVENT_SET_RESULT_USED(event);
	if (exception != NULL) {
		ZEND_ASYNC_EVENT_SET_EXCEPTION_HANDLED(event);
		GC_ADDREF(exception);
		t->error = exception;
		if (w->first_error == NULL) {
			w->first_error = t;
		}
	} else {
		if (result != NULL && ZEND_ASYNC_EVENT_HAS(event, ZEND_ASYNC_EVENT_F_ZVAL_RESULT)) {
			ZVAL_COPY_DEREF(&t->result, (zval *) result);
		} else {
			ZVAL_NULL(&t->result);
		}
		w->successes++;
	}
	await_decide(w, event);
}

/* Array-key semantics for the scalar keys an iterator yields; false with an AsyncException for others. */
static bool await_key_normalize(zval *dst, zval *key)
{
	zend_ulong index;
	ZVAL_DEREF(key);
	switch (Z_TYPE_P(key)) {
		case IS_LONG:
			ZVAL_LONG(dst, Z_LVAL_P(key));
			return true;
		case IS_STRING:
			if (ZEND_HANDLE_NUMERIC_STR(Z_STRVAL_P(key), Z_STRLEN_P(key), index)) {
				ZVAL_LONG(dst, (zend_long) index);
			} else {
				ZVAL_STR_COPY(dst, Z_STR_P(key));
			}
			return true;
		case IS_NULL:
			ZVAL_EMPTY_STRING(dst);
			return true;
		case IS_FALSE:
			ZVAL_LONG(dst, 0);
			return true;
		case IS_TRUE:
			ZVAL_LONG(dst, 1);
			return true;
		case IS_DOUBLE:
			ZVAL_LONG(dst, zend_dval_to_lval(Z_DVAL_P(key)));
			return true;
		default:
			/* Objects, resources, arrays: TrueAsync's AsyncException and message, which code
			 * ported from it matches on (a resource is not silently its handle number). */
			async__throw(async__ce_async_exception, "Invalid key type: must be string, long or null");
			return false;
	}
}

static void await_grow(await_t *w, uint32_t capacity)
{
	w->capacity = capacity;
	w->triggers = safe_erealloc(w->triggers, capacity, sizeof(*w->triggers), 0);
	w->settled = safe_erealloc(w->settled, capacity, sizeof(*w->settled), 0);
}

/* Room for n more triggers, in the wait and in the waker: an array's size is known, and growing
 * three arrays by doubling copies them again and again for 10,000 triggers. */
static void await_reserve(await_t *w, uint32_t n)
{
	if (n > w->capacity - w->length) {
		await_grow(w, w->length + n);
	}
	zend_async_waker_t *waker = w->waiter->waker;
	if (n > waker->capacity - waker->length) {
		/* The waker's own layout (zend_async_API.h): inline slots first, then an emalloc'ed array. */
		uint32_t capacity = waker->length + n;
		if (waker->triggers == waker->inline_triggers) {
			waker->triggers = safe_emalloc(capacity, sizeof(zend_async_waker_trigger_t), 0);
			memcpy(waker->triggers, waker->inline_triggers, waker->length * sizeof(zend_async_waker_trigger_t));
		} else {
			waker->triggers = safe_erealloc(waker->triggers, capacity, sizeof(zend_async_waker_trigger_t), 0);
		}
		waker->capacity = capacity;
	}
}

static await_trigger_t *await_trigger_new(await_t *w, zval *key, bool is_coroutine)
{
	if (w->length == w->capacity) {
		await_grow(w, w->capacity ? w->capacity * 2 : 8);
	}
	await_trigger_t *t = (await_trigger_t *) zend_async_coroutine_callback_new(w->waiter, await_trigger_fired,
		sizeof(await_trigger_t));
	t->base.base.dispose = await_trigger_dispose;
	t->wait = w;
	ZVAL_COPY_VALUE(&t->key, key);
	ZVAL_UNDEF(&t->result);
	t->is_coroutine = is_coroutine;
	w->triggers[w->length++] = t;
	return t;
}

/* Subscribes the waiter to one element (the key is moved in). null is skipped. */
static bool await_add(await_t *w, zval *key, zval *value)
{
	ZVAL_DEREF(value);
	if (Z_TYPE_P(value) == IS_NULL) {
		zval_ptr_dtor(key);
		return true;
	}
	if (Z_TYPE_P(value) != IS_OBJECT || !instanceof_function(Z_OBJCE_P(value), async__ce_awaitable)) {
		zval_ptr_dtor(key);
		async__throw(async__ce_async_exception, "Expected item to be an Async\\Awaitable object");
		return false;
	}
	zend_async_event_t *event = ZEND_ASYNC_OBJECT_TO_EVENT(Z_OBJ_P(value));
	if (UNEXPECTED(event == NULL)) {
		zval_ptr_dtor(key);
		zend_throw_error(NULL, "%s is not initialized", ZSTR_VAL(Z_OBJCE_P(value)->name));
		return false;
	}

	await_trigger_t *t = await_trigger_new(w, key, Z_OBJCE_P(value) == async__ce_coroutine);
	if (ZEND_ASYNC_EVENT_IS_CLOSED(event)) {
		/* Replayed at once, through the callback a live trigger would use (spec §8.4). */
		if (event->replay != NULL) {
			event->replay(event, &t->base.base, NULL, NULL);
		} else {
			await_trigger_fired(event, &t->base.base, NULL, NULL);
		}
		return !EG(exception);
	}
	t->base.base.ref_count++; /* the waker's reference; ours stays in w->triggers */
	return zend_async_resume_when(w->waiter, event, false, NULL, &t->base);
}

static bool await_add_array(await_t *w, HashTable *ht)
{
	zend_ulong index;
	zend_string *str_key;
	zval *value, key;
	await_reserve(w, zend_hash_num_elements(ht));
	ZEND_HASH_FOREACH_KEY_VAL(ht, index, str_key, value) {
		if (str_key) {
			ZVAL_STR_COPY(&key, str_key);
		} else {
			ZVAL_LONG(&key, (zend_long) index);
		}
		if (!await_add(w, &key, value)) {
			return false;
		}
		/* With "cancel on exit" every coroutine of the array is waited for, decided or not. */
		if (w->done && !w->opt.wait_running) {
			break;
		}
	} ZEND_HASH_FOREACH_END();
	return true;
}

/* ---------------------------------------------------------------------------------------------
 * The helper coroutine that consumes a Traversable
 * ------------------------------------------------------------------------------------------- */

/* One element of the iterator: its key (or position) and value, subscribed. */
static bool await_iterator_step(await_t *w, zend_object_iterator *it)
{
	zval *data = it->funcs->get_current_data(it);
	if (EG(exception) || data == NULL) {
		return false;
	}
	zval value, key, normalized;
	ZVAL_COPY_DEREF(&value, data); /* the generator may move on before we are done with it */
	if (it->funcs->get_current_key) {
		it->funcs->get_current_key(it, &key);
		if (EG(exception)) {
			zval_ptr_dtor(&value);
			return false;
		}
	} else {
		ZVAL_LONG(&key, (zend_long) it->index);
	}
	bool ok = !w->done && await_key_normalize(&normalized, &key);
	zval_ptr_dtor(&key);
	if (ok) {
		ok = await_add(w, &normalized, &value);
	}
	zval_ptr_dtor(&value);
	return ok;
}

static void await_iterate(await_t *w)
{
	zend_class_entry *ce = Z_OBJCE(w->iterable);
	zend_object_iterator *it = ce->get_iterator(ce, &w->iterable, 0);
	if (it == NULL) {
		if (!EG(exception)) {
			zend_throw_error(NULL, "Object of type %s did not create an Iterator", ZSTR_VAL(ce->name));
		}
		return;
	}
	it->index = 0;
	if (!EG(exception) && it->funcs->rewind) {
		it->funcs->rewind(it);
	}
	/* Each call below may run user code that suspends: the wait may be decided meanwhile. */
	while (!EG(exception) && !w->done && it->funcs->valid(it) == SUCCESS && !EG(exception) && !w->done) {
		if (!await_iterator_step(w, it) || w->done) {
			break;
		}
		it->index++;
		it->funcs->move_forward(it);
	}
	zend_iterator_dtor(it);
}

static void await_helper_entry(void)
{
	await_t *w = ZEND_ASYNC_CURRENT_COROUTINE->extended_data;
	if (!w->done) {
		await_iterate(w);
	}
	zend_object *ex = EG(exception);
	if (ex != NULL && (zend_is_unwind_exit(ex) || zend_is_graceful_exit(ex))) {
		return; /* exit() or request shutdown: the coroutine ends with it; helper_done follows */
	}
	if (ex != NULL) {
		/* The iteration failed: the waiter rethrows it. After the decision (our own
		 * cancellation, typically) nobody needs it. */
		if (!w->done && w->iterator_error == NULL) {
			GC_ADDREF(ex);
			w->iterator_error = ex;
		}
		zend_clear_exception();
	}
	w->iterating = false;
	if (w->iterator_error == NULL) {
		await_decide(w, NULL);
	}
	/* else await_helper_done() decides, once this coroutine is finished: it cancels what the
	 * iterator spawned first, which the helper must not be part of */
}

/* Why the wait ends when its helper could not finish the iteration and left no error of its own. */
static zend_object *await_iteration_cancelled(void)
{
	return async__new_exception(async__ce_async_cancellation, "The iteration of the triggers was cancelled");
}

/* The iteration threw: the wait is decided by that error. What the iterator spawned is cancelled
 * now, before the waiter is woken, so none of it runs on meanwhile (and their cancellations are
 * queued ahead of the waiter). Outcomes those cancellations settle no longer count. */
static void await_fail_iteration(await_t *w, zend_async_event_t *event)
{
	ZEND_ASSERT(w->helper == NULL && "the helper is finished: the cancellation must not reach it");
	w->done = true;
	if (w->scope != NULL) {
		async__scope_cancel(w->scope, NULL, false);
	}
	await_wake(w, event);
}

/* The helper finished. If it never got to finish the iteration (cancelled before it ran, or
 * exit()), the wait must not hang on it. */
static void await_helper_done(zend_async_event_t *event, zend_async_event_callback_t *callback,
	void *result, zend_object *exception)
{
	await_t *w = ((await_helper_callback_t *) callback)->wait;
	w->helper = NULL;
	if (w->done) {
		return;
	}
	if (w->iterating) {
		w->iterating = false;
		if (w->iterator_error == NULL) {
			if (exception != NULL) {
				ZEND_ASYNC_EVENT_SET_EXCEPTION_HANDLED(event);
				GC_ADDREF(exception);
				w->iterator_error = exception;
			} else {
				w->iterator_error = await_iteration_cancelled();
			}
		}
	}
	if (w->iterator_error != NULL) {
		await_fail_iteration(w, event);
	}
}

static void await_helper_callback_dispose(zend_async_event_callback_t *callback, zend_async_event_t *event)
{
	await_release(((await_helper_callback_t *) callback)->wait);
	efree(callback);
}

static bool await_start_helper(await_t *w, zval *iterable)
{
	/* The helper, and whatever the iterator spawns, live in a child scope of the waiter's (not
	 * safe: its cancellation really cancels), cancelled when the iteration throws. */
	zend_async_scope_t *parent = async__scope_current();
	if (async__scope_refuses_spawn(parent)) {
		ZEND_ASYNC_SPAWN(); /* a closed or cancelled scope hosts no helper: its own error */
		ZEND_ASSERT(EG(exception) != NULL);
		return false;
	}
	w->scope = async__scope_new(parent);
	ZEND_ASYNC_EVENT_CLR(&w->scope->event, ZEND_ASYNC_SCOPE_F_DISPOSE_SAFELY);
	zend_coroutine_t *co = ZEND_ASYNC_SPAWN_WITH(w->scope);
	if (co == NULL) {
		return false;
	}
	ZVAL_COPY(&w->iterable, iterable);
	if (ZEND_COROUTINE_IS_FINISHED(co)) {
		/* Spawned during a graceful shutdown: cancelled before it could run. */
		ZEND_ASYNC_EVENT_SET_EXCEPTION_HANDLED(&co->event);
		if (co->exception != NULL) {
			GC_ADDREF(co->exception);
			w->iterator_error = co->exception;
		} else {
			w->iterator_error = await_iteration_cancelled();
		}
	} else {
		co->internal_entry = await_helper_entry;
		co->extended_data = w;
		await_helper_callback_t *cb = (await_helper_callback_t *) ZEND_ASYNC_EVENT_CALLBACK_EX(await_helper_done,
			sizeof(await_helper_callback_t));
		cb->base.dispose = await_helper_callback_dispose;
		cb->wait = w;
		w->ref_count++;
		co->event.add_callback(&co->event, &cb->base);
		ZEND_ASYNC_EVENT_CALLBACK_RELEASE(&cb->base);
		w->helper = co;
		w->iterating = true;
	}
	ZEND_ASYNC_EVENT_RELEASE(&co->event); /* the handle: a running coroutine keeps itself alive */
	return true;
}

/* ---------------------------------------------------------------------------------------------
 * Waiting
 * ------------------------------------------------------------------------------------------- */

/* Sleeps while pending(w); false with the exception that ended the sleep. */
static bool await_sleep(await_t *w, bool (*pending)(await_t *))
{
	while (pending(w)) {
		w->suspended = true;
		bool ok = async__wait_suspend(w->waiter);
		w->suspended = false;
		if (!ok) {
			return false;
		}
	}
	return true;
}

static bool await_undecided(await_t *w)
{
	return !w->done;
}

static bool await_draining(await_t *w)
{
	return w->drain_left > 0;
}

/* "Cancel on exit" (spec §8.4): the Coroutine triggers still running are waited for, not
 * cancelled. Those that finished after the decision count as observed too. The waiter itself
 * can never finish while it waits, so it is left out. */
static bool await_drain(await_t *w)
{
	for (uint32_t i = 0; i < w->length; i++) {
		await_trigger_t *t = w->triggers[i];
		zend_async_event_t *event = t->base.event;
		if (!t->is_coroutine || t->settled || event == NULL || event == &w->waiter->event) {
			continue;
		}
		if (ZEND_ASYNC_EVENT_IS_CLOSED(event)) {
			ZEND_ASYNC_EVENT_SET(event, ZEND_ASYNC_EVENT_F_RESULT_USED | ZEND_ASYNC_EVENT_F_EXCEPTION_HANDLED);
		} else {
			t->drain_pending = true;
			w->drain_left++;
		}
	}
	w->draining = true;
	return await_sleep(w, await_draining);
}

/* The token was subscribed by async__wait_begin(). */
static bool await_subscribe(await_t *w, zval *iterable)
{
	if (Z_TYPE_P(iterable) == IS_ARRAY) {
		w->iterating = true; /* replays must not decide on a part of the array */
		bool ok = await_add_array(w, Z_ARRVAL_P(iterable));
		w->iterating = false;
		if (!ok) {
			return false;
		}
	} else if (!await_start_helper(w, iterable)) {
		return false;
	}
	await_decide(w, NULL); /* empty, or decided by replays alone */
	return true;
}

/* Runs one wait to its end. Returns the decided wait (the caller builds the result from it and
 * releases it), or NULL with an exception: the token fired, the waiter was cancelled, the
 * iteration threw. */
static await_t *await_run(zval *iterable, zend_object *cancellation, const await_options_t *opt)
{
	zend_async_event_t *token = async__wait_token(cancellation);
	if (cancellation != NULL && token == NULL) {
		zend_throw_error(NULL, "%s is not initialized", ZSTR_VAL(cancellation->ce->name));
		return NULL;
	}
	zend_coroutine_t *coro = async__wait_begin(token, "await");
	if (coro == NULL) {
		return NULL;
	}
	await_t *w = await_new(opt, coro);
	bool ok = await_subscribe(w, iterable) && await_sleep(w, await_undecided);
	w->done = true; /* from here on the helper adds nothing and outcomes no longer count */
	if (w->helper != NULL) {
		ZEND_ASYNC_CANCEL(w->helper, NULL, false); /* may finish it at once: no use after */
	}
	if (ok && w->iterator_error == NULL && opt->wait_running) {
		ok = await_drain(w);
	}
	async__wait_end(coro);

	if (w->iterator_error != NULL && w->scope != NULL) {
		async__scope_cancel(w->scope, NULL, false);
	}
	if (ok && w->iterator_error != NULL) {
		GC_ADDREF(w->iterator_error);
		zend_throw_exception_internal(w->iterator_error);
		ok = false;
	}
	if (!ok) {
		await_release(w);
		return NULL;
	}
	return w;
}

/* ---------------------------------------------------------------------------------------------
 * Results
 * ------------------------------------------------------------------------------------------- */

static void await_insert(zval *array, zval *key, zval *value)
{
	if (Z_TYPE_P(key) == IS_LONG) {
		zend_hash_index_update(Z_ARRVAL_P(array), Z_LVAL_P(key), value);
	} else {
		zend_hash_update(Z_ARRVAL_P(array), Z_STR_P(key), value);
	}
}

/* Results (and errors, when asked for) keyed by input key, in input or completion order. */
static void await_collect(await_t *w, zval *results, zval *errors)
{
	bool ordered = w->opt.preserve_order;
	uint32_t n = ordered ? w->length : w->settled_count;
	await_trigger_t **list = ordered ? w->triggers : w->settled;
	zval value;

	array_init_size(results, w->successes);
	if (errors != NULL) {
		array_init(errors);
	}
	for (uint32_t i = 0; i < n; i++) {
		await_trigger_t *t = list[i];
		if (!t->settled) {
			continue;
		}
		if (t->error == NULL) {
			ZVAL_COPY(&value, &t->result);
			await_insert(results, &t->key, &value);
			continue;
		}
		if (errors != NULL) {
			ZVAL_OBJ_COPY(&value, t->error);
			await_insert(errors, &t->key, &value);
		}
		if (w->opt.fill_null) {
			ZVAL_NULL(&value);
			await_insert(results, &t->key, &value);
		}
	}
}

/* [results, errors] */
static void await_return_pair(await_t *w, zval *return_value)
{
	zval results, errors;
	await_collect(w, &results, &errors);
	array_init_size(return_value, 2);
	add_next_index_zval(return_value, &results);
	add_next_index_zval(return_value, &errors);
}

/* The *_or_fail functions: the first error is thrown, else the results. */
static void await_return_or_fail(await_t *w, zval *return_value)
{
	if (w->first_error != NULL) {
		GC_ADDREF(w->first_error->error);
		zend_throw_exception_internal(w->first_error->error);
		return;
	}
	await_collect(w, return_value, NULL);
}

/* $count = 0: [] for await_any_of_or_fail, [[], []] for await_any_of. */
static void await_return_empty(zval *return_value, bool pair)
{
	array_init(return_value);
	if (pair) {
		zval empty;
		ZVAL_EMPTY_ARRAY(&empty);
		add_next_index_zval(return_value, &empty);
		add_next_index_zval(return_value, &empty);
	}
}

/* $count: negative is a ValueError; 0 needs nothing awaited. */
static bool await_count_check(zend_long count, uint32_t *out)
{
	if (count < 0) {
		zend_argument_value_error(1, "must be greater than or equal to 0");
		return false;
	}
	*out = count > (zend_long) UINT32_MAX - 1 ? UINT32_MAX - 1 : (uint32_t) count;
	return true;
}

/* ---------------------------------------------------------------------------------------------
 * Functions
 * ------------------------------------------------------------------------------------------- */

#define AWAIT_ALL_COUNT UINT32_MAX

typedef enum { AWAIT_RETURN_PAIR, AWAIT_RETURN_OR_FAIL } await_return_t;

/* Runs the wait and returns its outcome in the function's shape: [results, errors], or the
 * results with the first error thrown. */
static void await_and_return(zval *triggers, zend_object *cancellation, const await_options_t *opt,
	await_return_t shape, zval *return_value)
{
	await_t *w = await_run(triggers, cancellation, opt);
	if (w == NULL) {
		return; /* the exception is set */
	}
	if (shape == AWAIT_RETURN_PAIR) {
		await_return_pair(w, return_value);
	} else {
		await_return_or_fail(w, return_value);
	}
	await_release(w);
}

/* The await_any_of* pair: the count is checked first, and a count of 0 never waits. */
static void await_count_and_return(zend_long count, zval *triggers, zend_object *cancellation, await_options_t *opt,
	await_return_t shape, zval *return_value)
{
	if (!await_count_check(count, &opt->count)) {
		return;
	}
	if (opt->count == 0) {
		await_return_empty(return_value, shape == AWAIT_RETURN_PAIR);
		return;
	}
	await_and_return(triggers, cancellation, opt, shape, return_value);
}

ZEND_FUNCTION(Async_await_any_or_fail)
{
	zval *triggers;
	zend_object *cancellation = NULL;
	ZEND_PARSE_PARAMETERS_START(1, 2)
		Z_PARAM_ITERABLE(triggers)
		Z_PARAM_OPTIONAL
		Z_PARAM_OBJ_OF_CLASS_OR_NULL(cancellation, async__ce_awaitable)
	ZEND_PARSE_PARAMETERS_END();

	await_options_t opt = { .count = 1, .fail_fast = true };
	await_t *w = await_run(triggers, cancellation, &opt);
	if (w == NULL) {
		RETURN_THROWS();
	}
	if (w->first_error != NULL) {
		GC_ADDREF(w->first_error->error);
		zend_throw_exception_internal(w->first_error->error);
	} else if (w->settled_count > 0) {
		RETVAL_COPY(&w->settled[0]->result);
	}
	await_release(w);
}

ZEND_FUNCTION(Async_await_first_success)
{
	zval *triggers;
	zend_object *cancellation = NULL;
	ZEND_PARSE_PARAMETERS_START(1, 2)
		Z_PARAM_ITERABLE(triggers)
		Z_PARAM_OPTIONAL
		Z_PARAM_OBJ_OF_CLASS_OR_NULL(cancellation, async__ce_awaitable)
	ZEND_PARSE_PARAMETERS_END();

	await_options_t opt = { .count = 1, .wait_running = true, .preserve_order = true };
	await_t *w = await_run(triggers, cancellation, &opt);
	if (w == NULL) {
		RETURN_THROWS();
	}
	/* The errors before the first success (all of them if none succeeded), and that success. */
	zval results, errors, first;
	await_collect(w, &results, &errors);
	zval_ptr_dtor(&results);
	ZVAL_NULL(&first);
	for (uint32_t i = 0; i < w->settled_count; i++) {
		if (w->settled[i]->error == NULL) {
			ZVAL_COPY(&first, &w->settled[i]->result);
			break;
		}
	}
	array_init_size(return_value, 2);
	add_next_index_zval(return_value, &first);
	add_next_index_zval(return_value, &errors);
	await_release(w);
}

ZEND_FUNCTION(Async_await_all_or_fail)
{
	zval *triggers;
	zend_object *cancellation = NULL;
	bool preserve_order = true;
	ZEND_PARSE_PARAMETERS_START(1, 3)
		Z_PARAM_ITERABLE(triggers)
		Z_PARAM_OPTIONAL
		Z_PARAM_OBJ_OF_CLASS_OR_NULL(cancellation, async__ce_awaitable)
		Z_PARAM_BOOL(preserve_order)
	ZEND_PARSE_PARAMETERS_END();

	await_options_t opt = { .count = AWAIT_ALL_COUNT, .fail_fast = true, .wait_running = true,
		.preserve_order = preserve_order };
	await_and_return(triggers, cancellation, &opt, AWAIT_RETURN_OR_FAIL, return_value);
}

ZEND_FUNCTION(Async_await_all)
{
	zval *triggers;
	zend_object *cancellation = NULL;
	bool preserve_order = true, fill_null = false;
	ZEND_PARSE_PARAMETERS_START(1, 4)
		Z_PARAM_ITERABLE(triggers)
		Z_PARAM_OPTIONAL
		Z_PARAM_OBJ_OF_CLASS_OR_NULL(cancellation, async__ce_awaitable)
		Z_PARAM_BOOL(preserve_order)
		Z_PARAM_BOOL(fill_null)
	ZEND_PARSE_PARAMETERS_END();

	await_options_t opt = { .count = AWAIT_ALL_COUNT, .wait_running = true,
		.preserve_order = preserve_order, .fill_null = fill_null };
	await_and_return(triggers, cancellation, &opt, AWAIT_RETURN_PAIR, return_value);
}

ZEND_FUNCTION(Async_await_any_of_or_fail)
{
	zend_long count;
	zval *triggers;
	zend_object *cancellation = NULL;
	bool preserve_order = true;
	ZEND_PARSE_PARAMETERS_START(2, 4)
		Z_PARAM_LONG(count)
		Z_PARAM_ITERABLE(triggers)
		Z_PARAM_OPTIONAL
		Z_PARAM_OBJ_OF_CLASS_OR_NULL(cancellation, async__ce_awaitable)
		Z_PARAM_BOOL(preserve_order)
	ZEND_PARSE_PARAMETERS_END();

	await_options_t opt = { .fail_fast = true, .preserve_order = preserve_order };
	await_count_and_return(count, triggers, cancellation, &opt, AWAIT_RETURN_OR_FAIL, return_value);
}

ZEND_FUNCTION(Async_await_any_of)
{
	zend_long count;
	zval *triggers;
	zend_object *cancellation = NULL;
	bool preserve_order = true, fill_null = false;
	ZEND_PARSE_PARAMETERS_START(2, 5)
		Z_PARAM_LONG(count)
		Z_PARAM_ITERABLE(triggers)
		Z_PARAM_OPTIONAL
		Z_PARAM_OBJ_OF_CLASS_OR_NULL(cancellation, async__ce_awaitable)
		Z_PARAM_BOOL(preserve_order)
		Z_PARAM_BOOL(fill_null)
	ZEND_PARSE_PARAMETERS_END();

	await_options_t opt = { .wait_running = true, .preserve_order = preserve_order, .fill_null = fill_null };
	await_count_and_return(count, triggers, cancellation, &opt, AWAIT_RETURN_PAIR, return_value);
}

zend_result async__await_minit(void)
{
	zend_register_functions(NULL, ext_functions, NULL, MODULE_PERSISTENT);
	return SUCCESS;
}
