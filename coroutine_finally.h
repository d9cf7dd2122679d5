/*
 * coroutine_finally.h — finally handlers run after completion in a helper coroutine
 * (coroutine_finally.c).
 */
#ifndef ASYNC_COROUTINE_FINALLY_H
#define ASYNC_COROUTINE_FINALLY_H

#include "php.h"
#include "zend_async_API.h"

/* Receives the handlers' error (a reference to take) instead of the helper throwing it. */
typedef void (*async_finally_deliver_fn)(zend_object *subject, zend_object *error);

/* Runs `handlers` (taken over) with `subject` in a helper coroutine of `scope`; several errors
 * become a CompositeException with `composite_message`. */
void async_finally_run_later(zend_async_scope_t *scope, zend_array *handlers, zend_object *subject,
	const char *composite_message, async_finally_deliver_fn deliver);

#endif /* ASYNC_COROUTINE_FINALLY_H */
