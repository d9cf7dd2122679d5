/*
 * coroutine.c — the Async\Coroutine object and the C contexts that run coroutines.
 *
 * Contexts come only from the exported Zend fiber context API. Creating one costs an mmap, an
 * mprotect and a munmap later, so finished coroutines hand their context ("worker") back to a
 * bounded pool and the next coroutine reuses it (design doc §1, P2/P3).
 */
#include "php_async.h"
#include "core/core.h"
#include "zend_observer.h"
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
#include "zend_exceptions.h"
#include "zend_closures.h"
#include "zend_builtin_functions.h"
#include "ext/standard/info.h"
#include "coroutine_arginfo.h"

zend_class_entry *async_ce_coroutine;
/* per-process: object handlers, filled once at MINIT */
static zend_object_handlers coroutine_handlers;

/* The dummy bottom frame of every coroutine (P6): traces end cleanly at "[internal function]". */
/* per-process: the dummy bottom frame every coroutine shares; never written */
static zend_function coroutine_root_function = { ZEND_INTERNAL_FUNCTION };

/* ---------------------------------------------------------------------------------------------
 * Event methods
 * ------------------------------------------------------------------------------------------- */

static bool coroutine_replay(zend_async_event_t *event, zend_async_event_callback_t *callback,
	zval *result, zend_object **exception)
{
	zend_coroutine_t *coro = (zend_coroutine_t *) event;
	return zend_async_replay_stored(event, callback, &coro->result, coro->exception, result, exception);
}

static bool coroutine_dispose(zend_async_event_t *event)
{
	OBJ_RELEASE(ZEND_ASYNC_EVENT_TO_OBJECT(event));
	return true;
}

zend_string *async_coroutine_info(zend_async_event_t *event)
{
	zend_coroutine_t *coro = (zend_coroutine_t *) event;
	char name[64];
	snprintf(name, sizeof(name), "Coroutine %u", ASYNC_CO_OBJ(ASYNC_CO_FROM_CORO(coro))->handle);
	return zend_coroutine_gen_info(coro, name);
}

/* ---------------------------------------------------------------------------------------------
 * The callable
 * ------------------------------------------------------------------------------------------- */

void async_coroutine_set_call(async_coroutine_t *co, zend_fcall_info *fci, zend_fcall_info_cache *fcc,
	zval *args, uint32_t argc, HashTable *named_args)
{
	ZEND_ASSERT(co->coro.fcall == NULL && "a coroutine runs one callable");
	if (fci->size == 0) {
		return;
	}
	zend_async_fcall_init(&co->call, fci, fcc, args, argc, named_args, co->call_args, ASYNC_CO_INLINE_ARGS);
	co->coro.fcall = &co->call;
}

/* Drops the callable: detached first, as what it releases may run code (a destructor, the GC)
 * that looks at the coroutine. */
static zend_always_inline void coroutine_release_call(async_coroutine_t *co)
{
	zend_fcall_t *fcall = co->coro.fcall;
	co->coro.fcall = NULL;
	if (fcall == &co->call) {
		zend_async_fcall_dtor(fcall, co->call_args);
	} else {
		zend_fcall_release(fcall); /* the ABI's, or none */
	}
}

/* ---------------------------------------------------------------------------------------------
 * Object lifecycle
 * ------------------------------------------------------------------------------------------- */

/* Inline in async_coroutine_new(), every spawn's; also the class's create_object handler. */
static zend_always_inline zend_object *coroutine_create_object(zend_class_entry *ce)
{
	/* zend_object_alloc() would zero everything before std; the callable's storage needs none. */
	async_coroutine_t *co = emalloc(sizeof(async_coroutine_t) + zend_object_properties_size(ce));
	memset(co, 0, XtOffsetOf(async_coroutine_t, call));
	zend_object_std_init(&co->std, ce);
	co->std.handlers = &coroutine_handlers;

	zend_async_event_t *ev = &co->coro.event;
	ev->flags = ZEND_ASYNC_EVENT_F_ZEND_OBJ | ZEND_ASYNC_EVENT_F_ZVAL_RESULT;
	ev->zend_object_offset = XtOffsetOf(async_coroutine_t, std);
	ev->add_callback = zend_async_event_default_add_callback;
	ev->del_callback = async_coroutine_del_callback;
	ev->start = zend_async_event_nop_start;
	ev->stop = zend_async_event_nop_stop;
	ev->replay = coroutine_replay;
	ev->dispose = coroutine_dispose;
	ev->info = async_coroutine_info;
	ZVAL_NULL(&co->coro.result);
	return &co->std;
}

async_coroutine_t *async_coroutine_new(void)
{
	return ASYNC_CO_FROM_OBJ(coroutine_create_object(async_ce_coroutine));
}

/* A walk of the live coroutines whose body may run PHP code (coroutine.h). The coroutine at hand
 * is pinned and marked with the walk's pass number, and its successor is pinned too. After the
 * body the walk goes on from the coroutine's successor of that moment if it is still listed,
 * else from the successor pinned before the body (a not-started coroutine that a cancellation
 * finished at once), and only if both left from the head, skipping what this pass reached. So
 * nothing is visited twice, nothing live is missed, nothing is allocated, and a walk that
 * finishes every coroutine it visits stays linear. Coroutines spawned meanwhile are visited. */
