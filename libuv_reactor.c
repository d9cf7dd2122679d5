/*
 * libuv_reactor.c — the reactor: one uv_loop_t per request, trigger events (timers: reactor/timer.c).
 *
 * Event rules (seed, "start"/"stop"): start() takes a loop reference and counts the event as
 * active; the last stop() really stops the handle. Handles are closed with uv_close() and freed
 * in its callback, never before (libuv still owns them until then). Callbacks only notify,
 * and notification only enqueues coroutines (P12).
 */
#include "php_async.h"
#define ASYNC_REACTOR_UV /* the libuv side of the reactor's header */
#include "reactor/reactor.h"
#include "core/core.h"

/* The request's loop, with a handle of the reactor's own: `nudge`, a prepare handle that does
 * nothing. uv_run() makes no pass over a loop that no referenced handle keeps alive, so hidden
 * events (unreferenced timers, signal and process watchers) alone never fire in it; a poll that
 * must deliver them runs with the nudge started, for that one pass. */
typedef struct {
	uv_loop_t loop; /* first: ASYNC_G(loop) points here, and efree() takes it */
	uv_prepare_t nudge;
} async_loop_t;

static void nudge_cb(uv_prepare_t *handle)
{
	(void) handle;
}

uv_loop_t *async__reactor_loop(void)
{
	if (ASYNC_G(loop) == NULL) {
		async_loop_t *l = emalloc(sizeof(async_loop_t));
		if (uv_loop_init(&l->loop) != 0) {
			efree(l);
			return NULL;
		}
		uv_prepare_init(&l->loop, &l->nudge);
		l->nudge.data = NULL; /* no event: request shutdown's walk only closes it */
		ASYNC_G(loop) = &l->loop;
	}
	return ASYNC_G(loop);
}

/* A pass without waiting over a loop where only hidden events may be due. */
static bool run_nudged(uv_loop_t *loop)
{
	uv_prepare_t *nudge = &((async_loop_t *) loop)->nudge;
	uv_prepare_start(nudge, nudge_cb);
	uv_run(loop, UV_RUN_NOWAIT);
	uv_prepare_stop(nudge);
	return uv_loop_alive(loop);
}

void async__reactor_after_fork(void)
{
	if (ASYNC_G(loop) != NULL) {
		uv_loop_fork(ASYNC_G(loop));
	}
}

uv_loop_t *async__reactor_loop_or_throw(void)
{
	uv_loop_t *loop = async__reactor_loop();
	if (UNEXPECTED(loop == NULL)) {
		zend_throw_error(NULL, "Async: cannot initialise the event loop");
	}
	return loop;
}

/* Something was delivered: make the running uv_run() return instead of blocking again in
 * epoll until the next timer. libuv 1.44's UV_RUN_ONCE runs due timers and then still polls
 * with the next timer's timeout; uv_stop() turns that poll into a non-blocking one. */
void async__reactor_delivered(uv_loop_t *loop)
{
	uv_stop(loop);
}

static bool reactor_startup(void)
{
	return async__reactor_loop() != NULL;
}

static void close_walk_cb(uv_handle_t *handle, void *arg)
{
	(void) arg;
	if (!uv_is_closing(handle)) {
		zend_async_event_t *event = handle->data;
		if (event != NULL) {
			ZEND_ASYNC_EVENT_SET(event, ASYNC_EVENT_F_DETACHED);
		}
		uv_close(handle, NULL);
	}
}

/* per-process: the reactor's parts, added at their MINIT (a handful: timers, polls, signals) */
static const async_reactor_part_t *parts[8];
/* per-process: how many of them */
static uint32_t parts_count;

void async__reactor_add_part(const async_reactor_part_t *part)
{
	ZEND_ASSERT(parts_count < sizeof(parts) / sizeof(parts[0]) && "more reactor parts than places");
	parts[parts_count++] = part;
}

