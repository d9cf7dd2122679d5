/*
 * classes/scope.c — Async\Scope: the tree every coroutine lives in (spec §3.2, §8.2, §8.3, §8.6).
 *
 * The scope itself is a ref-counted C event; the PHP object is a thin handle on it, because a
 * scope outlives its object while coroutines still run in it, and the main scope or a TaskGroup's
 * scope may never have one. Each live coroutine and each child scope holds a reference, so the
 * memory is freed only when nothing points at it any more; "disposal" (closed for good, finally
 * handlers run, listeners told) happens earlier, as soon as the scope is empty and either closed
 * or held by nobody but its structure.
 */
#include "php_async.h"
#include "classes/classes.h"
#include "core/core.h"
#include "zend_exceptions.h"
#include "zend_closures.h"
#include "zend_interfaces.h"
#include "scope_arginfo.h"

zend_class_entry *async__ce_scope;
zend_class_entry *async__ce_scope_provider;
zend_class_entry *async__ce_spawn_strategy;
/* per-process: object handlers, filled once at MINIT */
static zend_object_handlers scope_handlers;

typedef struct {
	ZEND_ASYNC_EVENT_REF_FIELDS
	bool owning; /* made by new Scope() / Scope::inherit(): its destruction disposes the scope */
	zend_object std;
} async_scope_object_t;

#define SCOPE_OBJ(o) ((async_scope_object_t *) ((char *) (o) - XtOffsetOf(async_scope_object_t, std)))
#define THIS_SCOPE() ((zend_async_scope_t *) SCOPE_OBJ(Z_OBJ_P(ZEND_THIS))->event)

static const async_scope_notice_t notice_finished = ASYNC_SCOPE_FINISHED;
static const async_scope_notice_t notice_drained = ASYNC_SCOPE_DRAINED;
static const async_scope_notice_t notice_cancelled = ASYNC_SCOPE_CANCELLED;
static const async_scope_notice_t notice_disposed = ASYNC_SCOPE_DISPOSED;
static const async_scope_notice_t notice_freed = ASYNC_SCOPE_FREED;

static bool scope_try_dispose(zend_async_scope_t *scope);
/* scope_try_dispose()'s first tests, inline: a scope with anything left in its tree (and main's,
 * always) is not disposed, and most coroutines leave such a scope. */
static zend_always_inline bool scope_may_dispose(zend_async_scope_t *scope)
{
	return scope != ZEND_ASYNC_G(main_scope) && ASYNC_SCOPE(scope)->tree_total == 0 && scope->scopes.length == 0;
}
static void scope_finally_track(zend_async_scope_t *scope, bool pending);
static void scope_free(zend_async_scope_t *scope);

/* ---------------------------------------------------------------------------------------------
 * The event and its lifetime
 * ------------------------------------------------------------------------------------------- */

static bool scope_event_dispose(zend_async_event_t *event)
{
	async__scope_release((zend_async_scope_t *) event);
	return true;
}

static zend_string *scope_event_info(zend_async_event_t *event)
{
	async_scope_t *s = ASYNC_SCOPE(event);
	return zend_strpprintf(0, "Scope(coroutines=%u, zombies=%u, children=%u%s%s)", s->active, s->zombies,
		s->scope.scopes.length, async__scope_is_closed(&s->scope) ? ", closed" : "",
		async__scope_is_cancelled(&s->scope) ? ", cancelled" : "");
}

static bool scope_vtable_try_dispose(zend_async_scope_t *scope)
{
	return scope_try_dispose(scope);
}

static const async_event_methods_t scope_event_methods = {
	.dispose = scope_event_dispose,
	.info = scope_event_info,
};

zend_async_scope_t *async__scope_new(zend_async_scope_t *parent)
{
	async_scope_t *s = ecalloc(1, sizeof(async_scope_t));
	async__event_init(&s->scope.event, &scope_event_methods);
	s->scope.try_to_dispose = scope_vtable_try_dispose;
	ZVAL_UNDEF(&s->exception_handler);
	ZVAL_UNDEF(&s->child_exception_handler);

	if (parent != NULL) {
		zend_async_scopes_vector_t *v = &parent->scopes;
		if (v->length == v->capacity) {
			v->capacity = v->capacity ? v->capacity * 2 : 4;
			v->data = safe_erealloc(v->data, v->capacity, sizeof(zend_async_scope_t *), 0);
		}
		v->data[v->length++] = &s->scope;
		s->scope.parent_scope = parent;
		s->scope.request_scope = parent->request_scope;
		async__scope_add_ref(parent);
		if (ZEND_ASYNC_EVENT_HAS(&parent->event, ZEND_ASYNC_SCOPE_F_DISPOSE_SAFELY)) {
			ZEND_ASYNC_EVENT_SET(&s->scope.event, ZEND_ASYNC_SCOPE_F_DISPOSE_SAFELY);
		}
	}
	return &s->scope;
}

void async__scope_add_ref(zend_async_scope_t *scope)
{
	scope->event.ref_count++;
}

/* Inline for a coroutine's finish, which drops its scope's reference every time. */
static zend_always_inline void scope_release(zend_async_scope_t *scope)
{
	ZEND_ASSERT(scope->event.ref_count > 0);
	if (--scope->event.ref_count == 0) {
		scope_free(scope);
		return;
	}
	/* Only the structure (its coroutines and children) holds it now: nobody can spawn into it
	 * any more, so it is disposed as soon as it is empty. */
	if (scope_may_dispose(scope)) {
		scope_try_dispose(scope);
	}
}

void async__scope_release(zend_async_scope_t *scope)
{
	scope_release(scope);
}

static void scope_detach_from_parent(zend_async_scope_t *scope)
{
	zend_async_scope_t *parent = scope->parent_scope;
	if (parent == NULL) {
		return;
	}
	zend_async_scopes_vector_t *v = &parent->scopes;
	for (uint32_t i = 0; i < v->length; i++) {
		if (v->data[i] == scope) {
			memmove(&v->data[i], &v->data[i + 1], (v->length - i - 1) * sizeof(zend_async_scope_t *));
			v->length--;
			break;
		}
	}
	scope->parent_scope = NULL;
	async__scope_release(parent);
}

static void scope_stop_dispose_timer(async_scope_t *s)
{
	zend_async_timer_event_t *timer = s->dispose_timer;
	if (timer == NULL) {
		return;
	}
	s->dispose_timer = NULL;
	timer->base.del_callback(&timer->base, s->dispose_timer_cb);
	s->dispose_timer_cb = NULL;
	timer->base.stop(&timer->base);
	ZEND_ASYNC_EVENT_RELEASE(&timer->base);
}

static void scope_free(zend_async_scope_t *scope)
{
	async_scope_t *s = ASYNC_SCOPE(scope);
	scope_stop_dispose_timer(s);
	scope_detach_from_parent(scope);
	if (scope->event.callbacks.length > 0) {
		/* Listeners that hold no reference (channels) forget the scope. */
		scope->event.ref_count = 1;
		ZEND_ASYNC_CALLBACKS_NOTIFY(&scope->event, (void *) &notice_freed, NULL);
	}
	zend_async_callbacks_free(&scope->event);
	ZEND_ASSERT(s->coroutines.length == 0 && "a coroutine holds a reference to its scope");
	zval_ptr_dtor(&s->exception_handler);
	zval_ptr_dtor(&s->child_exception_handler);
	if (s->finally_handlers) {
		scope_finally_track(scope, false);
		zend_array_release(s->finally_handlers);
	}
	if (s->collected_errors) {
		zend_array_release(s->collected_errors);
	}
	if (s->context) {
		async__context_set_scope(s->context, NULL);
		OBJ_RELEASE(s->context);
	}
	if (scope->scopes.data) {
		efree(scope->scopes.data);
	}
	if (s->object) {
		SCOPE_OBJ(s->object)->event = NULL;
	}
	if (ZEND_ASYNC_G(main_scope) == scope) {
		ZEND_ASYNC_G(main_scope) = NULL;
	}
	efree(s);
}

