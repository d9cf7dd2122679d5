/*
 * core/coroutine_autoload.c — class autoloading across coroutines.
 *
 * The engine guards autoloading against recursion with one table per request, EG(in_autoload):
 * while a class is being autoloaded, another lookup of it gives up ("Class not found"). With
 * coroutines, an autoloader may suspend (it reads the class file through a coroutine-aware
 * stream, asks a service...), and a second coroutine needing the same class would meet that guard
 * and fail. So each coroutine has its own guard table (swapped with the coroutine, like its
 * output buffers), and zend_autoload is wrapped: a coroutine that asks for a class another
 * coroutine is autoloading waits until that one is done, then looks again — the autoloader runs
 * once, as for sequential code. Recursion within one coroutine still meets the engine's guard.
 */
#include "php_async.h"
#include "core/core.h"
#include "zend_execute.h"

/* per-process: the autoloader ours wraps (SPL's), saved at MINIT */
static zend_class_entry *(*autoload_prev)(zend_string *name, zend_string *lc_name);

void async__autoload_free(HashTable **table)
{
	if (*table != NULL) {
		zend_hash_destroy(*table);
		FREE_HASHTABLE(*table);
		*table = NULL;
	}
}

/* Whether another coroutine is autoloading lc_name. */
static bool loading_elsewhere(zend_string *lc_name)
{
	HashTable *loading = ASYNC_G(autoloading);
	zend_coroutine_t *owner = loading != NULL ? zend_hash_find_ptr(loading, lc_name) : NULL;
	return owner != NULL && owner != ZEND_ASYNC_CURRENT_COROUTINE;
}

static zend_class_entry *load_class(zend_string *name, zend_string *lc_name)
{
	zend_coroutine_t *me = ZEND_ASYNC_CURRENT_COROUTINE;
	if (me == NULL || !ASYNC_G(launched)) {
		return autoload_prev(name, lc_name);
	}
	if (loading_elsewhere(lc_name) && async__wait_allowed()) {
		/* rare (an autoloader suspended): short sleeps, not an event per class */
		while (loading_elsewhere(lc_name)) {
			if (!async__wait_ms(1, 0)) {
				return NULL; /* cancelled: the exception is thrown from the lookup */
			}
		}
		zend_class_entry *ce = zend_hash_find_ptr(EG(class_table), lc_name);
		if (ce != NULL) {
			return ce;
		}
		/* its autoloader did not declare it: ours may */
	}
	HashTable *loading = ASYNC_G(autoloading);
	if (loading == NULL) {
		ALLOC_HASHTABLE(loading);
		zend_hash_init(loading, 8, NULL, NULL, 0);
		ASYNC_G(autoloading) = loading;
	}
	bool mine = zend_hash_add_ptr(loading, lc_name, me) != NULL;
	zend_class_entry *ce = autoload_prev(name, lc_name);
	if (mine && ASYNC_G(autoloading) != NULL) {
		zend_hash_del(ASYNC_G(autoloading), lc_name);
	}
	return ce;
}

zend_result async__autoload_minit(void)
{
	autoload_prev = zend_autoload;
	if (autoload_prev != NULL) {
		zend_autoload = load_class;
	}
	return SUCCESS;
}

void async__autoload_mshutdown(void)
{
	if (zend_autoload == load_class) {
		zend_autoload = autoload_prev;
	}
}

void async__autoload_rshutdown(void)
{
	async__autoload_free(&ASYNC_G(autoloading));
}
