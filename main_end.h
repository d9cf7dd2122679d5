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
/* MSHUTDOWN: puts back what is still ours to put back. */
void async_main_end_unregister(void);

#endif /* ASYNC_MAIN_END_H */
