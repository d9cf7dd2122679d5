/*
 * scheduler.c — run queue, microtasks, the loop that drives coroutines, the drain after the main
 * script, graceful shutdown and deadlock detection.
 *
 * The loop runs in whatever non-coroutine context blocks: the main flow (the "main coroutine"),
 * or a user Fiber running main's code. Coroutines always suspend back to the context that
 * resumed them (design doc §1). libuv callbacks only enqueue (P12).
 */
#include "php_async.h"
#include "core/core.h"
#include "zend_exceptions.h"
#include "zend_smart_str.h"
#include "SAPI.h"
#include "ext/standard/basic_functions.h"

/* The module's globals are defined by the lowest layer that uses them, so that no file needs
 * the module entry (async.c) for them. */
ZEND_DECLARE_MODULE_GLOBALS(async)

/* ---------------------------------------------------------------------------------------------
 * Registration lists: the layers above take part in the loop through these, never by name.
 * ------------------------------------------------------------------------------------------- */

#define SCHEDULER_MAX_LISTENERS 8

const async_scope_ops_t *async__scope_ops; /* per-process: set once at MINIT by scope.c */

/* per-process: filled at MINIT, like the function table they sit beside */
static async_deadlock_resolver_fn deadlock_resolvers[SCHEDULER_MAX_LISTENERS];
static uint32_t deadlock_resolvers_count; /* per-process: see deadlock_resolvers */
/* per-process: filled at MINIT */
static async_shutdown_listener_fn shutdown_listeners[SCHEDULER_MAX_LISTENERS];
static uint32_t shutdown_listeners_count; /* per-process: see shutdown_listeners */

void async__scheduler_set_scope_ops(const async_scope_ops_t *ops)
{
	ZEND_ASSERT(ops->main && ops->current && ops->create && ops->add_coroutine && ops->remove_coroutine
		&& ops->forget_coroutine && ops->handle_error && ops->strategy_hook && ops->main_finally
		&& ops->main_dispose && "every scope operation is required");
	async__scope_ops = ops;
}

void async__scheduler_add_deadlock_resolver(async_deadlock_resolver_fn resolver)
{
	ZEND_ASSERT(deadlock_resolvers_count < SCHEDULER_MAX_LISTENERS);
	deadlock_resolvers[deadlock_resolvers_count++] = resolver;
}

void async__scheduler_add_shutdown_listener(async_shutdown_listener_fn listener)
{
	ZEND_ASSERT(shutdown_listeners_count < SCHEDULER_MAX_LISTENERS);
	shutdown_listeners[shutdown_listeners_count++] = listener;
}

static bool run_deadlock_resolvers(void)
{
	for (uint32_t i = 0; i < deadlock_resolvers_count; i++) {
		if (deadlock_resolvers[i]()) {
			return true;
		}
	}
	return false;
}

static void notify_shutdown_listeners(const char *reason)
{
	for (uint32_t i = 0; i < shutdown_listeners_count; i++) {
		shutdown_listeners[i](reason);
	}
}

static zend_async_scope_t *scheduler_new_scope(zend_async_scope_t *parent, bool with_zend_object)
{
	return async__scope_ops->create(parent, with_zend_object);
}

/* ---------------------------------------------------------------------------------------------
 * Run queue: a ring of coroutines, each entry holding a reference.
 * ------------------------------------------------------------------------------------------- */

/* The fuzz knob (async.schedule_seed): a seeded choice among the first few entries perturbs the
 * order without starving anyone. */
static uint64_t rng_next(void)
{
	uint64_t x = ASYNC_G(rng_state);
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	ASYNC_G(rng_state) = x;
	return x;
}

static ZEND_COLD void queue_shuffle_head(async_ring_t *q)
{
	uint32_t window = q->count < 4 ? q->count : 4;
	uint32_t pick = (uint32_t) (rng_next() % window);
	if (pick != 0) {
		zend_coroutine_t **first = ASYNC_RING_AT(q, 0, zend_coroutine_t *);
		zend_coroutine_t **other = ASYNC_RING_AT(q, pick, zend_coroutine_t *);
		zend_coroutine_t *t = *first;
		*first = *other;
		*other = t;
	}
}

static zend_always_inline zend_coroutine_t *queue_pop(async_ring_t *q)
{
	if (q->count == 0) {
		return NULL;
	}
	if (UNEXPECTED(ASYNC_G(schedule_seed) != 0) && q->count > 1) {
		queue_shuffle_head(q);
	}
	return *ASYNC_RING_POP(q, zend_coroutine_t *);
}

bool async__scheduler_enqueue(zend_coroutine_t *coroutine)
{
	return async__scheduler_queue_enter(coroutine);
}

static void microtask_add(zend_async_microtask_t *microtask)
{
	if (ASYNC_G(microtasks_length) == ASYNC_G(microtasks_capacity)) {
		ASYNC_G(microtasks_capacity) = ASYNC_G(microtasks_capacity) ? ASYNC_G(microtasks_capacity) * 2 : 16;
		ASYNC_G(microtasks) = safe_erealloc(ASYNC_G(microtasks), ASYNC_G(microtasks_capacity), sizeof(void *), 0);
	}
	ZEND_ASSERT(microtask->handler != NULL && "a microtask needs something to run");
	microtask->ref_count++;
	ASYNC_G(microtasks)[ASYNC_G(microtasks_length)++] = microtask;
}

static void microtask_release(zend_async_microtask_t *m)
{
	if (--m->ref_count == 0) {
		if (m->dtor) {
			m->dtor(m);
		} else {
			efree(m);
		}
	}
}

/* Microtasks run in the scheduler context and must not suspend. */
static bool microtasks_run(void)
{
	bool ran = false;
	while (ASYNC_G(microtasks_length) > 0) {
		uint32_t n = ASYNC_G(microtasks_length);
		zend_async_microtask_t **batch = ASYNC_G(microtasks);
		ASYNC_G(microtasks) = NULL;
		ASYNC_G(microtasks_length) = 0;
		ASYNC_G(microtasks_capacity) = 0;
		for (uint32_t i = 0; i < n; i++) {
			if (!batch[i]->is_cancelled) {
				batch[i]->handler(batch[i]);
				ran = true;
			}
			microtask_release(batch[i]);
		}
		efree(batch);
	}
	return ran;
}

/* ---------------------------------------------------------------------------------------------
 * Launch and the drain after the main script
 * ------------------------------------------------------------------------------------------- */

static void scheduler_drain(void);
static void begin_graceful_shutdown(void);
static void register_drain(void);

