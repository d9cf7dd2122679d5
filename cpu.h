/* cpu.h — Async\CpuSnapshot, cpu_usage(), loadavg(), available_parallelism() (cpu.c). */
#ifndef ASYNC_CPU_H
#define ASYNC_CPU_H

#include "php.h"

extern zend_class_entry *async_ce_cpu_snapshot;

void async_register_cpu(void);
/* Request end: the stored snapshot of cpu_usage() goes. */
void async_cpu_rshutdown(void);

#endif /* ASYNC_CPU_H */
