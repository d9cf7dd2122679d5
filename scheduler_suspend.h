/*
 * scheduler_suspend.h — the suspension of the current coroutine, inline (scheduler.c).
 *
 * Every wait ends here: the suspension site recorded, the engine's error-handling mode kept, the
 * switch (to the loop, or by a direct hand-off to the run queue's head) and what the waker
 * brought back thrown. Inline, so that the hottest waits (a channel message, await(),
 * Async\suspend()) reach the switch with one call level fewer: every level between the VM and
 * the switch is a mispredicted return each time the coroutine is resumed (coroutine.h). The
 * others call async_scheduler_suspend_begun() and async_scheduler_yield() (scheduler.h).
 */
#ifndef ASYNC_SCHEDULER_SUSPEND_H
#define ASYNC_SCHEDULER_SUSPEND_H

#include "php_async.h"
#include "coroutine.h"
#include "scheduler.h"
#include "zend_exceptions.h"

/* Main's wait: the loop runs in main's context until main's turn comes (scheduler.c). */
void async_scheduler_main_wait(void);

/* Direct hand-off (a "run next" slot, as in Go's scheduler): the coroutine at the head of the run
 * queue, taken for the suspending (or finished) co to switch straight into (A -> B instead of
 * A -> loop -> B: one switch instead of two, and none of the loop's bookkeeping). The order is the
 * queue's: the head is what the loop would run next. Only inside a batch while its budget lasts,
 * with no microtask due (they run between two coroutines), never main (it resumes by returning
 * from the loop), and not under async.schedule_seed (the fuzz picks its own order). NULL: go
 * through the loop. */
static zend_always_inline async_coroutine_t *async_handoff_head(void)
{
	async_ring_t *q = &ASYNC_G(run_queue);
	if (ASYNC_G(handoff_budget) == 0 || q->count == 0 || ASYNC_G(microtasks_length) > 0
		|| ASYNC_G(schedule_seed) != 0) {
		return NULL;
	}
	zend_coroutine_t *head = *ASYNC_RING_AT(q, 0, zend_coroutine_t *);
	return ZEND_COROUTINE_IS_MAIN(head) ? NULL : ASYNC_CO_FROM_CORO(head);
}

static zend_always_inline async_coroutine_t *async_handoff_pop(async_coroutine_t *next)
{
	(void) ASYNC_RING_POP(&ASYNC_G(run_queue), zend_coroutine_t *);
	next->in_queue = false; /* its queue reference goes with it */
	ASYNC_G(handoff_budget)--;
	if (ASYNC_G(batch_left) > 0) {
		ASYNC_G(batch_left)--;
	}
	return next;
}

/* `yielding`: co has just queued itself (a constant in each inline expansion): alone in the
 * queue, it has nobody to hand off to, which a yield with nothing else runnable learns in one
 * test instead of async_handoff_head()'s. */
static zend_always_inline async_coroutine_t *async_handoff_take(async_coroutine_t *co, bool yielding)
{
	if (yielding && ASYNC_G(run_queue).count <= 1) {
		return NULL;
	}
	async_coroutine_t *next = async_handoff_head();
	if (next == NULL || next == co || !async_coroutine_can_hand_off(co, next)) {
		return NULL;
	}
	return async_handoff_pop(next);
}

/* Runs on every suspension, so it avoids zend_get_executed_filename_ex()'s second walk and
 * the refcount traffic when the site's file did not change. */
static zend_always_inline void async_suspend_record_site(zend_async_waker_t *waker)
{
	zend_execute_data *ex = async_user_frame(EG(current_execute_data));
	zend_string *filename = ex ? ex->func->op_array.filename : NULL;
	if (filename != waker->filename) {
		if (waker->filename) {
			zend_string_release(waker->filename);
		}
		waker->filename = filename ? zend_string_copy(filename) : NULL;
	}
	waker->lineno = ex && ex->opline ? ex->opline->lineno : 0;
}

/* A cancellation requested while the coroutine ran is delivered at its next suspension point
 * instead of suspending (unless it is protected). True when one was thrown. */
static zend_always_inline bool async_suspend_throw_pending_cancel(zend_coroutine_t *coro, async_coroutine_t *co)
{
	if (EXPECTED(co->pending_cancel == NULL) || co->protect_depth != 0) {
		return false;
	}
	zend_object *error = co->pending_cancel;
	co->pending_cancel = NULL;
	if (coro->waker) {
		zend_async_waker_clean(coro);
	}
	zend_throw_exception_internal(error);
	return true;
}

