/*
 * classes/classes.h — the classes layer (classes/, and the spine's pool.c and channel.c): the PHP
 * classes and functions built on the core. One header for the layer; each section is one file's.
 */
#ifndef ASYNC_CLASSES_H
#define ASYNC_CLASSES_H

#include "php.h"
#include "zend_closures.h"
#include "php_async.h"
#include "zend_async_API.h"
#include "core/core.h"

/* context.c — Async\Context (context.c): key/value storage of a coroutine or a scope. */

extern zend_class_entry *async__ce_context;

/* MINIT: the class and the coroutine's context factory (current_context() and its siblings are
 * scope.c's: a context belongs to a scope). */
zend_result async__context_minit(void);
zend_object *async__context_new_object(void);
/* Links a scope's Context to its scope for find()/get()/has() through the ancestors. */
void async__context_set_scope(zend_object *context, zend_async_scope_t *scope);

/*
 * scope.c — the tree of coroutines (Async\Scope) as the rest of the extension sees it.
 *
 * A scope is a C event (ref-counted) that may or may not have a PHP object. It stays alive while
 * something holds it: its PHP object, each live coroutine in it, each child scope, and owners such
 * as a TaskGroup (async__scope_add_ref / async__scope_release).
 *
 * The scope's event notifies its callbacks with `result` pointing at an async_scope_notice_t:
 *   ASYNC_SCOPE_FINISHED   no active (non-zombie) coroutine left in the subtree
 *   ASYNC_SCOPE_DRAINED    no coroutine at all (zombies included) left in the subtree
 *   ASYNC_SCOPE_CANCELLED  the scope was cancelled (before its coroutines are)
 *   ASYNC_SCOPE_DISPOSED   the scope was disposed (closed for good, finally handlers run)
 *   ASYNC_SCOPE_FREED      the memory goes now: drop any pointer to it, run nothing
 * A callback checks the notice and ignores the others.
 */

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

extern zend_class_entry *async__ce_scope;
extern zend_class_entry *async__ce_scope_provider;
extern zend_class_entry *async__ce_spawn_strategy;

zend_result async__scope_minit(void);

/* The main scope, created with the main coroutine at launch; disposed at request end. */
zend_async_scope_t *async__scope_main(void);
void async_scope_main_dispose(void);

/* The scope spawn() uses now: the current coroutine's, else the main scope (launches). */
zend_async_scope_t *async__scope_current(void);

/* A new scope: a child of `parent`, or a detached root when parent is NULL. A child inherits
 * the parent's DISPOSE_SAFELY flag; a root is not-safe. The caller holds one reference. */
zend_async_scope_t *async__scope_new(zend_async_scope_t *parent);
void async__scope_add_ref(zend_async_scope_t *scope);
void async__scope_release(zend_async_scope_t *scope);

/* Cancels the scope and its subtree (spec §8.3): not-started coroutines never run; started ones
 * are cancelled with `error` (borrowed; NULL = "Scope was cancelled"), or turned into zombies when
 * the scope is safe and `is_safely` allows it. Closes the scope. */
void async__scope_cancel(zend_async_scope_t *scope, zend_object *error, bool is_safely);

/* No more spawns. Disposal happens when the last coroutine and child scope are gone. */
void async__scope_close(zend_async_scope_t *scope);

/* Suspends until every coroutine of the scope's subtree is gone (or the scope is disposed).
 * False with an exception; `what` names the operation in the error a destructor gets. */
bool async__scope_await_finished(zend_async_scope_t *scope, const char *what);

/* close + cancel (honouring the safe flag) + dispose when possible. */
void async__scope_dispose(zend_async_scope_t *scope, const char *message);

static zend_always_inline bool async__scope_is_closed(zend_async_scope_t *scope)
{
	return ZEND_ASYNC_SCOPE_IS_CLOSED(scope);
}
static zend_always_inline bool async__scope_is_cancelled(zend_async_scope_t *scope)
{
	return ZEND_ASYNC_SCOPE_IS_CANCELLED(scope);
}
/* Closed (disposed, or close()d) or cancelled: no new coroutines. A cancelled scope is closed only
 * by its disposal, which comes when its last coroutine and child scope are gone. */
