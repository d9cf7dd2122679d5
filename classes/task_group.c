/*
 * classes/task_group.c — Async\TaskGroup and Async\TaskSet (spec §3.9, §3.10, §8.9).
 *
 * A group is a keyed collection of tasks. A task is queued (a callable waiting for a concurrency
 * slot), running (a coroutine) or settled (a result or an error). Settled tasks stay in the group
 * (TaskGroup) or until they are delivered once (TaskSet: joinNext/joinAny/joinAll, iteration).
 *
 * The group object is itself an event (F_ZEND_OBJ, at offset 0 of the struct), so the await_*
 * family can wait on it like on any Awaitable: it fires once, when the group is complete (closed,
 * nothing queued, nothing running), with the array of results (key => value of the successful
 * tasks) as its zval result, and then stays closed (replay gives the same array).
 * Two kinds of internal waiters also subscribe to that event but are kept in their own list, not
 * in the callback vector, because they are woken by other things: producers parked by a full
 * queue (woken when a queued task starts, or when the group closes) and iterators (woken when a
 * task settles, or when the group closes). The deadlock report lists them as waiting for the group.
 *
 * Each running task is a callback subscribed to its coroutine's event: the coroutine's result or
 * error is stored in the task and the error is marked handled, so a task error never reaches the
 * scope/scheduler unhandled-error path: it is the group's (spec §8.2.6). Futures from all(),
 * race(), any() and the TaskSet joins are "joins": pending futures the group settles as tasks
 * settle. None of this runs user code, so it is safe from a coroutine's completion (which runs on
 * the finishing coroutine's stack) and from a reactor callback. finally() handlers, which are user
 * code, run in a short coroutine of their own.
 */
#include "php_async.h"
#include "classes/classes.h"
#include "core/core.h"
#include "zend_exceptions.h"
#include "zend_interfaces.h"
#include "zend_closures.h"
#include "task_group_arginfo.h"

zend_class_entry *async__ce_task_group;
zend_class_entry *async__ce_task_set;
/* per-process: object handlers, filled once at MINIT */
static zend_object_handlers task_group_handlers;

static void tg_task_settle(async_task_group_t *g, tg_task_t *t, zval *result, zend_object *error);
static void tg_check_complete(async_task_group_t *g);

/* ---------------------------------------------------------------------------------------------
 * Task lists (queue and settled)
 * ------------------------------------------------------------------------------------------- */

static void list_append(async_list_t *list, tg_task_t *t)
{
	async_list_append(list, &t->link);
	t->linked = true;
}


/* ---------------------------------------------------------------------------------------------
 * Tasks
 * ------------------------------------------------------------------------------------------- */

static void tg_task_done(zend_async_event_t *event, zend_async_event_callback_t *callback,
	void *result, zend_object *exception);

static void tg_task_dispose(zend_async_event_callback_t *callback, zend_async_event_t *event)
{
	tg_task_t *t = (tg_task_t *) callback;
	zend_fcall_release(t->fcall);
	zval_ptr_dtor(&t->key);
	zval_ptr_dtor(&t->result);
	if (t->error) {
		OBJ_RELEASE(t->error);
	}
	efree(t);
}

static void tg_task_table_dtor(zval *zv)
{
	tg_task_t *t = Z_PTR_P(zv);
	t->removed = true;
	zend_async_event_callback_unref(&t->cb, NULL);
}

/* A new task in the table: under `key`, or the next integer key (array append) when NULL.
 * NULL when the key is taken. */
static tg_task_t *tg_task_new(async_task_group_t *g, zval *key)
{
	tg_task_t *t = (tg_task_t *) zend_async_event_callback_new(tg_task_done, sizeof(tg_task_t));
	t->cb.dispose = tg_task_dispose;
	t->group = g;
	ZVAL_UNDEF(&t->key);
	ZVAL_NULL(&t->result);
	t->state = TASK_QUEUED;

	zval *slot;
	if (key == NULL) {
		/* What $array[] = ... would use; taken only at PHP_INT_MAX, as for an array. */
		zend_long next = g->tasks.nNextFreeElement == ZEND_LONG_MIN ? 0 : g->tasks.nNextFreeElement;
		slot = zend_hash_index_add_ptr(&g->tasks, next, t);
		ZVAL_LONG(&t->key, next);
	} else if (Z_TYPE_P(key) == IS_LONG) {
		slot = zend_hash_index_add_ptr(&g->tasks, Z_LVAL_P(key), t);
		ZVAL_COPY(&t->key, key);
	} else {
		/* Array semantics: "5" is the integer key 5, as in the results array. */
		zend_ulong index;
		if (ZEND_HANDLE_NUMERIC_STR(Z_STRVAL_P(key), Z_STRLEN_P(key), index)) {
			slot = zend_hash_index_add_ptr(&g->tasks, index, t);
			ZVAL_LONG(&t->key, (zend_long) index);
		} else {
			slot = zend_hash_add_ptr(&g->tasks, Z_STR_P(key), t);
			ZVAL_COPY(&t->key, key);
		}
	}
	if (slot == NULL) {
		t->removed = true;
		async__tg_task_release(t);
		return NULL;
	}
	t->seq = g->next_seq++;
	return t;
}

/* Out of the group for good (a TaskSet delivered it, or it never started). */

static bool tg_key_exists(async_task_group_t *g, zval *key)
{
	if (Z_TYPE_P(key) == IS_LONG) {
		return zend_hash_index_exists(&g->tasks, Z_LVAL_P(key));
	}
	return zend_symtable_exists(&g->tasks, Z_STR_P(key));
}

/* [result, null] or [null, error]: what iteration yields per task. */

/* ---------------------------------------------------------------------------------------------
 * The group's scope: a child of the scope the group was created in (or of the one given). Tasks
 * run in it, so coroutines they spawn belong to the group too and cancelling the group cancels
 * the whole subtree. The group holds a reference; the scope is disposed when the group is gone
 * (or cancelled) and the last coroutine has finished. Its safe flag is inherited as for any child
 * scope; the group's own cancellations never honour it (they cancel, they do not zombify).
 * ------------------------------------------------------------------------------------------- */

static void tg_scope_cancelled(async_task_group_t *g);

/* Listens to the group scope: a cancellation from outside (the parent scope was cancelled, or
 * fail-together) cancels the group; disposal makes it "completed". */
typedef struct {
	zend_async_event_callback_t base;
	async_task_group_t *group; /* weak: unsubscribed when the group is freed */
} tg_scope_listener_t;

