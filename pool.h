/* pool.h — Async\Pool and the ABI's pool table (pool.c). */
#ifndef ASYNC_POOL_H
#define ASYNC_POOL_H

#include "php.h"

extern zend_class_entry *async_ce_pool;
extern zend_class_entry *async_ce_circuit_breaker;
extern zend_class_entry *async_ce_circuit_breaker_state;
extern zend_class_entry *async_ce_circuit_breaker_strategy;

/* MINIT: the classes and the zend_async_pool_api slots. */
void async_register_pool_class(void);

#endif /* ASYNC_POOL_H */
