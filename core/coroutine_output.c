/*
 * core/coroutine_output.c — each coroutine's own output buffers (see core/core.h).
 *
 * Only pointers move: a switch pops the leaving coroutine's handlers off OG(handlers) into its
 * state and pushes the entering one's back, then points OG(active) at the new top. A switch
 * between two coroutines with no buffers of their own touches nothing.
 */
#include "php_async.h"
#include "core/core.h"

static uint32_t output_depth(void)
{
	return (uint32_t) zend_stack_count(&OG(handlers));
}

static void output_set_active(void)
{
	php_output_handler **top = zend_stack_top(&OG(handlers));
	OG(active) = top ? *top : NULL;
}

void async__output_launch(async_output_state_t *main)
{
	main->is_main = true;
	main->base = OG(flags) & PHP_OUTPUT_ACTIVATED ? output_depth() : 0;
}

/* Moves the handlers above state->base into `state`, bottom first. */
static void output_leave(async_output_state_t *state)
{
	uint32_t depth = output_depth();
	uint32_t own = depth > state->base ? depth - state->base : 0;
	ZEND_ASSERT(state->count == 0 && "a coroutine's handlers are either on the stack or saved");
	if (own > state->capacity) {
		state->capacity = own;
		state->handlers = safe_erealloc(state->handlers, own, sizeof(php_output_handler *), 0);
	}
	for (uint32_t i = own; i > 0; i--) {
		php_output_handler **top = zend_stack_top(&OG(handlers));
		state->handlers[i - 1] = *top;
		zend_stack_del_top(&OG(handlers));
	}
	state->count = own;
	state->running = OG(running);
	OG(running) = NULL;
}

static void output_enter(async_output_state_t *state)
{
	if (!state->is_main) {
		state->base = output_depth(); /* above whatever main has now */
	}
	for (uint32_t i = 0; i < state->count; i++) {
		zend_stack_push(&OG(handlers), &state->handlers[i]);
	}
	state->count = 0;
	OG(running) = state->running;
	state->running = NULL;
}

void async__output_switch_slow(async_output_state_t *from, async_output_state_t *to)
{
	if (!(OG(flags) & PHP_OUTPUT_ACTIVATED)) {
		return; /* request shutdown already closed the output layer */
	}
	bool moved = false;
	if (from != NULL && (!from->is_main || OG(running) != NULL)
		&& (output_depth() > from->base || OG(running) != NULL)) {
		output_leave(from);
		moved = true;
	}
	if (to != NULL) {
		if (to->count > 0 || to->running != NULL) {
			moved = true;
		}
		output_enter(to);
	}
	if (moved) {
		output_set_active();
	}
}

void async__output_end_own_slow(async_output_state_t *state)
{
	while (output_depth() > state->base && OG(active) != NULL && php_output_end() == SUCCESS) {
	}
}

void async__output_discard(async_output_state_t *state)
{
	for (uint32_t i = 0; i < state->count; i++) {
		php_output_handler_free(&state->handlers[i]);
	}
	state->count = 0;
	state->running = NULL;
	if (state->handlers != NULL) {
		efree(state->handlers);
		state->handlers = NULL;
	}
	state->capacity = 0;
}