static void tg_scope_notified(zend_async_event_t *event, zend_async_event_callback_t *callback,
	void *result, zend_object *exception)
{
	async_task_group_t *g = ((tg_scope_listener_t *) callback)->group;
	async_scope_notice_t notice = result ? *(const async_scope_notice_t *) result : ASYNC_SCOPE_DISPOSED;
	if (g == NULL) {
		return;
	}
	if (notice == ASYNC_SCOPE_CANCELLED) {
		tg_scope_cancelled(g);
	} else if (notice == ASYNC_SCOPE_DISPOSED) {
		g->disposed = true;
		tg_scope_cancelled(g);
	}
}

static bool tg_scope_init(async_task_group_t *g, zend_async_scope_t *parent)
{
	if (parent == NULL || ASYNC_SCOPE(parent)->disposed) {
		async__throw(async__ce_async_exception, "Cannot create a %s in a disposed Scope", TG_NAME(g));
		return false;
	}
	g->scope = async__scope_new(parent);
	g->parent_scope = parent;
	async__scope_add_ref(parent);
	tg_scope_listener_t *l = (tg_scope_listener_t *) zend_async_event_callback_new(tg_scope_notified,
		sizeof(tg_scope_listener_t));
	l->group = g;
	g->scope->event.add_callback(&g->scope->event, &l->base);
	g->scope_listener = &l->base;
	return true;
}

static void tg_scope_free(async_task_group_t *g)
{
	if (g->scope_listener != NULL) {
		((tg_scope_listener_t *) g->scope_listener)->group = NULL;
		g->scope->event.del_callback(&g->scope->event, g->scope_listener);
		ZEND_ASYNC_EVENT_CALLBACK_RELEASE(g->scope_listener);
		g->scope_listener = NULL;
	}
	if (g->scope != NULL) {
		zend_async_scope_t *scope = g->scope;
		g->scope = NULL;
		async__scope_close(scope); /* nobody spawns into it any more */
		async__scope_release(scope);
	}
	if (g->parent_scope != NULL) {
		async__scope_release(g->parent_scope);
		g->parent_scope = NULL;
	}
}

/* Is the current coroutine inside the group's scope (a task, or something a task spawned)? */
static bool tg_scope_contains_current(async_task_group_t *g)
{
	zend_coroutine_t *co = ZEND_ASYNC_G(coroutine);
	for (zend_async_scope_t *s = co ? co->scope : NULL; s != NULL; s = s->parent_scope) {
		if (s == g->scope) {
			return true;
		}
	}
	return false;
}

static zend_coroutine_t *tg_spawn_coroutine(async_task_group_t *g, zend_fcall_t *fcall)
{
	zend_coroutine_t *co = async__spawn(g->scope, NULL, ZEND_COROUTINE_NORMAL);
	if (co == NULL) {
		zend_fcall_release(fcall);
		return NULL;
	}
	if (ZEND_COROUTINE_IS_FINISHED(co)) {
		zend_fcall_release(fcall); /* cancelled at once (graceful shutdown) */
	} else {
		co->fcall = fcall;
	}
	return co;
}

/* Cancels the group's scope (its subtree: tasks and what they spawned) and then each task still
 * running: the scope may have been cancelled before, when a safe scope only zombified them.
 * The coroutines are collected first: one that had not started completes inside the cancel,
 * which settles its task and changes the group. */
static zend_coroutine_t **tg_running_list(async_task_group_t *g, uint32_t *count)
{
	zend_coroutine_t **list = safe_emalloc(g->running, sizeof(*list), 0);
	uint32_t n = 0;
	tg_task_t *t;
	ZEND_HASH_FOREACH_PTR(&g->tasks, t) {
		if (t->state == TASK_RUNNING && n < g->running) {
			ZEND_ASYNC_EVENT_ADD_REF(&t->coroutine->event);
			list[n++] = t->coroutine;
		}
	} ZEND_HASH_FOREACH_END();
	*count = n;
	return list;
}

static void tg_cancel_running(async_task_group_t *g, zend_object *error)
{
	uint32_t n = 0;
	zend_coroutine_t **list = g->running != 0 ? tg_running_list(g, &n) : NULL;
	/* Tasks that have not started first: their cancellation is only requested, so they complete
	 * (and the group finishes) when the scheduler reaches them, not inside cancel(). */
	for (uint32_t i = 0; i < n; i++) {
		if (!ZEND_COROUTINE_IS_STARTED(list[i])) {
			async__coroutine_request_cancel(list[i], error, false);
		}
	}
	if (g->scope != NULL) {
		async__scope_cancel(g->scope, error, false);
	}
	for (uint32_t i = 0; i < n; i++) {
		ZEND_ASYNC_CANCEL(list[i], error, false);
		ZEND_ASYNC_EVENT_RELEASE(&list[i]->event);
	}
	if (list != NULL) {
		efree(list);
	}
}

/* finally() handlers run in a coroutine of the scope the group was created in (the group's own
 * is closed by then), or of the main scope if that one is closed too. */
static zend_coroutine_t *tg_spawn_helper(async_task_group_t *g)
{
	zend_async_scope_t *scope = g->parent_scope;
	if (scope == NULL || async__scope_refuses_spawn(scope)) {
		scope = async__scope_main();
	}
	return async__spawn(scope, NULL, ZEND_COROUTINE_NORMAL);
}

/* Spec §8.2.6: unhandled task errors of a destroyed group go the way an unhandled coroutine
 * error goes, from the group's scope up (see async__scope_propagate_error); past the main scope
 * they are the scheduler's. Takes over the reference to `exception`. */
static void tg_scope_error(async_task_group_t *g, zend_object *exception)
{
	if (g->scope == NULL || !async__scope_propagate_error(g->scope, g->parent_scope, NULL, &exception)) {
		async__scheduler_unhandled_exception(NULL, exception);
	}
	OBJ_RELEASE(exception);
}

/* ---------------------------------------------------------------------------------------------
 * Starting tasks
 * ------------------------------------------------------------------------------------------- */

/* Starts a task's coroutine. False with an exception when the spawn failed. */
static bool tg_task_start(async_task_group_t *g, tg_task_t *t)
{
	zend_fcall_t *fcall = t->fcall;
	t->fcall = NULL;
	zend_coroutine_t *co = tg_spawn_coroutine(g, fcall);
	if (co == NULL) {
		return false;
	}
	t->state = TASK_RUNNING;
	t->coroutine = co; /* the handle reference */
	g->running++;
	if (ZEND_COROUTINE_IS_FINISHED(co)) {
		ZEND_ASYNC_EVENT_SET_EXCEPTION_HANDLED(&co->event);
		tg_task_settle(g, t, &co->result, co->exception);
		return true;
	}
	/* The group catches the task's error: declared now, marked handled when it arrives. */
	ZEND_ASYNC_EVENT_SET_EXC_CAUGHT(&co->event);
	co->event.add_callback(&co->event, &t->cb);
	return true;
}