/* ---------------------------------------------------------------------------------------------
 * Counting coroutines through the tree
 * ------------------------------------------------------------------------------------------- */

static void scope_notify(zend_async_scope_t *scope, const async_scope_notice_t *notice)
{
	if (scope->event.callbacks.length == 0) {
		return;
	}
	async__scope_add_ref(scope);
	ZEND_ASYNC_CALLBACKS_NOTIFY(&scope->event, (void *) notice, NULL);
	async__scope_release(scope);
}

/* Applies a change of the active / total counts to the scope and its ancestors. */
static zend_always_inline void scope_tree_adjust(zend_async_scope_t *scope, int active_delta, int total_delta)
{
	for (zend_async_scope_t *s = scope; s != NULL; s = s->parent_scope) {
		async_scope_t *as = ASYNC_SCOPE(s);
		ZEND_ASSERT((active_delta >= 0 || as->tree_active >= (uint32_t) -active_delta)
			&& (total_delta >= 0 || as->tree_total >= (uint32_t) -total_delta) && "subtree counts never go negative");
		as->tree_active += active_delta;
		as->tree_total += total_delta;
		ZEND_ASSERT(as->tree_active <= as->tree_total && "active coroutines are a subset of all of them");
	}
}

/* Tells each scope of the chain whose subtree just became finished or drained, bottom-up; a
 * callback may release scopes, so the chain is pinned first. Out of line: it is rare, and its
 * chain array would weigh on every count's stack frame. */
static zend_never_inline void scope_tree_notify(zend_async_scope_t *scope, int active_delta, int total_delta)
{
	zend_async_scope_t *chain[64];
	uint32_t n = 0;
	for (zend_async_scope_t *s = scope; s != NULL && n < 64; s = s->parent_scope) {
		async__scope_add_ref(s);
		chain[n++] = s;
	}
	for (uint32_t i = 0; i < n; i++) {
		async_scope_t *as = ASYNC_SCOPE(chain[i]);
		if (active_delta < 0 && as->tree_active == 0) {
			scope_notify(chain[i], &notice_finished);
		}
		if (total_delta < 0 && as->tree_total == 0) {
			scope_notify(chain[i], &notice_drained);
		}
	}
	for (uint32_t i = 0; i < n; i++) {
		async__scope_release(chain[i]);
	}
}

/* The same, and tells each scope whose subtree just became finished or drained. */
static zend_always_inline void scope_tree_count(zend_async_scope_t *scope, int active_delta, int total_delta)
{
	scope_tree_adjust(scope, active_delta, total_delta);
	if (active_delta >= 0 && total_delta >= 0) {
		return;
	}
	/* Only a scope whose count just reached zero and that has subscribers is told anything: most
	 * finishes (or the last coroutine of a scope nobody awaits) need no pinning at all. */
	for (zend_async_scope_t *s = scope; s != NULL; s = s->parent_scope) {
		async_scope_t *as = ASYNC_SCOPE(s);
		if (s->event.callbacks.length > 0
			&& ((active_delta < 0 && as->tree_active == 0) || (total_delta < 0 && as->tree_total == 0))) {
			scope_tree_notify(scope, active_delta, total_delta);
			return;
		}
	}
}

bool async__scope_add_coroutine(zend_async_scope_t *scope, zend_coroutine_t *coroutine)
{
	async_scope_t *s = ASYNC_SCOPE(scope);
	async_coroutine_t *co = ASYNC_CO_FROM_CORO(coroutine);
	ZEND_ASSERT(!co->in_scope && "a coroutine is in one scope, once");
	async_list_append(&s->coroutines, &co->scope_node);
	coroutine->scope = scope;
	co->in_scope = true;
	async__scope_add_ref(scope);
	s->active++;
	scope_tree_count(scope, 1, 1);
	return true;
}

/* Takes the coroutine out of its scope's table and direct counts. Returns the scope it left,
 * whose reference is now the caller's, or NULL when it held none. */
static zend_always_inline zend_async_scope_t *scope_unlink(zend_coroutine_t *coroutine, bool *was_zombie)
{
	zend_async_scope_t *scope = coroutine->scope;
	async_coroutine_t *co = ASYNC_CO_FROM_CORO(coroutine);
	coroutine->scope = NULL;
	if (scope == NULL || !co->in_scope) {
		return NULL; /* main, or made through the ABI without a spawn: no reference held */
	}
	co->in_scope = false;
	async_list_remove(&ASYNC_SCOPE(scope)->coroutines, &co->scope_node);
	*was_zombie = ZEND_COROUTINE_IS_ZOMBIE(coroutine);
	if (*was_zombie) {
		ZEND_ASSERT(ASYNC_SCOPE(scope)->zombies > 0);
		ASYNC_SCOPE(scope)->zombies--;
	} else {
		ZEND_ASSERT(ASYNC_SCOPE(scope)->active > 0);
		ASYNC_SCOPE(scope)->active--;
	}
	return scope;
}

/* The coroutine finished: it leaves its scope, which may now be done. */
void async__scope_remove_coroutine(zend_coroutine_t *coroutine)
{
	bool was_zombie;
	zend_async_scope_t *scope = scope_unlink(coroutine, &was_zombie);
	if (scope == NULL) {
		return;
	}
	scope_tree_count(scope, was_zombie ? 0 : -1, -1);
	if (scope_may_dispose(scope)) {
		scope_try_dispose(scope);
	}
	scope_release(scope);
}

/* Freed without finishing (after a fatal error): drop the link without running anything. */
void async__scope_forget_coroutine(zend_coroutine_t *coroutine)
{
	bool was_zombie;
	zend_async_scope_t *scope = scope_unlink(coroutine, &was_zombie);
	if (scope == NULL) {
		return;
	}
	scope_tree_adjust(scope, was_zombie ? 0 : -1, -1); /* nobody is told: nothing may run */
	if (--scope->event.ref_count == 0) {
		scope_free(scope);
	}
}

static void scope_zombify(zend_coroutine_t *coroutine)
{
	if (ZEND_COROUTINE_IS_ZOMBIE(coroutine)) {
		return;
	}
	async_scope_t *s = ASYNC_SCOPE(coroutine->scope);
	ZEND_ASSERT(s->active > 0 && ZEND_COROUTINE_IS_STARTED(coroutine) && "only a started coroutine becomes a zombie");
	ZEND_ASYNC_EVENT_SET(&coroutine->event, ZEND_COROUTINE_F_ZOMBIE);
	s->active--;
	s->zombies++;
	scope_tree_count(&s->scope, -1, 0);
}

/* ---------------------------------------------------------------------------------------------
 * Finally handlers and disposal
 * ------------------------------------------------------------------------------------------- */

/* The handlers' error, after they ran in their helper coroutine: the scope's own exception
 * handler, then up its tree as a coroutine's error would go (the disposed scope left its
 * parent; the helper runs there); past that, the scheduler's. */
