/*
 * core/core.h — the core layer (core/, and the spine's coroutine.c and scheduler.c): what its files
 * share and what the layers above may call. One header for the layer; each section is one file's.
 */
#ifndef ASYNC_CORE_H
#define ASYNC_CORE_H

#include "php.h"
#include "zend_API.h"
#include "zend_exceptions.h"
#include "zend_fibers.h"
#include "php_output.h"
#include "php_async.h"
#include "zend_async_API.h"

/*
 * async_compat — what differs between the PHP versions the module builds against (8.2 to 8.5),
 * in one place (header-only, no layer: any file may include it).
 *
 * Every PHP_VERSION_ID test of the module is here. The rest of the code asks for a capability
 * (ASYNC_EXIT_IS_FUNCTION), or calls a wrapper that has one body per version
 * (async__compat_parse_arg_func()); it never names a version. Tests are ">= first version that
 * has it", so a version between two tested ones (8.3) takes the branch of the older one unless
 * the change landed in it, and a newer one takes the newest branch.
 *
 * Where the change landed is written beside each test; the layouts the module mirrors from
 * PHP's private sources (ext/openssl's stream data, the fiber stack) are checked on live objects
 * where a wrong guess would do harm.
 */

#if PHP_VERSION_ID < 80200
# error "ext-async needs PHP 8.2 or later"
#endif

/* P5: zend_fiber_init_context() returns bool on 8.2 and zend_result from 8.3 on. */
#if PHP_VERSION_ID >= 80300
# define ASYNC_FIBER_INIT_OK(call) ((call) == SUCCESS)
#else
# define ASYNC_FIBER_INIT_OK(call) (call)
#endif

/* 8.3: zend_fcall_info_cache has a closure member (the Closure object the cache came from). */
#define ASYNC_FCC_HAS_CLOSURE (PHP_VERSION_ID >= 80300)

/* 8.4: fiber switches inside destructors are allowed (zend_fiber_switch_block() around
 * destructor calls is gone: refcount, GC and shutdown destructors alike); 8.2 and 8.3 forbid them
 * (P9). zend_fiber_switch_blocked() tells either way; this only picks the words of messages. */
#define ASYNC_DESTRUCTORS_MAY_SWITCH (PHP_VERSION_ID >= 80400)
#if ASYNC_DESTRUCTORS_MAY_SWITCH
/* from 8.4 only PHP's own code blocks it (a user error handler called from inside a socket call) */
# define ASYNC_SWITCH_BLOCKED_WHERE "while PHP's own code runs a user handler"
#else
# define ASYNC_SWITCH_BLOCKED_WHERE "inside a destructor"
#endif

/* 8.4: internal functions may have frameless variants, which the VM calls without going
 * through the handler (P18). */
#define ASYNC_HAVE_FRAMELESS (PHP_VERSION_ID >= 80400)

/* 8.4: exit() and die() are functions (zif_exit); before, the ZEND_EXIT opcode. */
#define ASYNC_EXIT_IS_FUNCTION (PHP_VERSION_ID >= 80400)

/* 8.5: php_shutdown_function_entry holds only a fcall info cache (and the arguments); before, a
 * zend_fcall_info too, whose function_name names the callable. */
#define ASYNC_SHUTDOWN_ENTRY_HAS_FCI (PHP_VERSION_ID < 80500)

/* zend_parse_arg_func() got a sixth argument in 8.4: whether a trampoline made for the lookup may
 * be freed (true: the caller keeps only the fci/fcc, as Z_PARAM_FUNC does). */
static zend_always_inline bool async__compat_parse_arg_func(zval *arg, zend_fcall_info *fci,
	zend_fcall_info_cache *fcc, char **error)
{
#if PHP_VERSION_ID >= 80400
	return zend_parse_arg_func(arg, fci, fcc, false, error, true);
#else
	return zend_parse_arg_func(arg, fci, fcc, false, error);
#endif
}

/* The layout of ext/openssl's private stream data (ext/openssl/xp_ssl.c,
 * php_openssl_netstream_data_t) that the TLS hooks read: unchanged from 8.2 to 8.5. A version
 * past the newest this build was tested on keeps ext/openssl's streams PHP's own. */
#define ASYNC_OPENSSL_LAYOUT_KNOWN (PHP_VERSION_ID < 80600)

/* The private zend_fiber_stack of Zend/zend_fibers.c that an arena stack is presented as
 * (this header mirrors it): the same fields from 8.2 to 8.5. */
#define ASYNC_FIBER_STACK_LAYOUT_KNOWN (PHP_VERSION_ID < 80600)

/* 8.5: a PDOStatement's PDO object and its lazy row are zend_object pointers (before, zvals). */
#define ASYNC_PDO_STMT_OBJECT_POINTERS (PHP_VERSION_ID >= 80500)

/*
 * exceptions.c — the exception hierarchy (exceptions.stub.php), the helpers that raise it, and
 * the class registry behind the ABI's get_class_ce slot.
 */

extern zend_class_entry *async__ce_cancellation;
extern zend_class_entry *async__ce_async_cancellation;
extern zend_class_entry *async__ce_operation_canceled;
extern zend_class_entry *async__ce_deadlock_error;
extern zend_class_entry *async__ce_async_exception;
extern zend_class_entry *async__ce_timeout_exception;
extern zend_class_entry *async__ce_composite_exception;
extern zend_class_entry *async__ce_pool_exception;
extern zend_class_entry *async__ce_service_unavailable;
extern zend_class_entry *async__ce_context_exception;

/* MINIT: the classes of exceptions.stub.php, each entered in the class registry. */
zend_result async__exceptions_minit(void);

/* The class registry: each file that registers a class the ABI can name (ZEND_ASYNC_CLASS_*)
 * enters it here at MINIT; ZEND_ASYNC_GET_CE() reads it. Lower layers never name the files
 * above them to find a class. */
void async__class_register(zend_async_class type, zend_class_entry *ce);
zend_class_entry *async__get_class_ce(zend_async_class type);

/* The object handlers of one of the runtime's classes: PHP's standard handlers, objects that
 * cannot be cloned, the object at `offset` in its struct, and these (dtor_obj may be NULL: PHP's
 * own). Every runtime class makes its handlers this way. */
void async__object_handlers_init(zend_object_handlers *handlers, size_t offset, zend_object_dtor_obj_t dtor_obj,
	zend_object_free_obj_t free_obj, zend_object_get_gc_t get_gc);

/* A new exception of `ce` with this message (no frame arguments when it is made for someone
 * else: see exceptions.c). */
zend_object *async__new_exception(zend_class_entry *ce, const char *message);
/* A CompositeException holding `errors` (a list; borrowed: the property takes its own reference). */
zend_object *async__composite_new(const char *message, HashTable *errors);
ZEND_COLD void async__throw(zend_class_entry *ce, const char *format, ...) ZEND_ATTRIBUTE_FORMAT(printf, 2, 3);
/* A cancellation or PHP's graceful exit (exit()). */
bool async__is_cancellation(zend_object *ex);

/* awaitable.c — the Async\Awaitable and Async\Completable interfaces (awaitable.stub.php). */

extern zend_class_entry *async__ce_awaitable;
extern zend_class_entry *async__ce_completable;

/* MINIT: both interfaces, reserved for the runtime's own classes. */
zend_result async__awaitable_minit(void);

