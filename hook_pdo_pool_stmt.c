/*
 * hook_pdo_pool_stmt.c — the prepared-statement cache of each pooled PDO connection
 * (PDO::ATTR_POOL_STMT_CACHE_SIZE).
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif
#include "php_async.h"
#include "hooks.h"

#ifdef HAVE_ASYNC_PDO_POOL

#include "hook_pdo_pool.h"

bool async_pdo_stmt_cache_take(async_pdo_conn_t *conn, zend_string *sql, zval *options, zval *retval)
{
	return false;
}

void async_pdo_stmt_cache_put(async_pdo_conn_t *conn, zend_string *sql, zval *options, zend_object *stmt)
{
}

void async_pdo_stmt_cache_free(async_pdo_conn_t *conn)
{
	zend_hash_destroy(conn->stmt_cache);
	FREE_HASHTABLE(conn->stmt_cache);
	conn->stmt_cache = NULL;
}

#endif /* HAVE_ASYNC_PDO_POOL */
