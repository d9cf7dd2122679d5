/*
 * async_wait.h — the one way C code suspends the current coroutine.
 *
 * Every wait of the runtime (await(), delay(), channels, pools, scopes, task groups, iterate(),
 * the await_* family, descriptor and DNS waits of the hooks) is the same four steps:
 *
 *     zend_coroutine_t *co = async_wait_begin(token, "wait on a channel");  // may I? launch, token
 *     if (co == NULL) return false;                                         // exception set
 *     bool ok = async_wait_on(co, event, false, callback, NULL)             // subscribe (any number)
 *            && async_wait_suspend(co);                                     // sleep, throw what woke us
 *     async_wait_end(co);                                                   // unsubscribe everything
 *
 * async_wait_begin() refuses where switching is impossible (the scheduler's own context, a
 * destructor on PHP < 8.4: P9) with an AsyncException naming the operation; callers that must
 * behave as stock PHP there (the hooks, the sleep family) ask async_wait_allowed() first and take
 * their blocking path instead. A token that already fired ends the wait before it starts
 * (OperationCanceledException, the token's error as previous); a live one is subscribed into the
 * same waker, so whichever fires first wins.
 */
#ifndef ASYNC_ASYNC_WAIT_H
#define ASYNC_ASYNC_WAIT_H

#include "php.h"
#include "zend_async_API.h"
#include "scheduler.h"
#include "scheduler_suspend.h"

/* May the current flow suspend (not the scheduler's context, not a destructor on PHP < 8.4)?
 * True also before the scheduler launched: the first wait launches it. */
bool async_wait_allowed(void);

/* Throws why the current flow may not suspend: "Cannot <what> inside a destructor: ..." or the
 * scheduler-context message. */
ZEND_COLD void async_wait_throw_not_allowed(const char *what);

/* A waker the last wait left clean only needs to wait again: true when it was such and is now
 * waiting. This keeps a busy channel or pool from touching the waker's arrays per message. */
static zend_always_inline bool async_wait_waker_rearm(zend_coroutine_t *co)
{
	zend_async_waker_t *waker = co->waker;
	if (waker == NULL || waker->length != 0 || waker->error != NULL || Z_TYPE(waker->result) != IS_UNDEF) {
		return false;
	}
	waker->status = ZEND_ASYNC_WAKER_WAITING;
	waker->triggered_event = NULL;
	waker->events_stopped = false;
	return true;
}

/* Step 1: the may-I-wait check, the scheduler launch, the token check, a fresh waker for the
 * current coroutine and the token's subscription. `what` names the operation in the error
 * ("await", "wait on a channel", ...). The current coroutine, or NULL with an exception set. */
zend_coroutine_t *async_wait_begin_slow(zend_async_event_t *token, const char *what);
/* Inline, the common case: no token, a coroutine that may switch, a clean waker. */
static zend_always_inline zend_coroutine_t *async_wait_begin(zend_async_event_t *token, const char *what)
{
	zend_coroutine_t *co = ZEND_ASYNC_G(coroutine);
	if (EXPECTED(token == NULL && co != NULL && async_scheduler_may_switch() && async_wait_waker_rearm(co))) {
		return co;
	}
	return async_wait_begin_slow(token, what);
}

/* The event of a cancellation token handed to an API (NULL for none). Handing it over uses it,
 * even when the API completes without waiting (an awaitable already done, a value already
 * buffered): it must not warn "never used". */
static zend_always_inline zend_async_event_t *async_wait_token(zend_object *token)
{
	zend_async_event_t *event = token != NULL ? ZEND_ASYNC_OBJECT_TO_EVENT(token) : NULL;
	if (event != NULL) {
		ZEND_ASYNC_EVENT_SET_RESULT_USED(event);
	}
	return event;
}

/* Step 2: subscribe the waker to an event (zend_async_resume_when()); with `trans` the waker
 * takes the caller's reference. False with an exception (the waker is left for async_wait_end). */
static zend_always_inline bool async_wait_on(zend_coroutine_t *co, zend_async_event_t *event, bool trans,
	zend_async_event_callback_fn callback, zend_coroutine_event_callback_t *coroutine_callback)
{
	return zend_async_resume_when(co, event, trans, callback, coroutine_callback);
}

/* Step 2 for an event that keeps its waiters in a queue of its own (a channel): the waker lists
 * the event, holding the reference a subscription holds, so everything that asks what a coroutine
 * waits for (getAwaitingInfo(), the deadlock report, virtual time) sees it, but neither the
 * event's add_callback() nor its start() is called: the owner has queued its waiter itself and
 * marks it subscribed. The waker takes the caller's reference to `cb`, as async_wait_on() does.
 * False, with nothing done, when the waker has no room inline or the event is closed: subscribe
 * with async_wait_on() then. Pair with async_wait_end_own(). Inline: every channel message. */
static zend_always_inline bool async_wait_list_own(zend_coroutine_t *co, zend_async_event_t *event,
	zend_coroutine_event_callback_t *cb)
{
	zend_async_waker_t *waker = co->waker;
	ZEND_ASSERT(waker != NULL && "async_wait_begin() gives the coroutine a waker");
	if (UNEXPECTED(waker->length == waker->capacity || ZEND_ASYNC_EVENT_IS_CLOSED(event))) {
		return false;
	}
	cb->coroutine = co;
	cb->event = event;
	ZEND_ASYNC_EVENT_ADD_REF(event);
	waker->triggers[waker->length++] = (zend_async_waker_trigger_t) { event, &cb->base, false };
	return true;
}