static async_coroutine_t *live_walk_pin(async_coroutine_t *co, uint32_t pass)
{
	while (co != NULL && co->walk_pass == pass) {
		co = async_live_next(co);
	}
	if (co != NULL) {
		co->walk_pass = pass;
		GC_ADDREF(&co->std);
	}
	return co;
}

static async_coroutine_t *live_walk_at(async_live_walk_t *w, async_coroutine_t *co)
{
	w->co = co;
	w->after = co != NULL ? async_live_next(co) : NULL;
	if (w->after != NULL) {
		GC_ADDREF(&w->after->std);
	}
	return co;
}

async_coroutine_t *async_live_walk_first(async_live_walk_t *w)
{
	w->pass = ++ASYNC_G(walk_pass);
	return live_walk_at(w, live_walk_pin(async_live_first(), w->pass));
}

async_coroutine_t *async_live_walk_next(async_live_walk_t *w)
{
	async_coroutine_t *co = w->co, *after = w->after;
	async_coroutine_t *from = co->in_live ? async_live_next(co)
		: after != NULL && after->in_live ? after
		: async_live_first();
	async_coroutine_t *next = live_walk_pin(from, w->pass);
	/* released after pinning the next: freeing them may run destructors */
	if (after != NULL) {
		OBJ_RELEASE(&after->std);
	}
	OBJ_RELEASE(&co->std);
	return live_walk_at(w, next);
}

/* A worker whose context is done with: an arena stack goes back to the arena (the Zend fiber API
 * would unmap it), a stack of the Zend fiber API is destroyed by it — unless that already
 * happened (`destroyed`: the switch away from a dead Zend context destroys it, P3). */
static void worker_retire(async_worker_t *worker, bool destroyed)
{
	ASYNC_G(live_contexts)--;
	ASYNC_STACK_DEREGISTER(worker);
	if (worker->arena) {
		zend_observer_fiber_destroy_notify(&worker->ctx);
		async_stack_release(&worker->stack);
	} else if (!destroyed) {
		zend_fiber_destroy_context(&worker->ctx);
	}
	if (worker->vm_page != NULL) {
		efree(worker->vm_page);
	}
	efree(worker);
}

/* Forced unwinding at shutdown: a graceful-exit error runs the coroutine's finally blocks. */
static void coroutine_dtor_obj(zend_object *object)
{
	async_coroutine_t *co = ASYNC_CO_FROM_OBJ(object);
	zend_objects_destroy_object(object);

	if (ZEND_COROUTINE_IS_FINISHED(&co->coro) || ZEND_COROUTINE_IS_MAIN(&co->coro)) {
		if (co->coro.exception != NULL
			&& !ZEND_ASYNC_EVENT_HAS(&co->coro.event, ZEND_ASYNC_EVENT_F_EXCEPTION_HANDLED)
			&& !async_is_cancellation(co->coro.exception)) {
			/* The last handle went away and nobody observed the error (spec §8.2.3). */
			ZEND_ASYNC_EVENT_SET_EXCEPTION_HANDLED(&co->coro.event);
			async_scheduler_unhandled_exception(co, co->coro.exception);
		}
		return;
	}
	if (!ZEND_COROUTINE_IS_STARTED(&co->coro) || co->worker == NULL || CG(unclean_shutdown)) {
		return;
	}
	async_coroutine_cancel(&co->coro, zend_create_graceful_exit(), true, false);
	if (co->in_queue || co->coro.waker == NULL || co->coro.waker->status == ZEND_ASYNC_WAKER_QUEUED) {
		/* Run it now: the scheduler is gone by this point of the request. */
		GC_ADDREF(object);
		async_coroutine_start_or_resume(co);
		OBJ_RELEASE(object);
	}
}

static void coroutine_free_obj(zend_object *object)
{
	async_coroutine_t *co = ASYNC_CO_FROM_OBJ(object);

	if (co->worker != NULL) {
		/* Only after a fatal error: the C stack is dropped without unwinding. */
		co->worker->coroutine = NULL;
		worker_retire(co->worker, false);
		co->worker = NULL;
	}
	if (co->coro.extended_dispose != NULL) {
		co->coro.extended_dispose(&co->coro);
	}
	async_live_remove(co); /* freed unfinished, after a fatal error */
	if (co->coro.scope != NULL) { /* still in its scope: freed unfinished */
		async_scope_ops->forget_coroutine(&co->coro);
	}
	if (co->output.handlers != NULL) { /* its own ob_start() handlers, kept while switched out */
		async_output_discard(&co->output);
	}
	if (co->in_autoload != NULL) {
		async_autoload_free(&co->in_autoload);
	}
	if (co->clock != NULL) {
		async_clock_release(co->clock);
		co->clock = NULL;
	}
	if (co->coro.waker != NULL) { /* it waited at some point */
		zend_async_waker_destroy(&co->coro);
	}
	if (co->coro.event.callbacks.data != NULL) { /* awaited through the vector at some point */
		zend_async_callbacks_free(&co->coro.event);
	}
	if (co->coro.fcall != NULL) { /* never run */
		coroutine_release_call(co);
	}
	i_zval_ptr_dtor(&co->coro.result);
	if (co->coro.exception) {
		OBJ_RELEASE(co->coro.exception);
	}
	if (co->pending_cancel) {
		OBJ_RELEASE(co->pending_cancel);
	}
	if (co->finally_handlers) {
		zend_array_release(co->finally_handlers);
	}
	if (co->context) {
		OBJ_RELEASE(co->context);
	}
	if (co->coro.filename) {
		zend_string_release(co->coro.filename);
	}
	if (co->coro.switch_handlers) {
		efree(co->coro.switch_handlers->data);
		efree(co->coro.switch_handlers);
	}
	zend_object_std_dtor(object);
}

