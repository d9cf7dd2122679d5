/*
 * classes/iterate.c — Async\iterate(iterable, callback, concurrency = 0, cancelPending = true) (spec §1).
 *
 * The caller pulls the elements itself (a generator may suspend it: the source is only ever
 * resumed from one coroutine). Without a limit (concurrency 0) each element's callback($value,
 * $key) runs in a coroutine of its own; with one, at most `concurrency` worker coroutines run them,
 * each taking the next element from the caller when it finished one, and the source moves on only
 * when a worker can take the element (so a stop leaves the rest of a generator unpulled). The coroutines live in a child scope of the
 * caller's, not safe, so that a cancellation really cancels; a callback that spawns puts its
 * coroutines there too. A callback returning false stops the iteration; a callback (or the source)
 * that throws stops it too and its exception is what iterate() throws, once the callbacks already
 * running have returned. Then the coroutines the callbacks left behind are cancelled with
 * AsyncCancellation("Cancellation of pending coroutines after iterator completion") and awaited,
 * or, with cancelPending = false, just awaited. An array is iterated as it was when passed (copy on write).
 *
 * The caller waits on a small C event of the iteration, notified each time a callback coroutine
 * finishes; the deadlock report shows it as "iterate(...)".
 */
#include "php_async.h"
#include "classes/classes.h"
#include "core/core.h"
#include "zend_exceptions.h"
#include "zend_interfaces.h"
#include "iterate_arginfo.h"

typedef struct _iterate_worker_s iterate_worker_t;

typedef struct {
	zend_async_event_t event;   /* first: what the caller (and idle workers) wait on */
	zend_async_scope_t *scope;  /* the iteration's scope (one reference) */
	uint32_t active;            /* callback coroutines (or workers) not finished yet */
	uint32_t concurrency;       /* 0 = unlimited */
	bool stop;                  /* a callback returned false or threw */
	bool fed;                   /* the caller pulls no more: idle workers end */
	zend_object *error;         /* the first exception of a callback or of the source */
	iterate_worker_t **workers; /* concurrency > 0: the workers, `concurrency` slots */
	uint32_t workers_count;
} iterate_state_t;

/* With a concurrency limit, `concurrency` worker coroutines at most run the callbacks: each takes
 * the next element when it finished one (the caller pulls and hands it over). */
struct _iterate_worker_s {
	iterate_state_t *st;        /* not a reference: the worker's coroutine holds one (iterate_watch) */
	zend_fcall_t *callback;     /* its own copy of the callable */
	zval value, key;            /* the element handed to it; UNDEF while it has none */
	bool running;               /* its coroutine has not ended */
};

/* Subscribed to each callback coroutine. */
typedef struct {
	zend_async_event_callback_t base;
	iterate_state_t *state;     /* one reference, dropped when the coroutine is done */
} iterate_done_t;

/* Where the elements come from: an array (a copy-on-write reference to it) or an iterator. */
typedef struct {
	zval array;
	HashPosition pos;
	zend_object_iterator *it;
} iterate_source_t;

/* ---------------------------------------------------------------------------------------------
 * The iteration's event
 * ------------------------------------------------------------------------------------------- */

static void iterate_state_release(iterate_state_t *st)
{
	if (--st->event.ref_count > 0) {
		return;
	}
	zend_async_callbacks_free(&st->event);
	for (uint32_t i = 0; i < st->workers_count; i++) {
		iterate_worker_t *w = st->workers[i];
		zval_ptr_dtor(&w->value);
		zval_ptr_dtor(&w->key);
		zend_fcall_release(w->callback);
		efree(w);
	}
	if (st->workers != NULL) {
		efree(st->workers);
	}
	if (st->error) {
		OBJ_RELEASE(st->error);
	}
	efree(st);
}

static bool iterate_event_dispose(zend_async_event_t *event)
{
	iterate_state_release((iterate_state_t *) event);
	return true;
}

static zend_string *iterate_event_info(zend_async_event_t *event)
{
	iterate_state_t *st = (iterate_state_t *) event;
	return zend_strpprintf(0, "iterate(running=%u, concurrency=%u)", st->active, st->concurrency);
}

