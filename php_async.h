/* ext-async: module entry, globals and the declarations shared between the extension's files. */
#ifndef PHP_ASYNC_H
#define PHP_ASYNC_H

#include "php.h"
#include "zend_fibers.h"
#include "zend_async_API.h"
#include <uv.h>

#define PHP_ASYNC_VERSION "0.1.0"
#define PHP_ASYNC_NAME "async"

extern zend_module_entry async_module_entry;
#define phpext_async_ptr &async_module_entry

/* P5: zend_fiber_init_context() returns bool on 8.2 and zend_result from 8.3 on. */
#if PHP_VERSION_ID >= 80300
# define ASYNC_FIBER_INIT_OK(call) ((call) == SUCCESS)
#else
# define ASYNC_FIBER_INIT_OK(call) (call)
#endif

/* 8.4 allows switching inside destructors; 8.2/8.3 block it (P9). */
#if PHP_VERSION_ID >= 80400
# define ASYNC_SWITCH_BLOCKED() false
#else
# define ASYNC_SWITCH_BLOCKED() zend_fiber_switch_blocked()
#endif

typedef struct _async_coroutine_s async_coroutine_t;
typedef struct _async_worker_s async_worker_t;

/* A pooled C context. The fiber context must stay the first member (it is found from
 * EG(current_fiber_context)). */
struct _async_worker_s {
	zend_fiber_context ctx;
	async_coroutine_t *coroutine;   /* bound coroutine, NULL while parked */
	zend_fiber_context *return_ctx; /* where the worker goes when it parks or dies */
	async_worker_t *next_free;
	bool dead;
};

struct _async_coroutine_s {
	zend_coroutine_t coro;            /* first: the event sits at offset 0 */
	async_worker_t *worker;           /* the C context running this coroutine */
	zend_fiber_context *resume_ctx;   /* the context that suspended (may be a user Fiber's) */
	zend_fiber_context *sched_ctx;    /* the context that resumed it last */
	zend_execute_data *execute_data;  /* top frame while suspended */
	zend_execute_data *stack_bottom;  /* dummy bottom frame */
	zend_object *pending_cancel;      /* self-cancel or deferred (protect) cancellation */
	uint32_t protect_depth;
	bool in_queue;
	bool in_scope;                    /* counted in coro.scope, holding a reference to it */
	bool spawned;                     /* holds the alive reference and a coroutine count */
	bool exit_requested;              /* body ended with exit() */
	bool body_done;                   /* the body is over: finally handlers see it as completed */
	zend_array *finally_handlers;
	zend_object *context;             /* Async\Context, lazily */
	zend_object std;
};

#define ASYNC_CO_FROM_OBJ(obj) ((async_coroutine_t *) ((char *) (obj) - XtOffsetOf(async_coroutine_t, std)))
#define ASYNC_CO_FROM_CORO(c)  ((async_coroutine_t *) (c))
#define ASYNC_CO_OBJ(co)       (&(co)->std)

typedef struct {
	zend_coroutine_t **data;
	uint32_t head, length, capacity;
} async_run_queue_t;

ZEND_BEGIN_MODULE_GLOBALS(async)
	/* INI */
	bool debug_deadlock;
	zend_long vm_stack_size;
	zend_long context_pool_size;
	zend_long max_contexts;
	zend_long schedule_seed;
	/* scheduler */
	async_run_queue_t run_queue;
	zend_async_microtask_t **microtasks;
	uint32_t microtasks_length, microtasks_capacity;
	HashTable coroutines;            /* live coroutines by handle */
	async_coroutine_t *main;
	bool launched;
	bool drain_registered;
	bool main_finished;
	bool main_resumed;               /* the run loop popped the main coroutine */
	bool in_drain;
	bool exit_requested;
	uint64_t rng_state;
	zend_ulong coroutines_total;
	/* contexts */
	async_worker_t *free_workers;
	uint32_t free_workers_count;
	uint32_t live_contexts;
	/* reactor */
	uv_loop_t *loop;
	HashTable *fd_polls;             /* descriptor -> its shared poll (reactor_poll.c) */
ZEND_END_MODULE_GLOBALS(async)

ZEND_EXTERN_MODULE_GLOBALS(async)
#define ASYNC_G(v) ZEND_MODULE_GLOBALS_ACCESSOR(async, v)