static HashTable *coroutine_get_gc(zend_object *object, zval **table, int *num)
{
	async_coroutine_t *co = ASYNC_CO_FROM_OBJ(object);
	zend_get_gc_buffer *buf = zend_get_gc_buffer_create();

	if (co->coro.fcall) {
		zend_get_gc_buffer_add_zval(buf, &co->coro.fcall->fci.function_name);
		for (uint32_t i = 0; i < co->coro.fcall->fci.param_count; i++) {
			zend_get_gc_buffer_add_zval(buf, &co->coro.fcall->fci.params[i]);
		}
	}
	zend_get_gc_buffer_add_zval(buf, &co->coro.result);
	if (co->coro.exception) {
		zend_get_gc_buffer_add_obj(buf, co->coro.exception);
	}
	if (co->context) {
		zend_get_gc_buffer_add_obj(buf, co->context);
	}
	if (co->finally_handlers) {
		zval *zv;
		ZEND_HASH_FOREACH_VAL(co->finally_handlers, zv) {
			zend_get_gc_buffer_add_zval(buf, zv);
		} ZEND_HASH_FOREACH_END();
	}

	/* Frames of a suspended coroutine, as zend_fiber_object_gc walks a suspended Fiber's (P20). */
	HashTable *last_sym = NULL;
	if (co->execute_data != NULL && ZEND_COROUTINE_SUSPENDED(&co->coro) && &co->coro != ZEND_ASYNC_CURRENT_COROUTINE) {
		for (zend_execute_data *ex = co->execute_data; ex != NULL && ex != co->stack_bottom; ex = ex->prev_execute_data) {
			if (ZEND_CALL_INFO(ex) & ZEND_CALL_GENERATOR) {
				continue;
			}
			HashTable *sym = zend_unfinished_execution_gc_ex(ex,
				ex->func && ZEND_USER_CODE(ex->func->type) ? ex->call : NULL, buf, false);
			if (sym) {
				if (last_sym) {
					zval *val;
					ZEND_HASH_FOREACH_VAL(last_sym, val) {
						if (Z_TYPE_P(val) == IS_INDIRECT) {
							val = Z_INDIRECT_P(val);
						}
						zend_get_gc_buffer_add_zval(buf, val);
					} ZEND_HASH_FOREACH_END();
				}
				last_sym = sym;
			}
		}
	}

	zend_get_gc_buffer_use(buf, table, num);
	return last_sym;
}

/* ---------------------------------------------------------------------------------------------
 * Contexts: the worker pool
 * ------------------------------------------------------------------------------------------- */

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
	if (!ASYNC_G(use_stack_arena) || !async_stack_arena_fits(size)) {
		/* (also a fiber.stack_size raised by ini_set() above the arena's size) */
		worker->arena = false;
		if (!ASYNC_FIBER_INIT_OK(zend_fiber_init_context(&worker->ctx, async_ce_coroutine, worker_entry, size))) {
			return false;
		}
		/* (Valgrind is told of the stack here too: a PHP built without its headers does not, and
		 * a switch between two stacks mapped close together then looks like a deep call.) */
		const async_zend_fiber_stack_t *zstack = (const async_zend_fiber_stack_t *) worker->ctx.stack;
		ASYNC_STACK_REGISTER(worker, zstack->pointer, zstack->size);
		return true;
	}
	if (!async_stack_acquire(&worker->stack, size, ASYNC_G(stack_guards))) {
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
	worker->ctx.kind = async_ce_coroutine;
	worker->ctx.function = worker_entry;
	worker->ctx.cleanup = NULL;
	worker->ctx.status = ZEND_FIBER_STATUS_INIT;
	zend_observer_fiber_init_notify(&worker->ctx);
	return true;
}

ZEND_COLD ZEND_NORETURN void async_worker_stack_overflowed(async_coroutine_t *co)
{
	char who[160];
	if (co != NULL && co->coro.filename != NULL) {
		snprintf(who, sizeof(who), "coroutine %u spawned at %s:%u", co->std.handle, ZSTR_VAL(co->coro.filename), co->coro.lineno);
	} else if (co != NULL) {
		snprintf(who, sizeof(who), "coroutine %u", co->std.handle);
	} else {
		snprintf(who, sizeof(who), "a finished coroutine");
	}
	async_stack_overflowed(who);
}

