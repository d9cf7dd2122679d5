/*
 * core/workers.c — the C contexts that run coroutines' bodies ("workers"), and the running of a
 * body on one.
 *
 * Contexts come from the exported Zend fiber context API, or are made on stacks of the arena
 * (core/stack_arena.c) with PHP's own boost.context entry points. Creating one costs an mmap, an
 * mprotect and a munmap later, so a worker whose coroutine finished parks in a bounded pool and
 * runs the next coroutine bound to it (design doc §1, P2/P3): one bailout point for its life, one
 * VM stack page kept between bodies.
 */
#include "php_async.h"
#include "core/core.h"
#include "zend_observer.h"
#include "zend_exceptions.h"
#include "zend_closures.h"
#ifdef __SANITIZE_ADDRESS__
# include <sanitizer/common_interface_defs.h>
#endif
#if defined(__has_include)
# if __has_include(<valgrind/valgrind.h>)
#  include <valgrind/valgrind.h>
#  define ASYNC_STACK_REGISTER(w, base, size) ((w)->valgrind_id = VALGRIND_STACK_REGISTER((base), (char *) (base) + (size)))
#  define ASYNC_STACK_DEREGISTER(w) VALGRIND_STACK_DEREGISTER((w)->valgrind_id)
# endif
#endif
#ifndef ASYNC_STACK_REGISTER
# define ASYNC_STACK_REGISTER(w, base, size) ((void) (base), (void) (size))
# define ASYNC_STACK_DEREGISTER(w) ((void) 0)
#endif

/* The dummy bottom frame of every coroutine (P6): traces end cleanly at "[internal function]". */
/* per-process: the dummy bottom frame every coroutine shares; never written */
static zend_function coroutine_root_function = { ZEND_INTERNAL_FUNCTION };

/* ---------------------------------------------------------------------------------------------
 * The pool
 * ------------------------------------------------------------------------------------------- */

/* A worker whose context is done with: an arena stack goes back to the arena (the Zend fiber API
 * would unmap it), a stack of the Zend fiber API is destroyed by it — unless that already
 * happened (`destroyed`: the switch away from a dead Zend context destroys it, P3). */
void async__worker_retire(async_worker_t *worker, bool destroyed)
{
	ASYNC_G(live_contexts)--;
	ASYNC_STACK_DEREGISTER(worker);
	if (worker->arena) {
		zend_observer_fiber_destroy_notify(&worker->ctx);
		async__stack_release(&worker->stack);
	} else if (!destroyed) {
		zend_fiber_destroy_context(&worker->ctx);
	}
	if (worker->vm_page != NULL) {
		efree(worker->vm_page);
	}
	efree(worker);
}


static ZEND_STACK_ALIGNED void worker_entry(zend_fiber_transfer *transfer);

/* PHP's boost.context entry points (exported by the binary; zend_fibers.c declares them the same
 * way): a context made on an arena stack is then switched like any other, with
 * zend_fiber_switch_context(), so observers (Xdebug), the JIT and ASan see an ordinary fiber. */
typedef struct {
	void *handle;
	zend_fiber_transfer *transfer;
} async_fcontext_data_t;
extern void *make_fcontext(void *sp, size_t size, void (*fn)(async_fcontext_data_t));

/* What zend_fiber_trampoline() does, but the context never goes DEAD: a dead context is
 * destroyed by the next switch, and destroying it unmaps its stack, which is the arena's. */
static ZEND_NORETURN void worker_trampoline(async_fcontext_data_t data)
{
	zend_fiber_transfer transfer = *data.transfer;
	zend_fiber_context *from = transfer.context;
#ifdef __SANITIZE_ADDRESS__
	async_zend_fiber_stack_t *from_stack = (async_zend_fiber_stack_t *) from->stack;
	__sanitizer_finish_switch_fiber(NULL, &from_stack->asan_pointer, &from_stack->asan_size);
#endif
	from->handle = data.handle;
	if (from->status == ZEND_FIBER_STATUS_DEAD) {
		zend_fiber_destroy_context(from);
	}
	zend_fiber_context *context = EG(current_fiber_context);
	context->function(&transfer);
	/* worker_entry() returned: the worker is dead; whoever resumes retires it */
	zend_fiber_switch_context(&transfer);
	abort();
}

