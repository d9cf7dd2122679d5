/*
 * scope.h — the tree of coroutines (Async\Scope) as the rest of the extension sees it.
 *
 * A scope is a C event (ref-counted) that may or may not have a PHP object. It stays alive while
 * something holds it: its PHP object, each live coroutine in it, each child scope, and owners such
 * as a TaskGroup (async_scope_add_ref / async_scope_release).
 *
 * The scope's event notifies its callbacks with `result` pointing at an async_scope_notice_t:
 *   ASYNC_SCOPE_FINISHED   no active (non-zombie) coroutine left in the subtree
 *   ASYNC_SCOPE_DRAINED    no coroutine at all (zombies included) left in the subtree
 *   ASYNC_SCOPE_CANCELLED  the scope was cancelled (before its coroutines are)
 *   ASYNC_SCOPE_DISPOSED   the scope was disposed (closed for good, finally handlers run)
 *   ASYNC_SCOPE_FREED      the memory goes now: drop any pointer to it, run nothing
 * A callback checks the notice and ignores the others.
 */
#ifndef ASYNC_SCOPE_H
#define ASYNC_SCOPE_H

#include "php_async.h"
#include "zend_closures.h"
#include "async_compat.h"

typedef enum {
	ASYNC_SCOPE_FINISHED = 1,
	ASYNC_SCOPE_DRAINED = 2,
	ASYNC_SCOPE_CANCELLED = 3,
	ASYNC_SCOPE_DISPOSED = 4,
	ASYNC_SCOPE_FREED = 5
} async_scope_notice_t;

typedef struct _async_scope_s async_scope_t;

struct _async_scope_s {
	zend_async_scope_t scope;        /* first: the event sits at offset 0 */
	async_list_t coroutines;         /* live coroutines in this scope, in spawn order (their scope_node; not owning) */
	uint32_t active;                 /* live, non-zombie coroutines directly in this scope */
	uint32_t zombies;                /* live zombies directly in this scope */
	uint32_t tree_active;            /* active in the whole subtree */
	uint32_t tree_total;             /* active + zombies in the whole subtree */
	zend_object *object;             /* the Async\Scope object, if one exists (weak) */
	zend_object *context;            /* Async\Context of the scope, lazily (owned) */
	zval exception_handler;          /* callable or UNDEF */
	zval child_exception_handler;    /* callable or UNDEF */
	zend_array *finally_handlers;
	zend_async_timer_event_t *dispose_timer;   /* disposeAfterTimeout() */
	zend_async_event_callback_t *dispose_timer_cb;
	zend_array *collected_errors;    /* awaitAfterCancellation(): errors of the subtree while it waits */
	bool disposed;
};

#define ASYNC_SCOPE(s) ((async_scope_t *) (s))

extern zend_class_entry *async_ce_scope;
extern zend_class_entry *async_ce_scope_provider;
extern zend_class_entry *async_ce_spawn_strategy;

void async_register_scope_class(void);

/* The main scope, created with the main coroutine at launch; disposed at request end. */
zend_async_scope_t *async_scope_main(void);
void async_scope_main_dispose(void);

/* The scope spawn() uses now: the current coroutine's, else the main scope (launches). */
zend_async_scope_t *async_scope_current(void);

/* A new scope: a child of `parent`, or a detached root when parent is NULL. A child inherits
 * the parent's DISPOSE_SAFELY flag; a root is not-safe. The caller holds one reference. */
zend_async_scope_t *async_scope_new(zend_async_scope_t *parent);
void async_scope_add_ref(zend_async_scope_t *scope);
void async_scope_release(zend_async_scope_t *scope);

/* Cancels the scope and its subtree (spec §8.3): not-started coroutines never run; started ones
 * are cancelled with `error` (borrowed; NULL = "Scope was cancelled"), or turned into zombies when
 * the scope is safe and `is_safely` allows it. Closes the scope. */
void async_scope_cancel(zend_async_scope_t *scope, zend_object *error, bool is_safely);

/* No more spawns. Disposal happens when the last coroutine and child scope are gone. */
void async_scope_close(zend_async_scope_t *scope);

/* Suspends until every coroutine of the scope's subtree is gone (or the scope is disposed).
 * False with an exception; `what` names the operation in the error a destructor gets. */
bool async_scope_await_finished(zend_async_scope_t *scope, const char *what);

/* close + cancel (honouring the safe flag) + dispose when possible. */
void async_scope_dispose(zend_async_scope_t *scope, const char *message);

static zend_always_inline bool async_scope_is_closed(zend_async_scope_t *scope)
{
	return ZEND_ASYNC_SCOPE_IS_CLOSED(scope);
}
static zend_always_inline bool async_scope_is_cancelled(zend_async_scope_t *scope)
{
	return ZEND_ASYNC_SCOPE_IS_CANCELLED(scope);
}
/* Closed (disposed, or close()d) or cancelled: no new coroutines. A cancelled scope is closed only
 * by its disposal, which comes when its last coroutine and child scope are gone. */