static void reactor_shutdown(void)
{
	uv_loop_t *loop = ASYNC_G(loop);
	if (loop == NULL) {
		return;
	}
	for (uint32_t i = 0; i < parts_count; i++) {
		if (parts[i]->close != NULL) {
			parts[i]->close(loop);
		}
	}
	uv_walk(loop, close_walk_cb, NULL);
	uv_run(loop, UV_RUN_DEFAULT);
	uv_loop_close(loop);
	efree(loop);
	ASYNC_G(loop) = NULL;
	ASYNC_G(hidden_event_count) = 0; /* the detached ones were closed without a stop */
}

void async__reactor_rshutdown(void)
{
	reactor_shutdown();
}

static bool reactor_execute(bool no_wait)
{
	uv_loop_t *loop = async__reactor_loop();
	for (uint32_t i = 0; i < parts_count; i++) {
		if (parts[i]->before_run != NULL) {
			parts[i]->before_run(!no_wait);
		}
	}
	if (no_wait) {
		if (ASYNC_G(hidden_event_count) > 0 && !uv_loop_alive(loop)) {
			return run_nudged(loop);
		}
		return uv_run(loop, UV_RUN_NOWAIT) != 0;
	}
	ASYNC_SWITCHED();
	__atomic_store_n(&ASYNC_G(in_reactor_wait), true, __ATOMIC_RELAXED);
	bool alive = uv_run(loop, UV_RUN_ONCE) != 0;
	__atomic_store_n(&ASYNC_G(in_reactor_wait), false, __ATOMIC_RELAXED);
	ASYNC_SWITCHED();
	return alive;
}

/* Something in the loop could fire: what uv_loop_alive() sees (referenced handles, requests,
 * closing handles), or a hidden event, whose handle is unreferenced so as not to keep the
 * program alive but which must not starve while coroutines keep the scheduler busy. */
static bool reactor_loop_alive(void)
{
	return ASYNC_G(loop) != NULL && (ASYNC_G(hidden_event_count) > 0 || uv_loop_alive(ASYNC_G(loop)));
}

static uint64_t reactor_now(void)
{
	async_clock_t *clock = async__clock_current();
	if (clock != NULL) {
		return async__clock_mono_ns(clock) / 1000000; /* inside virtual_time() */
	}
	return ASYNC_G(loop) ? uv_now(ASYNC_G(loop)) : uv_hrtime() / 1000000;
}

static uint32_t reactor_available_parallelism(void)
{
	return uv_available_parallelism();
}

/* ---------------------------------------------------------------------------------------------
 * Shared handle lifecycle
 * ------------------------------------------------------------------------------------------- */

async_request_release_t async__reactor_request_release(zend_async_event_t *event, bool in_flight)
{
	if (!async__reactor_last_ref(event)) {
		return ASYNC_REQUEST_HELD;
	}
	event->loop_ref_count = 0;
	async__reactor_event_count_off(event);
	if (in_flight) {
		zend_async_callbacks_free(event);
		return ASYNC_REQUEST_ORPHANED;
	}
	return ASYNC_REQUEST_FREE;
}

/* Drops one reference; at zero the handle is closed and freed from the close callback. */
bool async__reactor_handle_release(zend_async_event_t *event, uv_handle_t *handle, uv_close_cb close_cb)
{
	if (!async__reactor_last_ref(event)) {
		return true;
	}
	if (ZEND_ASYNC_EVENT_HAS(event, ASYNC_EVENT_F_DETACHED)) {
		zend_async_callbacks_free(event);
		efree(event); /* every reactor event struct starts with its event */
		return true;
	}
	async__reactor_event_count_off(event);
	event->loop_ref_count = 0;
	zend_async_callbacks_free(event);
	uv_close(handle, close_cb);
	return true;
}

/* A hidden event is counted apart (its handle is unreferenced, so uv_loop_alive() misses it):
 * reactor_loop_alive() still tells the scheduler it could fire. Which count it went to is kept
 * in the event, so marking it hidden while it runs cannot unbalance either. */