static bool worker_context_init(async_worker_t *worker)
{
	size_t size = EG(fiber_stack_size);
	if (!ASYNC_G(use_stack_arena) || !async__stack_arena_fits(size)) {
		/* (also a fiber.stack_size raised by ini_set() above the arena's size) */
		worker->arena = false;
		if (!ASYNC_FIBER_INIT_OK(zend_fiber_init_context(&worker->ctx, async__ce_coroutine, worker_entry, size))) {
			return false;
		}
		/* (Valgrind is told of the stack here too: a PHP built without its headers does not, and
		 * a switch between two stacks mapped close together then looks like a deep call.) */
		const async_zend_fiber_stack_t *zstack = (const async_zend_fiber_stack_t *) worker->ctx.stack;
		ASYNC_STACK_REGISTER(worker, zstack->pointer, zstack->size);
		return true;
	}
	if (!async__stack_acquire(&worker->stack, size, ASYNC_G(stack_guards))) {
		return false;
	}
	worker->arena = true;
	async_zend_fiber_stack_t *zstack = &worker->zend_stack;
	memset(zstack, 0, sizeof(*zstack));
	zstack->pointer = worker->stack.base;
	zstack->size = worker->stack.size;
#ifdef __SANITIZE_ADDRESS__
	zstack->asan_pointer = worker->stack.base;
	zstack->asan_size = worker->stack.size;
#endif
	ASYNC_STACK_REGISTER(worker, worker->stack.base, worker->stack.size);
	worker->ctx.stack = (zend_fiber_stack *) zstack;
	worker->ctx.handle = make_fcontext((char *) worker->stack.base + worker->stack.size, worker->stack.size, worker_trampoline);
	worker->ctx.kind = async__ce_coroutine;
	worker->ctx.function = worker_entry;
	worker->ctx.cleanup = NULL;
	worker->ctx.status = ZEND_FIBER_STATUS_INIT;
	zend_observer_fiber_init_notify(&worker->ctx);
	return true;
}

ZEND_COLD ZEND_NORETURN void async__worker_stack_overflowed(async_coroutine_t *co)
{
	char who[160];
	if (co != NULL && co->coro.filename != NULL) {
		snprintf(who, sizeof(who), "coroutine %u spawned at %s:%u", co->std.handle, ZSTR_VAL(co->coro.filename), co->coro.lineno);
	} else if (co != NULL) {
		snprintf(who, sizeof(who), "coroutine %u", co->std.handle);
	} else {
		snprintf(who, sizeof(who), "a finished coroutine");
	}
	async__stack_overflowed(who);
}

static async_worker_t *worker_acquire(void)
{
	async_worker_t *worker;
	while ((worker = ASYNC_G(free_workers)) != NULL) {
		ZEND_ASSERT(ASYNC_G(free_workers_count) > 0);
		ASYNC_G(free_workers) = worker->next_free;
		ASYNC_G(free_workers_count)--;
		worker->next_free = NULL;
		if (EXPECTED(async__worker_fits(worker))) {
			return worker;
		}
		async__worker_retire(worker, false); /* made before ini_set() raised fiber.stack_size */
	}

	worker = ecalloc(1, sizeof(async_worker_t));
	if (!worker_context_init(worker)) {
		efree(worker);
		return NULL;
	}
	ASYNC_G(live_contexts)++;
	return worker;
}

/* Parked workers hold no PHP frames: destroying them needs no unwinding. */
void async__workers_rshutdown(void)
{
	async_worker_t *worker = ASYNC_G(free_workers);
	while (worker != NULL) {
		async_worker_t *next = worker->next_free;
		async__worker_retire(worker, false);
		worker = next;
	}
	ASYNC_G(free_workers) = NULL;
	ASYNC_G(free_workers_count) = 0;
}

/* The spawn site as a frame below the coroutine's root, the way a Fiber's bottom frame has the
 * frame that started it below, so that errors raised while the callable is bound — a
 * by-reference parameter given a value, an internal function's wrong arguments — are located at
 * the spawn() call instead of "Unknown on line 0". Like the drain's frame (scheduler.c) it is
 * never executed. It lives in the VM stack's first page, above the root frame's slot, and is
 * linked only while it is needed (coroutine_call()): below a running user function it would
 * show in every backtrace. NULL when the site is unknown. */
