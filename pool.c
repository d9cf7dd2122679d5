/*
 * pool.c — Async\Pool: reusable resources (connections, handles) shared by coroutines.
 *
 * Two layers (seed 002): zend_async_pool_t is the public half in the ABI; async_pool_t starts
 * with it and adds the idle ring, the FIFO of parked acquirers and the counters. Two ways in:
 * the Async\Pool constructor (PHP callables, zend_fcall_t) and zend_async_pool_create_internal()
 * (C function pointers, called directly); handler_flags tells them apart per callback.
 *
 * The pool is a C event with its own reference count. The PHP object (async_pool_obj_t) is an
 * event reference holding one of those references, so a C extension can create a pool, hand PHP
 * an object for it, and keep using the pool after that object is gone.
 *
 * Counting: idle = resources in the ring; active = everything else the pool accounts for, i.e.
 * resources held by users, being checked by a hook, being created, or handed to a woken waiter.
 * idle + active never exceeds max_size. idleCount() and activeCount() count a resource handed to
 * a woken waiter that has not run yet as idle (`reserved`): nobody holds it yet (TrueAsync's view).
 */
#include "php_async.h"
#include "classes/classes.h"
#include "core/core.h"
#include "zend_exceptions.h"
#include "zend_interfaces.h"
#include "zend_enum.h"
#include "pool_arginfo.h"

zend_class_entry *async__ce_pool;
zend_class_entry *async__ce_circuit_breaker;
zend_class_entry *async__ce_circuit_breaker_state;
zend_class_entry *async__ce_circuit_breaker_strategy;
/* per-process: object handlers, filled once at MINIT */
static zend_object_handlers pool_handlers;

/* ---------------------------------------------------------------------------------------------
 * Structures
 * ------------------------------------------------------------------------------------------- */

typedef enum {
	WAITER_PARKED,    /* nothing yet: woken by its timer, a cancellation or close() */
	WAITER_RESOURCE,  /* handed an idle resource (reserved for it, counted as active) */
	WAITER_SLOT       /* handed a free slot (counted as active): it calls the factory */
} async_pool_waiter_outcome;

typedef struct _async_pool_waiter_s async_pool_waiter_t;

/* A parked acquire(). It is the callback its coroutine's waker subscribes to the pool with, so
 * the pool's add_callback/del_callback keep the FIFO in step with the subscription. */
struct _async_pool_waiter_s {
	zend_coroutine_event_callback_t cb; /* first: seen as a callback by the waker and the vector */
	async_list_node_t node;             /* in the pool's FIFO while linked */
	bool linked;
	async_pool_waiter_outcome outcome;
	zval resource;
};

typedef struct {
	zend_async_pool_t base;             /* first: the public half, and the event */
	async_ring_t idle;                  /* idle resources (zvals), oldest first */
	uint32_t active;
	uint32_t reserved;                  /* of those, idle resources handed to woken waiters not yet run */
	async_list_t waiters;               /* FIFO of parked acquirers */
	zend_async_timer_event_t *healthcheck_timer;
	zend_async_event_callback_t *healthcheck_cb;
	bool healthcheck_running;           /* a maintenance coroutine runs (checks, or only a refill) */
	bool task_checks;                   /* ... and checks idle resources (else it only refills) */
	bool refill_failed;                 /* its factory failed: no refill again until something changes */
	bool object_owned;                  /* made by `new Async\Pool`: closed when that object dies */
} async_pool_t;

/* The PHP object: an event reference (the ABI's ZEND_ASYNC_EVENT_REF layout). */
typedef struct {
	ZEND_ASYNC_EVENT_REF_FIELDS
	zend_object std;
} async_pool_obj_t;

typedef struct {
	zend_async_event_callback_t base;
	async_pool_t *pool;
} async_pool_cb_t;

#define POOL_OBJ(o)          ((async_pool_obj_t *) ((char *) (o) - XtOffsetOf(async_pool_obj_t, std)))
#define POOL_CLOSED(p)       ZEND_ASYNC_EVENT_IS_CLOSED(&(p)->base.event)
#define POOL_TOTAL(p)        ((p)->idle.count + (p)->active)
#define POOL_INTERNAL(p, f)  (((p)->base.handler_flags & (f)) != 0)

static void pool_waiter_notify(zend_async_event_t *event, zend_async_event_callback_t *callback,
	void *result, zend_object *exception);
static zend_object *pool_new_obj(zend_async_pool_t *base);

/* ---------------------------------------------------------------------------------------------
 * Idle resources
 * ------------------------------------------------------------------------------------------- */

/* Takes over the caller's reference. */
static zend_always_inline void ring_push(async_ring_t *ring, zval *value)
{
	ZVAL_COPY_VALUE(ASYNC_RING_PUSH(ring, zval), value);
}

/* Hands the reference to the caller. The oldest idle resource goes first. */
static zend_always_inline bool ring_pop(async_ring_t *ring, zval *value)
{
	if (ring->count == 0) {
		return false;
	}
	ZVAL_COPY_VALUE(value, ASYNC_RING_POP(ring, zval));
	return true;
}

/* ---------------------------------------------------------------------------------------------
 * Exceptions. User code must never run with an exception pending (zend_call_function refuses),
 * so one is set aside while more user code runs, and the earliest is put back at the end with
 * the later ones chained as its previous. exit() wins over everything.
 *
 * Set aside as zend_objects_destroy_object() does it: EG(exception) only, no frame's opline is
 * touched. A pool object dies while the engine unwinds an exception out of a function; its
 * frame is gone and the caller's is current, so zend_clear_exception() would rewind the
 * caller's opline to the callee's throw site and the catch lookup would miss.
 * ------------------------------------------------------------------------------------------- */

static zend_object *pool_take_exception(void)
{
	zend_object *ex = EG(exception);
	EG(exception) = NULL;
	return ex;
}

static bool is_exit(zend_object *ex)
{
	return zend_is_unwind_exit(ex) || zend_is_graceful_exit(ex);
}

static void pool_chain(zend_object **first, zend_object *ex)
{
	if (ex == NULL) {
		return;
	}
	if (*first == NULL) {
		*first = ex;
	} else if (is_exit(*first)) {
		OBJ_RELEASE(ex);
	} else if (is_exit(ex)) {
		OBJ_RELEASE(*first);
		*first = ex;
	} else {
		zend_exception_set_previous(*first, ex); /* consumes ex */
	}
}

/* Puts back what pool_take_exception() set aside (it had been thrown already). */
static void pool_rethrow(zend_object *ex)
{
	if (ex == NULL) {
		return;
	}
	if (EG(exception) != NULL) {
		zend_object *later = pool_take_exception();
		pool_chain(&ex, later);
	}
	EG(exception) = ex;
}

/* A beforeAcquire/beforeRelease hook that throws rejects the resource, as `false` does, and its
 * exception is swallowed (spec §8.8) — but an exit or a cancellation still unwinds. */
