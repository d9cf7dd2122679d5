/*
 * coroutine.c — the Async\Coroutine object: its life, its switches in and out, its completion
 * and cancellation, its PHP methods. The C contexts that run coroutines' bodies are
 * core/workers.c's.
 */
#include "php_async.h"
#include "core/core.h"
#include "zend_observer.h"
#include "zend_exceptions.h"
#include "zend_closures.h"
#include "zend_builtin_functions.h"
#include "ext/standard/info.h"
#include "coroutine_arginfo.h"

zend_class_entry *async__ce_coroutine;
/* per-process: object handlers, filled once at MINIT */
static zend_object_handlers coroutine_handlers;


/* ---------------------------------------------------------------------------------------------
 * Event methods
 * ------------------------------------------------------------------------------------------- */

static bool coroutine_replay(zend_async_event_t *event, zend_async_event_callback_t *callback,
	zval *result, zend_object **exception)
{
	zend_coroutine_t *coro = (zend_coroutine_t *) event;
	return zend_async_replay_stored(event, callback, &coro->result, coro->exception, result, exception);
}

static bool coroutine_dispose(zend_async_event_t *event)
{
	OBJ_RELEASE(ZEND_ASYNC_EVENT_TO_OBJECT(event));
	return true;
}

zend_string *async__coroutine_info(zend_async_event_t *event)
{
	zend_coroutine_t *coro = (zend_coroutine_t *) event;
	char name[64];
	snprintf(name, sizeof(name), "Coroutine %u", ASYNC_CO_OBJ(ASYNC_CO_FROM_CORO(coro))->handle);
	return zend_coroutine_gen_info(coro, name);
}

/* ---------------------------------------------------------------------------------------------
 * The callable
 * ------------------------------------------------------------------------------------------- */

void async__coroutine_set_call(async_coroutine_t *co, zend_fcall_info *fci, zend_fcall_info_cache *fcc,
	zval *args, uint32_t argc, HashTable *named_args)
{
	ZEND_ASSERT(co->coro.fcall == NULL && "a coroutine runs one callable");
	if (fci->size == 0) {
		return;
	}
	zend_async_fcall_init(&co->call, fci, fcc, args, argc, named_args, co->call_args, ASYNC_CO_INLINE_ARGS);
	co->coro.fcall = &co->call;
}

/* Drops the callable: detached first, as what it releases may run code (a destructor, the GC)
 * that looks at the coroutine. */

/* ---------------------------------------------------------------------------------------------
 * Object lifecycle
 * ------------------------------------------------------------------------------------------- */

static const async_event_methods_t coroutine_event_methods = {
	.del_callback = async__coroutine_del_callback,
	.replay = coroutine_replay,
	.dispose = coroutine_dispose,
	.info = async__coroutine_info,
};

/* Inline in async__coroutine_new(), every spawn's; also the class's create_object handler. */
static zend_always_inline zend_object *coroutine_create_object(zend_class_entry *ce)
{
	/* zend_object_alloc() would zero everything before std; the callable's storage needs none. */
	async_coroutine_t *co = emalloc(sizeof(async_coroutine_t) + zend_object_properties_size(ce));
	memset(co, 0, XtOffsetOf(async_coroutine_t, call));
	zend_object_std_init(&co->std, ce);
	co->std.handlers = &coroutine_handlers;

	async__event_init_in_object(&co->coro.event, &coroutine_event_methods, XtOffsetOf(async_coroutine_t, std),
		ZEND_ASYNC_EVENT_F_ZVAL_RESULT);
	ZVAL_NULL(&co->coro.result);
	return &co->std;
}

async_coroutine_t *async__coroutine_new(void)
{
	return ASYNC_CO_FROM_OBJ(coroutine_create_object(async__ce_coroutine));
}

/* A walk of the live coroutines whose body may run PHP code (core/core.h). The coroutine at hand
 * is pinned and marked with the walk's pass number, and its successor is pinned too. After the
 * body the walk goes on from the coroutine's successor of that moment if it is still listed,
 * else from the successor pinned before the body (a not-started coroutine that a cancellation
 * finished at once), and only if both left from the head, skipping what this pass reached. So
 * nothing is visited twice, nothing live is missed, nothing is allocated, and a walk that
 * finishes every coroutine it visits stays linear. Coroutines spawned meanwhile are visited. */
static async_coroutine_t *live_walk_pin(async_coroutine_t *co, uint32_t pass)
{
	while (co != NULL && co->walk_pass == pass) {
		co = async__live_next(co);
	}
	if (co != NULL) {
		co->walk_pass = pass;
		GC_ADDREF(&co->std);
	}
	return co;
}

