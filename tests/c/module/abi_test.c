/*
 * abi_test.c — C unit tests of the Zend-side async ABI, from a separate extension that knows
 * only zend_async_API.h (symbols resolved from ext-async at load time). Also exercises the C
 * path other extensions use: waiting on a reactor timer and spawning a C-entry coroutine.
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif
#include "php.h"
#include "zend_exceptions.h"
#include "zend_async_API.h"
#include "async_import.h"
#include "zend_observer.h"
#include <signal.h>
#include <unistd.h>

static int passed, failed;

#define CHECK(cond) do { \
		if (cond) { passed++; } \
		else { failed++; php_printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond); } \
	} while (0)

/* ---- a plain C event that records what happens to it ---- */
typedef struct {
	zend_async_event_t base;
	int disposed;
	int started;
} test_event_t;

static int disposed_events;

static bool test_event_dispose(zend_async_event_t *ev)
{
	if (ev->ref_count > 1) {
		ev->ref_count--;
		return true;
	}
	ev->ref_count = 0;
	disposed_events++;
	zend_async_callbacks_free(ev);
	efree(ev);
	return true;
}

static bool test_event_start(zend_async_event_t *ev) { ((test_event_t *) ev)->started++; return true; }
static bool test_event_stop(zend_async_event_t *ev) { ((test_event_t *) ev)->started--; return true; }

static test_event_t *test_event_new(void)
{
	test_event_t *ev = ecalloc(1, sizeof(test_event_t));
	ev->base.ref_count = 1;
	ev->base.add_callback = zend_async_event_default_add_callback;
	ev->base.del_callback = zend_async_event_default_del_callback;
	ev->base.start = test_event_start;
	ev->base.stop = test_event_stop;
	ev->base.dispose = test_event_dispose;
	return ev;
}

/* ---- callbacks that log their calls and may remove callbacks while notified ---- */
typedef struct {
	zend_async_event_callback_t base;
	int id;
	int calls;
	zend_async_event_callback_t *remove; /* removed from the event when this one runs */
	bool remove_self;
} log_cb_t;

static char call_log[256];
static int disposed_callbacks;

static void log_cb_fn(zend_async_event_t *ev, zend_async_event_callback_t *cb, void *result, zend_object *exc)
{
	log_cb_t *l = (log_cb_t *) cb;
	l->calls++;
	size_t len = strlen(call_log);
	snprintf(call_log + len, sizeof(call_log) - len, "%d", l->id);
	if (l->remove) {
		ev->del_callback(ev, l->remove);
	}
	if (l->remove_self) {
		ev->del_callback(ev, cb);
	}
}

static void log_cb_dispose(zend_async_event_callback_t *cb, zend_async_event_t *ev)
{
	disposed_callbacks++;
	efree(cb);
}

static log_cb_t *log_cb_new(int id)
{
	log_cb_t *cb = (log_cb_t *) zend_async_event_callback_new(log_cb_fn, sizeof(log_cb_t));
	cb->id = id;
	cb->base.dispose = log_cb_dispose;
	return cb;
}

static void test_vector_basics(void)
{
	test_event_t *ev = test_event_new();
	log_cb_t *cbs[5];
	for (int i = 0; i < 5; i++) {
		cbs[i] = log_cb_new(i + 1);
		CHECK(ev->base.add_callback(&ev->base, &cbs[i]->base));
		CHECK(cbs[i]->base.ref_count == 2);
	}
	CHECK(ev->base.callbacks.length == 5);
	CHECK(ev->base.callbacks.capacity >= 5);

	call_log[0] = '\0';
	ZEND_ASYNC_CALLBACKS_NOTIFY(&ev->base, NULL, NULL);
	CHECK(strcmp(call_log, "12345") == 0);
	CHECK(ev->base.callbacks.current_iterator == NULL);

	/* O(1) removal swaps the last element in. */
	CHECK(ev->base.del_callback(&ev->base, &cbs[1]->base));
	CHECK(ev->base.callbacks.length == 4);
	CHECK(ev->base.callbacks.data[1] == &cbs[4]->base);
	CHECK(cbs[1]->base.ref_count == 1);
	CHECK(!ev->base.del_callback(&ev->base, &cbs[1]->base)); /* not there any more */

	disposed_callbacks = 0;
	zend_async_event_callback_release(&cbs[1]->base, NULL);
	CHECK(disposed_callbacks == 1);

	for (int i = 0; i < 5; i++) {
		if (i != 1) {
			zend_async_event_callback_release(&cbs[i]->base, NULL); /* the creator's reference */
		}
	}
	CHECK(disposed_callbacks == 1); /* the vector still holds them */
	disposed_events = 0;
	ZEND_ASYNC_EVENT_RELEASE(&ev->base);
	CHECK(disposed_events == 1);
	CHECK(disposed_callbacks == 5);
}

/* Removing itself, a visited callback and an unvisited one during notify must neither skip nor
 * repeat anybody. */
static void test_remove_during_notify(void)
{
	test_event_t *ev = test_event_new();
	log_cb_t *cbs[6];
	for (int i = 0; i < 6; i++) {
		cbs[i] = log_cb_new(i + 1);
		ev->base.add_callback(&ev->base, &cbs[i]->base);
	}
	cbs[0]->remove = &cbs[5]->base;       /* 1 removes 6 (not yet visited) */
	cbs[1]->remove_self = true;           /* 2 removes itself */
	cbs[2]->remove = &cbs[0]->base;       /* 3 removes 1 (already visited) */

	call_log[0] = '\0';
	ZEND_ASYNC_CALLBACKS_NOTIFY(&ev->base, NULL, NULL);
	/* Order may change with swap-removal; every survivor runs exactly once. */
	CHECK(strlen(call_log) == 5 && strchr(call_log, '6') == NULL);
	CHECK(ev->base.callbacks.length == 3);
	for (int i = 0; i < 6; i++) {
		int expected = (i == 5) ? 0 : 1;
		CHECK(cbs[i]->calls == expected);
	}

	call_log[0] = '\0';
	cbs[0]->remove = NULL;
	cbs[2]->remove = NULL;
	ZEND_ASYNC_CALLBACKS_NOTIFY(&ev->base, NULL, NULL);
	/* Left: 3, 4, 5 in some order, each exactly once. */
	CHECK(strlen(call_log) == 3 && strchr(call_log, '3') && strchr(call_log, '4') && strchr(call_log, '5'));

	for (int i = 0; i < 6; i++) {
		zend_async_event_callback_release(&cbs[i]->base, NULL);
	}
	ZEND_ASYNC_EVENT_RELEASE(&ev->base);
}