static zend_always_inline bool async__scope_refuses_spawn(zend_async_scope_t *scope)
{
	return ZEND_ASYNC_SCOPE_IS_CLOSED(scope) || ZEND_ASYNC_SCOPE_IS_CANCELLED(scope);
}
static zend_always_inline bool async__scope_is_finished(zend_async_scope_t *scope)
{
	return ASYNC_SCOPE(scope)->tree_active == 0;
}

/* The Async\Scope object for a scope (created on demand; a new reference). */
zend_object *async__scope_get_object(zend_async_scope_t *scope);
zend_async_scope_t *async__scope_from_object(zend_object *object);

/* The scope's Async\Context (created on demand; borrowed). */
zend_object *async__scope_get_context(zend_async_scope_t *scope);

/* Coroutine bookkeeping, called by the scheduler and coroutine.c. */
bool async__scope_add_coroutine(zend_async_scope_t *scope, zend_coroutine_t *coroutine);
void async__scope_remove_coroutine(zend_coroutine_t *coroutine);
void async__scope_forget_coroutine(zend_coroutine_t *coroutine);
/* SpawnStrategy hooks around the enqueue; false with an exception when a hook threw. */
bool async__scope_strategy_hook(zend_object *provider, zend_coroutine_t *coroutine, zend_async_scope_t *scope,
	bool before);
void async_scope_main_finally(void);
zend_async_scope_t *async_scope_new_for_api(zend_async_scope_t *parent, bool with_zend_object);
/* An unhandled error leaving a coroutine: scope handlers, then fail-together up the tree.
 * Returns true when a handler absorbed it. */
bool async__scope_handle_error(zend_coroutine_t *coroutine, zend_object *exception);
/* The walk itself, from `scope` up (own handler; else cancel and go to the parent's child-scope
 * handler...), stopping at the main scope. `parent_of_first` stands in for the first scope's
 * parent when it is already detached. A handler that throws replaces *exception. */
