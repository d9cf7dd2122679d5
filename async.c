/* async.c — module entry, INI, and the Async\ functions. */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include "php_async.h"
#include "scope.h"
#include "php_ini.h"
#include "ext/standard/info.h"
#include "zend_exceptions.h"
#include "zend_closures.h"
#include "zend_interfaces.h"
#include "async_arginfo.h"
#include "task_group.h"
#include "misc.h"
#include "async_net.h"
#include "async_dns.h"

ZEND_DECLARE_MODULE_GLOBALS(async)

zend_class_entry *async_ce_awaitable;
zend_class_entry *async_ce_completable;

/* The Awaitable family is implemented by the runtime's own classes only: a user class could not
 * carry the event the scheduler waits on. */
static int awaitable_implemented(zend_class_entry *interface, zend_class_entry *class_type)
{
	if (class_type->type == ZEND_USER_CLASS) {
		zend_error_noreturn(E_ERROR, "Class %s cannot implement interface %s: it is reserved for the async runtime's classes",
			ZSTR_VAL(class_type->name), ZSTR_VAL(interface->name));
	}
	return SUCCESS;
}

/* Sizes are bounded so a typo cannot make every coroutine allocate megabytes. */
static ZEND_INI_MH(OnUpdateVmStackSize)
{
	zend_long size = zend_ini_parse_quantity_warn(new_value, entry->name);
	if (size < 1024 || size > 16 * 1024 * 1024) {
		return FAILURE;
	}
	return OnUpdateLong(entry, new_value, mh_arg1, mh_arg2, mh_arg3, stage);
}

PHP_INI_BEGIN()
	STD_PHP_INI_BOOLEAN("async.debug_deadlock", "1", PHP_INI_ALL, OnUpdateBool, debug_deadlock, zend_async_globals, async_globals)
	STD_PHP_INI_ENTRY("async.vm_stack_size", "4096", PHP_INI_ALL, OnUpdateVmStackSize, vm_stack_size, zend_async_globals, async_globals)
	STD_PHP_INI_ENTRY("async.context_pool_size", "128", PHP_INI_ALL, OnUpdateLong, context_pool_size, zend_async_globals, async_globals)
	STD_PHP_INI_ENTRY("async.max_contexts", "0", PHP_INI_ALL, OnUpdateLong, max_contexts, zend_async_globals, async_globals)
	STD_PHP_INI_ENTRY("async.schedule_seed", "0", PHP_INI_ALL, OnUpdateLong, schedule_seed, zend_async_globals, async_globals)
PHP_INI_END()

/* P4: every live C stack costs two memory maps (stack + guard page); leave room for the heap. */
static zend_long default_max_contexts(void)
{
	zend_long max_map_count = 65530;
	FILE *f = fopen("/proc/sys/vm/max_map_count", "r");
	if (f != NULL) {
		long v;
		if (fscanf(f, "%ld", &v) == 1 && v > 0) {
			max_map_count = v;
		}
		fclose(f);
	}
	zend_long reserve = max_map_count / 8 > 4096 ? max_map_count / 8 : 4096;
	zend_long cap = (max_map_count - reserve) / 2;
	return cap > 64 ? cap : 64;
}

/* ---------------------------------------------------------------------------------------------
 * Waiting helpers
 * ------------------------------------------------------------------------------------------- */

static zend_coroutine_t *current_or_launch(void)
{
	if (ZEND_ASYNC_G(coroutine) == NULL) {
		async_scheduler_launch();
	}
	return ZEND_ASYNC_G(coroutine);
}

bool async_wait_ms(zend_ulong ms, zend_ulong ns)
{
	if (!async_can_suspend()) {
		/* P9: no switching here; block the process as PHP would. */
		zend_ulong us = ms * 1000 + ns / 1000;
		while (us >= 1000000) {
			usleep(999999);
			us -= 999999;
		}
		usleep((useconds_t) us);
		return true;
	}

	zend_coroutine_t *coro = current_or_launch();
	zend_async_waker_t *waker = zend_async_waker_new(coro);
	if (ms == 0 && ns == 0) {
		async_scheduler_enqueue(coro);
	} else {
		zend_async_timer_event_t *timer = ZEND_ASYNC_NEW_TIMER_EVENT_NS(ms, ns, false);
		if (timer == NULL || !zend_async_resume_when(coro, &timer->base, true, zend_async_waker_callback_resolve, NULL)) {
			zend_async_waker_clean(coro);
			return false;
		}
	}
	(void) waker;
	async_scheduler_suspend(false);
	zend_async_waker_clean(coro);
	return !EG(exception);
}