static int handler_calls;
static void intercepting_handler(zend_async_event_t *ev, void *result, zend_object *exc)
{
	handler_calls++;
	ZEND_ASYNC_CALLBACKS_NOTIFY_FROM_HANDLER(ev, result, exc);
}

static void test_notify_handler_and_refs(void)
{
	test_event_t *ev = test_event_new();
	log_cb_t *cb = log_cb_new(7);
	ev->base.add_callback(&ev->base, &cb->base);
	ev->base.notify_handler = intercepting_handler;
	handler_calls = 0;
	call_log[0] = '\0';
	ZEND_ASYNC_CALLBACKS_NOTIFY(&ev->base, NULL, NULL);
	CHECK(handler_calls == 1);
	CHECK(strcmp(call_log, "7") == 0);

	/* C event reference counting. */
	CHECK(ZEND_ASYNC_EVENT_REFCOUNT(&ev->base) == 1);
	ZEND_ASYNC_EVENT_ADD_REF(&ev->base);
	CHECK(ZEND_ASYNC_EVENT_REFCOUNT(&ev->base) == 2);
	disposed_events = 0;
	ZEND_ASYNC_EVENT_RELEASE(&ev->base);
	CHECK(disposed_events == 0);
	CHECK(ZEND_ASYNC_EVENT_REFCOUNT(&ev->base) == 1);
	zend_async_event_callback_release(&cb->base, NULL);
	ZEND_ASYNC_EVENT_RELEASE(&ev->base);
	CHECK(disposed_events == 1);

	/* Notify with nothing subscribed is harmless. */
	test_event_t *empty = test_event_new();
	ZEND_ASYNC_CALLBACKS_NOTIFY(&empty->base, NULL, NULL);
	ZEND_ASYNC_CALLBACKS_NOTIFY_AND_CLOSE(&empty->base, NULL, NULL);
	CHECK(ZEND_ASYNC_EVENT_IS_CLOSED(&empty->base));
	ZEND_ASYNC_EVENT_RELEASE(&empty->base);
}

/* Events that live inside a zend_object count through the object; references resolve. */
static void test_zend_object_events(void)
{
	zend_coroutine_t *coro = ZEND_ASYNC_NEW_COROUTINE(NULL);
	CHECK(coro != NULL);
	if (coro == NULL) {
		return;
	}
	zend_async_event_t *ev = &coro->event;
	CHECK(ZEND_ASYNC_EVENT_IS_ZEND_OBJ(ev));
	zend_object *obj = ZEND_ASYNC_EVENT_TO_OBJECT(ev);
	CHECK(GC_REFCOUNT(obj) == 1);
	CHECK(ZEND_ASYNC_OBJECT_TO_EVENT(obj) == ev);
	ZEND_ASYNC_EVENT_ADD_REF(ev);
	CHECK(GC_REFCOUNT(obj) == 2);
	CHECK(ZEND_ASYNC_EVENT_REFCOUNT(ev) == 2);
	ZEND_ASYNC_EVENT_DEL_REF(ev);
	CHECK(GC_REFCOUNT(obj) == 1);

	/* An event reference: the object's struct starts with the ref, not the event. */
	struct { ZEND_ASYNC_EVENT_REF_FIELDS zend_object std; } *ref = ecalloc(1, sizeof(*ref));
	ZEND_ASYNC_EVENT_REF_PROLOG(ref, std);
	ref->event = ev;
	zend_object_handlers handlers = std_object_handlers;
	handlers.offset = XtOffsetOf(__typeof__(*ref), std);
	ref->std.handlers = &handlers;
	CHECK(ZEND_ASYNC_EVENT_IS_REFERENCE((zend_async_event_t *) ref));
	CHECK(ZEND_ASYNC_OBJECT_TO_EVENT(&ref->std) == ev);
	efree(ref);

	ZEND_ASYNC_EVENT_RELEASE(ev); /* frees the coroutine object */
}

static void test_hidden_events(void)
{
	uint32_t before = ZEND_ASYNC_G(active_event_count);
	test_event_t *visible = test_event_new(), *hidden = test_event_new();
	ZEND_ASYNC_EVENT_SET_HIDDEN(&hidden->base);
	ZEND_ASYNC_INCREASE_EVENT_COUNT(&visible->base);
	ZEND_ASYNC_INCREASE_EVENT_COUNT(&hidden->base);
	CHECK(ZEND_ASYNC_G(active_event_count) == before + 1);
	ZEND_ASYNC_DECREASE_EVENT_COUNT(&hidden->base);
	ZEND_ASYNC_DECREASE_EVENT_COUNT(&visible->base);
	CHECK(ZEND_ASYNC_G(active_event_count) == before);
	ZEND_ASYNC_EVENT_RELEASE(&visible->base);
	ZEND_ASYNC_EVENT_RELEASE(&hidden->base);

	/* A hidden reactor timer never counts as active. */
	zend_async_timer_event_t *timer = ZEND_ASYNC_NEW_TIMER_EVENT(1000, false);
	CHECK(timer != NULL);
	if (timer) {
		ZEND_ASYNC_EVENT_SET_HIDDEN(&timer->base);
		timer->base.start(&timer->base);
		CHECK(ZEND_ASYNC_G(active_event_count) == before);
		timer->base.stop(&timer->base);
		ZEND_ASYNC_EVENT_RELEASE(&timer->base);
	}
}

/* A waker subscribed to two events: the first to fire wins, cleaning unsubscribes both. */
static void test_waker(void)
{
	zend_coroutine_t *coro = ZEND_ASYNC_NEW_COROUTINE(NULL);
	test_event_t *a = test_event_new(), *b = test_event_new();
	zend_async_waker_t *waker = ZEND_ASYNC_WAKER_NEW(coro);
	CHECK(waker->status == ZEND_ASYNC_WAKER_WAITING);
	CHECK(zend_async_resume_when(coro, &a->base, false, zend_async_waker_callback_resolve, NULL));
	CHECK(zend_async_resume_when(coro, &b->base, false, zend_async_waker_callback_resolve, NULL));
	CHECK(waker->length == 2);
	CHECK(a->started == 1 && b->started == 1);
	CHECK(zend_async_waker_is_event_exists(waker, &b->base));
	CHECK(a->base.ref_count == 2); /* the waker holds a reference */

	/* Firing b wakes (enqueues) the coroutine once; a later a-fire is ignored. */
	ZEND_ASYNC_CALLBACKS_NOTIFY(&b->base, NULL, NULL);
	CHECK(waker->status == ZEND_ASYNC_WAKER_QUEUED);
	CHECK(waker->triggered_event == &b->base);
	ZEND_ASYNC_CALLBACKS_NOTIFY(&a->base, NULL, NULL);
	CHECK(waker->triggered_event == &b->base);

	ZEND_ASYNC_WAKER_CLEAN(coro);
	CHECK(a->base.callbacks.length == 0 && b->base.callbacks.length == 0);
	CHECK(a->started == 0 && b->started == 0);
	CHECK(a->base.ref_count == 1 && b->base.ref_count == 1);
	ZEND_ASYNC_EVENT_RELEASE(&a->base);
	ZEND_ASYNC_EVENT_RELEASE(&b->base);
	/* Queued coroutines hold a reference from the run queue; cancel so it never runs. */
	ZEND_ASYNC_CANCEL(coro, NULL, false);
	ZEND_ASYNC_EVENT_RELEASE(&coro->event);
}

