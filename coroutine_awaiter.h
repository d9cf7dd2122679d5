/*
 * coroutine_awaiter.h — the first await() of a coroutine waits in a slot of the coroutine's own
 * (coroutine_awaiter.c).
 */
#ifndef ASYNC_COROUTINE_AWAITER_H
#define ASYNC_COROUTINE_AWAITER_H

#include "php.h"
#include "zend_async_API.h"

/* Subscribes `awaiter`'s waker through target's slot. False, with nothing done, when the slot is
 * taken, others already subscribed or the waker has no room: subscribe with async_wait_on(). */
bool async_coroutine_list_awaiter(async_coroutine_t *target, zend_coroutine_t *awaiter);
/* Step 4 of such a wait: empties the slot if the awaiter still holds it (it was woken by
 * something else: a cancellation) and cleans the awaiter's waker. */
void async_coroutine_end_awaiter(async_coroutine_t *target, zend_coroutine_t *awaiter);
/* The finish of a coroutine whose slot is listed: wakes that awaiter (before the vector's). */
void async_coroutine_wake_awaiter(async_coroutine_t *co);
/* The coroutine event's del_callback: empties the slot for its callback, the vector otherwise. */
bool async_coroutine_del_callback(zend_async_event_t *event, zend_async_event_callback_t *callback);

#endif /* ASYNC_COROUTINE_AWAITER_H */