static void scope_finally_deliver(zend_object *subject, zend_object *error)
{
	zend_async_scope_t *scope = async__scope_from_object(subject);
	zend_coroutine_t *helper = ZEND_ASYNC_CURRENT_COROUTINE;
	zend_async_scope_t *parent = scope != NULL && scope->parent_scope != NULL ? scope->parent_scope
		: helper != NULL && helper->scope != scope ? helper->scope : NULL;
	if (scope == NULL || !async__scope_propagate_error(scope, parent, NULL, &error)) {
		async__scheduler_unhandled_exception(NULL, error);
	}
	OBJ_RELEASE(error);
}

/* Disposal (or the end of the drain, for main's): the handlers run after it, in a helper
 * coroutine of the parent scope (main's when there is none), so they may suspend and dispose()
 * returns first. */
static void scope_finally_later(zend_async_scope_t *scope)
{
	async_scope_t *s = ASYNC_SCOPE(scope);
	zend_array *handlers = s->finally_handlers;
	s->finally_handlers = NULL;
	scope_finally_track(scope, false);
	zend_object *subject = async__scope_get_object(scope);
	zend_async_scope_t *home = scope->parent_scope != NULL ? scope->parent_scope : async__scope_main();
	async__finally_run_later(home, handlers, subject, "Multiple exceptions in Scope finally handlers", scope_finally_deliver,
		false);
	OBJ_RELEASE(subject);
}

static void scope_do_dispose(zend_async_scope_t *scope)
{
	async_scope_t *s = ASYNC_SCOPE(scope);
	s->disposed = true;
	ZEND_ASYNC_EVENT_SET(&scope->event, ZEND_ASYNC_SCOPE_F_CLOSED);
	async__scope_add_ref(scope);
	scope_stop_dispose_timer(s);
	if (s->finally_handlers != NULL) {
		scope_finally_later(scope);
	}
	ZEND_ASYNC_EVENT_SET_CLOSED(&scope->event);
	scope_notify(scope, &notice_disposed);
	zend_async_scope_t *parent = scope->parent_scope;
	if (parent != NULL) {
		async__scope_add_ref(parent);
		scope_detach_from_parent(scope);
		scope_try_dispose(parent);
		async__scope_release(parent);
	}
	async__scope_release(scope);
}

static uint32_t scope_structural_refs(zend_async_scope_t *scope)
{
	return ASYNC_SCOPE(scope)->coroutines.length + scope->scopes.length;
}

static bool scope_try_dispose(zend_async_scope_t *scope)
{
	async_scope_t *s = ASYNC_SCOPE(scope);
	if (s->disposed || ZEND_ASYNC_EVENT_HAS(&scope->event, ZEND_ASYNC_SCOPE_F_DISPOSING)) {
		return s->disposed;
	}
	if (scope == ZEND_ASYNC_G(main_scope) || s->tree_total > 0 || scope->scopes.length > 0) {
		return false;
	}
	bool held = scope->event.ref_count > scope_structural_refs(scope);
	if (!async__scope_refuses_spawn(scope) && held) {
		return false;
	}
	ZEND_ASYNC_EVENT_SET(&scope->event, ZEND_ASYNC_SCOPE_F_DISPOSING);
	scope_do_dispose(scope);
	return true;
}

void async__scope_close(zend_async_scope_t *scope)
{
	ZEND_ASYNC_EVENT_SET(&scope->event, ZEND_ASYNC_SCOPE_F_CLOSED);
	scope_try_dispose(scope);
}

/* ---------------------------------------------------------------------------------------------
 * Cancellation
 * ------------------------------------------------------------------------------------------- */

/* `safe_mode`: started coroutines become zombies instead of being cancelled. */
static void scope_cancel_tree(zend_async_scope_t *scope, zend_object *error, const char *message, bool safe_mode)
{
	async_scope_t *s = ASYNC_SCOPE(scope);
	if (async__scope_is_cancelled(scope)) {
		return; /* the first cancellation stands */
	}
	/* Cancelled refuses new spawns (async__scope_refuses_spawn()); closed comes with disposal,
	 * which follows at once when nothing is left in the tree (scope_try_dispose() below). */
	ZEND_ASYNC_EVENT_SET(&scope->event, ZEND_ASYNC_SCOPE_F_CANCELLED);
	async__scope_add_ref(scope);
	scope_notify(scope, &notice_cancelled);

	/* The coroutines there now, each pinned: cancelling runs code that may finish or add others. */
	uint32_t count = s->coroutines.length;
	async_coroutine_t **list = count > 0 ? safe_emalloc(count, sizeof(async_coroutine_t *), 0) : NULL;
	uint32_t pinned = 0;
	for (async_list_node_t *node = s->coroutines.first; node != NULL; node = node->next) {
		async_coroutine_t *co = ASYNC_LIST_ITEM(node, async_coroutine_t, scope_node);
		ZEND_ASSERT(pinned < count);
		GC_ADDREF(&co->std);
		list[pinned++] = co;
	}
	for (uint32_t i = 0; i < pinned; i++) {
		zend_coroutine_t *coro = &list[i]->coro;
		if (!ZEND_COROUTINE_IS_FINISHED(coro) && coro->scope == scope) {
			if (safe_mode && ZEND_COROUTINE_IS_STARTED(coro)) {
				scope_zombify(coro);
			} else if (error != NULL) {
				async__coroutine_cancel(coro, error, false, false);
			} else {
				async__coroutine_cancel(coro, async__new_exception(async__ce_async_cancellation, message), true, false);
			}
		}
		OBJ_RELEASE(&list[i]->std);
	}
	if (list != NULL) {
		efree(list);
	}

	uint32_t n = scope->scopes.length;
	if (n > 0) {
		zend_async_scope_t **children = safe_emalloc(n, sizeof(zend_async_scope_t *), 0);
		memcpy(children, scope->scopes.data, n * sizeof(zend_async_scope_t *));
		for (uint32_t i = 0; i < n; i++) {
			async__scope_add_ref(children[i]);
		}
		for (uint32_t i = 0; i < n; i++) {
			scope_cancel_tree(children[i], error, message, safe_mode);
			async__scope_release(children[i]);
		}
		efree(children);
	}
	scope_try_dispose(scope);
	async__scope_release(scope);
}

static bool scope_is_safe(zend_async_scope_t *scope)
{
	return ZEND_ASYNC_EVENT_HAS(&scope->event, ZEND_ASYNC_SCOPE_F_DISPOSE_SAFELY);
}

void async__scope_cancel(zend_async_scope_t *scope, zend_object *error, bool is_safely)
{
	scope_cancel_tree(scope, error, "Scope was cancelled", is_safely && scope_is_safe(scope));
}

/* Closes the scope; what still runs is cancelled, or zombified in `safe_mode`. */
static void scope_dispose_ex(zend_async_scope_t *scope, const char *message, bool safe_mode)
{
	if (ASYNC_SCOPE(scope)->disposed) {
		return;
	}
	async__scope_add_ref(scope);
	ZEND_ASYNC_EVENT_SET(&scope->event, ZEND_ASYNC_SCOPE_F_CLOSED);
	if (!scope_try_dispose(scope)) {
		scope_cancel_tree(scope, NULL, message, safe_mode);
	}
	async__scope_release(scope);
}

void async__scope_dispose(zend_async_scope_t *scope, const char *message)
{
	scope_dispose_ex(scope, message ? message : "Scope was cancelled", scope_is_safe(scope));
}

/* ---------------------------------------------------------------------------------------------
 * Errors (spec §8.2 step 2)
 * ------------------------------------------------------------------------------------------- */

