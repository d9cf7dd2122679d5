/* This is a generated file, edit the .stub.php file instead.
 * Stub hash: 2633cdc26c76ba25c9d0dd3e466e0d276c663d71 */

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_Async_runtime_stats, 0, 0, IS_ARRAY, 0)
ZEND_END_ARG_INFO()


ZEND_FUNCTION(Async_runtime_stats);


static const zend_function_entry ext_functions[] = {
	ZEND_NS_FALIAS("Async", runtime_stats, Async_runtime_stats, arginfo_Async_runtime_stats)
	ZEND_FE_END
};
