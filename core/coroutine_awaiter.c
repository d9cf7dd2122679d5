/*
 * core/coroutine_awaiter.c — the first await() of a coroutine waits in a slot of the coroutine's own.
 *
 * Most coroutines are awaited once, by the coroutine that spawned them. That await() subscribes
 * through `awaiter`, a callback embedded in the awaited coroutine, instead of pushing a callback
 * onto its event's vector: no vector to allocate, no callback to allocate or free. It takes the
 * wait path's steps 2 and 4 for an event that keeps its own waiter (async__wait_list_own() /
 * async__wait_end_own()): the waker lists the coroutine as for any wait, so getAwaitingInfo(), the
 * deadlock report and virtual time see it.
 *
 * The slot is used only while nobody is in the vector (it was the first to subscribe, so the
 * finish wakes it first and the order stays the subscription order); later awaiters, one with a
 * token and other extensions' subscriptions (zend_async_resume_when()) take the vector. The slot
 * never points at a waker that has gone: the coroutine event's del_callback empties it when the
 * awaiter's waker is cleaned early (a bailout, the awaiter destroyed), and an awaiter woken by
 * something else (a cancellation) empties it when it leaves. The awaiter's waker holds a reference
 * to the coroutine meanwhile, so the slot's callback outlives every use.
 */

#include "php_async.h"
#include "core/core.h"

/* The awaiter slot's callback lives in the coroutine: its last release frees nothing. */
static void coroutine_awaiter_dispose(zend_async_event_callback_t *callback, zend_async_event_t *event)
{
	ZEND_ASSERT(!((async_coroutine_t *) event)->awaiter_listed && "the slot holds a reference while listed");
	(void) callback;
	(void) event;
}

/* Drops the slot's subscription (and its reference to the callback): the awaiter's waker is
 * cleaned, or the awaiter leaves by itself. */
static bool coroutine_awaiter_unlist(async_coroutine_t *co)
{
	if (!co->awaiter_listed) {
		return false;
	}
	co->awaiter_listed = false;
	zend_async_event_callback_unref(&co->awaiter.base, &co->coro.event);
	return true;
}

bool async__coroutine_del_callback(zend_async_event_t *event, zend_async_event_callback_t *callback)
{
	async_coroutine_t *co = (async_coroutine_t *) event;
	if (callback == &co->awaiter.base) {
		return coroutine_awaiter_unlist(co);
	}
	return zend_async_event_default_del_callback(event, callback);
}

bool async__coroutine_list_awaiter(async_coroutine_t *target, zend_coroutine_t *awaiter)
{
	zend_async_event_t *event = &target->coro.event;
	if (target->awaiter_listed || event->callbacks.length != 0) {
		return false;
	}
	zend_coroutine_event_callback_t *cb = &target->awaiter;
	if (UNEXPECTED(cb->base.ref_count != 0)) {
		/* A waker woken through the slot has not cleaned up yet. Its coroutine is finished then,
		 * and await() replays a finished one before it gets here: only defensive. */
		return false;
	}
	cb->base.ref_count = 1; /* the waker's, taken by async__wait_list_own() */
	cb->base.callback = zend_async_waker_callback_resolve;
	cb->base.dispose = coroutine_awaiter_dispose;
	if (!async__wait_list_own(awaiter, event, cb)) {
		cb->base.ref_count = 0;
		return false;
	}
	cb->base.ref_count++; /* the slot's */
	target->awaiter_listed = true;
	return true;
}

void async__coroutine_end_awaiter(async_coroutine_t *target, zend_coroutine_t *awaiter)
{
	zend_coroutine_event_callback_t *cb = &target->awaiter;
	if (cb->coroutine == awaiter) {
		coroutine_awaiter_unlist(target);
	}
	/* The waker's reference is mostly the last, and the last release of a callback that lives in
	 * the coroutine frees nothing (coroutine_awaiter_dispose()): held across the clean-up, it is
	 * dropped here without the release's two calls. */
	cb->base.ref_count++;
	async__wait_end_own(awaiter, cb);
	ZEND_ASSERT(cb->base.ref_count > 0);
	cb->base.ref_count--;
}

void async__coroutine_wake_awaiter(async_coroutine_t *co)
{
	ZEND_ASSERT(co->awaiter_listed && ZEND_ASYNC_EVENT_IS_CLOSED(&co->coro.event));
	ZEND_ASSERT(co->awaiter.base.callback == zend_async_waker_callback_resolve && "set by the listing");
	co->awaiter_listed = false;
	/* The listing's callback, inline, queueing through the core directly. */
	if (zend_async_waker_resolve(&co->awaiter, &co->coro.event, &co->coro.result, co->coro.exception)) {
		async__scheduler_queue_enter(co->awaiter.coroutine);
	}
	zend_async_event_callback_unref(&co->awaiter.base, &co->coro.event);
}
