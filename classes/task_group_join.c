/*
 * classes/task_group_join.c — a task group's settled tasks as results (a task leaving the group, its
 * [result, error] pair) and its joins: the pending futures of all(), race(), any()
 * (TaskSet: joinAll(), joinNext(), joinAny()), settled by the group as its tasks settle, and the
 * results/errors arrays and CompositeExceptions they are built from. Nothing here runs user code.
 */
#include "php_async.h"
#include "classes/classes.h"
#include "core/core.h"
#include "zend_exceptions.h"

/* A task leaves the group (a TaskSet's delivered ones): its place in the lists and in the map. */
void async__tg_task_remove(async_task_group_t *g, tg_task_t *t)
{
	if (t->removed) {
		return;
	}
	async__tg_list_remove(t->state == TASK_QUEUED ? &g->queue : &g->settled, t);
	if (Z_TYPE(t->key) == IS_LONG) {
		zend_hash_index_del(&g->tasks, Z_LVAL(t->key));
	} else {
		zend_hash_del(&g->tasks, Z_STR(t->key));
	}
}

/* A settled task as foreach and joinNext() give it: [result, null] or [null, error]. */
void async__tg_task_pair(tg_task_t *t, zval *pair)
{
	array_init_size(pair, 2);
	if (t->state == TASK_ERROR) {
		add_next_index_null(pair);
		GC_ADDREF(t->error);
		add_next_index_object(pair, t->error);
		t->handled = true;
	} else {
		Z_TRY_ADDREF(t->result);
		add_next_index_zval(pair, &t->result);
		add_next_index_null(pair);
	}
}

const char *async__tg_join_method(async_task_group_t *g, tg_join_kind kind)
{
	switch (kind) {
		case JOIN_ALL: return g->is_set ? "joinAll" : "all";
		case JOIN_RACE: return g->is_set ? "joinNext" : "race";
		default: return g->is_set ? "joinAny" : "any";
	}
}

tg_join_t *async__tg_join_new(async_task_group_t *g, tg_join_kind kind)
{
	tg_join_t *j = ecalloc(1, sizeof(tg_join_t));
	j->kind = kind;
	j->future = async__future_new();
	return j;
}

void async__tg_join_link(async_task_group_t *g, tg_join_t *j)
{
	async_list_append(&g->joins, &j->link);
	j->linked = true;
}

void async__tg_join_unlink(async_task_group_t *g, tg_join_t *j)
{
	if (j->linked) {
		async_list_remove(&g->joins, &j->link);
		j->linked = false;
	}
}

/* Settles the join's future (value copied / error borrowed) and frees the join. */
void async__tg_join_finish(async_task_group_t *g, tg_join_t *j, zval *value, zend_object *error)
{
	async__tg_join_unlink(g, j);
	if (error != NULL) {
		async__future_reject(j->future, error);
	} else {
		async__future_resolve(j->future, value);
	}
	ZEND_ASYNC_EVENT_RELEASE(&j->future->event);
	efree(j);
}

/* Delivers one task's outcome; a TaskSet removes the delivered entry. A delivered error is
 * observed: whoever reads the future answers for it. */
void async__tg_join_finish_task(async_task_group_t *g, tg_join_t *j, tg_task_t *t)
{
	if (t->state == TASK_ERROR) {
		t->handled = true;
		async__tg_join_finish(g, j, NULL, t->error);
	} else {
		async__tg_join_finish(g, j, &t->result, NULL);
	}
	if (g->is_set) {
		async__tg_task_remove(g, t);
	}
}

/* A CompositeException whose exceptions array is `errors` (task key => error; borrowed). */
zend_object *async__tg_composite(HashTable *errors, const char *format, ...)
{
	va_list args;
	va_start(args, format);
	zend_string *message = zend_vstrpprintf(0, format, args);
	va_end(args);
	zend_object *ex = async__new_exception(async__ce_composite_exception, ZSTR_VAL(message));
	zend_string_release(message);
	zval list;
	ZVAL_ARR(&list, errors);
	zend_update_property(async__ce_composite_exception, ex, "exceptions", sizeof("exceptions") - 1, &list);
	return ex;
}

const char *async__tg_plural(uint32_t n)
{
	return n == 1 ? "" : "s";
}

/* array[task key] = value (the value's reference is the caller's to give). */
void async__tg_array_set(HashTable *ht, zval *key, zval *value)
{
	if (Z_TYPE_P(key) == IS_LONG) {
		zend_hash_index_update(ht, Z_LVAL_P(key), value);
	} else {
		zend_hash_update(ht, Z_STR_P(key), value);
	}
}

/* key => result of every successful task still in the group, in spawn order. */
void async__tg_build_results(async_task_group_t *g, zval *results)
{
	array_init(results);
	tg_task_t *t;
	ZEND_HASH_FOREACH_PTR(&g->tasks, t) {
		if (t->state == TASK_OK) {
			Z_TRY_ADDREF(t->result);
			async__tg_array_set(Z_ARRVAL_P(results), &t->key, &t->result);
		}
	} ZEND_HASH_FOREACH_END();
}

/* key => error of every failed task still in the group; marks them observed. */
void async__tg_build_errors(async_task_group_t *g, zval *errors)
{
	array_init(errors);
	tg_task_t *t;
	ZEND_HASH_FOREACH_PTR(&g->tasks, t) {
		if (t->state == TASK_ERROR) {
			zval zv;
			ZVAL_OBJ_COPY(&zv, t->error);
			async__tg_array_set(Z_ARRVAL_P(errors), &t->key, &zv);
			t->handled = true;
		}
	} ZEND_HASH_FOREACH_END();
}