static bool hook_error_swallowed(zend_object *ex)
{
	return ex != NULL && !is_exit(ex) && !instanceof_function(ex->ce, async__ce_async_cancellation);
}

/* A strategy's or a healthcheck's exception has nowhere to go (spec §8.8); exit still unwinds. */
static void pool_swallow_exception(void)
{
	if (EG(exception) && !is_exit(EG(exception))) {
		OBJ_RELEASE(pool_take_exception());
	}
}

static zend_object *pool_exception(const char *message)
{
	return async__new_exception(async__ce_pool_exception, message);
}

/* ---------------------------------------------------------------------------------------------
 * Calling the callbacks: C functions directly, callables through zend_call_function().
 * ------------------------------------------------------------------------------------------- */

/* True when the resource passes; false when rejected or when the check threw. */
static bool pool_call_check(async_pool_t *pool, uint32_t flag, zend_fcall_t *fcall,
	zend_async_pool_check_fn fn, zval *resource)
{
	if (POOL_INTERNAL(pool, flag)) {
		return fn(&pool->base, resource) && !EG(exception);
	}
	zval retval;
	zend_async_fcall_call(fcall, &retval, 1, resource);
	/* Only an explicit false rejects: a hook that returns nothing accepts. */
	bool ok = Z_TYPE(retval) != IS_FALSE && !EG(exception);
	zval_ptr_dtor(&retval);
	return ok;
}

