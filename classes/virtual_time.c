/*
 * classes/virtual_time.c — Async\Testing\virtual_time(): runs a task in a bubble of virtual time.
 *
 * The task runs in a new coroutine in a child scope of the caller's (the bubble), carrying a new
 * clock (clock.c); everything it spawns carries it too. The caller waits for the task like
 * await(), gets its result or its exception; whatever the task left running in the bubble is then
 * cancelled and awaited (its finally blocks still see the bubble's clock), and the clock ends.
 */
#include "php_async.h"
#include "core/core.h"
#include "classes/classes.h"
#include "zend_exceptions.h"
#include "virtual_time_arginfo.h"

/* What the task left running in the bubble is cancelled, and awaited. */
static void bubble_settle(zend_async_scope_t *scope)
{
	if (async__scope_is_finished(scope)) {
		return;
	}
	zend_object *error = async__new_exception(async__ce_async_cancellation,
		"Cancellation of the coroutines left running when virtual_time() returned");
	async__scope_cancel(scope, error, false);
	OBJ_RELEASE(error);
	async__scope_await_finished(scope, "virtual_time");
}

ZEND_FUNCTION(Async_Testing_virtual_time)
{
	async_task_args_t task;
	ZEND_PARSE_PARAMETERS_START(1, -1)
		ASYNC_PARAM_TASK(task)
	ZEND_PARSE_PARAMETERS_END();

	zend_async_scope_t *scope = async__scope_new(async__scope_current());
	zval handle;
	ZVAL_UNDEF(&handle);
	async__spawn_task(scope, NULL, &task, &handle);
	if (Z_TYPE(handle) != IS_OBJECT) {
		async__scope_close(scope);
		async__scope_release(scope);
		RETURN_THROWS();
	}
	async_coroutine_t *co = ASYNC_CO_FROM_OBJ(Z_OBJ(handle));
	async_clock_t *clock = async__clock_new(co->clock); /* the spawner's bubble, if any, is the parent */
	if (co->clock != NULL) {
		async__clock_release(co->clock);
	}
	co->clock = clock; /* the task takes the creation reference, this call one more */
	async__clock_addref(clock);
	clock->root = &co->coro;

	async__await(Z_OBJ(handle), NULL, return_value);

	/* The caller's exception (the task's, or a cancellation of the caller) waits while the
	 * bubble's leftovers are cancelled and awaited; an error one of them raises then is thrown
	 * only when the task succeeded. */
	zend_object *pending = EG(exception);
	if (pending != NULL) {
		GC_ADDREF(pending);
		zend_clear_exception();
	}
	bubble_settle(scope);
	if (pending != NULL) {
		/* the task's outcome wins over what a leftover raised while it was cancelled */
		if (EG(exception) != NULL) {
			zend_clear_exception();
		}
		zend_throw_exception_internal(pending);
	}
	clock->root = NULL;
	async__clock_end(clock);
	async__clock_release(clock);
	async__scope_close(scope);
	async__scope_release(scope);
	zval_ptr_dtor(&handle);
}

zend_result async__virtual_time_minit(void)
{
	zend_register_functions(NULL, ext_functions, NULL, MODULE_PERSISTENT);
	return SUCCESS;
}
