/*
 * hooks/pdo_pool_conn.c — the PDO pool's connections: the Async\Pool they live in (the ABI's
 * pool, with C callbacks, as another extension would make it), which coroutine each is bound
 * to, and when it goes back.
 *
 * A coroutine's call on a template takes a connection from the pool (waiting in arrival order at
 * PDO::ATTR_POOL_MAX) and binds it to the coroutine's view. After the call the connection goes
 * back unless it is pinned: a statement prepared on it is alive, or a transaction is open. When
 * it goes back the view keeps what a private connection would still report (errorCode(),
 * errorInfo(), lastInsertId()), and the attributes the coroutine set are put back to the
 * template's values. A connection left in a transaction by its coroutine's end is rolled back
 * first (by a short coroutine of its own: the ending one cannot wait any more). A connection
 * whose call was cancelled, or whose server went away, is broken: destroyed when it leaves its
 * coroutine, never handed out again; the pool makes a new one if it falls below its minimum.
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif
#include "php_async.h"
#include "hooks/hooks.h"

#ifdef HAVE_ASYNC_PDO_POOL

#include "async_io_wait.h"
#include "zend_exceptions.h"
#include "zend_interfaces.h"

/* per-process: "00000", the state of a connection without an error */
static zend_string *str_no_error;

/* per-process: the handlers of tracked statements, PHP's with free_obj wrapped (made from the
 * first statement; every PDOStatement has PHP's one set) */
static zend_object_handlers stmt_handlers;
static const zend_object_handlers *stmt_orig_handlers;

static void conn_return(async_pdo_conn_t *conn, bool may_wait);

static async_pdo_tpl_t *pool_tpl(zend_async_pool_t *pool)
{
	return *(async_pdo_tpl_t **) pool->user_data;
}

static async_pdo_conn_t *conn_of(async_pdo_tpl_t *tpl, zval *resource)
{
	if (tpl == NULL || Z_TYPE_P(resource) != IS_OBJECT) {
		return NULL;
	}
	async_pdo_conn_t *conn = zend_hash_index_find_ptr(&tpl->conns, Z_OBJ_HANDLE_P(resource));
	return conn != NULL && conn->obj == Z_OBJ_P(resource) ? conn : NULL;
}

/* ---------------------------------------------------------------------------------------------
 * The pool's callbacks
 * ------------------------------------------------------------------------------------------- */

/* A new physical object of the template's class, made with the template's constructor arguments
 * (PHP's exception when it fails). */
static bool conn_construct(async_pdo_tpl_t *tpl, zval *object)
{
	if (object_init_ex(object, tpl->conn_ce) != SUCCESS) {
		return false;
	}
	zend_object *obj = Z_OBJ_P(object);
	zend_function *ctor = obj->handlers->get_constructor(obj);
	if (ctor == NULL) {
		return false;
	}
	zend_call_known_instance_method(ctor, obj, NULL, tpl->ctor_argc, tpl->ctor_args);
	return EG(exception) == NULL;
}

/* MySQL's id of the connection's server thread, for a KILL QUERY when a call on it is cancelled.
 * Asked with prepares emulated for the moment (pdo_mysql's preparer reads only the connection's
 * flag): no server-side statement counted against the user's. */
static void conn_read_thread_id(async_pdo_conn_t *conn)
{
	pdo_dbh_t *dbh = async__pdo_dbh(conn->obj);
	zval emulate, rv;
	ZVAL_UNDEF(&emulate);
	if (dbh->methods->get_attribute == NULL || dbh->methods->get_attribute(dbh, PDO_ATTR_EMULATE_PREPARES, &emulate) <= 0) {
		return;
	}
	zval args[2];
	ZVAL_LONG(&args[0], PDO_ATTR_EMULATE_PREPARES);
	ZVAL_TRUE(&args[1]);
	if (async__pdo_call(conn->obj, "setattribute", 2, args, &rv, true)) {
		zval sql, stmt;
		ZVAL_STRINGL(&sql, "SELECT CONNECTION_ID()", sizeof("SELECT CONNECTION_ID()") - 1);
		if (async__pdo_call(conn->obj, "query", 1, &sql, &stmt, true) && Z_TYPE(stmt) == IS_OBJECT) {
			zval id;
			ZEND_ASSERT(EG(exception) == NULL);
			zend_call_method(Z_OBJ(stmt), Z_OBJCE(stmt), NULL, "fetchcolumn", sizeof("fetchcolumn") - 1, &id, 0, NULL, NULL);
			if (EG(exception) == NULL) {
				conn->thread_id = zval_get_long(&id);
			} else if (!async__exception_has_cancellation(EG(exception))) {
				zend_object *ex = EG(exception);
				EG(exception) = NULL;
				OBJ_RELEASE(ex);
			}
			zval_ptr_dtor(&id);
		}
		zval_ptr_dtor(&stmt);
		zval_ptr_dtor(&sql);
	}
	zval_ptr_dtor(&rv);
	ZVAL_COPY_VALUE(&args[1], &emulate);
	async__pdo_call(conn->obj, "setattribute", 2, args, &rv, true);
	zval_ptr_dtor(&rv);
	zval_ptr_dtor(&emulate);
}

static void pool_destructor(zend_async_pool_t *pool, zval *resource);

