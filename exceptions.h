/*
 * exceptions.h — the exception hierarchy (exceptions.stub.php), the helpers that raise it, and
 * the class registry behind the ABI's get_class_ce slot.
 */
#ifndef ASYNC_EXCEPTIONS_H
#define ASYNC_EXCEPTIONS_H

#include "php.h"
#include "zend_async_API.h"

extern zend_class_entry *async_ce_cancellation;
extern zend_class_entry *async_ce_async_cancellation;
extern zend_class_entry *async_ce_operation_canceled;
extern zend_class_entry *async_ce_deadlock_error;
extern zend_class_entry *async_ce_async_exception;
extern zend_class_entry *async_ce_timeout_exception;
extern zend_class_entry *async_ce_composite_exception;
extern zend_class_entry *async_ce_pool_exception;
extern zend_class_entry *async_ce_service_unavailable;
extern zend_class_entry *async_ce_context_exception;

/* MINIT: the classes of exceptions.stub.php, each entered in the class registry. */
void async_register_exceptions(void);

/* The class registry: each file that registers a class the ABI can name (ZEND_ASYNC_CLASS_*)
 * enters it here at MINIT; ZEND_ASYNC_GET_CE() reads it. Lower layers never name the files
 * above them to find a class. */
void async_class_register(zend_async_class type, zend_class_entry *ce);
zend_class_entry *async_get_class_ce(zend_async_class type);

/* The object handlers of one of the runtime's classes: PHP's standard handlers, objects that
 * cannot be cloned, the object at `offset` in its struct, and these (dtor_obj may be NULL: PHP's
 * own). Every runtime class makes its handlers this way. */
void async_object_handlers_init(zend_object_handlers *handlers, size_t offset, zend_object_dtor_obj_t dtor_obj,
	zend_object_free_obj_t free_obj, zend_object_get_gc_t get_gc);

/* A new exception of `ce` with this message (no frame arguments when it is made for someone
 * else: see exceptions.c). */
zend_object *async_new_exception(zend_class_entry *ce, const char *message);
/* A CompositeException holding `errors` (a list; borrowed: the property takes its own reference). */
zend_object *async_composite_new(const char *message, HashTable *errors);
ZEND_COLD void async_throw(zend_class_entry *ce, const char *format, ...) ZEND_ATTRIBUTE_FORMAT(printf, 2, 3);
/* A cancellation or PHP's graceful exit (exit()). */
bool async_is_cancellation(zend_object *ex);

#endif /* ASYNC_EXCEPTIONS_H */
