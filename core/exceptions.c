/* The exception hierarchy of spec §5, and small helpers to raise them. */
#include "php_async.h"
#include "core/core.h"
#include "zend_exceptions.h"
#include "exceptions_arginfo.h"

zend_class_entry *async__ce_cancellation;
zend_class_entry *async__ce_async_cancellation;
zend_class_entry *async__ce_operation_canceled;
zend_class_entry *async__ce_deadlock_error;
zend_class_entry *async__ce_async_exception;
zend_class_entry *async__ce_timeout_exception;
zend_class_entry *async__ce_composite_exception;

zend_class_entry *async__ce_pool_exception;
zend_class_entry *async__ce_service_unavailable;
zend_class_entry *async__ce_context_exception;
/* per-process: class entries, registered at MINIT */
static zend_class_entry *ce_channel, *ce_thread_channel;
/* per-process: class entries, registered at MINIT */
static zend_class_entry *ce_remote, *ce_thread_transfer, *ce_io, *ce_dns, *ce_poll, *ce_thread_pool;

zend_result async__exceptions_minit(void)
{
	/* A third root Throwable is impossible on 8.2, so \Cancellation extends \Error — unless the
	 * engine already has one (a patched core), which we then reuse. */
	async__ce_cancellation = zend_hash_str_find_ptr(CG(class_table), "cancellation", sizeof("cancellation") - 1);
	if (async__ce_cancellation == NULL) {
		async__ce_cancellation = register_class_Cancellation(zend_ce_error);
	}
	async__ce_async_cancellation = register_class_Async_AsyncCancellation(async__ce_cancellation);
	async__ce_operation_canceled = register_class_Async_OperationCanceledException(async__ce_async_cancellation);
	async__ce_deadlock_error = register_class_Async_DeadlockError(zend_ce_error);
	async__ce_async_exception = register_class_Async_AsyncException(zend_ce_exception);
	async__ce_service_unavailable = register_class_Async_ServiceUnavailableException(async__ce_async_exception);
	ce_channel = register_class_Async_ChannelException(async__ce_async_exception);
	async__ce_pool_exception = register_class_Async_PoolException(async__ce_async_exception);
	async__ce_context_exception = register_class_Async_ContextException(async__ce_async_exception);
	ce_thread_channel = register_class_Async_ThreadChannelException(async__ce_async_exception);
	ce_remote = register_class_Async_RemoteException(async__ce_async_exception);
	ce_thread_transfer = register_class_Async_ThreadTransferException(async__ce_async_exception);
	ce_io = register_class_Async_InputOutputException(zend_ce_exception);
	ce_dns = register_class_Async_DnsException(zend_ce_exception);
	async__ce_timeout_exception = register_class_Async_TimeoutException(zend_ce_exception);
	ce_poll = register_class_Async_PollException(zend_ce_exception);
	async__ce_composite_exception = register_class_Async_CompositeException(zend_ce_exception);
	ce_thread_pool = register_class_Async_ThreadPoolException(zend_ce_exception);

	async__class_register(ZEND_ASYNC_EXCEPTION_DEFAULT, async__ce_async_exception);
	async__class_register(ZEND_ASYNC_EXCEPTION_CANCELLATION, async__ce_async_cancellation);
	async__class_register(ZEND_ASYNC_EXCEPTION_TIMEOUT, async__ce_timeout_exception);
	async__class_register(ZEND_ASYNC_EXCEPTION_INPUT_OUTPUT, ce_io);
	async__class_register(ZEND_ASYNC_EXCEPTION_POLL, ce_poll);
	async__class_register(ZEND_ASYNC_EXCEPTION_DNS, ce_dns);
	async__class_register(ZEND_ASYNC_EXCEPTION_DEADLOCK, async__ce_deadlock_error);
	async__class_register(ZEND_ASYNC_EXCEPTION_SERVICE_UNAVAILABLE, async__ce_service_unavailable);
	async__class_register(ZEND_ASYNC_EXCEPTION_OPERATION_CANCELLED, async__ce_operation_canceled);
	async__class_register(ZEND_ASYNC_EXCEPTION_THREAD_TRANSFER, ce_thread_transfer);
	async__class_register(ZEND_ASYNC_EXCEPTION_REMOTE, ce_remote);
	return SUCCESS;
}

/* per-process: class entries are registered once at MINIT */
static zend_class_entry *class_registry[ZEND_ASYNC_EXCEPTION_REMOTE + 1];

void async__class_register(zend_async_class type, zend_class_entry *ce)
{
	ZEND_ASSERT((size_t) type < sizeof(class_registry) / sizeof(class_registry[0]));
	ZEND_ASSERT((class_registry[type] == NULL || class_registry[type] == ce) && "one class per slot");
	class_registry[type] = ce;
}