/* A new physical connection: the template's class, the template's constructor arguments. */
static zend_result pool_factory(zend_async_pool_t *pool, zval *resource)
{
	async_pdo_tpl_t *tpl = pool_tpl(pool);
	if (tpl == NULL || tpl->closed) {
		return FAILURE;
	}
	if (!conn_construct(tpl, resource)) {
		return FAILURE; /* PHP's own PDOException: the caller sees it */
	}
	zend_object *obj = Z_OBJ_P(resource);
	async_pdo_conn_t *conn = ecalloc(1, sizeof(async_pdo_conn_t));
	conn->obj = obj;
	conn->tpl = tpl;
	tpl->refcount++;
	zend_hash_index_update_ptr(&tpl->conns, obj->handle, conn);
	if (tpl->stmt_cache_size > 0) {
		ALLOC_HASHTABLE(conn->stmt_cache);
		zend_hash_init(conn->stmt_cache, 8, NULL, NULL, 0);
	}
	async__pdo_conn_replay(conn);
	if (tpl->driver == ASYNC_PDO_DRIVER_MYSQL && EG(exception) == NULL) {
		conn_read_thread_id(conn);
	}
	if (EG(exception) != NULL) {
		/* cancelled while the connection was being set up: it is not handed out half-made */
		pool_destructor(pool, resource);
		return FAILURE;
	}
	return SUCCESS;
}

static void conn_forget_statements(async_pdo_conn_t *conn);

static void pool_destructor(zend_async_pool_t *pool, zval *resource)
{
	async_pdo_tpl_t *tpl = pool_tpl(pool);
	async_pdo_conn_t *conn = conn_of(tpl, resource);
	if (conn == NULL) {
		return;
	}
	zend_hash_index_del(&tpl->conns, conn->obj->handle);
	if (conn->stmt_cache != NULL) {
		async__pdo_stmt_cache_free(conn);
	}
	if (conn->statements > 0) {
		conn_forget_statements(conn);
	}
	if (conn->saved_attrs != NULL) {
		zend_hash_destroy(conn->saved_attrs);
		FREE_HASHTABLE(conn->saved_attrs);
	}
	efree(conn);
	async__pdo_tpl_release(tpl);
}

/* Idle connections, every PDO::ATTR_POOL_HEALTHCHECK_INTERVAL ms: a round trip to the server
 * (MySQL's ping; a SELECT 1 on PostgreSQL, whose own liveness check would reconnect a dead
 * connection and lose its session). */
static bool pool_healthcheck(zend_async_pool_t *pool, zval *resource)
{
	async_pdo_tpl_t *tpl = pool_tpl(pool);
	async_pdo_conn_t *conn = conn_of(tpl, resource);
	if (conn == NULL || conn->broken) {
		return false;
	}
	switch (tpl->driver) {
		case ASYNC_PDO_DRIVER_MYSQL: {
			pdo_dbh_t *dbh = async__pdo_dbh(conn->obj);
			return dbh->methods->check_liveness == NULL || dbh->methods->check_liveness(dbh) == SUCCESS;
		}
		case ASYNC_PDO_DRIVER_PGSQL: {
			zval sql, rv;
			ZVAL_STRINGL(&sql, "SELECT 1", sizeof("SELECT 1") - 1);
			bool ok = async__pdo_call(conn->obj, "exec", 1, &sql, &rv, true) && Z_TYPE(rv) == IS_LONG;
			zval_ptr_dtor(&sql);
			zval_ptr_dtor(&rv);
			return ok;
		}
		default:
			return true; /* SQLite: a file, no server to lose */
	}
}

static bool pool_before_acquire(zend_async_pool_t *pool, zval *resource)
{
	async_pdo_conn_t *conn = conn_of(pool_tpl(pool), resource);
	if (conn == NULL || conn->broken) {
		return false;
	}
	conn->out = true;
	return true;
}

static bool pool_before_release(zend_async_pool_t *pool, zval *resource)
{
	async_pdo_conn_t *conn = conn_of(pool_tpl(pool), resource);
	if (conn == NULL) {
		return false;
	}
	conn->out = false;
	return !conn->broken;
}

bool async__pdo_pool_create(async_pdo_tpl_t *tpl)
{
	/* min 0 at creation: the factory finds the template through user_data, set after */
	zend_async_pool_t *pool = ZEND_ASYNC_NEW_POOL_EX(pool_factory, pool_destructor, pool_healthcheck,
		pool_before_acquire, pool_before_release, 0, (uint32_t) tpl->max, (uint32_t) tpl->healthcheck_interval,
		sizeof(async_pdo_tpl_t *));
	if (pool == NULL) {
		return false;
	}
	*(async_pdo_tpl_t **) pool->user_data = tpl;
	tpl->pool = pool;
	pool->min_size = (uint32_t) tpl->min;

	/* the minimum, made now: taken, then given back */
	uint32_t min = (uint32_t) tpl->min, made = 0;
	zval *conns = min > 0 ? safe_emalloc(min, sizeof(zval), 0) : NULL;
	while (made < min && ZEND_ASYNC_POOL_TRY_ACQUIRE(pool, &conns[made])) {
		made++;
	}
	for (uint32_t i = 0; i < made; i++) {
		async_pdo_conn_t *conn = conn_of(tpl, &conns[i]);
		if (conn != NULL) {
			conn->out = false;
		}
		ZEND_ASYNC_POOL_RELEASE(pool, &conns[i]);
		zval_ptr_dtor(&conns[i]);
	}
	if (conns != NULL) {
		efree(conns);
	}
	if (made < min) {
		if (!EG(exception)) {
			zend_throw_exception(async__pdo_exception_ce, "Could not make the pool's PDO::ATTR_POOL_MIN connections", 0);
		}
		ZEND_ASYNC_POOL_CLOSE(pool);
		*(async_pdo_tpl_t **) pool->user_data = NULL;
		tpl->pool = NULL;
		ZEND_ASYNC_EVENT_RELEASE(&pool->event);
		return false;
	}
	return true;
}