/* fn(Scope, Coroutine, Throwable). True when it returned without throwing; a handler that throws
 * replaces the error that goes on up the tree. Without a coroutine of its own (a TaskGroup's
 * errors), the handler gets the coroutine that is running. */
static bool scope_call_handler(zend_async_scope_t *scope, zval *handler, zend_coroutine_t *coroutine,
	zend_object **exception)
{
	if (coroutine == NULL) {
		coroutine = ZEND_ASYNC_G(coroutine) ? ZEND_ASYNC_G(coroutine) : ZEND_ASYNC_MAIN_COROUTINE;
	}
	zval args[3], retval;
	ZVAL_OBJ(&args[0], async__scope_get_object(scope));
	if (coroutine != NULL) {
		ZVAL_OBJ_COPY(&args[1], ZEND_ASYNC_EVENT_TO_OBJECT(&coroutine->event));
	} else {
		ZVAL_NULL(&args[1]);
	}
	ZVAL_OBJ_COPY(&args[2], *exception);
	ZVAL_UNDEF(&retval);
	call_user_function(NULL, NULL, handler, &retval, 3, args);
	zval_ptr_dtor(&retval);
	zval_ptr_dtor(&args[0]);
	zval_ptr_dtor(&args[1]);
	zval_ptr_dtor(&args[2]);
	if (EG(exception)) {
		zend_object *thrown = EG(exception);
		GC_ADDREF(thrown);
		zend_clear_exception();
		OBJ_RELEASE(*exception);
		*exception = thrown;
		return false;
	}
	return true;
}

/* awaitAfterCancellation() is waiting on this scope: it collects the errors instead. */
static bool scope_collect(zend_async_scope_t *scope, zend_object *exception)
{
	for (zend_async_scope_t *s = scope; s != NULL; s = s->parent_scope) {
		async_scope_t *as = ASYNC_SCOPE(s);
		if (as->collected_errors != NULL) {
			zval zex;
			ZVAL_OBJ_COPY(&zex, exception);
			zend_hash_next_index_insert(as->collected_errors, &zex);
			return true;
		}
	}
	return false;
}

bool async__scope_propagate_error(zend_async_scope_t *scope, zend_async_scope_t *parent_of_first,
	zend_coroutine_t *coroutine, zend_object **exception)
{
	bool handled = false;
	bool from_child = false;
	async__scope_add_ref(scope);
	zend_async_scope_t *s = scope;
	while (s != NULL) {
		async_scope_t *as = ASYNC_SCOPE(s);
		if (from_child && Z_TYPE(as->child_exception_handler) != IS_UNDEF
			&& scope_call_handler(s, &as->child_exception_handler, coroutine, exception)) {
			handled = true;
			break;
		}
		if (Z_TYPE(as->exception_handler) != IS_UNDEF
			&& scope_call_handler(s, &as->exception_handler, coroutine, exception)) {
			handled = true;
			break;
		}
		if (s == ZEND_ASYNC_G(main_scope)) {
			break; /* step 3 decides: the handle, or the scheduler */
		}
		/* Fail together: the scope is cancelled and the error moves up. */
		zend_async_scope_t *parent = s->parent_scope;
		if (parent == NULL && s == scope) {
			parent = parent_of_first; /* already detached (a disposed TaskGroup scope) */
		}
		if (parent != NULL) {
			async__scope_add_ref(parent);
		}
		async__scope_cancel(s, NULL, true);
		async__scope_release(s);
		s = parent;
		from_child = true;
	}
	if (s != NULL) {
		async__scope_release(s);
	}
	return handled;
}

bool async__scope_handle_error(zend_coroutine_t *coroutine, zend_object *exception)
{
	zend_async_scope_t *scope = coroutine->scope;
	if (scope == NULL) {
		return false;
	}
	if (scope_collect(scope, exception)) {
		return true;
	}
	GC_ADDREF(exception);
	bool handled = async__scope_propagate_error(scope, NULL, coroutine, &exception);
	if (!handled && exception != coroutine->exception) {
		/* A handler threw: that error is what stays unhandled. */
		zend_object *old = coroutine->exception;
		coroutine->exception = exception;
		GC_ADDREF(exception);
		OBJ_RELEASE(old);
	}
	OBJ_RELEASE(exception);
	return handled;
}

/* ---------------------------------------------------------------------------------------------
 * The main scope and the current one
 * ------------------------------------------------------------------------------------------- */

zend_async_scope_t *async__scope_main(void)
{
	if (ZEND_ASYNC_G(main_scope) == NULL) {
		zend_async_scope_t *scope = async__scope_new(NULL);
		ZEND_ASYNC_EVENT_SET(&scope->event, ZEND_ASYNC_SCOPE_F_DISPOSE_SAFELY);
		ZEND_ASYNC_G(main_scope) = scope;
	}
	return ZEND_ASYNC_G(main_scope);
}

zend_async_scope_t *async__scope_current(void)
{
	if (!ASYNC_G(launched)) {
		async__scheduler_launch();
	}
	zend_coroutine_t *coro = ZEND_ASYNC_G(coroutine);
	if (coro != NULL && coro->scope != NULL) {
		return coro->scope;
	}
	return async__scope_main();
}

/* End of a drain: the main scope's finally handlers run (spawns afterwards still work). False
 * when there were none. */
static bool scope_main_finally(void)
{
	zend_async_scope_t *scope = ZEND_ASYNC_G(main_scope);
	if (scope == NULL || ASYNC_SCOPE(scope)->finally_handlers == NULL) {
		return false;
	}
	scope_finally_later(scope);
	return true;
}

/* Scopes with finally handlers still to run are listed (no reference held): after a fatal
 * error nothing else would reach the ones the script holds. */
static void scope_finally_track(zend_async_scope_t *scope, bool pending)
{
	HashTable *t = ASYNC_G(scopes_with_finally);
	if (pending) {
		if (t == NULL) {
			ALLOC_HASHTABLE(t);
			zend_hash_init(t, 8, NULL, NULL, 0);
			ASYNC_G(scopes_with_finally) = t;
		}
		zend_hash_index_add_ptr(t, (zend_ulong) (uintptr_t) scope, scope);
	} else if (t != NULL) {
		zend_hash_index_del(t, (zend_ulong) (uintptr_t) scope);
	}
}

static void scope_close_tree(zend_async_scope_t *scope)
{
	/* a copy: children detach from the vector as they are disposed */
	uint32_t n = scope->scopes.length;
	if (n > 0) {
		zend_async_scope_t **children = safe_emalloc(n, sizeof(*children), 0);
		for (uint32_t i = 0; i < n; i++) {
			children[i] = scope->scopes.data[i];
			async__scope_add_ref(children[i]);
		}
		for (uint32_t i = 0; i < n; i++) {
			scope_close_tree(children[i]);
			async__scope_release(children[i]);
		}
		efree(children);
	}
	if (scope != ZEND_ASYNC_G(main_scope)) {
		async__scope_close(scope);
	}
}

static void scope_close_all(void)
{
	if (ZEND_ASYNC_G(main_scope) != NULL) {
		scope_close_tree(ZEND_ASYNC_G(main_scope));
	}
	HashTable *t = ASYNC_G(scopes_with_finally);
	if (t == NULL) {
		return;
	}
	/* scopes outside main's tree (new Scope() is a root) */
	zend_async_scope_t **list = safe_emalloc(zend_hash_num_elements(t), sizeof(*list), 0);
	uint32_t n = 0;
	zend_async_scope_t *scope;
	ZEND_HASH_FOREACH_PTR(t, scope) {
		async__scope_add_ref(scope);
		list[n++] = scope;
	} ZEND_HASH_FOREACH_END();
	for (uint32_t i = 0; i < n; i++) {
		scope_close_tree(list[i]);
		async__scope_release(list[i]);
	}
	efree(list);
}

