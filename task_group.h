/*
 * task_group.h — Async\TaskGroup and Async\TaskSet (spec §3.9, §3.10, §8.9).
 */
#ifndef ASYNC_TASK_GROUP_H
#define ASYNC_TASK_GROUP_H

#include "php.h"

extern zend_class_entry *async_ce_task_group;
extern zend_class_entry *async_ce_task_set;

void async_register_task_group_classes(void);

#endif /* ASYNC_TASK_GROUP_H */
