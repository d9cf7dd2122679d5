/*
 * hooks/functions.c — the one way the extension makes a PHP function coroutine-aware: its handler
 * in the function table is swapped at MINIT (sleep family, DNS, ext/sockets, stream_select).
 */
#include "hooks/hooks.h"
#include "core/core.h"

void async__function_hooks_install(async_function_hook_t *hooks, size_t count)
{
	for (size_t i = 0; i < count; i++) {
		zend_function *fn = zend_hash_str_find_ptr(CG(function_table), hooks[i].name, strlen(hooks[i].name));
		if (fn == NULL || fn->type != ZEND_INTERNAL_FUNCTION) {
			continue;
		}
#if ASYNC_HAVE_FRAMELESS
		/* P18: a frameless variant would bypass the handler. */
		if (fn->internal_function.frameless_function_infos != NULL) {
			continue;
		}
#endif
		hooks[i].original = fn->internal_function.handler;
		fn->internal_function.handler = hooks[i].replacement;
	}
}

void async__function_hooks_uninstall(async_function_hook_t *hooks, size_t count)
{
	for (size_t i = 0; i < count; i++) {
		zend_function *fn = zend_hash_str_find_ptr(CG(function_table), hooks[i].name, strlen(hooks[i].name));
		if (fn != NULL && hooks[i].original != NULL) {
			fn->internal_function.handler = hooks[i].original;
		}
		hooks[i].original = NULL;
	}
}