/* Request end: nothing runs any more; the memory goes when the last holder lets go. */
static void scope_main_dispose(void)
{
	zend_async_scope_t *scope = ZEND_ASYNC_G(main_scope);
	if (scope == NULL) {
		return;
	}
	async_scope_t *s = ASYNC_SCOPE(scope);
	s->disposed = true;
	ZEND_ASYNC_EVENT_SET(&scope->event, ZEND_ASYNC_SCOPE_F_CLOSED | ZEND_ASYNC_EVENT_F_CLOSED);
	if (s->finally_handlers) {
		scope_finally_track(scope, false);
		zend_array_release(s->finally_handlers);
		s->finally_handlers = NULL;
	}
	ZEND_ASYNC_G(main_scope) = NULL;
	if (ASYNC_G(scopes_with_finally) != NULL) {
		zend_hash_destroy(ASYNC_G(scopes_with_finally));
		FREE_HASHTABLE(ASYNC_G(scopes_with_finally));
		ASYNC_G(scopes_with_finally) = NULL;
	}
	async__scope_release(scope);
}

/* ---------------------------------------------------------------------------------------------
 * Spawning
 * ------------------------------------------------------------------------------------------- */

void async__spawn_task(zend_async_scope_t *scope, zend_object *provider, async_task_args_t *task, zval *return_value)
{
	zend_coroutine_t *coro = async__spawn(scope, provider, ZEND_COROUTINE_NORMAL);
	if (coro == NULL) {
		return;
	}
	if (!ZEND_COROUTINE_IS_FINISHED(coro)) {
		async__coroutine_set_call(ASYNC_CO_FROM_CORO(coro), &task->fci, &task->fcc, task->args, task->args_count,
			task->named_args);
	}
	/* The creation reference is the caller's: it becomes the returned handle. */
	RETURN_OBJ(ZEND_ASYNC_EVENT_TO_OBJECT(&coro->event));
}

/* spawn_with(): the provider's scope (null = current); a SpawnStrategy's hooks run around the
 * enqueue (see async__spawn). */
static zend_async_scope_t *scope_from_provider(zend_object *provider)
{
	zval retval;
	ZVAL_UNDEF(&retval);
	zend_call_method_with_0_params(provider, provider->ce, NULL, "providescope", &retval);
	if (EG(exception)) {
		zval_ptr_dtor(&retval);
		return NULL;
	}
	if (Z_TYPE(retval) == IS_NULL) {
		return async__scope_current();
	}
	if (Z_TYPE(retval) != IS_OBJECT || !instanceof_function(Z_OBJCE(retval), async__ce_scope)) {
		zval_ptr_dtor(&retval);
		async__throw(async__ce_async_exception, "Scope provider must return an instance of Async\\Scope");
		return NULL;
	}
	zend_async_scope_t *scope = async__scope_from_object(Z_OBJ(retval));
	zval_ptr_dtor(&retval); /* the object is still referenced by the provider, or the scope by us */
	return scope;
}

/* Called by async__spawn() around the enqueue when the provider is a SpawnStrategy. */
bool async__scope_strategy_hook(zend_object *provider, zend_coroutine_t *coroutine, zend_async_scope_t *scope,
	bool before)
{
	if (provider == NULL || !instanceof_function(provider->ce, async__ce_spawn_strategy)) {
		return true;
	}
	zval args[2], retval;
	ZVAL_OBJ(&args[0], ZEND_ASYNC_EVENT_TO_OBJECT(&coroutine->event));
	ZVAL_OBJ(&args[1], async__scope_get_object(scope));
	ZVAL_UNDEF(&retval);
	zend_call_method_with_2_params(provider, provider->ce, NULL,
		before ? "beforecoroutineenqueue" : "aftercoroutineenqueue", &retval, &args[0], &args[1]);
	zval_ptr_dtor(&retval);
	zval_ptr_dtor(&args[1]);
	return !EG(exception);
}

/* ---------------------------------------------------------------------------------------------
 * The Async\Scope object
 * ------------------------------------------------------------------------------------------- */

static zend_object *scope_create_object(zend_class_entry *ce)
{
	async_scope_object_t *o = zend_object_alloc(sizeof(async_scope_object_t), ce);
	ZEND_ASYNC_EVENT_REF_PROLOG(o, std);
	o->owning = false;
	zend_object_std_init(&o->std, ce);
	o->std.handlers = &scope_handlers;
	return &o->std;
}

static zend_object *scope_wrap(zend_async_scope_t *scope, bool owning)
{
	zend_object *obj = scope_create_object(async__ce_scope);
	async_scope_object_t *o = SCOPE_OBJ(obj);
	o->event = &scope->event;
	o->owning = owning;
	async__scope_add_ref(scope);
	ASYNC_SCOPE(scope)->object = obj;
	return obj;
}

zend_object *async__scope_get_object(zend_async_scope_t *scope)
{
	async_scope_t *s = ASYNC_SCOPE(scope);
	if (s->object != NULL) {
		GC_ADDREF(s->object);
		return s->object;
	}
	return scope_wrap(scope, false);
}

zend_async_scope_t *async__scope_from_object(zend_object *object)
{
	return (zend_async_scope_t *) SCOPE_OBJ(object)->event;
}

/* The owner let go of the scope: if it cannot be disposed yet, it is cancelled (honouring the
 * safe flag) and disposed when its coroutines are gone. */
static void scope_dtor_obj(zend_object *object)
{
	async_scope_object_t *o = SCOPE_OBJ(object);
	zend_objects_destroy_object(object);
	zend_async_scope_t *scope = (zend_async_scope_t *) o->event;
	if (scope == NULL || !o->owning || ASYNC_SCOPE(scope)->disposed || CG(unclean_shutdown)) {
		return;
	}
	async__scope_dispose(scope, "Scope is being disposed due to object destruction");
}

static void scope_free_obj(zend_object *object)
{
	async_scope_object_t *o = SCOPE_OBJ(object);
	zend_async_scope_t *scope = (zend_async_scope_t *) o->event;
	if (scope != NULL) {
		o->event = NULL;
		if (ASYNC_SCOPE(scope)->object == object) {
			ASYNC_SCOPE(scope)->object = NULL;
		}
		async__scope_release(scope);
	}
	zend_object_std_dtor(object);
}

static HashTable *scope_get_gc(zend_object *object, zval **table, int *num)
{
	zend_async_scope_t *scope = (zend_async_scope_t *) SCOPE_OBJ(object)->event;
	zend_get_gc_buffer *buf = zend_get_gc_buffer_create();
	if (scope != NULL) {
		async_scope_t *s = ASYNC_SCOPE(scope);
		zend_get_gc_buffer_add_zval(buf, &s->exception_handler);
		zend_get_gc_buffer_add_zval(buf, &s->child_exception_handler);
		if (s->context) {
			zend_get_gc_buffer_add_obj(buf, s->context);
		}
		if (s->finally_handlers) {
			zval *zv;
			ZEND_HASH_FOREACH_VAL(s->finally_handlers, zv) {
				zend_get_gc_buffer_add_zval(buf, zv);
			} ZEND_HASH_FOREACH_END();
		}
	}
	zend_get_gc_buffer_use(buf, table, num);
	return NULL;
}