/* Registration: slots fall back to throwing stubs when nothing is registered. */
static void test_registration(void)
{
	CHECK(zend_async_is_enabled());
	CHECK(strcmp(zend_async_get_api_version(), ZEND_ASYNC_API) == 0);
	CHECK(zend_async_get_api_version_number() == ZEND_ASYNC_API_VERSION_NUMBER);

	zend_async_scheduler_api_t sched = zend_async_scheduler_api;
	zend_async_reactor_api_t reactor = zend_async_reactor_api;
	zend_async_pool_api_t pool_api = zend_async_pool_api;
	const char *sched_module = zend_async_scheduler_module();
	const char *reactor_module = zend_async_reactor_module();

	zend_async_api_unregister_all();
	CHECK(!zend_async_is_enabled());
	CHECK(ZEND_ASYNC_NEW_TIMER_EVENT(10, false) == NULL);
	CHECK(EG(exception) != NULL);
	if (EG(exception)) {
		zval rv;
		zval *msg = zend_read_property(zend_ce_error, EG(exception), "message", sizeof("message") - 1, 1, &rv);
		CHECK(strstr(Z_STRVAL_P(msg), "Async API is not enabled") != NULL);
		zend_clear_exception();
	}
	CHECK(ZEND_ASYNC_SPAWN() == NULL);
	CHECK(EG(exception) != NULL);
	zend_clear_exception();
	CHECK(ZEND_ASYNC_NEW_POOL(NULL, NULL, NULL, NULL, NULL, 0, 1, 0) == NULL);
	CHECK(EG(exception) != NULL);
	zend_clear_exception();

	CHECK(zend_async_scheduler_register(sched_module, false, &sched));
	CHECK(zend_async_reactor_register(reactor_module, false, &reactor));
	CHECK(zend_async_pool_api_register(sched_module, false, &pool_api));
	CHECK(zend_async_is_enabled());
	/* Same module again: fine. */
	CHECK(zend_async_scheduler_register(sched_module, false, &sched));
	/* Another module with allow_override replaces, and can hand it back. */
	CHECK(zend_async_reactor_register("abi_test", true, &reactor));
	CHECK(strcmp(zend_async_reactor_module(), "abi_test") == 0);
	CHECK(zend_async_reactor_register(reactor_module, true, &reactor));
}

/* ---- a pool of C resources: counters made and destroyed by C functions ---- */
static struct {
	zend_long created, destroyed, checks, successes, failures;
	uint64_t dead;        /* ids (< 64) the healthcheck reports dead */
	bool reject_odd;      /* before_release rejects odd ids */
	char destroyed_log[128];
} pool_stats;

static zend_result test_pool_factory(zend_async_pool_t *pool, zval *resource)
{
	ZVAL_LONG(resource, ++pool_stats.created);
	return SUCCESS;
}

static void test_pool_destructor(zend_async_pool_t *pool, zval *resource)
{
	pool_stats.destroyed++;
	size_t len = strlen(pool_stats.destroyed_log);
	snprintf(pool_stats.destroyed_log + len, sizeof(pool_stats.destroyed_log) - len, "%s" ZEND_LONG_FMT,
		len ? "," : "", Z_LVAL_P(resource));
}

static bool test_pool_healthcheck(zend_async_pool_t *pool, zval *resource)
{
	pool_stats.checks++;
	zend_long id = Z_LVAL_P(resource);
	return !(id < 64 && (pool_stats.dead & ((uint64_t) 1 << id)));
}

static bool test_pool_before_release(zend_async_pool_t *pool, zval *resource)
{
	return !(pool_stats.reject_odd && (Z_LVAL_P(resource) & 1));
}

static void test_pool_success(zend_async_pool_t *pool) { pool_stats.successes++; }
static void test_pool_failure(zend_async_pool_t *pool, zend_object *error) { pool_stats.failures++; }

static void test_pool_stats_reset(void)
{
	memset(&pool_stats, 0, sizeof(pool_stats));
}