/* classes */
extern zend_class_entry *async_ce_awaitable;
extern zend_class_entry *async_ce_completable;
extern zend_class_entry *async_ce_coroutine;
extern zend_class_entry *async_ce_context;
extern zend_class_entry *async_ce_cancellation;
extern zend_class_entry *async_ce_async_cancellation;
extern zend_class_entry *async_ce_operation_canceled;
extern zend_class_entry *async_ce_deadlock_error;
extern zend_class_entry *async_ce_async_exception;
extern zend_class_entry *async_ce_timeout_exception;
extern zend_class_entry *async_ce_composite_exception;
extern zend_class_entry *async_ce_pool_exception;
extern zend_class_entry *async_ce_service_unavailable;
extern zend_class_entry *async_ce_context_exception;
extern zend_class_entry *async_ce_future;

/* exceptions.c */
void async_register_exceptions(void);
zend_class_entry *async_get_class_ce(zend_async_class type);
zend_object *async_new_exception(zend_class_entry *ce, const char *message);
ZEND_COLD void async_throw(zend_class_entry *ce, const char *format, ...) ZEND_ATTRIBUTE_FORMAT(printf, 2, 3);
bool async_is_cancellation(zend_object *ex);

/* coroutine.c */
void async_register_coroutine_class(void);
async_coroutine_t *async_coroutine_new(void);
void async_coroutine_start_or_resume(async_coroutine_t *co);
void async_coroutine_finish(async_coroutine_t *co);
void async_coroutine_cancel(zend_coroutine_t *coroutine, zend_object *error, bool transfer_error, bool is_safely);
void async_coroutine_run_finally_handlers(async_coroutine_t *co);
void async_contexts_shutdown(void);
zend_string *async_coroutine_info(zend_async_event_t *event);
zend_string *async_location_string(zend_string *file, uint32_t line);
void async_return_file_and_line(zval *return_value, zend_string *file, uint32_t line);

/* scheduler.c */
void async_scheduler_register(void);
void async_scheduler_rinit(void);
void async_scheduler_request_startup(void);
void async_scheduler_rshutdown(void);
void async_scheduler_launch(void);
bool async_scheduler_enqueue(zend_coroutine_t *coroutine);
void async_scheduler_suspend(bool from_main);
void async_scheduler_unhandled_exception(async_coroutine_t *co, zend_object *exception);
void async_scheduler_request_exit(void);
void async_scheduler_graceful_shutdown(void);
bool async_can_suspend(void);
zend_coroutine_t *async_spawn(zend_async_scope_t *scope, zend_object *provider, int32_t priority);

/* libuv_reactor.c */
void async_reactor_register(void);
void async_reactor_rshutdown(void);

/* context.c */
void async_register_context_class(void);
zend_object *async_context_new_object(void);
/* Links a scope's Context to its scope for find()/get()/has() through the ancestors. */
void async_context_set_scope(zend_object *context, zend_async_scope_t *scope);

/* scope.c: see scope.h */
void async_register_scope_class(void);

/* pool.c */
extern zend_class_entry *async_ce_pool;
extern zend_class_entry *async_ce_circuit_breaker;
extern zend_class_entry *async_ce_circuit_breaker_state;
extern zend_class_entry *async_ce_circuit_breaker_strategy;
void async_register_pool_class(void);
void async_pool_api_register(void);

/* channel.c (more in channel.h) */
void async_register_channel_class(void);
/* Deadlock layer 1 (spec §8.5): closes soft-timeout channels with a blocked party; true if any. */
bool async_channels_resolve_deadlock(void);

/* future.c (the C helpers are in future.h): Future, FutureState, Timeout, timeout(), new_future */
void async_register_future(void);

/* await_all.c: Async\await_all() and the rest of the await_* family */
void async_register_await(void);

/* sleep.c */
void async_sleep_hooks_install(void);
void async_sleep_hooks_uninstall(void);

/* sockets_hooks.c (ext/sockets; nothing happens when it is not loaded) */
void async_sockets_hooks_install(void);
void async_sockets_hooks_uninstall(void);
void async_sockets_hooks_rinit(void);

/* Async\await() in C: the result, or the awaitable's (or token's) exception thrown. */
void async_await(zend_object *awaitable, zend_object *cancellation, zval *return_value);

/* A cancellation token fired while waiting: the wait ends with OperationCanceledException whose
 * previous is the token's error. The first is a waker callback, the second throws at once for a
 * token that had already fired. */
void async_token_fired(zend_async_event_t *event, zend_async_event_callback_t *callback, void *result, zend_object *exception);
void async_throw_token_fired(zend_async_event_t *token);

/* Wait for `ms` milliseconds in the current coroutine; false with an exception on failure. */
bool async_wait_ms(zend_ulong ms, zend_ulong ns);

#endif /* PHP_ASYNC_H */