/*
 * stack_arena.c — C stacks for coroutines, carved from large memory maps (stack_arena.c).
 *
 * The Zend fiber API maps every stack on its own and puts a guard page under it: two memory maps
 * per coroutine, so vm.max_map_count (65,530 by default) caps a process at ~28,000 suspended
 * coroutines. The arena maps chunks of many stacks at once and reuses a released stack without
 * a system call. Overflow: the chunk's lowest page is a guard; a stack gets a guard page of its
 * own while the map budget allows (a quarter of vm.max_map_count); a stack without one has a
 * canary zone just under it, checked each time its coroutine switches out. A fault in a guard, or a
 * broken canary, ends the process with a fatal error naming the overflow — never silently.
 */

typedef struct {
	void *base;      /* lowest usable address (above the guard page, if any) */
	size_t size;     /* usable bytes */
	uint64_t *canary; /* its canary zone, ASYNC_STACK_CANARY_WORDS words (NULL: a guard page is
	                   * under it, its own or the chunk's) */
	uint32_t number; /* chunk * stacks per chunk + index */
	bool guarded;    /* it has a guard page of its own */
} async_stack_t;

/* The value every word of a canary zone holds. */
#define ASYNC_STACK_CANARY ((uint64_t) 0x5a17a5c0c0a57acfULL)
/* A zone, not a word: an overflow that passes by may leave a word of it unwritten (a caller's
 * padding or an unused local lying just there: seen on a debug build), hardly all of them. */
#define ASYNC_STACK_CANARY_WORDS 8

/* Whether the arena is usable on this build and machine (boost.context's make_fcontext is
 * exported by PHP; a build on ucontext keeps the Zend fiber API's stacks). */
bool async__stack_arena_available(void);

/* A stack of `size` bytes (rounded up to pages; one size per process: the first call decides,
 * and its `guards` too: how many stacks get a guard page, -1 for a quarter of vm.max_map_count),
 * or false when no memory could be mapped. */
bool async__stack_acquire(async_stack_t *stack, size_t size, zend_long guards);
/* The size of the arena's slots (a stack, its red zone and any guard page), 0 until the first
 * acquire sizes them. */
extern size_t async__stack_arena_slot;
/* Whether the arena can give a stack of `size` bytes: not sized yet, or its slots are as large
 * (a larger fiber.stack_size set later by ini_set() takes the fiber API's stacks instead). */
static zend_always_inline bool async__stack_arena_fits(size_t size)
{
	return async__stack_arena_slot == 0 || size <= async__stack_arena_slot;
}
void async__stack_release(async_stack_t *stack);

/* The canary zone under the stack (the red zone at the top of the stack below) is intact. Inline:
 * it is read on every switch out (a guarded stack has none: one test). */
static zend_always_inline bool async__stack_canary_intact(const async_stack_t *stack)
{
	const uint64_t *zone = stack->canary;
	if (EXPECTED(zone == NULL)) {
		return true;
	}
	uint64_t diff = 0;
	for (int i = 0; i < ASYNC_STACK_CANARY_WORDS; i++) {
		diff |= zone[i] ^ ASYNC_STACK_CANARY;
	}
	return diff == 0;
}

/* A broken canary: the fatal error, and the process ends (the stack below was overwritten). */
ZEND_NORETURN void async__stack_overflowed(const char *who);

/* Request end: chunks with no stack in use give their pages back (the mappings stay). */
/* In the child of a fork: SIGSEGV back to PHP's own disposition. */
void async__stack_arena_after_fork(void);
void async__stack_arena_rshutdown(void);
/* Process end. */
void async__stack_arena_mshutdown(void);

/*
 * coroutine_output.c — each coroutine's own output buffers (coroutine_output.c).
 *
 * PHP's output layer keeps one stack of handlers (ob_start()) per request. The main flow's
 * handlers are the request's: what a coroutine prints outside its own buffers goes there, as it
 * always did. A handler a coroutine pushes is its own: when the coroutine is switched out, its
 * handlers leave the stack with it (and the handler it may be running, suspended inside an
 * ob_start() callback); when it is switched in, they come back on top. So coroutines that each
 * ob_start(), render and ob_get_clean() never see each other's output. The main flow's handlers
 * leave the stack only while main is suspended inside one of their callbacks: the others' output
 * then goes below them instead of into a buffer whose callback would drop it.
 */

typedef struct {
	php_output_handler **handlers; /* bottom first */
	uint32_t count;
	uint32_t capacity;
	php_output_handler *running;   /* the handler it was running when it was switched out */
	uint32_t base;                 /* the stack depth its own handlers start at */
	bool is_main;                  /* the main flow's: its handlers are the request's */
} async_output_state_t;

/* At launch, for the main coroutine's state: the handlers on the stack now are below all of it. */
void async__output_launch(async_output_state_t *main);
void async__output_switch_slow(async_output_state_t *from, async_output_state_t *to);

/* A switch from the owner of `from` to the owner of `to` (either may be NULL: nobody's). Inline
 * for the common case, on every switch: no handler of either side is on the stack or saved,
 * none is running, so only the new owner's base moves (it is above whatever is there now). */
static zend_always_inline void async__output_switch(async_output_state_t *from, async_output_state_t *to)
{
	uint32_t depth = (uint32_t) OG(handlers).top;
	if (EXPECTED(OG(running) == NULL && (from == NULL || depth <= from->base)
			&& (to == NULL || (to->count == 0 && to->running == NULL))
			&& (OG(flags) & PHP_OUTPUT_ACTIVATED))) {
		if (to != NULL && !to->is_main) {
			to->base = depth;
		}
		return;
	}
	async__output_switch_slow(from, to);
}
/* The current coroutine's body ended: its own buffers are flushed and closed, as PHP does with
 * every buffer at request end. Inline for the common case, a body that opened none. */
void async__output_end_own_slow(async_output_state_t *state);
static zend_always_inline void async__output_end_own(async_output_state_t *state)
{
	if ((OG(flags) & PHP_OUTPUT_ACTIVATED) && (uint32_t) OG(handlers).top > state->base) {
		async__output_end_own_slow(state);
	}
}
/* A coroutine destroyed while switched out: its handlers go without output. */
void async__output_discard(async_output_state_t *state);

/*
 * coroutine_autoload.c — class autoloading across coroutines: a guard table per coroutine, and a
 * coroutine needing a class another one is autoloading waits for it (coroutine_autoload.c).
 */

/* Switching coroutines: *save gets the engine's current guard table, `load` becomes it. Inline:
 * it is on every switch. */
static zend_always_inline void async__autoload_switch(HashTable **save, HashTable *load)
{
	*save = EG(in_autoload);
	EG(in_autoload) = load;
}
/* A coroutine's guard table, when it is freed. */
void async__autoload_free(HashTable **table);

/* MINIT / MSHUTDOWN: wraps zend_autoload (SPL's dispatcher) / puts it back. */
zend_result async__autoload_minit(void);
void async__autoload_mshutdown(void);
/* RSHUTDOWN: the table of classes being autoloaded. */
void async__autoload_rshutdown(void);

/*
 * coroutine.c — the runtime's coroutine (Async\Coroutine) and the pooled C contexts ("workers")
 * that run coroutines (coroutine.c).
 */

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
	zend_fcall_t call;                /* coro.fcall of a spawn (async__coroutine_set_call()) */
	zval call_args[ASYNC_CO_INLINE_ARGS]; /* call's first arguments */
	zend_object std;
};

#define ASYNC_CO_FROM_OBJ(obj) ((async_coroutine_t *) ((char *) (obj) - XtOffsetOf(async_coroutine_t, std)))
#define ASYNC_CO_FROM_CORO(c)  ((async_coroutine_t *) (c))
#define ASYNC_CO_OBJ(co)       (&(co)->std)

/* The request's live coroutines, a list in spawn order (main first): a coroutine joins when it is
 * spawned and leaves when it finishes (or, after a fatal error, when its object is freed). A list,
 * not a table by handle: joining and leaving are a few stores. */
