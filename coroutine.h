/*
 * coroutine.h — the runtime's coroutine (Async\Coroutine) and the pooled C contexts ("workers")
 * that run coroutines (coroutine.c).
 */
#ifndef ASYNC_COROUTINE_H
#define ASYNC_COROUTINE_H

#include "php_async.h"
#include "coroutine_output.h"
#include "coroutine_autoload.h"
#include "zend_fibers.h"
#include "stack_arena.h"
#include "async_compat.h"

#if !ASYNC_FIBER_STACK_LAYOUT_KNOWN
# error "zend_fiber_stack's layout is not known for this PHP version: check Zend/zend_fibers.c"
#endif

/* An arena worker's stack as zend_fiber_switch_context() reads it: PHP's private
 * zend_fiber_stack (zend_fibers.c), mirrored. It gets the same fields under the same build
 * switches; the ones it reads are set. */
typedef struct {
	void *pointer;
	size_t size;
#ifdef HAVE_VALGRIND
	unsigned int valgrind_stack_id;
#endif
#ifdef __SANITIZE_ADDRESS__
	const void *asan_pointer;
	size_t asan_size;
#endif
} async_zend_fiber_stack_t;

/* A pooled C context. The fiber context must stay the first member (it is found from
 * EG(current_fiber_context)). */
struct _async_worker_s {
	zend_fiber_context ctx;
	async_coroutine_t *coroutine;   /* bound coroutine, NULL while parked */
	zend_fiber_context *return_ctx; /* where the worker goes when it parks or dies */
	async_worker_t *next_free;
	zend_vm_stack vm_page;          /* the VM stack's first page, kept from its last coroutine */
	async_stack_t stack;            /* the arena's stack */
	unsigned int valgrind_id;
	bool arena;                     /* its stack is the arena's (stack_arena.c), not the fiber API's */
	async_zend_fiber_stack_t zend_stack; /* ctx.stack points here */
};

/* Arguments of a spawn kept in the coroutine; more take an allocation. */
#define ASYNC_CO_INLINE_ARGS 2

struct _async_coroutine_s {
	zend_coroutine_t coro;            /* first: the event sits at offset 0 */
	async_worker_t *worker;           /* the C context running this coroutine */
	zend_fiber_context *resume_ctx;   /* the context that suspended (may be a user Fiber's) */
	zend_fiber_context *sched_ctx;    /* the context that resumed it last */
	zend_execute_data *execute_data;  /* top frame while suspended */
	zend_execute_data *stack_bottom;  /* dummy bottom frame */
	zend_object *pending_cancel;      /* self-cancel or deferred (protect) cancellation */
	uint32_t protect_depth;
	uint32_t walk_pass;               /* the last walk of the live list that reached it */
	bool in_live;                     /* in ASYNC_G(live) */
	bool in_queue;
	bool in_scope;                    /* counted in coro.scope, holding a reference to it */
	bool spawned;                     /* holds the alive reference and a coroutine count */
	bool exit_requested;              /* body ended with exit() */
	bool body_done;                   /* the body is over: finally handlers see it as completed */
	bool finally_helper;              /* runs finally handlers: only the engine's destruction cancels it */
	bool awaiter_listed;              /* `awaiter` is subscribed (coroutine_awaiter.c) */
	zend_coroutine_event_callback_t awaiter; /* the first await()'s subscription, kept here */
	zend_array *finally_handlers;
	zend_object *context;             /* Async\Context, lazily */
	async_output_state_t output;      /* its own ob_start() handlers while switched out */
	HashTable *in_autoload;           /* its EG(in_autoload) while switched out (coroutine_autoload.c) */
	struct _async_clock_s *clock;     /* its bubble's virtual clock, NULL for real time (clock.c) */
	async_list_node_t live_node;      /* in ASYNC_G(live) */
	async_list_node_t scope_node;     /* in its scope's list of coroutines (scope.c) */
	/* Not zeroed at creation (read only once coro.fcall points at them): */
	zend_fcall_t call;                /* coro.fcall of a spawn (async_coroutine_set_call()) */
	zval call_args[ASYNC_CO_INLINE_ARGS]; /* call's first arguments */
	zend_object std;
};

#define ASYNC_CO_FROM_OBJ(obj) ((async_coroutine_t *) ((char *) (obj) - XtOffsetOf(async_coroutine_t, std)))
#define ASYNC_CO_FROM_CORO(c)  ((async_coroutine_t *) (c))
#define ASYNC_CO_OBJ(co)       (&(co)->std)

