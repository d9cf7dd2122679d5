/*
 * main_end.h — the main script's end: an uncaught cancellation ends it quietly, exit() starts the
 * graceful shutdown (main_end.c).
 */
#ifndef ASYNC_MAIN_END_H
#define ASYNC_MAIN_END_H

/* MINIT: the exit() hook (the ZEND_EXIT handler, or exit()/die() from 8.4) and the error callback
 * (chained to what was there). */
void async_main_end_register(void);
/* RINIT: re-wraps the error callback if an extension replaced it since. */
void async_main_end_rinit(void);
/* A filter of the runtime's error callback, registered at MINIT by a layer above (the hooks):
 * true drops the report (a warning a driver raises under a cancellation it never saw). At most
 * four. */
typedef bool (*async_error_filter_fn)(int type);
void async_error_filter_register(async_error_filter_fn filter);
/* MSHUTDOWN: puts back what is still ours to put back. */
void async_main_end_unregister(void);

#endif /* ASYNC_MAIN_END_H */