zend_class_entry *async__get_class_ce(zend_async_class type)
{
	if ((size_t) type >= sizeof(class_registry) / sizeof(class_registry[0])) {
		return NULL;
	}
	return class_registry[type];
}

void async__object_handlers_init(zend_object_handlers *handlers, size_t offset, zend_object_dtor_obj_t dtor_obj,
	zend_object_free_obj_t free_obj, zend_object_get_gc_t get_gc)
{
	ZEND_ASSERT(free_obj != NULL && get_gc != NULL && "runtime objects own C state and report it to the GC");
	memcpy(handlers, &std_object_handlers, sizeof(zend_object_handlers));
	handlers->offset = (int) offset;
	handlers->clone_obj = NULL;
	if (dtor_obj != NULL) {
		handlers->dtor_obj = dtor_obj;
	}
	handlers->free_obj = free_obj;
	handlers->get_gc = get_gc;
}

/* The runtime creates exceptions on behalf of code that is not on the stack: a cancellation is
 * made by the canceller (or by the shutdown) for another coroutine, and whatever the scheduler
 * creates while it runs on main's stack would capture main's frames. Their backtraces keep the
 * frames but not the argument values: those belong to someone else, and often hold the very
 * coroutine the exception is stored in (main's await($c) frame), a cycle only the GC could free. */
static bool exception_is_foreign(zend_class_entry *ce)
{
	return ZEND_ASYNC_IS_SCHEDULER_CONTEXT || instanceof_function(ce, async__ce_cancellation);
}

zend_object *async__new_exception(zend_class_entry *ce, const char *message)
{
	zval ex;
	bool ignore_args = EG(exception_ignore_args);
	EG(exception_ignore_args) = ignore_args || exception_is_foreign(ce);
	object_init_ex(&ex, ce);
	EG(exception_ignore_args) = ignore_args;
	zend_update_property_string(zend_get_exception_base(Z_OBJ(ex)), Z_OBJ(ex), "message", sizeof("message") - 1, message);
	return Z_OBJ(ex);
}

ZEND_COLD void async__throw(zend_class_entry *ce, const char *format, ...)
{
	va_list args;
	va_start(args, format);
	zend_string *message = zend_vstrpprintf(0, format, args);
	va_end(args);
	zend_throw_exception(ce, ZSTR_VAL(message), 0);
	zend_string_release(message);
}

bool async__is_cancellation(zend_object *ex)
{
	return zend_is_graceful_exit(ex) || instanceof_function(ex->ce, async__ce_cancellation);
}

ZEND_METHOD(Async_RemoteException, getRemoteException)
{
	ZEND_PARSE_PARAMETERS_NONE();
	zval rv;
	RETURN_COPY(zend_read_property(ce_remote, Z_OBJ_P(ZEND_THIS), "remoteException", sizeof("remoteException") - 1, 1, &rv));
}

ZEND_METHOD(Async_RemoteException, getRemoteClass)
{
	ZEND_PARSE_PARAMETERS_NONE();
	zval rv;
	RETURN_COPY(zend_read_property(ce_remote, Z_OBJ_P(ZEND_THIS), "remoteClass", sizeof("remoteClass") - 1, 1, &rv));
}

zend_object *async__composite_new(const char *message, HashTable *errors)
{
	zend_object *ex = async__new_exception(async__ce_composite_exception, message);
	zval list;
	ZVAL_ARR(&list, errors);
	zend_update_property(async__ce_composite_exception, ex, "exceptions", sizeof("exceptions") - 1, &list);
	return ex;
}

ZEND_METHOD(Async_CompositeException, addException)
{
	zval *exception;
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_OBJECT_OF_CLASS(exception, zend_ce_throwable)
	ZEND_PARSE_PARAMETERS_END();

	zval rv;
	zval *list = zend_read_property(async__ce_composite_exception, Z_OBJ_P(ZEND_THIS), "exceptions", sizeof("exceptions") - 1, 1, &rv);
	zval copy;
	ZVAL_COPY(&copy, list);
	SEPARATE_ARRAY(&copy);
	Z_ADDREF_P(exception);
	add_next_index_zval(&copy, exception);
	zend_update_property(async__ce_composite_exception, Z_OBJ_P(ZEND_THIS), "exceptions", sizeof("exceptions") - 1, &copy);
	zval_ptr_dtor(&copy);
}

ZEND_METHOD(Async_CompositeException, getExceptions)
{
	ZEND_PARSE_PARAMETERS_NONE();
	zval rv;
	RETURN_COPY(zend_read_property(async__ce_composite_exception, Z_OBJ_P(ZEND_THIS), "exceptions", sizeof("exceptions") - 1, 1, &rv));
}
