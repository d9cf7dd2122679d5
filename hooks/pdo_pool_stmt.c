/*
 * hooks/pdo_pool_stmt.c — the prepared-statement cache of each pooled PDO connection
 * (PDO::ATTR_POOL_STMT_CACHE_SIZE).
 *
 * A request handler prepares the same SQL on every request. Each pooled connection keeps the
 * PDOStatement objects prepare() made on it, by SQL, least recently used first out: prepare() of
 * a cached SQL hands the same statement out again, so the server-side prepare (and its
 * deallocation) happens once per connection, not once per request. It is PHP's own statement
 * object, executed again as any statement may be: nothing of the drivers is copied or mirrored.
 *
 * While handed out, the cache holds no reference: the statement is the caller's, and pins its
 * connection as any statement does. When the caller's last reference goes, its destructor hook
 * takes it back (a new reference, the object's destructor flag cleared so it runs again next
 * time), resets what a caller may have changed (cursor, bound parameters and columns, fetch
 * mode, error state) and unpins the connection. A statement whose state cannot be reset (its
 * attributes set, dynamic properties, a lazy row alive) is not taken back. Evicting a statement
 * releases the cache's reference: PHP's own destructor deallocates it on the server.
 *
 * Bypassed: emulated prepares (no server-side statement to save), prepare() with options, and a
 * statement class of the user's (PDO::ATTR_STATEMENT_CLASS): only PHP's own PDOStatement is
 * cached.
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif
#include "php_async.h"
#include "hooks/hooks.h"

#ifdef HAVE_ASYNC_PDO_POOL

#include "core/core.h"
#include "zend_interfaces.h"

typedef struct {
	zend_object *stmt;          /* a reference only while idle in the cache */
	async_pdo_conn_t *conn;
	zend_string *sql;
	bool in_use;                /* handed out: the caller's */
	bool tainted;               /* its state cannot be reset: not taken back */
} cached_t;

/* per-process: found at MINIT */
static zend_class_entry *pdo_stmt_ce;
/* per-process: PDOStatement::setAttribute(), replaced with ours at MINIT */
static zif_handler orig_stmt_set_attribute;

static cached_t *cached_of(zend_object *stmt)
{
	HashTable *all = ASYNC_G(pdo_cached);
	return all != NULL ? zend_hash_index_find_ptr(all, stmt->handle) : NULL;
}

static void cached_forget(cached_t *c)
{
	zend_hash_index_del(ASYNC_G(pdo_cached), c->stmt->handle);
	zend_hash_del(c->conn->stmt_cache, c->sql);
	zend_string_release(c->sql);
	efree(c);
}

/* The connection prepares natively, with PHP's own statement class: what the cache can keep. */
static bool conn_cacheable(async_pdo_conn_t *conn, zval *options)
{
	if (options != NULL && (Z_TYPE_P(options) != IS_ARRAY || zend_hash_num_elements(Z_ARRVAL_P(options)) > 0)) {
		return false;
	}
	pdo_dbh_t *dbh = async__pdo_dbh(conn->obj);
	if (dbh->def_stmt_ce != pdo_stmt_ce || !Z_ISUNDEF(dbh->def_stmt_ctor_args) || dbh->methods == NULL) {
		return false;
	}
	if (dbh->methods->get_attribute != NULL) {
		zval emulate;
		ZVAL_UNDEF(&emulate);
		/* the driver's own answer: PDO's getAttribute() would clear the error state */
		bool emulated = dbh->methods->get_attribute(dbh, PDO_ATTR_EMULATE_PREPARES, &emulate) > 0
			&& zend_is_true(&emulate);
		zval_ptr_dtor(&emulate);
		if (emulated) {
			return false;
		}
	}
	return true;
}

bool async__pdo_stmt_cache_take(async_pdo_conn_t *conn, zend_string *sql, zval *options, zval *retval)
{
	if (!conn_cacheable(conn, options)) {
		return false;
	}
	cached_t *c = zend_hash_find_ptr(conn->stmt_cache, sql);
	if (c == NULL || c->in_use || c->tainted) {
		return false;
	}
	/* most recently used: to the end of the order */
	zend_hash_del(conn->stmt_cache, sql);
	zend_hash_add_new_ptr(conn->stmt_cache, c->sql, c);
	c->in_use = true;
	ZVAL_OBJ(retval, c->stmt); /* the cache's reference becomes the caller's */
	async__pdo_conn_track_statement(conn, c->stmt);
	return true;
}

