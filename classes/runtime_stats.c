/*
 * classes/runtime_stats.c — Async\runtime_stats().
 *
 * runtime_stats() maps TrueAsync's keys onto this runtime (README, "Runtime introspection"):
 *   coroutines_total         coroutines spawned in this request (the main coroutine is not one)
 *   coroutines_active        spawned and not finished yet
 *   microtasks_queue         microtasks waiting to run
 *   coroutine_queue          queued coroutines that have not started yet
 *   resumed_queue            queued coroutines that were woken after a suspension
 *                            (one run queue here: the two are its entries split by kind)
 *   fiber_pool_count         parked C contexts ready for reuse
 *   fiber_pool_capacity      how many may be parked (async.context_pool_size); 0 before launch
 *   fiber_pool_min           0: no context is created ahead of need
 *   fiber_stack_size         bytes of C stack per context (fiber.stack_size)
 *   fiber_pool_virtual_bytes address space of every live context, bound or parked: its stack
 *                            rounded up to pages, plus the guard page
 */
#include "php_async.h"
#include "classes/classes.h"
#include "core/core.h"
#include "runtime_stats_arginfo.h"

/* Queued entries still due: not started yet, or woken and waiting for their turn. Entries left
 * behind by a wait that ended another way are skipped, as the run loop skips them. */
static void run_queue_counts(uint32_t *fresh, uint32_t *resumed)
{
	async_ring_t *q = &ASYNC_G(run_queue);
	*fresh = *resumed = 0;
	for (uint32_t i = 0; i < q->count; i++) {
		zend_coroutine_t *coro = *ASYNC_RING_AT(q, i, zend_coroutine_t *);
		if (ZEND_COROUTINE_IS_FINISHED(coro) && !ZEND_COROUTINE_IS_MAIN(coro)) {
			continue;
		}
		if (!ZEND_COROUTINE_IS_STARTED(coro)) {
			(*fresh)++;
		} else if (coro->waker != NULL && coro->waker->status == ZEND_ASYNC_WAKER_QUEUED) {
			(*resumed)++;
		}
	}
}

/* What zend_fiber_init_context() maps for one context: the stack in whole pages + guard pages. */
static zend_long context_virtual_bytes(void)
{
	zend_long page = (zend_long) zend_get_page_size();
	if (page <= 0 || (page & (page - 1)) != 0) {
		page = 4096; /* the engine's own fallback */
	}
	zend_long stack = (zend_long) EG(fiber_stack_size);
	return (stack + page - 1) / page * page + ZEND_FIBER_GUARD_PAGES * page;
}

ZEND_FUNCTION(Async_runtime_stats)
{
	ZEND_PARSE_PARAMETERS_NONE();
	bool launched = ASYNC_G(launched);
	uint32_t fresh, resumed;
	run_queue_counts(&fresh, &resumed);

	array_init_size(return_value, 10);
	add_assoc_long(return_value, "coroutines_total", (zend_long) ASYNC_G(coroutines_total));
	add_assoc_long(return_value, "coroutines_active", ZEND_ASYNC_G(active_coroutine_count));
	add_assoc_long(return_value, "microtasks_queue", ASYNC_G(microtasks_length));
	add_assoc_long(return_value, "coroutine_queue", fresh);
	add_assoc_long(return_value, "resumed_queue", resumed);
	add_assoc_long(return_value, "fiber_pool_count", ASYNC_G(free_workers_count));
	add_assoc_long(return_value, "fiber_pool_capacity", launched ? ASYNC_G(context_pool_size) : 0);
	add_assoc_long(return_value, "fiber_pool_min", 0);
	add_assoc_long(return_value, "fiber_stack_size", (zend_long) EG(fiber_stack_size));
	add_assoc_long(return_value, "fiber_pool_virtual_bytes", (zend_long) ASYNC_G(live_contexts) * context_virtual_bytes());
}

zend_result async__runtime_stats_minit(void)
{
	zend_register_functions(NULL, ext_functions, NULL, MODULE_PERSISTENT);
	return SUCCESS;
}