/* ---------------------------------------------------------------------------------------------
 * Views
 * ------------------------------------------------------------------------------------------- */

static void view_unlink_from_coroutine(async_pdo_view_t *view)
{
	HashTable *by_co = ASYNC_G(pdo_views);
	if (by_co == NULL) {
		return;
	}
	zend_ulong key = (zend_ulong) (uintptr_t) view->co;
	async_pdo_view_t *head = zend_hash_index_find_ptr(by_co, key);
	if (head == view) {
		if (view->next_of_co != NULL) {
			zend_hash_index_update_ptr(by_co, key, view->next_of_co);
		} else {
			zend_hash_index_del(by_co, key);
		}
		return;
	}
	for (async_pdo_view_t *v = head; v != NULL; v = v->next_of_co) {
		if (v->next_of_co == view) {
			v->next_of_co = view->next_of_co;
			return;
		}
	}
}

static void view_free(async_pdo_view_t *view)
{
	if (view->attrs != NULL) {
		zend_hash_destroy(view->attrs);
		FREE_HASHTABLE(view->attrs);
	}
	zval_ptr_dtor(&view->error_code);
	zval_ptr_dtor(&view->error_info);
	zval_ptr_dtor(&view->last_id);
	efree(view);
}

/* The view's coroutine ended (or its template went): its connection goes back, rolled back
 * first if a transaction is open, unless statements still pin it (then it goes back when the last
 * one is freed). */
static void view_end(async_pdo_view_t *view, bool may_wait)
{
	async_pdo_conn_t *conn = view->conn;
	view->conn = NULL;
	if (conn != NULL) {
		conn->view = NULL;
		if (conn->statements == 0) {
			conn_return(conn, may_wait);
		}
	}
	view_free(view);
}

static bool coroutine_switch(zend_coroutine_t *co, bool is_enter, bool is_finishing)
{
	if (!is_finishing) {
		return true;
	}
	HashTable *by_co = ASYNC_G(pdo_views);
	zend_ulong key = (zend_ulong) (uintptr_t) co;
	async_pdo_view_t *view = by_co != NULL ? zend_hash_index_find_ptr(by_co, key) : NULL;
	if (view != NULL) {
		zend_hash_index_del(by_co, key);
	}
	while (view != NULL) {
		async_pdo_view_t *next = view->next_of_co;
		zend_hash_index_del(&view->tpl->views, key);
		/* the ending coroutine cannot wait any more: a rollback runs in a coroutine of its own */
		view_end(view, false);
		view = next;
	}
	return false;
}

async_pdo_view_t *async__pdo_view_get(async_pdo_tpl_t *tpl, zend_coroutine_t *co)
{
	zend_ulong key = (zend_ulong) (uintptr_t) co;
	async_pdo_view_t *view = zend_hash_index_find_ptr(&tpl->views, key);
	if (view != NULL) {
		return view;
	}
	view = ecalloc(1, sizeof(async_pdo_view_t));
	view->tpl = tpl;
	view->co = co;
	ZVAL_UNDEF(&view->error_code);
	ZVAL_UNDEF(&view->error_info);
	ZVAL_UNDEF(&view->last_id);
	zend_hash_index_add_new_ptr(&tpl->views, key, view);

	if (ASYNC_G(pdo_views) == NULL) {
		ALLOC_HASHTABLE(ASYNC_G(pdo_views));
		zend_hash_init(ASYNC_G(pdo_views), 8, NULL, NULL, 0);
	}
	zval *head = zend_hash_index_lookup(ASYNC_G(pdo_views), key);
	if (Z_TYPE_P(head) == IS_PTR) {
		view->next_of_co = Z_PTR_P(head);
	} else {
		ZEND_COROUTINE_ADD_SWITCH_HANDLER(co, coroutine_switch);
	}
	ZVAL_PTR(head, view);
	return view;
}

static void conn_apply_view_attrs(async_pdo_conn_t *conn, async_pdo_view_t *view)
{
	if (view->attrs == NULL) {
		return;
	}
	zend_ulong attr;
	zval *value;
	ZEND_HASH_FOREACH_NUM_KEY_VAL(view->attrs, attr, value) {
		zval args[2], rv;
		ZVAL_LONG(&args[0], (zend_long) attr);
		ZVAL_COPY_VALUE(&args[1], value);
		if (async__pdo_conn_override(conn, (zend_long) attr, value)
			&& (!async__pdo_call(conn->obj, "setattribute", 2, args, &rv, true) || Z_TYPE(rv) != IS_TRUE)) {
			conn->broken = true; /* cannot be made what the coroutine asked: not handed out again */
		}
		zval_ptr_dtor(&rv);
	} ZEND_HASH_FOREACH_END();
}