/* Synchronous paths of the pool C API: nothing here has to wait. */
static void test_pool(void)
{
	test_pool_stats_reset();
	CHECK(ZEND_ASYNC_NEW_POOL(test_pool_factory, NULL, NULL, NULL, NULL, 3, 2, 0) == NULL); /* min > max */
	CHECK(EG(exception) != NULL);
	zend_clear_exception();

	zend_async_pool_t *pool = ZEND_ASYNC_NEW_POOL_EX(test_pool_factory, test_pool_destructor, NULL, NULL,
		test_pool_before_release, 2, 3, 0, 16);
	CHECK(pool != NULL);
	if (pool == NULL) {
		return;
	}
	CHECK(pool->handler_flags == ZEND_ASYNC_POOL_F_ALL_INTERNAL);
	CHECK(pool->min_size == 2 && pool->max_size == 3);
	CHECK(pool->user_data != NULL); /* the 16 extra bytes */
	CHECK(pool->wrapper == NULL);
	CHECK(pool_stats.created == 2); /* min pre-created */
	pool->handler_flags |= ZEND_ASYNC_POOL_F_STRATEGY_INTERNAL;
	pool->strategy.fn.report_success = test_pool_success;
	pool->strategy.fn.report_failure = test_pool_failure;

	zval a, b, c, d;
	CHECK(ZEND_ASYNC_POOL_TRY_ACQUIRE(pool, &a) && Z_LVAL(a) == 1); /* oldest idle first */
	CHECK(ZEND_ASYNC_POOL_TRY_ACQUIRE(pool, &b) && Z_LVAL(b) == 2);
	CHECK(ZEND_ASYNC_POOL_TRY_ACQUIRE(pool, &c) && Z_LVAL(c) == 3); /* created: below max */
	CHECK(!ZEND_ASYNC_POOL_TRY_ACQUIRE(pool, &d) && EG(exception) == NULL); /* exhausted */

	pool_stats.reject_odd = true;
	ZEND_ASYNC_POOL_RELEASE(pool, &a); /* odd: rejected and destroyed */
	ZEND_ASYNC_POOL_RELEASE(pool, &b);
	CHECK(pool_stats.failures == 1 && pool_stats.successes == 1);
	CHECK(pool_stats.destroyed == 1 && strcmp(pool_stats.destroyed_log, "1") == 0);
	CHECK(ZEND_ASYNC_POOL_TRY_ACQUIRE(pool, &d) && Z_LVAL(d) == 2);   /* the released one */
	CHECK(ZEND_ASYNC_POOL_TRY_ACQUIRE(pool, &a) && Z_LVAL(a) == 4);   /* a fresh one in 1's slot */
	ZEND_ASYNC_POOL_RELEASE(pool, &d);

	pool->circuit_state = ZEND_ASYNC_CIRCUIT_INACTIVE;
	CHECK(!ZEND_ASYNC_POOL_TRY_ACQUIRE(pool, &d) && EG(exception) == NULL);
	CHECK(!ZEND_ASYNC_POOL_ACQUIRE(pool, &d, 0) && EG(exception) != NULL);
	zend_clear_exception();
	pool->circuit_state = ZEND_ASYNC_CIRCUIT_RECOVERING; /* acquires like ACTIVE */
	CHECK(ZEND_ASYNC_POOL_ACQUIRE(pool, &d, 0) && Z_LVAL(d) == 2);
	ZEND_ASYNC_POOL_RELEASE(pool, &d);

	/* The object: one per pool; destroying it does not close a pool made in C. */
	zend_object *obj = ZEND_ASYNC_NEW_POOL_OBJ(pool);
	CHECK(obj != NULL && pool->wrapper == obj);
	CHECK(ZEND_ASYNC_OBJECT_TO_EVENT(obj) == &pool->event);
	CHECK(ZEND_ASYNC_NEW_POOL_OBJ(pool) == obj && GC_REFCOUNT(obj) == 2);
	OBJ_RELEASE(obj);
	OBJ_RELEASE(obj);
	CHECK(pool->wrapper == NULL && !ZEND_ASYNC_EVENT_IS_CLOSED(&pool->event));

	ZEND_ASYNC_POOL_CLOSE(pool); /* idle 2 destroyed; 3 and 4 are still out */
	CHECK(ZEND_ASYNC_EVENT_IS_CLOSED(&pool->event));
	CHECK(strcmp(pool_stats.destroyed_log, "1,2") == 0);
	CHECK(!ZEND_ASYNC_POOL_TRY_ACQUIRE(pool, &d) && EG(exception) == NULL);
	CHECK(!ZEND_ASYNC_POOL_ACQUIRE(pool, &d, 0) && EG(exception) != NULL);
	zend_clear_exception();
	pool_stats.reject_odd = false;
	ZEND_ASYNC_POOL_RELEASE(pool, &c); /* busy ones are destroyed on release */
	ZEND_ASYNC_POOL_RELEASE(pool, &a);
	CHECK(strcmp(pool_stats.destroyed_log, "1,2,3,4") == 0);
	ZEND_ASYNC_POOL_CLOSE(pool); /* idempotent */
	ZEND_ASYNC_EVENT_RELEASE(&pool->event);

	/* An unchecked failed create: the API throws instead of crashing. */
	CHECK(!ZEND_ASYNC_POOL_ACQUIRE(NULL, &d, 0) && EG(exception) != NULL);
	zend_clear_exception();
	CHECK(pool_stats.destroyed == 4 && pool_stats.created == 4);
}

/* ---- async_import.h: this module's own import of getppid() redirected and put back ---- */
static pid_t fake_getppid(void)
{
	return 424242;
}

/* noinline: the call must go through the module's GOT at run time, as an extension's would */
static zend_never_inline pid_t call_getppid(void)
{
	return getppid();
}

static void test_import_redirect(void)
{
	pid_t real = call_getppid();
	async_import_t imports[] = {
		{ "getppid", (void *) fake_getppid },
		{ "async_abi_test_no_such_import", (void *) fake_getppid },
	};
	/* anchor: any address of this module */
	CHECK(async_import_redirect((const void *) test_import_redirect, imports, 2) == 1);
	CHECK(imports[0].slot_count >= 1 && imports[0].original != NULL);
	CHECK(imports[1].slot_count == 0 && imports[1].original == NULL);
	CHECK(call_getppid() == 424242);
	CHECK(((pid_t (*)(void)) imports[0].original)() == real);
	async_import_restore(imports, 2);
	CHECK(imports[0].slot_count == 0);
	CHECK(call_getppid() == real);
	async_import_restore(imports, 2); /* twice: nothing left to put back */
	CHECK(call_getppid() == real);

	/* an anchor that is no loaded object's, or none at all: nothing redirected */
	int on_stack;
	CHECK(async_import_redirect(&on_stack, imports, 1) == 0 && imports[0].original == NULL);
	CHECK(async_import_redirect(NULL, imports, 1) == 0);
	CHECK(call_getppid() == real);
}

PHP_FUNCTION(async_abi_test_run)
{
	ZEND_PARSE_PARAMETERS_NONE();
	passed = failed = 0;
	test_vector_basics();
	test_remove_during_notify();
	test_notify_handler_and_refs();
	test_zend_object_events();
	test_hidden_events();
	test_waker();
	test_registration();
	test_pool();
	test_import_redirect();
	php_printf("%d passed, %d failed\n", passed, failed);
	RETURN_BOOL(failed == 0);
}

/* What an extension's blocking call does in a coroutine: wait on a timer through the ABI only. */
PHP_FUNCTION(async_abi_test_c_sleep)
{
	zend_long ms;
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_LONG(ms)
	ZEND_PARSE_PARAMETERS_END();

	ZEND_ASYNC_SCHEDULER_INIT();
	zend_coroutine_t *coro = ZEND_ASYNC_CURRENT_COROUTINE;
	zend_async_timer_event_t *timer = ZEND_ASYNC_NEW_TIMER_EVENT((zend_ulong) ms, false);
	if (timer == NULL) {
		RETURN_THROWS();
	}
	ZEND_ASYNC_WAKER_NEW(coro);
	zend_async_resume_when(coro, &timer->base, true, zend_async_waker_callback_resolve, NULL);
	ZEND_ASYNC_SUSPEND();
	ZEND_ASYNC_WAKER_CLEAN(coro);
	RETURN_BOOL(!EG(exception));
}

