/*
 * hook_pcntl.c — pcntl_fork() with the runtime alive.
 *
 * A forked child gets a copy of every coroutine of its parent: their stacks, their waits, and
 * the parent's libuv loop, whose epoll instance the two processes would then share (events for
 * one stolen by the other). So a fork while coroutines other than the main one exist is refused
 * (spec §5): nothing would make those copies safe. A fork before anything was spawned, or once
 * every coroutine has finished, is fine: the child re-arms the loop it inherited
 * (uv_loop_fork(), through async_reactor_after_fork()) and starts from an empty run queue.
 */
#include "php_async.h"
#include "hooks.h"
#include "reactor.h"

static ZEND_FUNCTION(async_pcntl_fork);

/* per-process: the function table's handlers, swapped at MINIT */
static async_function_hook_t hooks[] = {
	{ "pcntl_fork", ZEND_FN(async_pcntl_fork), NULL },
};

/* Coroutines besides the main one: spawned and not finished, or the caller itself. */
static bool others_alive(void)
{
	zend_coroutine_t *current = ZEND_ASYNC_G(coroutine);
	return ZEND_ASYNC_G(active_coroutine_count) > 0 || (current != NULL && !ZEND_COROUTINE_IS_MAIN(current));
}

static ZEND_FUNCTION(async_pcntl_fork)
{
	if (ASYNC_G(launched) && others_alive()) {
		zend_throw_error(NULL, "Cannot fork() while coroutines other than the main one are running: "
			"fork before spawning, or once every coroutine has finished");
		RETURN_THROWS();
	}
	hooks[0].original(INTERNAL_FUNCTION_PARAM_PASSTHRU);
	if (Z_TYPE_P(return_value) == IS_LONG && Z_LVAL_P(return_value) == 0) {
		async_reactor_after_fork();
	}
}

void async_pcntl_hooks_install(void)
{
	async_function_hooks_install(hooks, sizeof(hooks) / sizeof(hooks[0]));
}

void async_pcntl_hooks_uninstall(void)
{
	async_function_hooks_uninstall(hooks, sizeof(hooks) / sizeof(hooks[0]));
}