typedef struct {
	zend_execute_data frame;
	zend_op_array op_array;
	zend_op op;
} coroutine_site_t;

#define COROUTINE_SITE_SLOTS ((sizeof(coroutine_site_t) + sizeof(zval) - 1) / sizeof(zval))

static zend_execute_data *coroutine_spawn_site_frame(async_coroutine_t *co)
{
	if (co->coro.filename == NULL
		|| (size_t) (EG(vm_stack_end) - EG(vm_stack_top)) < COROUTINE_SITE_SLOTS + ZEND_CALL_FRAME_SLOT) {
		return NULL;
	}
	coroutine_site_t *site = (coroutine_site_t *) EG(vm_stack_top);
	EG(vm_stack_top) += COROUTINE_SITE_SLOTS;
	memset(site, 0, sizeof(*site));
	site->op.opcode = ZEND_NOP;
	site->op.lineno = co->coro.lineno;
	site->op_array.type = ZEND_USER_FUNCTION;
	site->op_array.filename = co->coro.filename; /* the coroutine holds it for its whole life */
	site->op_array.opcodes = &site->op;
	site->op_array.last = 1;
	site->op_array.line_start = site->op_array.line_end = co->coro.lineno;
	site->frame.func = (zend_function *) &site->op_array;
	site->frame.opline = &site->op;
	return &site->frame;
}

static void coroutine_init_vm_stack(async_coroutine_t *co)
{
	size_t page = (size_t) ASYNC_G(vm_stack_size);
	async_worker_t *worker = co->worker;
	zend_vm_stack stack = worker->vm_page;
	worker->vm_page = NULL;
	if (EXPECTED(stack != NULL && (size_t) ((char *) stack->end - (char *) stack) == page)) {
		/* The page the worker's last coroutine left: no allocation. */
		stack->top = ZEND_VM_STACK_ELEMENTS(stack);
		stack->prev = NULL;
	} else {
		if (stack != NULL) {
			efree(stack); /* async.vm_stack_size changed since */
		}
		stack = zend_vm_stack_new_page(page, NULL);
	}
	EG(vm_stack) = stack;
	EG(vm_stack_top) = stack->top + ZEND_CALL_FRAME_SLOT;
	EG(vm_stack_end) = stack->end;
	/* The first page is small (P1); pages added by deep calls use the Fiber default size. */
	EG(vm_stack_page_size) = ZEND_FIBER_VM_STACK_SIZE;

	zend_execute_data *bottom = (zend_execute_data *) stack->top;
	memset(bottom, 0, sizeof(zend_execute_data));
	bottom->func = &coroutine_root_function;
	bottom->prev_execute_data = NULL;
	co->stack_bottom = bottom;
	EG(current_execute_data) = bottom;
}

/* zend_fibers.c's rule for a new fiber's error_reporting (the setting, not a "@" in force where
 * it was started), read from the INI entry found once: the lookup was a tenth of a spawn. The
 * entry lives as long as the process (or thread), whatever the requests change in it. */
static zend_long coroutine_error_reporting(void)
{
	zend_ini_entry *entry = ASYNC_G(error_reporting_ini);
	if (UNEXPECTED(entry == NULL)) {
		entry = zend_hash_str_find_ptr(EG(ini_directives), ZEND_STRL("error_reporting"));
		ZEND_ASSERT(entry != NULL && "the engine registers error_reporting");
		ASYNC_G(error_reporting_ini) = entry;
	}
	zend_string *value = entry->value;
	if (value == NULL) {
		return E_ALL;
	}
	/* Parsing it was another tenth of a spawn. Compared by content, not address: ini_set() makes
	 * a new string each time, and a freed one's address may come back with another value. */
	size_t len = ZSTR_LEN(value);
	if (len == ASYNC_G(error_reporting_len) && memcmp(ZSTR_VAL(value), ASYNC_G(error_reporting_text), len) == 0) {
		return ASYNC_G(error_reporting_parsed);
	}
	zend_long parsed = ZEND_STRTOL(ZSTR_VAL(value), NULL, 0);
	if (len > 0 && len < sizeof(ASYNC_G(error_reporting_text))) {
		memcpy(ASYNC_G(error_reporting_text), ZSTR_VAL(value), len);
		ASYNC_G(error_reporting_len) = (uint8_t) len;
		ASYNC_G(error_reporting_parsed) = parsed;
	}
	return parsed;
}

