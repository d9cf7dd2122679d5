/*
 * hooks/cancel_on_top.c — a driver's exception never hides the coroutine's cancellation.
 *
 * A cancellation reaches a coroutine inside a driver's call as an exception left pending in
 * EG(exception) when one of the hooks' waits returns (a read of mysqlnd's socket, of phpredis's,
 * of SoapClient's http wrapper). The driver then sees its I/O fail and throws its own exception
 * (PDOException "2006 MySQL server has gone away", mysqli_sql_exception, RedisException,
 * SoapFault): PHP makes the pending cancellation that exception's previous, and the driver's
 * exception is what propagates. Code that catches it (every retry loop) would swallow the
 * cancellation, and the coroutine would go on as if it had never been cancelled.
 *
 * So the functions and methods of those extensions are wrapped: when one returns with an
 * exception whose chain holds a cancellation (or a forced exit) below the top, the cancellation
 * goes on top and what was thrown over it goes to the end of the cancellation's own chain of
 * previous exceptions: nothing is lost, and what propagates is the cancellation. The original
 * handler of each wrapped function is kept in a reserved slot of the function itself
 * (zend_get_resource_handle()), which PHP copies with the function into a user subclass or a
 * first-class callable, so one wrapper serves them all. ext/pgsql's and pdo_pgsql's calls into
 * libpq get the same order from hooks/pgsql_conn.c.
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif
#include "php_async.h"
#include "hooks/hooks.h"

#include "zend_exceptions.h"
#include "zend_extensions.h"

/* The extensions whose functions and classes' methods are wrapped (module names as PHP knows
 * them). Those that report a failed call only with a warning or a false (the stream functions,
 * curl) need nothing: the cancellation propagates as it is. */
static const char *const cot_modules[] = { "PDO", "pdo_mysql", "pdo_pgsql", "pdo_sqlite", "mysqli", "redis", "soap" };

/* per-process: the reserved slot of zend_internal_function where a wrapped function's original
 * handler is kept; -1 when PHP had none left (nothing is wrapped then) */
static int cot_slot = -1;

bool async__hook_is_cancellation(const zend_object *ex)
{
	return zend_is_graceful_exit(ex) || zend_is_unwind_exit(ex)
		|| instanceof_function(ex->ce, ZEND_ASYNC_GET_CE(ZEND_ASYNC_EXCEPTION_CANCELLATION));
}

zend_object *async__exception_previous(zend_object *ex)
{
	zval rv;
	zval *previous = zend_read_property_ex(zend_get_exception_base(ex), ex, ZSTR_KNOWN(ZEND_STR_PREVIOUS), 1, &rv);
	return Z_TYPE_P(previous) == IS_OBJECT ? Z_OBJ_P(previous) : NULL;
}

void async__exception_on_top(zend_object *ex)
{
	zend_object *top = EG(exception);
	if (top == NULL || top == ex) {
		return;
	}
	zend_object *above = top;
	for (int depth = 0; depth < 1000; depth++) {
		zend_object *previous = async__exception_previous(above);
		if (previous == NULL) {
			return; /* not in the chain (caught and replaced meanwhile): leave it */
		}
		if (previous == ex) {
			break;
		}
		above = previous;
	}
	GC_ADDREF(ex);
	zval null;
	ZVAL_NULL(&null);
	zend_update_property_ex(zend_get_exception_base(above), above, ZSTR_KNOWN(ZEND_STR_PREVIOUS), &null);
	EG(exception) = ex;
	zend_exception_set_previous(ex, top); /* takes the reference EG(exception) held */
}

/* `ex` itself, or the first cancellation of its chain; NULL when there is none. */
static zend_object *cot_first_cancellation(zend_object *ex)
{
	for (int depth = 0; ex != NULL && depth < 1000; ex = async__exception_previous(ex), depth++) {
		if (async__hook_is_cancellation(ex)) {
			return ex;
		}
	}
	return NULL;
}

bool async__exception_has_cancellation(zend_object *ex)
{
	return cot_first_cancellation(ex) != NULL;
}

void async__cancellation_on_top(void)
{
	zend_object *cancellation = cot_first_cancellation(EG(exception));
	if (cancellation != NULL) {
		async__exception_on_top(cancellation); /* nothing when it is on top already */
	}
}

static ZEND_NAMED_FUNCTION(cot_call)
{
	zif_handler orig = (zif_handler) EX(func)->internal_function.reserved[cot_slot];
	ZEND_ASSERT(orig != NULL && orig != cot_call);
	orig(INTERNAL_FUNCTION_PARAM_PASSTHRU);
	if (UNEXPECTED(EG(exception) != NULL)) {
		async__cancellation_on_top();
	}
}

static bool cot_module_wanted(const zend_module_entry *module)
{
	if (module == NULL) {
		return false;
	}
	for (size_t i = 0; i < sizeof(cot_modules) / sizeof(cot_modules[0]); i++) {
		if (strcasecmp(module->name, cot_modules[i]) == 0) {
			return true;
		}
	}
	return false;
}

static void cot_wrap(zend_function *fn)
{
	if (fn->type != ZEND_INTERNAL_FUNCTION || fn->internal_function.handler == cot_call
		|| fn->internal_function.handler == NULL) {
		return;
	}
	fn->internal_function.reserved[cot_slot] = (void *) fn->internal_function.handler;
	fn->internal_function.handler = cot_call;
}

static void cot_unwrap(zend_function *fn)
{
	if (fn->type == ZEND_INTERNAL_FUNCTION && fn->internal_function.handler == cot_call) {
		fn->internal_function.handler = (zif_handler) fn->internal_function.reserved[cot_slot];
		fn->internal_function.reserved[cot_slot] = NULL;
	}
}

static void cot_each(void (*apply)(zend_function *))
{
	zend_function *fn;
	ZEND_HASH_MAP_FOREACH_PTR(CG(function_table), fn) {
		if (fn->type == ZEND_INTERNAL_FUNCTION && cot_module_wanted(fn->internal_function.module)) {
			apply(fn);
		}
	} ZEND_HASH_FOREACH_END();
	zend_class_entry *ce;
	ZEND_HASH_MAP_FOREACH_PTR(CG(class_table), ce) {
		/* the exceptions' own methods (getMessage() & co.) throw nothing worth reordering */
		if (ce->type != ZEND_INTERNAL_CLASS || !cot_module_wanted(ce->info.internal.module)
			|| instanceof_function(ce, zend_ce_throwable)) {
			continue;
		}
		ZEND_HASH_MAP_FOREACH_PTR(&ce->function_table, fn) {
			/* inherited from a class of another extension: that one's own, left alone */
			if (fn->type == ZEND_INTERNAL_FUNCTION && cot_module_wanted(fn->internal_function.module)) {
				apply(fn);
			}
		} ZEND_HASH_FOREACH_END();
	} ZEND_HASH_FOREACH_END();
}

zend_result async__hook_cancel_on_top_minit(void)
{
	cot_slot = zend_get_resource_handle("async");
	if (cot_slot >= 0) {
		cot_each(cot_wrap);
	}
	return SUCCESS;
}

void async__hook_cancel_on_top_mshutdown(void)
{
	if (cot_slot >= 0) {
		cot_each(cot_unwrap);
	}
}