/* The drain is an internal function queued as a shutdown function (P10): RSHUTDOWN is too
 * late, destructors and globals are gone by then. It is not in the function table. */
static ZEND_FUNCTION(async_drain)
{
	ZEND_PARSE_PARAMETERS_NONE();
	ASYNC_G(drain_registered) = false;
	/* After a fatal error in the main script nothing more runs (its stack is gone, as are the
	 * suspended coroutines' it left). After one in a coroutine the script's own frames were
	 * unwound by PHP as for any fatal error, the others are intact: the drain goes to the end of
	 * the shutdown functions (PHP runs one registered meanwhile), so they all run first, as after
	 * any fatal error; then it cancels the coroutines gracefully and closes the scopes, whose
	 * finally handlers run last. */
	if (CG(unclean_shutdown) && ASYNC_G(fatal_in_coroutine) && !ASYNC_G(drain_deferred)) {
		ASYNC_G(drain_deferred) = true;
		register_drain();
		return;
	}
	if (!CG(unclean_shutdown) || ASYNC_G(fatal_in_coroutine)) {
		if (ASYNC_G(fatal_in_coroutine)) {
			begin_graceful_shutdown();
		}
		scheduler_drain();
	}
}

/* per-process: the internal function queued as a shutdown function; its name is interned at MINIT */
static zend_internal_function drain_function = {
	.type = ZEND_INTERNAL_FUNCTION,
	.fn_flags = ZEND_ACC_PUBLIC,
	.handler = ZEND_FN(async_drain),
};

static void register_drain(void)
{
	if (ASYNC_G(drain_registered)) {
		return;
	}
	php_shutdown_function_entry entry;
	memset(&entry, 0, sizeof(entry));
	if (drain_function.function_name == NULL) {
		drain_function.function_name = zend_string_init_interned("Async\\{drain}", sizeof("Async\\{drain}") - 1, 1);
	}
#if ASYNC_SHUTDOWN_ENTRY_HAS_FCI
	ZVAL_STR(&entry.fci.function_name, zend_string_copy(drain_function.function_name));
	entry.fci.size = sizeof(entry.fci);
#endif
	entry.fci_cache.function_handler = (zend_function *) &drain_function;
	if (append_user_shutdown_function(&entry)) {
		ASYNC_G(drain_registered) = true;
	}
}

void async__scheduler_launch(void)
{
	if (ASYNC_G(launched)) {
		register_drain();
		return;
	}
	ASYNC_G(launched) = true;
	ZEND_ASYNC_G(state) = ZEND_ASYNC_ACTIVE;
	ZEND_ASYNC_REACTOR_STARTUP();

	async_coroutine_t *main = async__coroutine_new();
	ZEND_ASYNC_EVENT_SET(&main->coro.event, ZEND_COROUTINE_F_MAIN | ZEND_COROUTINE_F_STARTED);
	if (zend_is_executing()) {
		main->coro.filename = zend_get_executed_filename_ex();
		if (main->coro.filename) {
			zend_string_addref(main->coro.filename);
		}
		main->coro.lineno = zend_get_executed_lineno();
	}
	main->coro.scope = async__scope_ops->main(); /* not counted in it: main never blocks its disposal */
	async__output_launch(&main->output);
	ASYNC_G(main) = main;
	ZEND_ASYNC_G(main_coroutine) = &main->coro;
	ZEND_ASYNC_G(coroutine) = &main->coro;
	async__live_append(main);
	register_drain();
}

/* Where the spawn was made: the nearest user frame's file and line, what
 * zend_get_executed_filename_ex() and zend_get_executed_lineno() report, in one walk. */
static zend_always_inline void spawn_record_site(async_coroutine_t *co)
{
	zend_execute_data *ex = async__user_frame(EG(current_execute_data));
	if (ex == NULL) {
		return;
	}
	co->coro.filename = zend_string_copy(ex->func->op_array.filename);
	co->coro.lineno = EXPECTED(ex->opline != NULL && EG(exception) == NULL)
		? ex->opline->lineno
		: zend_get_executed_lineno(); /* no saved opline, or the line an exception left */
}

/* What every spawn does once it may: the object, its counts, its scope, the queue. */
static zend_always_inline async_coroutine_t *spawn_into(zend_async_scope_t *scope)
{
	async_coroutine_t *co = async__coroutine_new();
	spawn_record_site(co);
	GC_ADDREF(&co->std); /* alive until it finishes */
	co->spawned = true;
	co->clock = async__clock_current(); /* spawned inside a bubble: part of it */
	if (co->clock != NULL) {
		async__clock_addref(co->clock);
	}
	ZEND_ASYNC_INCREASE_COROUTINE_COUNT;
	ASYNC_G(coroutines_total)++;
	async__live_append(co);
	async__scope_ops->add_coroutine(scope, &co->coro);
	return co;
}

zend_coroutine_t *async__spawn_helper(zend_async_scope_t *scope, bool first)
{
	if ((EG(flags) & EG_FLAGS_IN_SHUTDOWN) && ASYNC_SWITCH_BLOCKED()) {
		return NULL; /* a destructor after the last drain: nothing would run it */
	}
	if (!ASYNC_G(launched)) {
		async__scheduler_launch();
	} else {
		register_drain();
	}
	if (scope == NULL || ZEND_ASYNC_EVENT_IS_CLOSED(&scope->event)) {
		scope = async__scope_ops->main();
	}
	async_coroutine_t *co = spawn_into(scope);
	if (first) {
		async__scheduler_queue_enter_first(&co->coro);
	} else {
		async__scheduler_queue_enter(&co->coro);
	}
	return &co->coro;
}

