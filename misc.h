/*
 * misc.h — the runtime's odds and ends (misc.stub.php): Async\signal() and Async\Signal,
 * available_parallelism(), runtime_stats(), cpu_usage(), loadavg() and Async\CpuSnapshot.
 */
#ifndef ASYNC_MISC_H
#define ASYNC_MISC_H

#include "php_async.h"

extern zend_class_entry *async_ce_signal;
extern zend_class_entry *async_ce_cpu_snapshot;

/* misc.c: registers the classes, the functions and the reactor's signal slot. */
void async_register_misc(void);
/* Request end: pending signal waits, armed signal events, the stored CPU snapshot. Runs before
 * the reactor shuts down. */
void async_misc_rshutdown(void);

/* signal.c */
void async_signal_rshutdown(void);
/* Rejects every pending signal wait with AsyncCancellation(message) (graceful shutdown). */
void async_signal_cancel_all(const char *message);

/* cpu.c */
void async_cpu_snapshot_register(zend_class_entry *ce);
void async_cpu_rshutdown(void);

#endif /* ASYNC_MISC_H */
