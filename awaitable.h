/* awaitable.h — the Async\Awaitable and Async\Completable interfaces (awaitable.stub.php). */
#ifndef ASYNC_AWAITABLE_H
#define ASYNC_AWAITABLE_H

#include "php.h"

extern zend_class_entry *async_ce_awaitable;
extern zend_class_entry *async_ce_completable;

/* MINIT: both interfaces, reserved for the runtime's own classes. */
void async_register_awaitable(void);

#endif /* ASYNC_AWAITABLE_H */