static zend_always_inline void async__live_append(async_coroutine_t *co)
{
	ZEND_ASSERT(!co->in_live);
	co->in_live = true;
	async_list_append(&ASYNC_G(live), &co->live_node);
}

static zend_always_inline void async__live_remove(async_coroutine_t *co)
{
	if (co->in_live) {
		co->in_live = false;
		async_list_remove(&ASYNC_G(live), &co->live_node);
	}
}

static zend_always_inline async_coroutine_t *async__live_of(async_list_node_t *node)
{
	return node != NULL ? ASYNC_LIST_ITEM(node, async_coroutine_t, live_node) : NULL;
}

static zend_always_inline async_coroutine_t *async__live_first(void)
{
	return async__live_of(ASYNC_G(live).first);
}

static zend_always_inline async_coroutine_t *async__live_next(async_coroutine_t *co)
{
	return async__live_of(co->live_node.next);
}

/* A walk whose body may run PHP code (cancelling, a user error handler, a destructor):
 *
 *     async_live_walk_t w;
 *     for (co = async__live_walk_first(&w); co != NULL; co = async__live_walk_next(&w)) ...
 *
 * It runs to the end (a `continue` is fine, never a `break`: it holds references). Each live
 * coroutine is visited once, those spawned meanwhile too, those finished meanwhile not. */
typedef struct {
	async_coroutine_t *co;    /* the one at hand, pinned */
	async_coroutine_t *after; /* its successor before the body ran, pinned */
	uint32_t pass;
} async_live_walk_t;
async_coroutine_t *async__live_walk_first(async_live_walk_t *w);
async_coroutine_t *async__live_walk_next(async_live_walk_t *w);

/* Visits every live coroutine, for walks whose body runs no PHP code. */
#define ASYNC_LIVE_FOREACH(co) \
	for (async_coroutine_t *co = async__live_first(); co != NULL; co = async__live_next(co))

/* The nearest frame of PHP code at or below `ex` (NULL for none): where a spawn was made, a
 * coroutine suspended, or a running one is. */
static zend_always_inline zend_execute_data *async__user_frame(zend_execute_data *ex)
{
	while (ex != NULL && (ex->func == NULL || !ZEND_USER_CODE(ex->func->type))) {
		ex = ex->prev_execute_data;
	}
	return ex;
}

extern zend_class_entry *async__ce_coroutine;

zend_result async__coroutine_minit(void);
async_coroutine_t *async__coroutine_new(void);
/* Whether a queued coroutine can be switched into straight from another context: started, on its
 * own worker's context (not inside a user Fiber, P8), due (its waker queued) and holding its
 * alive reference (a chain of hand-offs gives up the queue reference while it runs). */
static zend_always_inline bool async__coroutine_can_resume_directly(async_coroutine_t *to)
{
	zend_async_waker_t *waker = to->coro.waker;
	return to->spawned && !ZEND_COROUTINE_IS_FINISHED(&to->coro) && to->resume_ctx != NULL
		&& to->worker != NULL && to->resume_ctx == &to->worker->ctx
		&& waker != NULL && waker->status == ZEND_ASYNC_WAKER_QUEUED;
}

/* A parked worker's stack is at least fiber.stack_size, which ini_set() may have raised since:
 * the arena's slots are of one size; the fiber API's stacks keep theirs (page-rounded). */
static zend_always_inline bool async__worker_fits(const async_worker_t *worker)
{
	size_t size = EG(fiber_stack_size);
	return worker->arena ? async__stack_arena_fits(size) : ((const async_zend_fiber_stack_t *) worker->ctx.stack)->size >= size;
}

/* Direct hand-off (the run queue's head runs next without a round trip through the scheduler):
 * whether the running coroutine `from` may switch straight into `to`. Inline: every suspension
 * with somebody queued asks. */
static zend_always_inline bool async__coroutine_can_hand_off(async_coroutine_t *from, async_coroutine_t *to)
{
	/* from runs on its own worker's context, not inside a user Fiber (P8: the scheduler must
	 * switch it back into that Fiber) */
	if (from->worker == NULL || EG(current_fiber_context) != &from->worker->ctx) {
		return false;
	}
	if (to->resume_ctx == NULL) {
		/* a first run, on a parked worker */
		return to->spawned && !ZEND_COROUTINE_IS_FINISHED(&to->coro) && !ZEND_COROUTINE_IS_STARTED(&to->coro)
			&& ASYNC_G(free_workers) != NULL && async__worker_fits(ASYNC_G(free_workers));
	}
	return async__coroutine_can_resume_directly(to);
}

/* A broken canary: the coroutine overflowed its stack into the one below (its co may already be
 * gone: NULL). The fatal error; the process ends. */
ZEND_COLD ZEND_NORETURN void async__worker_stack_overflowed(async_coroutine_t *co);
/* Checked whenever a context leaves its worker's stack for another: inline, the report out of
 * line. */
static zend_always_inline void async__worker_check_stack(async_worker_t *worker, async_coroutine_t *co)
{
	if (worker->arena && UNEXPECTED(!async__stack_canary_intact(&worker->stack))) {
		async__worker_stack_overflowed(co);
	}
}

/* A worker bound to co for its first run: its context, or NULL when no C stack could be had. */
/* The callable and arguments a coroutine keeps until its body starts (or it is freed unstarted). */
static zend_always_inline void async__coroutine_release_call(async_coroutine_t *co)
{
	zend_fcall_t *fcall = co->coro.fcall;
	co->coro.fcall = NULL;
	if (fcall == &co->call) {
		zend_async_fcall_dtor(fcall, co->call_args);
	} else {
		zend_fcall_release(fcall); /* the ABI's, or none */
	}
}

/* core/workers.c: a worker for a coroutine's first run (NULL: none could be made); a worker done
 * with (`destroyed`: its Zend context went with the switch away from it, P3). */
zend_fiber_context *async__coroutine_bind_worker(async_coroutine_t *co);
void async__worker_retire(async_worker_t *worker, bool destroyed);
/* The context to switch to for running co: its own where it suspended, or a worker's. */
static zend_always_inline zend_fiber_context *async__coroutine_bind(async_coroutine_t *co)
{
	return co->resume_ctx != NULL ? co->resume_ctx : async__coroutine_bind_worker(co);
}

/* Makes `to` the running coroutine as seen by everything that follows it (the current coroutine,
 * its output buffers, its autoload stack, the loop's context it goes back to); the one left gives
 * its output buffers to `from_output` and its autoload stack to `*from_autoload`. Every way into
 * a coroutine uses it: the loop's (async__coroutine_start_or_resume()), a suspending coroutine's
 * hand-off and a finished one's. */
static zend_always_inline void async__coroutine_make_current(async_coroutine_t *to, zend_fiber_context *sched_ctx,
	async_output_state_t *from_output, HashTable **from_autoload)
{
	to->sched_ctx = sched_ctx;
	ZEND_ASYNC_G(coroutine) = &to->coro;
	async__output_switch(from_output, &to->output);
	async__autoload_switch(from_autoload, to->in_autoload);
}

/* Leaves the running coroutine co, which suspends: for its scheduler's context, or for `next`
 * (taken from the run queue with its reference, after async__coroutine_can_hand_off()). Returns
 * when co is resumed. Inline in the suspension (in this header): every call between the VM
 * and the switch is a return after it, and returns that follow a stack switch are mispredicted
 * (the CPU's return stack holds the other context's calls), so each level costs ~15-25 cycles
 * per switch. */