static async_coroutine_t *live_walk_at(async_live_walk_t *w, async_coroutine_t *co)
{
	w->co = co;
	w->after = co != NULL ? async__live_next(co) : NULL;
	if (w->after != NULL) {
		GC_ADDREF(&w->after->std);
	}
	return co;
}

async_coroutine_t *async__live_walk_first(async_live_walk_t *w)
{
	w->pass = ++ASYNC_G(walk_pass);
	return live_walk_at(w, live_walk_pin(async__live_first(), w->pass));
}

async_coroutine_t *async__live_walk_next(async_live_walk_t *w)
{
	async_coroutine_t *co = w->co, *after = w->after;
	async_coroutine_t *from = co->in_live ? async__live_next(co)
		: after != NULL && after->in_live ? after
		: async__live_first();
	async_coroutine_t *next = live_walk_pin(from, w->pass);
	/* released after pinning the next: freeing them may run destructors */
	if (after != NULL) {
		OBJ_RELEASE(&after->std);
	}
	OBJ_RELEASE(&co->std);
	return live_walk_at(w, next);
}

/* Forced unwinding at shutdown: a graceful-exit error runs the coroutine's finally blocks. */
static void coroutine_dtor_obj(zend_object *object)
{
	async_coroutine_t *co = ASYNC_CO_FROM_OBJ(object);
	zend_objects_destroy_object(object);

	if (ZEND_COROUTINE_IS_FINISHED(&co->coro) || ZEND_COROUTINE_IS_MAIN(&co->coro)) {
		if (co->coro.exception != NULL
			&& !ZEND_ASYNC_EVENT_HAS(&co->coro.event, ZEND_ASYNC_EVENT_F_EXCEPTION_HANDLED)
			&& !async__is_cancellation(co->coro.exception)) {
			/* The last handle went away and nobody observed the error (spec §8.2.3). */
			ZEND_ASYNC_EVENT_SET_EXCEPTION_HANDLED(&co->coro.event);
			async__scheduler_unhandled_exception(co, co->coro.exception);
		}
		return;
	}
	if (!ZEND_COROUTINE_IS_STARTED(&co->coro) || co->worker == NULL || CG(unclean_shutdown)) {
		return;
	}
	async__coroutine_cancel(&co->coro, zend_create_graceful_exit(), true, false);
	if (co->in_queue || co->coro.waker == NULL || co->coro.waker->status == ZEND_ASYNC_WAKER_QUEUED) {
		/* Run it now: the scheduler is gone by this point of the request. */
		GC_ADDREF(object);
		async__coroutine_start_or_resume(co);
		OBJ_RELEASE(object);
	}
}

static void coroutine_free_obj(zend_object *object)
{
	async_coroutine_t *co = ASYNC_CO_FROM_OBJ(object);

	if (co->worker != NULL) {
		/* Only after a fatal error: the C stack is dropped without unwinding. */
		co->worker->coroutine = NULL;
		async__worker_retire(co->worker, false);
		co->worker = NULL;
	}
	if (co->coro.extended_dispose != NULL) {
		co->coro.extended_dispose(&co->coro);
	}
	async__live_remove(co); /* freed unfinished, after a fatal error */
	if (co->coro.scope != NULL) { /* still in its scope: freed unfinished */
		async__scope_ops->forget_coroutine(&co->coro);
	}
	if (co->output.handlers != NULL) { /* its own ob_start() handlers, kept while switched out */
		async__output_discard(&co->output);
	}
	if (co->in_autoload != NULL) {
		async__autoload_free(&co->in_autoload);
	}
	if (co->clock != NULL) {
		async__clock_release(co->clock);
		co->clock = NULL;
	}
	if (co->coro.waker != NULL) { /* it waited at some point */
		zend_async_waker_destroy(&co->coro);
	}
	if (co->coro.event.callbacks.data != NULL) { /* awaited through the vector at some point */
		zend_async_callbacks_free(&co->coro.event);
	}
	if (co->coro.fcall != NULL) { /* never run */
		async__coroutine_release_call(co);
	}
	i_zval_ptr_dtor(&co->coro.result);
	if (co->coro.exception) {
		OBJ_RELEASE(co->coro.exception);
	}
	if (co->pending_cancel) {
		OBJ_RELEASE(co->pending_cancel);
	}
	if (co->finally_handlers) {
		zend_array_release(co->finally_handlers);
	}
	if (co->context) {
		OBJ_RELEASE(co->context);
	}
	if (co->coro.filename) {
		zend_string_release(co->coro.filename);
	}
	if (co->coro.switch_handlers) {
		efree(co->coro.switch_handlers->data);
		efree(co->coro.switch_handlers);
	}
	zend_object_std_dtor(object);
}