static zend_always_inline bool async_scope_refuses_spawn(zend_async_scope_t *scope)
{
	return ZEND_ASYNC_SCOPE_IS_CLOSED(scope) || ZEND_ASYNC_SCOPE_IS_CANCELLED(scope);
}
static zend_always_inline bool async_scope_is_finished(zend_async_scope_t *scope)
{
	return ASYNC_SCOPE(scope)->tree_active == 0;
}

/* The Async\Scope object for a scope (created on demand; a new reference). */
zend_object *async_scope_get_object(zend_async_scope_t *scope);
zend_async_scope_t *async_scope_from_object(zend_object *object);

/* The scope's Async\Context (created on demand; borrowed). */
zend_object *async_scope_get_context(zend_async_scope_t *scope);

/* Coroutine bookkeeping, called by the scheduler and coroutine.c. */
bool async_scope_add_coroutine(zend_async_scope_t *scope, zend_coroutine_t *coroutine);
void async_scope_remove_coroutine(zend_coroutine_t *coroutine);
void async_scope_forget_coroutine(zend_coroutine_t *coroutine);
/* SpawnStrategy hooks around the enqueue; false with an exception when a hook threw. */
bool async_scope_strategy_hook(zend_object *provider, zend_coroutine_t *coroutine, zend_async_scope_t *scope,
	bool before);
void async_scope_main_finally(void);
zend_async_scope_t *async_scope_new_for_api(zend_async_scope_t *parent, bool with_zend_object);
/* An unhandled error leaving a coroutine: scope handlers, then fail-together up the tree.
 * Returns true when a handler absorbed it. */
bool async_scope_handle_error(zend_coroutine_t *coroutine, zend_object *exception);
/* The walk itself, from `scope` up (own handler; else cancel and go to the parent's child-scope
 * handler...), stopping at the main scope. `parent_of_first` stands in for the first scope's
 * parent when it is already detached. A handler that throws replaces *exception. */
bool async_scope_propagate_error(zend_async_scope_t *scope, zend_async_scope_t *parent_of_first,
	zend_coroutine_t *coroutine, zend_object **exception);

/* The `callable $task, mixed ...$args` every spawn-like function takes (spawn(), spawn_with(),
 * Scope::spawn(), TaskGroup::spawn()/spawnWithKey()), parsed with ASYNC_PARAM_TASK(). */
typedef struct {
	zend_fcall_info fci;
	zend_fcall_info_cache fcc;
	zval *args;
	uint32_t args_count;
	HashTable *named_args;
} async_task_args_t;

/* zend_parse_arg_func() for a task. A Closure, the usual task, is read straight from the object:
 * what zend_is_callable_ex() would find for it (its get_closure handler), without the general
 * callable lookup and the name checks around it (~100 instructions of a ~3,500-instruction
 * await(spawn(fn))). Anything else goes the engine's way, errors included. */
static zend_always_inline bool async_parse_task_callable(zval *arg, zend_fcall_info *fci,
	zend_fcall_info_cache *fcc, char **error)
{
	if (EXPECTED(Z_TYPE_P(arg) == IS_OBJECT && Z_OBJCE_P(arg) == zend_ce_closure)) {
		zend_object *closure = Z_OBJ_P(arg);
		fcc->object = NULL;
		if (EXPECTED(closure->handlers->get_closure(closure, &fcc->calling_scope, &fcc->function_handler,
				&fcc->object, true) == SUCCESS)) {
			fcc->called_scope = fcc->calling_scope;
#if ASYNC_FCC_HAS_CLOSURE
			fcc->closure = closure;
#endif
			fci->size = sizeof(*fci);
			ZVAL_COPY_VALUE(&fci->function_name, arg);
			fci->object = NULL;
			fci->retval = NULL;
			fci->param_count = 0;
			fci->params = NULL;
			fci->named_params = NULL;
			*error = NULL;
			return true;
		}
	}
	return async_compat_parse_arg_func(arg, fci, fcc, error);
}

/* Z_PARAM_FUNC() through async_parse_task_callable(), then the variadic arguments. */
#define ASYNC_PARAM_TASK(task) \
	Z_PARAM_PROLOGUE(0, 0); \
	if (UNEXPECTED(!async_parse_task_callable(_arg, &(task).fci, &(task).fcc, &_error))) { \
		if (!_error) { \
			_expected_type = Z_EXPECTED_FUNC; \
			_error_code = ZPP_ERROR_WRONG_ARG; \
		} else { \
			_error_code = ZPP_ERROR_WRONG_CALLBACK; \
		} \
		break; \
	} \
	Z_PARAM_VARIADIC_WITH_NAMED((task).args, (task).args_count, (task).named_args)

/* A heap copy of the task: the callable and its arguments. */
static zend_always_inline zend_fcall_t *async_task_fcall(async_task_args_t *task)
{
	return zend_async_fcall_new_with_args(&task->fci, &task->fcc, task->args, task->args_count, task->named_args);
}

/* Spawns the task into `scope` (NULL = current); return_value gets the coroutine's handle, or
 * stays unset with an exception on failure. */
void async_spawn_task(zend_async_scope_t *scope, zend_object *provider, async_task_args_t *task, zval *return_value);

#endif /* ASYNC_SCOPE_H */
