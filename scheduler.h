/*
 * scheduler.h — the run queue, the loop that drives coroutines, spawning, graceful shutdown and
 * deadlock detection (scheduler.c), and the registration lists through which the layers above
 * the core take part in them without the core naming their files.
 */
#ifndef ASYNC_SCHEDULER_H
#define ASYNC_SCHEDULER_H

#include "php_async.h"
#include "coroutine.h"
#include "async_compat.h"

/* Switching is blocked: PHP blocks it inside destructors before 8.4 (P9), and the hooks block it
 * where a user handler runs inside PHP's own I/O code. */
#define ASYNC_SWITCH_BLOCKED() zend_fiber_switch_blocked()

/* May the current flow switch away: not the scheduler's own context, not where switching is
 * blocked (a destructor on PHP < 8.4, P9)? The one rule behind async_wait_allowed() and
 * Async\suspend(). */
static zend_always_inline bool async_scheduler_may_switch(void)
{
	return !ASYNC_SWITCH_BLOCKED() && !ZEND_ASYNC_G(in_scheduler_context);
}

void async_scheduler_register(void);
void async_scheduler_rinit(void);
void async_scheduler_request_startup(void);
void async_scheduler_rshutdown(void);
void async_scheduler_launch(void);
bool async_scheduler_enqueue(zend_coroutine_t *coroutine);

/* The same, inline, for the core's primitives whose every message wakes a coroutine (a channel's
 * rendezvous): its run-queue entry (with the reference the entry holds) and a waiting waker marked
 * queued. False for a finished coroutine. */
static zend_always_inline bool async_scheduler_queue_enter(zend_coroutine_t *coroutine)
{
	async_coroutine_t *co = ASYNC_CO_FROM_CORO(coroutine);
	/* Main is "finished" for its awaiters once the script ended, yet shutdown functions still
	 * run on it and may wait. */
	if (ZEND_COROUTINE_IS_FINISHED(coroutine) && !ZEND_COROUTINE_IS_MAIN(coroutine)) {
		return false;
	}
	/* Even when an older entry is still in the ring, the waiter is now due: the entry counts. */
	if (coroutine->waker != NULL && coroutine->waker->status == ZEND_ASYNC_WAKER_WAITING) {
		coroutine->waker->status = ZEND_ASYNC_WAKER_QUEUED;
	}
	if (co->in_queue) {
		return true;
	}
	ZEND_ASSERT(!ZEND_COROUTINE_IS_FINISHED(coroutine) || ZEND_COROUTINE_IS_MAIN(coroutine));
	co->in_queue = true;
	GC_ADDREF(&co->std);
	*ASYNC_RING_PUSH(&ASYNC_G(run_queue), zend_coroutine_t *) = coroutine;
	return true;
}

/* Suspends the current coroutine until its waker is resolved; async_wait.c is the way to use it. */
void async_scheduler_suspend(bool from_main);
/* The same for a wait async_wait_begin() allowed: its checks (launched, not the scheduler's
 * context, not a destructor) still hold, as nothing between the two suspends or enters a
 * destructor for good, so they are not made twice (zend_fiber_switch_blocked() is a call). */
void async_scheduler_suspend_begun(void);
/* Async\suspend(): the current coroutine goes behind the others in the run queue and runs again
 * when its turn comes. A no-op before the scheduler exists and where switching is impossible;
 * throws a cancellation requested while it ran. */
void async_scheduler_yield(void);
/* A coroutine finished on its worker, which parks: the run queue's head, taken with its queue
 * reference, when it is a started coroutine the worker may switch straight into (B ends -> A: one
 * switch, not B -> loop -> A; the same rules as a suspension's hand-off). NULL: park to the loop. */
async_coroutine_t *async_scheduler_handoff_after_finish(void);
/* What a coroutine waits for, for reports (the deadlock report, the dump on a signal). */
zend_string *async_scheduler_wait_info(zend_coroutine_t *coro);
void async_scheduler_unhandled_exception(async_coroutine_t *co, zend_object *exception);
void async_scheduler_request_exit(void);
void async_scheduler_graceful_shutdown(void);
/* A new coroutine in `scope` (NULL: the current one), queued; the caller owns one reference. */
zend_coroutine_t *async_spawn(zend_async_scope_t *scope, zend_object *provider, int32_t priority);
/* A runtime helper coroutine (finally handlers): spawned into `scope` even when it is closed or
 * cancelled (main's when it is disposed), never cancelled at once by a graceful shutdown, no
 * strategy hooks. The caller sets its entry, then drops the returned reference. NULL when
 * nothing would run it (a destructor after the last drain). */
zend_coroutine_t *async_spawn_helper(zend_async_scope_t *scope);

/* ---------------------------------------------------------------------------------------------
 * Registration (MINIT only; the tables are process-wide like the function table)
 * ------------------------------------------------------------------------------------------- */

/* The scope tree as the core uses it. Scopes are a primitive (scope.c) above the core, which
 * knows them only as the ABI's zend_async_scope_t: scope.c registers these at MINIT. */
typedef struct {
	zend_async_scope_t *(*main)(void);      /* the main scope, made on first use */
	zend_async_scope_t *(*current)(void);   /* the current coroutine's scope (main's outside) */
	zend_async_scope_t *(*create)(zend_async_scope_t *parent, bool with_zend_object); /* ABI new_scope */
	bool (*add_coroutine)(zend_async_scope_t *scope, zend_coroutine_t *coroutine);
	void (*remove_coroutine)(zend_coroutine_t *coroutine);  /* it finished */
	void (*forget_coroutine)(zend_coroutine_t *coroutine);  /* freed without finishing */
	/* An error nobody awaited: the scope's handlers and fail-together; true when handled. */
	bool (*handle_error)(zend_coroutine_t *coroutine, zend_object *exception);
	/* A SpawnStrategy's before/afterCoroutineEnqueue; false with an exception. */
	bool (*strategy_hook)(zend_object *provider, zend_coroutine_t *coroutine, zend_async_scope_t *scope, bool before);
	/* Runs the main scope's finally handlers; false when it has none. */
	bool (*main_finally)(void);
	/* After a fatal error: every scope below main is closed, children first (their finally
	 * handlers run once their coroutines are gone; nothing else would, PHP destroys no object
	 * after a fatal error). */
	void (*close_all)(void);
	void (*main_dispose)(void);             /* request end */
} async_scope_ops_t;

void async_scheduler_set_scope_ops(const async_scope_ops_t *ops);
extern const async_scope_ops_t *async_scope_ops;

/* Deadlock resolvers run, in registration order, before the scheduler declares a deadlock
 * (spec §8.5 step 1); one that returns true woke somebody and the loop goes on. */
typedef bool (*async_deadlock_resolver_fn)(void);
void async_scheduler_add_deadlock_resolver(async_deadlock_resolver_fn resolver);

/* Shutdown listeners hear that a graceful shutdown began (reason: its message), after every
 * coroutine was cancelled: waits that no coroutine would ever end are rejected there. */
typedef void (*async_shutdown_listener_fn)(const char *reason);
void async_scheduler_add_shutdown_listener(async_shutdown_listener_fn listener);

#endif /* ASYNC_SCHEDULER_H */
