/* function_hooks.h — replacing the handlers of PHP's own functions in the function table. */
#ifndef ASYNC_FUNCTION_HOOKS_H
#define ASYNC_FUNCTION_HOOKS_H

#include "php.h"

/* One function made coroutine-aware: `original` is filled at install and is what the
 * replacement calls outside a coroutine. */
typedef struct {
	const char *name;
	zif_handler replacement;
	zif_handler original;
} async_function_hook_t;

/* MINIT: functions that are missing (an extension not loaded) are left alone. */
void async_function_hooks_install(async_function_hook_t *hooks, size_t count);
/* MSHUTDOWN: the original handlers go back. */
void async_function_hooks_uninstall(async_function_hook_t *hooks, size_t count);

#endif /* ASYNC_FUNCTION_HOOKS_H */