/* The request's live coroutines, a list in spawn order (main first): a coroutine joins when it is
 * spawned and leaves when it finishes (or, after a fatal error, when its object is freed). A list,
 * not a table by handle: joining and leaving are a few stores. */
static zend_always_inline void async_live_append(async_coroutine_t *co)
{
	ZEND_ASSERT(!co->in_live);
	co->in_live = true;
	async_list_append(&ASYNC_G(live), &co->live_node);
}

static zend_always_inline void async_live_remove(async_coroutine_t *co)
{
	if (co->in_live) {
		co->in_live = false;
		async_list_remove(&ASYNC_G(live), &co->live_node);
	}
}

static zend_always_inline async_coroutine_t *async_live_of(async_list_node_t *node)
{
	return node != NULL ? ASYNC_LIST_ITEM(node, async_coroutine_t, live_node) : NULL;
}

static zend_always_inline async_coroutine_t *async_live_first(void)
{
	return async_live_of(ASYNC_G(live).first);
}

static zend_always_inline async_coroutine_t *async_live_next(async_coroutine_t *co)
{
	return async_live_of(co->live_node.next);
}

/* A walk whose body may run PHP code (cancelling, a user error handler, a destructor):
 *
 *     async_live_walk_t w;
 *     for (co = async_live_walk_first(&w); co != NULL; co = async_live_walk_next(&w)) ...
 *
 * It runs to the end (a `continue` is fine, never a `break`: it holds references). Each live
 * coroutine is visited once, those spawned meanwhile too, those finished meanwhile not. */
typedef struct {
	async_coroutine_t *co;    /* the one at hand, pinned */
	async_coroutine_t *after; /* its successor before the body ran, pinned */
	uint32_t pass;
} async_live_walk_t;
async_coroutine_t *async_live_walk_first(async_live_walk_t *w);
async_coroutine_t *async_live_walk_next(async_live_walk_t *w);

/* Visits every live coroutine, for walks whose body runs no PHP code. */
#define ASYNC_LIVE_FOREACH(co) \
	for (async_coroutine_t *co = async_live_first(); co != NULL; co = async_live_next(co))

/* The nearest frame of PHP code at or below `ex` (NULL for none): where a spawn was made, a
 * coroutine suspended, or a running one is. */
static zend_always_inline zend_execute_data *async_user_frame(zend_execute_data *ex)
{
	while (ex != NULL && (ex->func == NULL || !ZEND_USER_CODE(ex->func->type))) {
		ex = ex->prev_execute_data;
	}
	return ex;
}

extern zend_class_entry *async_ce_coroutine;

void async_register_coroutine_class(void);
async_coroutine_t *async_coroutine_new(void);
/* Whether a queued coroutine can be switched into straight from another context: started, on its
 * own worker's context (not inside a user Fiber, P8), due (its waker queued) and holding its
 * alive reference (a chain of hand-offs gives up the queue reference while it runs). */
static zend_always_inline bool async_coroutine_can_resume_directly(async_coroutine_t *to)
{
	zend_async_waker_t *waker = to->coro.waker;
	return to->spawned && !ZEND_COROUTINE_IS_FINISHED(&to->coro) && to->resume_ctx != NULL
		&& to->worker != NULL && to->resume_ctx == &to->worker->ctx
		&& waker != NULL && waker->status == ZEND_ASYNC_WAKER_QUEUED;
}

/* A parked worker's stack is at least fiber.stack_size, which ini_set() may have raised since:
 * the arena's slots are of one size; the fiber API's stacks keep theirs (page-rounded). */
static zend_always_inline bool async_worker_fits(const async_worker_t *worker)
{
	size_t size = EG(fiber_stack_size);
	return worker->arena ? async_stack_arena_fits(size) : ((const async_zend_fiber_stack_t *) worker->ctx.stack)->size >= size;
}

/* Direct hand-off (the run queue's head runs next without a round trip through the scheduler):
 * whether the running coroutine `from` may switch straight into `to`. Inline: every suspension
 * with somebody queued asks. */
static zend_always_inline bool async_coroutine_can_hand_off(async_coroutine_t *from, async_coroutine_t *to)
{
	/* from runs on its own worker's context, not inside a user Fiber (P8: the scheduler must
	 * switch it back into that Fiber) */
	if (from->worker == NULL || EG(current_fiber_context) != &from->worker->ctx) {
		return false;
	}
	if (to->resume_ctx == NULL) {
		/* a first run, on a parked worker */
		return to->spawned && !ZEND_COROUTINE_IS_FINISHED(&to->coro) && !ZEND_COROUTINE_IS_STARTED(&to->coro)
			&& ASYNC_G(free_workers) != NULL && async_worker_fits(ASYNC_G(free_workers));
	}
	return async_coroutine_can_resume_directly(to);
}