static const async_event_methods_t iterate_event_methods = {
	.dispose = iterate_event_dispose,
	.info = iterate_event_info,
};

static iterate_state_t *iterate_state_new(uint32_t concurrency)
{
	iterate_state_t *st = ecalloc(1, sizeof(iterate_state_t));
	async__event_init(&st->event, &iterate_event_methods);
	st->concurrency = concurrency;
	return st;
}

/* Keeps the first error; takes over the reference. */
static void iterate_fail(iterate_state_t *st, zend_object *error)
{
	st->stop = true;
	if (st->error == NULL) {
		st->error = error;
	} else {
		OBJ_RELEASE(error);
	}
}

/* Moves the pending exception into the state. */
static void iterate_fail_with_exception(iterate_state_t *st)
{
	zend_object *error = EG(exception);
	GC_ADDREF(error);
	zend_clear_exception();
	iterate_fail(st, error);
}

/* Suspends the caller until a callback coroutine finishes. False with an exception. */
static bool iterate_wait(iterate_state_t *st)
{
	return async__wait_event(&st->event, NULL, NULL, "iterate");
}

/* ---------------------------------------------------------------------------------------------
 * Callback coroutines
 * ------------------------------------------------------------------------------------------- */

static void iterate_done(zend_async_event_t *event, zend_async_event_callback_t *callback,
	void *result, zend_object *exception)
{
	iterate_done_t *d = (iterate_done_t *) callback;
	iterate_state_t *st = d->state;
	if (st == NULL) {
		return;
	}
	d->state = NULL;
	if (exception != NULL) {
		/* The caller rethrows it: it never reaches the scope's unhandled-error path. */
		ZEND_ASYNC_EVENT_SET_EXCEPTION_HANDLED(event);
		GC_ADDREF(exception);
		iterate_fail(st, exception);
	} else if (result != NULL && Z_TYPE_P((zval *) result) == IS_FALSE) {
		st->stop = true;
	}
	st->active--;
	ZEND_ASYNC_CALLBACKS_NOTIFY(&st->event, NULL, NULL);
	iterate_state_release(st);
}

static void iterate_done_dispose(zend_async_event_callback_t *callback, zend_async_event_t *event)
{
	iterate_done_t *d = (iterate_done_t *) callback;
	if (d->state != NULL) {
		iterate_state_release(d->state);
	}
	efree(d);
}

/* A new coroutine of the iteration's scope, not started, or NULL when the iteration must stop
 * (the reason is in the state). */
static zend_coroutine_t *iterate_new_coroutine(iterate_state_t *st)
{
	zend_coroutine_t *co = async__spawn(st->scope, NULL, ZEND_COROUTINE_NORMAL);
	if (co == NULL) {
		iterate_fail_with_exception(st);
		return NULL;
	}
	if (ZEND_COROUTINE_IS_FINISHED(co)) {
		/* Cancelled at once: a graceful shutdown is under way. */
		GC_ADDREF(co->exception);
		iterate_fail(st, co->exception);
		ZEND_ASYNC_EVENT_SET_EXCEPTION_HANDLED(&co->event);
		ZEND_ASYNC_EVENT_RELEASE(&co->event);
		return NULL;
	}
	return co;
}

/* The iteration counts the coroutine as active until it ends and takes its error. */
static void iterate_watch(iterate_state_t *st, zend_coroutine_t *co)
{
	iterate_done_t *d = (iterate_done_t *) zend_async_event_callback_new(iterate_done, sizeof(iterate_done_t));
	d->base.dispose = iterate_done_dispose;
	d->state = st;
	st->event.ref_count++;
	st->active++;
	ZEND_ASYNC_EVENT_SET_EXC_CAUGHT(&co->event);
	co->event.add_callback(&co->event, &d->base);
	ZEND_ASYNC_EVENT_CALLBACK_RELEASE(&d->base);
	ZEND_ASYNC_EVENT_RELEASE(&co->event); /* the handle: the coroutine keeps itself alive */
}

/* Runs callback($value, $key) in a new coroutine of the iteration's scope (no concurrency
 * limit). The arguments are taken over. False when the iteration must stop. */
