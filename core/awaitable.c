/*
 * core/awaitable.c — Async\Awaitable and Async\Completable: what await() and the await_* family take.
 * The runtime waits on the event inside an object, so only the runtime's own classes can carry
 * one: a user class that tries to implement the interfaces is refused at declaration.
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include "php_async.h"
#include "core/core.h"
#include "awaitable_arginfo.h"

zend_class_entry *async__ce_awaitable;
zend_class_entry *async__ce_completable;

static int awaitable_implemented(zend_class_entry *interface, zend_class_entry *class_type)
{
	if (class_type->type == ZEND_USER_CLASS) {
		zend_error_noreturn(E_ERROR, "Class %s cannot implement interface %s: it is reserved for the async runtime's classes",
			ZSTR_VAL(class_type->name), ZSTR_VAL(interface->name));
	}
	return SUCCESS;
}

zend_result async__awaitable_minit(void)
{
	async__ce_awaitable = register_class_Async_Awaitable();
	async__ce_awaitable->interface_gets_implemented = awaitable_implemented;
	async__ce_completable = register_class_Async_Completable(async__ce_awaitable);
	async__ce_completable->interface_gets_implemented = awaitable_implemented;
	async__class_register(ZEND_ASYNC_CLASS_AWAITABLE, async__ce_awaitable);
	async__class_register(ZEND_ASYNC_CLASS_COMPLETABLE, async__ce_completable);
	return SUCCESS;
}