/* The token fired: the wait ends with OperationCanceledException, the token's error as previous. */
void async_token_fired(zend_async_event_t *event, zend_async_event_callback_t *callback, void *result, zend_object *exception)
{
	zend_coroutine_event_callback_t *cb = (zend_coroutine_event_callback_t *) callback;
	zend_async_waker_t *waker = cb->coroutine->waker;
	(void) result;
	if (waker == NULL || waker->status != ZEND_ASYNC_WAKER_WAITING) {
		return;
	}
	if (exception != NULL) {
		ZEND_ASYNC_EVENT_SET_EXCEPTION_HANDLED(event);
	}
	waker->triggered_event = event;
	zend_object *error = async_new_exception(async_ce_operation_canceled, "Operation has been cancelled");
	if (exception != NULL) {
		GC_ADDREF(exception);
		zend_exception_set_previous(error, exception);
	}
	zend_async_waker_apply_error(waker, error, true, true);
	ZEND_ASYNC_ENQUEUE_COROUTINE(cb->coroutine);
}

void async_throw_token_fired(zend_async_event_t *token)
{
	zend_object *previous = NULL;
	zval ignored;
	ZVAL_UNDEF(&ignored);
	if (token->replay) {
		token->replay(token, NULL, &ignored, &previous);
	}
	zval_ptr_dtor(&ignored);
	zend_object *error = async_new_exception(async_ce_operation_canceled, "Operation has been cancelled");
	if (previous) {
		ZEND_ASYNC_EVENT_SET_EXCEPTION_HANDLED(token);
		zend_exception_set_previous(error, previous);
	}
	zend_throw_exception_internal(error);
}

/* Replays a finished awaitable: its result, or its exception thrown again (idempotent). */
static void await_replay(zend_async_event_t *event, zval *return_value)
{
	zend_object *exception = NULL;
	ZEND_ASYNC_EVENT_SET_RESULT_USED(event);
	ZEND_ASYNC_EVENT_SET_EXCEPTION_HANDLED(event);
	if (event->replay == NULL) {
		RETURN_NULL();
	}
	event->replay(event, NULL, return_value, &exception);
	if (exception != NULL) {
		zval_ptr_dtor(return_value);
		ZVAL_NULL(return_value);
		zend_throw_exception_internal(exception);
	}
}

void async_await(zend_object *awaitable, zend_object *cancellation, zval *return_value)
{
	zend_async_event_t *event = ZEND_ASYNC_OBJECT_TO_EVENT(awaitable);
	zend_async_event_t *token = cancellation ? ZEND_ASYNC_OBJECT_TO_EVENT(cancellation) : NULL;

	if (ZEND_ASYNC_EVENT_IS_CLOSED(event)) {
		await_replay(event, return_value);
		return;
	}
	if (token != NULL && ZEND_ASYNC_EVENT_IS_CLOSED(token)) {
		async_throw_token_fired(token);
		return;
	}

	zend_coroutine_t *coro = current_or_launch();
	if (!async_can_suspend()) {
		async_throw(async_ce_async_exception, ZEND_ASYNC_G(in_scheduler_context)
			? "The operation cannot be executed in the scheduler context"
			: "Cannot await inside a destructor: PHP " PHP_VERSION " forbids switching coroutines there");
		return;
	}

	ZEND_ASYNC_EVENT_SET_RESULT_USED(event);
	ZEND_ASYNC_EVENT_SET_EXCEPTION_HANDLED(event);
	zend_async_waker_new(coro);
	if (!zend_async_resume_when(coro, event, false, zend_async_waker_callback_resolve, NULL)
		|| (token != NULL && !zend_async_resume_when(coro, token, false, async_token_fired, NULL))) {
		zend_async_waker_clean(coro);
		return;
	}

	async_scheduler_suspend(false);
	if (!EG(exception) && coro->waker != NULL) {
		if (Z_TYPE(coro->waker->result) != IS_UNDEF) {
			ZVAL_COPY(return_value, &coro->waker->result);
		} else {
			ZVAL_NULL(return_value);
		}
	}
	zend_async_waker_clean(coro);
}

/* ---------------------------------------------------------------------------------------------
 * Functions
 * ------------------------------------------------------------------------------------------- */