/* Step 2, a timer: the wait also ends after ms + ns, through `callback`
 * (zend_async_waker_callback_resolve: a plain wake-up; ..._timeout: a TimeoutException). */
bool async_wait_on_timer(zend_coroutine_t *co, zend_ulong ms, zend_ulong ns, zend_async_event_callback_fn callback);

/* Step 3: suspends until the waker fires (or the coroutine is re-queued). False with the
 * exception that ended the wait (a cancellation, the token, a timeout, the event's error).
 * Inline: it is on every hand-off's path. */
static zend_always_inline bool async_wait_suspend(zend_coroutine_t *co)
{
	ZEND_ASSERT(co == ZEND_ASYNC_G(coroutine) && "only the current coroutine can suspend itself");
	ZEND_ASSERT(co->waker != NULL && "async_wait_begin() gives the coroutine a waker");
	async_scheduler_suspend_begun();
	return !EG(exception);
}

/* Step 3 with the suspension inline, for the hottest waits (a channel message, await()): one call
 * level fewer between the VM and the switch (scheduler_suspend.h). */
static zend_always_inline bool async_wait_suspend_inline(zend_coroutine_t *co)
{
	ZEND_ASSERT(co == ZEND_ASYNC_G(coroutine) && "only the current coroutine can suspend itself");
	ZEND_ASSERT(co->waker != NULL && "async_wait_begin() gives the coroutine a waker");
	async_scheduler_suspend_begun_inline();
	return !EG(exception);
}

/* Step 4: unsubscribes, stops and releases whatever the waker holds; the waker stays for the next
 * wait. Read the waker's result before this. */
static zend_always_inline void async_wait_end(zend_coroutine_t *co)
{
	zend_async_waker_clean(co);
}

/* Step 4 after async_wait_list_own(), once the owner took its waiter out of its queue (the work of
 * its del_callback()): when the waker holds that one event and nothing else (no token, no error,
 * no result), its references are dropped here without a call per event; anything more takes
 * async_wait_end(), which finds the waiter already unsubscribed. */
static zend_always_inline void async_wait_end_own(zend_coroutine_t *co, zend_coroutine_event_callback_t *cb)
{
	zend_async_waker_t *waker = co->waker;
	if (waker == NULL || waker->length != 1 || waker->triggers != waker->inline_triggers
		|| waker->triggers[0].callback != &cb->base || waker->triggers[0].owns_event
		|| waker->error != NULL || Z_TYPE(waker->result) != IS_UNDEF) {
		async_wait_end(co);
		return;
	}
	zend_async_event_t *event = waker->triggers[0].event;
	bool stopped = waker->events_stopped;
	/* The waker is reset before anything is released: a release may run code that looks at it. */
	waker->length = 0;
	waker->events_stopped = false;
	waker->triggered_event = NULL;
	waker->status = ZEND_ASYNC_WAKER_NO_STATUS;
	if (UNEXPECTED(!stopped && event->stop != zend_async_event_nop_stop)) {
		event->stop(event);
	}
	zend_async_event_callback_unref(&cb->base, event);
	ZEND_ASYNC_EVENT_RELEASE(event);
}

/* --- an event of the caller's own: a turn handed over, progress made ---
 *
 * A plain event embedded in a struct of the caller's (a stream's write turn, a database
 * connection's turn), notified with ZEND_ASYNC_CALLBACKS_NOTIFY(event, NULL, NULL) when waiters
 * should look again. References only count: the memory is the struct's, freed with it after
 * async_wait_plain_event_free(). `info` names it in getAwaitingInfo() and the deadlock report. */
void async_wait_plain_event_init(zend_async_event_t *event, zend_string *(*info)(zend_async_event_t *event));

/* The waiter list is request memory: dropped as soon as nobody waits (call after each wait and
 * notification), so a struct that outlives the request (a persistent stream) never carries it. */
static zend_always_inline void async_wait_plain_event_trim(zend_async_event_t *event)
{
	if (event->callbacks.length == 0 && event->callbacks.data != NULL) {
		zend_async_callbacks_free(event);
	}
}

/* Before the struct holding it is freed. */
static zend_always_inline void async_wait_plain_event_free(zend_async_event_t *event)
{
	zend_async_callbacks_free(event);
}

/* --- whole waits built from the steps --- */

/* One event and an optional token. *result (may be NULL) gets the event's result. False with an
 * exception. */
bool async_wait_event(zend_async_event_t *event, zend_async_event_t *token, zval *result, const char *what);

/* Sleeps ms + ns. Where switching is impossible, blocks the process as PHP's usleep() would.
 * False with an exception (cancellation). */
bool async_wait_ms(zend_ulong ms, zend_ulong ns);

/* Async\suspend(): re-queues the current coroutine behind the others (no-op before launch). */
static zend_always_inline void async_wait_yield(void)
{
	async_scheduler_yield();
}
/* The same with the suspension inline: Async\suspend() itself. */
static zend_always_inline void async_wait_yield_inline(void)
{
	async_scheduler_yield_inline();
}

/* Async\await() in C: the result in return_value, or the awaitable's (or token's) exception
 * thrown. A finished awaitable replays at once. */
void async_await(zend_object *awaitable, zend_object *cancellation, zval *return_value);

/* A token fired while waiting: a waker callback that ends the wait with
 * OperationCanceledException (the token's error as previous). */
void async_token_fired(zend_async_event_t *event, zend_async_event_callback_t *callback, void *result, zend_object *exception);

/* The same for a token that had already fired: thrown at once. */
void async_throw_token_fired(zend_async_event_t *token);

#endif /* ASYNC_ASYNC_WAIT_H */