static async_worker_t *worker_acquire(void)
{
	async_worker_t *worker;
	while ((worker = ASYNC_G(free_workers)) != NULL) {
		ZEND_ASSERT(ASYNC_G(free_workers_count) > 0);
		ASYNC_G(free_workers) = worker->next_free;
		ASYNC_G(free_workers_count)--;
		worker->next_free = NULL;
		if (EXPECTED(async_worker_fits(worker))) {
			return worker;
		}
		worker_retire(worker, false); /* made before ini_set() raised fiber.stack_size */
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
void async_workers_rshutdown(void)
{
	async_worker_t *worker = ASYNC_G(free_workers);
	while (worker != NULL) {
		async_worker_t *next = worker->next_free;
		worker_retire(worker, false);
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
		coroutine_release_call(co);

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
				co->coro.exception = async_new_exception(async_ce_async_cancellation, "Coroutine cancelled");
				ZEND_COROUTINE_SET_CANCELLED(&co->coro);
			}
			zend_clear_exception();
		}
		co->body_done = true;
		async_output_end_own(&co->output); /* buffers left open are flushed, as at request end */
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
		 * coroutine (it goes with the worker: worker_retire()). */
		worker->vm_page = stack;
	} else {
		zend_vm_stack_destroy();
	}
	EG(vm_stack) = NULL;
	EG(current_execute_data) = NULL;
}

/* The context a worker whose coroutine `finished` just ended goes to: the loop's, or, by a direct
 * hand-off, the run queue's head (the coroutine that awaited it, typically: B ends -> A, one
 * switch). The hand-off is done here as async_coroutine_switch_out() does it, the finished one
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
	async_coroutine_t *next = async_scheduler_handoff_after_finish();
	if (next == NULL) {
		return worker->return_ctx;
	}
	async_coroutine_make_current(next, worker->return_ctx, &finished->output, &finished->in_autoload);
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
	/* Woken with a new coroutine bound by async_coroutine_start_or_resume() or a hand-off. */
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
		async_worker_check_stack(worker, co);
		worker->return_ctx = co->sched_ctx;
		co->worker = NULL;
		worker->coroutine = NULL;
		async_coroutine_finish(co); /* (its starter's reference keeps it) */
		coroutine_release_vm_stack(worker);
		async_worker_check_stack(worker, NULL);
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
	async_worker_check_stack(worker, co);
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

/* ---------------------------------------------------------------------------------------------
 * Switching in and out
 * ------------------------------------------------------------------------------------------- */

/* A fatal error ended the body (its worker is gone, its frames were never unwound): it is
 * finished as cancelled, so its waiters and its scope do not wait for it for ever, while the
 * fatal error goes on up to whoever runs the scheduler (the script, or the drain). */
static void coroutine_end_by_fatal(async_coroutine_t *co)
{
	if (ZEND_COROUTINE_IS_FINISHED(&co->coro)) {
		return;
	}
	co->body_done = true;
	if (co->finally_handlers != NULL) {
		zend_array_release(co->finally_handlers); /* it runs nothing more */
		co->finally_handlers = NULL;
	}
	if (co->coro.exception == NULL) {
		co->coro.exception = async_new_exception(async_ce_async_cancellation, "The coroutine ended with a fatal error");
	}
	ZEND_ASYNC_EVENT_SET_EXCEPTION_HANDLED(&co->coro.event);
	async_coroutine_finish(co);
}

zend_fiber_context *async_coroutine_bind_worker(async_coroutine_t *co)
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

/* No C stack for a coroutine's first run: it ends with an AsyncException naming the OS's reason
 * (the arena's mmap), or with the fiber API's own exception (no arena: it throws) as previous,
 * which must not stay thrown in the scheduler's context, where the next awaiter would get it. */
ZEND_COLD void async_coroutine_end_without_stack(async_coroutine_t *co, int err)
{
	zend_object *cause = EG(exception);
	if (cause != NULL) {
		GC_ADDREF(cause);
		zend_clear_exception();
	}
	char message[256];
	snprintf(message, sizeof(message), "Cannot allocate a C stack for the coroutine (%s%s; see vm.max_map_count and "
		"fiber.stack_size)", cause ? "the previous exception says why" : "mmap failed: ", cause ? "" : strerror(err));
	co->coro.exception = async_new_exception(async_ce_async_exception, message);
	if (cause != NULL) {
		zend_exception_set_previous(co->coro.exception, cause);
	}
	async_coroutine_finish(co);
}

/* The rare ends of a switch back into the loop's context (async_coroutine_start_or_resume()):
 * the coroutine suspended from inside a user Fiber, a worker died, or a fatal error came back. */
void async_coroutine_returned_slow(async_coroutine_t *last, uint8_t flags)
{
	if (async_coroutine_in_user_fiber(last) && !ZEND_COROUTINE_IS_FINISHED(&last->coro)) {
		/* P8: it suspended from inside a user Fiber; that Fiber is logically still running
		 * (its caller is this coroutine), so the engine must not treat it as suspended. */
		last->resume_ctx->status = ZEND_FIBER_STATUS_RUNNING;
	}

	async_worker_t *dying = ASYNC_G(dying_worker);
	if (dying != NULL) {
		/* A Zend context was destroyed by the switch, an arena one goes back to the arena; the
		 * struct is ours to free (P3). */
		ASYNC_G(dying_worker) = NULL;
		if (last->worker == dying) {
			last->worker = NULL;
		}
		worker_retire(dying, true);
	}
	if (flags & ZEND_FIBER_TRANSFER_FLAG_BAILOUT) {
		coroutine_end_by_fatal(last);
		zend_bailout();
	}
}

/* ---------------------------------------------------------------------------------------------
 * Completion and cancellation
 * ------------------------------------------------------------------------------------------- */