zend_coroutine_t *async__spawn(zend_async_scope_t *scope, zend_object *provider, int32_t priority)
{
	if (!ASYNC_G(launched)) {
		async__scheduler_launch();
	} else {
		register_drain();
	}
	if ((EG(flags) & EG_FLAGS_IN_SHUTDOWN) && ASYNC_SWITCH_BLOCKED()) {
		/* A destructor run by request shutdown where it cannot switch (8.2, 8.3): the last drain is
		 * over, and nothing could await it. From 8.4 such a destructor may spawn and await. */
		async__throw(async__ce_async_exception,
			"Cannot spawn a coroutine in a destructor during request shutdown: it would never run");
		return NULL;
	}
	if (ASYNC_G(max_contexts) > 0 && ZEND_ASYNC_G(active_coroutine_count) >= (uint32_t) ASYNC_G(max_contexts)) {
		/* P4: fail cleanly before vm.max_map_count makes mmap fail in the engine. */
		async__throw(async__ce_async_exception,
			"Cannot spawn a coroutine: %u coroutine%s alive, the limit is %u (async.max_contexts%s)",
			ZEND_ASYNC_G(active_coroutine_count), ZEND_ASYNC_G(active_coroutine_count) == 1 ? " is" : "s are",
			(uint32_t) ASYNC_G(max_contexts),
			ASYNC_G(use_stack_arena) ? "" : "; each needs 2 memory maps, see vm.max_map_count");
		return NULL;
	}

	if (scope == NULL) {
		/* The current coroutine's scope, without a call for the usual case (the scheduler runs). */
		zend_coroutine_t *current = ZEND_ASYNC_G(coroutine);
		scope = current != NULL && current->scope != NULL ? current->scope : async__scope_ops->current();
	}
	/* A cancelled scope is not closed yet (that comes with its disposal), but it refuses spawns
	 * with the same words (spec §8.3). */
	if (ZEND_ASYNC_SCOPE_IS_CLOSED(scope) || ZEND_ASYNC_SCOPE_IS_CANCELLED(scope)) {
		async__throw(async__ce_async_exception, "Cannot spawn a coroutine in a closed scope");
		return NULL;
	}

	async_coroutine_t *co = spawn_into(scope);

	if (ZEND_ASYNC_G(graceful_shutdown)) {
		/* Spawned after a graceful shutdown began: cancelled at once (§8.1.4). */
		async__scheduler_queue_enter(&co->coro);
		async__coroutine_cancel(&co->coro, async__new_exception(async__ce_async_cancellation, "Graceful shutdown"), true, true);
		return &co->coro;
	}
	/* (Only a provider can be a SpawnStrategy: no hook calls for a plain spawn().) */
	if (provider != NULL && !async__scope_ops->strategy_hook(provider, &co->coro, scope, true)) {
		/* The strategy refused it: it never runs. */
		zend_object *error = EG(exception);
		GC_ADDREF(error);
		zend_clear_exception();
		async__coroutine_cancel(&co->coro, NULL, false, false);
		zend_throw_exception_internal(error);
		OBJ_RELEASE(&co->std);
		return NULL;
	}
	async__scheduler_queue_enter(&co->coro);
	if (provider != NULL && !async__scope_ops->strategy_hook(provider, &co->coro, scope, false)) {
		OBJ_RELEASE(&co->std); /* it runs anyway; the caller gets the hook's exception */
		return NULL;
	}
	return &co->coro;
}

/* ---------------------------------------------------------------------------------------------
 * The loop
 * ------------------------------------------------------------------------------------------- */

typedef enum { TICK_WORK, TICK_IDLE, TICK_MAIN, TICK_DEADLOCK, TICK_FATAL } tick_result;

static bool exit_pending(void);
static bool only_main_left(void);

/* Direct hand-offs one batch may make: the reactor is polled between batches, so a chain of
 * coroutines waking each other (a ping-pong) yields to I/O and timers after this many. */
#define SCHEDULER_HANDOFF_BUDGET 64

/* Whether a poll without waiting, between two batches (or before main's turn), could deliver
 * anything. An event counted in active_event_count says so at once. Without one the loop may
 * still hold hidden events (a Pool's healthcheck, a signal trigger, a child's exit) or closing
 * handles; asking is two calls, and a poll with only hidden events a clock read and an
 * epoll_wait, so that is asked every SCHEDULER_ALIVE_EVERY-th pass only: coroutines spinning on
 * suspend() with nothing counted delay a hidden event by at most that many passes, not for ever. */
#define SCHEDULER_ALIVE_EVERY 16

static zend_always_inline bool poll_between_batches(void)
{
	if (ZEND_ASYNC_G(active_event_count) > 0) {
		return true;
	}
	if (++ASYNC_G(alive_skipped) < SCHEDULER_ALIVE_EVERY) {
		return false;
	}
	ASYNC_G(alive_skipped) = 0;
	return ZEND_ASYNC_REACTOR_LOOP_ALIVE();
}

/* Main's entry came off the queue (its reference with it): main resumes by returning from the
 * loop. false when the entry was stale: main already got its turn another way (an exit
 * delivered). `poll`: the reactor has not just been polled. */
static zend_always_inline bool main_turn(async_coroutine_t *co, bool poll)
{
	zend_coroutine_t *coro = &co->coro;
	bool stale = coro->waker == NULL || coro->waker->status != ZEND_ASYNC_WAKER_QUEUED;
	co->in_queue = false;
	OBJ_RELEASE(&co->std);
	if (stale) {
		return false;
	}
	ASYNC_G(batch_left) = 0;
	ASYNC_G(handoff_budget) = 0;
	/* Main may be spinning on suspend(): give due timers and I/O their turn first, or main would
	 * be handed the CPU forever while nothing else becomes runnable. */
	if (poll && poll_between_batches()) {
		ZEND_ASYNC_REACTOR_EXECUTE(true);
	}
	ASYNC_G(main_resumed) = true;
	return true;
}

/* Runs one batch of the run queue: the entries queued when it began, whether the loop resumes
 * them or a suspending coroutine hands off to them. Stops early, returning TICK_MAIN, when the
 * main coroutine's turn comes: main resumes by returning from the loop. */
static zend_always_inline tick_result run_batch(void)
{
	async_ring_t *q = &ASYNC_G(run_queue);
	bool worked = false;

	ASYNC_G(batch_left) = q->count; /* (left set by a batch a fatal error cut short) */
	ASYNC_G(handoff_budget) = SCHEDULER_HANDOFF_BUDGET;
	while (ASYNC_G(batch_left) > 0) {
		ASYNC_G(batch_left)--;
		zend_coroutine_t *coro = queue_pop(q);
		if (coro == NULL) {
			break;
		}
		async_coroutine_t *co = ASYNC_CO_FROM_CORO(coro);
		co->in_queue = false;

		if (ZEND_COROUTINE_IS_MAIN(coro)) {
			if (main_turn(co, true)) {
				return TICK_MAIN;
			}
			continue; /* main already got its turn another way (an exit delivered) */
		}
		/* A started coroutine is due only while its waker says so; an entry left behind by a
		 * wait that ended without switching (a pending cancellation thrown at once) is stale. */
		bool stale = ZEND_COROUTINE_IS_STARTED(coro)
			&& (coro->waker == NULL || coro->waker->status != ZEND_ASYNC_WAKER_QUEUED);
		if (!ZEND_COROUTINE_IS_FINISHED(coro) && !stale) {
			async__coroutine_start_or_resume(co);
			worked = true;
		}
		OBJ_RELEASE(&co->std);
		if (ASYNC_G(microtasks_length) > 0 && microtasks_run()) {
			worked = true;
		}
	}
	ASYNC_G(batch_left) = 0;
	ASYNC_G(handoff_budget) = 0;
	return worked ? TICK_WORK : TICK_IDLE;
}

