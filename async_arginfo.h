/* This is a generated file, edit the .stub.php file instead.
 * Stub hash: 1ad5798bccc2780db165490f74e9a7de991ebb7c */

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

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Async_Completable_cancel, 0, 0, IS_VOID, 0)
	ZEND_ARG_OBJ_INFO_WITH_DEFAULT_VALUE(0, cancellation, Async\\AsyncCancellation, 1, "null")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Async_Completable_isCompleted, 0, 0, _IS_BOOL, 0)
ZEND_END_ARG_INFO()

#define arginfo_class_Async_Completable_isCancelled arginfo_class_Async_Completable_isCompleted


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


static const zend_function_entry class_Async_Awaitable_methods[] = {
	ZEND_FE_END
};


static const zend_function_entry class_Async_Completable_methods[] = {
	ZEND_ABSTRACT_ME_WITH_FLAGS(Async_Completable, cancel, arginfo_class_Async_Completable_cancel, ZEND_ACC_PUBLIC|ZEND_ACC_ABSTRACT)
	ZEND_ABSTRACT_ME_WITH_FLAGS(Async_Completable, isCompleted, arginfo_class_Async_Completable_isCompleted, ZEND_ACC_PUBLIC|ZEND_ACC_ABSTRACT)
	ZEND_ABSTRACT_ME_WITH_FLAGS(Async_Completable, isCancelled, arginfo_class_Async_Completable_isCancelled, ZEND_ACC_PUBLIC|ZEND_ACC_ABSTRACT)
	ZEND_FE_END
};

static zend_class_entry *register_class_Async_Awaitable(void)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Async", "Awaitable", class_Async_Awaitable_methods);
	class_entry = zend_register_internal_interface(&ce);

	return class_entry;
}

static zend_class_entry *register_class_Async_Completable(zend_class_entry *class_entry_Async_Awaitable)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Async", "Completable", class_Async_Completable_methods);
	class_entry = zend_register_internal_interface(&ce);
	zend_class_implements(class_entry, 1, class_entry_Async_Awaitable);

	return class_entry;
}