/* Argument i (0-based) is a value given for a by-reference parameter. */
static zend_always_inline bool coroutine_arg_wants_ref(zend_function *fn, zend_fcall_info *fci, uint32_t i)
{
	return ARG_SHOULD_BE_SENT_BY_REF(fn, i + 1) && !Z_ISREF(fci->params[i]) && !ARG_MAY_BE_SENT_BY_REF(fn, i + 1);
}

static bool coroutine_value_for_ref(zend_function *fn, zend_fcall_info *fci)
{
	for (uint32_t i = 0; i < fci->param_count; i++) {
		if (coroutine_arg_wants_ref(fn, fci, i)) {
			return true;
		}
	}
	return false;
}

/* A by-value argument for a by-reference parameter of a user function: PHP's own warning,
 * located at the spawn site, then the call gets a reference (as zend_call_function() does). */
static void coroutine_check_by_ref(zend_function *fn, zend_fcall_info *fci)
{
	for (uint32_t i = 0; i < fci->param_count; i++) {
		if (coroutine_arg_wants_ref(fn, fci, i)) {
			/* zend_param_must_be_ref()'s words (not exported by 8.2) */
			const char *arg_name = get_function_arg_name(fn, i + 1);
			zend_error(E_WARNING, "%s%s%s(): Argument #%d%s%s%s must be passed by reference, value given",
				fn->common.scope ? ZSTR_VAL(fn->common.scope->name) : "", fn->common.scope ? "::" : "",
				ZSTR_VAL(fn->common.function_name), i + 1,
				arg_name ? " ($" : "", arg_name ? arg_name : "", arg_name ? ")" : "");
			ZVAL_MAKE_REF(&fci->params[i]);
		}
	}
}

/* Calls the coroutine's callable with its spawn site in the frame chain for as long as errors
 * can come from binding it: a user function's arguments are checked here first, with the site
 * below the root frame; an internal function checks its own during its whole call. */
static void coroutine_call(async_coroutine_t *co)
{
	zend_fcall_t *fcall = co->coro.fcall;
	zend_function *fn = fcall->fci_cache.function_handler;
	if (fn != NULL && ZEND_USER_CODE(fn->type) && !coroutine_value_for_ref(fn, &fcall->fci)) {
		/* Nothing to report at the site: the common case makes no frame for it. */
		zend_call_function(&fcall->fci, &fcall->fci_cache);
		return;
	}
	zend_execute_data *site = coroutine_spawn_site_frame(co);
	if (site != NULL && fn != NULL && ZEND_USER_CODE(fn->type)) {
		co->stack_bottom->prev_execute_data = site;
		coroutine_check_by_ref(fn, &fcall->fci);
		co->stack_bottom->prev_execute_data = NULL;
		site = NULL;
	}
	if (site == NULL) {
		zend_call_function(&fcall->fci, &fcall->fci_cache);
		return;
	}
	/* An internal callable is called from the site itself: its errors and its backtrace entry
	 * are located there ("#0 file(line): str_repeat()"), and the root frame stays out of sight. */
	site->prev_execute_data = co->stack_bottom;
	EG(current_execute_data) = site;
	zend_call_function(&fcall->fci, &fcall->fci_cache);
	EG(current_execute_data) = co->stack_bottom;
}

/* Runs the body on the current (worker) context. A bailout (a fatal error) longjmps past it to
 * the worker's bailout point (worker_entry()). */
