/* This is a generated file, edit the .stub.php file instead.
 * Stub hash: cd091b56377871fa7b52fbecf7465e56f6bcf37d */

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Async_RemoteException_getRemoteException, 0, 0, Throwable, 1)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Async_RemoteException_getRemoteClass, 0, 0, IS_STRING, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Async_CompositeException_addException, 0, 1, IS_VOID, 0)
	ZEND_ARG_OBJ_INFO(0, exception, Throwable, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Async_CompositeException_getExceptions, 0, 0, IS_ARRAY, 0)
ZEND_END_ARG_INFO()


ZEND_METHOD(Async_RemoteException, getRemoteException);
ZEND_METHOD(Async_RemoteException, getRemoteClass);
ZEND_METHOD(Async_CompositeException, addException);
ZEND_METHOD(Async_CompositeException, getExceptions);


static const zend_function_entry class_Cancellation_methods[] = {
	ZEND_FE_END
};


static const zend_function_entry class_Async_AsyncCancellation_methods[] = {
	ZEND_FE_END
};


static const zend_function_entry class_Async_OperationCanceledException_methods[] = {
	ZEND_FE_END
};


static const zend_function_entry class_Async_DeadlockError_methods[] = {
	ZEND_FE_END
};


static const zend_function_entry class_Async_AsyncException_methods[] = {
	ZEND_FE_END
};


static const zend_function_entry class_Async_ServiceUnavailableException_methods[] = {
	ZEND_FE_END
};


static const zend_function_entry class_Async_ChannelException_methods[] = {
	ZEND_FE_END
};


static const zend_function_entry class_Async_PoolException_methods[] = {
	ZEND_FE_END
};


static const zend_function_entry class_Async_ContextException_methods[] = {
	ZEND_FE_END
};


static const zend_function_entry class_Async_ThreadChannelException_methods[] = {
	ZEND_FE_END
};


static const zend_function_entry class_Async_RemoteException_methods[] = {
	ZEND_ME(Async_RemoteException, getRemoteException, arginfo_class_Async_RemoteException_getRemoteException, ZEND_ACC_PUBLIC)
	ZEND_ME(Async_RemoteException, getRemoteClass, arginfo_class_Async_RemoteException_getRemoteClass, ZEND_ACC_PUBLIC)
	ZEND_FE_END
};


static const zend_function_entry class_Async_ThreadTransferException_methods[] = {
	ZEND_FE_END
};


static const zend_function_entry class_Async_InputOutputException_methods[] = {
	ZEND_FE_END
};


static const zend_function_entry class_Async_DnsException_methods[] = {
	ZEND_FE_END
};


static const zend_function_entry class_Async_TimeoutException_methods[] = {
	ZEND_FE_END
};


static const zend_function_entry class_Async_PollException_methods[] = {
	ZEND_FE_END
};


static const zend_function_entry class_Async_CompositeException_methods[] = {
	ZEND_ME(Async_CompositeException, addException, arginfo_class_Async_CompositeException_addException, ZEND_ACC_PUBLIC)
	ZEND_ME(Async_CompositeException, getExceptions, arginfo_class_Async_CompositeException_getExceptions, ZEND_ACC_PUBLIC)
	ZEND_FE_END
};


static const zend_function_entry class_Async_ThreadPoolException_methods[] = {
	ZEND_FE_END
};

static zend_class_entry *register_class_Cancellation(zend_class_entry *class_entry_Error)
{
	zend_class_entry ce, *class_entry;

	INIT_CLASS_ENTRY(ce, "Cancellation", class_Cancellation_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_Error);

	return class_entry;
}

static zend_class_entry *register_class_Async_AsyncCancellation(zend_class_entry *class_entry_Cancellation)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Async", "AsyncCancellation", class_Async_AsyncCancellation_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_Cancellation);

	return class_entry;
}

static zend_class_entry *register_class_Async_OperationCanceledException(zend_class_entry *class_entry_Async_AsyncCancellation)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Async", "OperationCanceledException", class_Async_OperationCanceledException_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_Async_AsyncCancellation);

	return class_entry;
}

static zend_class_entry *register_class_Async_DeadlockError(zend_class_entry *class_entry_Error)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Async", "DeadlockError", class_Async_DeadlockError_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_Error);

	return class_entry;
}

static zend_class_entry *register_class_Async_AsyncException(zend_class_entry *class_entry_Exception)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Async", "AsyncException", class_Async_AsyncException_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_Exception);

	return class_entry;
}

static zend_class_entry *register_class_Async_ServiceUnavailableException(zend_class_entry *class_entry_Async_AsyncException)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Async", "ServiceUnavailableException", class_Async_ServiceUnavailableException_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_Async_AsyncException);

	return class_entry;
}