ZEND_FUNCTION(Async_spawn)
{
	zend_fcall_info fci;
	zend_fcall_info_cache fcc;
	zval *args = NULL;
	uint32_t args_count = 0;
	HashTable *named_args = NULL;

	ZEND_PARSE_PARAMETERS_START(1, -1)
		Z_PARAM_FUNC(fci, fcc)
		Z_PARAM_VARIADIC_WITH_NAMED(args, args_count, named_args)
	ZEND_PARSE_PARAMETERS_END();

	zend_coroutine_t *coro = async_spawn_call(NULL, NULL, &fci, &fcc, args, args_count, named_args);
	if (coro == NULL) {
		RETURN_THROWS();
	}
	/* The creation reference is the caller's: it becomes the returned handle. */
	RETURN_OBJ(ZEND_ASYNC_EVENT_TO_OBJECT(&coro->event));
}

ZEND_FUNCTION(Async_suspend)
{
	ZEND_PARSE_PARAMETERS_NONE();
	if (ZEND_ASYNC_G(coroutine) == NULL) {
		return; /* nothing to yield to before the scheduler exists */
	}
	if (!async_can_suspend()) {
		return;
	}
	zend_coroutine_t *coro = ZEND_ASYNC_G(coroutine);
	zend_async_waker_t *waker = coro->waker;
	if (waker == NULL || waker->length != 0 || waker->error != NULL) {
		waker = zend_async_waker_new(coro);
	}
	/* A yield waits on nothing: a bare waiting waker, then straight into the queue. */
	waker->status = ZEND_ASYNC_WAKER_WAITING;
	async_scheduler_enqueue(coro);
	async_scheduler_suspend(false);
	if (coro->waker->length != 0) {
		zend_async_waker_clean(coro);
	}
}

ZEND_FUNCTION(Async_await)
{
	zend_object *awaitable, *cancellation = NULL;
	ZEND_PARSE_PARAMETERS_START(1, 2)
		Z_PARAM_OBJ_OF_CLASS(awaitable, async_ce_completable)
		Z_PARAM_OPTIONAL
		Z_PARAM_OBJ_OF_CLASS_OR_NULL(cancellation, async_ce_completable)
	ZEND_PARSE_PARAMETERS_END();

	async_await(awaitable, cancellation, return_value);
}

ZEND_FUNCTION(Async_delay)
{
	zend_long ms;
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_LONG(ms)
	ZEND_PARSE_PARAMETERS_END();
	if (ms < 0) {
		zend_argument_value_error(1, "must be greater than or equal to 0");
		RETURN_THROWS();
	}
	async_wait_ms((zend_ulong) ms, 0);
}

ZEND_FUNCTION(Async_protect)
{
	zval *closure;
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_OBJECT_OF_CLASS(closure, zend_ce_closure)
	ZEND_PARSE_PARAMETERS_END();

	async_coroutine_t *co = ASYNC_CO_FROM_CORO(current_or_launch());
	GC_ADDREF(&co->std);
	co->protect_depth++;
	ZEND_COROUTINE_SET_PROTECTED(&co->coro);
	call_user_function(NULL, NULL, closure, return_value, 0, NULL);
	if (Z_ISREF_P(return_value)) {
		/* A by-reference closure: protect() itself returns by value. */
		zend_unwrap_reference(return_value);
	}
	if (--co->protect_depth == 0) {
		ZEND_COROUTINE_CLR_PROTECTED(&co->coro);
		if (co->pending_cancel != NULL && !ZEND_COROUTINE_IS_FINISHED(&co->coro)) {
			/* The deferred cancellation wins over the closure's value. */
			zend_object *error = co->pending_cancel;
			co->pending_cancel = NULL;
			ZEND_COROUTINE_SET_CANCELLED(&co->coro);
			zval_ptr_dtor(return_value);
			ZVAL_NULL(return_value);
			zend_throw_exception_internal(error);
		}
	}
	OBJ_RELEASE(&co->std);
}

ZEND_FUNCTION(Async_current_coroutine)
{
	ZEND_PARSE_PARAMETERS_NONE();
	zend_coroutine_t *coro = ZEND_ASYNC_G(coroutine);
	if (coro == NULL) {
		async_throw(async_ce_async_exception, "The current coroutine is not defined");
		RETURN_THROWS();
	}
	RETURN_OBJ_COPY(ZEND_ASYNC_EVENT_TO_OBJECT(&coro->event));
}

ZEND_FUNCTION(Async_coroutine_context)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_coroutine_t *co = ASYNC_CO_FROM_CORO(current_or_launch());
	if (co->context == NULL) {
		co->context = async_context_new_object();
	}
	RETURN_OBJ_COPY(co->context);
}