static bool iterate_spawn(iterate_state_t *st, zend_fcall_t *callback, zval *value, zval *key)
{
	zend_coroutine_t *co = iterate_new_coroutine(st);
	if (co == NULL) {
		zval_ptr_dtor(value);
		zval_ptr_dtor(key);
		return false;
	}
	zval args[2];
	ZVAL_COPY_VALUE(&args[0], value);
	ZVAL_COPY_VALUE(&args[1], key);
	co->fcall = zend_async_fcall_new_with_args(&callback->fci, &callback->fci_cache, args, 2, NULL);
	zval_ptr_dtor(value);
	zval_ptr_dtor(key);
	iterate_watch(st, co);
	return true;
}

/* ---------------------------------------------------------------------------------------------
 * Workers (a concurrency limit)
 * ------------------------------------------------------------------------------------------- */

/* A worker's body: the element handed to it, then the next, until the caller is done feeding or
 * the iteration stops. Its callback's exception or `false` stops the iteration. */
static void iterate_worker_entry(void)
{
	iterate_worker_t *w = ZEND_ASYNC_CURRENT_COROUTINE->extended_data;
	iterate_state_t *st = w->st;
	for (;;) {
		while (Z_ISUNDEF(w->value) && !st->fed && !st->stop) {
			if (!iterate_wait(st)) {
				break; /* cancelled: the coroutine ends with it (iterate_done records it) */
			}
		}
		if (EG(exception) || Z_ISUNDEF(w->value)) {
			break;
		}
		zval args[2], retval;
		ZVAL_COPY_VALUE(&args[0], &w->value);
		ZVAL_COPY_VALUE(&args[1], &w->key);
		ZVAL_UNDEF(&w->value);
		ZVAL_UNDEF(&w->key);
		ZVAL_UNDEF(&retval);
		zend_async_fcall_call(w->callback, &retval, 2, args);
		zval_ptr_dtor(&args[0]);
		zval_ptr_dtor(&args[1]);
		bool stop = Z_TYPE(retval) == IS_FALSE;
		zval_ptr_dtor(&retval);
		if (EG(exception)) {
			break; /* the coroutine ends with it: iterate_done makes it the iteration's error */
		}
		if (stop) {
			st->stop = true;
		}
		ZEND_ASYNC_CALLBACKS_NOTIFY(&st->event, NULL, NULL); /* free for the next element */
		if (st->stop) {
			break;
		}
	}
	w->running = false;
}

/* A worker with no element: an idle one, or a new one while there are fewer than the limit.
 * NULL when all are busy (or the iteration must stop: st->stop says so). */
static iterate_worker_t *iterate_free_worker(iterate_state_t *st, zend_fcall_t *callback)
{
	for (uint32_t i = 0; i < st->workers_count; i++) {
		iterate_worker_t *w = st->workers[i];
		if (w->running && Z_ISUNDEF(w->value)) {
			return w;
		}
	}
	if (st->workers_count >= st->concurrency) {
		return NULL;
	}
	zend_coroutine_t *co = iterate_new_coroutine(st);
	if (co == NULL) {
		return NULL;
	}
	iterate_worker_t *w = ecalloc(1, sizeof(*w));
	w->st = st;
	w->callback = zend_async_fcall_new(&callback->fci, &callback->fci_cache);
	ZVAL_UNDEF(&w->value);
	ZVAL_UNDEF(&w->key);
	w->running = true;
	if (st->workers == NULL) {
		st->workers = safe_emalloc(st->concurrency, sizeof(iterate_worker_t *), 0);
	}
	st->workers[st->workers_count++] = w;
	co->internal_entry = iterate_worker_entry;
	co->extended_data = w;
	iterate_watch(st, co);
	return w;
}

/* ---------------------------------------------------------------------------------------------
 * The source
 * ------------------------------------------------------------------------------------------- */

