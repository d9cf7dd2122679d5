/* This is a generated file, edit the .stub.php file instead.
 * Stub hash: 353d7f72fc24247804c9b99b2bd54a5a37e98b38 */

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Async_CircuitBreaker_getState, 0, 0, Async\\CircuitBreakerState, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Async_CircuitBreaker_activate, 0, 0, IS_VOID, 0)
ZEND_END_ARG_INFO()

#define arginfo_class_Async_CircuitBreaker_deactivate arginfo_class_Async_CircuitBreaker_activate

#define arginfo_class_Async_CircuitBreaker_recover arginfo_class_Async_CircuitBreaker_activate

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Async_CircuitBreakerStrategy_reportSuccess, 0, 1, IS_VOID, 0)
	ZEND_ARG_TYPE_INFO(0, source, IS_MIXED, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Async_CircuitBreakerStrategy_reportFailure, 0, 2, IS_VOID, 0)
	ZEND_ARG_TYPE_INFO(0, source, IS_MIXED, 0)
	ZEND_ARG_OBJ_INFO(0, error, Throwable, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Async_CircuitBreakerStrategy_shouldRecover, 0, 0, _IS_BOOL, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_INFO_EX(arginfo_class_Async_Pool___construct, 0, 0, 1)
	ZEND_ARG_TYPE_INFO(0, factory, IS_CALLABLE, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, destructor, IS_CALLABLE, 1, "null")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, healthcheck, IS_CALLABLE, 1, "null")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, beforeAcquire, IS_CALLABLE, 1, "null")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, beforeRelease, IS_CALLABLE, 1, "null")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, min, IS_LONG, 0, "0")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, max, IS_LONG, 0, "10")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, healthcheckInterval, IS_LONG, 0, "0")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Async_Pool_acquire, 0, 0, IS_MIXED, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, timeout, IS_LONG, 0, "0")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Async_Pool_tryAcquire, 0, 0, IS_MIXED, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Async_Pool_release, 0, 1, IS_VOID, 0)
	ZEND_ARG_TYPE_INFO(0, resource, IS_MIXED, 0)
ZEND_END_ARG_INFO()

#define arginfo_class_Async_Pool_close arginfo_class_Async_CircuitBreaker_activate

#define arginfo_class_Async_Pool_isClosed arginfo_class_Async_CircuitBreakerStrategy_shouldRecover

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Async_Pool_count, 0, 0, IS_LONG, 0)
ZEND_END_ARG_INFO()

#define arginfo_class_Async_Pool_idleCount arginfo_class_Async_Pool_count

#define arginfo_class_Async_Pool_activeCount arginfo_class_Async_Pool_count

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Async_Pool_setCircuitBreakerStrategy, 0, 1, IS_VOID, 0)
	ZEND_ARG_OBJ_INFO(0, strategy, Async\\CircuitBreakerStrategy, 1)
ZEND_END_ARG_INFO()

#define arginfo_class_Async_Pool_getState arginfo_class_Async_CircuitBreaker_getState

#define arginfo_class_Async_Pool_activate arginfo_class_Async_CircuitBreaker_activate

#define arginfo_class_Async_Pool_deactivate arginfo_class_Async_CircuitBreaker_activate

#define arginfo_class_Async_Pool_recover arginfo_class_Async_CircuitBreaker_activate


ZEND_METHOD(Async_Pool, __construct);
ZEND_METHOD(Async_Pool, acquire);
ZEND_METHOD(Async_Pool, tryAcquire);
ZEND_METHOD(Async_Pool, release);
ZEND_METHOD(Async_Pool, close);
ZEND_METHOD(Async_Pool, isClosed);
ZEND_METHOD(Async_Pool, count);
ZEND_METHOD(Async_Pool, idleCount);
ZEND_METHOD(Async_Pool, activeCount);
ZEND_METHOD(Async_Pool, setCircuitBreakerStrategy);
ZEND_METHOD(Async_Pool, getState);
ZEND_METHOD(Async_Pool, activate);
ZEND_METHOD(Async_Pool, deactivate);
ZEND_METHOD(Async_Pool, recover);


static const zend_function_entry class_Async_CircuitBreakerState_methods[] = {
	ZEND_FE_END
};


static const zend_function_entry class_Async_CircuitBreaker_methods[] = {
	ZEND_ABSTRACT_ME_WITH_FLAGS(Async_CircuitBreaker, getState, arginfo_class_Async_CircuitBreaker_getState, ZEND_ACC_PUBLIC|ZEND_ACC_ABSTRACT)
	ZEND_ABSTRACT_ME_WITH_FLAGS(Async_CircuitBreaker, activate, arginfo_class_Async_CircuitBreaker_activate, ZEND_ACC_PUBLIC|ZEND_ACC_ABSTRACT)
	ZEND_ABSTRACT_ME_WITH_FLAGS(Async_CircuitBreaker, deactivate, arginfo_class_Async_CircuitBreaker_deactivate, ZEND_ACC_PUBLIC|ZEND_ACC_ABSTRACT)
	ZEND_ABSTRACT_ME_WITH_FLAGS(Async_CircuitBreaker, recover, arginfo_class_Async_CircuitBreaker_recover, ZEND_ACC_PUBLIC|ZEND_ACC_ABSTRACT)
	ZEND_FE_END
};