ZEND_FUNCTION(Async_get_coroutines)
{
	ZEND_PARSE_PARAMETERS_NONE();
	if (!ASYNC_G(launched)) {
		RETURN_EMPTY_ARRAY();
	}
	RETURN_ARR(ZEND_ASYNC_GET_COROUTINES());
}

/* ---------------------------------------------------------------------------------------------
 * Module
 * ------------------------------------------------------------------------------------------- */

static PHP_GINIT_FUNCTION(async)
{
#if defined(COMPILE_DL_ASYNC) && defined(ZTS)
	ZEND_TSRMLS_CACHE_UPDATE();
#endif
	memset(async_globals, 0, sizeof(*async_globals));
}

static PHP_MINIT_FUNCTION(async)
{
	REGISTER_INI_ENTRIES();
	if (ASYNC_G(max_contexts) == 0) {
		ASYNC_G(max_contexts) = default_max_contexts();
	}

	async_ce_awaitable = register_class_Async_Awaitable();
	async_ce_awaitable->interface_gets_implemented = awaitable_implemented;
	async_ce_completable = register_class_Async_Completable(async_ce_awaitable);
	async_ce_completable->interface_gets_implemented = awaitable_implemented;
	async_register_exceptions();
	async_register_context_class();
	async_register_scope_class();
	async_register_coroutine_class();
	async_register_pool_class();
	async_register_channel_class();
	async_register_task_group_classes();
	async_register_iterate_function();
	async_register_future(); /* classes, timeout() and the scheduler table's new_future slot */
	async_register_await();  /* the await_* family */

	async_scheduler_register();
	async_reactor_register();
	async_register_misc(); /* after the reactor: it adds the signal slot */
	async_dns_reactor_register();
	async_poll_register();
	async_io_register();
	async_pool_api_register();
	async_sleep_hooks_install();
	async_dns_hooks_install();
	async_net_transports_install();
	async_net_functions_install();
	async_sockets_hooks_install();
	return SUCCESS;
}

static PHP_MSHUTDOWN_FUNCTION(async)
{
	async_net_functions_uninstall();
	async_net_transports_uninstall();
	async_sleep_hooks_uninstall();
	async_dns_hooks_uninstall();
	async_sockets_hooks_uninstall();
	zend_async_api_unregister_all();
	UNREGISTER_INI_ENTRIES();
	return SUCCESS;
}

static PHP_RINIT_FUNCTION(async)
{
#if defined(COMPILE_DL_ASYNC) && defined(ZTS)
	ZEND_TSRMLS_CACHE_UPDATE();
#endif
	async_scheduler_rinit();
	async_scheduler_request_startup();
	async_sockets_hooks_rinit();
	return SUCCESS;
}

static PHP_RSHUTDOWN_FUNCTION(async)
{
	async_scheduler_rshutdown();
	async_contexts_shutdown();
	async_misc_rshutdown(); /* before the reactor: signal waits release their events */
	async_dns_rshutdown();
	async_poll_rshutdown();
	async_reactor_rshutdown();
	return SUCCESS;
}

static PHP_MINFO_FUNCTION(async)
{
	char libuv[32];
	snprintf(libuv, sizeof(libuv), "%s", uv_version_string());
	php_info_print_table_start();
	php_info_print_table_row(2, "Module", "async");
	php_info_print_table_row(2, "Version", PHP_ASYNC_VERSION);
	php_info_print_table_row(2, "ABI", ZEND_ASYNC_API);
	php_info_print_table_row(2, "LibUv Reactor", "Enabled");
	php_info_print_table_row(2, "libuv version", libuv);
	php_info_print_table_end();
	DISPLAY_INI_ENTRIES();
}

zend_module_entry async_module_entry = {
	STANDARD_MODULE_HEADER,
	PHP_ASYNC_NAME,
	ext_functions,
	PHP_MINIT(async),
	PHP_MSHUTDOWN(async),
	PHP_RINIT(async),
	PHP_RSHUTDOWN(async),
	PHP_MINFO(async),
	PHP_ASYNC_VERSION,
	PHP_MODULE_GLOBALS(async),
	PHP_GINIT(async),
	NULL,
	NULL,
	STANDARD_MODULE_PROPERTIES_EX
};

#ifdef COMPILE_DL_ASYNC
# ifdef ZTS
ZEND_TSRMLS_CACHE_DEFINE()
# endif
ZEND_GET_MODULE(async)
#endif
