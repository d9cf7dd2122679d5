/*
 * hooks/pdo_pool_sever.c — a pooled MySQL connection broken by a cancellation is cut off on the
 * wire at once.
 *
 * A broken connection is destroyed when it leaves its coroutine, and destroying the PDO object
 * closes its socket, which is what makes the server roll back a transaction left open. But the
 * object may live on: a statement the caller still holds pins its connection (the caller caught
 * the cancellation and kept going), and until it goes the server keeps the transaction and its
 * row locks, and every other connection waits on them (MariaDB's 1205 after
 * innodb_lock_wait_timeout). So the moment a call is cancelled the socket is shut down in both
 * directions: the server sees the client gone and rolls back (a statement still running is
 * stopped by the pool's KILL QUERY), while the descriptor stays open for mysqlnd, which finds the
 * link dead at its next use ("MySQL server has gone away") and closes it when the object goes.
 *
 * The socket is mysqlnd's own php_stream, reached through mysqlnd's reverse API (the one
 * pdo_mysql registers for extensions: zval_to_mysqlnd()), looked up at MINIT, so the module
 * links neither mysqlnd nor pdo_mysql.
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif
#include "php_async.h"
#include "hooks/hooks.h"

#if defined(HAVE_ASYNC_PDO_POOL) && defined(HAVE_ASYNC_MYSQLND)

#include <dlfcn.h>
#include "ext/mysqlnd/mysqlnd.h"
#include "ext/mysqlnd/mysqlnd_reverse_api.h"

typedef MYSQLND *(*zval_to_mysqlnd_fn)(zval *zv, const unsigned int caps, unsigned int *saved_caps);

/* per-process: mysqlnd's zval_to_mysqlnd(), NULL when mysqlnd is not loaded */
static zval_to_mysqlnd_fn to_mysqlnd;

void async__pdo_conn_sever(async_pdo_conn_t *conn)
{
	ZEND_ASSERT(conn->tpl->driver == ASYNC_PDO_DRIVER_MYSQL);
	pdo_dbh_t *dbh = async__pdo_dbh(conn->obj);
	if (to_mysqlnd == NULL || dbh == NULL || dbh->driver_data == NULL) {
		return;
	}
	zval zv;
	ZVAL_OBJ(&zv, conn->obj);
	unsigned int caps = 0;
	MYSQLND *mysql = to_mysqlnd(&zv, 0, &caps);
	if (mysql == NULL || mysql->data == NULL) {
		return;
	}
	/* the lookup also set the client's API capabilities: they are put back as they were */
	mysql->data->m->negotiate_client_api_capabilities(mysql->data, caps);
	MYSQLND_VIO *vio = mysql->data->vio;
	php_stream *stream = vio != NULL && vio->data != NULL ? vio->data->m.get_stream(vio) : NULL;
	if (stream != NULL) {
		php_stream_xport_shutdown(stream, STREAM_SHUT_RDWR);
	}
}

void async__pdo_sever_minit(void)
{
	zend_module_entry *module = zend_hash_str_find_ptr(&module_registry, "mysqlnd", sizeof("mysqlnd") - 1);
	if (module == NULL) {
		return;
	}
	to_mysqlnd = (zval_to_mysqlnd_fn) DL_FETCH_SYMBOL(module->handle != NULL ? module->handle : RTLD_DEFAULT,
		"zval_to_mysqlnd");
}

#elif defined(HAVE_ASYNC_PDO_POOL)

/* mysqlnd's headers were not there at build time: a broken connection waits for its object's end. */
void async__pdo_conn_sever(async_pdo_conn_t *conn) {}
void async__pdo_sever_minit(void) {}

#endif