bool async__scope_propagate_error(zend_async_scope_t *scope, zend_async_scope_t *parent_of_first,
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
static zend_always_inline bool async__parse_task_callable(zval *arg, zend_fcall_info *fci,
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
	return async__compat_parse_arg_func(arg, fci, fcc, error);
}

/* Z_PARAM_FUNC() through async__parse_task_callable(), then the variadic arguments. */
#define ASYNC_PARAM_TASK(task) \
	Z_PARAM_PROLOGUE(0, 0); \
	if (UNEXPECTED(!async__parse_task_callable(_arg, &(task).fci, &(task).fcc, &_error))) { \
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
static zend_always_inline zend_fcall_t *async__task_fcall(async_task_args_t *task)
{
	return zend_async_fcall_new_with_args(&task->fci, &task->fcc, task->args, task->args_count, task->named_args);
}

/* Spawns the task into `scope` (NULL = current); return_value gets the coroutine's handle, or
 * stays unset with an exception on failure. */
void async__spawn_task(zend_async_scope_t *scope, zend_object *provider, async_task_args_t *task, zval *return_value);

/*
 * future.c — Async\FutureState / Async\Future, and the C helpers other parts of
 * ext-async use to hand PHP a Future (e.g. Channel::recvAsync()).
 *
 * A future is a zend_future_t event living inside a hidden Async\FutureState object: it is
 * reference counted like a Zend object (ZEND_ASYNC_EVENT_ADD_REF / ZEND_ASYNC_EVENT_RELEASE work
 * on it), and the Future objects PHP sees are event references to it.
 */

extern zend_class_entry *async__ce_future_state;
extern zend_class_entry *async__ce_future;

/* MINIT: the classes and the scheduler table's new_future slot. */
zend_result async__future_minit(void);

/* A new pending future, "created at" the current PHP line. The caller owns one reference. */
zend_future_t *async__future_new(void);

/* Complete a pending future: the value is copied, the error gets its own reference. Both return
 * false without an exception when the future is already completed (e.g. the reader cancelled
 * it), so a producer racing a cancel needs no check of its own. */
bool async__future_resolve(zend_future_t *future, zval *value);
bool async__future_reject(zend_future_t *future, zend_object *error);

/* The producer of an unsettled future that holds a reference to it learns when nobody else can
 * observe it any more: the last Async\Future reading it was freed, nothing else holds it, and at
 * most one callback (the producer's own) is subscribed — no awaiter, no map/catch/finally. A
 * producer that only exists to settle it (signal()) can then stop. */
typedef void (*async_future_reader_gone_fn)(zend_future_t *future);
void async__future_on_reader_gone(zend_future_t *future, async_future_reader_gone_fn fn);

/* A new Async\Future object reading `future` (it takes its own reference). */
zend_object *async__future_new_object(zend_future_t *future);

/* True when the future was rejected with a cancellation (Future::cancel() or a cancelled chain). */
bool async__future_is_cancelled(zend_future_t *future);

/* timeout.c — Async\Timeout and Async\timeout() (timeout.c): a one-shot reactor timer as a
 * cancellation token. */

extern zend_class_entry *async__ce_timeout;

/* MINIT: the class and timeout(). */
zend_result async__timeout_minit(void);
/* A new Async\Timeout of `ms` milliseconds (> 0), or NULL with an exception. */
zend_object *async__timeout_new(zend_long ms);

/*
 * task_group.c — Async\TaskGroup and Async\TaskSet (spec §3.9, §3.10, §8.9).
 */

extern zend_class_entry *async__ce_task_group;
extern zend_class_entry *async__ce_task_set;

zend_result async__task_group_minit(void);

/*
 * What the two files of Async\TaskGroup / Async\TaskSet share: task_group.c (the group, its
 * tasks, settling and completion, foreach, the PHP methods) and task_group_join.c (the futures of
 * all()/race()/any(), the TaskSet joins, and a task leaving the group). task_group.c calls into
 * task_group_join.c, never the other way; only these two files use the names below.
 */

typedef struct _async_task_group_s async_task_group_t;
typedef struct _tg_task_s tg_task_t;
typedef struct _tg_waiter_s tg_waiter_t;
typedef struct _tg_join_s tg_join_t;

typedef enum { TASK_QUEUED, TASK_RUNNING, TASK_OK, TASK_ERROR } tg_task_state;
typedef enum { JOIN_ALL, JOIN_RACE, JOIN_ANY } tg_join_kind;
typedef enum { WAIT_PRODUCER, WAIT_ITERATOR } tg_waiter_kind;

/* A task. It is the callback subscribed to its coroutine, so it is reference counted like one:
 * the tasks table holds a reference, the coroutine's callback vector another while subscribed. */
struct _tg_task_s {
	zend_async_event_callback_t cb;
	async_task_group_t *group;       /* NULL once detached from a freed group */
	zend_coroutine_t *coroutine;     /* one reference while running */
	zend_fcall_t *fcall;             /* the callable and its arguments while queued */
	async_list_node_t link;          /* in the queue while queued, in `settled` once settled */
	zval key;
	zval result;
	zend_object *error;
	uint64_t seq;                    /* spawn order: all() covers the tasks older than the call */
	tg_task_state state;
	bool linked;                     /* in the queue or in `settled` */
	bool removed;                    /* no longer in the tasks table (delivered by a TaskSet) */
	bool handled;                    /* its error was observed */
};

#define TASK_OF(n)       ASYNC_LIST_ITEM((n), tg_task_t, link)
#define FIRST_TASK(list) ((list)->first ? TASK_OF((list)->first) : NULL)
#define NEXT_TASK(t)     ((t)->link.next ? TASK_OF((t)->link.next) : NULL)

/* A coroutine parked on the group: a producer waiting for room in the queue or an iterator
 * waiting for the next settled task. It is the waker's callback; the list holds one reference. */
struct _tg_waiter_s {
	zend_coroutine_event_callback_t cb;
	async_list_node_t link;          /* in the group's `waiters` while linked */
	tg_waiter_kind kind;
	bool linked;
};

/* A pending future of all()/race()/any() (TaskSet: joinAll/joinNext/joinAny). */
struct _tg_join_s {
	async_list_node_t link;          /* in the group's `joins` while linked */
	bool linked;
	zend_future_t *future;           /* one reference */
	tg_join_kind kind;
	bool ignore_errors;              /* all(true) */
	uint64_t limit;                  /* all(): covers the tasks with seq < limit */
	uint32_t pending;                /* all(): covered tasks not settled yet */
};

struct _async_task_group_s {
	zend_async_event_t event;        /* first: the Awaitable event */
	HashTable tasks;                 /* key => tg_task_t*, in spawn order */
	async_list_t queue;              /* queued tasks, FIFO */
	async_list_t settled;            /* settled tasks in settle order (TaskSet: undelivered ones) */
	async_list_t waiters;            /* parked producers and iterators (tg_waiter_t) */
	async_list_t joins;              /* pending joins, oldest first (tg_join_t) */
	zend_async_scope_t *scope;       /* the group's own scope (one reference) */
	zend_async_scope_t *parent_scope; /* the scope it was created in (one reference) */
	zend_object *scope_obj;          /* the Scope object given to the constructor (one reference):
	                                  * a temporary one lives as long as the group */
	zend_async_event_callback_t *scope_listener;
	zend_array *finally_handlers;
	zval completion;                 /* the results array the event fired with */
	uint32_t concurrency;            /* 0 = unlimited */
	uint32_t queue_limit;            /* 0 = unbounded */
	uint32_t queued, running;
	uint64_t next_seq;
	bool is_set;                     /* Async\TaskSet: delivered entries are removed */
	bool constructed;
	bool closed;                     /* no new tasks */
	bool disposed;                   /* dispose() or destruction: spawn() says "completed" */
	bool destroyed;
	bool cancelled;                  /* cancel(), dispose(), destruction: queued tasks never start */
	bool pumping;                    /* starting queued tasks (re-entrancy guard) */
	zend_object std;
};

#define TG_FROM_OBJ(o)    ((async_task_group_t *) ((char *) (o) - XtOffsetOf(async_task_group_t, std)))
#define TG_EVENT(g)       (&(g)->event)
#define TG_COMPLETE(g)    ZEND_ASYNC_EVENT_IS_CLOSED(TG_EVENT(g))
#define TG_NAME(g)        ((g)->is_set ? "TaskSet" : "TaskGroup")
#define TG_UNSETTLED(g)   ((g)->queued + (g)->running)
#define WAITER_OF(n)      ASYNC_LIST_ITEM((n), tg_waiter_t, link)
#define JOIN_OF(n)        ASYNC_LIST_ITEM((n), tg_join_t, link)
#define FIRST_JOIN(g)     ((g)->joins.first ? JOIN_OF((g)->joins.first) : NULL)

static zend_always_inline void async__tg_task_addref(tg_task_t *t)
{
	t->cb.ref_count++;
}

static zend_always_inline void async__tg_task_release(tg_task_t *t)
{
	zend_async_event_callback_unref(&t->cb, NULL);
}

/* A task out of the group's queue or settled list (once). */
static zend_always_inline void async__tg_list_remove(async_list_t *list, tg_task_t *t)
{
	if (!t->linked) {
		return;
	}
	async_list_remove(list, &t->link);
	t->linked = false;
}

/* task_group.c */
bool async__tg_park(async_task_group_t *g, tg_waiter_kind kind);

/* task_group_join.c */
void async__tg_task_remove(async_task_group_t *g, tg_task_t *t);
void async__tg_task_pair(tg_task_t *t, zval *pair);
const char *async__tg_join_method(async_task_group_t *g, tg_join_kind kind);
tg_join_t *async__tg_join_new(async_task_group_t *g, tg_join_kind kind);
void async__tg_join_link(async_task_group_t *g, tg_join_t *j);
void async__tg_join_unlink(async_task_group_t *g, tg_join_t *j);
void async__tg_join_finish(async_task_group_t *g, tg_join_t *j, zval *value, zend_object *error);
void async__tg_join_finish_task(async_task_group_t *g, tg_join_t *j, tg_task_t *t);
/* A CompositeException whose exceptions array is `errors` (task key => error; borrowed). */
zend_object *async__tg_composite(HashTable *errors, const char *format, ...) ZEND_ATTRIBUTE_FORMAT(printf, 2, 3);
const char *async__tg_plural(uint32_t n);
void async__tg_array_set(HashTable *ht, zval *key, zval *value);
void async__tg_build_results(async_task_group_t *g, zval *results);
void async__tg_build_errors(async_task_group_t *g, zval *errors);
void async__tg_join_all_finish(async_task_group_t *g, tg_join_t *j);
tg_task_t *async__tg_first_success(async_task_group_t *g);
void async__tg_join_any_fail(async_task_group_t *g, tg_join_t *j);
void async__tg_join_starve(async_task_group_t *g);
void async__tg_deliver(async_task_group_t *g, tg_task_t *t);

/* iterate.c — Async\iterate() (iterate.c). */

zend_result async__iterate_minit(void);

/* virtual_time.c — Async\Testing\virtual_time() (virtual_time.c). */

zend_result async__virtual_time_minit(void);

/* await.c — the await_* family (await.c): waiting for many awaitables at once. */

zend_result async__await_minit(void);

/* signal_wait.c — Async\signal() and Async\Signal (signal_wait.c): a Future that resolves when the process
 * receives a signal. */

extern zend_class_entry *async__ce_signal;

/* MINIT: the enum, signal(), and the graceful-shutdown listener that rejects pending waits. */
zend_result async__signal_minit(void);
/* Request end: pending waits let go of their events (before the reactor shuts down). */
void async__signal_rshutdown(void);

/* fs_watcher.c — Async\FileSystemWatcher and Async\FileSystemEvent (fs_watcher.c, spec §3.15). */

extern zend_class_entry *async__ce_fs_watcher;
extern zend_class_entry *async__ce_fs_event;

/* MINIT: both classes. */
zend_result async__fs_watcher_minit(void);

/* cpu.c — Async\CpuSnapshot, cpu_usage(), loadavg(), available_parallelism() (cpu.c). */

extern zend_class_entry *async__ce_cpu_snapshot;

zend_result async__cpu_minit(void);
/* Request end: the stored snapshot of cpu_usage() goes. */
void async__cpu_rshutdown(void);

/* runtime_stats.c — Async\runtime_stats() (runtime_stats.c). */

zend_result async__runtime_stats_minit(void);

/* channel.c — Async\Channel for the rest of the runtime (spec §3.7, §8.7). */

/* The cases of Async\ChannelCloseReason, in declaration order. */
typedef enum {
	ASYNC_CHANNEL_EXPLICIT = 0,
	ASYNC_CHANNEL_DISPOSED,
	ASYNC_CHANNEL_NO_PRODUCERS,
	ASYNC_CHANNEL_NO_CONSUMERS,
	ASYNC_CHANNEL_DEADLOCK,
	ASYNC_CHANNEL_SCOPE_DISPOSED
} async_channel_close_reason;

extern zend_class_entry *async__ce_channel;
extern zend_class_entry *async__ce_channel_close_reason;
extern zend_class_entry *async__ce_channel_exception;

/* MINIT: the enum, the class, and the scheduler table's new_channel slot. */
zend_result async__channel_minit(void);

/* Closes with a reason (first reason wins). For the owner-scope binding (SCOPE_DISPOSED). */
void async__channel_close(zend_async_channel_t *channel, async_channel_close_reason reason);

/* A fresh ChannelException carrying `reason` (message and $reason property). */
zend_object *async__channel_exception(async_channel_close_reason reason);

/* pool.c — Async\Pool and the ABI's pool table (pool.c). */

extern zend_class_entry *async__ce_pool;
extern zend_class_entry *async__ce_circuit_breaker;
extern zend_class_entry *async__ce_circuit_breaker_state;
extern zend_class_entry *async__ce_circuit_breaker_strategy;

/* MINIT: the classes and the zend_async_pool_api slots. */
zend_result async__pool_minit(void);

#endif /* ASYNC_CLASSES_H */