zend_object *async__scope_get_context(zend_async_scope_t *scope)
{
	async_scope_t *s = ASYNC_SCOPE(scope);
	if (s->context == NULL) {
		s->context = async__context_new_object();
		async__context_set_scope(s->context, scope);
	}
	return s->context;
}

/* The Contexts of scopes, as PHP functions: the current one's, the main one's, the request's. */
ZEND_FUNCTION(Async_current_context)
{
	ZEND_PARSE_PARAMETERS_NONE();
	RETURN_OBJ_COPY(async__scope_get_context(async__scope_current()));
}

ZEND_FUNCTION(Async_root_context)
{
	ZEND_PARSE_PARAMETERS_NONE();
	if (!ASYNC_G(launched)) {
		async__scheduler_launch();
	}
	RETURN_OBJ_COPY(async__scope_get_context(async__scope_main()));
}

ZEND_FUNCTION(Async_request_context)
{
	ZEND_PARSE_PARAMETERS_NONE();
	zend_async_scope_t *scope = ZEND_ASYNC_G(main_scope) ? ZEND_ASYNC_CURRENT_SCOPE : NULL;
	if (scope == NULL || scope->request_scope == NULL) {
		RETURN_NULL(); /* no embedder sets a request scope in the CLI */
	}
	RETURN_OBJ_COPY(async__scope_get_context(scope->request_scope));
}

/* ---------------------------------------------------------------------------------------------
 * Registration
 * ------------------------------------------------------------------------------------------- */


/* ---------------------------------------------------------------------------------------------
 * Waiting on a scope
 * ------------------------------------------------------------------------------------------- */

typedef struct {
	zend_coroutine_event_callback_t base;
	async_scope_notice_t wanted;
} scope_wait_callback_t;

static void scope_wait_notified(zend_async_event_t *event, zend_async_event_callback_t *callback,
	void *result, zend_object *exception)
{
	scope_wait_callback_t *cb = (scope_wait_callback_t *) callback;
	async_scope_notice_t notice = result ? *(const async_scope_notice_t *) result : ASYNC_SCOPE_DISPOSED;
	if (notice == cb->wanted || notice == ASYNC_SCOPE_DISPOSED) {
		zend_async_waker_callback_resolve(event, callback, NULL, NULL);
	}
}

/* Suspends until the scope reports `wanted`, or the token fires. False with an exception; `what`
 * names the operation in the error a destructor gets. */
static bool scope_wait_ex(zend_async_scope_t *scope, async_scope_notice_t wanted, zend_object *token_obj,
	const char *what)
{
	zend_async_event_t *token = token_obj ? ZEND_ASYNC_OBJECT_TO_EVENT(token_obj) : NULL;
	zend_coroutine_t *co = async__wait_begin(token, what);
	if (co == NULL) {
		return false;
	}
	scope_wait_callback_t *cb = (scope_wait_callback_t *) zend_async_coroutine_callback_new(co,
		scope_wait_notified, sizeof(scope_wait_callback_t));
	cb->wanted = wanted;
	bool ok = async__wait_on(co, &scope->event, false, NULL, &cb->base) && async__wait_suspend(co);
	async__wait_end(co);
	return ok;
}

static bool scope_wait(zend_async_scope_t *scope, async_scope_notice_t wanted, zend_object *token_obj)
{
	return scope_wait_ex(scope, wanted, token_obj, "wait for a scope");
}

bool async__scope_await_finished(zend_async_scope_t *scope, const char *what)
{
	while (!async__scope_is_finished(scope) && !ZEND_ASYNC_EVENT_IS_CLOSED(&scope->event)) {
		if (!scope_wait_ex(scope, ASYNC_SCOPE_FINISHED, NULL, what)) {
			return false;
		}
	}
	return true;
}

/* Is the current coroutine inside `scope`'s subtree? */
static bool scope_contains_current(zend_async_scope_t *scope)
{
	zend_coroutine_t *coro = ZEND_ASYNC_G(coroutine);
	if (coro == NULL) {
		return false;
	}
	zend_async_scope_t *s = coro->scope;
	if (s == NULL && ZEND_COROUTINE_IS_MAIN(coro)) {
		s = ZEND_ASYNC_G(main_scope);
	}
	for (; s != NULL; s = s->parent_scope) {
		if (s == scope) {
			return true;
		}
	}
	return false;
}

/* Both awaits launch the scheduler (the main flow becomes a coroutine) and refuse a waiter that
 * lives inside the scope: it would wait for itself. */
static bool scope_can_await(zend_async_scope_t *scope)
{
	if (ZEND_ASYNC_G(coroutine) == NULL) {
		async__scheduler_launch();
	}
	if (scope_contains_current(scope)) {
		async__throw(async__ce_async_exception,
			"Cannot await completion of scope from a coroutine that belongs to the same scope or its children");
		return false;
	}
	return true;
}

/* ---------------------------------------------------------------------------------------------
 * PHP methods
 * ------------------------------------------------------------------------------------------- */

#define SCOPE_OR_THROW(var) \
	zend_async_scope_t *var = THIS_SCOPE(); \
	if (UNEXPECTED(var == NULL)) { \
		async__throw(async__ce_async_exception, "The scope has been disposed"); \
		RETURN_THROWS(); \
	}

ZEND_METHOD(Async_Scope, __construct)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_scope_object_t *o = SCOPE_OBJ(Z_OBJ_P(ZEND_THIS));
	if (o->event != NULL) {
		zend_throw_error(NULL, "Cannot call constructor twice");
		RETURN_THROWS();
	}
	zend_async_scope_t *scope = async__scope_new(NULL);
	o->event = &scope->event; /* the creation reference is the object's */
	o->owning = true;
	ASYNC_SCOPE(scope)->object = Z_OBJ_P(ZEND_THIS);
}

ZEND_METHOD(Async_Scope, inherit)
{
	zend_object *parent_obj = NULL;
	ZEND_PARSE_PARAMETERS_START(0, 1)
		Z_PARAM_OPTIONAL
		Z_PARAM_OBJ_OF_CLASS_OR_NULL(parent_obj, async__ce_scope)
	ZEND_PARSE_PARAMETERS_END();

	zend_async_scope_t *parent = parent_obj ? async__scope_from_object(parent_obj) : async__scope_current();
	if (parent == NULL || ASYNC_SCOPE(parent)->disposed) {
		async__throw(async__ce_async_exception, "Cannot inherit from a disposed scope");
		RETURN_THROWS();
	}
	zend_async_scope_t *scope = async__scope_new(parent);
	zend_object *obj = scope_wrap(scope, true);
	async__scope_release(scope); /* the object holds it now */
	RETURN_OBJ(obj);
}

ZEND_METHOD(Async_Scope, provideScope)
{
	ZEND_PARSE_PARAMETERS_NONE();
	RETURN_OBJ_COPY(Z_OBJ_P(ZEND_THIS));
}

ZEND_METHOD(Async_Scope, asNotSafely)
{
	ZEND_PARSE_PARAMETERS_NONE();
	SCOPE_OR_THROW(scope);
	ZEND_ASYNC_EVENT_CLR(&scope->event, ZEND_ASYNC_SCOPE_F_DISPOSE_SAFELY);
	RETURN_OBJ_COPY(Z_OBJ_P(ZEND_THIS));
}

