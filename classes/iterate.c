/*
 * classes/iterate.c — Async\iterate(iterable, callback, concurrency = 0, cancelPending = true) (spec §1).
 *
 * A pool of workers that pull elements. The callbacks run in worker coroutines of a child scope of
 * the caller's (not safe, so that a cancellation really cancels; a callback that spawns puts its
 * coroutines there too). A worker pulls the next element, runs callback($value, $key), and pulls
 * again; one worker at a time is inside the source (a generator may suspend it). The caller only
 * supervises: it adds a worker while every worker is suspended inside a callback, up to
 * `concurrency` of them (0 = no limit), so a callback that never suspends runs every element in
 * one worker, in order. A callback returning false stops the pulling; one that throws (or a
 * source that throws) stops it too, cancels the callbacks still running, and its exception is
 * what iterate() throws. Then the coroutines the callbacks spawned that have not run yet get
 * their first run, and what is left is cancelled with AsyncCancellation("Cancellation of pending
 * coroutines after iterator completion") and awaited, or, with cancelPending = false, just
 * awaited. An array is iterated as it was when passed (copy on write).
 *
 * The caller and the workers waiting for the source wait on a small C event of the iteration,
 * notified whenever a worker enters a callback, leaves the source or ends; the deadlock report
 * shows it as "iterate(...)".
 */
#include "php_async.h"
#include "classes/classes.h"
#include "core/core.h"
#include "zend_exceptions.h"
#include "zend_interfaces.h"
#include "iterate_arginfo.h"

/* Where the elements come from: an array (a copy-on-write reference to it) or an iterator. */
typedef struct {
	zval array;
	HashPosition pos;
	zend_object_iterator *it;
	bool open;                  /* source_close() not done yet */
	bool started;               /* the first element was taken: a pull moves forward first */
} iterate_source_t;

typedef struct _iterate_state_s iterate_state_t;

typedef struct {
	iterate_state_t *st;        /* not a reference: the worker's done callback holds one */
	zend_coroutine_t *co;       /* until its coroutine ends (not a reference) */
	bool busy;                  /* inside the callback */
} iterate_worker_t;

struct _iterate_state_s {
	zend_async_event_t event;   /* first: what the caller and the workers waiting for the source wait on */
	zend_async_scope_t *scope;  /* the iteration's scope (one reference) */
	zend_fcall_t *callback;     /* one copy, shared by the workers */
	iterate_source_t src;
	uint32_t concurrency;       /* 0 = unlimited */
	uint32_t active;            /* workers not finished yet */
	uint32_t busy;              /* workers inside a callback */
	uint32_t workers_count, workers_capacity;
	iterate_worker_t **workers; /* every worker started, in start order */
	bool pulling;               /* a worker is inside the source */
	bool exhausted;             /* the source ended or threw: nothing more to pull */
	bool stop;                  /* a callback returned false or threw, or the caller left */
	bool abandoned;             /* the caller left while a worker was inside the source: it closes it */
	zend_object *error;         /* the first exception of a callback or of the source */
};

/* Subscribed to each worker's coroutine. */
typedef struct {
	zend_async_event_callback_t base;
	iterate_worker_t *worker;   /* its state held by one reference, dropped when the coroutine is done */
} iterate_done_t;

static void source_close(iterate_source_t *src);

/* ---------------------------------------------------------------------------------------------
 * The iteration's event
 * ------------------------------------------------------------------------------------------- */