/* Removes the settled tasks older than `limit` (all of them, or the failed ones): a TaskSet
 * delivered them. */
static void tg_remove_settled(async_task_group_t *g, uint64_t limit, bool errors_only)
{
	tg_task_t *t = FIRST_TASK(&g->settled);
	while (t != NULL) {
		tg_task_t *next = NEXT_TASK(t);
		if (t->seq < limit && (!errors_only || t->state == TASK_ERROR)) {
			async__tg_task_remove(g, t);
		}
		t = next;
	}
}

/* all(): the covered tasks have all settled. The errors are observed even with ignoreErrors. */
void async__tg_join_all_finish(async_task_group_t *g, tg_join_t *j)
{
	zval results, errors;
	array_init(&results);
	array_init(&errors);
	tg_task_t *t;
	ZEND_HASH_FOREACH_PTR(&g->tasks, t) {
		if (t->seq >= j->limit) {
			continue;
		}
		zval zv;
		if (t->state == TASK_OK) {
			ZVAL_COPY(&zv, &t->result);
			async__tg_array_set(Z_ARRVAL(results), &t->key, &zv);
		} else if (t->state == TASK_ERROR) {
			t->handled = true;
			ZVAL_OBJ_COPY(&zv, t->error);
			async__tg_array_set(Z_ARRVAL(errors), &t->key, &zv);
		}
	} ZEND_HASH_FOREACH_END();

	uint64_t limit = j->limit;
	uint32_t failed = zend_hash_num_elements(Z_ARRVAL(errors));
	if (failed > 0 && !j->ignore_errors) {
		uint32_t total = failed + zend_hash_num_elements(Z_ARRVAL(results));
		zend_object *error = async__tg_composite(Z_ARRVAL(errors), "%u of %u task%s failed", failed, total, async__tg_plural(total));
		async__tg_join_finish(g, j, NULL, error);
		OBJ_RELEASE(error);
	} else {
		async__tg_join_finish(g, j, &results, NULL);
	}
	zval_ptr_dtor(&results);
	zval_ptr_dtor(&errors);
	if (g->is_set) {
		tg_remove_settled(g, limit, false);
	}
}

tg_task_t *async__tg_first_success(async_task_group_t *g)
{
	for (tg_task_t *t = FIRST_TASK(&g->settled); t != NULL; t = NEXT_TASK(t)) {
		if (t->state == TASK_OK) {
			return t;
		}
	}
	return NULL;
}

/* any(): nothing is left to run and every task still in the group failed. */
void async__tg_join_any_fail(async_task_group_t *g, tg_join_t *j)
{
	zval errors;
	async__tg_build_errors(g, &errors);
	uint32_t n = zend_hash_num_elements(Z_ARRVAL(errors));
	zend_object *error = async__tg_composite(Z_ARRVAL(errors), "All %u task%s failed", n, async__tg_plural(n));
	zval_ptr_dtor(&errors);
	async__tg_join_finish(g, j, NULL, error);
	OBJ_RELEASE(error);
	if (g->is_set) {
		tg_remove_settled(g, UINT64_MAX, true);
	}
}

/* A TaskSet whose entries were all taken by other joins has nothing left for a pending
 * joinNext()/joinAny(): it fails rather than waiting for a task that may never be spawned. */
void async__tg_join_starve(async_task_group_t *g)
{
	if (TG_UNSETTLED(g) != 0 || zend_hash_num_elements(&g->tasks) != 0) {
		return;
	}
	tg_join_t *j = FIRST_JOIN(g);
	while (j != NULL) {
		tg_join_t *next = j->link.next ? JOIN_OF(j->link.next) : NULL;
		if (j->kind != JOIN_ALL) {
			zend_string *message = zend_strpprintf(0, "%s() has no task left to deliver: the %s is empty",
				async__tg_join_method(g, j->kind), TG_NAME(g));
			zend_object *error = async__new_exception(async__ce_async_exception, ZSTR_VAL(message));
			zend_string_release(message);
			async__tg_join_finish(g, j, NULL, error);
			OBJ_RELEASE(error);
		}
		j = next;
	}
}

/* A task settled: hand it to the pending joins, oldest first. */
void async__tg_deliver(async_task_group_t *g, tg_task_t *t)
{
	tg_join_t *j = FIRST_JOIN(g);
	while (j != NULL) {
		tg_join_t *next = j->link.next ? JOIN_OF(j->link.next) : NULL;
		switch (j->kind) {
			case JOIN_ALL:
				if (t->seq < j->limit && --j->pending == 0) {
					async__tg_join_all_finish(g, j);
				}
				break;
			case JOIN_RACE:
				if (!t->removed) {
					async__tg_join_finish_task(g, j, t);
				}
				break;
			case JOIN_ANY:
				if (!t->removed && t->state == TASK_OK) {
					async__tg_join_finish_task(g, j, t);
					break;
				}
				if (!t->removed) {
					t->handled = true;
				}
				if (TG_UNSETTLED(g) == 0 && g->settled.first != NULL && async__tg_first_success(g) == NULL) {
					async__tg_join_any_fail(g, j);
				}
				break;
		}
		j = next;
	}
}