/* Drops the least recently used idle statement; false when every one is handed out. */
static bool cache_evict_one(async_pdo_conn_t *conn)
{
	cached_t *c;
	ZEND_HASH_FOREACH_PTR(conn->stmt_cache, c) {
		if (!c->in_use) {
			zend_object *stmt = c->stmt;
			cached_forget(c);
			OBJ_RELEASE(stmt); /* PHP's destructor deallocates it on the server */
			return true;
		}
	} ZEND_HASH_FOREACH_END();
	return false;
}

void async__pdo_stmt_cache_put(async_pdo_conn_t *conn, zend_string *sql, zval *options, zend_object *stmt)
{
	if (stmt->ce != pdo_stmt_ce || !conn_cacheable(conn, options) || zend_hash_exists(conn->stmt_cache, sql)) {
		return;
	}
	while (zend_hash_num_elements(conn->stmt_cache) >= (uint32_t) conn->tpl->stmt_cache_size) {
		if (!cache_evict_one(conn)) {
			return; /* all handed out: this one is not kept */
		}
	}
	if (ASYNC_G(pdo_cached) == NULL) {
		ALLOC_HASHTABLE(ASYNC_G(pdo_cached));
		zend_hash_init(ASYNC_G(pdo_cached), 16, NULL, NULL, 0);
	}
	cached_t *c = ecalloc(1, sizeof(cached_t));
	c->stmt = stmt;
	c->conn = conn;
	c->sql = zend_string_copy(sql);
	c->in_use = true;
	zend_hash_add_new_ptr(conn->stmt_cache, c->sql, c);
	zend_hash_index_update_ptr(ASYNC_G(pdo_cached), stmt->handle, c);
}

/* What a caller may have left on the statement, put back as prepare() leaves it; false when it
 * cannot be. */
static bool stmt_reset(zend_object *obj)
{
	pdo_stmt_t *stmt = php_pdo_stmt_fetch_object(obj);
#if ASYNC_PDO_STMT_OBJECT_POINTERS
	bool lazy_row = stmt->lazy_object_ref != NULL;
#else
	bool lazy_row = !Z_ISUNDEF(stmt->lazy_object_ref);
#endif
	if (lazy_row || stmt->dbh == NULL) {
		return false;
	}
	if (obj->properties != NULL && zend_hash_num_elements(obj->properties) > (uint32_t) obj->ce->default_properties_count) {
		return false; /* dynamic properties */
	}
	zval rv;
	ZVAL_UNDEF(&rv);
	if (stmt->executed) {
		zend_call_method(obj, obj->ce, NULL, "closecursor", sizeof("closecursor") - 1, &rv, 0, NULL, NULL);
		zval_ptr_dtor(&rv);
		if (EG(exception) != NULL) {
			return false;
		}
	}
	if (stmt->bound_params != NULL) {
		zend_hash_clean(stmt->bound_params);
	}
	if (stmt->bound_columns != NULL) {
		zend_hash_clean(stmt->bound_columns);
	}
	if (stmt->default_fetch_type != stmt->dbh->default_fetch_type || stmt->default_fetch_type == PDO_FETCH_INTO
		|| stmt->default_fetch_type == PDO_FETCH_CLASS || stmt->default_fetch_type == PDO_FETCH_FUNC) {
		zval mode;
		ZVAL_LONG(&mode, stmt->dbh->default_fetch_type);
		zend_call_method(obj, obj->ce, NULL, "setfetchmode", sizeof("setfetchmode") - 1, &rv, 1, &mode, NULL);
		zval_ptr_dtor(&rv);
		if (EG(exception) != NULL) {
			return false;
		}
	}
	memset(stmt->error_code, 0, sizeof(stmt->error_code));
	return true;
}