static zend_always_inline void async__coroutine_switch_out(async_coroutine_t *co, async_coroutine_t *next)
{
	ZEND_ASSERT(co->worker != NULL && &co->coro == ZEND_ASYNC_G(coroutine));
	async__worker_check_stack(co->worker, co);
	zend_fiber_context *target = co->sched_ctx;
	if (next != NULL) {
		target = async__coroutine_bind(next);
		ZEND_ASSERT(target != NULL && "async__coroutine_can_hand_off() saw a parked worker");
		async__coroutine_make_current(next, co->sched_ctx, &co->output, &co->in_autoload);
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
static zend_always_inline bool async__coroutine_in_user_fiber(const async_coroutine_t *co)
{
	return co->resume_ctx != NULL && co->worker != NULL && co->resume_ctx != &co->worker->ctx;
}

/* No C stack for a coroutine's first run: it ends with an AsyncException that says why. */
ZEND_COLD void async__coroutine_end_without_stack(async_coroutine_t *co, int err);
/* The rare ends of async__coroutine_start_or_resume()'s switch back: a user Fiber's (P8), a dead
 * worker's (P3), a fatal error's (it does not return then). */
ZEND_COLD void async__coroutine_returned_slow(async_coroutine_t *last, uint8_t flags);

/* Runs (or continues) a coroutine until it suspends or ends. Called only from a scheduler
 * context: the main flow or a user Fiber running main's code. The coroutine may hand the CPU on
 * to others (async__coroutine_switch_out()); the last of that chain comes back here, and this
 * side's half of its switch is done for it. Inline in the loop (one call level fewer between it
 * and the switch: see async__coroutine_switch_out()). */
static zend_always_inline void async__coroutine_start_or_resume(async_coroutine_t *co)
{
	ZEND_ASSERT(!ZEND_COROUTINE_IS_MAIN(&co->coro) && "main is resumed by returning from the loop");
	ZEND_ASSERT(ASYNC_G(handoff_last) == NULL && "no chain of hand-offs is running");

	zend_fiber_context *target = async__coroutine_bind(co);
	if (UNEXPECTED(target == NULL)) {
		async__coroutine_end_without_stack(co, errno);
		return;
	}

	zend_coroutine_t *previous = ZEND_ASYNC_G(coroutine);
	bool in_scheduler = ZEND_ASYNC_G(in_scheduler_context);
	ZEND_ASYNC_G(in_scheduler_context) = false;
	async_output_state_t *previous_output = previous ? &ASYNC_CO_FROM_CORO(previous)->output : NULL;
	HashTable *previous_in_autoload;
	async__coroutine_make_current(co, EG(current_fiber_context), previous_output, &previous_in_autoload);

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
	async__autoload_switch(&last->in_autoload, previous_in_autoload);
	async__output_switch(&last->output, previous_output);
	ZEND_ASYNC_G(coroutine) = previous;
	ZEND_ASYNC_G(in_scheduler_context) = in_scheduler;
	if (UNEXPECTED(async__coroutine_in_user_fiber(last) || ASYNC_G(dying_worker) != NULL
			|| (transfer.flags & ZEND_FIBER_TRANSFER_FLAG_BAILOUT))) {
		async__coroutine_returned_slow(last, transfer.flags);
	}
	if (handed != NULL) {
		OBJ_RELEASE(&handed->std);
	}
}

void async__coroutine_finish(async_coroutine_t *co);

/* The callable a spawn runs, with its arguments (copied), kept in the coroutine itself: no
 * allocation for it and up to ASYNC_CO_INLINE_ARGS arguments. A coroutine made through the ABI
 * gets zend_async_fcall_new()'s instead; both are released the same way. Nothing is set for an
 * empty fci (size 0). */
void async__coroutine_set_call(async_coroutine_t *co, zend_fcall_info *fci, zend_fcall_info_cache *fcc,
	zval *args, uint32_t argc, HashTable *named_args);

void async__coroutine_cancel(zend_coroutine_t *coroutine, zend_object *error, bool transfer_error, bool is_safely);
void async__coroutine_request_cancel(zend_coroutine_t *coroutine, zend_object *error, bool transfer_error);
/* Request end: frees the parked workers. */
void async__workers_rshutdown(void);
zend_string *async__coroutine_info(zend_async_event_t *event);
zend_string *async__location_string(zend_string *file, uint32_t line);
void async__return_file_and_line(zval *return_value, zend_string *file, uint32_t line);

/* Async\protect(): cancellation of the current coroutine is deferred until the matching
 * unprotect (they nest). unprotect returns the cancellation that came meanwhile (the caller throws
 * it; the coroutine is marked cancelled), or NULL; with deliver = false it stays pending for the
 * next suspension point. */
async_coroutine_t *async__coroutine_protect(void);
zend_object *async__coroutine_unprotect(async_coroutine_t *co, bool deliver);

/* The coroutine's Async\Context, made on first use through the factory context.c registers at
 * MINIT (the Context class lives above the core). */
typedef zend_object *(*async_context_factory_fn)(void);
void async__coroutine_set_context_factory(async_context_factory_fn factory);
zend_object *async__coroutine_get_context(async_coroutine_t *co);

/*
 * coroutine_finally.c — finally handlers run after completion in a helper coroutine
 * (coroutine_finally.c).
 */

/* Receives the handlers' error (a reference to take) instead of the helper throwing it. */
typedef void (*async_finally_deliver_fn)(zend_object *subject, zend_object *error);

/* Runs `handlers` (taken over) with `subject` in a helper coroutine of `scope`; several errors
 * become a CompositeException with `composite_message`. `first`: the helper runs before the
 * coroutines already queued. */
void async__finally_run_later(zend_async_scope_t *scope, zend_array *handlers, zend_object *subject,
	const char *composite_message, async_finally_deliver_fn deliver, bool first);

/*
 * coroutine_awaiter.c — the first await() of a coroutine waits in a slot of the coroutine's own
 * (coroutine_awaiter.c).
 */

/* Subscribes `awaiter`'s waker through target's slot. False, with nothing done, when the slot is
 * taken, others already subscribed or the waker has no room: subscribe with async__wait_on(). */
bool async__coroutine_list_awaiter(async_coroutine_t *target, zend_coroutine_t *awaiter);
/* Step 4 of such a wait: empties the slot if the awaiter still holds it (it was woken by
 * something else: a cancellation) and cleans the awaiter's waker. */
void async__coroutine_end_awaiter(async_coroutine_t *target, zend_coroutine_t *awaiter);
/* The finish of a coroutine whose slot is listed: wakes that awaiter (before the vector's). */
void async__coroutine_wake_awaiter(async_coroutine_t *co);
/* The coroutine event's del_callback: empties the slot for its callback, the vector otherwise. */
bool async__coroutine_del_callback(zend_async_event_t *event, zend_async_event_callback_t *callback);

/*
 * scheduler.c — the run queue, the loop that drives coroutines, spawning, graceful shutdown and
 * deadlock detection (scheduler.c), and the registration lists through which the layers above
 * the core take part in them without the core naming their files.
 */

/* Switching is blocked: PHP blocks it inside destructors before 8.4 (P9), and the hooks block it
 * where a user handler runs inside PHP's own I/O code. */
#define ASYNC_SWITCH_BLOCKED() zend_fiber_switch_blocked()

/* May the current flow switch away: not the scheduler's own context, not where switching is
 * blocked (a destructor on PHP < 8.4, P9)? The one rule behind async__wait_allowed() and
 * Async\suspend(). */
static zend_always_inline bool async__scheduler_may_switch(void)
{
	return !ASYNC_SWITCH_BLOCKED() && !ZEND_ASYNC_G(in_scheduler_context);
}

zend_result async__scheduler_minit(void);
void async__scheduler_rinit(void);
void async__scheduler_rshutdown(void);
void async__scheduler_launch(void);
bool async__scheduler_enqueue(zend_coroutine_t *coroutine);

/* The same, inline, for the core's primitives whose every message wakes a coroutine (a channel's
 * rendezvous): its run-queue entry (with the reference the entry holds) and a waiting waker marked
 * queued. False for a finished coroutine. */
static zend_always_inline bool async__scheduler_queue_enter(zend_coroutine_t *coroutine)
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

/* A coroutine not queued yet goes to the front of the run queue: it runs next. */
static zend_always_inline void async__scheduler_queue_enter_first(zend_coroutine_t *coroutine)
{
	async_coroutine_t *co = ASYNC_CO_FROM_CORO(coroutine);
	ZEND_ASSERT(!co->in_queue && !ZEND_COROUTINE_IS_FINISHED(coroutine));
	co->in_queue = true;
	GC_ADDREF(&co->std);
	*ASYNC_RING_PUSH_FRONT(&ASYNC_G(run_queue), zend_coroutine_t *) = coroutine;
}

/* Suspends the current coroutine until its waker is resolved; core/wait.c is the way to use it. */
void async__scheduler_suspend(bool from_main);
/* The same for a wait async__wait_begin() allowed: its checks (launched, not the scheduler's
 * context, not a destructor) still hold, as nothing between the two suspends or enters a
 * destructor for good, so they are not made twice (zend_fiber_switch_blocked() is a call). */
void async__scheduler_suspend_begun(void);
/* Async\suspend(): the current coroutine goes behind the others in the run queue and runs again
 * when its turn comes. A no-op before the scheduler exists and where switching is impossible;
 * throws a cancellation requested while it ran. */
void async__scheduler_yield(void);
/* A coroutine finished on its worker, which parks: the run queue's head, taken with its queue
 * reference, when it is a started coroutine the worker may switch straight into (B ends -> A: one
 * switch, not B -> loop -> A; the same rules as a suspension's hand-off). NULL: park to the loop. */
async_coroutine_t *async__scheduler_handoff_after_finish(void);
/* What a coroutine waits for, for reports (the deadlock report, the dump on a signal). */
zend_string *async__scheduler_wait_info(zend_coroutine_t *coro);
void async__scheduler_unhandled_exception(async_coroutine_t *co, zend_object *exception);
void async__scheduler_request_exit(void);
void async__scheduler_graceful_shutdown(void);
/* A new coroutine in `scope` (NULL: the current one), queued; the caller owns one reference. */
zend_coroutine_t *async__spawn(zend_async_scope_t *scope, zend_object *provider, int32_t priority);
/* A runtime helper coroutine (finally handlers): spawned into `scope` even when it is closed or
 * cancelled (main's when it is disposed), never cancelled at once by a graceful shutdown, no
 * strategy hooks. The caller sets its entry, then drops the returned reference. NULL when
 * nothing would run it (a destructor after the last drain). */
zend_coroutine_t *async__spawn_helper(zend_async_scope_t *scope, bool first);

/* ---------------------------------------------------------------------------------------------
 * Events of the runtime's own kinds
 *
 * Each kind keeps its methods once, in a static const table; making an event is one call. A NULL
 * add/del callback is the ABI's default callback vector and a NULL start/stop does nothing: most
 * of our events only collect waiters and are settled by whoever completes them. Inline, because a
 * coroutine's creation goes through it on every spawn and the table folds into stores.
 * ------------------------------------------------------------------------------------------- */

typedef struct {
	zend_async_event_add_callback_t add_callback;
	zend_async_event_del_callback_t del_callback;
	zend_async_event_start_t start;
	zend_async_event_stop_t stop;
	zend_async_event_replay_t replay;
	zend_async_event_dispose_t dispose;
	zend_async_event_info_t info;
} async_event_methods_t;

static zend_always_inline void async__event_set_methods(zend_async_event_t *event, const async_event_methods_t *methods)
{
	ZEND_ASSERT(methods->dispose != NULL);
	event->add_callback = methods->add_callback ? methods->add_callback : zend_async_event_default_add_callback;
	event->del_callback = methods->del_callback ? methods->del_callback : zend_async_event_default_del_callback;
	event->start = methods->start ? methods->start : zend_async_event_nop_start;
	event->stop = methods->stop ? methods->stop : zend_async_event_nop_stop;
	event->replay = methods->replay;
	event->dispose = methods->dispose;
	event->info = methods->info;
}

/* A C event, alive while referenced: one reference, the caller's. */
static zend_always_inline void async__event_init(zend_async_event_t *event, const async_event_methods_t *methods)
{
	event->ref_count = 1;
	async__event_set_methods(event, methods);
}

/* An event inside a zend_object that starts `object_offset` bytes into the struct: the object's
 * reference count is the event's (ZEND_ASYNC_EVENT_F_ZEND_OBJ); `flags` adds to that. */
static zend_always_inline void async__event_init_in_object(zend_async_event_t *event,
	const async_event_methods_t *methods, size_t object_offset, uint32_t flags)
{
	event->flags = ZEND_ASYNC_EVENT_F_ZEND_OBJ | flags;
	event->zend_object_offset = (uint32_t) object_offset;
	async__event_set_methods(event, methods);
}

/* A zend_object of `size` bytes whose std member starts at `std_offset`: the fields before it
 * zeroed, std initialised with its properties, the class's handlers set. */
static zend_always_inline void *async__object_new(size_t size, size_t std_offset, zend_class_entry *ce,
	const zend_object_handlers *handlers)
{
	char *mem = zend_object_alloc(size, ce);
	zend_object *std = (zend_object *) (mem + std_offset);
	memset(mem, 0, std_offset);
	zend_object_std_init(std, ce);
	object_properties_init(std, ce);
	std->handlers = handlers;
	return mem;
}

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

void async__scheduler_set_scope_ops(const async_scope_ops_t *ops);
extern const async_scope_ops_t *async__scope_ops;

/* Deadlock resolvers run, in registration order, before the scheduler declares a deadlock
 * (spec §8.5 step 1); one that returns true woke somebody and the loop goes on. */
typedef bool (*async_deadlock_resolver_fn)(void);
void async__scheduler_add_deadlock_resolver(async_deadlock_resolver_fn resolver);

/* Shutdown listeners hear that a graceful shutdown began (reason: its message), after every
 * coroutine was cancelled: waits that no coroutine would ever end are rejected there. */
typedef void (*async_shutdown_listener_fn)(const char *reason);
void async__scheduler_add_shutdown_listener(async_shutdown_listener_fn listener);

/*
 * scheduler_suspend — the suspension of the current coroutine, inline (scheduler.c).
 *
 * Every wait ends here: the suspension site recorded, the engine's error-handling mode kept, the
 * switch (to the loop, or by a direct hand-off to the run queue's head) and what the waker
 * brought back thrown. Inline, so that the hottest waits (a channel message, await(),
 * Async\suspend()) reach the switch with one call level fewer: every level between the VM and
 * the switch is a mispredicted return each time the coroutine is resumed (in this header). The
 * others call async__scheduler_suspend_begun() and async__scheduler_yield() (in this header).
 */

/* Main's wait: the loop runs in main's context until main's turn comes (scheduler.c). */
void async__scheduler_main_wait(void);

/* Direct hand-off (a "run next" slot, as in Go's scheduler): the coroutine at the head of the run
 * queue, taken for the suspending (or finished) co to switch straight into (A -> B instead of
 * A -> loop -> B: one switch instead of two, and none of the loop's bookkeeping). The order is the
 * queue's: the head is what the loop would run next. Only inside a batch while its budget lasts,
 * with no microtask due (they run between two coroutines), never main (it resumes by returning
 * from the loop), and not under async.schedule_seed (the fuzz picks its own order). NULL: go
 * through the loop. */
static zend_always_inline async_coroutine_t *async__handoff_head(void)
{
	async_ring_t *q = &ASYNC_G(run_queue);
	if (ASYNC_G(handoff_budget) == 0 || q->count == 0 || ASYNC_G(microtasks_length) > 0
		|| ASYNC_G(schedule_seed) != 0) {
		return NULL;
	}
	zend_coroutine_t *head = *ASYNC_RING_AT(q, 0, zend_coroutine_t *);
	return ZEND_COROUTINE_IS_MAIN(head) ? NULL : ASYNC_CO_FROM_CORO(head);
}

static zend_always_inline async_coroutine_t *async__handoff_pop(async_coroutine_t *next)
{
	(void) ASYNC_RING_POP(&ASYNC_G(run_queue), zend_coroutine_t *);
	next->in_queue = false; /* its queue reference goes with it */
	ASYNC_G(handoff_budget)--;
	if (ASYNC_G(batch_left) > 0) {
		ASYNC_G(batch_left)--;
	}
	return next;
}

/* `yielding`: co has just queued itself (a constant in each inline expansion): alone in the
 * queue, it has nobody to hand off to, which a yield with nothing else runnable learns in one
 * test instead of async__handoff_head()'s. */
static zend_always_inline async_coroutine_t *async__handoff_take(async_coroutine_t *co, bool yielding)
{
	if (yielding && ASYNC_G(run_queue).count <= 1) {
		return NULL;
	}
	async_coroutine_t *next = async__handoff_head();
	if (next == NULL || next == co || !async__coroutine_can_hand_off(co, next)) {
		return NULL;
	}
	return async__handoff_pop(next);
}

/* Runs on every suspension, so it avoids zend_get_executed_filename_ex()'s second walk and
 * the refcount traffic when the site's file did not change. */
static zend_always_inline void async__suspend_record_site(zend_async_waker_t *waker)
{
	zend_execute_data *ex = async__user_frame(EG(current_execute_data));
	zend_string *filename = ex ? ex->func->op_array.filename : NULL;
	if (filename != waker->filename) {
		if (waker->filename) {
			zend_string_release(waker->filename);
		}
		waker->filename = filename ? zend_string_copy(filename) : NULL;
	}
	waker->lineno = ex && ex->opline ? ex->opline->lineno : 0;
}

/* A cancellation requested while the coroutine ran is delivered at its next suspension point
 * instead of suspending (unless it is protected). True when one was thrown. */
static zend_always_inline bool async__suspend_throw_pending_cancel(zend_coroutine_t *coro, async_coroutine_t *co)
{
	if (EXPECTED(co->pending_cancel == NULL) || co->protect_depth != 0) {
		return false;
	}
	zend_object *error = co->pending_cancel;
	co->pending_cancel = NULL;
	if (coro->waker) {
		zend_async_waker_clean(coro);
	}
	zend_throw_exception_internal(error);
	return true;
}

/* The suspension itself, once it is allowed: the coroutine's engine state kept, the switch (to
 * the loop, or straight to the run queue's head), and what the waker brought back thrown. Inline
 * in both ways in (the ABI's suspend and the yield), so neither pays a call for it. */
static zend_always_inline void async__suspend_current(zend_coroutine_t *coro, async_coroutine_t *co, zend_async_waker_t *waker,
	bool yielding)
{
	async__suspend_record_site(waker);

	/* The engine's error-handling mode (zend_replace_error_handling(): EH_THROW in PDO's and
	 * mysqli's constructors, which may suspend in connect) is global and not part of what a
	 * fiber switch saves. It belongs to the coroutine that set it: others must not see their
	 * warnings turned into its exceptions, nor get its mode back when they restore theirs. */
	zend_error_handling_t error_handling = EG(error_handling);
	zend_class_entry *exception_class = EG(exception_class);
	EG(error_handling) = EH_NORMAL;
	EG(exception_class) = NULL;

	ASYNC_SWITCHED();
	if (UNEXPECTED(ZEND_COROUTINE_IS_MAIN(coro))) {
		ASYNC_G(main_frame) = EG(current_execute_data);
		async__scheduler_main_wait();
		ASYNC_G(main_frame) = NULL;
	} else {
		co->execute_data = EG(current_execute_data);
		co->resume_ctx = EG(current_fiber_context);
		async__coroutine_switch_out(co, async__handoff_take(co, yielding));
		/* Resumed. If we had suspended from inside a user Fiber, its context is ours again. */
		co->execute_data = NULL;
	}
	EG(error_handling) = error_handling;
	EG(exception_class) = exception_class;

	waker = coro->waker;
	if (EG(exception)) {
		return; /* main was handed the exit reason */
	}
	if (waker != NULL) {
		waker->status = ZEND_ASYNC_WAKER_RESULT;
		if (UNEXPECTED(waker->error != NULL)) {
			zend_object *error = waker->error;
			waker->error = NULL;
			zend_throw_exception_internal(error);
		}
	}
	if (!EG(exception)) {
		async__suspend_throw_pending_cancel(coro, co);
	}
}

/* A suspension that was allowed: a cancellation requested while the coroutine ran is thrown
 * instead, else the waker waits and the coroutine switches away. */
static zend_always_inline void async__suspend_waiting(zend_coroutine_t *coro, async_coroutine_t *co)
{
	if (async__suspend_throw_pending_cancel(coro, co)) {
		return;
	}
	zend_async_waker_t *waker = coro->waker;
	if (waker == NULL) {
		waker = zend_async_waker_new(coro);
	} else if (waker->status == ZEND_ASYNC_WAKER_NO_STATUS || waker->status == ZEND_ASYNC_WAKER_RESULT) {
		waker->status = ZEND_ASYNC_WAKER_WAITING;
	}
	async__suspend_current(coro, co, waker, false);
}

/* async__scheduler_suspend_begun(), inline. */
static zend_always_inline void async__scheduler_suspend_begun_inline(void)
{
	zend_coroutine_t *coro = ZEND_ASYNC_G(coroutine);
#if ZEND_DEBUG /* (a release build's ZEND_ASSERT() would still make the call) */
	ZEND_ASSERT(ASYNC_G(launched) && !ZEND_ASYNC_G(in_scheduler_context) && !ASYNC_SWITCH_BLOCKED()
		&& "async__wait_begin() checked these");
#endif
	async__suspend_waiting(coro, ASYNC_CO_FROM_CORO(coro));
}

/* async__scheduler_yield(), inline. */
static zend_always_inline void async__scheduler_yield_inline(void)
{
	zend_coroutine_t *coro = ZEND_ASYNC_G(coroutine);
	if (coro == NULL || !async__scheduler_may_switch()) {
		return; /* nothing to yield to before the scheduler exists; never where switching is impossible */
	}
	async_coroutine_t *co = ASYNC_CO_FROM_CORO(coro);
	if (async__suspend_throw_pending_cancel(coro, co)) {
		return;
	}
	zend_async_waker_t *waker = coro->waker;
	if (waker == NULL || waker->length != 0 || waker->error != NULL) {
		waker = zend_async_waker_new(coro);
	}
	/* A yield waits on nothing: a bare waiting waker, then straight into the queue. */
	waker->status = ZEND_ASYNC_WAKER_WAITING;
	async__scheduler_queue_enter(coro);
	async__suspend_current(coro, co, waker, true);
	if (coro->waker != NULL && coro->waker->length != 0) {
		zend_async_waker_clean(coro);
	}
}

/*
 * wait.c — the one way C code suspends the current coroutine.
 *
 * Every wait of the runtime (await(), delay(), channels, pools, scopes, task groups, iterate(),
 * the await_* family, descriptor and DNS waits of the hooks) is the same four steps:
 *
 *     zend_coroutine_t *co = async__wait_begin(token, "wait on a channel");  // may I? launch, token
 *     if (co == NULL) return false;                                         // exception set
 *     bool ok = async__wait_on(co, event, false, callback, NULL)             // subscribe (any number)
 *            && async__wait_suspend(co);                                     // sleep, throw what woke us
 *     async__wait_end(co);                                                   // unsubscribe everything
 *
 * async__wait_begin() refuses where switching is impossible (the scheduler's own context, a
 * destructor on PHP < 8.4: P9) with an AsyncException naming the operation; callers that must
 * behave as stock PHP there (the hooks, the sleep family) ask async__wait_allowed() first and take
 * their blocking path instead. A token that already fired ends the wait before it starts
 * (OperationCanceledException, the token's error as previous); a live one is subscribed into the
 * same waker, so whichever fires first wins.
 */

/* May the current flow suspend (not the scheduler's context, not a destructor on PHP < 8.4)?
 * True also before the scheduler launched: the first wait launches it. */
bool async__wait_allowed(void);

/* Throws why the current flow may not suspend: "Cannot <what> inside a destructor: ..." or the
 * scheduler-context message. */
ZEND_COLD void async__wait_throw_not_allowed(const char *what);

/* A waker the last wait left clean only needs to wait again: true when it was such and is now
 * waiting. This keeps a busy channel or pool from touching the waker's arrays per message. */
static zend_always_inline bool async__wait_waker_rearm(zend_coroutine_t *co)
{
	zend_async_waker_t *waker = co->waker;
	if (waker == NULL || waker->length != 0 || waker->error != NULL || Z_TYPE(waker->result) != IS_UNDEF) {
		return false;
	}
	waker->status = ZEND_ASYNC_WAKER_WAITING;
	waker->triggered_event = NULL;
	waker->events_stopped = false;
	return true;
}

/* Step 1: the may-I-wait check, the scheduler launch, the token check, a fresh waker for the
 * current coroutine and the token's subscription. `what` names the operation in the error
 * ("await", "wait on a channel", ...). The current coroutine, or NULL with an exception set. */
zend_coroutine_t *async__wait_begin_slow(zend_async_event_t *token, const char *what);
/* Inline, the common case: no token, a coroutine that may switch, a clean waker. */
static zend_always_inline zend_coroutine_t *async__wait_begin(zend_async_event_t *token, const char *what)
{
	zend_coroutine_t *co = ZEND_ASYNC_G(coroutine);
	if (EXPECTED(token == NULL && co != NULL && async__scheduler_may_switch() && async__wait_waker_rearm(co))) {
		return co;
	}
	return async__wait_begin_slow(token, what);
}

/* The event of a cancellation token handed to an API (NULL for none). Handing it over uses it,
 * even when the API completes without waiting (an awaitable already done, a value already
 * buffered): it must not warn "never used". */
static zend_always_inline zend_async_event_t *async__wait_token(zend_object *token)
{
	zend_async_event_t *event = token != NULL ? ZEND_ASYNC_OBJECT_TO_EVENT(token) : NULL;
	if (event != NULL) {
		ZEND_ASYNC_EVENT_SET_RESULT_USED(event);
	}
	return event;
}

/* Step 2: subscribe the waker to an event (zend_async_resume_when()); with `trans` the waker
 * takes the caller's reference. False with an exception (the waker is left for async__wait_end). */
static zend_always_inline bool async__wait_on(zend_coroutine_t *co, zend_async_event_t *event, bool trans,
	zend_async_event_callback_fn callback, zend_coroutine_event_callback_t *coroutine_callback)
{
	return zend_async_resume_when(co, event, trans, callback, coroutine_callback);
}

/* Step 2 for an event that keeps its waiters in a queue of its own (a channel): the waker lists
 * the event, holding the reference a subscription holds, so everything that asks what a coroutine
 * waits for (getAwaitingInfo(), the deadlock report, virtual time) sees it, but neither the
 * event's add_callback() nor its start() is called: the owner has queued its waiter itself and
 * marks it subscribed. The waker takes the caller's reference to `cb`, as async__wait_on() does.
 * False, with nothing done, when the waker has no room inline or the event is closed: subscribe
 * with async__wait_on() then. Pair with async__wait_end_own(). Inline: every channel message. */
static zend_always_inline bool async__wait_list_own(zend_coroutine_t *co, zend_async_event_t *event,
	zend_coroutine_event_callback_t *cb)
{
	zend_async_waker_t *waker = co->waker;
	ZEND_ASSERT(waker != NULL && "async__wait_begin() gives the coroutine a waker");
	if (UNEXPECTED(waker->length == waker->capacity || ZEND_ASYNC_EVENT_IS_CLOSED(event))) {
		return false;
	}
	cb->coroutine = co;
	cb->event = event;
	ZEND_ASYNC_EVENT_ADD_REF(event);
	waker->triggers[waker->length++] = (zend_async_waker_trigger_t) { event, &cb->base, false };
	return true;
}

/* Step 2, a timer: the wait also ends after ms + ns, through `callback`
 * (zend_async_waker_callback_resolve: a plain wake-up; ..._timeout: a TimeoutException). */
bool async__wait_on_timer(zend_coroutine_t *co, zend_ulong ms, zend_ulong ns, zend_async_event_callback_fn callback);

/* Step 3: suspends until the waker fires (or the coroutine is re-queued). False with the
 * exception that ended the wait (a cancellation, the token, a timeout, the event's error).
 * Inline: it is on every hand-off's path. */
static zend_always_inline bool async__wait_suspend(zend_coroutine_t *co)
{
	ZEND_ASSERT(co == ZEND_ASYNC_G(coroutine) && "only the current coroutine can suspend itself");
	ZEND_ASSERT(co->waker != NULL && "async__wait_begin() gives the coroutine a waker");
	async__scheduler_suspend_begun();
	return !EG(exception);
}

/* Step 3 with the suspension inline, for the hottest waits (a channel message, await()): one call
 * level fewer between the VM and the switch (in this header). */
static zend_always_inline bool async__wait_suspend_inline(zend_coroutine_t *co)
{
	ZEND_ASSERT(co == ZEND_ASYNC_G(coroutine) && "only the current coroutine can suspend itself");
	ZEND_ASSERT(co->waker != NULL && "async__wait_begin() gives the coroutine a waker");
	async__scheduler_suspend_begun_inline();
	return !EG(exception);
}

/* Step 4: unsubscribes, stops and releases whatever the waker holds; the waker stays for the next
 * wait. Read the waker's result before this. */
static zend_always_inline void async__wait_end(zend_coroutine_t *co)
{
	zend_async_waker_clean(co);
}

/* Step 4 after async__wait_list_own(), once the owner took its waiter out of its queue (the work of
 * its del_callback()): when the waker holds that one event and nothing else (no token, no error,
 * no result), its references are dropped here without a call per event; anything more takes
 * async__wait_end(), which finds the waiter already unsubscribed. */
static zend_always_inline void async__wait_end_own(zend_coroutine_t *co, zend_coroutine_event_callback_t *cb)
{
	zend_async_waker_t *waker = co->waker;
	if (waker == NULL || waker->length != 1 || waker->triggers != waker->inline_triggers
		|| waker->triggers[0].callback != &cb->base || waker->triggers[0].owns_event
		|| waker->error != NULL || Z_TYPE(waker->result) != IS_UNDEF) {
		async__wait_end(co);
		return;
	}
	zend_async_event_t *event = waker->triggers[0].event;
	bool stopped = waker->events_stopped;
	/* The waker is reset before anything is released: a release may run code that looks at it. */
	waker->length = 0;
	waker->events_stopped = false;
	waker->triggered_event = NULL;
	waker->status = ZEND_ASYNC_WAKER_NO_STATUS;
	if (UNEXPECTED(!stopped && event->stop != zend_async_event_nop_stop)) {
		event->stop(event);
	}
	zend_async_event_callback_unref(&cb->base, event);
	ZEND_ASYNC_EVENT_RELEASE(event);
}

/* --- an event of the caller's own: a turn handed over, progress made ---
 *
 * A plain event embedded in a struct of the caller's (a stream's write turn, a database
 * connection's turn), notified with ZEND_ASYNC_CALLBACKS_NOTIFY(event, NULL, NULL) when waiters
 * should look again. References only count: the memory is the struct's, freed with it after
 * async__wait_plain_event_free(). `info` names it in getAwaitingInfo() and the deadlock report. */
void async__wait_plain_event_init(zend_async_event_t *event, zend_string *(*info)(zend_async_event_t *event));

/* The waiter list is request memory: dropped as soon as nobody waits (call after each wait and
 * notification), so a struct that outlives the request (a persistent stream) never carries it. */
static zend_always_inline void async__wait_plain_event_trim(zend_async_event_t *event)
{
	if (event->callbacks.length == 0 && event->callbacks.data != NULL) {
		zend_async_callbacks_free(event);
	}
}

/* Before the struct holding it is freed. */
static zend_always_inline void async__wait_plain_event_free(zend_async_event_t *event)
{
	zend_async_callbacks_free(event);
}

/* --- whole waits built from the steps --- */

/* One event and an optional token. *result (may be NULL) gets the event's result. False with an
 * exception. */
bool async__wait_event(zend_async_event_t *event, zend_async_event_t *token, zval *result, const char *what);

/* Sleeps ms + ns. Where switching is impossible, blocks the process as PHP's usleep() would.
 * False with an exception (cancellation). */
bool async__wait_ms(zend_ulong ms, zend_ulong ns);

/* Async\suspend(): re-queues the current coroutine behind the others (no-op before launch). */
static zend_always_inline void async__wait_yield(void)
{
	async__scheduler_yield();
}
/* The same with the suspension inline: Async\suspend() itself. */
static zend_always_inline void async__wait_yield_inline(void)
{
	async__scheduler_yield_inline();
}

/* Async\await() in C: the result in return_value, or the awaitable's (or token's) exception
 * thrown. A finished awaitable replays at once. */
void async__await(zend_object *awaitable, zend_object *cancellation, zval *return_value);

/* A token fired while waiting: a waker callback that ends the wait with
 * OperationCanceledException (the token's error as previous). */
void async__token_fired(zend_async_event_t *event, zend_async_event_callback_t *callback, void *result, zend_object *exception);

/* The same for a token that had already fired: thrown at once. */
void async__throw_token_fired(zend_async_event_t *token);

/*
 * clock.c — virtual time: the clock of a bubble made by Async\Testing\virtual_time() (clock.c).
 *
 * A bubble's coroutines (the one virtual_time() spawns and everything spawned from inside) carry
 * its clock. Timers made by them are the clock's own, not libuv's; time read by them
 * (time(), microtime(), hrtime(), date(), ...) is the clock's. When the run queue is empty and
 * every coroutine of a bubble waits only on its virtual timers or on things inside the bubble, the
 * scheduler asks the clock to jump to its earliest timer (async__clock_advance()).
 */

typedef struct _async_clock_s async_clock_t;
typedef struct _async_vtimer_s async_vtimer_t;

struct _async_clock_s {
	uint32_t refcount;
	async_clock_t *parent;       /* the bubble this one was made in */
	uint64_t start_mono_ns;      /* monotonic time (the parent's) when the bubble began */
	uint64_t start_wall_ns;      /* Unix time in ns (the parent's) when the bubble began */
	uint64_t elapsed_ns;         /* virtual time passed inside the bubble */
	uint64_t timer_seq;          /* creation order of timers: same instant, same order */
	async_vtimer_t *timers;      /* armed timers, by (deadline, seq) */
	async_clock_t *prev_live, *next_live; /* ASYNC_G(clocks): bubbles still running */
	zend_coroutine_t *root;      /* the coroutine virtual_time() spawned, while it runs (weak) */
	bool ended;
};

/* The calling coroutine's clock, or NULL when it runs in real time (no bubble: one load). */
async_clock_t *async__clock_of_current(void);
static zend_always_inline async_clock_t *async__clock_current(void)
{
	return ASYNC_G(clocks) != NULL ? async__clock_of_current() : NULL;
}

async_clock_t *async__clock_new(async_clock_t *parent);
void async__clock_addref(async_clock_t *clock);
void async__clock_release(async_clock_t *clock);
/* The bubble is over: its timers never fire again, and the scheduler stops looking at it. */
void async__clock_end(async_clock_t *clock);

uint64_t async__clock_mono_ns(async_clock_t *clock);
uint64_t async__clock_wall_ns(async_clock_t *clock);

/* The reactor's timer constructor for a coroutine inside a bubble. */
zend_async_timer_event_t *async__clock_new_timer(async_clock_t *clock, uint64_t timeout_ns, bool periodic,
	size_t extra_size);
bool async__clock_is_timer(zend_async_event_t *event);

/* The scheduler's question when nothing is runnable: fires the earliest timers of the deepest
 * bubble whose coroutines all wait on time only. True when one fired, or when a bubble whose
 * coroutines wait on nothing that can happen (no timer, and no real event live in the process)
 * had its root cancelled with a DeadlockError. */
bool async__clock_advance(void);

/* Request end: every clock still live is ended. */
void async__clock_rshutdown(void);

/*
 * main_end.c — the main script's end: an uncaught cancellation ends it quietly, exit() starts the
 * graceful shutdown (main_end.c).
 */

/* MINIT: the exit() hook (the ZEND_EXIT handler, or exit()/die() from 8.4) and the error callback
 * (chained to what was there). */
zend_result async__main_end_minit(void);
/* RINIT: re-wraps the error callback if an extension replaced it since. */
void async__main_end_rinit(void);
/* A filter of the runtime's error callback, registered at MINIT by a layer above (the hooks):
 * true drops the report (a warning a driver raises under a cancellation it never saw). At most
 * four. */
typedef bool (*async_error_filter_fn)(int type);
void async__error_filter_register(async_error_filter_fn filter);
/* MSHUTDOWN: puts back what is still ours to put back. */
void async__main_end_mshutdown(void);

/*
 * iterator.c — foreach over an object whose elements come one at a time and cannot be replayed
 * (a channel, a file system watcher, a task group): the engine's iterator, forward-only.
 */
typedef struct _async_iterator_s async_iterator_t;
typedef struct {
	/* The next element into iter->current (and iter->key, or left UNDEF for 0, 1, 2, ...);
	 * current left UNDEF ends the loop, quietly or with an exception thrown. May suspend. */
	void (*fetch)(async_iterator_t *iter);
	/* What the owner keeps in iter->state goes (NULL: nothing). */
	void (*free_state)(async_iterator_t *iter);
	/* The Error a by-reference foreach throws. */
	const char *by_ref_error;
} async_iterator_ops_t;
struct _async_iterator_s {
	zend_object_iterator it;          /* it.data: the object iterated (a reference) */
	const async_iterator_ops_t *ops;
	zval current;
	zval key;                         /* UNDEF: the position */
	zend_long position;               /* elements fetched so far */
	bool started;
	void *state;                      /* the owner's */
};
/* The engine's get_iterator for such an object. */
zend_object_iterator *async__iterator_new(zval *object, int by_ref, const async_iterator_ops_t *ops);

#endif /* ASYNC_CORE_H */