/* A hook is set when either member of its union is non-NULL (same storage): tested via .fcall. */
#define POOL_HAS(pool, hook) ((pool)->base.hook.fcall != NULL)
#define POOL_CHECK(pool, hook, FLAG, r) \
	pool_call_check((pool), ZEND_ASYNC_POOL_F_##FLAG##_INTERNAL, (pool)->base.hook.fcall, (pool)->base.hook.fn, (r))

/* Fills *resource; false with an exception, or false alone for "could not create". */
static bool pool_call_factory(async_pool_t *pool, zval *resource)
{
	ZVAL_UNDEF(resource);
	if (POOL_INTERNAL(pool, ZEND_ASYNC_POOL_F_FACTORY_INTERNAL)) {
		if (pool->base.factory.fn(&pool->base, resource) == SUCCESS && !EG(exception)) {
			return true;
		}
		zval_ptr_dtor(resource);
		ZVAL_UNDEF(resource);
		return false;
	}
	zend_async_fcall_call(pool->base.factory.fcall, resource, 0, NULL);
	if (EG(exception) || Z_TYPE_P(resource) == IS_UNDEF || Z_TYPE_P(resource) == IS_FALSE) {
		zval_ptr_dtor(resource);
		ZVAL_UNDEF(resource);
		return false;
	}
	return true;
}

/* Destroys a resource the pool owns a reference to. May leave the destructor's exception. */
static void pool_destroy(async_pool_t *pool, zval *resource)
{
	if (POOL_INTERNAL(pool, ZEND_ASYNC_POOL_F_DESTRUCTOR_INTERNAL)) {
		if (pool->base.destructor.fn) {
			pool->base.destructor.fn(&pool->base, resource);
		}
	} else if (pool->base.destructor.fcall) {
		zval retval;
		zend_async_fcall_call(pool->base.destructor.fcall, &retval, 1, resource);
		zval_ptr_dtor(&retval);
	}
	zval_ptr_dtor(resource);
	ZVAL_UNDEF(resource);
}

/* ---------------------------------------------------------------------------------------------
 * Waiters
 * ------------------------------------------------------------------------------------------- */

static void waiter_link(async_pool_t *pool, async_pool_waiter_t *w)
{
	async_list_append(&pool->waiters, &w->node);
	w->linked = true;
}

static void waiter_unlink(async_pool_t *pool, async_pool_waiter_t *w)
{
	if (!w->linked) {
		return;
	}
	async_list_remove(&pool->waiters, &w->node);
	w->linked = false;
}

/* The oldest waiter still waiting. One whose timer fired or that was cancelled, but that has not
 * run yet, is dropped from the queue: it must not swallow a resource. */
static async_pool_waiter_t *pool_next_waiter(async_pool_t *pool)
{
	while (pool->waiters.first != NULL) {
		async_pool_waiter_t *w = ASYNC_LIST_ITEM(pool->waiters.first, async_pool_waiter_t, node);
		if (ZEND_ASYNC_WAKER_WAITING(w->cb.coroutine->waker)) {
			return w;
		}
		waiter_unlink(pool, w);
	}
	return NULL;
}

static void waiter_wake(async_pool_t *pool, async_pool_waiter_t *w, async_pool_waiter_outcome outcome, zval *resource)
{
	ZEND_ASSERT(w->outcome == WAITER_PARKED && ZEND_ASYNC_WAKER_WAITING(w->cb.coroutine->waker)
		&& "a reservation goes to a waiter still waiting");
	ZEND_ASSERT((outcome == WAITER_RESOURCE) == (resource != NULL));
	pool->active++; /* the reservation: nobody else can take it before the waiter runs */
	w->outcome = outcome;
	if (resource) {
		ZVAL_COPY_VALUE(&w->resource, resource);
		pool->reserved++; /* still idle to idleCount() until the waiter takes it */
	}
	waiter_unlink(pool, w);
	zend_async_waker_callback_resolve(&pool->base.event, &w->cb.base, NULL, NULL);
}

/* A resource became available (takes the reference): the oldest waiter gets it, or it goes idle. */
static void pool_put_idle(async_pool_t *pool, zval *resource)
{
	async_pool_waiter_t *w = pool_next_waiter(pool);
	if (w != NULL) {
		waiter_wake(pool, w, WAITER_RESOURCE, resource);
	} else {
		ring_push(&pool->idle, resource);
	}
}

static void pool_task_spawn(async_pool_t *pool, bool checks);

/* A resource was destroyed: the oldest waiter may create a fresh one in its place; with none, a
 * pool below its minimum makes one in a coroutine of its own. */
static void pool_slot_freed(async_pool_t *pool)
{
	if (POOL_CLOSED(pool) || POOL_TOTAL(pool) >= pool->base.max_size) {
		return;
	}
	async_pool_waiter_t *w = pool_next_waiter(pool);
	if (w != NULL) {
		waiter_wake(pool, w, WAITER_SLOT, NULL);
	} else if (POOL_TOTAL(pool) < pool->base.min_size) {
		pool->refill_failed = false;
		pool_task_spawn(pool, false);
	}
}

/* A resource (counted as active) the pool handed out but nobody will use: back to idle, or
 * destroyed if the pool closed meanwhile. Keeps a pending exception pending. */
static void pool_return_unused(async_pool_t *pool, zval *resource)
{
	if (pool->active > 0) {
		pool->active--;
	}
	if (!POOL_CLOSED(pool)) {
		pool_put_idle(pool, resource);
		return;
	}
	zend_object *error = pool_take_exception();
	pool_destroy(pool, resource);
	pool_chain(&error, pool_take_exception());
	pool_rethrow(error);
}

/* Only close() notifies the pool event: every subscriber learns the pool is closed. */
static void pool_waiter_notify(zend_async_event_t *event, zend_async_event_callback_t *callback,
	void *result, zend_object *exception)
{
	async_pool_waiter_t *w = (async_pool_waiter_t *) callback;
	waiter_unlink((async_pool_t *) event, w);
	if (!ZEND_ASYNC_WAKER_WAITING(w->cb.coroutine->waker)) {
		return;
	}
	/* A fresh exception per waiter: each is thrown, and traced, in its own coroutine. */
	zend_object *error = exception ? exception : pool_exception("Pool is closed");
	zend_async_waker_callback_resolve(event, callback, NULL, error);
	if (exception == NULL) {
		OBJ_RELEASE(error); /* resolve took its own reference */
	}
}

/* Freed with the waker: a resource still held means the coroutine died without unwinding. */
static void pool_waiter_dispose(zend_async_event_callback_t *callback, zend_async_event_t *event)
{
	async_pool_waiter_t *w = (async_pool_waiter_t *) callback;
	zval_ptr_dtor(&w->resource);
	efree(w);
}

typedef enum { PARK_ERROR, PARK_RETRY, PARK_RESOURCE, PARK_SLOT } park_result;

/* Parks the current coroutine at the end of the FIFO until release() hands it a resource or a
 * slot, close() fails it, its timer fires or it is cancelled. */
static park_result pool_park(async_pool_t *pool, zend_long timeout_ms, zval *resource)
{
	zend_coroutine_t *co = async__wait_begin(NULL, "wait for a pool resource");
	if (co == NULL) {
		return PARK_ERROR;
	}
	async_pool_waiter_t *w = (async_pool_waiter_t *) zend_async_coroutine_callback_new(co,
		pool_waiter_notify, sizeof(async_pool_waiter_t));
	w->cb.base.dispose = pool_waiter_dispose;
	ZVAL_UNDEF(&w->resource);
	w->outcome = WAITER_PARKED;
	/* Ours: the suspend may clean the waker (a pending cancellation) before we read the outcome. */
	ZEND_ASYNC_EVENT_CALLBACK_ADD_REF(&w->cb.base);

	if (async__wait_on(co, &pool->base.event, false, NULL, &w->cb)
		&& (timeout_ms <= 0
			|| async__wait_on_timer(co, (zend_ulong) timeout_ms, 0, zend_async_waker_callback_timeout))) {
		async__wait_suspend(co);
	}

	async_pool_waiter_outcome outcome = w->outcome;
	ZVAL_COPY_VALUE(resource, &w->resource);
	ZVAL_UNDEF(&w->resource);
	if (outcome == WAITER_RESOURCE) {
		ZEND_ASSERT(pool->reserved > 0);
		pool->reserved--;
	}
	async__wait_end(co); /* unsubscribes: del_callback unlinks it */
	ZEND_ASYNC_EVENT_CALLBACK_RELEASE(&w->cb.base);

	if (EG(exception)) {
		/* Woken with a reservation, then cancelled before it ran: pass it on. */
		if (outcome == WAITER_RESOURCE) {
			pool_return_unused(pool, resource);
		} else if (outcome == WAITER_SLOT) {
			pool->active--;
			pool_slot_freed(pool);
		}
		return PARK_ERROR;
	}
	switch (outcome) {
		case WAITER_RESOURCE: return PARK_RESOURCE;
		case WAITER_SLOT: return PARK_SLOT;
		default: return PARK_RETRY;
	}
}

/* ---------------------------------------------------------------------------------------------
 * Acquire and release
 * ------------------------------------------------------------------------------------------- */

/* Creates a resource in a slot already counted as active; a failure frees the slot. */
static bool pool_create_reserved(async_pool_t *pool, zval *result)
{
	if (pool_call_factory(pool, result)) {
		return true;
	}
	pool->active--;
	pool_slot_freed(pool);
	if (!EG(exception)) {
		zend_throw_exception_internal(pool_exception("Failed to create pool resource"));
	}
	return false;
}

typedef enum { TAKE_ERROR = -1, TAKE_REJECTED = 0, TAKE_OK = 1 } take_result;

/* A resource (counted as active) is about to be handed out: beforeAcquire may reject it. */
static take_result pool_take(async_pool_t *pool, zval *resource, zval *result)
{
	if (POOL_HAS(pool, before_acquire) && !POOL_CHECK(pool, before_acquire, BEFORE_ACQUIRE, resource)) {
		zend_object *error = pool_take_exception();
		if (hook_error_swallowed(error)) {
			OBJ_RELEASE(error);
			error = NULL;
		}
		pool->active--;
		pool_destroy(pool, resource);
		pool_chain(&error, pool_take_exception());
		pool_slot_freed(pool);
		pool_rethrow(error);
		return error ? TAKE_ERROR : TAKE_REJECTED;
	}
	ZVAL_COPY_VALUE(result, resource);
	return TAKE_OK;
}

/* A woken waiter re-checks the pool when it runs (spec §8.8): closed since, the reserved resource
 * is destroyed and it gets PoolException; circuit opened since, the reservation (resource or slot)
 * passes to the next waiter and it gets ServiceUnavailableException. `resource` is NULL for a slot. */
static bool pool_reservation_valid(async_pool_t *pool, zval *resource)
{
	if (POOL_CLOSED(pool)) {
		pool->active--;
		zend_object *error = pool_exception("Pool is closed");
		if (resource != NULL) {
			pool_destroy(pool, resource);
			pool_chain(&error, pool_take_exception());
		}
		pool_rethrow(error);
		return false;
	}
	if (pool->base.circuit_state == ZEND_ASYNC_CIRCUIT_INACTIVE) {
		if (resource != NULL) {
			pool_return_unused(pool, resource);
		} else {
			pool->active--;
			pool_slot_freed(pool);
		}
		zend_object *error = zend_async_new_exception(ZEND_ASYNC_EXCEPTION_SERVICE_UNAVAILABLE,
			"Service is unavailable (circuit breaker is open)");
		pool_chain(&error, pool_take_exception());
		pool_rethrow(error);
		return false;
	}
	return true;
}

/* spec §8.8: closed, circuit, idle, create below max, else park (or give up). */
static bool pool_acquire_ex(async_pool_t *pool, zval *result, zend_long timeout_ms, bool can_park)
{
	zval resource;
	ZVAL_UNDEF(result);

	for (;;) {
		if (POOL_CLOSED(pool)) {
			if (can_park) {
				zend_throw_exception_internal(pool_exception("Pool is closed"));
			}
			return false;
		}
		if (pool->base.circuit_state == ZEND_ASYNC_CIRCUIT_INACTIVE) {
			if (can_park) {
				zend_throw_exception_internal(zend_async_new_exception(ZEND_ASYNC_EXCEPTION_SERVICE_UNAVAILABLE,
					"Service is unavailable (circuit breaker is open)"));
			}
			return false;
		}
		if (ring_pop(&pool->idle, &resource)) {
			pool->active++;
			take_result r = pool_take(pool, &resource, result);
			if (r == TAKE_REJECTED) {
				continue;
			}
			return r == TAKE_OK;
		}
		if (POOL_TOTAL(pool) < pool->base.max_size) {
			pool->active++;
			return pool_create_reserved(pool, result);
		}
		if (!can_park) {
			return false;
		}
		switch (pool_park(pool, timeout_ms, &resource)) {
			case PARK_RESOURCE: {
				if (!pool_reservation_valid(pool, &resource)) {
					return false;
				}
				take_result r = pool_take(pool, &resource, result);
				if (r == TAKE_REJECTED) {
					continue;
				}
				return r == TAKE_OK;
			}
			case PARK_SLOT:
				return pool_reservation_valid(pool, NULL) && pool_create_reserved(pool, result);
			case PARK_RETRY:
				continue;
			default:
				return false;
		}
	}
}

/* The strategy learns about every release; its exceptions are swallowed (spec §8.8). */
static void pool_report(async_pool_t *pool, zend_object *error)
{
	if (POOL_INTERNAL(pool, ZEND_ASYNC_POOL_F_STRATEGY_INTERNAL)) {
		if (error == NULL && pool->base.strategy.fn.report_success) {
			pool->base.strategy.fn.report_success(&pool->base);
		} else if (error != NULL && pool->base.strategy.fn.report_failure) {
			pool->base.strategy.fn.report_failure(&pool->base, error);
		}
		pool_swallow_exception();
		return;
	}
	zend_object *strategy = pool->base.strategy.object;
	if (strategy == NULL) {
		return;
	}
	GC_ADDREF(strategy);
	zval source, zerror, retval;
	ZVAL_OBJ(&source, pool_new_obj(&pool->base));
	if (error == NULL) {
		zend_call_method_with_1_params(strategy, strategy->ce, NULL, "reportsuccess", &retval, &source);
	} else {
		ZVAL_OBJ(&zerror, error);
		zend_call_method_with_2_params(strategy, strategy->ce, NULL, "reportfailure", &retval, &source, &zerror);
	}
	zval_ptr_dtor(&retval);
	zval_ptr_dtor(&source);
	OBJ_RELEASE(strategy);
	pool_swallow_exception();
}

static void pool_release_ex(async_pool_t *pool, zval *value)
{
	zval resource;
	ZVAL_COPY(&resource, value);

	bool ok = true;
	zend_object *error = NULL;
	if (POOL_HAS(pool, before_release)) {
		ok = POOL_CHECK(pool, before_release, BEFORE_RELEASE, &resource);
		error = pool_take_exception();
	}
	if (pool->active > 0) {
		pool->active--;
	}
	if (!ok) {
		/* Broken: the strategy hears why, the resource goes, a waiter may make a fresh one. */
		zend_object *reason = error;
		if (reason != NULL) {
			GC_ADDREF(reason);
		} else {
			/* A plain Exception, as TrueAsync gives strategies: it is not thrown to anyone. */
			reason = async__new_exception(zend_ce_exception, "Resource validation failed");
		}
		pool_report(pool, reason);
		OBJ_RELEASE(reason);
		if (hook_error_swallowed(error)) {
			OBJ_RELEASE(error); /* the strategy heard it; the caller only sees a rejection */
			error = NULL;
		}
		pool_chain(&error, pool_take_exception());
		pool_destroy(pool, &resource);
		pool_chain(&error, pool_take_exception());
		pool_slot_freed(pool);
		pool_rethrow(error);
		return;
	}
	pool_report(pool, NULL);
	if (POOL_CLOSED(pool)) {
		pool_destroy(pool, &resource);
		return;
	}
	pool_put_idle(pool, &resource);
}

/* ---------------------------------------------------------------------------------------------
 * Healthcheck: a hidden periodic timer (it never holds back deadlock detection) whose tick
 * spawns a short-lived coroutine, since a check may suspend and a reactor callback must not
 * run user code (P12). Only idle resources are checked.
 * ------------------------------------------------------------------------------------------- */

static void pool_refill(async_pool_t *pool);

static void pool_healthcheck_run(async_pool_t *pool)
{
	zval resource;
	uint32_t n = pool->idle.count;

	/* Each resource once: taken from the head, put back at the tail. While checked it is active. */
	for (uint32_t i = 0; i < n && !POOL_CLOSED(pool) && ring_pop(&pool->idle, &resource); i++) {
		pool->active++;
		bool healthy = POOL_CHECK(pool, healthcheck, HEALTHCHECK, &resource);
		if (EG(exception) && (is_exit(EG(exception)) || async__is_cancellation(EG(exception)))) {
			pool_return_unused(pool, &resource);
			return;
		}
		pool_swallow_exception(); /* a check that throws says "dead" */
		if (healthy) {
			pool_return_unused(pool, &resource);
			continue;
		}
		pool->active--;
		pool_destroy(pool, &resource);
		pool_swallow_exception();
		pool_slot_freed(pool);
	}

	pool_refill(pool);
}

/* Up to min; a waiter woken by pool_slot_freed() may already be creating one. */
static void pool_refill(async_pool_t *pool)
{
	zval resource;
	while (!POOL_CLOSED(pool) && POOL_TOTAL(pool) < pool->base.min_size && !EG(exception)) {
		pool->active++;
		if (!pool_call_factory(pool, &resource)) {
			pool->active--;
			pool->refill_failed = true;
			pool_swallow_exception();
			break;
		}
		pool_return_unused(pool, &resource);
	}
}

static void pool_task_entry(void)
{
	async_pool_t *pool = (async_pool_t *) ZEND_ASYNC_CURRENT_COROUTINE->extended_data;
	if (pool->task_checks) {
		pool_healthcheck_run(pool);
	} else {
		pool_refill(pool);
	}
}

/* The maintenance coroutine ended (or was cancelled before it ran): it held a pool reference. A
 * resource destroyed after its refill is made up for now, unless the factory just failed (the
 * next destruction or check tries again: no loop of failing coroutines). */
static void pool_task_done(zend_async_event_t *event, zend_async_event_callback_t *callback,
	void *result, zend_object *exception)
{
	async_pool_cb_t *cb = (async_pool_cb_t *) callback;
	async_pool_t *pool = cb->pool;
	if (pool == NULL) {
		return;
	}
	cb->pool = NULL;
	pool->healthcheck_running = false;
	if (!POOL_CLOSED(pool) && !pool->refill_failed && POOL_TOTAL(pool) < pool->base.min_size) {
		pool_task_spawn(pool, false);
	}
	ZEND_ASYNC_EVENT_RELEASE(&pool->base.event);
}

/* One maintenance coroutine at a time: a check (which refills after) or a refill alone. */
static void pool_task_spawn(async_pool_t *pool, bool checks)
{
	if (pool->healthcheck_running || POOL_CLOSED(pool) || !ZEND_ASYNC_IS_ACTIVE) {
		return;
	}
	zend_coroutine_t *co = ZEND_ASYNC_SPAWN();
	if (co == NULL) {
		pool_swallow_exception(); /* e.g. async.max_contexts reached: try next time */
		return;
	}
	if (!ZEND_COROUTINE_IS_FINISHED(co)) { /* cancelled at once during a graceful shutdown */
		co->internal_entry = pool_task_entry;
		co->extended_data = pool;
		async_pool_cb_t *done = (async_pool_cb_t *) ZEND_ASYNC_EVENT_CALLBACK_EX(pool_task_done, sizeof(async_pool_cb_t));
		done->pool = pool;
		co->event.add_callback(&co->event, &done->base);
		ZEND_ASYNC_EVENT_CALLBACK_RELEASE(&done->base);
		ZEND_ASYNC_EVENT_ADD_REF(&pool->base.event);
		pool->healthcheck_running = true;
		pool->task_checks = checks;
	}
	ZEND_ASYNC_EVENT_RELEASE(&co->event); /* the handle; the coroutine keeps itself alive */
}

static void pool_healthcheck_tick(zend_async_event_t *event, zend_async_event_callback_t *callback,
	void *result, zend_object *exception)
{
	async_pool_t *pool = ((async_pool_cb_t *) callback)->pool;
	if (pool->idle.count == 0 && POOL_TOTAL(pool) >= pool->base.min_size) {
		return;
	}
	pool->refill_failed = false;
	pool_task_spawn(pool, true);
}

static bool pool_healthcheck_start(async_pool_t *pool)
{
	zend_async_timer_event_t *timer = ZEND_ASYNC_NEW_TIMER_EVENT(pool->base.healthcheck_interval, true);
	if (timer == NULL) {
		return false;
	}
	ZEND_ASYNC_EVENT_SET_HIDDEN(&timer->base);
	async_pool_cb_t *cb = (async_pool_cb_t *) ZEND_ASYNC_EVENT_CALLBACK_EX(pool_healthcheck_tick, sizeof(async_pool_cb_t));
	cb->pool = pool;
	timer->base.add_callback(&timer->base, &cb->base);
	timer->base.start(&timer->base);
	pool->healthcheck_timer = timer;
	pool->healthcheck_cb = &cb->base;
	return true;
}

static void pool_healthcheck_stop(async_pool_t *pool)
{
	zend_async_timer_event_t *timer = pool->healthcheck_timer;
	if (timer == NULL) {
		return;
	}
	pool->healthcheck_timer = NULL;
	timer->base.del_callback(&timer->base, pool->healthcheck_cb);
	ZEND_ASYNC_EVENT_CALLBACK_RELEASE(pool->healthcheck_cb);
	pool->healthcheck_cb = NULL;
	timer->base.stop(&timer->base);
	ZEND_ASYNC_EVENT_RELEASE(&timer->base);
}

/* ---------------------------------------------------------------------------------------------
 * Close and the event methods
 * ------------------------------------------------------------------------------------------- */

static void pool_close(async_pool_t *pool)
{
	if (POOL_CLOSED(pool)) {
		return;
	}
	ZEND_ASYNC_EVENT_SET_CLOSED(&pool->base.event);
	pool_healthcheck_stop(pool);
	ZEND_ASYNC_CALLBACKS_NOTIFY(&pool->base.event, NULL, NULL); /* waiters: PoolException */

	/* Called from a destructor the engine may be unwinding an exception: keep it first. */
	zend_object *error = pool_take_exception();
	zval resource;
	while (ring_pop(&pool->idle, &resource)) {
		pool_destroy(pool, &resource);
		pool_chain(&error, pool_take_exception());
	}
	pool_rethrow(error);
}

static bool pool_add_callback(zend_async_event_t *event, zend_async_event_callback_t *callback)
{
	if (!zend_async_callbacks_push(event, callback)) {
		return false;
	}
	if (callback->callback == pool_waiter_notify) {
		waiter_link((async_pool_t *) event, (async_pool_waiter_t *) callback);
	}
	return true;
}

static bool pool_del_callback(zend_async_event_t *event, zend_async_event_callback_t *callback)
{
	if (callback->callback == pool_waiter_notify) {
		waiter_unlink((async_pool_t *) event, (async_pool_waiter_t *) callback);
	}
	return zend_async_callbacks_remove(event, callback);
}

static void pool_fcall_release(async_pool_t *pool, uint32_t internal_flag, zend_fcall_t *fcall)
{
	if (!POOL_INTERNAL(pool, internal_flag)) {
		zend_fcall_release(fcall);
	}
}

/* The last reference. Normally the pool was closed already (by its owner, or by its PHP object's
 * destructor); otherwise only C destructors run here, as this may be the engine freeing objects
 * after a fatal error, where user code must not run. */
static bool pool_dispose(zend_async_event_t *event)
{
	async_pool_t *pool = (async_pool_t *) event;
	if (event->ref_count > 1) {
		event->ref_count--;
		return true;
	}
	event->ref_count = 0;
	ZEND_ASYNC_EVENT_SET_CLOSED(event);
	pool_healthcheck_stop(pool);

	zval resource;
	while (ring_pop(&pool->idle, &resource)) {
		if (POOL_INTERNAL(pool, ZEND_ASYNC_POOL_F_DESTRUCTOR_INTERNAL) && pool->base.destructor.fn) {
			pool->base.destructor.fn(&pool->base, &resource);
		}
		zval_ptr_dtor(&resource);
	}
	if (pool->idle.data) {
		async_ring_free(&pool->idle);
	}
	pool_fcall_release(pool, ZEND_ASYNC_POOL_F_FACTORY_INTERNAL, pool->base.factory.fcall);
	pool_fcall_release(pool, ZEND_ASYNC_POOL_F_DESTRUCTOR_INTERNAL, pool->base.destructor.fcall);
	pool_fcall_release(pool, ZEND_ASYNC_POOL_F_HEALTHCHECK_INTERNAL, pool->base.healthcheck.fcall);
	pool_fcall_release(pool, ZEND_ASYNC_POOL_F_BEFORE_ACQUIRE_INTERNAL, pool->base.before_acquire.fcall);
	pool_fcall_release(pool, ZEND_ASYNC_POOL_F_BEFORE_RELEASE_INTERNAL, pool->base.before_release.fcall);
	if (!POOL_INTERNAL(pool, ZEND_ASYNC_POOL_F_STRATEGY_INTERNAL) && pool->base.strategy.object) {
		OBJ_RELEASE(pool->base.strategy.object);
	}
	zend_async_callbacks_free(event);
	efree(pool);
	return true;
}

static zend_string *pool_info(zend_async_event_t *event)
{
	async_pool_t *pool = (async_pool_t *) event;
	return zend_strpprintf(0, "Pool(idle %u, active %u, max %u)", pool->idle.count, pool->active, pool->base.max_size);
}

/* ---------------------------------------------------------------------------------------------
 * Creation (both paths)
 * ------------------------------------------------------------------------------------------- */

static bool pool_sizes_valid(uint32_t min_size, uint32_t max_size)
{
	if (max_size == 0 || min_size > max_size) {
		zend_value_error("Async pool: min_size (%u) must be <= max_size (%u) and max_size >= 1", min_size, max_size);
		return false;
	}
	return true;
}

static const async_event_methods_t pool_event_methods = {
	.add_callback = pool_add_callback,
	.del_callback = pool_del_callback,
	.dispose = pool_dispose,
	.info = pool_info,
};

static async_pool_t *pool_alloc(uint32_t min_size, uint32_t max_size, uint32_t interval, size_t extra_size)
{
	async_pool_t *pool = ecalloc(1, sizeof(async_pool_t) + extra_size);
	zend_async_event_t *ev = &pool->base.event;
	async__event_init(ev, &pool_event_methods);
	/* The object, when there is one, is found beside the C event (ABI F_OBJ_REF). */
	ev->flags = ZEND_ASYNC_EVENT_F_OBJ_REF;
	ev->extra_offset = XtOffsetOf(zend_async_pool_t, wrapper);
	pool->base.circuit_state = ZEND_ASYNC_CIRCUIT_ACTIVE;
	pool->base.min_size = min_size;
	pool->base.max_size = max_size;
	pool->base.healthcheck_interval = interval;
	if (extra_size) {
		pool->base.user_data = (char *) pool + sizeof(async_pool_t);
	}
	return pool;
}

/* Pre-creates min resources and arms the healthcheck. On failure the pool is closed (destroying
 * what was made) and released. */
static zend_async_pool_t *pool_start(async_pool_t *pool)
{
	zval resource;
	while (POOL_TOTAL(pool) < pool->base.min_size) {
		if (!pool_call_factory(pool, &resource)) {
			if (!EG(exception)) {
				zend_throw_exception_internal(pool_exception("Failed to create pool resource"));
			}
			pool_close(pool);
			ZEND_ASYNC_EVENT_RELEASE(&pool->base.event);
			return NULL;
		}
		ring_push(&pool->idle, &resource);
	}
	if (pool->base.healthcheck_interval > 0 && POOL_HAS(pool, healthcheck) && !pool_healthcheck_start(pool)) {
		pool_close(pool);
		ZEND_ASYNC_EVENT_RELEASE(&pool->base.event);
		return NULL;
	}
	return &pool->base;
}

static zend_async_pool_t *pool_create(zend_fcall_t *factory, zend_fcall_t *destructor, zend_fcall_t *healthcheck,
	zend_fcall_t *before_acquire, zend_fcall_t *before_release,
	uint32_t min_size, uint32_t max_size, uint32_t interval, size_t extra_size)
{
	if (factory == NULL || !pool_sizes_valid(min_size, max_size)) {
		zend_fcall_release(factory);
		zend_fcall_release(destructor);
		zend_fcall_release(healthcheck);
		zend_fcall_release(before_acquire);
		zend_fcall_release(before_release);
		if (!EG(exception)) {
			zend_value_error("Async pool: a factory is required");
		}
		return NULL;
	}
	async_pool_t *pool = pool_alloc(min_size, max_size, interval, extra_size);
	pool->base.factory.fcall = factory;
	pool->base.destructor.fcall = destructor;
	pool->base.healthcheck.fcall = healthcheck;
	pool->base.before_acquire.fcall = before_acquire;
	pool->base.before_release.fcall = before_release;
	return pool_start(pool);
}

static zend_async_pool_t *pool_create_internal(zend_async_pool_factory_fn factory, zend_async_pool_destructor_fn destructor,
	zend_async_pool_check_fn healthcheck, zend_async_pool_check_fn before_acquire, zend_async_pool_check_fn before_release,
	uint32_t min_size, uint32_t max_size, uint32_t interval, size_t extra_size)
{
	if (factory == NULL) {
		zend_value_error("Async pool: a factory is required");
		return NULL;
	}
	if (!pool_sizes_valid(min_size, max_size)) {
		return NULL;
	}
	async_pool_t *pool = pool_alloc(min_size, max_size, interval, extra_size);
	/* Every callback slot is a C function pointer here (NULL = none), so the flags say so. */
	pool->base.handler_flags = ZEND_ASYNC_POOL_F_ALL_INTERNAL;
	pool->base.factory.fn = factory;
	pool->base.destructor.fn = destructor;
	pool->base.healthcheck.fn = healthcheck;
	pool->base.before_acquire.fn = before_acquire;
	pool->base.before_release.fn = before_release;
	return pool_start(pool);
}

/* ---------------------------------------------------------------------------------------------
 * The PHP object
 * ------------------------------------------------------------------------------------------- */

static zend_object *pool_object_create(zend_class_entry *ce)
{
	async_pool_obj_t *obj = zend_object_alloc(sizeof(async_pool_obj_t), ce);
	ZEND_ASYNC_EVENT_REF_PROLOG(obj, std);
	zend_object_std_init(&obj->std, ce);
	object_properties_init(&obj->std, ce);
	obj->std.handlers = &pool_handlers;
	return &obj->std;
}

/* A pool made by `new Async\Pool` lives as long as its object: its resources go with it. */
static void pool_object_dtor(zend_object *object)
{
	async_pool_t *pool = (async_pool_t *) POOL_OBJ(object)->event;
	zend_objects_destroy_object(object);
	if (pool != NULL && pool->object_owned) {
		pool_close(pool);
	}
}

static void pool_object_free(zend_object *object)
{
	async_pool_obj_t *obj = POOL_OBJ(object);
	async_pool_t *pool = (async_pool_t *) obj->event;
	if (pool != NULL) {
		obj->event = NULL;
		if (pool->base.wrapper == object) {
			pool->base.wrapper = NULL;
		}
		ZEND_ASYNC_EVENT_RELEASE(&pool->base.event);
	}
	zend_object_std_dtor(object);
}

static void gc_add_fcall(zend_get_gc_buffer *buf, async_pool_t *pool, uint32_t flag, zend_fcall_t *fcall)
{
	if (!POOL_INTERNAL(pool, flag) && fcall != NULL) {
		zend_get_gc_buffer_add_zval(buf, &fcall->fci.function_name);
	}
}

/* The idle resources and callables are the pool's: reported only while this object holds the
 * pool's only reference. A parked acquirer, a running healthcheck or a C owner holds another,
 * and then the GC must not conclude the pool's contents are garbage. */
static HashTable *pool_object_get_gc(zend_object *object, zval **table, int *num)
{
	async_pool_t *pool = (async_pool_t *) POOL_OBJ(object)->event;
	if (pool == NULL || pool->base.event.ref_count != 1) {
		*table = NULL;
		*num = 0;
		return NULL;
	}
	zend_get_gc_buffer *buf = zend_get_gc_buffer_create();
	for (uint32_t i = 0; i < pool->idle.count; i++) {
		zend_get_gc_buffer_add_zval(buf, ASYNC_RING_AT(&pool->idle, i, zval));
	}
	gc_add_fcall(buf, pool, ZEND_ASYNC_POOL_F_FACTORY_INTERNAL, pool->base.factory.fcall);
	gc_add_fcall(buf, pool, ZEND_ASYNC_POOL_F_DESTRUCTOR_INTERNAL, pool->base.destructor.fcall);
	gc_add_fcall(buf, pool, ZEND_ASYNC_POOL_F_HEALTHCHECK_INTERNAL, pool->base.healthcheck.fcall);
	gc_add_fcall(buf, pool, ZEND_ASYNC_POOL_F_BEFORE_ACQUIRE_INTERNAL, pool->base.before_acquire.fcall);
	gc_add_fcall(buf, pool, ZEND_ASYNC_POOL_F_BEFORE_RELEASE_INTERNAL, pool->base.before_release.fcall);
	if (!POOL_INTERNAL(pool, ZEND_ASYNC_POOL_F_STRATEGY_INTERNAL) && pool->base.strategy.object) {
		zend_get_gc_buffer_add_obj(buf, pool->base.strategy.object);
	}
	zend_get_gc_buffer_use(buf, table, num);
	return NULL;
}

/* ZEND_ASYNC_NEW_POOL_OBJ: the pool's object, made on first use; a new reference each time. */
static zend_object *pool_new_obj(zend_async_pool_t *base)
{
	if (base->wrapper != NULL) {
		GC_ADDREF(base->wrapper);
		return base->wrapper;
	}
	zend_object *object = pool_object_create(async__ce_pool);
	POOL_OBJ(object)->event = &base->event;
	ZEND_ASYNC_EVENT_ADD_REF(&base->event);
	base->wrapper = object;
	return object;
}

/* Only an object seen from inside its own failing constructor has no pool. */
static async_pool_t *pool_from_this(zval *this_ptr)
{
	async_pool_t *pool = (async_pool_t *) POOL_OBJ(Z_OBJ_P(this_ptr))->event;
	if (UNEXPECTED(pool == NULL)) {
		zend_throw_exception_internal(pool_exception("Pool is not initialized"));
	}
	return pool;
}

#define THIS_POOL(pool) \
	async_pool_t *pool = pool_from_this(ZEND_THIS); \
	if (UNEXPECTED(pool == NULL)) { RETURN_THROWS(); }

#define ARG_MIN 6
#define ARG_MAX 7
#define ARG_INTERVAL 8

ZEND_METHOD(Async_Pool, __construct)
{
	zend_fcall_info fci[5] = { empty_fcall_info, empty_fcall_info, empty_fcall_info, empty_fcall_info, empty_fcall_info };
	zend_fcall_info_cache fcc[5] = { empty_fcall_info_cache, empty_fcall_info_cache, empty_fcall_info_cache,
		empty_fcall_info_cache, empty_fcall_info_cache };
	zend_long min = 0, max = 10, interval = 0;

	ZEND_PARSE_PARAMETERS_START(1, 8)
		Z_PARAM_FUNC(fci[0], fcc[0])
		Z_PARAM_OPTIONAL
		Z_PARAM_FUNC_OR_NULL(fci[1], fcc[1])
		Z_PARAM_FUNC_OR_NULL(fci[2], fcc[2])
		Z_PARAM_FUNC_OR_NULL(fci[3], fcc[3])
		Z_PARAM_FUNC_OR_NULL(fci[4], fcc[4])
		Z_PARAM_LONG(min)
		Z_PARAM_LONG(max)
		Z_PARAM_LONG(interval)
	ZEND_PARSE_PARAMETERS_END();

	async_pool_obj_t *obj = POOL_OBJ(Z_OBJ_P(ZEND_THIS));
	if (obj->event != NULL) {
		zend_throw_error(NULL, "Async\\Pool is already initialized");
		RETURN_THROWS();
	}
	if (min < 0 || min > UINT32_MAX) {
		zend_argument_value_error(ARG_MIN, min < 0 ? "must be >= 0" : "is too large");
		RETURN_THROWS();
	}
	if (max < 1 || max > UINT32_MAX) {
		zend_argument_value_error(ARG_MAX, max < 1 ? "must be >= 1" : "is too large");
		RETURN_THROWS();
	}
	if (min > max) {
		zend_argument_value_error(ARG_MIN, "must be <= max");
		RETURN_THROWS();
	}
	if (interval < 0 || interval > UINT32_MAX) {
		zend_argument_value_error(ARG_INTERVAL, interval < 0 ? "must be >= 0" : "is too large");
		RETURN_THROWS();
	}

	zend_async_pool_t *base = pool_create(zend_async_fcall_new(&fci[0], &fcc[0]), zend_async_fcall_new(&fci[1], &fcc[1]),
		zend_async_fcall_new(&fci[2], &fcc[2]), zend_async_fcall_new(&fci[3], &fcc[3]), zend_async_fcall_new(&fci[4], &fcc[4]),
		(uint32_t) min, (uint32_t) max, (uint32_t) interval, 0);
	if (base == NULL) {
		RETURN_THROWS();
	}
	((async_pool_t *) base)->object_owned = true;
	obj->event = &base->event;
	base->wrapper = &obj->std;
}

ZEND_METHOD(Async_Pool, acquire)
{
	zend_long timeout = 0;
	ZEND_PARSE_PARAMETERS_START(0, 1)
		Z_PARAM_OPTIONAL
		Z_PARAM_LONG(timeout)
	ZEND_PARSE_PARAMETERS_END();
	THIS_POOL(pool);
	if (timeout < 0) {
		zend_argument_value_error(1, "must be greater than or equal to 0");
		RETURN_THROWS();
	}
	if (!pool_acquire_ex(pool, return_value, timeout, true)) {
		RETURN_THROWS();
	}
}

ZEND_METHOD(Async_Pool, tryAcquire)
{
	ZEND_PARSE_PARAMETERS_NONE();
	THIS_POOL(pool);
	if (!pool_acquire_ex(pool, return_value, 0, false)) {
		if (EG(exception)) {
			RETURN_THROWS();
		}
		RETURN_NULL();
	}
}

ZEND_METHOD(Async_Pool, release)
{
	zval *resource;
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_ZVAL(resource)
	ZEND_PARSE_PARAMETERS_END();
	THIS_POOL(pool);
	pool_release_ex(pool, resource);
}

ZEND_METHOD(Async_Pool, close)
{
	ZEND_PARSE_PARAMETERS_NONE();
	THIS_POOL(pool);
	pool_close(pool);
}

ZEND_METHOD(Async_Pool, isClosed)
{
	ZEND_PARSE_PARAMETERS_NONE();
	THIS_POOL(pool);
	RETURN_BOOL(POOL_CLOSED(pool));
}

ZEND_METHOD(Async_Pool, count)
{
	ZEND_PARSE_PARAMETERS_NONE();
	THIS_POOL(pool);
	RETURN_LONG(POOL_TOTAL(pool));
}

ZEND_METHOD(Async_Pool, idleCount)
{
	ZEND_PARSE_PARAMETERS_NONE();
	THIS_POOL(pool);
	RETURN_LONG(pool->idle.count + pool->reserved);
}

ZEND_METHOD(Async_Pool, activeCount)
{
	ZEND_PARSE_PARAMETERS_NONE();
	THIS_POOL(pool);
	ZEND_ASSERT(pool->active >= pool->reserved);
	RETURN_LONG(pool->active - pool->reserved);
}

ZEND_METHOD(Async_Pool, setCircuitBreakerStrategy)
{
	zend_object *strategy = NULL;
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_OBJ_OF_CLASS_OR_NULL(strategy, async__ce_circuit_breaker_strategy)
	ZEND_PARSE_PARAMETERS_END();
	THIS_POOL(pool);

	zend_object *old = POOL_INTERNAL(pool, ZEND_ASYNC_POOL_F_STRATEGY_INTERNAL) ? NULL : pool->base.strategy.object;
	pool->base.handler_flags &= ~ZEND_ASYNC_POOL_F_STRATEGY_INTERNAL;
	memset(&pool->base.strategy, 0, sizeof(pool->base.strategy));
	if (strategy != NULL) {
		GC_ADDREF(strategy);
		pool->base.strategy.object = strategy;
	}
	if (old != NULL) {
		OBJ_RELEASE(old);
	}
}

static const char *const circuit_names[] = { "ACTIVE", "INACTIVE", "RECOVERING" };

ZEND_METHOD(Async_Pool, getState)
{
	ZEND_PARSE_PARAMETERS_NONE();
	THIS_POOL(pool);
	RETURN_OBJ_COPY(zend_enum_get_case_cstr(async__ce_circuit_breaker_state, circuit_names[pool->base.circuit_state]));
}

static void set_circuit(INTERNAL_FUNCTION_PARAMETERS, zend_async_circuit_state_t state)
{
	ZEND_PARSE_PARAMETERS_NONE();
	THIS_POOL(pool);
	pool->base.circuit_state = state;
}

ZEND_METHOD(Async_Pool, activate) { set_circuit(INTERNAL_FUNCTION_PARAM_PASSTHRU, ZEND_ASYNC_CIRCUIT_ACTIVE); }
ZEND_METHOD(Async_Pool, deactivate) { set_circuit(INTERNAL_FUNCTION_PARAM_PASSTHRU, ZEND_ASYNC_CIRCUIT_INACTIVE); }
ZEND_METHOD(Async_Pool, recover) { set_circuit(INTERNAL_FUNCTION_PARAM_PASSTHRU, ZEND_ASYNC_CIRCUIT_RECOVERING); }

/* ---------------------------------------------------------------------------------------------
 * The C API (zend_async_pool_api) and registration
 * ------------------------------------------------------------------------------------------- */

/* A NULL pool (a failed create whose result went unchecked) throws instead of crashing. */
static bool api_pool_valid(zend_async_pool_t *pool)
{
	if (UNEXPECTED(pool == NULL)) {
		if (!EG(exception)) {
			zend_throw_exception_internal(pool_exception("Pool is not initialized"));
		}
		return false;
	}
	return true;
}

static bool api_acquire(zend_async_pool_t *pool, zval *result, zend_long timeout_ms)
{
	ZVAL_UNDEF(result);
	return api_pool_valid(pool) && pool_acquire_ex((async_pool_t *) pool, result, timeout_ms > 0 ? timeout_ms : 0, true);
}

static bool api_try_acquire(zend_async_pool_t *pool, zval *result)
{
	ZVAL_UNDEF(result);
	return api_pool_valid(pool) && pool_acquire_ex((async_pool_t *) pool, result, 0, false);
}

/* A C caller may give a resource back while an exception of its own unwinds (a failed query
 * whose connection goes back): set aside, so the hooks do not take it for their own rejection,
 * and put back first, with anything the release threw chained after it. */
static void api_release(zend_async_pool_t *pool, zval *resource)
{
	if (!api_pool_valid(pool)) {
		return;
	}
	zend_object *pending = pool_take_exception();
	pool_release_ex((async_pool_t *) pool, resource);
	pool_rethrow(pending);
}

static void api_close(zend_async_pool_t *pool)
{
	if (api_pool_valid(pool)) {
		pool_close((async_pool_t *) pool);
	}
}

static zend_object *api_new_pool_obj(zend_async_pool_t *pool)
{
	return api_pool_valid(pool) ? pool_new_obj(pool) : NULL;
}

static bool pool_api_register(void);

zend_result async__pool_minit(void)
{
	async__ce_circuit_breaker_state = register_class_Async_CircuitBreakerState();
	async__ce_circuit_breaker = register_class_Async_CircuitBreaker();
	async__ce_circuit_breaker_strategy = register_class_Async_CircuitBreakerStrategy();
	async__ce_pool = register_class_Async_Pool(zend_ce_countable, async__ce_circuit_breaker);
	async__ce_pool->create_object = pool_object_create;

	async__object_handlers_init(&pool_handlers, XtOffsetOf(async_pool_obj_t, std), pool_object_dtor, pool_object_free, pool_object_get_gc);
	async__class_register(ZEND_ASYNC_CLASS_POOL, async__ce_pool);
	/* false: another implementation of the pool's table is registered */
	return pool_api_register() ? SUCCESS : FAILURE;
}

/* The ABI's pool table (zend_async_pool_api). */
static bool pool_api_register(void)
{
	zend_async_pool_api_t api = {
		.create = pool_create,
		.create_internal = pool_create_internal,
		.new_pool_obj = api_new_pool_obj,
		.acquire = api_acquire,
		.try_acquire = api_try_acquire,
		.release = api_release,
		.close = api_close,
	};
	return zend_async_pool_api_register(PHP_ASYNC_NAME, false, &api);
}