static zend_class_entry *register_class_Async_ChannelException(zend_class_entry *class_entry_Async_AsyncException)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Async", "ChannelException", class_Async_ChannelException_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_Async_AsyncException);

	zend_string *property_reason_class_Async_ChannelCloseReason = zend_string_init("Async\\ChannelCloseReason", sizeof("Async\\ChannelCloseReason")-1, 1);
	zval property_reason_default_value;
	ZVAL_UNDEF(&property_reason_default_value);
	zend_string *property_reason_name = zend_string_init("reason", sizeof("reason") - 1, 1);
	zend_declare_typed_property(class_entry, property_reason_name, &property_reason_default_value, ZEND_ACC_PUBLIC, NULL, (zend_type) ZEND_TYPE_INIT_CLASS(property_reason_class_Async_ChannelCloseReason, 0, 0));
	zend_string_release(property_reason_name);

	return class_entry;
}

static zend_class_entry *register_class_Async_PoolException(zend_class_entry *class_entry_Async_AsyncException)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Async", "PoolException", class_Async_PoolException_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_Async_AsyncException);

	return class_entry;
}

static zend_class_entry *register_class_Async_ContextException(zend_class_entry *class_entry_Async_AsyncException)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Async", "ContextException", class_Async_ContextException_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_Async_AsyncException);

	return class_entry;
}

static zend_class_entry *register_class_Async_ThreadChannelException(zend_class_entry *class_entry_Async_AsyncException)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Async", "ThreadChannelException", class_Async_ThreadChannelException_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_Async_AsyncException);

	return class_entry;
}

static zend_class_entry *register_class_Async_RemoteException(zend_class_entry *class_entry_Async_AsyncException)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Async", "RemoteException", class_Async_RemoteException_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_Async_AsyncException);

	zend_string *property_remoteException_class_Throwable = zend_string_init("Throwable", sizeof("Throwable")-1, 1);
	zval property_remoteException_default_value;
	ZVAL_NULL(&property_remoteException_default_value);
	zend_string *property_remoteException_name = zend_string_init("remoteException", sizeof("remoteException") - 1, 1);
	zend_declare_typed_property(class_entry, property_remoteException_name, &property_remoteException_default_value, ZEND_ACC_PRIVATE, NULL, (zend_type) ZEND_TYPE_INIT_CLASS(property_remoteException_class_Throwable, 0, MAY_BE_NULL));
	zend_string_release(property_remoteException_name);

	zval property_remoteClass_default_value;
	ZVAL_EMPTY_STRING(&property_remoteClass_default_value);
	zend_string *property_remoteClass_name = zend_string_init("remoteClass", sizeof("remoteClass") - 1, 1);
	zend_declare_typed_property(class_entry, property_remoteClass_name, &property_remoteClass_default_value, ZEND_ACC_PRIVATE, NULL, (zend_type) ZEND_TYPE_INIT_MASK(MAY_BE_STRING));
	zend_string_release(property_remoteClass_name);

	return class_entry;
}

static zend_class_entry *register_class_Async_ThreadTransferException(zend_class_entry *class_entry_Async_AsyncException)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Async", "ThreadTransferException", class_Async_ThreadTransferException_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_Async_AsyncException);

	return class_entry;
}

static zend_class_entry *register_class_Async_InputOutputException(zend_class_entry *class_entry_Exception)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Async", "InputOutputException", class_Async_InputOutputException_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_Exception);

	return class_entry;
}

static zend_class_entry *register_class_Async_DnsException(zend_class_entry *class_entry_Exception)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Async", "DnsException", class_Async_DnsException_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_Exception);

	return class_entry;
}

static zend_class_entry *register_class_Async_TimeoutException(zend_class_entry *class_entry_Exception)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Async", "TimeoutException", class_Async_TimeoutException_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_Exception);

	return class_entry;
}

static zend_class_entry *register_class_Async_PollException(zend_class_entry *class_entry_Exception)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Async", "PollException", class_Async_PollException_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_Exception);

	return class_entry;
}

static zend_class_entry *register_class_Async_CompositeException(zend_class_entry *class_entry_Exception)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Async", "CompositeException", class_Async_CompositeException_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_Exception);
	class_entry->ce_flags |= ZEND_ACC_FINAL;

	zval property_exceptions_default_value;
	ZVAL_EMPTY_ARRAY(&property_exceptions_default_value);
	zend_string *property_exceptions_name = zend_string_init("exceptions", sizeof("exceptions") - 1, 1);
	zend_declare_typed_property(class_entry, property_exceptions_name, &property_exceptions_default_value, ZEND_ACC_PRIVATE, NULL, (zend_type) ZEND_TYPE_INIT_MASK(MAY_BE_ARRAY));
	zend_string_release(property_exceptions_name);

	return class_entry;
}

static zend_class_entry *register_class_Async_ThreadPoolException(zend_class_entry *class_entry_Exception)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Async", "ThreadPoolException", class_Async_ThreadPoolException_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_Exception);

	return class_entry;
}