static zend_always_inline void coroutine_execute(async_coroutine_t *co)
{
	zend_long error_reporting = coroutine_error_reporting();

	EG(vm_stack) = NULL;
	{
		coroutine_init_vm_stack(co);
#ifdef ZEND_CHECK_STACK_LIMIT
		/* 8.3+: stack-overflow checks must use this C stack's bounds, not the main thread's. */
		EG(stack_base) = zend_fiber_stack_base(EG(current_fiber_context)->stack);
		EG(stack_limit) = zend_fiber_stack_limit(EG(current_fiber_context)->stack);
#endif
		EG(jit_trace_num) = 0;
		EG(error_reporting) = error_reporting;
		EG(active_fiber) = NULL; /* P7 */

		ZEND_COROUTINE_ENTER(&co->coro);
		if (co->pending_cancel != NULL && !co->protect_depth) {
			/* Cancelled between being woken for its first run and running. */
			zend_object *error = co->pending_cancel;
			co->pending_cancel = NULL;
			zend_throw_exception_internal(error);
		} else if (co->coro.fcall != NULL) {
			zval retval;
			ZVAL_UNDEF(&retval);
			co->coro.fcall->fci.retval = &retval;
			coroutine_call(co);
			if (Z_TYPE(retval) != IS_UNDEF) {
				if (Z_ISREF(retval)) {
					zend_unwrap_reference(&retval); /* results are values */
				}
				i_zval_ptr_dtor(&co->coro.result);
				ZVAL_COPY_VALUE(&co->coro.result, &retval);
			}
		} else if (co->coro.internal_entry != NULL) {
			co->coro.internal_entry();
		}

		/* Drop the callable now: it often closes over the coroutine itself. */
		async__coroutine_release_call(co);

		if (EG(exception)) {
			zend_object *ex = EG(exception);
			if (zend_is_unwind_exit(ex)) {
				co->exit_requested = true;
#ifdef ZEND_HAS_OOM
				/* PHP 8.2.36+ reports a memory-limit error between two ops and unwinds like exit();
				 * the engine forgets it once the unwind left the script's top frame, and until
				 * then runs no more user code (later shutdown functions would do nothing). A
				 * coroutine's body is such a top. */
				if (EG(delayed_oom).state == ZEND_OOM_STATE_HANDLED) {
					EG(delayed_oom).state = ZEND_OOM_STATE_NONE;
					ASYNC_G(fatal_in_coroutine) = true;
				}
#endif
			} else if (!zend_is_graceful_exit(ex)) {
				GC_ADDREF(ex);
				co->coro.exception = ex;
			} else if (co->coro.exception == NULL) {
				/* Destroyed at shutdown: record it as a cancellation. */
				co->coro.exception = async__new_exception(async__ce_async_cancellation, "Coroutine cancelled");
				ZEND_COROUTINE_SET_CANCELLED(&co->coro);
			}
			zend_clear_exception();
		}
		co->body_done = true;
		async__output_end_own(&co->output); /* buffers left open are flushed, as at request end */
	}
	co->execute_data = NULL;
}

/* The VM stack outlives the body until the coroutine is finished: finishing may create
 * exceptions, and those read the current frame. */
static void coroutine_release_vm_stack(async_worker_t *worker)
{
	zend_vm_stack stack = EG(vm_stack);
	ZEND_ASSERT(worker->vm_page == NULL && "the coroutine took the worker's page at its start");
	if (EXPECTED(stack != NULL && stack->prev == NULL)) {
		/* Only the first page left, as a coroutine leaves it: the worker keeps it for its next
		 * coroutine (it goes with the worker: async__worker_retire()). */
		worker->vm_page = stack;
	} else {
		zend_vm_stack_destroy();
	}
	EG(vm_stack) = NULL;
	EG(current_execute_data) = NULL;
}

/* The context a worker whose coroutine `finished` just ended goes to: the loop's, or, by a direct
 * hand-off, the run queue's head (the coroutine that awaited it, typically: B ends -> A, one
 * switch). The hand-off is done here as async__coroutine_switch_out() does it, the finished one
 * leaving its output and autoload state. Taken only while somebody else (its awaiter's handle)
 * holds the finished coroutine besides whoever started it: otherwise the runtime's reference is
 * the last, and dropping it frees the coroutine and may run destructors (its result's), which
 * must run in the loop's context, before the next coroutine, as they always did. */
static zend_fiber_context *worker_next_context(async_worker_t *worker, async_coroutine_t *finished)
{
	async_coroutine_t *held = ASYNC_G(handoff_last);
	ZEND_ASSERT((held == NULL || held == finished) && "only the running coroutine was reached by a hand-off");
	if (GC_REFCOUNT(&finished->std) == 1) {
		return worker->return_ctx;
	}
	async_coroutine_t *next = async__scheduler_handoff_after_finish();
	if (next == NULL) {
		return worker->return_ctx;
	}
	async__coroutine_make_current(next, worker->return_ctx, &finished->output, &finished->in_autoload);
	ASYNC_G(handoff_last) = next;
	if (held != NULL) {
		OBJ_RELEASE(&held->std); /* not the last reference (above) */
	}
	return next->resume_ctx;
}

