/*
 * core/iterator.c — foreach over an object whose elements come one at a time and cannot be
 * replayed: a channel's messages, a file system watcher's changes, a task group's settled tasks.
 *
 * The engine's iterator, forward-only: the first rewind fetches the first element, later rewinds
 * do nothing, each step fetches the next. What an element is, and how to wait for it, is the
 * owner's fetch(); the rest (the engine's callbacks, the keys 0, 1, 2, ... unless the owner gives
 * its own, what the GC must see) is here once.
 */
#include "php_async.h"
#include "core/core.h"

static void iterator_fetch(async_iterator_t *iter)
{
	zval_ptr_dtor(&iter->current);
	ZVAL_UNDEF(&iter->current);
	zval_ptr_dtor(&iter->key);
	ZVAL_UNDEF(&iter->key);
	iter->started = true;
	iter->ops->fetch(iter);
	if (Z_TYPE(iter->current) != IS_UNDEF) {
		iter->position++;
	}
}

static void iterator_dtor(zend_object_iterator *it)
{
	async_iterator_t *iter = (async_iterator_t *) it;
	if (iter->ops->free_state != NULL) {
		iter->ops->free_state(iter);
	}
	zval_ptr_dtor(&iter->current);
	zval_ptr_dtor(&iter->key);
	zval_ptr_dtor(&it->data);
}

static zend_result iterator_valid(zend_object_iterator *it)
{
	return Z_TYPE(((async_iterator_t *) it)->current) != IS_UNDEF ? SUCCESS : FAILURE;
}

static zval *iterator_current(zend_object_iterator *it)
{
	return &((async_iterator_t *) it)->current;
}

static void iterator_key(zend_object_iterator *it, zval *key)
{
	async_iterator_t *iter = (async_iterator_t *) it;
	if (Z_TYPE(iter->key) != IS_UNDEF) {
		ZVAL_COPY(key, &iter->key);
	} else {
		ZVAL_LONG(key, iter->position - 1);
	}
}

static void iterator_move_forward(zend_object_iterator *it)
{
	iterator_fetch((async_iterator_t *) it);
}

/* Nothing can go back: only the first rewind fetches. */
static void iterator_rewind(zend_object_iterator *it)
{
	async_iterator_t *iter = (async_iterator_t *) it;
	if (!iter->started) {
		iterator_fetch(iter);
	}
}

static HashTable *iterator_get_gc(zend_object_iterator *it, zval **table, int *n)
{
	async_iterator_t *iter = (async_iterator_t *) it;
	zend_get_gc_buffer *buf = zend_get_gc_buffer_create();
	zend_get_gc_buffer_add_zval(buf, &it->data);
	zend_get_gc_buffer_add_zval(buf, &iter->current);
	zend_get_gc_buffer_add_zval(buf, &iter->key);
	zend_get_gc_buffer_use(buf, table, n);
	return NULL;
}

/* per-process: the engine's callbacks, the same for every owner */
static const zend_object_iterator_funcs iterator_funcs = {
	.dtor = iterator_dtor,
	.valid = iterator_valid,
	.get_current_data = iterator_current,
	.get_current_key = iterator_key,
	.move_forward = iterator_move_forward,
	.rewind = iterator_rewind,
	.invalidate_current = NULL,
	.get_gc = iterator_get_gc,
};

zend_object_iterator *async__iterator_new(zval *object, int by_ref, const async_iterator_ops_t *ops)
{
	if (by_ref) {
		zend_throw_error(NULL, "%s", ops->by_ref_error);
		return NULL;
	}
	async_iterator_t *iter = ecalloc(1, sizeof(async_iterator_t));
	zend_iterator_init(&iter->it);
	ZVAL_OBJ_COPY(&iter->it.data, Z_OBJ_P(object));
	iter->it.funcs = &iterator_funcs;
	iter->ops = ops;
	ZVAL_UNDEF(&iter->current);
	ZVAL_UNDEF(&iter->key);
	return &iter->it;
}