static zend_always_inline bool tg_has_slot(async_task_group_t *g)
{
	return g->concurrency == 0 || g->running < g->concurrency;
}

/* With a limit and a bounded queue, spawn() must wait for room. */
static zend_always_inline bool tg_queue_full(async_task_group_t *g)
{
	return !tg_has_slot(g) && g->queue_limit != 0 && g->queued >= g->queue_limit;
}

static void tg_wake(async_task_group_t *g, tg_waiter_kind kind);

/* Starts queued tasks while there are free slots. A task whose coroutine cannot be created
 * settles with the reason (there is no caller to throw to). */
static void tg_pump(async_task_group_t *g)
{
	if (g->pumping || EG(exception) != NULL) {
		/* A task settled synchronously inside the loop below: the loop goes on. With an exception
		 * pending, a failed spawn could not be told apart: the next settle starts them. */
		return;
	}
	g->pumping = true;
	bool started = false;
	while (g->queue.first != NULL && tg_has_slot(g) && !g->cancelled) {
		tg_task_t *t = FIRST_TASK(&g->queue);
		async__tg_list_remove(&g->queue, t);
		g->queued--;
		started = true;
		async__tg_task_addref(t);
		if (!tg_task_start(g, t)) {
			zend_object *error = EG(exception);
			if (error != NULL) {
				GC_ADDREF(error);
				zend_clear_exception();
			} else {
				error = async__new_exception(async__ce_async_exception, "The task's coroutine could not be created");
			}
			g->queued++; /* tg_task_settle counts it out of the queue */
			tg_task_settle(g, t, NULL, error);
			OBJ_RELEASE(error);
		}
		async__tg_task_release(t);
	}
	g->pumping = false;
	if (started) {
		tg_wake(g, WAIT_PRODUCER);
	}
}

/* ---------------------------------------------------------------------------------------------
 * Waiters: parked producers and iterators
 * ------------------------------------------------------------------------------------------- */

/* Only a marker: waiters are in the group's list, never in the callback vector. */
static void tg_waiter_notify(zend_async_event_t *event, zend_async_event_callback_t *callback,
	void *result, zend_object *exception)
{
}

#define TG_IS_WAITER(cb) ((cb)->callback == tg_waiter_notify)

static void tg_waiter_unlink(async_task_group_t *g, tg_waiter_t *w)
{
	async_list_remove(&g->waiters, &w->link);
	w->linked = false;
}

static void tg_wake(async_task_group_t *g, tg_waiter_kind kind)
{
	async_list_node_t *n = g->waiters.first;
	while (n != NULL) {
		async_list_node_t *next = n->next;
		tg_waiter_t *w = WAITER_OF(n);
		if (w->kind == kind) {
			tg_waiter_unlink(g, w);
			zend_async_waker_callback_resolve(TG_EVENT(g), &w->cb.base, NULL, NULL);
			zend_async_event_callback_unref(&w->cb.base, TG_EVENT(g));
		}
		n = next;
	}
}

/* Parks the current coroutine until tg_wake(kind) (or a cancellation). Launches the scheduler at
 * top level, like await(). False with an exception. */
bool async__tg_park(async_task_group_t *g, tg_waiter_kind kind)
{
	zend_coroutine_t *co = async__wait_begin(NULL, g->is_set ? "wait on a TaskSet" : "wait on a TaskGroup");
	if (co == NULL) {
		return false;
	}
	tg_waiter_t *w = (tg_waiter_t *) zend_async_coroutine_callback_new(co, tg_waiter_notify, sizeof(tg_waiter_t));
	w->kind = kind;
	bool ok = async__wait_on(co, TG_EVENT(g), false, NULL, &w->cb) && async__wait_suspend(co);
	async__wait_end(co);
	return ok;
}

/* ---------------------------------------------------------------------------------------------
 * Settling and completion
 * ------------------------------------------------------------------------------------------- */

static void tg_task_settle(async_task_group_t *g, tg_task_t *t, zval *result, zend_object *error)
{
	if (t->state != TASK_QUEUED && t->state != TASK_RUNNING) {
		return;
	}
	async__tg_task_addref(t);
	tg_task_state was = t->state;
	if (error != NULL) {
		t->state = TASK_ERROR;
		GC_ADDREF(error);
		t->error = error;
	} else {
		t->state = TASK_OK;
		if (result != NULL) {
			ZVAL_COPY_DEREF(&t->result, result);
		}
	}
	if (was == TASK_QUEUED) {
		ZEND_ASSERT(g->queued > 0 && t->coroutine == NULL);
		async__tg_list_remove(&g->queue, t);
		g->queued--;
		zend_fcall_release(t->fcall);
		t->fcall = NULL;
	} else {
		ZEND_ASSERT(g->running > 0 && t->coroutine != NULL && "a running task holds its coroutine");
		g->running--;
		zend_coroutine_t *co = t->coroutine;
		t->coroutine = NULL;
		ZEND_ASYNC_EVENT_RELEASE(&co->event);
	}
	if (!t->removed) {
		list_append(&g->settled, t);
	}

	tg_pump(g);
	async__tg_deliver(g, t);
	tg_wake(g, WAIT_ITERATOR);
	async__tg_join_starve(g);
	tg_check_complete(g);
	async__tg_task_release(t);
}

/* The task's coroutine finished. Its error is the group's from now on. */
static void tg_task_done(zend_async_event_t *event, zend_async_event_callback_t *callback,
	void *result, zend_object *exception)
{
	tg_task_t *t = (tg_task_t *) callback;
	if (exception != NULL) {
		ZEND_ASYNC_EVENT_SET_EXCEPTION_HANDLED(event);
	}
	async__tg_task_addref(t);
	event->del_callback(event, callback);
	if (t->group != NULL && t->state == TASK_RUNNING && t->coroutine == (zend_coroutine_t *) event) {
		tg_task_settle(t->group, t, (zval *) result, exception);
	}
	async__tg_task_release(t);
}