static const zend_function_entry class_Async_CircuitBreakerStrategy_methods[] = {
	ZEND_ABSTRACT_ME_WITH_FLAGS(Async_CircuitBreakerStrategy, reportSuccess, arginfo_class_Async_CircuitBreakerStrategy_reportSuccess, ZEND_ACC_PUBLIC|ZEND_ACC_ABSTRACT)
	ZEND_ABSTRACT_ME_WITH_FLAGS(Async_CircuitBreakerStrategy, reportFailure, arginfo_class_Async_CircuitBreakerStrategy_reportFailure, ZEND_ACC_PUBLIC|ZEND_ACC_ABSTRACT)
	ZEND_ABSTRACT_ME_WITH_FLAGS(Async_CircuitBreakerStrategy, shouldRecover, arginfo_class_Async_CircuitBreakerStrategy_shouldRecover, ZEND_ACC_PUBLIC|ZEND_ACC_ABSTRACT)
	ZEND_FE_END
};


static const zend_function_entry class_Async_Pool_methods[] = {
	ZEND_ME(Async_Pool, __construct, arginfo_class_Async_Pool___construct, ZEND_ACC_PUBLIC)
	ZEND_ME(Async_Pool, acquire, arginfo_class_Async_Pool_acquire, ZEND_ACC_PUBLIC)
	ZEND_ME(Async_Pool, tryAcquire, arginfo_class_Async_Pool_tryAcquire, ZEND_ACC_PUBLIC)
	ZEND_ME(Async_Pool, release, arginfo_class_Async_Pool_release, ZEND_ACC_PUBLIC)
	ZEND_ME(Async_Pool, close, arginfo_class_Async_Pool_close, ZEND_ACC_PUBLIC)
	ZEND_ME(Async_Pool, isClosed, arginfo_class_Async_Pool_isClosed, ZEND_ACC_PUBLIC)
	ZEND_ME(Async_Pool, count, arginfo_class_Async_Pool_count, ZEND_ACC_PUBLIC)
	ZEND_ME(Async_Pool, idleCount, arginfo_class_Async_Pool_idleCount, ZEND_ACC_PUBLIC)
	ZEND_ME(Async_Pool, activeCount, arginfo_class_Async_Pool_activeCount, ZEND_ACC_PUBLIC)
	ZEND_ME(Async_Pool, setCircuitBreakerStrategy, arginfo_class_Async_Pool_setCircuitBreakerStrategy, ZEND_ACC_PUBLIC)
	ZEND_ME(Async_Pool, getState, arginfo_class_Async_Pool_getState, ZEND_ACC_PUBLIC)
	ZEND_ME(Async_Pool, activate, arginfo_class_Async_Pool_activate, ZEND_ACC_PUBLIC)
	ZEND_ME(Async_Pool, deactivate, arginfo_class_Async_Pool_deactivate, ZEND_ACC_PUBLIC)
	ZEND_ME(Async_Pool, recover, arginfo_class_Async_Pool_recover, ZEND_ACC_PUBLIC)
	ZEND_FE_END
};

static zend_class_entry *register_class_Async_CircuitBreakerState(void)
{
	zend_class_entry *class_entry = zend_register_internal_enum("Async\\CircuitBreakerState", IS_UNDEF, class_Async_CircuitBreakerState_methods);

	zend_enum_add_case_cstr(class_entry, "ACTIVE", NULL);

	zend_enum_add_case_cstr(class_entry, "INACTIVE", NULL);

	zend_enum_add_case_cstr(class_entry, "RECOVERING", NULL);

	return class_entry;
}

static zend_class_entry *register_class_Async_CircuitBreaker(void)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Async", "CircuitBreaker", class_Async_CircuitBreaker_methods);
	class_entry = zend_register_internal_interface(&ce);

	return class_entry;
}

static zend_class_entry *register_class_Async_CircuitBreakerStrategy(void)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Async", "CircuitBreakerStrategy", class_Async_CircuitBreakerStrategy_methods);
	class_entry = zend_register_internal_interface(&ce);

	return class_entry;
}

static zend_class_entry *register_class_Async_Pool(zend_class_entry *class_entry_Countable, zend_class_entry *class_entry_Async_CircuitBreaker)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Async", "Pool", class_Async_Pool_methods);
	class_entry = zend_register_internal_class_ex(&ce, NULL);
	class_entry->ce_flags |= ZEND_ACC_FINAL|ZEND_ACC_NO_DYNAMIC_PROPERTIES|ZEND_ACC_NOT_SERIALIZABLE;
	zend_class_implements(class_entry, 2, class_entry_Countable, class_entry_Async_CircuitBreaker);

	return class_entry;
}