/* A trigger fired before the wait still wakes the waiter (uv_async_send is sticky). */
PHP_FUNCTION(async_abi_test_trigger_roundtrip)
{
	ZEND_PARSE_PARAMETERS_NONE();
	ZEND_ASYNC_SCHEDULER_INIT();
	zend_coroutine_t *coro = ZEND_ASYNC_CURRENT_COROUTINE;
	zend_async_trigger_event_t *trigger = ZEND_ASYNC_NEW_TRIGGER_EVENT();
	if (trigger == NULL) {
		RETURN_THROWS();
	}
	uint32_t active_before = ZEND_ASYNC_G(active_event_count);
	trigger->trigger(trigger);
	ZEND_ASYNC_WAKER_NEW(coro);
	zend_async_resume_when(coro, &trigger->base, true, zend_async_waker_callback_resolve, NULL);
	bool counted = ZEND_ASYNC_G(active_event_count) == active_before + 1;
	ZEND_ASYNC_SUSPEND();
	bool woken_by_trigger = coro->waker->triggered_event == &trigger->base;
	ZEND_ASYNC_WAKER_CLEAN(coro);
	RETURN_BOOL(!EG(exception) && counted && woken_by_trigger && ZEND_ASYNC_G(active_event_count) == active_before);
}

/* A signal event: counted while waited on, wakes its waiter once (one-shot: closed after), not
 * counted after. The signal is raised before the suspension: libuv's handler keeps it for the loop. */
PHP_FUNCTION(async_abi_test_signal_roundtrip)
{
	zend_long signum;
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_LONG(signum)
	ZEND_PARSE_PARAMETERS_END();
	ZEND_ASYNC_SCHEDULER_INIT();
	zend_coroutine_t *coro = ZEND_ASYNC_CURRENT_COROUTINE;
	zend_async_signal_event_t *signal = ZEND_ASYNC_NEW_SIGNAL_EVENT((int) signum);
	if (signal == NULL) {
		RETURN_THROWS();
	}
	uint32_t active_before = ZEND_ASYNC_G(active_event_count);
	ZEND_ASYNC_EVENT_ADD_REF(&signal->base); /* ours, to look at it after the waker let go */
	ZEND_ASYNC_WAKER_NEW(coro);
	if (!zend_async_resume_when(coro, &signal->base, true, zend_async_waker_callback_resolve, NULL)) {
		ZEND_ASYNC_WAKER_CLEAN(coro);
		ZEND_ASYNC_EVENT_RELEASE(&signal->base);
		RETURN_THROWS();
	}
	bool counted = ZEND_ASYNC_G(active_event_count) == active_before + 1;
	kill(getpid(), (int) signum);
	ZEND_ASYNC_SUSPEND();
	bool woken_by_signal = coro->waker->triggered_event == &signal->base;
	ZEND_ASYNC_WAKER_CLEAN(coro);
	bool closed = ZEND_ASYNC_EVENT_IS_CLOSED(&signal->base) && signal->signal == signum;
	ZEND_ASYNC_EVENT_RELEASE(&signal->base);
	RETURN_BOOL(!EG(exception) && counted && woken_by_signal && closed
		&& ZEND_ASYNC_G(active_event_count) == active_before);
}

static zend_long c_entry_runs;

static void c_entry(void)
{
	c_entry_runs++;
	ZVAL_LONG(&ZEND_ASYNC_CURRENT_COROUTINE->result, c_entry_runs * 100);
}

/* Spawns a coroutine whose body is C, and returns it (awaitable from PHP). */
PHP_FUNCTION(async_abi_test_spawn_c)
{
	ZEND_PARSE_PARAMETERS_NONE();
	zend_coroutine_t *coro = ZEND_ASYNC_SPAWN();
	if (coro == NULL) {
		RETURN_THROWS();
	}
	coro->internal_entry = c_entry;
	/* ZEND_ASYNC_SPAWN hands us the creation reference: it becomes the PHP handle. */
	RETURN_OBJ(ZEND_ASYNC_EVENT_TO_OBJECT(&coro->event));
}

/* The C owner's reference to the pool the async_abi_test_pool_* functions use, as an extension
 * like PDO would keep it. PHP sees it through the object ZEND_ASYNC_NEW_POOL_OBJ gives. */
static zend_async_pool_t *test_pool_ref;

static bool test_pool_needed(void)
{
	if (test_pool_ref == NULL) {
		zend_throw_error(NULL, "no test pool: call async_abi_test_pool_new() first");
		return false;
	}
	return true;
}

static void test_pool_drop(void)
{
	if (test_pool_ref != NULL) {
		zend_async_pool_t *pool = test_pool_ref;
		test_pool_ref = NULL;
		ZEND_ASYNC_EVENT_RELEASE(&pool->event);
	}
}

/* async_abi_test_pool_new(min, max, healthcheck_ms = 0): Async\Pool */
PHP_FUNCTION(async_abi_test_pool_new)
{
	zend_long min, max, interval = 0;
	ZEND_PARSE_PARAMETERS_START(2, 3)
		Z_PARAM_LONG(min)
		Z_PARAM_LONG(max)
		Z_PARAM_OPTIONAL
		Z_PARAM_LONG(interval)
	ZEND_PARSE_PARAMETERS_END();

	test_pool_drop();
	test_pool_stats_reset();
	zend_async_pool_t *pool = ZEND_ASYNC_NEW_POOL(test_pool_factory, test_pool_destructor,
		interval > 0 ? test_pool_healthcheck : NULL, NULL, test_pool_before_release,
		(uint32_t) min, (uint32_t) max, (uint32_t) interval);
	if (pool == NULL) {
		RETURN_THROWS();
	}
	pool->handler_flags |= ZEND_ASYNC_POOL_F_STRATEGY_INTERNAL;
	pool->strategy.fn.report_success = test_pool_success;
	pool->strategy.fn.report_failure = test_pool_failure;
	test_pool_ref = pool;
	RETURN_OBJ(ZEND_ASYNC_NEW_POOL_OBJ(pool));
}

PHP_FUNCTION(async_abi_test_pool_acquire)
{
	zend_long timeout = 0;
	ZEND_PARSE_PARAMETERS_START(0, 1)
		Z_PARAM_OPTIONAL
		Z_PARAM_LONG(timeout)
	ZEND_PARSE_PARAMETERS_END();
	if (!test_pool_needed() || !ZEND_ASYNC_POOL_ACQUIRE(test_pool_ref, return_value, timeout)) {
		RETURN_THROWS();
	}
}