/* Queued tasks never start: they settle with the cancellation. */
static void tg_drop_queue(async_task_group_t *g, zend_object *error)
{
	while (g->queue.first != NULL) {
		tg_task_t *t = FIRST_TASK(&g->queue);
		async__tg_task_addref(t);
		tg_task_settle(g, t, NULL, error);
		async__tg_task_release(t);
	}
}

/* Calls the finally handlers with the group. Every handler runs; one error is rethrown as is,
 * several together in a CompositeException. exit() stops at once. */
static void tg_call_finally(async_task_group_t *g, zend_array *handlers)
{
	zval arg, retval, *handler;
	HashTable *errors = NULL;
	ZVAL_OBJ(&arg, &g->std);
	ZEND_HASH_FOREACH_VAL(handlers, handler) {
		ZVAL_UNDEF(&retval);
		call_user_function(NULL, NULL, handler, &retval, 1, &arg);
		zval_ptr_dtor(&retval);
		if (EG(exception) == NULL) {
			continue;
		}
		if (zend_is_unwind_exit(EG(exception)) || zend_is_graceful_exit(EG(exception))) {
			break;
		}
		if (errors == NULL) {
			errors = zend_new_array(1);
		}
		zval ex;
		ZVAL_OBJ(&ex, EG(exception));
		GC_ADDREF(EG(exception));
		zend_clear_exception();
		zend_hash_next_index_insert(errors, &ex);
	} ZEND_HASH_FOREACH_END();

	if (errors == NULL || EG(exception) != NULL) {
		if (errors) {
			zend_array_release(errors);
		}
		return;
	}
	uint32_t n = zend_hash_num_elements(errors);
	if (n == 1) {
		zval *only = zend_hash_index_find(errors, 0);
		Z_ADDREF_P(only);
		zend_throw_exception_internal(Z_OBJ_P(only));
	} else {
		zend_throw_exception_internal(async__tg_composite(errors, "%u finally handlers of the %s failed", n, TG_NAME(g)));
	}
	zend_array_release(errors);
}

typedef struct {
	zend_async_event_callback_t base; /* subscribed to the coroutine that runs the handlers */
	async_task_group_t *group;        /* one reference to the object */
	zend_array *handlers;
} tg_finally_t;

static void tg_finally_clear(tg_finally_t *f)
{
	if (f->handlers) {
		zend_array_release(f->handlers);
		f->handlers = NULL;
	}
	if (f->group) {
		async_task_group_t *g = f->group;
		f->group = NULL;
		OBJ_RELEASE(&g->std);
	}
}

static void tg_finally_entry(void)
{
	tg_finally_t *f = ZEND_ASYNC_CURRENT_COROUTINE->extended_data;
	tg_call_finally(f->group, f->handlers);
}

static void tg_finally_done(zend_async_event_t *event, zend_async_event_callback_t *callback,
	void *result, zend_object *exception)
{
	tg_finally_clear((tg_finally_t *) callback);
}

static void tg_finally_dispose(zend_async_event_callback_t *callback, zend_async_event_t *event)
{
	tg_finally_clear((tg_finally_t *) callback);
	efree(callback);
}

/* The group completed: its finally handlers are user code, so they run in a coroutine of their
 * own (completion may come from a finishing coroutine or a reactor callback). */
static void tg_finally_spawn(async_task_group_t *g)
{
	zend_array *handlers = g->finally_handlers;
	g->finally_handlers = NULL;
	zend_coroutine_t *co = tg_spawn_helper(g);
	if (co == NULL) {
		zend_array_release(handlers); /* the spawn's exception says why */
		return;
	}
	if (ZEND_COROUTINE_IS_FINISHED(co)) {
		zend_array_release(handlers); /* cancelled at once: a graceful shutdown */
	} else {
		tg_finally_t *f = (tg_finally_t *) zend_async_event_callback_new(tg_finally_done, sizeof(tg_finally_t));
		f->base.dispose = tg_finally_dispose;
		f->group = g;
		GC_ADDREF(&g->std);
		f->handlers = handlers;
		co->internal_entry = tg_finally_entry;
		co->extended_data = f;
		co->event.add_callback(&co->event, &f->base);
		ZEND_ASYNC_EVENT_CALLBACK_RELEASE(&f->base);
	}
	ZEND_ASYNC_EVENT_RELEASE(&co->event);
}

/* Closed, nothing queued, nothing running: the event fires once with the results array. */
static void tg_check_complete(async_task_group_t *g)
{
	if (!g->closed || TG_UNSETTLED(g) != 0 || TG_COMPLETE(g)) {
		return;
	}
	async__tg_build_results(g, &g->completion);
	ZEND_ASYNC_CALLBACKS_NOTIFY_AND_CLOSE(TG_EVENT(g), &g->completion, NULL);
	tg_wake(g, WAIT_ITERATOR);
	tg_wake(g, WAIT_PRODUCER);
	if (g->finally_handlers != NULL && !g->destroyed) {
		tg_finally_spawn(g);
	}
}

/* close() and the ways it is implied. */
static void tg_close(async_task_group_t *g)
{
	g->closed = true;
	tg_wake(g, WAIT_PRODUCER);
	tg_wake(g, WAIT_ITERATOR);
	tg_check_complete(g);
}

/* cancel(), dispose(), destruction: queued tasks settle with `error`, running ones are
 * cancelled with it. */
static void tg_cancel(async_task_group_t *g, zend_object *error)
{
	g->closed = true;
	g->cancelled = true;
	tg_drop_queue(g, error);
	tg_wake(g, WAIT_PRODUCER);
	tg_cancel_running(g, error);
	tg_close(g);
}

/* The group's scope was cancelled from outside (its parent, or fail-together): the tasks are being
 * cancelled by the scope; the group closes and its queued tasks never start. */
static void tg_scope_cancelled(async_task_group_t *g)
{
	if (g->cancelled) {
		return;
	}
	g->closed = true;
	g->cancelled = true;
	zend_object *error = async__new_exception(async__ce_async_cancellation, "Scope was cancelled");
	tg_drop_queue(g, error);
	OBJ_RELEASE(error);
	tg_close(g);
}

/* ---------------------------------------------------------------------------------------------
 * Event methods
 * ------------------------------------------------------------------------------------------- */

static bool tg_add_callback(zend_async_event_t *event, zend_async_event_callback_t *callback)
{
	if (!TG_IS_WAITER(callback)) {
		return zend_async_callbacks_push(event, callback);
	}
	async_task_group_t *g = (async_task_group_t *) event;
	tg_waiter_t *w = (tg_waiter_t *) callback;
	async_list_append(&g->waiters, &w->link);
	w->linked = true;
	callback->ref_count++;
	return true;
}