static HashTable *coroutine_get_gc(zend_object *object, zval **table, int *num)
{
	async_coroutine_t *co = ASYNC_CO_FROM_OBJ(object);
	zend_get_gc_buffer *buf = zend_get_gc_buffer_create();

	if (co->coro.fcall) {
		zend_get_gc_buffer_add_zval(buf, &co->coro.fcall->fci.function_name);
		for (uint32_t i = 0; i < co->coro.fcall->fci.param_count; i++) {
			zend_get_gc_buffer_add_zval(buf, &co->coro.fcall->fci.params[i]);
		}
	}
	zend_get_gc_buffer_add_zval(buf, &co->coro.result);
	if (co->coro.exception) {
		zend_get_gc_buffer_add_obj(buf, co->coro.exception);
	}
	if (co->context) {
		zend_get_gc_buffer_add_obj(buf, co->context);
	}
	if (co->finally_handlers) {
		zval *zv;
		ZEND_HASH_FOREACH_VAL(co->finally_handlers, zv) {
			zend_get_gc_buffer_add_zval(buf, zv);
		} ZEND_HASH_FOREACH_END();
	}

	/* Frames of a suspended coroutine, as zend_fiber_object_gc walks a suspended Fiber's (P20). */
	HashTable *last_sym = NULL;
	if (co->execute_data != NULL && ZEND_COROUTINE_SUSPENDED(&co->coro) && &co->coro != ZEND_ASYNC_CURRENT_COROUTINE) {
		for (zend_execute_data *ex = co->execute_data; ex != NULL && ex != co->stack_bottom; ex = ex->prev_execute_data) {
			if (ZEND_CALL_INFO(ex) & ZEND_CALL_GENERATOR) {
				continue;
			}
			HashTable *sym = zend_unfinished_execution_gc_ex(ex,
				ex->func && ZEND_USER_CODE(ex->func->type) ? ex->call : NULL, buf, false);
			if (sym) {
				if (last_sym) {
					zval *val;
					ZEND_HASH_FOREACH_VAL(last_sym, val) {
						if (Z_TYPE_P(val) == IS_INDIRECT) {
							val = Z_INDIRECT_P(val);
						}
						zend_get_gc_buffer_add_zval(buf, val);
					} ZEND_HASH_FOREACH_END();
				}
				last_sym = sym;
			}
		}
	}

	zend_get_gc_buffer_use(buf, table, num);
	return last_sym;
}

/* ---------------------------------------------------------------------------------------------
 * Switching in and out
 * ------------------------------------------------------------------------------------------- */

/* A fatal error ended the body (its worker is gone, its frames were never unwound): it is
 * finished as cancelled, so its waiters and its scope do not wait for it for ever, while the
 * fatal error goes on up to whoever runs the scheduler (the script, or the drain). */
static void coroutine_end_by_fatal(async_coroutine_t *co)
{
	if (ZEND_COROUTINE_IS_FINISHED(&co->coro)) {
		return;
	}
	co->body_done = true;
	if (co->finally_handlers != NULL) {
		zend_array_release(co->finally_handlers); /* it runs nothing more */
		co->finally_handlers = NULL;
	}
	if (co->coro.exception == NULL) {
		co->coro.exception = async__new_exception(async__ce_async_cancellation, "The coroutine ended with a fatal error");
	}
	ZEND_ASYNC_EVENT_SET_EXCEPTION_HANDLED(&co->coro.event);
	async__coroutine_finish(co);
}

/* No C stack for a coroutine's first run: it ends with an AsyncException naming the OS's reason
 * (the arena's mmap), or with the fiber API's own exception (no arena: it throws) as previous,
 * which must not stay thrown in the scheduler's context, where the next awaiter would get it. */
ZEND_COLD void async__coroutine_end_without_stack(async_coroutine_t *co, int err)
{
	zend_object *cause = EG(exception);
	if (cause != NULL) {
		GC_ADDREF(cause);
		zend_clear_exception();
	}
	char message[256];
	snprintf(message, sizeof(message), "Cannot allocate a C stack for the coroutine (%s%s; see vm.max_map_count and "
		"fiber.stack_size)", cause ? "the previous exception says why" : "mmap failed: ", cause ? "" : strerror(err));
	co->coro.exception = async__new_exception(async__ce_async_exception, message);
	if (cause != NULL) {
		zend_exception_set_previous(co->coro.exception, cause);
	}
	async__coroutine_finish(co);
}