static void call_finally_handler(zval *handler, zend_object *coroutine)
{
	zval arg, retval;
	ZVAL_OBJ(&arg, coroutine);
	if (call_user_function(NULL, NULL, handler, &retval, 1, &arg) == SUCCESS) {
		zval_ptr_dtor(&retval);
	}
}

/* A finished coroutine whose get_gc would report nothing the GC could follow (its callable is
 * released, its result is not an array or object, it has no error, context nor finally
 * handlers; the class allows no dynamic properties). */
static zend_always_inline bool coroutine_holds_nothing_collectable(const async_coroutine_t *co)
{
	return co->coro.fcall == NULL && !Z_COLLECTABLE(co->coro.result) && co->coro.exception == NULL
		&& co->context == NULL && co->finally_handlers == NULL;
}

void async_coroutine_finish(async_coroutine_t *co)
{
	zend_coroutine_t *coro = &co->coro;
	if (ZEND_COROUTINE_IS_FINISHED(coro)) {
		return;
	}
	ZEND_ASYNC_EVENT_SET_CLOSED(&coro->event);
	ZEND_COROUTINE_FINISH(coro);
	if (co->spawned) {
		ZEND_ASYNC_DECREASE_COROUTINE_COUNT;
	}
	async_live_remove(co);

	if (coro->waker != NULL) {
		zend_async_waker_clean(coro);
	}
	if (co->pending_cancel) {
		OBJ_RELEASE(co->pending_cancel);
		co->pending_cancel = NULL;
		if (coro->exception == NULL) {
			/* A cancellation requested while it ran (its own scope's cancel(), say) and never
			 * delivered: it returned normally, so it is not cancelled — isCancelled() agrees
			 * with what await() gives. (One delivered and caught still counts.) */
			ZEND_ASYNC_EVENT_CLR(&coro->event, ZEND_COROUTINE_F_CANCELLED);
		}
	}
	if (coro->exception != NULL && instanceof_function(coro->exception->ce, async_ce_async_cancellation)) {
		ZEND_COROUTINE_SET_CANCELLED(coro);
	}

	if (co->awaiter_listed) {
		/* The first awaiter subscribed before any in the vector: it is woken first. */
		async_coroutine_wake_awaiter(co);
	}
	/* Most coroutines are awaited once, through the slot, or not at all: no call for an empty
	 * vector. */
	if (coro->event.callbacks.length != 0 || coro->event.notify_handler != NULL) {
		ZEND_ASYNC_CALLBACKS_NOTIFY(&coro->event, &coro->result, coro->exception);
	}

	if (co->finally_handlers != NULL) {
		/* After completion, in a coroutine of their own, queued after the waiters woke (they get
		 * the result before a handler's error could end the script); spawned while this one
		 * still counts in its scope, so the scope lives on for them. */
		zend_array *handlers = co->finally_handlers;
		co->finally_handlers = NULL;
		async_finally_run_later(coro->scope, handlers, &co->std, "Multiple exceptions in Coroutine finally handlers", NULL);
	}

	if (co->exit_requested) {
		async_scheduler_request_exit();
	} else if (coro->exception != NULL
		&& !ZEND_ASYNC_EVENT_HAS(&coro->event, ZEND_ASYNC_EVENT_F_EXCEPTION_HANDLED)
		&& !async_is_cancellation(coro->exception)) {
		/* §8.2 step 2: the scope's handlers, or fail-together up the tree. */
		if (async_scope_ops->handle_error(coro, coro->exception)) {
			ZEND_ASYNC_EVENT_SET_EXCEPTION_HANDLED(&coro->event);
		} else {
			/* Step 3, fire-and-forget: only the alive reference (and maybe the run queue's) is left. */
			uint32_t others = GC_REFCOUNT(&co->std) - (co->spawned ? 1 : 0) - (co->in_queue ? 1 : 0);
			if (others == 0) {
				ZEND_ASYNC_EVENT_SET_EXCEPTION_HANDLED(&coro->event);
				async_scheduler_unhandled_exception(co, coro->exception);
			}
		}
	}
	async_scope_ops->remove_coroutine(coro);

	if (coro->exception == NULL) {
		/* Its destructor has nothing left to do (no error to report, nothing to cancel): marked
		 * as run, the engine skips the call and the fiber-switch block around it. */
		GC_ADD_FLAGS(&co->std, IS_OBJ_DESTRUCTOR_CALLED);
	}

	/* A finished coroutine that holds nothing the cycle collector could follow cannot be in a
	 * cycle: marked so, the releases of the references still held on it (the alive one below, an
	 * awaiter's, its handle) do not buffer it as a possible root (a gc_possible_root() call now
	 * and a gc_remove_from_buffer() one when it is freed). getContext() takes the mark off. Not
	 * for one already buffered (its handle was dropped while it ran): nothing to save there. */
	if (GC_INFO(&co->std) == 0 && coroutine_holds_nothing_collectable(co)) {
		GC_ADD_FLAGS(&co->std, GC_NOT_COLLECTABLE);
	}

	/* The alive reference taken by spawn(). */
	if (co->spawned) {
		co->spawned = false;
		OBJ_RELEASE(&co->std);
	}
}

/* The cancellation to deliver, owned: the given one (a reference taken unless transferred) or
 * the default "Coroutine cancelled". */
