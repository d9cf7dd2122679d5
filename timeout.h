/* timeout.h — Async\Timeout and Async\timeout() (timeout.c): a one-shot reactor timer as a
 * cancellation token. */
#ifndef ASYNC_TIMEOUT_H
#define ASYNC_TIMEOUT_H

#include "php.h"

extern zend_class_entry *async_ce_timeout;

/* MINIT: the class and timeout(). */
void async_register_timeout(void);
/* A new Async\Timeout of `ms` milliseconds (> 0), or NULL with an exception. */
zend_object *async_timeout_new(zend_long ms);

#endif /* ASYNC_TIMEOUT_H */