/* The rare ends of a switch back into the loop's context (async__coroutine_start_or_resume()):
 * the coroutine suspended from inside a user Fiber, a worker died, or a fatal error came back. */
void async__coroutine_returned_slow(async_coroutine_t *last, uint8_t flags)
{
	if (async__coroutine_in_user_fiber(last) && !ZEND_COROUTINE_IS_FINISHED(&last->coro)) {
		/* P8: it suspended from inside a user Fiber; that Fiber is logically still running
		 * (its caller is this coroutine), so the engine must not treat it as suspended. */
		last->resume_ctx->status = ZEND_FIBER_STATUS_RUNNING;
	}

	async_worker_t *dying = ASYNC_G(dying_worker);
	if (dying != NULL) {
		/* A Zend context was destroyed by the switch, an arena one goes back to the arena; the
		 * struct is ours to free (P3). */
		ASYNC_G(dying_worker) = NULL;
		if (last->worker == dying) {
			last->worker = NULL;
		}
		async__worker_retire(dying, true);
	}
	if (flags & ZEND_FIBER_TRANSFER_FLAG_BAILOUT) {
		coroutine_end_by_fatal(last);
		/* the drain (a shutdown function) closes every scope once the shutdown functions ran:
		 * their finally handlers come after them, as PHP runs its shutdown functions first */
		ASYNC_G(fatal_in_coroutine) = true;
		zend_bailout();
	}
}

/* ---------------------------------------------------------------------------------------------
 * Completion and cancellation
 * ------------------------------------------------------------------------------------------- */

static void call_finally_handler(zval *handler, zend_object *coroutine)
{
	zval arg, retval;
	ZVAL_OBJ(&arg, coroutine);
	if (call_user_function(NULL, NULL, handler, &retval, 1, &arg) == SUCCESS) {
		zval_ptr_dtor(&retval);
	}
}

/* A finished coroutine whose get_gc would report nothing the GC could follow (its callable is
 * released, its result is not an array or object, it has no error, context nor finally
 * handlers; the class allows no dynamic properties). */
static zend_always_inline bool coroutine_holds_nothing_collectable(const async_coroutine_t *co)
{
	return co->coro.fcall == NULL && !Z_COLLECTABLE(co->coro.result) && co->coro.exception == NULL
		&& co->context == NULL && co->finally_handlers == NULL;
}

void async__coroutine_finish(async_coroutine_t *co)
{
	zend_coroutine_t *coro = &co->coro;
	if (ZEND_COROUTINE_IS_FINISHED(coro)) {
		return;
	}
	ZEND_ASYNC_EVENT_SET_CLOSED(&coro->event);
	ZEND_COROUTINE_FINISH(coro);
	if (co->spawned) {
		ZEND_ASYNC_DECREASE_COROUTINE_COUNT;
	}
	async__live_remove(co);

	if (coro->waker != NULL) {
		zend_async_waker_clean(coro);
	}
	if (co->pending_cancel) {
		/* A cancellation requested while it ran (its own scope's cancel(), say) and never
		 * delivered: it returned normally, and await() gives its result, but it was cancelled,
		 * as its scope was: isCancelled() says so (TrueAsync's flag, set at the request). */
		OBJ_RELEASE(co->pending_cancel);
		co->pending_cancel = NULL;
	}
	if (coro->exception != NULL && instanceof_function(coro->exception->ce, async__ce_async_cancellation)) {
		ZEND_COROUTINE_SET_CANCELLED(coro);
	}

	if (co->awaiter_listed) {
		/* The first awaiter subscribed before any in the vector: it is woken first. */
		async__coroutine_wake_awaiter(co);
	}
	/* Most coroutines are awaited once, through the slot, or not at all: no call for an empty
	 * vector. */
	if (coro->event.callbacks.length != 0 || coro->event.notify_handler != NULL) {
		ZEND_ASYNC_CALLBACKS_NOTIFY(&coro->event, &coro->result, coro->exception);
	}

	if (co->finally_handlers != NULL) {
		/* Right after completion, before the coroutines already queued (its woken waiters
		 * included: they have their result already), in a coroutine of their own; spawned while
		 * this one still counts in its scope, so the scope lives on for them. */
		zend_array *handlers = co->finally_handlers;
		co->finally_handlers = NULL;
		async__finally_run_later(coro->scope, handlers, &co->std, "Multiple exceptions in Coroutine finally handlers",
			NULL, true);
	}

	if (co->exit_requested) {
		async__scheduler_request_exit();
	} else if (coro->exception != NULL
		&& !ZEND_ASYNC_EVENT_HAS(&coro->event, ZEND_ASYNC_EVENT_F_EXCEPTION_HANDLED)
		&& !async__is_cancellation(coro->exception)) {
		/* §8.2 step 2: the scope's handlers, or fail-together up the tree. */
		if (async__scope_ops->handle_error(coro, coro->exception)) {
			ZEND_ASYNC_EVENT_SET_EXCEPTION_HANDLED(&coro->event);
		} else {
			/* Step 3, fire-and-forget: only the alive reference (and maybe the run queue's) is left. */
			uint32_t others = GC_REFCOUNT(&co->std) - (co->spawned ? 1 : 0) - (co->in_queue ? 1 : 0);
			if (others == 0) {
				ZEND_ASYNC_EVENT_SET_EXCEPTION_HANDLED(&coro->event);
				async__scheduler_unhandled_exception(co, coro->exception);
			}
		}
	}
	async__scope_ops->remove_coroutine(coro);

	if (coro->exception == NULL) {
		/* Its destructor has nothing left to do (no error to report, nothing to cancel): marked
		 * as run, the engine skips the call and the fiber-switch block around it. */
		GC_ADD_FLAGS(&co->std, IS_OBJ_DESTRUCTOR_CALLED);
	}

	/* A finished coroutine that holds nothing the cycle collector could follow cannot be in a
	 * cycle: marked so, the releases of the references still held on it (the alive one below, an
	 * awaiter's, its handle) do not buffer it as a possible root (a gc_possible_root() call now
	 * and a gc_remove_from_buffer() one when it is freed). getContext() takes the mark off. Not
	 * for one already buffered (its handle was dropped while it ran): nothing to save there. */
	if (GC_INFO(&co->std) == 0 && coroutine_holds_nothing_collectable(co)) {
		GC_ADD_FLAGS(&co->std, GC_NOT_COLLECTABLE);
	}

	/* The alive reference taken by spawn(). */
	if (co->spawned) {
		co->spawned = false;
		OBJ_RELEASE(&co->std);
	}
}

