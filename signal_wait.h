/* signal_wait.h — Async\signal() and Async\Signal (signal_wait.c): a Future that resolves when the process
 * receives a signal. */
#ifndef ASYNC_SIGNAL_WAIT_H
#define ASYNC_SIGNAL_WAIT_H

#include "php.h"

extern zend_class_entry *async_ce_signal;

/* MINIT: the enum, signal(), and the graceful-shutdown listener that rejects pending waits. */
void async_register_signal(void);
/* Request end: pending waits let go of their events (before the reactor shuts down). */
void async_signal_rshutdown(void);

#endif /* ASYNC_SIGNAL_WAIT_H */