PHP_FUNCTION(async_abi_test_pool_try_acquire)
{
	ZEND_PARSE_PARAMETERS_NONE();
	if (!test_pool_needed()) {
		RETURN_THROWS();
	}
	if (!ZEND_ASYNC_POOL_TRY_ACQUIRE(test_pool_ref, return_value)) {
		if (EG(exception)) {
			RETURN_THROWS();
		}
		RETURN_NULL();
	}
}

PHP_FUNCTION(async_abi_test_pool_release)
{
	zval *resource;
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_ZVAL(resource)
	ZEND_PARSE_PARAMETERS_END();
	if (test_pool_needed()) {
		ZEND_ASYNC_POOL_RELEASE(test_pool_ref, resource);
	}
}

PHP_FUNCTION(async_abi_test_pool_close)
{
	ZEND_PARSE_PARAMETERS_NONE();
	if (test_pool_needed()) {
		ZEND_ASYNC_POOL_CLOSE(test_pool_ref);
	}
}

/* Drops the C reference: the pool lives on while its object does. */
PHP_FUNCTION(async_abi_test_pool_free)
{
	ZEND_PARSE_PARAMETERS_NONE();
	test_pool_drop();
}

/* Marks a resource id dead for the C healthcheck. */
PHP_FUNCTION(async_abi_test_pool_kill)
{
	zend_long id;
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_LONG(id)
	ZEND_PARSE_PARAMETERS_END();
	if (id >= 0 && id < 64) {
		pool_stats.dead |= (uint64_t) 1 << id;
	}
}

PHP_FUNCTION(async_abi_test_pool_reject_odd)
{
	bool on;
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_BOOL(on)
	ZEND_PARSE_PARAMETERS_END();
	pool_stats.reject_odd = on;
}

PHP_FUNCTION(async_abi_test_pool_stats)
{
	ZEND_PARSE_PARAMETERS_NONE();
	array_init(return_value);
	add_assoc_long(return_value, "created", pool_stats.created);
	add_assoc_long(return_value, "destroyed", pool_stats.destroyed);
	add_assoc_long(return_value, "checks", pool_stats.checks);
	add_assoc_long(return_value, "successes", pool_stats.successes);
	add_assoc_long(return_value, "failures", pool_stats.failures);
	add_assoc_string(return_value, "destroyed_ids", pool_stats.destroyed_log);
}

/* The ABI's counts of what is alive (tests/chaos/matrix.php checks them after every scenario):
 * coroutines, active reactor events, and whether the loop could still fire anything. */
PHP_FUNCTION(async_abi_test_event_counts)
{
	ZEND_PARSE_PARAMETERS_NONE();
	array_init(return_value);
	add_assoc_long(return_value, "active_coroutines", ZEND_ASYNC_G(active_coroutine_count));
	add_assoc_long(return_value, "active_events", ZEND_ASYNC_G(active_event_count));
	add_assoc_bool(return_value, "loop_alive", ZEND_ASYNC_IS_ACTIVE && ZEND_ASYNC_REACTOR_LOOP_ALIVE());
}

/* What any C waiter does with an object it only knows as an Awaitable: take its event and wait
 * for the next notification (or replay a completed one). Returns [result, exception]. */
PHP_FUNCTION(async_abi_test_wait_awaitable)
{
	zend_object *object;
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_OBJ(object)
	ZEND_PARSE_PARAMETERS_END();

	zend_async_event_t *event = ZEND_ASYNC_OBJECT_TO_EVENT(object);
	zval result;
	zend_object *exception = NULL;
	ZVAL_NULL(&result);
	if (ZEND_ASYNC_EVENT_IS_CLOSED(event)) {
		if (event->replay) {
			event->replay(event, NULL, &result, &exception);
		}
	} else {
		ZEND_ASYNC_SCHEDULER_INIT();
		zend_coroutine_t *coro = ZEND_ASYNC_CURRENT_COROUTINE;
		ZEND_ASYNC_WAKER_NEW(coro);
		if (!zend_async_resume_when(coro, event, false, zend_async_waker_callback_resolve, NULL)) {
			ZEND_ASYNC_WAKER_CLEAN(coro);
			RETURN_THROWS();
		}
		ZEND_ASYNC_SUSPEND();
		if (EG(exception)) {
			ZEND_ASYNC_WAKER_CLEAN(coro);
			RETURN_THROWS();
		}
		if (Z_TYPE(coro->waker->result) != IS_UNDEF) {
			ZVAL_COPY(&result, &coro->waker->result);
		}
		ZEND_ASYNC_WAKER_CLEAN(coro);
	}
	array_init(return_value);
	add_next_index_zval(return_value, &result);
	if (exception) {
		add_next_index_object(return_value, exception);
	} else {
		add_next_index_null(return_value);
	}
}

/* ---------------------------------------------------------------------------------------------
 * Descriptors through the ABI only: poll events and proxies, and the unified I/O handle.
 * ------------------------------------------------------------------------------------------- */

static bool stream_fd(zval *zstream, int *fd)
{
	php_stream *stream;
	php_stream_from_zval_no_verify(stream, zstream);
	return stream != NULL
		&& php_stream_cast(stream, PHP_STREAM_AS_FD_FOR_SELECT | PHP_STREAM_CAST_INTERNAL, (void *) fd, 0) == SUCCESS;
}

/* Waits on a poll proxy of the descriptor's shared poll event; the triggered mask, 0 on timeout. */
static void poll_wait_fd(int fd, zend_long events, zend_long timeout_ms, zval *return_value)
{
	ZEND_ASYNC_SCHEDULER_INIT();
	zend_coroutine_t *coro = ZEND_ASYNC_CURRENT_COROUTINE;
	zend_async_poll_event_t *poll = ZEND_ASYNC_NEW_POLL_EVENT(fd, -1, 0);
	if (poll == NULL) {
		RETURN_THROWS();
	}
	zend_async_poll_proxy_t *proxy = ZEND_ASYNC_NEW_POLL_PROXY_EVENT(poll, (async_poll_event) events);
	ZEND_ASYNC_EVENT_RELEASE(&poll->base);
	ZEND_ASYNC_WAKER_NEW(coro);
	zend_async_resume_when(coro, &proxy->base, false, zend_async_waker_callback_resolve, NULL);
	if (timeout_ms > 0) {
		zend_async_timer_event_t *timer = ZEND_ASYNC_NEW_TIMER_EVENT((zend_ulong) timeout_ms, false);
		zend_async_resume_when(coro, &timer->base, true, zend_async_waker_callback_resolve, NULL);
	}
	ZEND_ASYNC_SUSPEND();
	zend_long got = coro->waker != NULL && coro->waker->triggered_event == &proxy->base ? proxy->triggered_events : 0;
	ZEND_ASYNC_WAKER_CLEAN(coro);
	ZEND_ASYNC_EVENT_RELEASE(&proxy->base);
	if (EG(exception)) {
		RETURN_THROWS();
	}
	RETURN_LONG(got);
}