/* The suspension itself, once it is allowed: the coroutine's engine state kept, the switch (to
 * the loop, or straight to the run queue's head), and what the waker brought back thrown. Inline
 * in both ways in (the ABI's suspend and the yield), so neither pays a call for it. */
static zend_always_inline void async_suspend_current(zend_coroutine_t *coro, async_coroutine_t *co, zend_async_waker_t *waker,
	bool yielding)
{
	async_suspend_record_site(waker);

	/* The engine's error-handling mode (zend_replace_error_handling(): EH_THROW in PDO's and
	 * mysqli's constructors, which may suspend in connect) is global and not part of what a
	 * fiber switch saves. It belongs to the coroutine that set it: others must not see their
	 * warnings turned into its exceptions, nor get its mode back when they restore theirs. */
	zend_error_handling_t error_handling = EG(error_handling);
	zend_class_entry *exception_class = EG(exception_class);
	EG(error_handling) = EH_NORMAL;
	EG(exception_class) = NULL;

	ASYNC_SWITCHED();
	if (UNEXPECTED(ZEND_COROUTINE_IS_MAIN(coro))) {
		ASYNC_G(main_frame) = EG(current_execute_data);
		async_scheduler_main_wait();
		ASYNC_G(main_frame) = NULL;
	} else {
		co->execute_data = EG(current_execute_data);
		co->resume_ctx = EG(current_fiber_context);
		async_coroutine_switch_out(co, async_handoff_take(co, yielding));
		/* Resumed. If we had suspended from inside a user Fiber, its context is ours again. */
		co->execute_data = NULL;
	}
	EG(error_handling) = error_handling;
	EG(exception_class) = exception_class;

	waker = coro->waker;
	if (EG(exception)) {
		return; /* main was handed the exit reason */
	}
	if (waker != NULL) {
		waker->status = ZEND_ASYNC_WAKER_RESULT;
		if (UNEXPECTED(waker->error != NULL)) {
			zend_object *error = waker->error;
			waker->error = NULL;
			zend_throw_exception_internal(error);
		}
	}
	if (!EG(exception)) {
		async_suspend_throw_pending_cancel(coro, co);
	}
}

/* A suspension that was allowed: a cancellation requested while the coroutine ran is thrown
 * instead, else the waker waits and the coroutine switches away. */
static zend_always_inline void async_suspend_waiting(zend_coroutine_t *coro, async_coroutine_t *co)
{
	if (async_suspend_throw_pending_cancel(coro, co)) {
		return;
	}
	zend_async_waker_t *waker = coro->waker;
	if (waker == NULL) {
		waker = zend_async_waker_new(coro);
	} else if (waker->status == ZEND_ASYNC_WAKER_NO_STATUS || waker->status == ZEND_ASYNC_WAKER_RESULT) {
		waker->status = ZEND_ASYNC_WAKER_WAITING;
	}
	async_suspend_current(coro, co, waker, false);
}

/* async_scheduler_suspend_begun(), inline. */
static zend_always_inline void async_scheduler_suspend_begun_inline(void)
{
	zend_coroutine_t *coro = ZEND_ASYNC_G(coroutine);
#if ZEND_DEBUG /* (a release build's ZEND_ASSERT() would still make the call) */
	ZEND_ASSERT(ASYNC_G(launched) && !ZEND_ASYNC_G(in_scheduler_context) && !ASYNC_SWITCH_BLOCKED()
		&& "async_wait_begin() checked these");
#endif
	async_suspend_waiting(coro, ASYNC_CO_FROM_CORO(coro));
}

/* async_scheduler_yield(), inline. */
static zend_always_inline void async_scheduler_yield_inline(void)
{
	zend_coroutine_t *coro = ZEND_ASYNC_G(coroutine);
	if (coro == NULL || !async_scheduler_may_switch()) {
		return; /* nothing to yield to before the scheduler exists; never where switching is impossible */
	}
	async_coroutine_t *co = ASYNC_CO_FROM_CORO(coro);
	if (async_suspend_throw_pending_cancel(coro, co)) {
		return;
	}
	zend_async_waker_t *waker = coro->waker;
	if (waker == NULL || waker->length != 0 || waker->error != NULL) {
		waker = zend_async_waker_new(coro);
	}
	/* A yield waits on nothing: a bare waiting waker, then straight into the queue. */
	waker->status = ZEND_ASYNC_WAKER_WAITING;
	async_scheduler_queue_enter(coro);
	async_suspend_current(coro, co, waker, true);
	if (coro->waker != NULL && coro->waker->length != 0) {
		zend_async_waker_clean(coro);
	}
}

#endif /* ASYNC_SCHEDULER_SUSPEND_H */
