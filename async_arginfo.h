/* This is a generated file, edit the .stub.php file instead.
 * Stub hash: 7ffc84adec5696ebd435e3605ed2558268eaf0a6 */

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_Async_spawn, 0, 1, Async\\Coroutine, 0)
	ZEND_ARG_TYPE_INFO(0, task, IS_CALLABLE, 0)
	ZEND_ARG_VARIADIC_TYPE_INFO(0, args, IS_MIXED, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_Async_suspend, 0, 0, IS_VOID, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_Async_await, 0, 1, IS_MIXED, 0)
	ZEND_ARG_OBJ_INFO(0, awaitable, Async\\Completable, 0)
	ZEND_ARG_OBJ_INFO_WITH_DEFAULT_VALUE(0, cancellation, Async\\Completable, 1, "null")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_Async_delay, 0, 1, IS_VOID, 0)
	ZEND_ARG_TYPE_INFO(0, ms, IS_LONG, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_Async_protect, 0, 1, IS_MIXED, 0)
	ZEND_ARG_OBJ_INFO(0, closure, Closure, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_Async_current_coroutine, 0, 0, Async\\Coroutine, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_Async_coroutine_context, 0, 0, Async\\Context, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_Async_get_coroutines, 0, 0, IS_ARRAY, 0)
ZEND_END_ARG_INFO()


ZEND_FUNCTION(Async_spawn);
ZEND_FUNCTION(Async_suspend);
ZEND_FUNCTION(Async_await);
ZEND_FUNCTION(Async_delay);
ZEND_FUNCTION(Async_protect);
ZEND_FUNCTION(Async_current_coroutine);
ZEND_FUNCTION(Async_coroutine_context);
ZEND_FUNCTION(Async_get_coroutines);


static const zend_function_entry ext_functions[] = {
	ZEND_NS_FALIAS("Async", spawn, Async_spawn, arginfo_Async_spawn)
	ZEND_NS_FALIAS("Async", suspend, Async_suspend, arginfo_Async_suspend)
	ZEND_NS_FALIAS("Async", await, Async_await, arginfo_Async_await)
	ZEND_NS_FALIAS("Async", delay, Async_delay, arginfo_Async_delay)
	ZEND_NS_FALIAS("Async", protect, Async_protect, arginfo_Async_protect)
	ZEND_NS_FALIAS("Async", current_coroutine, Async_current_coroutine, arginfo_Async_current_coroutine)
	ZEND_NS_FALIAS("Async", coroutine_context, Async_coroutine_context, arginfo_Async_coroutine_context)
	ZEND_NS_FALIAS("Async", get_coroutines, Async_get_coroutines, arginfo_Async_get_coroutines)
	ZEND_FE_END
};