void async__reactor_event_count_on(zend_async_event_t *event)
{
	if (ZEND_ASYNC_EVENT_HAS(event, ZEND_ASYNC_EVENT_F_STARTED_LOOP)) {
		return;
	}
	ZEND_ASYNC_EVENT_SET(event, ZEND_ASYNC_EVENT_F_STARTED_LOOP);
	if (ZEND_ASYNC_EVENT_IS_HIDDEN(event)) {
		ZEND_ASYNC_EVENT_SET(event, ASYNC_EVENT_F_COUNTED_HIDDEN);
		ASYNC_G(hidden_event_count)++;
	} else {
		ZEND_ASYNC_G(active_event_count)++;
	}
}

void async__reactor_event_count_off(zend_async_event_t *event)
{
	if (!ZEND_ASYNC_EVENT_HAS(event, ZEND_ASYNC_EVENT_F_STARTED_LOOP)) {
		return;
	}
	ZEND_ASYNC_EVENT_CLR(event, ZEND_ASYNC_EVENT_F_STARTED_LOOP);
	if (ZEND_ASYNC_EVENT_HAS(event, ASYNC_EVENT_F_COUNTED_HIDDEN)) {
		ZEND_ASYNC_EVENT_CLR(event, ASYNC_EVENT_F_COUNTED_HIDDEN);
		if (ASYNC_G(hidden_event_count) > 0) { /* (0 for one stopped after request shutdown) */
			ASYNC_G(hidden_event_count)--;
		}
	} else if (ZEND_ASYNC_G(active_event_count) > 0) {
		ZEND_ASYNC_G(active_event_count)--;
	}
}

bool async__reactor_counting_start(zend_async_event_t *event)
{
	if (async__reactor_first_start(event)) {
		async__reactor_event_count_on(event);
	}
	return true;
}

bool async__reactor_counting_stop(zend_async_event_t *event)
{
	if (async__reactor_last_stop(event)) {
		async__reactor_event_count_off(event);
	}
	return true;
}

/* ---------------------------------------------------------------------------------------------
 * Trigger: a manual, thread-safe wake-up (uv_async_t).
 * ------------------------------------------------------------------------------------------- */

typedef struct {
	zend_async_trigger_event_t event;
	uv_async_t uv;
} async_trigger_t;

#define TRIGGER_FROM_HANDLE(h) ((async_trigger_t *) ((char *) (h) - XtOffsetOf(async_trigger_t, uv)))

static void trigger_close_cb(uv_handle_t *handle)
{
	efree(TRIGGER_FROM_HANDLE(handle));
}

static void trigger_cb(uv_async_t *handle)
{
	async_trigger_t *trigger = TRIGGER_FROM_HANDLE(handle);
	ZEND_ASYNC_CALLBACKS_NOTIFY(&trigger->event.base, NULL, NULL);
	async__reactor_delivered(handle->loop);
}

static void trigger_fire(zend_async_trigger_event_t *event)
{
	if (!ZEND_ASYNC_EVENT_HAS(&event->base, ASYNC_EVENT_F_DETACHED)) {
		uv_async_send(&((async_trigger_t *) event)->uv);
	}
}

/* An idle uv_async_t must not keep the loop alive: it is unref'ed until someone waits. */
static bool trigger_start(zend_async_event_t *event)
{
	async_trigger_t *trigger = (async_trigger_t *) event;
	if (ZEND_ASYNC_EVENT_HAS(event, ASYNC_EVENT_F_DETACHED)) {
		return true;
	}
	if (async__reactor_first_start(event)) {
		uv_ref((uv_handle_t *) &trigger->uv);
		async__reactor_event_count_on(event);
	}
	return true;
}

static bool trigger_stop(zend_async_event_t *event)
{
	async_trigger_t *trigger = (async_trigger_t *) event;
	if (!async__reactor_last_stop(event)) {
		return true;
	}
	if (!ZEND_ASYNC_EVENT_HAS(event, ASYNC_EVENT_F_DETACHED)) {
		uv_unref((uv_handle_t *) &trigger->uv);
	}
	async__reactor_event_count_off(event);
	return true;
}