static bool tg_del_callback(zend_async_event_t *event, zend_async_event_callback_t *callback)
{
	if (!TG_IS_WAITER(callback)) {
		return zend_async_callbacks_remove(event, callback);
	}
	tg_waiter_t *w = (tg_waiter_t *) callback;
	if (!w->linked) {
		return false;
	}
	tg_waiter_unlink((async_task_group_t *) event, w);
	zend_async_event_callback_unref(callback, event);
	return true;
}

/* A completed group replays its results array; a pending one has nothing to replay. */
static bool tg_replay(zend_async_event_t *event, zend_async_event_callback_t *callback,
	zval *result, zend_object **exception)
{
	async_task_group_t *g = (async_task_group_t *) event;
	if (!TG_COMPLETE(g)) {
		return false;
	}
	return zend_async_replay_stored(event, callback, &g->completion, NULL, result, exception);
}

static bool tg_event_dispose(zend_async_event_t *event)
{
	OBJ_RELEASE(ZEND_ASYNC_EVENT_TO_OBJECT(event));
	return true;
}

static zend_string *tg_info(zend_async_event_t *event)
{
	async_task_group_t *g = (async_task_group_t *) event;
	return zend_strpprintf(0, "%s(tasks=%u, queued=%u, running=%u%s)", TG_NAME(g),
		zend_hash_num_elements(&g->tasks), g->queued, g->running, g->closed ? ", closed" : "");
}

/* ---------------------------------------------------------------------------------------------
 * Object lifecycle
 * ------------------------------------------------------------------------------------------- */

static const async_event_methods_t tg_event_methods = {
	.add_callback = tg_add_callback,
	.del_callback = tg_del_callback,
	.replay = tg_replay,
	.dispose = tg_event_dispose,
	.info = tg_info,
};

static zend_object *tg_create_object(zend_class_entry *ce)
{
	async_task_group_t *g = async__object_new(sizeof(async_task_group_t), XtOffsetOf(async_task_group_t, std), ce,
		&task_group_handlers);
	g->is_set = ce == async__ce_task_set;
	zend_hash_init(&g->tasks, 8, NULL, tg_task_table_dtor, 0);
	ZVAL_UNDEF(&g->completion);

	async__event_init_in_object(TG_EVENT(g), &tg_event_methods, XtOffsetOf(async_task_group_t, std),
		ZEND_ASYNC_EVENT_F_ZVAL_RESULT);
	return &g->std;
}

/* The errors nobody observed (cancellations never count), as one CompositeException. */
static zend_object *tg_unhandled_errors(async_task_group_t *g)
{
	HashTable *errors = NULL;
	tg_task_t *t;
	ZEND_HASH_FOREACH_PTR(&g->tasks, t) {
		if (t->state == TASK_ERROR && !t->handled && !async__is_cancellation(t->error)) {
			if (errors == NULL) {
				errors = zend_new_array(1);
			}
			zval zv;
			ZVAL_OBJ_COPY(&zv, t->error);
			async__tg_array_set(errors, &t->key, &zv);
			t->handled = true;
		}
	} ZEND_HASH_FOREACH_END();
	if (errors == NULL) {
		return NULL;
	}
	uint32_t n = zend_hash_num_elements(errors);
	zend_object *ex = async__tg_composite(errors, "%s destroyed with %u unhandled task error%s", TG_NAME(g), n, async__tg_plural(n));
	zend_array_release(errors);
	return ex;
}

/* Pending joins can no longer be served once the group is gone. */
static void tg_reject_joins(async_task_group_t *g, zend_object *error)
{
	while (g->joins.first != NULL) {
		async__tg_join_finish(g, FIRST_JOIN(g), NULL, error);
	}
}

/* Destruction (spec §8.9): parked producers wake (and fail), unhandled errors go to the exception
 * path, queued tasks never start and live coroutines are cancelled. finally() handlers of a group
 * destroyed before it completed do not run: they would need the group. */
static void tg_dtor_obj(zend_object *object)
{
	zend_objects_destroy_object(object);
	async_task_group_t *g = TG_FROM_OBJ(object);
	if (!g->constructed || g->destroyed) {
		return;
	}
	g->destroyed = true;
	g->disposed = true;

	/* Destroyed while an exception unwinds the stack: handlers must run, and that exception must
	 * come out again (as a destructor's would), with anything thrown here chained to it. */
	zend_object *pending = EG(exception);
	const zend_op *pending_opline = EG(opline_before_exception);
	EG(exception) = NULL;

	zend_object *unhandled = tg_unhandled_errors(g);
	bool live = !TG_COMPLETE(g) || g->joins.first != NULL
		|| (g->scope != NULL && ASYNC_SCOPE(g->scope)->tree_total > 0);
	if (live && !CG(unclean_shutdown)) {
		/* Also when the group had completed: coroutines its tasks spawned may still run. */
		zend_object *error = async__new_exception(async__ce_async_cancellation,
			"Scope is being disposed due to TaskGroup destruction");
		tg_cancel(g, error);
		tg_reject_joins(g, error);
		OBJ_RELEASE(error);
	}
	tg_wake(g, WAIT_PRODUCER);
	tg_wake(g, WAIT_ITERATOR);
	if (unhandled != NULL) {
		tg_scope_error(g, unhandled);
	}

	if (pending != NULL) {
		EG(opline_before_exception) = pending_opline;
		if (EG(exception) != NULL) {
			zend_exception_set_previous(EG(exception), pending);
		} else {
			EG(exception) = pending;
		}
	}
}

