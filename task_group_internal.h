/*
 * task_group_internal.h — what the three files of Async\TaskGroup / Async\TaskSet share:
 * task_group.c (the group, its tasks, settling and completion, the PHP methods), task_group_join.c
 * (the futures of all()/race()/any() and the TaskSet joins) and task_group_iterator.c (foreach).
 * Nothing outside these files includes it.
 */
#ifndef ASYNC_TASK_GROUP_INTERNAL_H
#define ASYNC_TASK_GROUP_INTERNAL_H

#include "php_async.h"
#include "task_group.h"

typedef struct _async_task_group_s async_task_group_t;
typedef struct _tg_task_s tg_task_t;
typedef struct _tg_waiter_s tg_waiter_t;
typedef struct _tg_join_s tg_join_t;

typedef enum { TASK_QUEUED, TASK_RUNNING, TASK_OK, TASK_ERROR } tg_task_state;
typedef enum { JOIN_ALL, JOIN_RACE, JOIN_ANY } tg_join_kind;
typedef enum { WAIT_PRODUCER, WAIT_ITERATOR } tg_waiter_kind;

/* A task. It is the callback subscribed to its coroutine, so it is reference counted like one:
 * the tasks table holds a reference, the coroutine's callback vector another while subscribed. */
struct _tg_task_s {
	zend_async_event_callback_t cb;
	async_task_group_t *group;       /* NULL once detached from a freed group */
	zend_coroutine_t *coroutine;     /* one reference while running */
	zend_fcall_t *fcall;             /* the callable and its arguments while queued */
	async_list_node_t link;          /* in the queue while queued, in `settled` once settled */
	zval key;
	zval result;
	zend_object *error;
	uint64_t seq;                    /* spawn order: all() covers the tasks older than the call */
	tg_task_state state;
	bool linked;                     /* in the queue or in `settled` */
	bool removed;                    /* no longer in the tasks table (delivered by a TaskSet) */
	bool handled;                    /* its error was observed */
};

#define TASK_OF(n)       ASYNC_LIST_ITEM((n), tg_task_t, link)
#define FIRST_TASK(list) ((list)->first ? TASK_OF((list)->first) : NULL)
#define NEXT_TASK(t)     ((t)->link.next ? TASK_OF((t)->link.next) : NULL)

/* A coroutine parked on the group: a producer waiting for room in the queue or an iterator
 * waiting for the next settled task. It is the waker's callback; the list holds one reference. */
struct _tg_waiter_s {
	zend_coroutine_event_callback_t cb;
	async_list_node_t link;          /* in the group's `waiters` while linked */
	tg_waiter_kind kind;
	bool linked;
};

/* A pending future of all()/race()/any() (TaskSet: joinAll/joinNext/joinAny). */
struct _tg_join_s {
	async_list_node_t link;          /* in the group's `joins` while linked */
	bool linked;
	zend_future_t *future;           /* one reference */
	tg_join_kind kind;
	bool ignore_errors;              /* all(true) */
	uint64_t limit;                  /* all(): covers the tasks with seq < limit */
	uint32_t pending;                /* all(): covered tasks not settled yet */
};

struct _async_task_group_s {
	zend_async_event_t event;        /* first: the Awaitable event */
	HashTable tasks;                 /* key => tg_task_t*, in spawn order */
	async_list_t queue;              /* queued tasks, FIFO */
	async_list_t settled;            /* settled tasks in settle order (TaskSet: undelivered ones) */
	async_list_t waiters;            /* parked producers and iterators (tg_waiter_t) */
	async_list_t joins;              /* pending joins, oldest first (tg_join_t) */
	zend_async_scope_t *scope;       /* the group's own scope (one reference) */
	zend_async_scope_t *parent_scope; /* the scope it was created in (one reference) */
	zend_async_event_callback_t *scope_listener;
	zend_array *finally_handlers;
	zval completion;                 /* the results array the event fired with */
	uint32_t concurrency;            /* 0 = unlimited */
	uint32_t queue_limit;            /* 0 = unbounded */
	uint32_t queued, running;
	uint64_t next_seq;
	bool is_set;                     /* Async\TaskSet: delivered entries are removed */
	bool constructed;
	bool closed;                     /* no new tasks */
	bool disposed;                   /* dispose() or destruction: spawn() says "completed" */
	bool destroyed;
	bool cancelled;                  /* cancel(), dispose(), destruction: queued tasks never start */
	bool pumping;                    /* starting queued tasks (re-entrancy guard) */
	zend_object std;
};

#define TG_FROM_OBJ(o)    ((async_task_group_t *) ((char *) (o) - XtOffsetOf(async_task_group_t, std)))
#define TG_EVENT(g)       (&(g)->event)
#define TG_COMPLETE(g)    ZEND_ASYNC_EVENT_IS_CLOSED(TG_EVENT(g))
#define TG_NAME(g)        ((g)->is_set ? "TaskSet" : "TaskGroup")
#define TG_UNSETTLED(g)   ((g)->queued + (g)->running)
#define WAITER_OF(n)      ASYNC_LIST_ITEM((n), tg_waiter_t, link)
#define JOIN_OF(n)        ASYNC_LIST_ITEM((n), tg_join_t, link)
#define FIRST_JOIN(g)     ((g)->joins.first ? JOIN_OF((g)->joins.first) : NULL)

static zend_always_inline void async_tg_task_addref(tg_task_t *t)
{
	t->cb.ref_count++;
}

static zend_always_inline void async_tg_task_release(tg_task_t *t)
{
	zend_async_event_callback_unref(&t->cb, NULL);
}

/* task_group.c */
void async_tg_task_remove(async_task_group_t *g, tg_task_t *t);
void async_tg_task_pair(tg_task_t *t, zval *pair);
bool async_tg_park(async_task_group_t *g, tg_waiter_kind kind);

/* task_group_join.c */
const char *async_tg_join_method(async_task_group_t *g, tg_join_kind kind);
tg_join_t *async_tg_join_new(async_task_group_t *g, tg_join_kind kind);
void async_tg_join_link(async_task_group_t *g, tg_join_t *j);
void async_tg_join_unlink(async_task_group_t *g, tg_join_t *j);
void async_tg_join_finish(async_task_group_t *g, tg_join_t *j, zval *value, zend_object *error);
void async_tg_join_finish_task(async_task_group_t *g, tg_join_t *j, tg_task_t *t);
/* A CompositeException whose exceptions array is `errors` (task key => error; borrowed). */
zend_object *async_tg_composite(HashTable *errors, const char *format, ...) ZEND_ATTRIBUTE_FORMAT(printf, 2, 3);
const char *async_tg_plural(uint32_t n);
void async_tg_array_set(HashTable *ht, zval *key, zval *value);
void async_tg_build_results(async_task_group_t *g, zval *results);
void async_tg_build_errors(async_task_group_t *g, zval *errors);
void async_tg_join_all_finish(async_task_group_t *g, tg_join_t *j);
tg_task_t *async_tg_first_success(async_task_group_t *g);
void async_tg_join_any_fail(async_task_group_t *g, tg_join_t *j);
void async_tg_join_starve(async_task_group_t *g);
void async_tg_deliver(async_task_group_t *g, tg_task_t *t);

/* task_group_iterator.c */
zend_object_iterator *async_tg_get_iterator(zend_class_entry *ce, zval *object, int by_ref);

#endif /* ASYNC_TASK_GROUP_INTERNAL_H */