/* The cancellation to deliver, owned: the given one (a reference taken unless transferred) or
 * the default "Coroutine cancelled". */
static zend_object *coroutine_cancel_reason(zend_object *error, bool transfer_error)
{
	if (error == NULL) {
		return async__new_exception(async__ce_async_cancellation, "Coroutine cancelled");
	}
	if (!transfer_error) {
		GC_ADDREF(error);
	}
	return error;
}

/* A coroutine that never started completes as cancelled where it stands: it never runs. The first
 * reason stands when a request was already pending. Takes ownership of `error`. */
static void coroutine_cancel_unstarted(async_coroutine_t *co, zend_object *error)
{
	zend_coroutine_t *coroutine = &co->coro;
	ZEND_ASSERT(!ZEND_COROUTINE_IS_STARTED(coroutine) && !ZEND_COROUTINE_IS_MAIN(coroutine));
	if (co->pending_cancel != NULL) {
		OBJ_RELEASE(error);
		error = co->pending_cancel;
		co->pending_cancel = NULL;
	}
	ZEND_COROUTINE_SET_CANCELLED(coroutine);
	async__coroutine_release_call(co);
	coroutine->exception = error;
	co->body_done = true;
	GC_ADDREF(&co->std);
	async__coroutine_finish(co);
	OBJ_RELEASE(&co->std);
}

/* Coroutine::cancel() and TaskGroup::cancel() on a queued coroutine that has not started: the
 * request is recorded and the coroutine stays queued (isCancellationRequested() true, isCancelled()
 * false); it completes as cancelled, without running its callable, when the scheduler reaches it — TrueAsync's
 * order, which code may observe. Every other cancellation (disposal, shutdown, deadlock) completes
 * it at once. Takes ownership of `error` when transfer_error is true. */
void async__coroutine_request_cancel(zend_coroutine_t *coroutine, zend_object *error, bool transfer_error)
{
	async_coroutine_t *co = ASYNC_CO_FROM_CORO(coroutine);
	if (ZEND_COROUTINE_IS_STARTED(coroutine) || ZEND_COROUTINE_IS_MAIN(coroutine)
		|| ZEND_COROUTINE_IS_FINISHED(coroutine) || !co->in_queue || co->finally_helper) {
		async__coroutine_cancel(coroutine, error, transfer_error, false);
		return;
	}
	if (co->pending_cancel != NULL) {
		if (error != NULL && transfer_error) {
			OBJ_RELEASE(error);
		}
		return;
	}
	error = coroutine_cancel_reason(error, transfer_error);
	/* Its first run throws it before the callable is called (coroutine_entry), so finally
	 * handlers run in its own context as for any cancelled coroutine. */
	ZEND_COROUTINE_SET_CANCELLED(coroutine);
	co->pending_cancel = error;
}