bool async__pdo_view_bind(async_pdo_view_t *view, bool may_wait)
{
	async_pdo_tpl_t *tpl = view->tpl;
	ZEND_ASSERT(view->conn == NULL && tpl->pool != NULL);
	zval resource;
	bool ok = may_wait ? ZEND_ASYNC_POOL_ACQUIRE(tpl->pool, &resource, 0) : ZEND_ASYNC_POOL_TRY_ACQUIRE(tpl->pool, &resource);
	if (!ok) {
		if (EG(exception) == NULL) {
			zend_throw_exception(async__pdo_exception_ce, "No pooled connection is free (PDO::ATTR_POOL_MAX reached), "
				"and waiting for one is impossible here", 0);
		}
		return false;
	}
	async_pdo_conn_t *conn = conn_of(tpl, &resource);
	if (conn == NULL) {
		zval_ptr_dtor(&resource);
		zend_throw_exception(async__pdo_exception_ce, "The pool handed out something that is not one of its connections", 0);
		return false;
	}
	/* the acquired reference is the connection's own while it is out */
	conn->out = true;
	conn->view = view;
	view->conn = conn;
	view->made_sql = false;
	conn_apply_view_attrs(conn, view);
	return true;
}

/* What a private connection would still report once this one goes back. */
static void view_snapshot(async_pdo_view_t *view, async_pdo_conn_t *conn)
{
	pdo_dbh_t *dbh = async__pdo_dbh(conn->obj);
	const char *code = dbh->query_stmt ? dbh->query_stmt->error_code : dbh->error_code;
	zval_ptr_dtor(&view->error_code);
	zval_ptr_dtor(&view->error_info);
	ZVAL_UNDEF(&view->error_info);
	if (code[0] == '\0' || strcmp(code, PDO_ERR_NONE) == 0) {
		ZVAL_INTERNED_STR(&view->error_code, str_no_error);
	} else {
		async__pdo_call(conn->obj, "errorcode", 0, NULL, &view->error_code, true);
		async__pdo_call(conn->obj, "errorinfo", 0, NULL, &view->error_info, true);
	}
	if (!conn->broken && (conn->tpl->driver != ASYNC_PDO_DRIVER_PGSQL || conn->maybe_inserted)) {
		/* MySQL and SQLite keep it in the client; PostgreSQL asks the server (lastval()) */
		zval id;
		if (async__pdo_call(conn->obj, "lastinsertid", 0, NULL, &id, true) && Z_TYPE(id) == IS_STRING) {
			zval_ptr_dtor(&view->last_id);
			ZVAL_COPY_VALUE(&view->last_id, &id);
		} else {
			zval_ptr_dtor(&id);
		}
	}
}

void async__pdo_view_after_call(async_pdo_view_t *view)
{
	async_pdo_conn_t *conn = view->conn;
	if (conn == NULL || view->depth > 0 || conn->releasing) {
		return;
	}
	if (conn->statements > 0 || (!conn->broken && async__pdo_in_transaction(conn->obj))) {
		return; /* pinned */
	}
	conn->releasing = true;
	view_snapshot(view, conn);
	conn->releasing = false;
	if (view->conn != conn || conn->statements > 0) {
		return; /* the snapshot's calls changed what pins it (a failed query's statement went) */
	}
	view->conn = NULL;
	conn->view = NULL;
	conn_return(conn, false);
}

/* ---------------------------------------------------------------------------------------------
 * Giving a connection back
 * ------------------------------------------------------------------------------------------- */

static void conn_restore_attrs(async_pdo_conn_t *conn)
{
	HashTable *saved = conn->saved_attrs;
	if (saved == NULL) {
		return;
	}
	conn->saved_attrs = NULL;
	if (!conn->broken) {
		zend_ulong attr;
		zval *value;
		ZEND_HASH_FOREACH_NUM_KEY_VAL(saved, attr, value) {
			zval args[2], rv;
			ZVAL_LONG(&args[0], (zend_long) attr);
			ZVAL_COPY_VALUE(&args[1], value);
			if (!async__pdo_call(conn->obj, "setattribute", 2, args, &rv, true) || Z_TYPE(rv) != IS_TRUE) {
				conn->broken = true;
			}
			zval_ptr_dtor(&rv);
		} ZEND_HASH_FOREACH_END();
	}
	zend_hash_destroy(saved);
	FREE_HASHTABLE(saved);
}

/* Into the pool (or destroyed, if broken or the pool closed). Takes the connection's reference. */
static void conn_give_back(async_pdo_conn_t *conn)
{
	async_pdo_tpl_t *tpl = conn->tpl;
	ZEND_ASSERT(conn->view == NULL && conn->statements == 0);
	conn->releasing = true;
	conn_restore_attrs(conn);
	conn->maybe_inserted = false;
	conn->releasing = false;
	zval resource;
	ZVAL_OBJ(&resource, conn->obj);
	zend_async_pool_t *pool = tpl->pool;
	if (pool != NULL) {
		/* before_release() says whether it stays. The connection record, and with the last one
		 * the template's, may be gone after this: the pool is held until the release returns. */
		ZEND_ASYNC_EVENT_ADD_REF(&pool->event);
		ZEND_ASYNC_POOL_RELEASE(pool, &resource);
		ZEND_ASYNC_EVENT_RELEASE(&pool->event);
	} else {
		zend_hash_index_del(&tpl->conns, conn->obj->handle);
		efree(conn);
		async__pdo_tpl_release(tpl);
	}
	zval_ptr_dtor(&resource);
}

/* The last of a connection's return: a transaction its coroutine left open is rolled back, then
 * it goes into the pool (or is destroyed). Waits where it can (a coroutine of the pool's own, a
 * call's), blocks where nothing can wait. */