static bool trigger_dispose(zend_async_event_t *event)
{
	async_trigger_t *trigger = (async_trigger_t *) event;
	return async__reactor_handle_release(event, (uv_handle_t *) &trigger->uv, trigger_close_cb);
}

static zend_string *trigger_info(zend_async_event_t *event)
{
	(void) event;
	return zend_string_init("Trigger", sizeof("Trigger") - 1, 0);
}

static const async_event_methods_t trigger_methods = {
	.start = trigger_start, .stop = trigger_stop, .dispose = trigger_dispose, .info = trigger_info,
};

static zend_async_trigger_event_t *reactor_new_trigger_event(size_t extra_size)
{
	uv_loop_t *loop = async__reactor_loop_or_throw();
	if (loop == NULL) {
		return NULL;
	}
	async_trigger_t *trigger = ecalloc(1, sizeof(async_trigger_t) + extra_size);
	uv_async_init(loop, &trigger->uv, trigger_cb);
	trigger->uv.data = &trigger->event.base;
	uv_unref((uv_handle_t *) &trigger->uv);
	async__event_init(&trigger->event.base, &trigger_methods);
	trigger->event.trigger = trigger_fire;
	return &trigger->event;
}

zend_result async__reactor_minit(void)
{
	zend_async_reactor_api_t api = {
		.startup = reactor_startup,
		.shutdown = reactor_shutdown,
		.execute = reactor_execute,
		.loop_alive = reactor_loop_alive,
		.new_trigger_event = reactor_new_trigger_event,
		.available_parallelism = reactor_available_parallelism,
		.now = reactor_now,
	};
	/* false: another implementation of this ABI table is registered */
	return zend_async_reactor_register(ASYNC_REACTOR_NAME, false, &api) ? SUCCESS : FAILURE;
}

/* ---------------------------------------------------------------------------------------------
 * Shared with the reactor's other files (reactor.h)
 * ------------------------------------------------------------------------------------------- */

bool async__reactor_event_detached(zend_async_event_t *event)
{
	return ZEND_ASYNC_EVENT_HAS(event, ASYNC_EVENT_F_DETACHED);
}

/* ---------------------------------------------------------------------------------------------
 * What libuv knows of the machine (reactor.h)
 * ------------------------------------------------------------------------------------------- */

const char *async__reactor_version(void)
{
	return uv_version_string();
}

#define REACTOR_STR_(x) #x
#define REACTOR_STR(x) REACTOR_STR_(x)

const char *async__reactor_version_compiled(void)
{
	return REACTOR_STR(UV_VERSION_MAJOR) "." REACTOR_STR(UV_VERSION_MINOR) "." REACTOR_STR(UV_VERSION_PATCH);
}

uint64_t async_reactor_hrtime(void)
{
	async_clock_t *clock = async__clock_current();
	if (clock != NULL) {
		return async__clock_mono_ns(clock); /* deadlines inside virtual_time() pair with its timers */
	}
	return uv_hrtime();
}

static uint64_t timeval_ns(const uv_timeval_t *tv)
{
	return (uint64_t) tv->tv_sec * 1000000000u + (uint64_t) tv->tv_usec * 1000u;
}

void async__reactor_cpu_times(async_cpu_times_t *t)
{
	memset(t, 0, sizeof(*t));
	t->wall_ns = uv_hrtime();

	uv_rusage_t usage;
	if (uv_getrusage(&usage) == 0) {
		t->user_ns = timeval_ns(&usage.ru_utime);
		t->system_ns = timeval_ns(&usage.ru_stime);
	}

	uv_cpu_info_t *cpus;
	int count;
	if (uv_cpu_info(&cpus, &count) == 0) {
		for (int i = 0; i < count; i++) {
			const struct uv_cpu_times_s *c = &cpus[i].cpu_times;
			t->busy_ns += (c->user + c->nice + c->sys + c->irq) * 1000000u; /* ms */
			t->idle_ns += c->idle * 1000000u;
		}
		t->cpu_count = (uint32_t) count;
		uv_free_cpu_info(cpus, count);
	}
}

void async__reactor_loadavg(double avg[3])
{
	uv_loadavg(avg);
}