async_coroutine_t *async__scheduler_handoff_after_finish(void)
{
	async_coroutine_t *next = async__handoff_head();
	if (next == NULL || !async__coroutine_can_resume_directly(next)) {
		return NULL;
	}
	return async__handoff_pop(next);
}

/* Nothing is runnable and a bubble of virtual time is live: real events already due go first
 * (a reply that arrived holds the clock), then the deepest bubble waiting on time only jumps. */
static bool virtual_time_advanced(void)
{
	if (ZEND_ASYNC_G(active_event_count) > 0 || ZEND_ASYNC_REACTOR_LOOP_ALIVE()) {
		ZEND_ASYNC_REACTOR_EXECUTE(true);
	}
	if (ASYNC_G(run_queue).count > 0 || ASYNC_G(microtasks_length) > 0) {
		return true;
	}
	return async__clock_advance();
}

static uint32_t count_waiting(bool include_main)
{
	uint32_t n = 0;
	ASYNC_LIVE_FOREACH(co) {
		if (ZEND_COROUTINE_IS_MAIN(&co->coro) && (!include_main || ASYNC_G(main_finished))) {
			continue;
		}
		n++;
	}
	return n;
}

/* What a coroutine waits for: its events' descriptions, "; "-separated; "nothing" if none. */
zend_string *async__scheduler_wait_info(zend_coroutine_t *coro)
{
	smart_str waits = {0};
	zend_async_waker_t *w = coro->waker;
	for (uint32_t i = 0; w != NULL && i < w->length; i++) {
		zend_async_event_t *ev = w->triggers[i].event;
		zend_string *ev_info = ev->info ? ev->info(ev) : NULL;
		smart_str_appends(&waits, i > 0 ? "; " : "");
		smart_str_appends(&waits, ev_info ? ZSTR_VAL(ev_info) : "event");
		if (ev_info) {
			zend_string_release(ev_info);
		}
	}
	if (waits.s == NULL) {
		return zend_string_init("nothing", sizeof("nothing") - 1, 0);
	}
	smart_str_0(&waits);
	return waits.s;
}

/* async.debug_deadlock: one E_WARNING for the deadlock, then one per waiting coroutine, located
 * at the place it waits. They go through PHP's error channel like any diagnostic, so
 * display_errors, log_errors and error_log decide where they end up (never straight into an
 * HTTP response). */
static void deadlock_report(uint32_t waiting)
{
	zend_error(E_WARNING, "Deadlock detected: %u coroutine%s waiting, %u active event%s: every waiting coroutine "
		"is cancelled", waiting, waiting == 1 ? "" : "s", ZEND_ASYNC_G(active_event_count),
		ZEND_ASYNC_G(active_event_count) == 1 ? "" : "s");
	/* zend_error() may run a user error handler: the walk pins the coroutine it is at */
	async_live_walk_t walk;
	for (async_coroutine_t *co = async__live_walk_first(&walk); co != NULL; co = async__live_walk_next(&walk)) {
		if (ZEND_COROUTINE_IS_MAIN(&co->coro) && ASYNC_G(main_finished)) {
			continue;
		}
		zend_string *info = ZEND_COROUTINE_IS_MAIN(&co->coro)
			? zend_coroutine_gen_info(&co->coro, "Main coroutine")
			: async__coroutine_info(&co->coro.event);
		zend_async_waker_t *w = co->coro.waker;
		zend_string *what = async__scheduler_wait_info(&co->coro);
		if (w != NULL && w->filename != NULL) {
			zend_error_at(E_WARNING, w->filename, w->lineno, "Deadlock: %s waits for %s", ZSTR_VAL(info), ZSTR_VAL(what));
		} else {
			zend_error(E_WARNING, "Deadlock: %s waits for %s", ZSTR_VAL(info), ZSTR_VAL(what));
		}
		zend_string_release(what);
		zend_string_release(info);
	}
}

static void set_exit_exception(zend_object *ex)
{
	if (ZEND_ASYNC_G(exit_exception) != NULL) {
		zend_exception_set_previous(ex, ZEND_ASYNC_G(exit_exception));
	}
	ZEND_ASYNC_G(exit_exception) = ex;
}

/* Cancels every coroutine except main. Protection is ignored (deadlock and shutdown both).
 * The walk follows the live list while cancellations remove coroutines from it and spawn
 * finally helpers onto its end (helpers ignore such a cancellation: skipped). A copy of the list
 * would cost an allocation as large as it, when memory may be what ran out (a fatal error in a
 * coroutine) and with a million coroutines alive: the walk pins where it is instead
 * (async__live_walk_next()). */
static void cancel_all(const char *message)
{
	async_live_walk_t walk;
	for (async_coroutine_t *co = async__live_walk_first(&walk); co != NULL; co = async__live_walk_next(&walk)) {
		if (ZEND_COROUTINE_IS_MAIN(&co->coro) || ZEND_COROUTINE_IS_FINISHED(&co->coro) || co->finally_helper) {
			continue;
		}
		co->protect_depth = 0;
		async__coroutine_cancel(&co->coro, async__new_exception(async__ce_async_cancellation, message), true, true);
	}
}

/* No runnable coroutine, no microtask, no active event, yet coroutines wait (§8.5). */
static void handle_deadlock(bool main_waiting)
{
	uint32_t waiting = count_waiting(main_waiting);
	if (ASYNC_G(debug_deadlock)) {
		deadlock_report(waiting);
	}
	zend_object *error = zend_async_new_exception(ZEND_ASYNC_EXCEPTION_DEADLOCK,
		"Deadlock detected: no active coroutines, %u coroutines in waiting", waiting);

	/* §8.5: every waiter, main included, gets the catchable cancellation; the DeadlockError is
	 * the exit exception the process ends with once the loop is done (with main's stack as its
	 * trace when main was waiting). */
	set_exit_exception(error);
	cancel_all("Deadlock detected");
	if (main_waiting) {
		async_coroutine_t *main = ASYNC_G(main);
		zend_async_waker_apply_error(main->coro.waker,
			async__new_exception(async__ce_async_cancellation, "Deadlock detected"), true, true);
		async__scheduler_enqueue(&main->coro);
	}
}

