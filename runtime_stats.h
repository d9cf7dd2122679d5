/* runtime_stats.h — Async\runtime_stats() (runtime_stats.c). */
#ifndef ASYNC_RUNTIME_STATS_H
#define ASYNC_RUNTIME_STATS_H

void async_register_runtime_stats(void);

#endif /* ASYNC_RUNTIME_STATS_H */
