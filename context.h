/* context.h — Async\Context (context.c): key/value storage of a coroutine or a scope. */
#ifndef ASYNC_CONTEXT_H
#define ASYNC_CONTEXT_H

#include "php.h"
#include "zend_async_API.h"

extern zend_class_entry *async_ce_context;

/* MINIT: the class, current_context()/root_context()/request_context(), and the coroutine's
 * context factory. */
void async_register_context_class(void);
zend_object *async_context_new_object(void);
/* Links a scope's Context to its scope for find()/get()/has() through the ancestors. */
void async_context_set_scope(zend_object *context, zend_async_scope_t *scope);

#endif /* ASYNC_CONTEXT_H */