static zend_object *coroutine_cancel_reason(zend_object *error, bool transfer_error)
{
	if (error == NULL) {
		return async_new_exception(async_ce_async_cancellation, "Coroutine cancelled");
	}
	if (!transfer_error) {
		GC_ADDREF(error);
	}
	return error;
}

/* A coroutine that never started completes as cancelled where it stands: it never runs. The first
 * reason stands when a request was already pending. Takes ownership of `error`. */
static void coroutine_cancel_unstarted(async_coroutine_t *co, zend_object *error)
{
	zend_coroutine_t *coroutine = &co->coro;
	ZEND_ASSERT(!ZEND_COROUTINE_IS_STARTED(coroutine) && !ZEND_COROUTINE_IS_MAIN(coroutine));
	if (co->pending_cancel != NULL) {
		OBJ_RELEASE(error);
		error = co->pending_cancel;
		co->pending_cancel = NULL;
	}
	ZEND_COROUTINE_SET_CANCELLED(coroutine);
	coroutine_release_call(co);
	coroutine->exception = error;
	co->body_done = true;
	GC_ADDREF(&co->std);
	async_coroutine_finish(co);
	OBJ_RELEASE(&co->std);
}

/* Coroutine::cancel() and TaskGroup::cancel() on a queued coroutine that has not started: the
 * request is recorded and the coroutine stays queued (isCancellationRequested() true, isCancelled()
 * false); it completes as cancelled, without running its callable, when the scheduler reaches it — TrueAsync's
 * order, which code may observe. Every other cancellation (disposal, shutdown, deadlock) completes
 * it at once. Takes ownership of `error` when transfer_error is true. */
void async_coroutine_request_cancel(zend_coroutine_t *coroutine, zend_object *error, bool transfer_error)
{
	async_coroutine_t *co = ASYNC_CO_FROM_CORO(coroutine);
	if (ZEND_COROUTINE_IS_STARTED(coroutine) || ZEND_COROUTINE_IS_MAIN(coroutine)
		|| ZEND_COROUTINE_IS_FINISHED(coroutine) || !co->in_queue || co->finally_helper) {
		async_coroutine_cancel(coroutine, error, transfer_error, false);
		return;
	}
	if (co->pending_cancel != NULL) {
		if (error != NULL && transfer_error) {
			OBJ_RELEASE(error);
		}
		return;
	}
	error = coroutine_cancel_reason(error, transfer_error);
	/* Its first run throws it before the callable is called (coroutine_entry), so finally
	 * handlers run in its own context as for any cancelled coroutine. */
	ZEND_COROUTINE_SET_CANCELLED(coroutine);
	co->pending_cancel = error;
}

/* Cancellation is cooperative: delivered at the coroutine's next suspension point (§8.3).
 * Takes ownership of `error` when transfer_error is true. */
void async_coroutine_cancel(zend_coroutine_t *coroutine, zend_object *error, bool transfer_error, bool is_safely)
{
	async_coroutine_t *co = ASYNC_CO_FROM_CORO(coroutine);
	bool forced = error != NULL && zend_is_graceful_exit(error);
	error = coroutine_cancel_reason(error, transfer_error);

	if (ZEND_COROUTINE_IS_FINISHED(coroutine) || (co->finally_helper && !forced)) {
		OBJ_RELEASE(error);
		return;
	}

	if (!ZEND_COROUTINE_IS_STARTED(coroutine) && !ZEND_COROUTINE_IS_MAIN(coroutine)) {
		if (co->pending_cancel != NULL && co->in_queue && !forced && !is_safely) {
			OBJ_RELEASE(error); /* already requested: it completes on its turn, first reason stands */
			return;
		}
		coroutine_cancel_unstarted(co, error);
		return;
	}

	zend_async_waker_t *pending_waker = coroutine->waker;
	bool undelivered = co->pending_cancel != NULL
		|| (pending_waker != NULL && pending_waker->status == ZEND_ASYNC_WAKER_QUEUED
			&& pending_waker->error != NULL && async_is_cancellation(pending_waker->error));
	if (undelivered && !forced && !is_safely) {
		/* Until it is delivered, the first cancellation's reason stands (as inside protect()). */
		OBJ_RELEASE(error);
		return;
	}

	if (co->protect_depth > 0 && !forced && !is_safely) {
		/* Deferred until protect() returns; later cancels are ignored. */
		if (co->pending_cancel == NULL) {
			co->pending_cancel = error;
		} else {
			OBJ_RELEASE(error);
		}
		return;
	}

	ZEND_COROUTINE_SET_CANCELLED(coroutine);
	zend_async_waker_t *waker = coroutine->waker;
	if (coroutine == ZEND_ASYNC_CURRENT_COROUTINE || waker == NULL
		|| waker->status == ZEND_ASYNC_WAKER_NO_STATUS || waker->status == ZEND_ASYNC_WAKER_RESULT) {
		/* Running (self-cancel) or about to run: thrown at its next suspension point. */
		if (co->pending_cancel != NULL) {
			OBJ_RELEASE(co->pending_cancel);
		}
		co->pending_cancel = error;
		return;
	}

	zend_async_waker_apply_error(waker, error, true, true);
	if (waker->status == ZEND_ASYNC_WAKER_WAITING) {
		ZEND_ASYNC_ENQUEUE_COROUTINE(coroutine);
	}
}

