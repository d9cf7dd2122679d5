/*
 * coroutine_autoload.h — class autoloading across coroutines: a guard table per coroutine, and a
 * coroutine needing a class another one is autoloading waits for it (coroutine_autoload.c).
 */
#ifndef ASYNC_COROUTINE_AUTOLOAD_H
#define ASYNC_COROUTINE_AUTOLOAD_H

#include "php.h"

/* Switching coroutines: *save gets the engine's current guard table, `load` becomes it. Inline:
 * it is on every switch. */
static zend_always_inline void async_autoload_switch(HashTable **save, HashTable *load)
{
	*save = EG(in_autoload);
	EG(in_autoload) = load;
}
/* A coroutine's guard table, when it is freed. */
void async_autoload_free(HashTable **table);

/* MINIT / MSHUTDOWN: wraps zend_autoload (SPL's dispatcher) / puts it back. */
void async_autoload_register(void);
void async_autoload_unregister(void);
/* RSHUTDOWN: the table of classes being autoloaded. */
void async_autoload_rshutdown(void);

#endif /* ASYNC_COROUTINE_AUTOLOAD_H */
