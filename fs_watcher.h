/* fs_watcher.h — Async\FileSystemWatcher and Async\FileSystemEvent (fs_watcher.c, spec §3.15). */
#ifndef ASYNC_FS_WATCHER_H
#define ASYNC_FS_WATCHER_H

#include "php.h"

extern zend_class_entry *async_ce_fs_watcher;
extern zend_class_entry *async_ce_fs_event;

/* MINIT: both classes. */
void async_register_fs_watcher(void);

#endif /* ASYNC_FS_WATCHER_H */