/* Main heads the run queue and nothing comes before it: no microtask, no fuzzed order, no exit
 * for async__scheduler_main_wait() to deliver first. */
static zend_always_inline bool main_is_next(void)
{
	/* Main's own flag first: a pass that runs other coroutines pays one test for this. */
	async_ring_t *q = &ASYNC_G(run_queue);
	return ASYNC_G(main)->in_queue && q->count > 0 && ASYNC_G(microtasks_length) == 0
		&& ASYNC_G(schedule_seed) == 0 && ZEND_COROUTINE_IS_MAIN(*ASYNC_RING_AT(q, 0, zend_coroutine_t *))
		&& !exit_pending();
}

/* What a pass of the loop does once a batch ran (and did not end in main's turn): end, with *r
 * saying how; run the next batch; or, the queue being empty, go to the reactor. Shared by
 * scheduler_tick() and main's first pass (main_wait_first_pass()). */
typedef enum { BATCH_THEN_RETURN, BATCH_THEN_NEXT, BATCH_THEN_REACTOR } batch_then;

static zend_always_inline batch_then after_batch(bool main_waiting, tick_result *r)
{
	bool exiting = exit_pending();
	if (main_waiting && exiting && only_main_left()) {
		*r = TICK_IDLE; /* do not block: the main wait hands main the exit reason now */
		return BATCH_THEN_RETURN;
	}
	if (ASYNC_G(run_queue).count == 0 && ASYNC_G(microtasks_length) == 0) {
		return BATCH_THEN_REACTOR;
	}
	/* Poll without waiting, but only if the loop has something that could fire: an idle
	 * poll is a clock read and an epoll_wait per tick. */
	if (poll_between_batches()) {
		ZEND_ASYNC_REACTOR_EXECUTE(true);
	}
	if (!main_waiting || exiting) {
		*r = TICK_WORK;
		return BATCH_THEN_RETURN;
	}
	if (main_is_next()) {
		/* The next tick would begin with main's turn, after the poll just made: take it now
		 * (main's await of a coroutine that just finished is one pass of the loop, not two). */
		zend_coroutine_t *coro = queue_pop(&ASYNC_G(run_queue));
		*r = main_turn(ASYNC_CO_FROM_CORO(coro), false) ? TICK_MAIN : TICK_WORK;
		return BATCH_THEN_RETURN;
	}
	return BATCH_THEN_NEXT;
}

/* One pass of the loop: microtasks, a batch of coroutines, then the reactor. For main's wait it
 * goes on with the next batch itself while the queue has work and main's turn has not come (a
 * return to async__scheduler_main_wait() would only call it again). */
static tick_result scheduler_tick(bool main_waiting)
{
	for (;;) {
		if (ASYNC_G(microtasks_length) > 0) {
			microtasks_run();
		}
		tick_result r = run_batch();
		if (r == TICK_MAIN) {
			return r;
		}
		batch_then then = after_batch(main_waiting, &r);
		if (then == BATCH_THEN_RETURN) {
			return r;
		}
		if (then == BATCH_THEN_REACTOR) {
			break;
		}
	}
	if (ASYNC_G(clocks) != NULL && virtual_time_advanced()) {
		return TICK_WORK;
	}
	if (ZEND_ASYNC_G(active_event_count) > 0) {
		ZEND_ASYNC_REACTOR_EXECUTE(false); /* blocks until an event fires */
		return TICK_WORK;
	}
	/* Nothing active: let pending close callbacks run, then decide. */
	ZEND_ASYNC_REACTOR_EXECUTE(true);
	if (ASYNC_G(run_queue).count > 0 || ASYNC_G(microtasks_length) > 0) {
		return TICK_WORK;
	}
	if (main_waiting && exit_pending() && only_main_left()) {
		return TICK_IDLE; /* the main wait hands main the exit reason next */
	}
	if (main_waiting || count_waiting(false) > 0) {
		/* §8.5 step 1: channels with soft timeouts and a blocked party are closed first;
		 * their waiters wake with ChannelException and the loop goes on. */
		if (run_deadlock_resolvers()) {
			return TICK_WORK;
		}
		handle_deadlock(main_waiting && !exit_pending());
		return TICK_DEADLOCK;
	}
	return TICK_IDLE;
}

/* Graceful shutdown after exit() or an unhandled error: cancel everyone and let them unwind. */
static void begin_graceful_shutdown(void)
{
	if (ZEND_ASYNC_G(graceful_shutdown)) {
		return;
	}
	ZEND_ASYNC_G(graceful_shutdown) = true;
	cancel_all("Graceful shutdown");
	notify_shutdown_listeners("Graceful shutdown"); /* e.g. nothing is left to act on a signal */
}

void async__scheduler_request_exit(void)
{
	ASYNC_G(exit_requested) = true;
	begin_graceful_shutdown();
}

void async__scheduler_unhandled_exception(async_coroutine_t *co, zend_object *exception)
{
	(void) co;
	GC_ADDREF(exception);
	if ((EG(flags) & EG_FLAGS_IN_SHUTDOWN) && !ASYNC_G(in_drain) && !ASYNC_G(drain_registered)) {
		/* After the last drain (a handle destroyed by the shutdown destructors): no later step
		 * would report a stored error, so it is reported now, as PHP reports an uncaught one. */
		zend_exception_error(exception, E_ERROR);
		return;
	}
	set_exit_exception(exception);
	begin_graceful_shutdown();
}

/* After a graceful shutdown has drained, hand main the reason: exit() or the stored error. */
static bool deliver_exit(void)
{
	if (ASYNC_G(exit_requested)) {
		ASYNC_G(exit_requested) = false;
		zend_throw_unwind_exit();
		return true;
	}
	if (ZEND_ASYNC_G(exit_exception) != NULL) {
		zend_object *ex = ZEND_ASYNC_G(exit_exception);
		ZEND_ASYNC_G(exit_exception) = NULL;
		zend_throw_exception_internal(ex);
		return true;
	}
	return false;
}

static bool only_main_left(void)
{
	return count_waiting(false) == 0;
}

static bool exit_pending(void)
{
	return ZEND_ASYNC_G(graceful_shutdown) && (ASYNC_G(exit_requested) || ZEND_ASYNC_G(exit_exception) != NULL);
}

/* The first pass of main's wait, when the queue has work and no microtask or shutdown is due:
 * scheduler_tick()'s (one batch, then after_batch()), but inline here rather than a call away:
 * main's await of a coroutine it just spawned is this pass, and every call level between the VM
 * and the switch is a mispredicted return when main is switched back to (core/core.h). false:
 * main's turn has not come; the loop goes on from where a tick's pass would. */