ZEND_METHOD(Async_Scope, allowZombies)
{
	ZEND_PARSE_PARAMETERS_NONE();
	SCOPE_OR_THROW(scope);
	ZEND_ASYNC_EVENT_SET(&scope->event, ZEND_ASYNC_SCOPE_F_DISPOSE_SAFELY);
	RETURN_OBJ_COPY(Z_OBJ_P(ZEND_THIS));
}

ZEND_METHOD(Async_Scope, spawn)
{
	async_task_args_t task;
	ZEND_PARSE_PARAMETERS_START(1, -1)
		ASYNC_PARAM_TASK(task)
	ZEND_PARSE_PARAMETERS_END();

	SCOPE_OR_THROW(scope);
	async__spawn_task(scope, NULL, &task, return_value);
}

ZEND_METHOD(Async_Scope, cancel)
{
	zend_object *error = NULL;
	ZEND_PARSE_PARAMETERS_START(0, 1)
		Z_PARAM_OPTIONAL
		Z_PARAM_OBJ_OF_CLASS_OR_NULL(error, async__ce_async_cancellation)
	ZEND_PARSE_PARAMETERS_END();
	SCOPE_OR_THROW(scope);
	async__scope_add_ref(scope);
	async__scope_cancel(scope, error, true);
	async__scope_release(scope);
}

ZEND_METHOD(Async_Scope, awaitCompletion)
{
	zend_object *token;
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_OBJ_OF_CLASS(token, async__ce_awaitable)
	ZEND_PARSE_PARAMETERS_END();
	SCOPE_OR_THROW(scope);
	(void) async__wait_token(token); /* used even when no wait follows */

	if (async__scope_is_cancelled(scope)) {
		async__throw(async__ce_async_cancellation, "The scope has been cancelled");
		RETURN_THROWS();
	}
	if (!scope_can_await(scope)) {
		RETURN_THROWS();
	}
	if (async__scope_is_finished(scope) || ASYNC_SCOPE(scope)->disposed) {
		return;
	}
	async__scope_add_ref(scope);
	scope_wait(scope, ASYNC_SCOPE_FINISHED, token);
	async__scope_release(scope);
}

ZEND_METHOD(Async_Scope, awaitAfterCancellation)
{
	zval *handler = NULL;
	zend_object *token = NULL;
	ZEND_PARSE_PARAMETERS_START(0, 2)
		Z_PARAM_OPTIONAL
		Z_PARAM_ZVAL_OR_NULL(handler)
		Z_PARAM_OBJ_OF_CLASS_OR_NULL(token, async__ce_awaitable)
	ZEND_PARSE_PARAMETERS_END();
	(void) async__wait_token(token); /* used even when no wait follows */
	if (handler != NULL && !zend_is_callable(handler, 0, NULL)) {
		zend_argument_type_error(1, "must be a valid callback or null");
		RETURN_THROWS();
	}
	SCOPE_OR_THROW(scope);
	if (!async__scope_is_cancelled(scope)) {
		async__throw(async__ce_async_exception, "Attempt to await a Scope that has not been cancelled");
		RETURN_THROWS();
	}
	if (!scope_can_await(scope)) {
		RETURN_THROWS();
	}
	async_scope_t *s = ASYNC_SCOPE(scope);
	if (s->tree_total == 0) {
		return;
	}
	async__scope_add_ref(scope);
	zend_array *mine = NULL;
	if (s->collected_errors == NULL) {
		s->collected_errors = mine = zend_new_array(0);
	}
	bool ok = scope_wait(scope, ASYNC_SCOPE_DRAINED, token);
	zend_array *errors = mine;
	if (mine != NULL && s->collected_errors == mine) {
		s->collected_errors = NULL;
	}
	if (ok && errors != NULL) {
		zval *err;
		ZEND_HASH_FOREACH_VAL(errors, err) {
			if (handler == NULL) {
				Z_ADDREF_P(err);
				zend_throw_exception_internal(Z_OBJ_P(err));
				break;
			}
			zval args[2], retval;
			ZVAL_COPY(&args[0], err);
			ZVAL_OBJ_COPY(&args[1], Z_OBJ_P(ZEND_THIS));
			call_user_function(NULL, NULL, handler, &retval, 2, args);
			zval_ptr_dtor(&retval);
			zval_ptr_dtor(&args[0]);
			zval_ptr_dtor(&args[1]);
			if (EG(exception)) {
				break;
			}
		} ZEND_HASH_FOREACH_END();
	} else if (errors != NULL) {
		/* Cancelled while waiting: the errors were still caught, they go on up the tree. */
		zval *err;
		ZEND_HASH_FOREACH_VAL(errors, err) {
			if (!scope_collect(scope, Z_OBJ_P(err))) {
				async__scheduler_unhandled_exception(NULL, Z_OBJ_P(err));
			}
		} ZEND_HASH_FOREACH_END();
	}
	if (errors != NULL) {
		zend_array_release(errors);
	}
	async__scope_release(scope);
}

ZEND_METHOD(Async_Scope, isFinished)
{
	ZEND_PARSE_PARAMETERS_NONE();
	zend_async_scope_t *scope = THIS_SCOPE();
	RETURN_BOOL(scope == NULL || ASYNC_SCOPE(scope)->disposed || async__scope_is_finished(scope));
}

ZEND_METHOD(Async_Scope, isClosed)
{
	ZEND_PARSE_PARAMETERS_NONE();
	zend_async_scope_t *scope = THIS_SCOPE();
	RETURN_BOOL(scope == NULL || async__scope_is_closed(scope));
}

ZEND_METHOD(Async_Scope, isCancelled)
{
	ZEND_PARSE_PARAMETERS_NONE();
	zend_async_scope_t *scope = THIS_SCOPE();
	RETURN_BOOL(scope != NULL && async__scope_is_cancelled(scope));
}

static void scope_set_handler(INTERNAL_FUNCTION_PARAMETERS, bool child)
{
	zval *handler;
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_ZVAL(handler)
	ZEND_PARSE_PARAMETERS_END();
	if (!zend_is_callable(handler, 0, NULL)) {
		zend_argument_type_error(1, "must be a valid callback");
		RETURN_THROWS();
	}
	SCOPE_OR_THROW(scope);
	zval *slot = child ? &ASYNC_SCOPE(scope)->child_exception_handler : &ASYNC_SCOPE(scope)->exception_handler;
	zval old;
	ZVAL_COPY_VALUE(&old, slot);
	ZVAL_COPY(slot, handler);
	zval_ptr_dtor(&old);
}

ZEND_METHOD(Async_Scope, setExceptionHandler) { scope_set_handler(INTERNAL_FUNCTION_PARAM_PASSTHRU, false); }
ZEND_METHOD(Async_Scope, setChildScopeExceptionHandler) { scope_set_handler(INTERNAL_FUNCTION_PARAM_PASSTHRU, true); }

ZEND_METHOD(Async_Scope, finally)
{
	zval *callback;
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_OBJECT_OF_CLASS(callback, zend_ce_closure)
	ZEND_PARSE_PARAMETERS_END();
	zend_async_scope_t *scope = THIS_SCOPE();
	if (scope == NULL || ASYNC_SCOPE(scope)->disposed) {
		zval retval;
		if (call_user_function(NULL, NULL, callback, &retval, 1, ZEND_THIS) == SUCCESS) {
			zval_ptr_dtor(&retval);
		}
		return;
	}
	async_scope_t *s = ASYNC_SCOPE(scope);
	if (s->finally_handlers == NULL) {
		s->finally_handlers = zend_new_array(1);
		scope_finally_track(scope, true);
	}
	Z_ADDREF_P(callback);
	zend_hash_next_index_insert(s->finally_handlers, callback);
}

