/*
 * future.h — Async\FutureState / Async\Future, and the C helpers other parts of
 * ext-async use to hand PHP a Future (e.g. Channel::recvAsync()).
 *
 * A future is a zend_future_t event living inside a hidden Async\FutureState object: it is
 * reference counted like a Zend object (ZEND_ASYNC_EVENT_ADD_REF / ZEND_ASYNC_EVENT_RELEASE work
 * on it), and the Future objects PHP sees are event references to it.
 */
#ifndef ASYNC_FUTURE_H
#define ASYNC_FUTURE_H

#include "php.h"
#include "zend_async_API.h"

extern zend_class_entry *async_ce_future_state;
extern zend_class_entry *async_ce_future;

/* MINIT: the classes and the scheduler table's new_future slot. */
void async_register_future(void);

/* A new pending future, "created at" the current PHP line. The caller owns one reference. */
zend_future_t *async_future_new(void);

/* Complete a pending future: the value is copied, the error gets its own reference. Both return
 * false without an exception when the future is already completed (e.g. the reader cancelled
 * it), so a producer racing a cancel needs no check of its own. */
bool async_future_resolve(zend_future_t *future, zval *value);
bool async_future_reject(zend_future_t *future, zend_object *error);

/* The producer of an unsettled future that holds a reference to it learns when nobody else can
 * observe it any more: the last Async\Future reading it was freed, nothing else holds it, and at
 * most one callback (the producer's own) is subscribed — no awaiter, no map/catch/finally. A
 * producer that only exists to settle it (signal()) can then stop. */
typedef void (*async_future_reader_gone_fn)(zend_future_t *future);
void async_future_on_reader_gone(zend_future_t *future, async_future_reader_gone_fn fn);

/* A new Async\Future object reading `future` (it takes its own reference). */
zend_object *async_future_new_object(zend_future_t *future);

/* True when the future was rejected with a cancellation (Future::cancel() or a cancelled chain). */
bool async_future_is_cancelled(zend_future_t *future);

#endif /* ASYNC_FUTURE_H */
