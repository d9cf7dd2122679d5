/*
 * coroutine_output.h — each coroutine's own output buffers (coroutine_output.c).
 *
 * PHP's output layer keeps one stack of handlers (ob_start()) per request. The main flow's
 * handlers are the request's: what a coroutine prints outside its own buffers goes there, as it
 * always did. A handler a coroutine pushes is its own: when the coroutine is switched out, its
 * handlers leave the stack with it (and the handler it may be running, suspended inside an
 * ob_start() callback); when it is switched in, they come back on top. So coroutines that each
 * ob_start(), render and ob_get_clean() never see each other's output. The main flow's handlers
 * leave the stack only while main is suspended inside one of their callbacks: the others' output
 * then goes below them instead of into a buffer whose callback would drop it.
 */
#ifndef ASYNC_COROUTINE_OUTPUT_H
#define ASYNC_COROUTINE_OUTPUT_H

#include "php.h"
#include "php_output.h"

typedef struct {
	php_output_handler **handlers; /* bottom first */
	uint32_t count;
	uint32_t capacity;
	php_output_handler *running;   /* the handler it was running when it was switched out */
	uint32_t base;                 /* the stack depth its own handlers start at */
	bool is_main;                  /* the main flow's: its handlers are the request's */
} async_output_state_t;

/* At launch, for the main coroutine's state: the handlers on the stack now are below all of it. */
void async_output_launch(async_output_state_t *main);
void async_output_switch_slow(async_output_state_t *from, async_output_state_t *to);

/* A switch from the owner of `from` to the owner of `to` (either may be NULL: nobody's). Inline
 * for the common case, on every switch: no handler of either side is on the stack or saved,
 * none is running, so only the new owner's base moves (it is above whatever is there now). */
static zend_always_inline void async_output_switch(async_output_state_t *from, async_output_state_t *to)
{
	uint32_t depth = (uint32_t) OG(handlers).top;
	if (EXPECTED(OG(running) == NULL && (from == NULL || depth <= from->base)
			&& (to == NULL || (to->count == 0 && to->running == NULL))
			&& (OG(flags) & PHP_OUTPUT_ACTIVATED))) {
		if (to != NULL && !to->is_main) {
			to->base = depth;
		}
		return;
	}
	async_output_switch_slow(from, to);
}
/* The current coroutine's body ended: its own buffers are flushed and closed, as PHP does with
 * every buffer at request end. Inline for the common case, a body that opened none. */
void async_output_end_own_slow(async_output_state_t *state);
static zend_always_inline void async_output_end_own(async_output_state_t *state)
{
	if ((OG(flags) & PHP_OUTPUT_ACTIVATED) && (uint32_t) OG(handlers).top > state->base) {
		async_output_end_own_slow(state);
	}
}
/* A coroutine destroyed while switched out: its handlers go without output. */
void async_output_discard(async_output_state_t *state);

#endif /* ASYNC_COROUTINE_OUTPUT_H */