static void conn_finish_return(async_pdo_conn_t *conn)
{
	if (!conn->broken && async__pdo_in_transaction(conn->obj)) {
		zval rv;
		if (!async__pdo_call(conn->obj, "rollback", 0, NULL, &rv, true) || async__pdo_in_transaction(conn->obj)) {
			conn->broken = true;
		}
		zval_ptr_dtor(&rv);
	}
	conn_give_back(conn);
}

/* Something to do on the server before it goes back: a rollback, attributes to put back, or
 * (broken) a destruction that rolls back. */
static bool conn_needs_io(async_pdo_conn_t *conn)
{
	return conn->saved_attrs != NULL || async__pdo_in_transaction(conn->obj);
}

static void return_entry(void)
{
	zend_coroutine_t *co = ZEND_ASYNC_CURRENT_COROUTINE;
	async_pdo_conn_t *conn = co->extended_data;
	co->extended_data = NULL;
	if (conn != NULL) {
		conn_finish_return(conn);
	}
}

/* The return's coroutine ended: if it never ran (cancelled at once by a shutdown), the connection
 * is given back broken, right here. */
static void return_done(zend_async_event_t *event, zend_async_event_callback_t *callback, void *result,
	zend_object *exception)
{
	zend_coroutine_t *co = (zend_coroutine_t *) event;
	async_pdo_conn_t *conn = co->extended_data;
	if (conn != NULL) {
		co->extended_data = NULL;
		conn->broken = true;
		conn_give_back(conn);
	}
}

/* Runs `entry` with `data` in a coroutine of its own, `done` when it ends; false when none can be
 * started (the request ends). */
static bool spawn_task(zend_coroutine_entry_t entry, void *data, zend_async_event_callback_fn done)
{
	if (!ZEND_ASYNC_IS_ACTIVE) {
		return false;
	}
	zend_object *pending = EG(exception);
	EG(exception) = NULL;
	zend_coroutine_t *co = ZEND_ASYNC_SPAWN();
	if (EG(exception) != NULL) {
		zend_object *ex = EG(exception);
		EG(exception) = NULL;
		OBJ_RELEASE(ex);
	}
	EG(exception) = pending;
	if (co == NULL) {
		return false;
	}
	if (ZEND_COROUTINE_IS_FINISHED(co)) {
		ZEND_ASYNC_EVENT_RELEASE(&co->event);
		return false;
	}
	co->internal_entry = entry;
	co->extended_data = data;
	if (done != NULL) {
		zend_async_event_callback_t *cb = ZEND_ASYNC_EVENT_CALLBACK_EX(done, sizeof(zend_async_event_callback_t));
		co->event.add_callback(&co->event, cb);
		ZEND_ASYNC_EVENT_CALLBACK_RELEASE(cb);
	}
	ZEND_ASYNC_EVENT_RELEASE(&co->event); /* the handle; the coroutine keeps itself alive */
	return true;
}

/* A connection nobody uses any more. Where its caller cannot wait (a coroutine's end, a
 * destructor, the request's end) the server work is done by a coroutine of the pool's own. */
static void conn_return(async_pdo_conn_t *conn, bool may_wait)
{
	if (may_wait || !conn_needs_io(conn) || !spawn_task(return_entry, conn, return_done)) {
		conn_finish_return(conn);
	}
}

/* ---------------------------------------------------------------------------------------------
 * After a call
 * ------------------------------------------------------------------------------------------- */

static bool mysql_client_error(pdo_dbh_t *dbh, pdo_stmt_t *stmt)
{
	if (dbh->methods->fetch_err == NULL) {
		return false;
	}
	zval info;
	array_init(&info);
	dbh->methods->fetch_err(dbh, stmt, &info);
	zval *code = zend_hash_index_find(Z_ARRVAL(info), 0);
	bool client = code != NULL && Z_TYPE_P(code) == IS_LONG && Z_LVAL_P(code) >= 2000 && Z_LVAL_P(code) < 3000;
	zend_long c = code != NULL && Z_TYPE_P(code) == IS_LONG ? Z_LVAL_P(code) : 0;
	zval_ptr_dtor(&info);
	/* the client's own errors (2xxx: the server gone, the link lost) and the server's shutdown */
	return client || c == 1053 || c == 1927 || c == 4031;
}

typedef struct {
	async_pdo_tpl_t *tpl;
	zend_long thread_id;
} killer_t;

static void killer_free(killer_t *k)
{
	async__pdo_tpl_release(k->tpl);
	efree(k);
}

/* MySQL goes on running a statement whose client left (SLEEP(), a long SELECT): a connection of
 * its own asks the server to stop it, as PostgreSQL's cancel request does there. */
static void killer_entry(void)
{
	zend_coroutine_t *co = ZEND_ASYNC_CURRENT_COROUTINE;
	killer_t *k = co->extended_data;
	co->extended_data = NULL;
	if (k == NULL) {
		return;
	}
	zval pdo;
	ZVAL_UNDEF(&pdo);
	if (conn_construct(k->tpl, &pdo)) {
		zval sql, rv;
		ZVAL_STR(&sql, zend_strpprintf(0, "KILL QUERY " ZEND_LONG_FMT, k->thread_id));
		async__pdo_call(Z_OBJ(pdo), "exec", 1, &sql, &rv, true);
		zval_ptr_dtor(&sql);
		zval_ptr_dtor(&rv);
	} else if (EG(exception) != NULL) {
		zend_object *ex = EG(exception);
		EG(exception) = NULL;
		OBJ_RELEASE(ex);
	}
	zval_ptr_dtor(&pdo);
	killer_free(k);
}