PHP_FUNCTION(async_abi_test_poll_wait)
{
	zval *zstream;
	zend_long events, timeout_ms;
	int fd;
	ZEND_PARSE_PARAMETERS_START(3, 3)
		Z_PARAM_RESOURCE(zstream)
		Z_PARAM_LONG(events)
		Z_PARAM_LONG(timeout_ms)
	ZEND_PARSE_PARAMETERS_END();
	if (!stream_fd(zstream, &fd)) {
		RETURN_FALSE;
	}
	poll_wait_fd(fd, events, timeout_ms, return_value);
}

/* A descriptor of the stream's file that PHP knows nothing of, as a C library's own socket. */
PHP_FUNCTION(async_abi_test_fd_dup)
{
	zval *zstream;
	int fd;
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_RESOURCE(zstream)
	ZEND_PARSE_PARAMETERS_END();
	if (!stream_fd(zstream, &fd)) {
		RETURN_FALSE;
	}
	RETURN_LONG(dup(fd));
}

PHP_FUNCTION(async_abi_test_fd_poll)
{
	zend_long fd, events, timeout_ms;
	ZEND_PARSE_PARAMETERS_START(3, 3)
		Z_PARAM_LONG(fd)
		Z_PARAM_LONG(events)
		Z_PARAM_LONG(timeout_ms)
	ZEND_PARSE_PARAMETERS_END();
	poll_wait_fd((int) fd, events, timeout_ms, return_value);
}

/* Closes it without telling anyone (no async_io_fd_closing()), as libcurl closes a socket. */
PHP_FUNCTION(async_abi_test_fd_close)
{
	zend_long fd;
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_LONG(fd)
	ZEND_PARSE_PARAMETERS_END();
	RETURN_BOOL(close((int) fd) == 0);
}

/* Waits until the request completes (the handle's event also fires for the other direction). */
static bool io_wait(zend_async_io_t *io, zend_async_io_req_t *req)
{
	zend_coroutine_t *coro = ZEND_ASYNC_CURRENT_COROUTINE;
	while (!req->completed && !EG(exception)) {
		ZEND_ASYNC_WAKER_NEW(coro);
		zend_async_resume_when(coro, &io->event, false, zend_async_waker_callback_resolve, NULL);
		ZEND_ASYNC_SUSPEND();
		ZEND_ASYNC_WAKER_CLEAN(coro);
	}
	return req->completed;
}

/* One read or write request on a handle made for the stream's descriptor; $type is a
 * ZEND_ASYNC_IO_TYPE_* value. Returns the data read / bytes written. */
static void io_roundtrip(INTERNAL_FUNCTION_PARAMETERS, bool is_write)
{
	zval *zstream;
	zend_string *data = NULL;
	zend_long max = 0, type;
	int fd;
	ZEND_PARSE_PARAMETERS_START(3, 3)
		Z_PARAM_RESOURCE(zstream)
		if (is_write) {
			Z_PARAM_STR(data)
		} else {
			Z_PARAM_LONG(max)
		}
		Z_PARAM_LONG(type)
	ZEND_PARSE_PARAMETERS_END();
	if (!stream_fd(zstream, &fd)) {
		RETURN_FALSE;
	}
	ZEND_ASYNC_SCHEDULER_INIT();
	zend_async_io_t *io = ZEND_ASYNC_IO_CREATE(fd, (zend_async_io_type) type, ZEND_ASYNC_IO_PRESERVE_FD);
	if (io == NULL) {
		RETURN_THROWS();
	}
	zend_async_io_req_t *req = is_write
		? ZEND_ASYNC_IO_WRITE(io, ZSTR_VAL(data), ZSTR_LEN(data))
		: ZEND_ASYNC_IO_READ(io, (size_t) max);
	if (io_wait(io, req)) {
		if (req->exception != NULL) {
			zval ex;
			ZVAL_OBJ_COPY(&ex, req->exception);
			zend_throw_exception_object(&ex);
		} else if (req->io_closed) {
			RETVAL_FALSE;
		} else if (is_write) {
			RETVAL_LONG(req->transferred);
		} else {
			RETVAL_STRINGL(req->buf, req->result);
		}
	}
	req->dispose(req);
	ZEND_ASYNC_IO_CLOSE(io);
	ZEND_ASYNC_EVENT_RELEASE(&io->event);
}

PHP_FUNCTION(async_abi_test_io_read)
{
	io_roundtrip(INTERNAL_FUNCTION_PARAM_PASSTHRU, false);
}

PHP_FUNCTION(async_abi_test_io_write)
{
	io_roundtrip(INTERNAL_FUNCTION_PARAM_PASSTHRU, true);
}

/* what a fiber observer (Xdebug's kind) sees of the switches, while switch_log(true) */
static bool switch_log_on;
static zend_long switch_counts[3]; /* coroutine -> coroutine, coroutine -> other, other -> coroutine */
static zend_class_entry *coroutine_kind; /* a context's kind is the class of what runs on it */

static PHP_RSHUTDOWN_FUNCTION(async_abi_test)
{
	test_pool_drop();
	switch_log_on = false;
	return SUCCESS;
}

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_run, 0, 0, _IS_BOOL, 0)
ZEND_END_ARG_INFO()
ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_c_sleep, 0, 1, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO(0, ms, IS_LONG, 0)
ZEND_END_ARG_INFO()
ZEND_BEGIN_ARG_INFO_EX(arginfo_spawn_c, 0, 0, 0)
ZEND_END_ARG_INFO()
ZEND_BEGIN_ARG_INFO_EX(arginfo_pool_new, 0, 0, 2)
	ZEND_ARG_TYPE_INFO(0, min, IS_LONG, 0)
	ZEND_ARG_TYPE_INFO(0, max, IS_LONG, 0)
	ZEND_ARG_TYPE_INFO(0, healthcheck_ms, IS_LONG, 0)
ZEND_END_ARG_INFO()
ZEND_BEGIN_ARG_INFO_EX(arginfo_signal, 0, 0, 1)
	ZEND_ARG_TYPE_INFO(0, signum, IS_LONG, 0)