static bool source_open(iterate_source_t *src, zval *iterable)
{
	ZVAL_UNDEF(&src->array);
	src->it = NULL;
	if (Z_TYPE_P(iterable) == IS_ARRAY) {
		ZVAL_COPY(&src->array, iterable);
		zend_hash_internal_pointer_reset_ex(Z_ARRVAL(src->array), &src->pos);
		return true;
	}
	zend_class_entry *ce = Z_OBJCE_P(iterable);
	src->it = ce->get_iterator(ce, iterable, 0);
	if (src->it == NULL || EG(exception)) {
		return false;
	}
	src->it->index = 0;
	if (src->it->funcs->rewind) {
		src->it->funcs->rewind(src->it);
	}
	return !EG(exception);
}

/* 1: *value and *key filled (new references); 0: the end; -1: the source threw. */
static int source_current(iterate_source_t *src, zval *value, zval *key)
{
	if (src->it == NULL) {
		HashTable *ht = Z_ARRVAL(src->array);
		zval *v = zend_hash_get_current_data_ex(ht, &src->pos);
		if (v == NULL) {
			return 0;
		}
		ZVAL_DEINDIRECT(v);
		ZVAL_COPY_DEREF(value, v);
		zend_hash_get_current_key_zval_ex(ht, key, &src->pos);
		return 1;
	}
	zend_object_iterator *it = src->it;
	if (it->funcs->valid(it) != SUCCESS) {
		return EG(exception) ? -1 : 0;
	}
	zval *v = it->funcs->get_current_data(it);
	if (EG(exception) || v == NULL) {
		return EG(exception) ? -1 : 0;
	}
	ZVAL_COPY_DEREF(value, v);
	if (it->funcs->get_current_key) {
		it->funcs->get_current_key(it, key);
		if (EG(exception)) {
			zval_ptr_dtor(value);
			return -1;
		}
	} else {
		ZVAL_LONG(key, (zend_long) it->index);
	}
	return 1;
}

static bool source_next(iterate_source_t *src)
{
	if (src->it == NULL) {
		zend_hash_move_forward_ex(Z_ARRVAL(src->array), &src->pos);
		return true;
	}
	src->it->index++;
	src->it->funcs->move_forward(src->it);
	return !EG(exception);
}

static void source_close(iterate_source_t *src)
{
	if (src->it != NULL) {
		zend_iterator_dtor(src->it);
		src->it = NULL;
	}
	zval_ptr_dtor(&src->array);
	ZVAL_UNDEF(&src->array);
}

/* ---------------------------------------------------------------------------------------------
 * The iteration
 * ------------------------------------------------------------------------------------------- */

/* Feeds the callbacks until the source ends or the iteration stops. False with an exception when
 * the caller itself was cancelled while it waited for a free slot. */
/* With a concurrency limit: the caller pulls each element and hands it to a free worker. */
static bool iterate_feed_workers(iterate_state_t *st, iterate_source_t *src, zend_fcall_t *callback)
{
	for (bool first = true; ; first = false) {
		iterate_worker_t *w = NULL;
		while (!st->stop && !async__scope_refuses_spawn(st->scope)
			&& (w = iterate_free_worker(st, callback)) == NULL && !st->stop) {
			if (!iterate_wait(st)) {
				return false;
			}
		}
		if (w == NULL || st->stop || async__scope_refuses_spawn(st->scope)) {
			return true;
		}
		/* the source moves on only once a worker can take the element: a stop leaves the rest
		 * of a generator unpulled */
		if (!first && !source_next(src)) {
			iterate_fail_with_exception(st);
			return true;
		}
		int got = source_current(src, &w->value, &w->key);
		if (got <= 0) {
			ZVAL_UNDEF(&w->value);
			ZVAL_UNDEF(&w->key);
			if (got < 0) {
				iterate_fail_with_exception(st);
			}
			return true;
		}
		ZEND_ASYNC_CALLBACKS_NOTIFY(&st->event, NULL, NULL); /* the worker takes it */
	}
}