ZEND_METHOD(Async_Scope, dispose)
{
	ZEND_PARSE_PARAMETERS_NONE();
	zend_async_scope_t *scope = THIS_SCOPE();
	if (scope != NULL) {
		async__scope_dispose(scope, "Scope was cancelled");
	}
}

ZEND_METHOD(Async_Scope, disposeSafely)
{
	ZEND_PARSE_PARAMETERS_NONE();
	zend_async_scope_t *scope = THIS_SCOPE();
	if (scope != NULL) {
		scope_dispose_ex(scope, "Scope was cancelled", true);
	}
}

/* The timer fired: a coroutine in the main scope disposes the scope (cancellation runs user
 * code, which a reactor callback must not). */
static void scope_timeout_entry(void)
{
	zend_async_scope_t *scope = ZEND_ASYNC_CURRENT_COROUTINE->extended_data;
	ZEND_ASYNC_CURRENT_COROUTINE->extended_data = NULL;
	async__scope_dispose(scope, "Scope has been disposed due to timeout");
	async__scope_release(scope);
}

typedef struct {
	zend_async_event_callback_t base;
	zend_async_scope_t *scope;
} scope_timer_callback_t;

static void scope_timer_fired(zend_async_event_t *event, zend_async_event_callback_t *callback,
	void *result, zend_object *exception)
{
	zend_async_scope_t *scope = ((scope_timer_callback_t *) callback)->scope;
	async_scope_t *s = ASYNC_SCOPE(scope);
	if (s->dispose_timer == NULL) {
		return;
	}
	async__scope_add_ref(scope);
	scope_stop_dispose_timer(s);
	zend_coroutine_t *coro = async__spawn(async__scope_main(), NULL, ZEND_COROUTINE_NORMAL);
	if (coro == NULL || ZEND_COROUTINE_IS_FINISHED(coro)) {
		if (EG(exception)) {
			zend_clear_exception();
		}
		/* No coroutine (shutdown or the context limit): cancel from here. */
		async__scope_dispose(scope, "Scope has been disposed due to timeout");
		async__scope_release(scope);
	} else {
		coro->internal_entry = scope_timeout_entry;
		coro->extended_data = scope;
	}
	if (coro != NULL) {
		ZEND_ASYNC_EVENT_RELEASE(&coro->event);
	}
}

ZEND_METHOD(Async_Scope, disposeAfterTimeout)
{
	zend_long timeout;
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_LONG(timeout)
	ZEND_PARSE_PARAMETERS_END();
	if (timeout < 0) {
		zend_argument_value_error(1, "must be greater than or equal to 0");
		RETURN_THROWS();
	}
	zend_async_scope_t *scope = THIS_SCOPE();
	if (scope == NULL || async__scope_is_closed(scope) || ASYNC_SCOPE(scope)->tree_total == 0) {
		return;
	}
	async_scope_t *s = ASYNC_SCOPE(scope);
	scope_stop_dispose_timer(s);
	zend_async_timer_event_t *timer = ZEND_ASYNC_NEW_TIMER_EVENT((zend_ulong) timeout, false);
	if (timer == NULL) {
		RETURN_THROWS();
	}
	scope_timer_callback_t *cb = (scope_timer_callback_t *) ZEND_ASYNC_EVENT_CALLBACK_EX(scope_timer_fired,
		sizeof(scope_timer_callback_t));
	cb->scope = scope; /* weak: the timer is stopped before the scope goes */
	timer->base.add_callback(&timer->base, &cb->base);
	s->dispose_timer = timer;
	s->dispose_timer_cb = &cb->base;
	ZEND_ASYNC_EVENT_CALLBACK_RELEASE(&cb->base);
	timer->base.start(&timer->base);
}

ZEND_METHOD(Async_Scope, getChildScopes)
{
	ZEND_PARSE_PARAMETERS_NONE();
	array_init(return_value);
	zend_async_scope_t *scope = THIS_SCOPE();
	if (scope == NULL) {
		return;
	}
	for (uint32_t i = 0; i < scope->scopes.length; i++) {
		zval zv;
		ZVAL_OBJ(&zv, async__scope_get_object(scope->scopes.data[i]));
		zend_hash_next_index_insert_new(Z_ARRVAL_P(return_value), &zv);
	}
}

/* ---------------------------------------------------------------------------------------------
 * Functions
 * ------------------------------------------------------------------------------------------- */

ZEND_FUNCTION(Async_spawn_with)
{
	zend_object *provider;
	async_task_args_t task;
	ZEND_PARSE_PARAMETERS_START(2, -1)
		Z_PARAM_OBJ_OF_CLASS(provider, async__ce_scope_provider)
		ASYNC_PARAM_TASK(task)
	ZEND_PARSE_PARAMETERS_END();

	zend_async_scope_t *scope = scope_from_provider(provider);
	if (scope == NULL) {
		RETURN_THROWS();
	}
	async__scope_add_ref(scope);
	async__spawn_task(scope, provider, &task, return_value);
	async__scope_release(scope);
}

ZEND_FUNCTION(Async_graceful_shutdown)
{
	zend_object *error = NULL;
	ZEND_PARSE_PARAMETERS_START(0, 1)
		Z_PARAM_OPTIONAL
		Z_PARAM_OBJ_OF_CLASS_OR_NULL(error, async__ce_async_cancellation)
	ZEND_PARSE_PARAMETERS_END();
	(void) error; /* spec §9.5: parsed, not used */
	if (!ASYNC_G(launched)) {
		async__scheduler_launch();
	}
	async__scheduler_graceful_shutdown();
}

/* ---------------------------------------------------------------------------------------------
 * Registration
 * ------------------------------------------------------------------------------------------- */

/* The ABI's new_scope slot. */
static zend_async_scope_t *scope_new_for_api(zend_async_scope_t *parent, bool with_zend_object)
{
	zend_async_scope_t *scope = async__scope_new(parent);
	if (with_zend_object) {
		zend_object *obj = scope_wrap(scope, true);
		(void) obj; /* the object holds one reference, the caller the creation one */
	}
	return scope;
}

/* What the core asks of the scope tree (core/core.h). */
static const async_scope_ops_t scope_ops = {
	.main = async__scope_main,
	.current = async__scope_current,
	.create = scope_new_for_api,
	.add_coroutine = async__scope_add_coroutine,
	.remove_coroutine = async__scope_remove_coroutine,
	.forget_coroutine = async__scope_forget_coroutine,
	.handle_error = async__scope_handle_error,
	.strategy_hook = async__scope_strategy_hook,
	.main_finally = scope_main_finally,
	.close_all = scope_close_all,
	.main_dispose = scope_main_dispose,
};

zend_result async__scope_minit(void)
{
	async__scheduler_set_scope_ops(&scope_ops);
	async__ce_scope_provider = register_class_Async_ScopeProvider();
	async__ce_spawn_strategy = register_class_Async_SpawnStrategy(async__ce_scope_provider);
	async__ce_scope = register_class_Async_Scope(async__ce_scope_provider);
	async__ce_scope->create_object = scope_create_object;

	async__object_handlers_init(&scope_handlers, XtOffsetOf(async_scope_object_t, std), scope_dtor_obj, scope_free_obj, scope_get_gc);

	async__class_register(ZEND_ASYNC_CLASS_SCOPE, async__ce_scope);
	zend_register_functions(NULL, ext_functions, NULL, MODULE_PERSISTENT);
	return SUCCESS;
}