/* A broken canary: the coroutine overflowed its stack into the one below (its co may already be
 * gone: NULL). The fatal error; the process ends. */
ZEND_COLD ZEND_NORETURN void async_worker_stack_overflowed(async_coroutine_t *co);
/* Checked whenever a context leaves its worker's stack for another: inline, the report out of
 * line. */
static zend_always_inline void async_worker_check_stack(async_worker_t *worker, async_coroutine_t *co)
{
	if (worker->arena && UNEXPECTED(!async_stack_canary_intact(&worker->stack))) {
		async_worker_stack_overflowed(co);
	}
}

/* A worker bound to co for its first run: its context, or NULL when no C stack could be had. */
zend_fiber_context *async_coroutine_bind_worker(async_coroutine_t *co);
/* The context to switch to for running co: its own where it suspended, or a worker's. */
static zend_always_inline zend_fiber_context *async_coroutine_bind(async_coroutine_t *co)
{
	return co->resume_ctx != NULL ? co->resume_ctx : async_coroutine_bind_worker(co);
}

/* Makes `to` the running coroutine as seen by everything that follows it (the current coroutine,
 * its output buffers, its autoload stack, the loop's context it goes back to); the one left gives
 * its output buffers to `from_output` and its autoload stack to `*from_autoload`. Every way into
 * a coroutine uses it: the loop's (async_coroutine_start_or_resume()), a suspending coroutine's
 * hand-off and a finished one's. */
static zend_always_inline void async_coroutine_make_current(async_coroutine_t *to, zend_fiber_context *sched_ctx,
	async_output_state_t *from_output, HashTable **from_autoload)
{
	to->sched_ctx = sched_ctx;
	ZEND_ASYNC_G(coroutine) = &to->coro;
	async_output_switch(from_output, &to->output);
	async_autoload_switch(from_autoload, to->in_autoload);
}

/* Leaves the running coroutine co, which suspends: for its scheduler's context, or for `next`
 * (taken from the run queue with its reference, after async_coroutine_can_hand_off()). Returns
 * when co is resumed. Inline in the suspension (scheduler_suspend.h): every call between the VM
 * and the switch is a return after it, and returns that follow a stack switch are mispredicted
 * (the CPU's return stack holds the other context's calls), so each level costs ~15-25 cycles
 * per switch. */
static zend_always_inline void async_coroutine_switch_out(async_coroutine_t *co, async_coroutine_t *next)
{
	ZEND_ASSERT(co->worker != NULL && &co->coro == ZEND_ASYNC_G(coroutine));
	async_worker_check_stack(co->worker, co);
	zend_fiber_context *target = co->sched_ctx;
	if (next != NULL) {
		target = async_coroutine_bind(next);
		ZEND_ASSERT(target != NULL && "async_coroutine_can_hand_off() saw a parked worker");
		async_coroutine_make_current(next, co->sched_ctx, &co->output, &co->in_autoload);
		async_coroutine_t *held = ASYNC_G(handoff_last);
		ZEND_ASSERT((held == NULL || held == co) && "only the running coroutine was reached by a hand-off");
		ASYNC_G(handoff_last) = next;
		if (held != NULL) {
			/* co suspends unfinished: its alive reference keeps it */
			ZEND_ASSERT(GC_REFCOUNT(&held->std) > 1);
			OBJ_RELEASE(&held->std);
		}
	}
	zend_fiber_transfer transfer = { .context = target, .flags = 0 };
	ZVAL_NULL(&transfer.value);
	zend_fiber_switch_context(&transfer);
	/* Resumed by the scheduler or by a hand-off: either did our half of the switch. */
}

/* It suspended from inside a user Fiber (P8): the context it resumes in is that Fiber's, not its
 * worker's. */
static zend_always_inline bool async_coroutine_in_user_fiber(const async_coroutine_t *co)
{
	return co->resume_ctx != NULL && co->worker != NULL && co->resume_ctx != &co->worker->ctx;
}

/* No C stack for a coroutine's first run: it ends with an AsyncException that says why. */
ZEND_COLD void async_coroutine_end_without_stack(async_coroutine_t *co, int err);
/* The rare ends of async_coroutine_start_or_resume()'s switch back: a user Fiber's (P8), a dead
 * worker's (P3), a fatal error's (it does not return then). */
ZEND_COLD void async_coroutine_returned_slow(async_coroutine_t *last, uint8_t flags);