ZEND_END_ARG_INFO()
ZEND_BEGIN_ARG_INFO_EX(arginfo_pool_acquire, 0, 0, 0)
	ZEND_ARG_TYPE_INFO(0, timeout, IS_LONG, 0)
ZEND_END_ARG_INFO()
ZEND_BEGIN_ARG_INFO_EX(arginfo_pool_resource, 0, 0, 1)
	ZEND_ARG_INFO(0, resource)
ZEND_END_ARG_INFO()
ZEND_BEGIN_ARG_INFO_EX(arginfo_pool_id, 0, 0, 1)
	ZEND_ARG_TYPE_INFO(0, id, IS_LONG, 0)
ZEND_END_ARG_INFO()
ZEND_BEGIN_ARG_INFO_EX(arginfo_wait_awaitable, 0, 0, 1)
	ZEND_ARG_TYPE_INFO(0, awaitable, IS_OBJECT, 0)
ZEND_END_ARG_INFO()
ZEND_BEGIN_ARG_INFO_EX(arginfo_fd, 0, 0, 1)
	ZEND_ARG_INFO(0, fd)
ZEND_END_ARG_INFO()
ZEND_BEGIN_ARG_INFO_EX(arginfo_fd_poll, 0, 0, 3)
	ZEND_ARG_TYPE_INFO(0, fd, IS_LONG, 0)
	ZEND_ARG_TYPE_INFO(0, events, IS_LONG, 0)
	ZEND_ARG_TYPE_INFO(0, timeout_ms, IS_LONG, 0)
ZEND_END_ARG_INFO()
ZEND_BEGIN_ARG_INFO_EX(arginfo_poll_wait, 0, 0, 3)
	ZEND_ARG_INFO(0, stream)
	ZEND_ARG_TYPE_INFO(0, events, IS_LONG, 0)
	ZEND_ARG_TYPE_INFO(0, timeout_ms, IS_LONG, 0)
ZEND_END_ARG_INFO()
ZEND_BEGIN_ARG_INFO_EX(arginfo_io, 0, 0, 3)
	ZEND_ARG_INFO(0, stream)
	ZEND_ARG_INFO(0, data_or_max)
	ZEND_ARG_TYPE_INFO(0, type, IS_LONG, 0)
ZEND_END_ARG_INFO()
ZEND_BEGIN_ARG_INFO_EX(arginfo_pool_on, 0, 0, 1)
	ZEND_ARG_TYPE_INFO(0, on, _IS_BOOL, 0)
ZEND_END_ARG_INFO()

/* ---- what a fiber observer (Xdebug's kind) sees of the switches ---- */


static bool is_coroutine_context(zend_fiber_context *ctx)
{
	return ctx->kind == coroutine_kind;
}

static void switch_observer(zend_fiber_context *from, zend_fiber_context *to)
{
	if (!switch_log_on) {
		return;
	}
	bool f = is_coroutine_context(from), t = is_coroutine_context(to);
	if (f && t) {
		switch_counts[0]++;
	} else if (f) {
		switch_counts[1]++;
	} else if (t) {
		switch_counts[2]++;
	}
}

PHP_FUNCTION(async_abi_test_switch_log)
{
	bool on;
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_BOOL(on)
	ZEND_PARSE_PARAMETERS_END();
	array_init(return_value);
	add_assoc_long(return_value, "coroutine_to_coroutine", switch_counts[0]);
	add_assoc_long(return_value, "coroutine_to_other", switch_counts[1]);
	add_assoc_long(return_value, "other_to_coroutine", switch_counts[2]);
	memset(switch_counts, 0, sizeof(switch_counts));
	coroutine_kind = zend_hash_str_find_ptr(CG(class_table), ZEND_STRL("async\\coroutine"));
	switch_log_on = on && coroutine_kind != NULL;
}

static PHP_MINIT_FUNCTION(async_abi_test)
{
	zend_observer_fiber_switch_register(switch_observer);
	return SUCCESS;
}

static const zend_function_entry abi_test_functions[] = {
	PHP_FE(async_abi_test_run, arginfo_run)
	PHP_FE(async_abi_test_c_sleep, arginfo_c_sleep)
	PHP_FE(async_abi_test_spawn_c, arginfo_spawn_c)
	PHP_FE(async_abi_test_trigger_roundtrip, arginfo_run)
	PHP_FE(async_abi_test_signal_roundtrip, arginfo_signal)
	PHP_FE(async_abi_test_pool_new, arginfo_pool_new)
	PHP_FE(async_abi_test_pool_acquire, arginfo_pool_acquire)
	PHP_FE(async_abi_test_pool_try_acquire, arginfo_spawn_c)
	PHP_FE(async_abi_test_pool_release, arginfo_pool_resource)
	PHP_FE(async_abi_test_pool_close, arginfo_spawn_c)
	PHP_FE(async_abi_test_pool_free, arginfo_spawn_c)
	PHP_FE(async_abi_test_pool_kill, arginfo_pool_id)
	PHP_FE(async_abi_test_pool_reject_odd, arginfo_pool_on)
	PHP_FE(async_abi_test_pool_stats, arginfo_spawn_c)
	PHP_FE(async_abi_test_event_counts, arginfo_spawn_c)
	PHP_FE(async_abi_test_wait_awaitable, arginfo_wait_awaitable)
	PHP_FE(async_abi_test_poll_wait, arginfo_poll_wait)
	PHP_FE(async_abi_test_fd_dup, arginfo_fd)
	PHP_FE(async_abi_test_fd_poll, arginfo_fd_poll)
	PHP_FE(async_abi_test_fd_close, arginfo_fd)
	PHP_FE(async_abi_test_io_read, arginfo_io)
	PHP_FE(async_abi_test_io_write, arginfo_io)
	PHP_FE(async_abi_test_switch_log, arginfo_pool_on)
	PHP_FE_END
};

static const zend_module_dep abi_test_deps[] = {
	ZEND_MOD_REQUIRED("async")
	ZEND_MOD_END
};

zend_module_entry async_abi_test_module_entry = {
	STANDARD_MODULE_HEADER_EX, NULL,
	abi_test_deps,
	"async_abi_test",
	abi_test_functions,
	PHP_MINIT(async_abi_test), NULL, NULL, PHP_RSHUTDOWN(async_abi_test), NULL,
	"0.1.0",
	STANDARD_MODULE_PROPERTIES
};

#ifdef COMPILE_DL_ASYNC_ABI_TEST
ZEND_GET_MODULE(async_abi_test)
#endif
