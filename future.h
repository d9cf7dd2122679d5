/*
 * future.h — Async\FutureState / Async\Future / Async\Timeout, and the C helpers other parts of
 * ext-async use to hand PHP a Future (e.g. Channel::recvAsync()).
 *
 * A future is a zend_future_t event living inside a hidden Async\FutureState object: it is
 * reference counted like a Zend object (ZEND_ASYNC_EVENT_ADD_REF / ZEND_ASYNC_EVENT_RELEASE work
 * on it), and the Future objects PHP sees are event references to it.
 */
#ifndef ASYNC_FUTURE_H
#define ASYNC_FUTURE_H

#include "php_async.h"

extern zend_class_entry *async_ce_future_state;
extern zend_class_entry *async_ce_future;
extern zend_class_entry *async_ce_timeout;

/* A new pending future, "created at" the current PHP line. The caller owns one reference. */
zend_future_t *async_future_new(void);

/* Complete a pending future: the value is copied, the error gets its own reference. Both return
 * false without an exception when the future is already completed (e.g. the reader cancelled
 * it), so a producer racing a cancel needs no check of its own. */
bool async_future_resolve(zend_future_t *future, zval *value);
bool async_future_reject(zend_future_t *future, zend_object *error);

/* A new Async\Future object reading `future` (it takes its own reference). */
zend_object *async_future_new_object(zend_future_t *future);

/* True when the future was rejected with a cancellation (Future::cancel() or a cancelled chain). */
bool async_future_is_cancelled(zend_future_t *future);

/* timeout.c */
void async_timeout_register(zend_class_entry *ce);
zend_object *async_timeout_new(zend_long ms);

#endif /* ASYNC_FUTURE_H */