/* Runs (or continues) a coroutine until it suspends or ends. Called only from a scheduler
 * context: the main flow or a user Fiber running main's code. The coroutine may hand the CPU on
 * to others (async_coroutine_switch_out()); the last of that chain comes back here, and this
 * side's half of its switch is done for it. Inline in the loop (one call level fewer between it
 * and the switch: see async_coroutine_switch_out()). */
static zend_always_inline void async_coroutine_start_or_resume(async_coroutine_t *co)
{
	ZEND_ASSERT(!ZEND_COROUTINE_IS_MAIN(&co->coro) && "main is resumed by returning from the loop");
	ZEND_ASSERT(ASYNC_G(handoff_last) == NULL && "no chain of hand-offs is running");

	zend_fiber_context *target = async_coroutine_bind(co);
	if (UNEXPECTED(target == NULL)) {
		async_coroutine_end_without_stack(co, errno);
		return;
	}

	zend_coroutine_t *previous = ZEND_ASYNC_G(coroutine);
	bool in_scheduler = ZEND_ASYNC_G(in_scheduler_context);
	ZEND_ASYNC_G(in_scheduler_context) = false;
	async_output_state_t *previous_output = previous ? &ASYNC_CO_FROM_CORO(previous)->output : NULL;
	HashTable *previous_in_autoload;
	async_coroutine_make_current(co, EG(current_fiber_context), previous_output, &previous_in_autoload);

	zend_fiber_transfer transfer = { .context = target, .flags = 0 };
	ZVAL_NULL(&transfer.value);
	ASYNC_SWITCHED();
	zend_fiber_switch_context(&transfer);
	ASYNC_SWITCHED();

	/* Back from co, or from the last coroutine a chain of hand-offs reached (whose queue
	 * reference we get; it may be co again: A -> B -> A). */
	async_coroutine_t *handed = ASYNC_G(handoff_last);
	ASYNC_G(handoff_last) = NULL;
	async_coroutine_t *last = handed != NULL ? handed : co;
	async_autoload_switch(&last->in_autoload, previous_in_autoload);
	async_output_switch(&last->output, previous_output);
	ZEND_ASYNC_G(coroutine) = previous;
	ZEND_ASYNC_G(in_scheduler_context) = in_scheduler;
	if (UNEXPECTED(async_coroutine_in_user_fiber(last) || ASYNC_G(dying_worker) != NULL
			|| (transfer.flags & ZEND_FIBER_TRANSFER_FLAG_BAILOUT))) {
		async_coroutine_returned_slow(last, transfer.flags);
	}
	if (handed != NULL) {
		OBJ_RELEASE(&handed->std);
	}
}

void async_coroutine_finish(async_coroutine_t *co);

/* The callable a spawn runs, with its arguments (copied), kept in the coroutine itself: no
 * allocation for it and up to ASYNC_CO_INLINE_ARGS arguments. A coroutine made through the ABI
 * gets zend_async_fcall_new()'s instead; both are released the same way. Nothing is set for an
 * empty fci (size 0). */
void async_coroutine_set_call(async_coroutine_t *co, zend_fcall_info *fci, zend_fcall_info_cache *fcc,
	zval *args, uint32_t argc, HashTable *named_args);

void async_coroutine_cancel(zend_coroutine_t *coroutine, zend_object *error, bool transfer_error, bool is_safely);
void async_coroutine_request_cancel(zend_coroutine_t *coroutine, zend_object *error, bool transfer_error);
/* Request end: frees the parked workers. */
void async_contexts_shutdown(void);
zend_string *async_coroutine_info(zend_async_event_t *event);
zend_string *async_location_string(zend_string *file, uint32_t line);
void async_return_file_and_line(zval *return_value, zend_string *file, uint32_t line);

/* Async\protect(): cancellation of the current coroutine is deferred until the matching
 * unprotect (they nest). unprotect returns the cancellation that came meanwhile (the caller throws
 * it; the coroutine is marked cancelled), or NULL; with deliver = false it stays pending for the
 * next suspension point. */
async_coroutine_t *async_coroutine_protect(void);
zend_object *async_coroutine_unprotect(async_coroutine_t *co, bool deliver);

/* The coroutine's Async\Context, made on first use through the factory context.c registers at
 * MINIT (the Context class lives above the core). */
typedef zend_object *(*async_context_factory_fn)(void);
void async_coroutine_set_context_factory(async_context_factory_fn factory);
zend_object *async_coroutine_get_context(async_coroutine_t *co);

#endif /* ASYNC_COROUTINE_H */