static bool iterate_feed(iterate_state_t *st, iterate_source_t *src, zend_fcall_t *callback)
{
	if (st->concurrency != 0) {
		bool ok = iterate_feed_workers(st, src, callback);
		st->fed = true;
		ZEND_ASYNC_CALLBACKS_NOTIFY(&st->event, NULL, NULL); /* idle workers end */
		return ok;
	}
	for (;;) {
		while (!st->stop && st->concurrency != 0 && st->active >= st->concurrency) {
			if (!iterate_wait(st)) {
				return false;
			}
		}
		if (st->stop || async__scope_refuses_spawn(st->scope)) {
			return true; /* a closed scope: cancelled from outside, its coroutines say why */
		}
		zval value, key;
		int got = source_current(src, &value, &key);
		if (got <= 0) {
			if (got < 0) {
				iterate_fail_with_exception(st);
			}
			return true;
		}
		if (!iterate_spawn(st, callback, &value, &key)) {
			return true;
		}
		if (!source_next(src)) {
			iterate_fail_with_exception(st);
			return true;
		}
	}
}

/* After the callbacks: what they spawned and left running is cancelled or awaited. */
static bool iterate_settle_pending(iterate_state_t *st, bool cancel_pending)
{
	if (async__scope_is_finished(st->scope)) {
		return true;
	}
	if (!cancel_pending) {
		return async__scope_await_finished(st->scope, "iterate");
	}
	zend_object *error = async__new_exception(async__ce_async_cancellation,
		"Cancellation of pending coroutines after iterator completion");
	async__scope_cancel(st->scope, error, false);
	OBJ_RELEASE(error);
	/* ... and awaited: their finally blocks have run when iterate() returns */
	return async__scope_await_finished(st->scope, "iterate");
}

/* The body of iterate() once the arguments are checked. */
static void iterate_run(zval *iterable, zend_fcall_t *callback, uint32_t concurrency, bool cancel_pending)
{
	iterate_state_t *st = iterate_state_new(concurrency);
	st->scope = async__scope_new(async__scope_current());
	ZEND_ASYNC_EVENT_CLR(&st->scope->event, ZEND_ASYNC_SCOPE_F_DISPOSE_SAFELY);

	iterate_source_t src;
	bool caller_ok = true;
	if (!source_open(&src, iterable)) {
		iterate_fail_with_exception(st);
	} else {
		caller_ok = iterate_feed(st, &src, callback);
	}
	/* The callbacks already running finish their element. */
	while (caller_ok && st->active > 0) {
		caller_ok = iterate_wait(st);
	}
	if (caller_ok) {
		caller_ok = iterate_settle_pending(st, cancel_pending);
	}
	source_close(&src);
	if (!caller_ok) {
		/* The caller was cancelled while it waited: nothing of the iteration outlives it. */
		async__scope_cancel(st->scope, NULL, false);
	}

	zend_async_scope_t *scope = st->scope;
	st->scope = NULL;
	async__scope_close(scope);
	async__scope_release(scope);
	if (caller_ok && st->error != NULL) {
		zend_object *error = st->error;
		st->error = NULL;
		zend_throw_exception_internal(error);
	}
	iterate_state_release(st);
}

ZEND_FUNCTION(Async_iterate)
{
	zval *iterable;
	zend_fcall_info fci;
	zend_fcall_info_cache fcc;
	zend_long concurrency = 0;
	bool cancel_pending = true;
	ZEND_PARSE_PARAMETERS_START(2, 4)
		Z_PARAM_ITERABLE(iterable)
		Z_PARAM_FUNC(fci, fcc)
		Z_PARAM_OPTIONAL
		Z_PARAM_LONG(concurrency)
		Z_PARAM_BOOL(cancel_pending)
	ZEND_PARSE_PARAMETERS_END();

	if (concurrency < 0 || concurrency > UINT32_MAX) {
		zend_argument_value_error(3, "must be between 0 and %u", UINT32_MAX);
		RETURN_THROWS();
	}
	if (!async__wait_allowed()) {
		async__wait_throw_not_allowed("iterate");
		RETURN_THROWS();
	}
	if (ZEND_ASYNC_G(coroutine) == NULL) {
		async__scheduler_launch();
	}
	zend_fcall_t *callback = zend_async_fcall_new(&fci, &fcc);
	iterate_run(iterable, callback, (uint32_t) concurrency, cancel_pending);
	zend_fcall_release(callback);
}

zend_result async__iterate_minit(void)
{
	zend_register_functions(NULL, ext_functions, NULL, MODULE_PERSISTENT);
	return SUCCESS;
}