static zend_always_inline bool main_wait_first_pass(zend_coroutine_t *previous)
{
	if (ASYNC_G(run_queue).count == 0 || ASYNC_G(microtasks_length) != 0 || ZEND_ASYNC_G(graceful_shutdown)) {
		return false;
	}
	ZEND_ASYNC_G(in_scheduler_context) = true;
	tick_result r = run_batch();
	ZEND_ASYNC_G(in_scheduler_context) = false;
	ZEND_ASYNC_G(coroutine) = previous;
	if (r == TICK_MAIN) {
		return !exit_pending();
	}
	/* (after_batch() takes main's turn only when no exit is pending) */
	return after_batch(true, &r) == BATCH_THEN_RETURN && r == TICK_MAIN;
}

/* The main coroutine waits: run the loop here until the queue hands main its turn.
 * During a graceful shutdown main is not resumed until every other coroutine has unwound;
 * it then receives the reason (exit() or the unhandled error) in place of its own result. */
void async__scheduler_main_wait(void)
{
	async_coroutine_t *main = ASYNC_G(main);
	zend_coroutine_t *previous = ZEND_ASYNC_G(coroutine);
	uint32_t deadlocks = 0;

	if (main_wait_first_pass(previous)) {
		return;
	}
	for (;;) {
		if (exit_pending() && (only_main_left() || deadlocks > 2)) {
			zend_async_waker_clean(&main->coro);
			ZEND_ASYNC_G(graceful_shutdown) = false;
			deliver_exit();
			break;
		}
		ZEND_ASYNC_G(in_scheduler_context) = true;
		tick_result r = scheduler_tick(true);
		ZEND_ASYNC_G(in_scheduler_context) = false;
		ZEND_ASYNC_G(coroutine) = previous;
		if (r == TICK_DEADLOCK) {
			deadlocks++;
		}
		if (r == TICK_MAIN && !exit_pending()) {
			break;
		}
	}
}

/* The main script ended with "Fatal error: Uncaught ..." (not a bailout, E_DONT_BAIL). */
static bool main_died_uncaught(void)
{
	return EG(exit_status) == 255 && PG(last_error_type) == E_ERROR && PG(last_error_message) != NULL
		&& zend_string_starts_with_literal(PG(last_error_message), "Uncaught ");
}

/* Coroutines started after the script (or resumed from the drain) are switched to from the
 * drain, where no user frame is on the stack: a fiber observer (Xdebug's) and every error
 * location read the executing file and line from the nearest user frame, and would find none
 * ("[no active file]:0", or a NULL file name that Xdebug dereferences). So the drain runs
 * under a frame of its own that stands for the main script at the line that launched the
 * runtime. It is never executed, and it has no caller, so the traces of the exceptions the
 * drain makes (a DeadlockError) end at "{main}", not in an internal Async\{drain}() frame.
 * Returns the frame to restore. */
static zend_execute_data *drain_frame_push(void)
{
	zend_execute_data *saved = EG(current_execute_data);
	async_coroutine_t *main = ASYNC_G(main);
	if (main == NULL || main->coro.filename == NULL) {
		return saved; /* launched where no script ran: nothing better to show */
	}
	zend_op *op = &ASYNC_G(drain_op);
	memset(op, 0, sizeof(*op));
	op->opcode = ZEND_NOP;
	op->lineno = main->coro.lineno;
	zend_op_array *op_array = &ASYNC_G(drain_op_array);
	memset(op_array, 0, sizeof(*op_array));
	op_array->type = ZEND_USER_FUNCTION;
	op_array->filename = main->coro.filename;
	op_array->opcodes = op;
	op_array->last = 1;
	op_array->line_start = op_array->line_end = op->lineno;
	zend_execute_data *frame = &ASYNC_G(drain_frame);
	memset(frame, 0, sizeof(*frame));
	frame->func = (zend_function *) op_array;
	frame->opline = op;
	EG(current_execute_data) = frame;
	return saved;
}

/* ---------------------------------------------------------------------------------------------
 * The bounded request end (async.shutdown_timeout)
 *
 * Coroutines left after the script run in the drain, inside PHP's shutdown functions. Under
 * php-fpm that is after the worker told the master the request is done, where neither
 * request_terminate_timeout nor max_execution_time (CPU time) stops an idle wait: a coroutine
 * that never ends would keep the worker for good. So once the drain has run for
 * async.shutdown_timeout, every coroutine left is cancelled ("Request shutdown timeout"); one
 * that is still there a short grace later is abandoned: the drain ends, and at object
 * destruction each gets one more slice to unwind (its finally blocks) and is dropped wherever
 * it waits. The timers are hidden: they never keep the drain alive nor count for deadlocks.
 * ------------------------------------------------------------------------------------------- */

enum { SHUTDOWN_RUNNING, SHUTDOWN_CANCEL_DUE, SHUTDOWN_CANCELLED, SHUTDOWN_ABANDON_DUE, SHUTDOWN_ABANDONED };

#define SHUTDOWN_GRACE_MS 1000

/* The CLI's leftover coroutines are its program (a server spawned by a script that then ends):
 * they may run for ever. Everywhere else a request has an end. */
static zend_long shutdown_timeout_ms(void)
{
	zend_long ms = ASYNC_G(shutdown_timeout);
	if (ms >= 0) {
		return ms;
	}
	return sapi_module.name != NULL && (strcmp(sapi_module.name, "cli") == 0 || strcmp(sapi_module.name, "phpdbg") == 0)
		? 0 : 30000;
}

static void shutdown_timer_fired(zend_async_event_t *event, zend_async_event_callback_t *callback,
	void *result, zend_object *exception)
{
	ASYNC_G(shutdown_phase)++; /* RUNNING -> CANCEL_DUE, CANCELLED -> ABANDON_DUE */
}

static void shutdown_timer_stop(void)
{
	zend_async_timer_event_t *timer = ASYNC_G(shutdown_timer);
	if (timer != NULL) {
		ASYNC_G(shutdown_timer) = NULL;
		timer->base.stop(&timer->base);
		ZEND_ASYNC_EVENT_RELEASE(&timer->base);
	}
}