static void iterate_state_release(iterate_state_t *st)
{
	if (--st->event.ref_count > 0) {
		return;
	}
	ZEND_ASSERT(!st->src.open && "the caller or the last worker inside the source closes it");
	zend_async_callbacks_free(&st->event);
	for (uint32_t i = 0; i < st->workers_count; i++) {
		efree(st->workers[i]);
	}
	if (st->workers != NULL) {
		efree(st->workers);
	}
	if (st->callback != NULL) {
		zend_fcall_release(st->callback);
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

static iterate_state_t *iterate_state_new(uint32_t concurrency, zend_fcall_t *callback)
{
	iterate_state_t *st = ecalloc(1, sizeof(iterate_state_t));
	async__event_init(&st->event, &iterate_event_methods);
	st->concurrency = concurrency;
	st->callback = callback;
	ZVAL_UNDEF(&st->src.array);
	return st;
}

/* Wakes the caller and the workers waiting for the source: each re-checks what it waits for. */
static void iterate_notify(iterate_state_t *st)
{
	ZEND_ASYNC_CALLBACKS_NOTIFY(&st->event, NULL, NULL);
}

/* Suspends until the iteration's event is notified. False with an exception. */
static bool iterate_wait(iterate_state_t *st)
{
	return async__wait_event(&st->event, NULL, NULL, "iterate");
}

/* The callbacks still running are cancelled instead of being waited for: an error decided the
 * iteration. The workers outside a callback see `stop` at their next step. */
static void iterate_cancel_busy(iterate_state_t *st)
{
	zend_coroutine_t *self = ZEND_ASYNC_CURRENT_COROUTINE;
	zend_object *error = NULL;
	for (uint32_t i = 0; i < st->workers_count; i++) {
		iterate_worker_t *w = st->workers[i];
		if (w->co == NULL || !w->busy || w->co == self) {
			continue;
		}
		if (error == NULL) {
			error = async__new_exception(async__ce_async_cancellation,
				"Cancellation of pending coroutines after iterator completion");
		}
		async__coroutine_cancel(w->co, error, false, false);
	}
	if (error != NULL) {
		OBJ_RELEASE(error);
	}
}

/* Keeps the first error (takes over the reference); the first one also cancels the callbacks
 * still running. */
static void iterate_fail(iterate_state_t *st, zend_object *error)
{
	st->stop = true;
	if (st->error != NULL) {
		OBJ_RELEASE(error);
		return;
	}
	st->error = error;
	iterate_cancel_busy(st);
}

/* Moves the pending exception into the state. */
static void iterate_fail_with_exception(iterate_state_t *st)
{
	zend_object *error = EG(exception);
	GC_ADDREF(error);
	zend_clear_exception();
	iterate_fail(st, error);
}

/* ---------------------------------------------------------------------------------------------
 * The source
 * ------------------------------------------------------------------------------------------- */

static bool source_open(iterate_source_t *src, zval *iterable)
{
	src->open = true;
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

/* The next element: the source moves on only now, when a worker takes one (a stop leaves the
 * rest of a generator unpulled). May suspend. Same results as source_current(). */
static int source_pull(iterate_source_t *src, zval *value, zval *key)
{
	if (src->started && !source_next(src)) {
		return -1;
	}
	src->started = true;
	return source_current(src, value, key);
}

static void source_close(iterate_source_t *src)
{
	if (!src->open) {
		return;
	}
	src->open = false;
	if (src->it != NULL) {
		zend_iterator_dtor(src->it);
		src->it = NULL;
	}
	zval_ptr_dtor(&src->array);
	ZVAL_UNDEF(&src->array);
}

/* ---------------------------------------------------------------------------------------------
 * Workers
 * ------------------------------------------------------------------------------------------- */

/* The next element for a worker, or false when there is none for it: the source ended or threw,
 * the iteration stopped, or the worker was cancelled while it waited (its exception pending). */
static bool iterate_pull(iterate_state_t *st, zval *value, zval *key)
{
	while (st->pulling && !st->stop) {
		if (!iterate_wait(st)) {
			return false;
		}
	}
	if (st->stop || st->exhausted) {
		return false;
	}
	st->pulling = true;
	int got = source_pull(&st->src, value, key);
	st->pulling = false;
	if (got <= 0) {
		st->exhausted = true;
		if (got < 0) {
			iterate_fail_with_exception(st);
		}
	}
	if (st->abandoned) {
		source_close(&st->src); /* the caller is gone: nobody else will */
	}
	iterate_notify(st); /* the source is free */
	if (got > 0 && st->stop) {
		zval_ptr_dtor(value);
		zval_ptr_dtor(key);
		return false;
	}
	return got > 0;
}

/* callback($value, $key), the arguments taken over. False when the worker must end: the
 * iteration stopped, or the callback threw (the iteration takes its exception over: the worker
 * ends normally, and iterate() throws it). */
static bool iterate_call(iterate_worker_t *w, zval *value, zval *key)
{
	iterate_state_t *st = w->st;
	zval args[2], retval;
	ZVAL_COPY_VALUE(&args[0], value);
	ZVAL_COPY_VALUE(&args[1], key);
	ZVAL_UNDEF(&retval);
	w->busy = true;
	st->busy++;
	iterate_notify(st); /* should the callback suspend, the caller may add a worker */
	zend_async_fcall_call(st->callback, &retval, 2, args);
	ZEND_ASSERT(w->busy && "only its own end clears it (iterate_done)");
	w->busy = false;
	st->busy--;
	zval_ptr_dtor(&args[0]);
	zval_ptr_dtor(&args[1]);
	bool returned_false = Z_TYPE(retval) == IS_FALSE;
	zval_ptr_dtor(&retval);
	if (EG(exception)) {
		iterate_fail_with_exception(st); /* at once: the other callbacks must not run on */
		return false;
	}
	if (returned_false) {
		st->stop = true;
	}
	return !st->stop;
}

/* A worker's body: pull, call, until there is nothing more for it. */
static void iterate_worker_entry(void)
{
	iterate_worker_t *w = ZEND_ASYNC_CURRENT_COROUTINE->extended_data;
	zval value, key;
	while (iterate_pull(w->st, &value, &key) && iterate_call(w, &value, &key)) {
	}
}

static void iterate_done(zend_async_event_t *event, zend_async_event_callback_t *callback,
	void *result, zend_object *exception)
{
	iterate_worker_t *w = ((iterate_done_t *) callback)->worker;
	if (w == NULL) {
		return;
	}
	((iterate_done_t *) callback)->worker = NULL;
	iterate_state_t *st = w->st;
	w->co = NULL;
	if (w->busy) {
		/* ended inside its callback without returning from it (exit) */
		w->busy = false;
		st->busy--;
	}
	if (exception != NULL) {
		/* The caller rethrows it: it never reaches the scope's unhandled-error path. */
		ZEND_ASYNC_EVENT_SET_EXCEPTION_HANDLED(event);
		GC_ADDREF(exception);
		iterate_fail(st, exception);
	}
	ZEND_ASSERT(st->active > 0);
	st->active--;
	iterate_notify(st);
	iterate_state_release(st);
}

static void iterate_done_dispose(zend_async_event_callback_t *callback, zend_async_event_t *event)
{
	iterate_worker_t *w = ((iterate_done_t *) callback)->worker;
	if (w != NULL) {
		iterate_state_release(w->st);
	}
	efree(callback);
}

static iterate_worker_t *iterate_worker_new(iterate_state_t *st, zend_coroutine_t *co)
{
	if (st->workers_count == st->workers_capacity) {
		st->workers_capacity = st->workers_capacity ? st->workers_capacity * 2 : 4;
		st->workers = safe_erealloc(st->workers, st->workers_capacity, sizeof(iterate_worker_t *), 0);
	}
	iterate_worker_t *w = ecalloc(1, sizeof(*w));
	w->st = st;
	w->co = co;
	st->workers[st->workers_count++] = w;
	return w;
}

/* Starts one more worker (queued). False when the iteration must stop (st->error says why). */
static bool iterate_add_worker(iterate_state_t *st)
{
	zend_coroutine_t *co = async__spawn(st->scope, NULL, ZEND_COROUTINE_NORMAL);
	if (co == NULL) {
		iterate_fail_with_exception(st);
		return false;
	}
	if (ZEND_COROUTINE_IS_FINISHED(co)) {
		/* Cancelled at once: a graceful shutdown is under way. */
		GC_ADDREF(co->exception);
		iterate_fail(st, co->exception);
		ZEND_ASYNC_EVENT_SET_EXCEPTION_HANDLED(&co->event);
		ZEND_ASYNC_EVENT_RELEASE(&co->event);
		return false;
	}
	iterate_worker_t *w = iterate_worker_new(st, co);
	co->internal_entry = iterate_worker_entry;
	co->extended_data = w;

	/* The iteration counts the worker as active until it ends and takes its error. */
	iterate_done_t *d = (iterate_done_t *) zend_async_event_callback_new(iterate_done, sizeof(iterate_done_t));
	d->base.dispose = iterate_done_dispose;
	d->worker = w;
	st->event.ref_count++;
	st->active++;
	ZEND_ASYNC_EVENT_SET_EXC_CAUGHT(&co->event);
	co->event.add_callback(&co->event, &d->base);
	ZEND_ASYNC_EVENT_CALLBACK_RELEASE(&d->base);
	ZEND_ASYNC_EVENT_RELEASE(&co->event); /* the handle: the coroutine keeps itself alive */
	return true;
}

/* ---------------------------------------------------------------------------------------------
 * The iteration
 * ------------------------------------------------------------------------------------------- */

/* Whether the caller adds a worker now. The caller runs only while every worker is suspended, so
 * all of them being inside a callback means they are all suspended there: nobody is about to
 * pull the next element. */
static bool iterate_wants_worker(iterate_state_t *st)
{
	return !st->stop && !st->exhausted && st->busy == st->active
		&& (st->concurrency == 0 || st->workers_count < st->concurrency)
		&& !async__scope_refuses_spawn(st->scope);
}

/* The caller, until every worker has ended. False with an exception when the caller itself was
 * cancelled while it waited. */
static bool iterate_supervise(iterate_state_t *st)
{
	for (;;) {
		if (iterate_wants_worker(st)) {
			iterate_add_worker(st);
		}
		if (st->active == 0) {
			return true;
		}
		if (!iterate_wait(st)) {
			return false;
		}
	}
}

/* A coroutine of the scope that has been spawned but has not run yet. */
static bool iterate_scope_has_unstarted(zend_async_scope_t *scope)
{
	for (async_list_node_t *node = ASYNC_SCOPE(scope)->coroutines.first; node != NULL; node = node->next) {
		zend_coroutine_t *coro = &ASYNC_LIST_ITEM(node, async_coroutine_t, scope_node)->coro;
		if (!ZEND_COROUTINE_IS_STARTED(coro) && !ZEND_COROUTINE_IS_FINISHED(coro)) {
			return true;
		}
	}
	return false;
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
	if (iterate_scope_has_unstarted(st->scope)) {
		/* A coroutine a callback spawned gets its first run before it is cancelled: they are in
		 * the run queue already, and a yield puts the caller behind them. */
		async__wait_yield();
		if (EG(exception)) {
			return false;
		}
	}
	zend_object *error = async__new_exception(async__ce_async_cancellation,
		"Cancellation of pending coroutines after iterator completion");
	async__scope_cancel(st->scope, error, false);
	OBJ_RELEASE(error);
	/* ... and awaited: their finally blocks have run when iterate() returns */
	return async__scope_await_finished(st->scope, "iterate");
}

/* The caller was cancelled while it waited: nothing of the iteration outlives it. A worker inside
 * the source (a generator suspended there) closes it when it gets out. */
static void iterate_abandon(iterate_state_t *st)
{
	st->stop = true;
	async__scope_cancel(st->scope, NULL, false);
	if (st->pulling) {
		st->abandoned = true;
	} else {
		source_close(&st->src);
	}
}

/* The body of iterate() once the arguments are checked. Takes over the callback. */
static void iterate_run(zval *iterable, zend_fcall_t *callback, uint32_t concurrency, bool cancel_pending)
{
	iterate_state_t *st = iterate_state_new(concurrency, callback);
	st->scope = async__scope_new(async__scope_current());
	ZEND_ASYNC_EVENT_CLR(&st->scope->event, ZEND_ASYNC_SCOPE_F_DISPOSE_SAFELY);

	bool caller_ok = true;
	if (!source_open(&st->src, iterable)) {
		iterate_fail_with_exception(st);
	} else {
		caller_ok = iterate_supervise(st);
	}
	if (caller_ok) {
		caller_ok = iterate_settle_pending(st, cancel_pending);
	}
	if (caller_ok) {
		source_close(&st->src);
	} else {
		iterate_abandon(st);
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
	iterate_run(iterable, zend_async_fcall_new(&fci, &fcc), (uint32_t) concurrency, cancel_pending);
}

zend_result async__iterate_minit(void)
{
	zend_register_functions(NULL, ext_functions, NULL, MODULE_PERSISTENT);
	return SUCCESS;
}