/* ---------------------------------------------------------------------------------------------
 * PHP methods
 * ------------------------------------------------------------------------------------------- */

#define THIS_CO() ASYNC_CO_FROM_OBJ(Z_OBJ_P(ZEND_THIS))

/* Completed as far as user code can tell: finally handlers already see the outcome. */
static bool co_completed(async_coroutine_t *co)
{
	return ZEND_COROUTINE_IS_FINISHED(&co->coro) || co->body_done;
}

ZEND_METHOD(Async_Coroutine, __construct)
{
	zend_throw_error(NULL, "The \"Async\\Coroutine\" class is reserved for internal use and cannot be manually instantiated");
}

ZEND_METHOD(Async_Coroutine, getId)
{
	ZEND_PARSE_PARAMETERS_NONE();
	RETURN_LONG(Z_OBJ_P(ZEND_THIS)->handle);
}

ZEND_METHOD(Async_Coroutine, asHiPriority)
{
	ZEND_PARSE_PARAMETERS_NONE();
	RETURN_OBJ_COPY(Z_OBJ_P(ZEND_THIS));
}

ZEND_METHOD(Async_Coroutine, getContext)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_coroutine_t *co = THIS_CO();
	RETURN_OBJ_COPY(async_coroutine_get_context(co));
}

ZEND_METHOD(Async_Coroutine, getResult)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_coroutine_t *co = THIS_CO();
	if (!co_completed(co)) {
		RETURN_NULL();
	}
	ZEND_ASYNC_EVENT_SET_RESULT_USED(&co->coro.event);
	RETURN_COPY(&co->coro.result);
}

ZEND_METHOD(Async_Coroutine, getException)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_coroutine_t *co = THIS_CO();
	if (!co_completed(co) || co->coro.exception == NULL) {
		RETURN_NULL();
	}
	ZEND_ASYNC_EVENT_SET_EXCEPTION_HANDLED(&co->coro.event);
	RETURN_OBJ_COPY(co->coro.exception);
}

ZEND_METHOD(Async_Coroutine, getTrace)
{
	zend_long options = DEBUG_BACKTRACE_PROVIDE_OBJECT;
	zend_long limit = 0;
	ZEND_PARSE_PARAMETERS_START(0, 2)
		Z_PARAM_OPTIONAL
		Z_PARAM_LONG(options)
		Z_PARAM_LONG(limit)
	ZEND_PARSE_PARAMETERS_END();

	async_coroutine_t *co = THIS_CO();
	if (co->execute_data == NULL || !ZEND_COROUTINE_SUSPENDED(&co->coro)
		|| ZEND_COROUTINE_IS_MAIN(&co->coro) || &co->coro == ZEND_ASYNC_CURRENT_COROUTINE) {
		RETURN_NULL();
	}
	EG(current_execute_data) = co->execute_data;
	zend_fetch_debug_backtrace(return_value, 0, (int) options, (int) limit);
	EG(current_execute_data) = execute_data;
}

/* "file:line" of a spawn, suspend or completion site; "unknown" when there is none. Shared with
 * future.c. */
zend_string *async_location_string(zend_string *file, uint32_t line)
{
	if (file == NULL) {
		return zend_string_init("unknown", sizeof("unknown") - 1, 0);
	}
	return zend_strpprintf(0, "%s:%u", ZSTR_VAL(file), line);
}

/* [file, line] of such a site, file null when unknown. */
void async_return_file_and_line(zval *return_value, zend_string *file, uint32_t line)
{
	array_init(return_value);
	if (file) {
		add_next_index_str(return_value, zend_string_copy(file));
	} else {
		add_next_index_null(return_value);
	}
	add_next_index_long(return_value, line);
}

ZEND_METHOD(Async_Coroutine, getSpawnFileAndLine)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_coroutine_t *co = THIS_CO();
	async_return_file_and_line(return_value, co->coro.filename, co->coro.lineno);
}

ZEND_METHOD(Async_Coroutine, getSpawnLocation)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_coroutine_t *co = THIS_CO();
	RETURN_STR(async_location_string(co->coro.filename, co->coro.lineno));
}

ZEND_METHOD(Async_Coroutine, getSuspendFileAndLine)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_coroutine_t *co = THIS_CO();
	zend_async_waker_t *w = co->coro.waker;
	async_return_file_and_line(return_value, w ? w->filename : NULL, w ? w->lineno : 0);
}

ZEND_METHOD(Async_Coroutine, getSuspendLocation)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_coroutine_t *co = THIS_CO();
	zend_async_waker_t *w = co->coro.waker;
	RETURN_STR(async_location_string(w ? w->filename : NULL, w ? w->lineno : 0));
}

ZEND_METHOD(Async_Coroutine, isStarted)
{
	ZEND_PARSE_PARAMETERS_NONE();
	RETURN_BOOL(ZEND_COROUTINE_IS_STARTED(&THIS_CO()->coro));
}

ZEND_METHOD(Async_Coroutine, isQueued)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_coroutine_t *co = THIS_CO();
	RETURN_BOOL(!ZEND_COROUTINE_IS_FINISHED(&co->coro) && co->in_queue);
}