static void shutdown_timer_arm(uint64_t ms)
{
	shutdown_timer_stop();
	zend_async_timer_event_t *timer = ZEND_ASYNC_NEW_TIMER_EVENT(ms > 0 ? ms : 1, false);
	if (timer == NULL) {
		zend_clear_exception();
		return;
	}
	ZEND_ASYNC_EVENT_SET(&timer->base, ZEND_ASYNC_EVENT_F_HIDDEN);
	zend_async_event_callback_t *cb = ZEND_ASYNC_EVENT_CALLBACK(shutdown_timer_fired);
	timer->base.add_callback(&timer->base, cb);
	ZEND_ASYNC_EVENT_CALLBACK_RELEASE(cb);
	timer->base.start(&timer->base);
	ASYNC_G(shutdown_timer) = timer;
}

/* Arms the deadline for this drain: the timeout counts from the first drain of the request. */
static void shutdown_deadline_start(void)
{
	zend_long timeout = shutdown_timeout_ms();
	if (timeout <= 0 || ASYNC_G(shutdown_phase) != SHUTDOWN_RUNNING) {
		return;
	}
	uint64_t now = ZEND_ASYNC_NOW();
	if (ASYNC_G(drain_started_ms) == 0) {
		ASYNC_G(drain_started_ms) = now;
	}
	uint64_t elapsed = now - ASYNC_G(drain_started_ms);
	shutdown_timer_arm(elapsed >= (uint64_t) timeout ? 0 : (uint64_t) timeout - elapsed);
}

/* Called on each turn of the drain: false when the drain must end now (abandon). */
static bool shutdown_deadline_check(void)
{
	switch (ASYNC_G(shutdown_phase)) {
		case SHUTDOWN_CANCEL_DUE:
			ASYNC_G(shutdown_phase) = SHUTDOWN_CANCELLED;
			cancel_all("Request shutdown timeout");
			shutdown_timer_arm(MIN(SHUTDOWN_GRACE_MS, (uint64_t) shutdown_timeout_ms()));
			return true;
		case SHUTDOWN_ABANDONED:
			return false; /* a later shutdown function spawned again: nothing runs any more */
		case SHUTDOWN_ABANDON_DUE: {
			ASYNC_G(shutdown_phase) = SHUTDOWN_ABANDONED;
			uint32_t left = ZEND_ASYNC_G(active_coroutine_count);
			zend_error(E_WARNING, "Request shutdown timeout: %u coroutine%s still running %ld ms after the script "
				"ended %s abandoned (async.shutdown_timeout)", left, left == 1 ? "" : "s",
				(long) shutdown_timeout_ms(), left == 1 ? "is" : "are");
			return false;
		}
		default:
			return true;
	}
}

/* One turn of the drain. A fatal error in a coroutine it ran (E_USER_ERROR, a compile error,
 * the time limit: a bailout) was reported and ended that coroutine; the drain is a shutdown
 * function, and PHP would skip every later one. As after a fatal error in the script, they still
 * run: the bailout stops here, the others are cancelled gracefully (their finally blocks and
 * handlers run), the scopes are closed once they are done (their finally handlers run), and
 * the drain ends normally. */
static tick_result drain_tick(void)
{
	volatile tick_result r = TICK_WORK;
	ZEND_ASYNC_G(in_scheduler_context) = true;
	zend_try {
		r = scheduler_tick(false);
	} zend_catch {
		r = TICK_FATAL;
		ASYNC_G(fatal_in_coroutine) = true;
		begin_graceful_shutdown();
	} zend_end_try();
	ZEND_ASYNC_G(in_scheduler_context) = false;
	return r;
}

static void scheduler_drain(void)
{
	if (!ASYNC_G(launched)) {
		return;
	}
	zend_execute_data *saved_frame = drain_frame_push();
	shutdown_deadline_start();
	if (!ASYNC_G(main_finished)) {
		ASYNC_G(main_finished) = true;
		ASYNC_G(main)->body_done = true;
		async__coroutine_finish(ASYNC_G(main));
		if (main_died_uncaught()) {
			/* §8.2.3: the main coroutine's unhandled error shuts everything down. It was
			 * already reported, so it is not stored as the exit exception again. */
			begin_graceful_shutdown();
		}
	}

	uint32_t deadlocks = 0;
	bool scopes_closed = false;
	ASYNC_G(in_drain) = true;
	for (;;) {
		if (!shutdown_deadline_check()) {
			break;
		}
		if (ASYNC_G(run_queue).count == 0 && ASYNC_G(microtasks_length) == 0 && only_main_left()
			&& ZEND_ASYNC_G(active_event_count) == 0) {
			if (ASYNC_G(fatal_in_coroutine) && !scopes_closed) {
				scopes_closed = true;
				async__scope_ops->close_all(); /* their finally handlers may spawn: the loop goes on */
				continue;
			}
			if (ZEND_ASYNC_G(main_scope) != NULL && async__scope_ops->main_finally()) {
				continue; /* the main scope's finally handlers ran; they may spawn: the loop goes on */
			}
			break;
		}
		tick_result r = drain_tick();
		if (r == TICK_DEADLOCK && ++deadlocks > 2) {
			/* Coroutines that keep catching the cancellation are destroyed at shutdown. */
			break;
		}
	}
	ASYNC_G(in_drain) = false;
	shutdown_timer_stop();
	ZEND_ASYNC_G(graceful_shutdown) = false;
	/* The script is over: exit() in a coroutine has nothing left to abort, and throwing here
	 * would skip the shutdown functions after this drain. An error is reported as PHP reports
	 * an uncaught one (exit status 255), and shutdown goes on. */
	ASYNC_G(exit_requested) = false;
	if (ZEND_ASYNC_G(exit_exception) != NULL) {
		zend_object *ex = ZEND_ASYNC_G(exit_exception);
		ZEND_ASYNC_G(exit_exception) = NULL;
		zend_exception_error(ex, E_ERROR);
	}
	EG(current_execute_data) = saved_frame;
}

/* ---------------------------------------------------------------------------------------------
 * Suspend
 * ------------------------------------------------------------------------------------------- */

/* Suspends the current coroutine until its waker is resolved (or it is re-queued). Any error
 * the waker collected is thrown here. */
void async__scheduler_suspend(bool from_main)
{
	(void) from_main;
	if (!ASYNC_G(launched)) {
		async__scheduler_launch();
	}
	zend_coroutine_t *coro = ZEND_ASYNC_G(coroutine);
	async_coroutine_t *co = ASYNC_CO_FROM_CORO(coro);

	if (UNEXPECTED(ZEND_ASYNC_G(in_scheduler_context))) {
		async__throw(async__ce_async_exception, "The operation cannot be executed in the scheduler context");
		return;
	}
	if (UNEXPECTED(ASYNC_SWITCH_BLOCKED())) {
		async__throw(async__ce_async_exception, "Cannot suspend a coroutine " ASYNC_SWITCH_BLOCKED_WHERE
			": PHP " PHP_VERSION " forbids switching coroutines there");
		return;
	}
	async__suspend_waiting(coro, co);
}