static void killer_done(zend_async_event_t *event, zend_async_event_callback_t *callback, void *result,
	zend_object *exception)
{
	zend_coroutine_t *co = (zend_coroutine_t *) event;
	if (co->extended_data != NULL) {
		killer_free(co->extended_data);
		co->extended_data = NULL;
	}
}

/* `stmt`: the statement whose call failed (its error is the driver's record), or NULL for a call
 * of the connection itself (PDO::query()'s statement is then the record). */
static void conn_after_error(async_pdo_conn_t *conn, pdo_stmt_t *stmt, bool cancelled)
{
	if (conn->broken) {
		return;
	}
	if (cancelled) {
		/* whatever the server still does for it, it is not handed out half-way */
		conn->broken = true;
		if (conn->tpl->driver != ASYNC_PDO_DRIVER_MYSQL) {
			return;
		}
		async__pdo_conn_sever(conn); /* its transaction ends now, whoever still holds the object */
		if (conn->thread_id > 0 && !conn->tpl->closed) {
			killer_t *k = emalloc(sizeof(killer_t));
			k->tpl = conn->tpl;
			k->thread_id = conn->thread_id;
			conn->tpl->refcount++;
			if (!spawn_task(killer_entry, k, killer_done)) {
				killer_free(k);
			}
		}
		return;
	}
	pdo_dbh_t *dbh = async__pdo_dbh(conn->obj);
	if (dbh->driver_data == NULL || dbh->methods == NULL) {
		conn->broken = true;
		return;
	}
	switch (conn->tpl->driver) {
		case ASYNC_PDO_DRIVER_PGSQL: {
			/* libpq's own view of the connection (PQstatus()), without a round trip */
			zval status;
			ZVAL_UNDEF(&status);
			if (dbh->methods->get_attribute != NULL
				&& dbh->methods->get_attribute(dbh, PDO_ATTR_CONNECTION_STATUS, &status) > 0
				&& Z_TYPE(status) == IS_STRING && !zend_string_equals_literal(Z_STR(status), "Connection OK; waiting to send.")) {
				conn->broken = true;
			}
			zval_ptr_dtor(&status);
			break;
		}
		case ASYNC_PDO_DRIVER_MYSQL:
			if (mysql_client_error(dbh, stmt != NULL ? stmt : dbh->query_stmt) && (dbh->methods->check_liveness == NULL
					|| dbh->methods->check_liveness(dbh) != SUCCESS)) {
				conn->broken = true;
			}
			break;
		default:
			break;
	}
}

void async__pdo_conn_after_error(async_pdo_conn_t *conn, bool cancelled)
{
	conn_after_error(conn, NULL, cancelled);
}

/* ---------------------------------------------------------------------------------------------
 * What the template registered, repeated on each connection; attributes a coroutine set
 * ------------------------------------------------------------------------------------------- */

void async__pdo_conn_replay(async_pdo_conn_t *conn)
{
	async_pdo_tpl_t *tpl = conn->tpl;
	while (conn->replayed < tpl->replay_count) {
		async_pdo_replay_t *r = &tpl->replay[conn->replayed++];
		zval rv;
		async__pdo_call(conn->obj, ZSTR_VAL(r->method), r->argc, r->argv, &rv, true);
		zval_ptr_dtor(&rv);
	}
}

bool async__pdo_conn_override(async_pdo_conn_t *conn, zend_long attr, zval *value)
{
	if (conn->saved_attrs != NULL && zend_hash_index_exists(conn->saved_attrs, (zend_ulong) attr)) {
		return true;
	}
	zval arg, current;
	ZVAL_LONG(&arg, attr);
	pdo_dbh_t *dbh = async__pdo_dbh(conn->obj);
	bool ok = async__pdo_call(conn->obj, "getattribute", 1, &arg, &current, true)
		&& (dbh->error_code[0] == '\0' || strcmp(dbh->error_code, PDO_ERR_NONE) == 0);
	if (!ok) {
		/* the template's value cannot be read back: the connection is not handed out again */
		zval_ptr_dtor(&current);
		conn->broken = true;
		return true;
	}
	if (conn->saved_attrs == NULL) {
		ALLOC_HASHTABLE(conn->saved_attrs);
		zend_hash_init(conn->saved_attrs, 4, NULL, ZVAL_PTR_DTOR, 0);
	}
	zend_hash_index_update(conn->saved_attrs, (zend_ulong) attr, &current);
	return true;
}

/* ---------------------------------------------------------------------------------------------
 * Statements: a connection is pinned while one prepared on it lives
 * ------------------------------------------------------------------------------------------- */

static void statement_gone(async_pdo_conn_t *conn)
{
	ZEND_ASSERT(conn->statements > 0);
	if (--conn->statements > 0 || conn->releasing) {
		return;
	}
	if (conn->view != NULL) {
		async__pdo_view_after_call(conn->view);
	} else if (conn->out) {
		conn_return(conn, async_io_can_wait());
	}
}

/* A statement of the cache let go by its caller is taken back instead of destroyed. */
static void stmt_dtor_obj(zend_object *obj)
{
	if (async__pdo_stmt_cache_back(obj)) {
		return;
	}
	stmt_orig_handlers->dtor_obj(obj);
}