static void tg_free_obj(zend_object *object)
{
	async_task_group_t *g = TG_FROM_OBJ(object);

	while (g->joins.first != NULL) {
		tg_join_t *j = FIRST_JOIN(g);
		async__tg_join_unlink(g, j);
		ZEND_ASYNC_EVENT_RELEASE(&j->future->event);
		efree(j);
	}
	/* Coroutines that still run report to nobody from now on. */
	tg_task_t *t;
	ZEND_HASH_FOREACH_PTR(&g->tasks, t) {
		t->group = NULL;
		t->linked = false;
		t->link.prev = t->link.next = NULL;
		if (t->coroutine != NULL) {
			zend_coroutine_t *co = t->coroutine;
			zend_object *obj = ZEND_ASYNC_EVENT_TO_OBJECT(&co->event);
			t->coroutine = NULL;
			if (!(OBJ_FLAGS(obj) & IS_OBJ_FREE_CALLED)) {
				co->event.del_callback(&co->event, &t->cb);
			}
			OBJ_RELEASE(obj);
		}
	} ZEND_HASH_FOREACH_END();
	memset(&g->queue, 0, sizeof(g->queue));
	memset(&g->settled, 0, sizeof(g->settled));
	zend_hash_destroy(&g->tasks);

	while (g->waiters.first != NULL) {
		tg_waiter_t *w = WAITER_OF(g->waiters.first);
		tg_waiter_unlink(g, w);
		zend_async_event_callback_unref(&w->cb.base, TG_EVENT(g));
	}
	zend_async_callbacks_free(TG_EVENT(g));
	zval_ptr_dtor(&g->completion);
	ZVAL_UNDEF(&g->completion);
	if (g->finally_handlers) {
		zend_array_release(g->finally_handlers);
		g->finally_handlers = NULL;
	}
	tg_scope_free(g);
	if (g->scope_obj != NULL) {
		zend_object *scope = g->scope_obj;
		g->scope_obj = NULL;
		OBJ_RELEASE(scope);
	}
	zend_object_std_dtor(object);
}

static HashTable *tg_get_gc(zend_object *object, zval **table, int *num)
{
	async_task_group_t *g = TG_FROM_OBJ(object);
	zend_get_gc_buffer *buf = zend_get_gc_buffer_create();
	tg_task_t *t;
	ZEND_HASH_FOREACH_PTR(&g->tasks, t) {
		if (t->fcall) {
			zend_get_gc_buffer_add_zval(buf, &t->fcall->fci.function_name);
			for (uint32_t i = 0; i < t->fcall->fci.param_count; i++) {
				zend_get_gc_buffer_add_zval(buf, &t->fcall->fci.params[i]);
			}
			if (t->fcall->fci.named_params) {
				zval named;
				ZVAL_ARR(&named, t->fcall->fci.named_params);
				zend_get_gc_buffer_add_zval(buf, &named);
			}
		}
		zend_get_gc_buffer_add_zval(buf, &t->result);
		if (t->error) {
			zend_get_gc_buffer_add_obj(buf, t->error);
		}
		if (t->coroutine) {
			zend_get_gc_buffer_add_obj(buf, ZEND_ASYNC_EVENT_TO_OBJECT(&t->coroutine->event));
		}
	} ZEND_HASH_FOREACH_END();
	for (async_list_node_t *n = g->joins.first; n != NULL; n = n->next) {
		tg_join_t *j = JOIN_OF(n);
		zend_get_gc_buffer_add_obj(buf, ZEND_ASYNC_EVENT_TO_OBJECT(&j->future->event));
	}
	if (g->finally_handlers) {
		zval *zv;
		ZEND_HASH_FOREACH_VAL(g->finally_handlers, zv) {
			zend_get_gc_buffer_add_zval(buf, zv);
		} ZEND_HASH_FOREACH_END();
	}
	zend_get_gc_buffer_add_zval(buf, &g->completion);
	if (g->scope_obj != NULL) {
		zend_get_gc_buffer_add_obj(buf, g->scope_obj);
	}
	zend_get_gc_buffer_use(buf, table, num);
	return NULL;
}

/* ---------------------------------------------------------------------------------------------
 * foreach over a TaskGroup / TaskSet: key => [result, null] | [null, error], in settle order,
 * suspending for the next settled task; it ends when the group is closed and everything has been
 * yielded. A TaskSet's iteration consumes: yielded entries leave the set.
 * ------------------------------------------------------------------------------------------- */

static void tg_iterator_fetch(async_iterator_t *iter)
{
	async_task_group_t *g = TG_FROM_OBJ(Z_OBJ(iter->it.data));
	tg_task_t *last = iter->state; /* TaskGroup: the last task yielded (one reference); the list only grows */
	for (;;) {
		tg_task_t *t = g->is_set || last == NULL ? FIRST_TASK(&g->settled) : NEXT_TASK(last);
		if (t != NULL) {
			async__tg_task_pair(t, &iter->current);
			ZVAL_COPY(&iter->key, &t->key);
			if (g->is_set) {
				async__tg_task_remove(g, t);
			} else {
				async__tg_task_addref(t);
				if (last) {
					async__tg_task_release(last);
				}
				iter->state = t;
			}
			return;
		}
		if (g->closed && TG_UNSETTLED(g) == 0) {
			return; /* drained */
		}
		if (!async__tg_park(g, WAIT_ITERATOR)) {
			return; /* the exception goes to the engine */
		}
	}
}

static void tg_iterator_free_state(async_iterator_t *iter)
{
	if (iter->state != NULL) {
		async__tg_task_release(iter->state);
	}
}

/* per-process: constant */
static const async_iterator_ops_t tg_iterator_ops = {
	.fetch = tg_iterator_fetch,
	.free_state = tg_iterator_free_state,
	.by_ref_error = "An iterator cannot be used with foreach by reference",
};

static zend_object_iterator *tg_get_iterator(zend_class_entry *ce, zval *object, int by_ref)
{
	return async__iterator_new(object, by_ref, &tg_iterator_ops);
}

/* ---------------------------------------------------------------------------------------------
 * Methods
 * ------------------------------------------------------------------------------------------- */

#define THIS_GROUP() TG_FROM_OBJ(Z_OBJ_P(ZEND_THIS))

