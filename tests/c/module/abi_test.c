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
	CHECK(zend_async_pool_api.new_pool(0) == NULL);
	zend_clear_exception();

	CHECK(zend_async_scheduler_register(sched_module, false, &sched));
	CHECK(zend_async_reactor_register(reactor_module, false, &reactor));
	CHECK(zend_async_is_enabled());
	/* Same module again: fine. */
	CHECK(zend_async_scheduler_register(sched_module, false, &sched));
	/* Another module with allow_override replaces, and can hand it back. */
	CHECK(zend_async_reactor_register("abi_test", true, &reactor));
	CHECK(strcmp(zend_async_reactor_module(), "abi_test") == 0);
	CHECK(zend_async_reactor_register(reactor_module, true, &reactor));
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

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_run, 0, 0, _IS_BOOL, 0)
ZEND_END_ARG_INFO()
ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_c_sleep, 0, 1, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO(0, ms, IS_LONG, 0)
ZEND_END_ARG_INFO()
ZEND_BEGIN_ARG_INFO_EX(arginfo_spawn_c, 0, 0, 0)
ZEND_END_ARG_INFO()

static const zend_function_entry abi_test_functions[] = {
	PHP_FE(async_abi_test_run, arginfo_run)
	PHP_FE(async_abi_test_c_sleep, arginfo_c_sleep)
	PHP_FE(async_abi_test_spawn_c, arginfo_spawn_c)
	PHP_FE(async_abi_test_trigger_roundtrip, arginfo_run)
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
	NULL, NULL, NULL, NULL, NULL,
	"0.1.0",
	STANDARD_MODULE_PROPERTIES
};

#ifdef COMPILE_DL_ASYNC_ABI_TEST
ZEND_GET_MODULE(async_abi_test)
#endif