void async__pdo_conn_untrack_statement(async_pdo_conn_t *conn, zend_object *stmt)
{
	HashTable *stmts = ASYNC_G(pdo_stmts);
	if (stmts != NULL && zend_hash_index_find_ptr(stmts, stmt->handle) == conn) {
		zend_hash_index_del(stmts, stmt->handle);
		statement_gone(conn);
	}
}

static void stmt_free_obj(zend_object *obj)
{
	HashTable *stmts = ASYNC_G(pdo_stmts);
	async_pdo_conn_t *conn = stmts != NULL ? zend_hash_index_find_ptr(stmts, obj->handle) : NULL;
	if (conn != NULL) {
		zend_hash_index_del(stmts, obj->handle);
	}
	stmt_orig_handlers->free_obj(obj);
	if (conn != NULL) {
		statement_gone(conn);
	}
}

void async__pdo_conn_track_statement(async_pdo_conn_t *conn, zend_object *stmt)
{
	if (stmt_orig_handlers == NULL) {
		/* per-process: the same values whichever thread writes them first */
		memcpy(&stmt_handlers, stmt->handlers, sizeof(zend_object_handlers));
		stmt_handlers.free_obj = stmt_free_obj;
		stmt_handlers.dtor_obj = stmt_dtor_obj;
		stmt_orig_handlers = stmt->handlers;
	}
	if (stmt->handlers != stmt_orig_handlers && stmt->handlers != &stmt_handlers) {
		return;
	}
	if (ASYNC_G(pdo_stmts) == NULL) {
		ALLOC_HASHTABLE(ASYNC_G(pdo_stmts));
		zend_hash_init(ASYNC_G(pdo_stmts), 8, NULL, NULL, 0);
	}
	if (zend_hash_index_add_ptr(ASYNC_G(pdo_stmts), stmt->handle, conn) == NULL) {
		return; /* counted already */
	}
	stmt->handlers = &stmt_handlers;
	conn->statements++;
}

/* The connection is destroyed while statements live on it (its template gone at the request's
 * end): they are PHP's own statements from now on. */
static void conn_forget_statements(async_pdo_conn_t *conn)
{
	HashTable *stmts = ASYNC_G(pdo_stmts);
	if (stmts == NULL) {
		return;
	}
	zend_ulong handle;
	async_pdo_conn_t *c;
	ZEND_HASH_FOREACH_NUM_KEY_PTR(stmts, handle, c) {
		if (c == conn) {
			zend_object *obj = EG(objects_store).object_buckets[handle];
			if (IS_OBJ_VALID(obj) && obj->handlers == &stmt_handlers) {
				obj->handlers = stmt_orig_handlers;
			}
			zend_hash_index_del(stmts, handle);
		}
	} ZEND_HASH_FOREACH_END();
	conn->statements = 0;
}

/* ---------------------------------------------------------------------------------------------
 * A template's end, the request's end
 * ------------------------------------------------------------------------------------------- */

void async__pdo_pool_close(async_pdo_tpl_t *tpl)
{
	if (tpl->closed) {
		return;
	}
	tpl->closed = true;
	zend_ulong key;
	async_pdo_view_t *view;
	ZEND_HASH_FOREACH_NUM_KEY_PTR(&tpl->views, key, view) {
		view_unlink_from_coroutine(view);
		view_end(view, false);
		(void) key;
	} ZEND_HASH_FOREACH_END();
	zend_hash_clean(&tpl->views);
	if (tpl->pool != NULL) {
		ZEND_ASYNC_POOL_CLOSE(tpl->pool);
	}
}

void async__hook_pdo_pool_rshutdown(void)
{
	HashTable *tpls = ASYNC_G(pdo_templates);
	if (tpls != NULL) {
		async_pdo_tpl_t *tpl;
		ZEND_HASH_FOREACH_PTR(tpls, tpl) {
			async__pdo_pool_close(tpl);
		} ZEND_HASH_FOREACH_END();
	}
	/* Connections still out (statements alive, a rollback never run) become PHP's own objects:
	 * nothing of the pool is touched after this request's end. */
	if (ASYNC_G(pdo_stmts) != NULL) {
		zend_ulong handle;
		ZEND_HASH_FOREACH_NUM_KEY(ASYNC_G(pdo_stmts), handle) {
			zend_object *obj = EG(objects_store).object_buckets[handle];
			if (IS_OBJ_VALID(obj) && obj->handlers == &stmt_handlers) {
				obj->handlers = stmt_orig_handlers;
			}
		} ZEND_HASH_FOREACH_END();
		zend_hash_destroy(ASYNC_G(pdo_stmts));
		FREE_HASHTABLE(ASYNC_G(pdo_stmts));
		ASYNC_G(pdo_stmts) = NULL;
	}
	if (tpls != NULL) {
		async_pdo_tpl_t *tpl;
		ZEND_HASH_FOREACH_PTR(tpls, tpl) {
			async__pdo_pool_detach(tpl);
		} ZEND_HASH_FOREACH_END();
		zend_hash_destroy(tpls);
		FREE_HASHTABLE(tpls);
		ASYNC_G(pdo_templates) = NULL;
	}
	async__pdo_stmt_cache_rshutdown();
	if (ASYNC_G(pdo_views) != NULL) {
		zend_hash_destroy(ASYNC_G(pdo_views));
		FREE_HASHTABLE(ASYNC_G(pdo_views));
		ASYNC_G(pdo_views) = NULL;
	}
}

