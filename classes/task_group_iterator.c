/*
 * task_group_iterator.c — foreach over a TaskGroup / TaskSet: key => [result, null] |
 * [null, error], in settle order, suspending for the next settled task; it ends when the group
 * is closed and everything has been yielded. A TaskSet's iteration consumes: yielded entries
 * leave the set.
 */
#include "php_async.h"
#include "classes/classes.h"
#include "core/core.h"
#include "zend_exceptions.h"

typedef struct {
	zend_object_iterator it;
	tg_task_t *last;    /* TaskGroup: the last task yielded (one reference); the list only grows */
	zval current;
	zval key;
	bool started;
} tg_iterator_t;

static void tg_iterator_fetch(tg_iterator_t *iter)
{
	async_task_group_t *g = TG_FROM_OBJ(Z_OBJ(iter->it.data));
	zval_ptr_dtor(&iter->current);
	ZVAL_UNDEF(&iter->current);
	zval_ptr_dtor(&iter->key);
	ZVAL_UNDEF(&iter->key);
	iter->started = true;

	for (;;) {
		tg_task_t *t = g->is_set || iter->last == NULL ? FIRST_TASK(&g->settled) : NEXT_TASK(iter->last);
		if (t != NULL) {
			async_tg_task_pair(t, &iter->current);
			ZVAL_COPY(&iter->key, &t->key);
			if (g->is_set) {
				async_tg_task_remove(g, t);
			} else {
				async_tg_task_addref(t);
				if (iter->last) {
					async_tg_task_release(iter->last);
				}
				iter->last = t;
			}
			return;
		}
		if (g->closed && TG_UNSETTLED(g) == 0) {
			return; /* drained */
		}
		if (!async_tg_park(g, WAIT_ITERATOR)) {
			return; /* the exception goes to the engine */
		}
	}
}

static void tg_iterator_dtor(zend_object_iterator *it)
{
	tg_iterator_t *iter = (tg_iterator_t *) it;
	if (iter->last) {
		async_tg_task_release(iter->last);
	}
	zval_ptr_dtor(&iter->current);
	zval_ptr_dtor(&iter->key);
	zval_ptr_dtor(&it->data);
}

static zend_result tg_iterator_valid(zend_object_iterator *it)
{
	return Z_TYPE(((tg_iterator_t *) it)->current) != IS_UNDEF ? SUCCESS : FAILURE;
}

static zval *tg_iterator_current(zend_object_iterator *it)
{
	return &((tg_iterator_t *) it)->current;
}

static void tg_iterator_key(zend_object_iterator *it, zval *key)
{
	ZVAL_COPY(key, &((tg_iterator_t *) it)->key);
}

static void tg_iterator_move_forward(zend_object_iterator *it)
{
	tg_iterator_fetch((tg_iterator_t *) it);
}

/* Like a channel, the group cannot go back: only the first rewind fetches. */
static void tg_iterator_rewind(zend_object_iterator *it)
{
	tg_iterator_t *iter = (tg_iterator_t *) it;
	if (!iter->started) {
		tg_iterator_fetch(iter);
	}
}

static HashTable *tg_iterator_get_gc(zend_object_iterator *it, zval **table, int *n)
{
	tg_iterator_t *iter = (tg_iterator_t *) it;
	zend_get_gc_buffer *buf = zend_get_gc_buffer_create();
	zend_get_gc_buffer_add_zval(buf, &it->data);
	zend_get_gc_buffer_add_zval(buf, &iter->current);
	zend_get_gc_buffer_use(buf, table, n);
	return NULL;
}

static const zend_object_iterator_funcs tg_iterator_funcs = {
	.dtor = tg_iterator_dtor,
	.valid = tg_iterator_valid,
	.get_current_data = tg_iterator_current,
	.get_current_key = tg_iterator_key,
	.move_forward = tg_iterator_move_forward,
	.rewind = tg_iterator_rewind,
	.invalidate_current = NULL,
	.get_gc = tg_iterator_get_gc,
};

zend_object_iterator *async_tg_get_iterator(zend_class_entry *ce, zval *object, int by_ref)
{
	if (by_ref) {
		zend_throw_error(NULL, "An iterator cannot be used with foreach by reference");
		return NULL;
	}
	tg_iterator_t *iter = ecalloc(1, sizeof(tg_iterator_t));
	zend_iterator_init(&iter->it);
	ZVAL_OBJ_COPY(&iter->it.data, Z_OBJ_P(object));
	iter->it.funcs = &tg_iterator_funcs;
	ZVAL_UNDEF(&iter->current);
	ZVAL_UNDEF(&iter->key);
	return &iter->it;
}