bool async__pdo_stmt_cache_back(zend_object *obj)
{
	cached_t *c = cached_of(obj);
	if (c == NULL || !c->in_use) {
		return false;
	}
	async_pdo_conn_t *conn = c->conn;
	zend_object *pending = EG(exception);
	EG(exception) = NULL;
	bool keep = !c->tainted && !conn->broken && !conn->tpl->closed && !(EG(flags) & EG_FLAGS_IN_SHUTDOWN)
		&& pending == NULL && stmt_reset(obj);
	if (EG(exception) != NULL) {
		/* the reset failed: the statement goes; a cancellation that came while it read the rest
		 * of an unbuffered result (it may wait from PHP 8.4 on) is the coroutine's, not ours */
		zend_object *ex = EG(exception);
		EG(exception) = NULL;
		keep = false;
		if (async__exception_has_cancellation(ex)) {
			ZEND_ASSERT(pending == NULL);
			pending = ex;
		} else {
			OBJ_RELEASE(ex);
		}
	}
	EG(exception) = pending;
	if (!keep) {
		cached_forget(c);
		return false;
	}
	/* Taken back: the cache's reference, and the destructor runs again when it is next let go. */
	GC_ADDREF(obj);
	GC_DEL_FLAGS(obj, IS_OBJ_DESTRUCTOR_CALLED);
	c->in_use = false;
	async__pdo_conn_untrack_statement(conn, obj);
	return true;
}

void async__pdo_stmt_cache_free(async_pdo_conn_t *conn)
{
	HashTable *cache = conn->stmt_cache;
	conn->stmt_cache = NULL;
	cached_t *c;
	ZEND_HASH_FOREACH_PTR(cache, c) {
		zend_object *stmt = c->stmt;
		bool idle = !c->in_use;
		zend_hash_index_del(ASYNC_G(pdo_cached), stmt->handle);
		zend_string_release(c->sql);
		efree(c);
		if (idle) {
			OBJ_RELEASE(stmt);
		}
	} ZEND_HASH_FOREACH_END();
	zend_hash_destroy(cache);
	FREE_HASHTABLE(cache);
}

void async__pdo_stmt_cache_rshutdown(void)
{
	if (ASYNC_G(pdo_cached) != NULL) {
		zend_hash_destroy(ASYNC_G(pdo_cached));
		FREE_HASHTABLE(ASYNC_G(pdo_cached));
		ASYNC_G(pdo_cached) = NULL;
	}
}

/* PDOStatement::setAttribute(): a cached statement whose attributes changed is not taken back. */
static ZEND_NAMED_FUNCTION(stmt_set_attribute)
{
	cached_t *c = Z_TYPE(EX(This)) == IS_OBJECT ? cached_of(Z_OBJ(EX(This))) : NULL;
	if (c != NULL) {
		c->tainted = true;
	}
	orig_stmt_set_attribute(INTERNAL_FUNCTION_PARAM_PASSTHRU);
}

void async__pdo_stmt_cache_minit(void)
{
	pdo_stmt_ce = zend_hash_str_find_ptr(CG(class_table), "pdostatement", sizeof("pdostatement") - 1);
	if (pdo_stmt_ce == NULL) {
		return;
	}
	zend_function *fn = zend_hash_str_find_ptr(&pdo_stmt_ce->function_table, "setattribute", sizeof("setattribute") - 1);
	if (fn != NULL && fn->type == ZEND_INTERNAL_FUNCTION) {
		orig_stmt_set_attribute = fn->internal_function.handler;
		fn->internal_function.handler = stmt_set_attribute;
	}
}

void async__pdo_stmt_cache_mshutdown(void)
{
	if (pdo_stmt_ce == NULL || orig_stmt_set_attribute == NULL) {
		return;
	}
	zend_function *fn = zend_hash_str_find_ptr(&pdo_stmt_ce->function_table, "setattribute", sizeof("setattribute") - 1);
	if (fn != NULL && fn->internal_function.handler == stmt_set_attribute) {
		fn->internal_function.handler = orig_stmt_set_attribute;
	}
	orig_stmt_set_attribute = NULL;
}

#endif /* HAVE_ASYNC_PDO_POOL */