/* ---------------------------------------------------------------------------------------------
 * A statement's own calls. A statement pins its connection, and its methods run on the driver
 * directly, not through the template's trampolines: one that ends in an exception or an error
 * tells the connection, as a PDO call does. A coroutine cancelled inside execute() leaves the
 * server in the middle of a result; without this the connection went back to the pool when the
 * statement was freed, and the next caller got "MySQL server has gone away".
 * ------------------------------------------------------------------------------------------- */

typedef enum {
	STMT_EXECUTE, STMT_FETCH, STMT_FETCH_ALL, STMT_FETCH_COLUMN, STMT_FETCH_OBJECT, STMT_NEXT_ROWSET,
	STMT_CLOSE_CURSOR, STMT_CALLS
} stmt_call_t;

static const char *const stmt_call_names[STMT_CALLS] = {
	"execute", "fetch", "fetchall", "fetchcolumn", "fetchobject", "nextrowset", "closecursor",
};
/* per-process: PDOStatement's handlers of those methods, replaced with ours at MINIT */
static zif_handler stmt_call_orig[STMT_CALLS];
/* per-process: found at MINIT */
static zend_class_entry *stmt_call_ce;

static void stmt_call(stmt_call_t which, INTERNAL_FUNCTION_PARAMETERS)
{
	zend_object *obj = Z_TYPE(EX(This)) == IS_OBJECT ? Z_OBJ(EX(This)) : NULL;
	stmt_call_orig[which](INTERNAL_FUNCTION_PARAM_PASSTHRU);
	if (obj == NULL || obj->handlers != &stmt_handlers || ASYNC_G(pdo_stmts) == NULL) {
		return;
	}
	async_pdo_conn_t *conn = zend_hash_index_find_ptr(ASYNC_G(pdo_stmts), obj->handle);
	if (conn == NULL) {
		return;
	}
	pdo_stmt_t *stmt = php_pdo_stmt_fetch_object(obj);
	if (EG(exception) != NULL) {
		conn_after_error(conn, stmt, async__hook_is_cancellation(EG(exception)));
	} else if (stmt->error_code[0] != '\0' && strcmp(stmt->error_code, PDO_ERR_NONE) != 0) {
		conn_after_error(conn, stmt, false);
	}
}

static ZEND_NAMED_FUNCTION(stmt_execute) { stmt_call(STMT_EXECUTE, INTERNAL_FUNCTION_PARAM_PASSTHRU); }
static ZEND_NAMED_FUNCTION(stmt_fetch) { stmt_call(STMT_FETCH, INTERNAL_FUNCTION_PARAM_PASSTHRU); }
static ZEND_NAMED_FUNCTION(stmt_fetch_all) { stmt_call(STMT_FETCH_ALL, INTERNAL_FUNCTION_PARAM_PASSTHRU); }
static ZEND_NAMED_FUNCTION(stmt_fetch_column) { stmt_call(STMT_FETCH_COLUMN, INTERNAL_FUNCTION_PARAM_PASSTHRU); }
static ZEND_NAMED_FUNCTION(stmt_fetch_object) { stmt_call(STMT_FETCH_OBJECT, INTERNAL_FUNCTION_PARAM_PASSTHRU); }
static ZEND_NAMED_FUNCTION(stmt_next_rowset) { stmt_call(STMT_NEXT_ROWSET, INTERNAL_FUNCTION_PARAM_PASSTHRU); }
static ZEND_NAMED_FUNCTION(stmt_close_cursor) { stmt_call(STMT_CLOSE_CURSOR, INTERNAL_FUNCTION_PARAM_PASSTHRU); }

static const zif_handler stmt_call_ours[STMT_CALLS] = {
	stmt_execute, stmt_fetch, stmt_fetch_all, stmt_fetch_column, stmt_fetch_object, stmt_next_rowset,
	stmt_close_cursor,
};

static zend_function *stmt_method(stmt_call_t which)
{
	zend_function *fn = zend_hash_str_find_ptr(&stmt_call_ce->function_table, stmt_call_names[which],
		strlen(stmt_call_names[which]));
	return fn != NULL && fn->type == ZEND_INTERNAL_FUNCTION ? fn : NULL;
}

void async__pdo_pool_conn_minit(void)
{
	str_no_error = zend_string_init_interned(PDO_ERR_NONE, sizeof(PDO_ERR_NONE) - 1, 1);
	stmt_call_ce = zend_hash_str_find_ptr(CG(class_table), "pdostatement", sizeof("pdostatement") - 1);
	for (int i = 0; stmt_call_ce != NULL && i < STMT_CALLS; i++) {
		zend_function *fn = stmt_method(i);
		if (fn != NULL) {
			stmt_call_orig[i] = fn->internal_function.handler;
			fn->internal_function.handler = stmt_call_ours[i];
		}
	}
}

void async__pdo_pool_conn_mshutdown(void)
{
	for (int i = 0; stmt_call_ce != NULL && i < STMT_CALLS; i++) {
		zend_function *fn = stmt_method(i);
		if (fn != NULL && fn->internal_function.handler == stmt_call_ours[i]) {
			fn->internal_function.handler = stmt_call_orig[i];
		}
	}
	stmt_call_ce = NULL;
}

#endif /* HAVE_ASYNC_PDO_POOL */