void async__scheduler_suspend_begun(void)
{
	async__scheduler_suspend_begun_inline();
}

void async__scheduler_yield(void)
{
	async__scheduler_yield_inline();
}

/* The ABI's resume: an error goes into the waker, then the coroutine is queued. (A coroutine that
 * suspended from inside a user Fiber is switched back there by async__coroutine_start_or_resume(),
 * P8.) */
static void scheduler_resume(zend_coroutine_t *coroutine, zend_object *error, bool transfer_error)
{
	if (error != NULL && coroutine->waker != NULL) {
		zend_async_waker_apply_error(coroutine->waker, error, transfer_error, true);
	} else if (error != NULL && transfer_error) {
		OBJ_RELEASE(error);
	}
	async__scheduler_enqueue(coroutine);
}

static zend_array *scheduler_get_coroutines(void)
{
	zend_array *result = zend_new_array(ASYNC_G(live).length);
	ASYNC_LIVE_FOREACH(co) {
		if (ZEND_COROUTINE_IS_MAIN(&co->coro) && ASYNC_G(main_finished)) {
			continue;
		}
		zval zv;
		ZVAL_OBJ_COPY(&zv, &co->std);
		zend_hash_next_index_insert_new(result, &zv);
	}
	return result;
}

static void scheduler_shutdown(void)
{
	begin_graceful_shutdown();
}

/* Async\graceful_shutdown(): every coroutine is cancelled, later spawns too, until the drain. */
void async__scheduler_graceful_shutdown(void)
{
	begin_graceful_shutdown();
}

static zend_coroutine_t *scheduler_new_coroutine(zend_async_scope_t *scope)
{
	async_coroutine_t *co = async__coroutine_new();
	co->coro.scope = scope;
	return &co->coro;
}

/* ---------------------------------------------------------------------------------------------
 * Request lifecycle
 * ------------------------------------------------------------------------------------------- */

/* Registered first thing in every request, so the coroutines left by the script run before
 * the user's shutdown functions (spec §8.1.3); a spawn from a later shutdown function re-arms. */
void async__scheduler_rinit(void)
{
	memset(&ASYNC_G(run_queue), 0, sizeof(async_ring_t));
	memset(&ASYNC_G(live), 0, sizeof(async_list_t));
	ASYNC_G(microtasks) = NULL;
	ASYNC_G(microtasks_length) = ASYNC_G(microtasks_capacity) = 0;
	ASYNC_G(main) = NULL;
	ASYNC_G(launched) = ASYNC_G(drain_registered) = ASYNC_G(main_finished) = false;
	ASYNC_G(main_resumed) = ASYNC_G(in_drain) = ASYNC_G(exit_requested) = ASYNC_G(fatal_in_coroutine) = false;
	ASYNC_G(drain_deferred) = false;
	ASYNC_G(coroutines_total) = 0;
	ASYNC_G(request_serial)++;
	ASYNC_G(drain_started_ms) = 0;
	ASYNC_G(shutdown_phase) = SHUTDOWN_RUNNING;
	ASYNC_G(shutdown_timer) = NULL;
	ASYNC_G(rng_state) = ASYNC_G(schedule_seed) ? (uint64_t) ASYNC_G(schedule_seed) * 0x9E3779B97F4A7C15ull : 1;
	memset(&zend_async_api_globals, 0, sizeof(zend_async_api_globals));
	ZEND_ASYNC_G(state) = ZEND_ASYNC_READY;
	register_drain();
}

void async__scheduler_rshutdown(void)
{
	shutdown_timer_stop(); /* a drain left by a fatal error did not stop it */
	async_ring_t *q = &ASYNC_G(run_queue);
	while (q->count > 0) {
		zend_coroutine_t *coro = queue_pop(q);
		ASYNC_CO_FROM_CORO(coro)->in_queue = false;
		OBJ_RELEASE(&ASYNC_CO_FROM_CORO(coro)->std);
	}
	async_ring_free(q);
	for (uint32_t i = 0; i < ASYNC_G(microtasks_length); i++) {
		microtask_release(ASYNC_G(microtasks)[i]);
	}
	if (ASYNC_G(microtasks)) {
		efree(ASYNC_G(microtasks));
	}
	ASYNC_G(microtasks) = NULL;
	ASYNC_G(microtasks_length) = 0;

	if (ASYNC_G(main) != NULL) {
		async_coroutine_t *main = ASYNC_G(main);
		ASYNC_G(main) = NULL;
		ZEND_ASYNC_G(main_coroutine) = NULL;
		main->coro.scope = NULL;
		OBJ_RELEASE(&main->std);
	}
	async__scope_ops->main_dispose();
	ZEND_ASYNC_G(coroutine) = NULL;
	if (ZEND_ASYNC_G(exit_exception)) {
		OBJ_RELEASE(ZEND_ASYNC_G(exit_exception));
		ZEND_ASYNC_G(exit_exception) = NULL;
	}
	/* Objects are freed after RSHUTDOWN: those still listed (after a fatal error) leave the list
	 * now, so freeing them later touches nothing of this request. */
	while (ASYNC_G(live).first != NULL) {
		async__live_remove(async__live_first());
	}
	ZEND_ASYNC_G(state) = ZEND_ASYNC_OFF;
}

zend_result async__scheduler_minit(void)
{
	/* Interned now, at MINIT, the name is permanent: made lazily during a request it would be a
	 * request-interned string, freed at the end of that request (php -S, FPM: later requests). */
	drain_function.function_name = zend_string_init_interned("Async\\{drain}", sizeof("Async\\{drain}") - 1, 1);
	zend_async_scheduler_api_t api = {
		.launch = async__scheduler_launch,
		.new_coroutine = scheduler_new_coroutine,
		.new_scope = scheduler_new_scope,
		.spawn = async__spawn,
		.suspend = async__scheduler_suspend,
		.enqueue_coroutine = async__scheduler_enqueue,
		.resume = scheduler_resume,
		.cancel = async__coroutine_cancel,
		.shutdown = scheduler_shutdown,
		.get_coroutines = scheduler_get_coroutines,
		.add_microtask = microtask_add,
		.get_class_ce = async__get_class_ce,
	};
	/* false: another implementation of this ABI table is registered */
	return zend_async_scheduler_register(PHP_ASYNC_NAME, false, &api) ? SUCCESS : FAILURE;
}
