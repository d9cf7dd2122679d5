/* This is a generated file, edit the .stub.php file instead.
 * Stub hash: d35cf3f25dd4380e735da59859e6d50fe11a6ce1 */

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_Async_iterate, 0, 2, IS_VOID, 0)
	ZEND_ARG_OBJ_TYPE_MASK(0, iterable, Traversable, MAY_BE_ARRAY, NULL)
	ZEND_ARG_TYPE_INFO(0, callback, IS_CALLABLE, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, concurrency, IS_LONG, 0, "0")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, cancelPending, _IS_BOOL, 0, "true")
ZEND_END_ARG_INFO()


ZEND_FUNCTION(Async_iterate);


static const zend_function_entry ext_functions[] = {
	ZEND_NS_FALIAS("Async", iterate, Async_iterate, arginfo_Async_iterate)
	ZEND_FE_END
};