/* Cancellation is cooperative: delivered at the coroutine's next suspension point (§8.3).
 * Takes ownership of `error` when transfer_error is true. */
void async__coroutine_cancel(zend_coroutine_t *coroutine, zend_object *error, bool transfer_error, bool is_safely)
{
	async_coroutine_t *co = ASYNC_CO_FROM_CORO(coroutine);
	bool forced = error != NULL && zend_is_graceful_exit(error);
	error = coroutine_cancel_reason(error, transfer_error);

	if (ZEND_COROUTINE_IS_FINISHED(coroutine) || (co->finally_helper && !forced)) {
		OBJ_RELEASE(error);
		return;
	}

	if (!ZEND_COROUTINE_IS_STARTED(coroutine) && !ZEND_COROUTINE_IS_MAIN(coroutine)) {
		if (co->pending_cancel != NULL && co->in_queue && !forced && !is_safely) {
			OBJ_RELEASE(error); /* already requested: it completes on its turn, first reason stands */
			return;
		}
		coroutine_cancel_unstarted(co, error);
		return;
	}

	zend_async_waker_t *pending_waker = coroutine->waker;
	bool undelivered = co->pending_cancel != NULL
		|| (pending_waker != NULL && pending_waker->status == ZEND_ASYNC_WAKER_QUEUED
			&& pending_waker->error != NULL && async__is_cancellation(pending_waker->error));
	if (undelivered && !forced && !is_safely) {
		/* Until it is delivered, the first cancellation's reason stands (as inside protect()). */
		OBJ_RELEASE(error);
		return;
	}

	if (co->protect_depth > 0 && !forced && !is_safely) {
		/* Deferred until protect() returns; later cancels are ignored. */
		if (co->pending_cancel == NULL) {
			co->pending_cancel = error;
		} else {
			OBJ_RELEASE(error);
		}
		return;
	}

	ZEND_COROUTINE_SET_CANCELLED(coroutine);
	zend_async_waker_t *waker = coroutine->waker;
	if (coroutine == ZEND_ASYNC_CURRENT_COROUTINE || waker == NULL
		|| waker->status == ZEND_ASYNC_WAKER_NO_STATUS || waker->status == ZEND_ASYNC_WAKER_RESULT) {
		/* Running (self-cancel) or about to run: thrown at its next suspension point. */
		if (co->pending_cancel != NULL) {
			OBJ_RELEASE(co->pending_cancel);
		}
		co->pending_cancel = error;
		return;
	}

	zend_async_waker_apply_error(waker, error, true, true);
	if (waker->status == ZEND_ASYNC_WAKER_WAITING) {
		ZEND_ASYNC_ENQUEUE_COROUTINE(coroutine);
	}
}

/* ---------------------------------------------------------------------------------------------
 * PHP methods
 * ------------------------------------------------------------------------------------------- */

#define THIS_CO() ASYNC_CO_FROM_OBJ(Z_OBJ_P(ZEND_THIS))

/* Completed as far as user code can tell: finally handlers already see the outcome. */
static bool co_completed(async_coroutine_t *co)
{
	return ZEND_COROUTINE_IS_FINISHED(&co->coro) || co->body_done;
}

ZEND_METHOD(Async_Coroutine, __construct)
{
	zend_throw_error(NULL, "The \"Async\\Coroutine\" class is reserved for internal use and cannot be manually instantiated");
}

ZEND_METHOD(Async_Coroutine, getId)
{
	ZEND_PARSE_PARAMETERS_NONE();
	RETURN_LONG(Z_OBJ_P(ZEND_THIS)->handle);
}

ZEND_METHOD(Async_Coroutine, asHiPriority)
{
	ZEND_PARSE_PARAMETERS_NONE();
	RETURN_OBJ_COPY(Z_OBJ_P(ZEND_THIS));
}

ZEND_METHOD(Async_Coroutine, getContext)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_coroutine_t *co = THIS_CO();
	RETURN_OBJ_COPY(async__coroutine_get_context(co));
}

ZEND_METHOD(Async_Coroutine, getResult)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_coroutine_t *co = THIS_CO();
	if (!co_completed(co)) {
		RETURN_NULL();
	}
	ZEND_ASYNC_EVENT_SET_RESULT_USED(&co->coro.event);
	RETURN_COPY(&co->coro.result);
}