/* Returns false when the pool is full: the worker then dies. `finished` is the coroutine it ran,
 * finished and still referenced by whoever started or handed off to it. */
static bool worker_park(async_worker_t *worker, async_coroutine_t *finished)
{
	ZEND_ASSERT(worker->coroutine == NULL && "only an unbound worker parks");
	if (ASYNC_G(free_workers_count) >= (uint32_t) ASYNC_G(context_pool_size)) {
		return false;
	}
	worker->next_free = ASYNC_G(free_workers);
	ASYNC_G(free_workers) = worker;
	ASYNC_G(free_workers_count)++;

	zend_fiber_transfer transfer = { .context = worker_next_context(worker, finished), .flags = 0 };
	ZVAL_NULL(&transfer.value);
	zend_fiber_switch_context(&transfer);
	/* Woken with a new coroutine bound by async__coroutine_start_or_resume() or a hand-off. */
	return true;
}

/* Runs the coroutines bound to the worker, one after another, until the pool has no room for it
 * when it parks. */
static zend_never_inline void worker_run(async_worker_t *worker)
{
	for (;;) {
		async_coroutine_t *co = worker->coroutine;
		ZEND_ASSERT(co != NULL && co->worker == worker && "a worker runs the coroutine bound to it");
		coroutine_execute(co);
		async__worker_check_stack(worker, co);
		worker->return_ctx = co->sched_ctx;
		co->worker = NULL;
		worker->coroutine = NULL;
		async__coroutine_finish(co); /* (its starter's reference keeps it) */
		coroutine_release_vm_stack(worker);
		async__worker_check_stack(worker, NULL);
		if (!worker_park(worker, co)) {
			return;
		}
	}
}

/* A fatal error ended the body of the coroutine bound to the worker: its frames are never
 * unwound, the worker dies, and the bailout goes on in the context that resumed it. One that
 * came between two bodies (nothing is bound then) only goes on. */
static ZEND_COLD void worker_bailed_out(async_worker_t *worker)
{
	async_coroutine_t *co = worker->coroutine;
	if (co == NULL) {
		return;
	}
	ZEND_ASYNC_EVENT_SET(&co->coro.event, ZEND_ASYNC_EVENT_F_BAILOUT);
	co->execute_data = NULL;
	async__worker_check_stack(worker, co);
	worker->return_ctx = co->sched_ctx;
}

static ZEND_STACK_ALIGNED void worker_entry(zend_fiber_transfer *transfer)
{
	async_worker_t *worker = (async_worker_t *) EG(current_fiber_context);
	/* volatile: written in zend_catch, after the longjmp. */
	volatile bool bailout = false;

	/* One bailout point for the worker's life, not one per coroutine: a setjmp per body was three
	 * libc calls on every spawn. EG(bailout) points here whenever the worker runs (a switch saves
	 * and restores it with the rest of the engine's state). */
	zend_first_try {
		worker_run(worker);
	} zend_catch {
		bailout = true;
		worker_bailed_out(worker);
	} zend_end_try();

	/* Whoever this returns to (the scheduler context that resumed the last coroutine it ran)
	 * retires the worker. */
	ZEND_ASSERT(ASYNC_G(dying_worker) == NULL);
	ASYNC_G(dying_worker) = worker;
	transfer->context = worker->return_ctx;
	transfer->flags = bailout ? ZEND_FIBER_TRANSFER_FLAG_BAILOUT : 0;
	ZVAL_NULL(&transfer->value);
}

zend_fiber_context *async__coroutine_bind_worker(async_coroutine_t *co)
{
	ZEND_ASSERT(co->resume_ctx == NULL && "a first run");
	async_worker_t *worker = worker_acquire();
	if (worker == NULL) {
		return NULL;
	}
	ZEND_ASSERT(worker->coroutine == NULL && "a parked worker is free");
	worker->coroutine = co;
	co->worker = worker;
	ZEND_COROUTINE_SET_STARTED(&co->coro);
	return &worker->ctx;
}

