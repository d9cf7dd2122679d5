/* This is a generated file, edit the .stub.php file instead.
 * Stub hash: 21a64e3e2f968ac8090dc18b24bd7914771e1013 */

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_Async_Testing_virtual_time, 0, 1, IS_MIXED, 0)
	ZEND_ARG_TYPE_INFO(0, task, IS_CALLABLE, 0)
	ZEND_ARG_VARIADIC_TYPE_INFO(0, args, IS_MIXED, 0)
ZEND_END_ARG_INFO()


ZEND_FUNCTION(Async_Testing_virtual_time);


static const zend_function_entry ext_functions[] = {
	ZEND_NS_FALIAS("Async\\Testing", virtual_time, Async_Testing_virtual_time, arginfo_Async_Testing_virtual_time)
	ZEND_FE_END
};