ZEND_METHOD(Async_TaskGroup, __construct)
{
	zend_long concurrency = 0, queue_limit = 0;
	bool concurrency_null = true, queue_limit_null = true;
	zend_object *scope = NULL;
	ZEND_PARSE_PARAMETERS_START(0, 3)
		Z_PARAM_OPTIONAL
		Z_PARAM_LONG_OR_NULL(concurrency, concurrency_null)
		Z_PARAM_LONG_OR_NULL(queue_limit, queue_limit_null)
		Z_PARAM_OBJ_OF_CLASS_OR_NULL(scope, async__ce_scope)
	ZEND_PARSE_PARAMETERS_END();

	async_task_group_t *g = THIS_GROUP();
	if (g->constructed) {
		zend_throw_error(NULL, "Cannot call %s::__construct() twice", ZSTR_VAL(g->std.ce->name));
		RETURN_THROWS();
	}
	/* Both limits are uint32_t, as in TrueAsync; concurrency 0 means "unlimited", like null. */
	if (!concurrency_null && (concurrency < 0 || concurrency > UINT32_MAX)) {
		zend_argument_value_error(1, "must be between 0 and %u", UINT32_MAX);
		RETURN_THROWS();
	}
	if (!queue_limit_null && (queue_limit < 0 || queue_limit > UINT32_MAX)) {
		zend_argument_value_error(2, "must be between 0 and %u", UINT32_MAX);
		RETURN_THROWS();
	}
	if (!tg_scope_init(g, scope != NULL ? async__scope_from_object(scope) : async__scope_current())) {
		RETURN_THROWS();
	}
	if (scope != NULL) {
		/* `new TaskGroup(scope: new Scope())`: the object's end would dispose the scope under
		 * the group's tasks (TrueAsync keeps it too) */
		GC_ADDREF(scope);
		g->scope_obj = scope;
	}
	g->concurrency = concurrency_null ? 0 : (uint32_t) concurrency;
	if (g->concurrency == 0) {
		g->queue_limit = 0;
	} else if (queue_limit_null) {
		g->queue_limit = g->concurrency > UINT32_MAX / 2 ? UINT32_MAX : g->concurrency * 2;
	} else {
		g->queue_limit = (uint32_t) queue_limit;
	}
	g->constructed = true;
}

static void tg_throw_duplicate(async_task_group_t *g, zval *key)
{
	if (Z_TYPE_P(key) == IS_LONG) {
		async__throw(async__ce_async_exception, "Duplicate key " ZEND_LONG_FMT " in %s", Z_LVAL_P(key), TG_NAME(g));
	} else {
		async__throw(async__ce_async_exception, "Duplicate key \"%s\" in %s", Z_STRVAL_P(key), TG_NAME(g));
	}
}

/* spawn() and spawnWithKey(): refused once closed; waits while the queue is full. */
static void tg_spawn(async_task_group_t *g, zval *key, async_task_args_t *task)
{
	zend_fcall_t *fcall = async__task_fcall(task);
	for (;;) {
		/* Closed is checked first: a group that is closed and empty is also complete, and
		 * "closed" is the reason code matches on (TrueAsync words it so). */
		if (g->closed) {
			async__throw(async__ce_async_exception, "Cannot spawn tasks on a closed %s", TG_NAME(g));
			goto failed;
		}
		if (TG_COMPLETE(g) || g->disposed) {
			async__throw(async__ce_async_exception, "Cannot spawn tasks on a completed %s", TG_NAME(g));
			goto failed;
		}
		if (key != NULL && tg_key_exists(g, key)) {
			tg_throw_duplicate(g, key);
			goto failed;
		}
		if (!tg_queue_full(g)) {
			break;
		}
		if (!async__tg_park(g, WAIT_PRODUCER)) {
			goto failed;
		}
	}

	tg_task_t *t = tg_task_new(g, key);
	if (t == NULL) {
		async__throw(async__ce_async_exception, "Cannot add a task to the %s: no free integer key", TG_NAME(g));
		goto failed;
	}
	t->fcall = fcall;
	if (g->queue.first == NULL && tg_has_slot(g)) {
		async__tg_task_addref(t);
		if (!tg_task_start(g, t)) {
			async__tg_task_remove(g, t); /* the spawn's exception tells the caller */
		}
		async__tg_task_release(t);
	} else {
		list_append(&g->queue, t);
		g->queued++;
	}
	return;

failed:
	zend_fcall_release(fcall);
}

ZEND_METHOD(Async_TaskGroup, spawn)
{
	async_task_args_t task;
	ZEND_PARSE_PARAMETERS_START(1, -1)
		ASYNC_PARAM_TASK(task)
	ZEND_PARSE_PARAMETERS_END();

	tg_spawn(THIS_GROUP(), NULL, &task);
}

ZEND_METHOD(Async_TaskGroup, spawnWithKey)
{
	zend_string *key_str = NULL;
	zend_long key_long = 0;
	async_task_args_t task;
	ZEND_PARSE_PARAMETERS_START(2, -1)
		Z_PARAM_STR_OR_LONG(key_str, key_long)
		ASYNC_PARAM_TASK(task)
	ZEND_PARSE_PARAMETERS_END();

	zval key;
	if (key_str != NULL) {
		zend_ulong index;
		if (ZEND_HANDLE_NUMERIC_STR(ZSTR_VAL(key_str), ZSTR_LEN(key_str), index)) {
			ZVAL_LONG(&key, (zend_long) index);
		} else {
			ZVAL_STR(&key, key_str);
		}
	} else {
		ZVAL_LONG(&key, key_long);
	}
	tg_spawn(THIS_GROUP(), &key, &task);
}

/* A join's Future goes to the caller at once; race() and any() refuse an empty group. */
static tg_join_t *tg_join_start(async_task_group_t *g, tg_join_kind kind, zval *return_value)
{
	if (kind != JOIN_ALL && zend_hash_num_elements(&g->tasks) == 0) {
		if (kind == JOIN_RACE && !g->is_set) {
			async__throw(async__ce_async_exception, "Cannot race on an empty %s", TG_NAME(g));
		} else {
			async__throw(async__ce_async_exception, "Cannot call %s() on an empty %s", async__tg_join_method(g, kind), TG_NAME(g));
		}
		return NULL;
	}
	tg_join_t *j = async__tg_join_new(g, kind);
	RETVAL_OBJ(async__future_new_object(j->future));
	return j;
}

static void tg_all(async_task_group_t *g, bool ignore_errors, zval *return_value)
{
	tg_join_t *j = tg_join_start(g, JOIN_ALL, return_value);
	j->ignore_errors = ignore_errors;
	j->limit = g->next_seq;
	j->pending = TG_UNSETTLED(g);
	if (j->pending == 0) {
		async__tg_join_all_finish(g, j);
	} else {
		async__tg_join_link(g, j);
	}
}

static void tg_race(async_task_group_t *g, zval *return_value)
{
	tg_join_t *j = tg_join_start(g, JOIN_RACE, return_value);
	if (j == NULL) {
		return;
	}
	if (g->settled.first != NULL) {
		async__tg_join_finish_task(g, j, FIRST_TASK(&g->settled));
	} else {
		async__tg_join_link(g, j);
	}
}

static void tg_any(async_task_group_t *g, zval *return_value)
{
	tg_join_t *j = tg_join_start(g, JOIN_ANY, return_value);
	if (j == NULL) {
		return;
	}
	tg_task_t *ok = async__tg_first_success(g);
	if (ok != NULL) {
		async__tg_join_finish_task(g, j, ok);
		return;
	}
	if (TG_UNSETTLED(g) == 0) {
		async__tg_join_any_fail(g, j);
		return;
	}
	for (tg_task_t *t = FIRST_TASK(&g->settled); t != NULL; t = NEXT_TASK(t)) {
		t->handled = true; /* the errors so far are any()'s to report */
	}
	async__tg_join_link(g, j);
}