ZEND_METHOD(Async_Coroutine, isRunning)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_coroutine_t *co = THIS_CO();
	RETURN_BOOL(ZEND_COROUTINE_IS_STARTED(&co->coro) && !co_completed(co));
}

ZEND_METHOD(Async_Coroutine, isSuspended)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_coroutine_t *co = THIS_CO();
	RETURN_BOOL(!co_completed(co) && ZEND_COROUTINE_SUSPENDED(&co->coro)
		&& &co->coro != ZEND_ASYNC_CURRENT_COROUTINE);
}

ZEND_METHOD(Async_Coroutine, isCancelled)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_coroutine_t *co = THIS_CO();
	RETURN_BOOL(ZEND_COROUTINE_IS_CANCELLED(&co->coro) && co_completed(co));
}

ZEND_METHOD(Async_Coroutine, isCancellationRequested)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_coroutine_t *co = THIS_CO();
	bool finished = co_completed(co);
	RETURN_BOOL((ZEND_COROUTINE_IS_CANCELLED(&co->coro) && !finished) || (!finished && co->pending_cancel != NULL));
}

ZEND_METHOD(Async_Coroutine, isCompleted)
{
	ZEND_PARSE_PARAMETERS_NONE();
	RETURN_BOOL(co_completed(THIS_CO()));
}

ZEND_METHOD(Async_Coroutine, getAwaitingInfo)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_coroutine_t *co = THIS_CO();
	array_init(return_value);
	zend_async_waker_t *w = co->coro.waker;
	if (w == NULL || ZEND_COROUTINE_IS_FINISHED(&co->coro)) {
		return;
	}
	for (uint32_t i = 0; i < w->length; i++) {
		zend_async_event_t *ev = w->triggers[i].event;
		if (ev->info) {
			add_next_index_str(return_value, ev->info(ev));
		} else {
			add_next_index_string(return_value, "event");
		}
	}
}

ZEND_METHOD(Async_Coroutine, cancel)
{
	zend_object *error = NULL;
	ZEND_PARSE_PARAMETERS_START(0, 1)
		Z_PARAM_OPTIONAL
		Z_PARAM_OBJ_OF_CLASS_OR_NULL(error, async_ce_async_cancellation)
	ZEND_PARSE_PARAMETERS_END();

	async_coroutine_request_cancel(&THIS_CO()->coro, error, false);
}

ZEND_METHOD(Async_Coroutine, finally)
{
	zval *callback;
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_OBJECT_OF_CLASS(callback, zend_ce_closure)
	ZEND_PARSE_PARAMETERS_END();

	async_coroutine_t *co = THIS_CO();
	if (ZEND_COROUTINE_IS_FINISHED(&co->coro)) {
		call_finally_handler(callback, &co->std);
		return;
	}
	if (co->finally_handlers == NULL) {
		co->finally_handlers = zend_new_array(1);
	}
	Z_ADDREF_P(callback);
	zend_hash_next_index_insert(co->finally_handlers, callback);
}

async_coroutine_t *async_coroutine_protect(void)
{
	ZEND_ASSERT(ZEND_ASYNC_G(coroutine) != NULL && "protect needs a current coroutine");
	async_coroutine_t *co = ASYNC_CO_FROM_CORO(ZEND_ASYNC_G(coroutine));
	GC_ADDREF(&co->std);
	co->protect_depth++;
	ZEND_COROUTINE_SET_PROTECTED(&co->coro);
	return co;
}

zend_object *async_coroutine_unprotect(async_coroutine_t *co, bool deliver)
{
	zend_object *error = NULL;
	/* A deadlock or a graceful shutdown lifts every protection (depth 0) while the closure runs:
	 * nothing is left to end then. */
	if (co->protect_depth > 0 && --co->protect_depth == 0) {
		ZEND_COROUTINE_CLR_PROTECTED(&co->coro);
		if (deliver && co->pending_cancel != NULL && !ZEND_COROUTINE_IS_FINISHED(&co->coro)) {
			error = co->pending_cancel;
			co->pending_cancel = NULL;
			ZEND_COROUTINE_SET_CANCELLED(&co->coro);
		}
	}
	OBJ_RELEASE(&co->std); /* the current coroutine: its own reference keeps it */
	return error;
}

/* per-process: set once at MINIT by context.c */
static async_context_factory_fn context_factory;

void async_coroutine_set_context_factory(async_context_factory_fn factory)
{
	context_factory = factory;
}

zend_object *async_coroutine_get_context(async_coroutine_t *co)
{
	if (co->context == NULL) {
		ZEND_ASSERT(context_factory != NULL && "context.c registers the factory at MINIT");
		co->context = context_factory();
		/* It may hold the coroutine (a value set in it): the cycle collector must see it again. */
		GC_DEL_FLAGS(&co->std, GC_NOT_COLLECTABLE);
	}
	return co->context;
}

zend_result async_coroutine_minit(void)
{
	async_ce_coroutine = register_class_Async_Coroutine(async_ce_completable);
	async_ce_coroutine->create_object = coroutine_create_object;

	async_object_handlers_init(&coroutine_handlers, XtOffsetOf(async_coroutine_t, std), coroutine_dtor_obj, coroutine_free_obj, coroutine_get_gc);
	async_class_register(ZEND_ASYNC_CLASS_COROUTINE, async_ce_coroutine);
	return SUCCESS;
}