ZEND_METHOD(Async_Coroutine, getException)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_coroutine_t *co = THIS_CO();
	if (!co_completed(co) || co->coro.exception == NULL) {
		RETURN_NULL();
	}
	ZEND_ASYNC_EVENT_SET_EXCEPTION_HANDLED(&co->coro.event);
	RETURN_OBJ_COPY(co->coro.exception);
}

ZEND_METHOD(Async_Coroutine, getTrace)
{
	zend_long options = DEBUG_BACKTRACE_PROVIDE_OBJECT;
	zend_long limit = 0;
	ZEND_PARSE_PARAMETERS_START(0, 2)
		Z_PARAM_OPTIONAL
		Z_PARAM_LONG(options)
		Z_PARAM_LONG(limit)
	ZEND_PARSE_PARAMETERS_END();

	async_coroutine_t *co = THIS_CO();
	if (co->execute_data == NULL || !ZEND_COROUTINE_SUSPENDED(&co->coro)
		|| ZEND_COROUTINE_IS_MAIN(&co->coro) || &co->coro == ZEND_ASYNC_CURRENT_COROUTINE) {
		RETURN_NULL();
	}
	EG(current_execute_data) = co->execute_data;
	zend_fetch_debug_backtrace(return_value, 0, (int) options, (int) limit);
	EG(current_execute_data) = execute_data;
}

/* "file:line" of a spawn, suspend or completion site; "unknown" when there is none. Shared with
 * future.c. */
zend_string *async__location_string(zend_string *file, uint32_t line)
{
	if (file == NULL) {
		return zend_string_init("unknown", sizeof("unknown") - 1, 0);
	}
	return zend_strpprintf(0, "%s:%u", ZSTR_VAL(file), line);
}

/* [file, line] of such a site, file null when unknown. */
void async__return_file_and_line(zval *return_value, zend_string *file, uint32_t line)
{
	array_init(return_value);
	if (file) {
		add_next_index_str(return_value, zend_string_copy(file));
	} else {
		add_next_index_null(return_value);
	}
	add_next_index_long(return_value, line);
}

ZEND_METHOD(Async_Coroutine, getSpawnFileAndLine)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_coroutine_t *co = THIS_CO();
	async__return_file_and_line(return_value, co->coro.filename, co->coro.lineno);
}

ZEND_METHOD(Async_Coroutine, getSpawnLocation)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_coroutine_t *co = THIS_CO();
	RETURN_STR(async__location_string(co->coro.filename, co->coro.lineno));
}

ZEND_METHOD(Async_Coroutine, getSuspendFileAndLine)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_coroutine_t *co = THIS_CO();
	zend_async_waker_t *w = co->coro.waker;
	async__return_file_and_line(return_value, w ? w->filename : NULL, w ? w->lineno : 0);
}

ZEND_METHOD(Async_Coroutine, getSuspendLocation)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_coroutine_t *co = THIS_CO();
	zend_async_waker_t *w = co->coro.waker;
	RETURN_STR(async__location_string(w ? w->filename : NULL, w ? w->lineno : 0));
}

ZEND_METHOD(Async_Coroutine, isStarted)
{
	ZEND_PARSE_PARAMETERS_NONE();
	RETURN_BOOL(ZEND_COROUTINE_IS_STARTED(&THIS_CO()->coro));
}

ZEND_METHOD(Async_Coroutine, isQueued)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_coroutine_t *co = THIS_CO();
	RETURN_BOOL(!ZEND_COROUTINE_IS_FINISHED(&co->coro) && co->in_queue);
}

ZEND_METHOD(Async_Coroutine, isRunning)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_coroutine_t *co = THIS_CO();
	RETURN_BOOL(ZEND_COROUTINE_IS_STARTED(&co->coro) && !co_completed(co));
}

ZEND_METHOD(Async_Coroutine, isSuspended)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_coroutine_t *co = THIS_CO();
	/* A coroutine queued but not started yet is suspended too (TrueAsync's view: it waits for its
	 * first turn); the running one never is. */
	RETURN_BOOL(!co_completed(co) && &co->coro != ZEND_ASYNC_CURRENT_COROUTINE
		&& (ZEND_COROUTINE_SUSPENDED(&co->coro) || !ZEND_COROUTINE_IS_STARTED(&co->coro)));
}

ZEND_METHOD(Async_Coroutine, isCancelled)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_coroutine_t *co = THIS_CO();
	RETURN_BOOL(ZEND_COROUTINE_IS_CANCELLED(&co->coro) && co_completed(co));
}