ZEND_METHOD(Async_TaskGroup, all)
{
	bool ignore_errors = false;
	ZEND_PARSE_PARAMETERS_START(0, 1)
		Z_PARAM_OPTIONAL
		Z_PARAM_BOOL(ignore_errors)
	ZEND_PARSE_PARAMETERS_END();
	tg_all(THIS_GROUP(), ignore_errors, return_value);
}

ZEND_METHOD(Async_TaskGroup, race)
{
	ZEND_PARSE_PARAMETERS_NONE();
	tg_race(THIS_GROUP(), return_value);
}

ZEND_METHOD(Async_TaskGroup, any)
{
	ZEND_PARSE_PARAMETERS_NONE();
	tg_any(THIS_GROUP(), return_value);
}

ZEND_METHOD(Async_TaskGroup, getResults)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_task_group_t *g = THIS_GROUP();
	if (TG_COMPLETE(g) && !g->is_set) {
		RETURN_COPY(&g->completion); /* a complete TaskGroup no longer changes */
	}
	async__tg_build_results(g, return_value);
}

ZEND_METHOD(Async_TaskGroup, getErrors)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async__tg_build_errors(THIS_GROUP(), return_value);
}

ZEND_METHOD(Async_TaskGroup, suppressErrors)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_task_group_t *g = THIS_GROUP();
	tg_task_t *t;
	ZEND_HASH_FOREACH_PTR(&g->tasks, t) {
		t->handled = true;
	} ZEND_HASH_FOREACH_END();
}

ZEND_METHOD(Async_TaskGroup, cancel)
{
	zend_object *error = NULL;
	ZEND_PARSE_PARAMETERS_START(0, 1)
		Z_PARAM_OPTIONAL
		Z_PARAM_OBJ_OF_CLASS_OR_NULL(error, async__ce_async_cancellation)
	ZEND_PARSE_PARAMETERS_END();

	async_task_group_t *g = THIS_GROUP();
	if (error != NULL) {
		GC_ADDREF(error);
	} else {
		char message[48];
		snprintf(message, sizeof(message), "%s was cancelled", TG_NAME(g));
		error = async__new_exception(async__ce_async_cancellation, message);
	}
	tg_cancel(g, error);
	OBJ_RELEASE(error);
}

ZEND_METHOD(Async_TaskGroup, close)
{
	ZEND_PARSE_PARAMETERS_NONE();
	tg_close(THIS_GROUP());
}

ZEND_METHOD(Async_TaskGroup, dispose)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_task_group_t *g = THIS_GROUP();
	g->disposed = true;
	char message[48];
	snprintf(message, sizeof(message), "%s was disposed", TG_NAME(g));
	zend_object *error = async__new_exception(async__ce_async_cancellation, message);
	tg_cancel(g, error);
	OBJ_RELEASE(error);
}

ZEND_METHOD(Async_TaskGroup, isFinished)
{
	ZEND_PARSE_PARAMETERS_NONE();
	RETURN_BOOL(TG_UNSETTLED(THIS_GROUP()) == 0);
}

ZEND_METHOD(Async_TaskGroup, isClosed)
{
	ZEND_PARSE_PARAMETERS_NONE();
	RETURN_BOOL(THIS_GROUP()->closed);
}

ZEND_METHOD(Async_TaskGroup, count)
{
	ZEND_PARSE_PARAMETERS_NONE();
	RETURN_LONG(zend_hash_num_elements(&THIS_GROUP()->tasks));
}

ZEND_METHOD(Async_TaskGroup, awaitCompletion)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_task_group_t *g = THIS_GROUP();
	if (!g->closed) {
		async__throw(async__ce_async_exception, "%s must be closed before calling awaitCompletion()", TG_NAME(g));
		RETURN_THROWS();
	}
	if (TG_COMPLETE(g)) {
		return;
	}
	if (!async__wait_allowed()) {
		async__wait_throw_not_allowed("await");
		RETURN_THROWS();
	}
	if (ZEND_ASYNC_G(coroutine) == NULL) {
		async__scheduler_launch();
	}
	if (tg_scope_contains_current(g)) {
		async__throw(async__ce_async_exception,
			"Cannot await completion of a %s from a coroutine that belongs to it", TG_NAME(g));
		RETURN_THROWS();
	}
	async__wait_event(TG_EVENT(g), NULL, NULL, "await");
}

ZEND_METHOD(Async_TaskGroup, finally)
{
	zval *callback;
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_OBJECT_OF_CLASS(callback, zend_ce_closure)
	ZEND_PARSE_PARAMETERS_END();

	async_task_group_t *g = THIS_GROUP();
	if (TG_COMPLETE(g)) {
		zend_array *one = zend_new_array(1);
		Z_ADDREF_P(callback);
		zend_hash_next_index_insert(one, callback);
		tg_call_finally(g, one);
		zend_array_release(one);
		return;
	}
	if (g->finally_handlers == NULL) {
		g->finally_handlers = zend_new_array(1);
	}
	Z_ADDREF_P(callback);
	zend_hash_next_index_insert(g->finally_handlers, callback);
}

ZEND_METHOD(Async_TaskGroup, getIterator)
{
	ZEND_PARSE_PARAMETERS_NONE();
	zend_create_internal_iterator_zval(return_value, ZEND_THIS);
}

/* ---------------------------------------------------------------------------------------------
 * Registration
 * ------------------------------------------------------------------------------------------- */

zend_result async__task_group_minit(void)
{
	async__ce_task_group = register_class_Async_TaskGroup(async__ce_awaitable, zend_ce_countable, zend_ce_aggregate);
	async__ce_task_group->create_object = tg_create_object;
	async__ce_task_group->get_iterator = tg_get_iterator;
	async__ce_task_set = register_class_Async_TaskSet(async__ce_awaitable, zend_ce_countable, zend_ce_aggregate);
	async__ce_task_set->create_object = tg_create_object;
	async__ce_task_set->get_iterator = tg_get_iterator;

	async__object_handlers_init(&task_group_handlers, XtOffsetOf(async_task_group_t, std), tg_dtor_obj, tg_free_obj, tg_get_gc);
	return SUCCESS;
}