ZEND_METHOD(Async_Coroutine, isCancellationRequested)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_coroutine_t *co = THIS_CO();
	bool finished = co_completed(co);
	RETURN_BOOL((ZEND_COROUTINE_IS_CANCELLED(&co->coro) && !finished) || (!finished && co->pending_cancel != NULL));
}

ZEND_METHOD(Async_Coroutine, isCompleted)
{
	ZEND_PARSE_PARAMETERS_NONE();
	RETURN_BOOL(co_completed(THIS_CO()));
}

ZEND_METHOD(Async_Coroutine, getAwaitingInfo)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_coroutine_t *co = THIS_CO();
	array_init(return_value);
	zend_async_waker_t *w = co->coro.waker;
	if (w == NULL || ZEND_COROUTINE_IS_FINISHED(&co->coro)) {
		return;
	}
	for (uint32_t i = 0; i < w->length; i++) {
		zend_async_event_t *ev = w->triggers[i].event;
		if (ev->info) {
			add_next_index_str(return_value, ev->info(ev));
		} else {
			add_next_index_string(return_value, "event");
		}
	}
}

ZEND_METHOD(Async_Coroutine, cancel)
{
	zend_object *error = NULL;
	ZEND_PARSE_PARAMETERS_START(0, 1)
		Z_PARAM_OPTIONAL
		Z_PARAM_OBJ_OF_CLASS_OR_NULL(error, async__ce_async_cancellation)
	ZEND_PARSE_PARAMETERS_END();

	async__coroutine_request_cancel(&THIS_CO()->coro, error, false);
}

ZEND_METHOD(Async_Coroutine, finally)
{
	zval *callback;
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_OBJECT_OF_CLASS(callback, zend_ce_closure)
	ZEND_PARSE_PARAMETERS_END();

	async_coroutine_t *co = THIS_CO();
	if (ZEND_COROUTINE_IS_FINISHED(&co->coro)) {
		call_finally_handler(callback, &co->std);
		return;
	}
	if (co->finally_handlers == NULL) {
		co->finally_handlers = zend_new_array(1);
	}
	Z_ADDREF_P(callback);
	zend_hash_next_index_insert(co->finally_handlers, callback);
}

async_coroutine_t *async__coroutine_protect(void)
{
	ZEND_ASSERT(ZEND_ASYNC_G(coroutine) != NULL && "protect needs a current coroutine");
	async_coroutine_t *co = ASYNC_CO_FROM_CORO(ZEND_ASYNC_G(coroutine));
	GC_ADDREF(&co->std);
	co->protect_depth++;
	ZEND_COROUTINE_SET_PROTECTED(&co->coro);
	return co;
}

zend_object *async__coroutine_unprotect(async_coroutine_t *co, bool deliver)
{
	zend_object *error = NULL;
	/* A deadlock or a graceful shutdown lifts every protection (depth 0) while the closure runs:
	 * nothing is left to end then. */
	if (co->protect_depth > 0 && --co->protect_depth == 0) {
		ZEND_COROUTINE_CLR_PROTECTED(&co->coro);
		if (deliver && co->pending_cancel != NULL && !ZEND_COROUTINE_IS_FINISHED(&co->coro)) {
			error = co->pending_cancel;
			co->pending_cancel = NULL;
			ZEND_COROUTINE_SET_CANCELLED(&co->coro);
		}
	}
	OBJ_RELEASE(&co->std); /* the current coroutine: its own reference keeps it */
	return error;
}

/* per-process: set once at MINIT by context.c */
static async_context_factory_fn context_factory;

void async__coroutine_set_context_factory(async_context_factory_fn factory)
{
	context_factory = factory;
}

zend_object *async__coroutine_get_context(async_coroutine_t *co)
{
	if (co->context == NULL) {
		ZEND_ASSERT(context_factory != NULL && "context.c registers the factory at MINIT");
		co->context = context_factory();
		/* It may hold the coroutine (a value set in it): the cycle collector must see it again. */
		GC_DEL_FLAGS(&co->std, GC_NOT_COLLECTABLE);
	}
	return co->context;
}

zend_result async__coroutine_minit(void)
{
	async__ce_coroutine = register_class_Async_Coroutine(async__ce_completable);
	async__ce_coroutine->create_object = coroutine_create_object;

	async__object_handlers_init(&coroutine_handlers, XtOffsetOf(async_coroutine_t, std), coroutine_dtor_obj, coroutine_free_obj, coroutine_get_gc);
	async__class_register(ZEND_ASYNC_CLASS_COROUTINE, async__ce_coroutine);
	return SUCCESS;
}
