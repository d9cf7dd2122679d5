/*
 * hook_pdo_pool.h — what the PDO pool's files share (hook_pdo_pool*.c): one PDO object used by
 * many coroutines, each call run on a physical connection bound to the calling coroutine.
 *
 * Three records:
 * - a template (async_pdo_tpl_t): the user's PDO object built with PDO::ATTR_POOL_ENABLED, its
 *   constructor's arguments, its Async\Pool (the ABI's, C callbacks) and what was registered on
 *   it to be repeated on every connection;
 * - a connection (async_pdo_conn_t): one physical PDO object of the pool (the pool's resource
 *   is that object), the statements prepared on it, the coroutine it is bound to;
 * - a view (async_pdo_view_t): one coroutine's side of one template: its bound connection, the
 *   attributes it set, and what a private connection would still report after the connection went
 *   back (error state, last insert id).
 *
 * A call on a template from a coroutine swaps the frame's $this for the bound connection's object
 * and runs PHP's own method: nothing of PDO or its drivers is copied, and the statement it makes
 * belongs to the physical connection (docs/pdo-pool.md).
 */
#ifndef ASYNC_HOOK_PDO_POOL_H
#define ASYNC_HOOK_PDO_POOL_H

#include "php.h"
#include "zend_async_API.h"
#include "ext/pdo/php_pdo_driver.h"

/* The constants PHP's PDO class gets (TrueAsync's names; our own values, beyond PDO's and its
 * drivers' ranges). */
#define ASYNC_PDO_ATTR_POOL_ENABLED              9100
#define ASYNC_PDO_ATTR_POOL_MIN                  9101
#define ASYNC_PDO_ATTR_POOL_MAX                  9102
#define ASYNC_PDO_ATTR_POOL_HEALTHCHECK_INTERVAL 9103
#define ASYNC_PDO_ATTR_POOL_STMT_CACHE_SIZE      9104
#define ASYNC_PDO_ATTR_POOL_FIRST                ASYNC_PDO_ATTR_POOL_ENABLED
#define ASYNC_PDO_ATTR_POOL_LAST                 ASYNC_PDO_ATTR_POOL_STMT_CACHE_SIZE

#define ASYNC_PDO_POOL_MAX_DEFAULT 10

typedef enum {
	ASYNC_PDO_DRIVER_MYSQL,
	ASYNC_PDO_DRIVER_PGSQL,
	ASYNC_PDO_DRIVER_SQLITE,
} async_pdo_driver_t;

/* What a method does, as far as the pool cares (decided once per method at MINIT, by name). */
typedef enum {
	ASYNC_PDO_M_GENERIC,        /* runs on the bound connection */
	ASYNC_PDO_M_PREPARE,        /* ... and makes a statement (pins the connection) */
	ASYNC_PDO_M_QUERY,          /* ... likewise, and runs SQL */
	ASYNC_PDO_M_EXEC,           /* runs SQL */
	ASYNC_PDO_M_ERROR_CODE,     /* answered from the view when no connection is bound */
	ASYNC_PDO_M_ERROR_INFO,
	ASYNC_PDO_M_LAST_INSERT_ID,
	ASYNC_PDO_M_IN_TRANSACTION, /* false when no connection is bound */
	ASYNC_PDO_M_GET_ATTRIBUTE,  /* the pool's own attributes answered here */
	ASYNC_PDO_M_SET_ATTRIBUTE,  /* per coroutine (the view's), the pool's own refused */
	ASYNC_PDO_M_REGISTER,       /* registers something on the connection (SQLite functions, a
	                             * notice callback): run on the template, repeated on every one */
} async_pdo_method_kind_t;

typedef struct _async_pdo_tpl_s async_pdo_tpl_t;
typedef struct _async_pdo_conn_s async_pdo_conn_t;
typedef struct _async_pdo_view_s async_pdo_view_t;

/* One call repeated on every connection (a method of the template and its arguments). */
typedef struct {
	zend_string *method;       /* lower case */
	uint32_t argc;
	zval *argv;
} async_pdo_replay_t;

struct _async_pdo_tpl_s {
	uint32_t refcount;           /* the template object's, and one per connection alive */
	zend_object *obj;            /* the user's PDO object (not a reference); NULL once freed */
	zend_async_pool_t *pool;     /* NULL once closed and released */
	zend_class_entry *conn_ce;   /* the class of the physical objects: the template's PHP one */
	async_pdo_driver_t driver;
	zval ctor_args[4];           /* dsn, username, password, options without the pool's keys */
	uint32_t ctor_argc;
	zend_long min, max, healthcheck_interval, stmt_cache_size;
	HashTable views;             /* zend_coroutine_t * -> async_pdo_view_t * */
	HashTable conns;             /* physical object handle -> async_pdo_conn_t * */
	async_pdo_replay_t *replay;  /* calls made on the template, repeated on every connection */
	uint32_t replay_count, replay_capacity;
	bool closed;                 /* the template is gone or the request ends: no more binding */
};

struct _async_pdo_conn_s {
	zend_object *obj;          /* the physical PDO object (the pool's resource) */
	async_pdo_tpl_t *tpl;      /* a reference */
	async_pdo_view_t *view;    /* the coroutine it is bound to, or NULL */
	uint32_t statements;       /* live statements prepared on it */
	uint32_t replayed;         /* entries of tpl->replay applied */
	HashTable *saved_attrs;    /* attribute -> the template's value, while a view overrides it */
	HashTable *stmt_cache;     /* SQL -> cached statement (hook_pdo_pool_stmt.c), or NULL */
	bool broken;               /* destroyed when it leaves its coroutine, never handed out again */
	bool out;                  /* taken from the pool (bound, pinned or acquired by user code) */
	bool releasing;            /* inside async_pdo_conn_release() */
	bool maybe_inserted;       /* SQL that may have made an id ran since the last release */
	zend_long thread_id;       /* MySQL's CONNECTION_ID(), for a KILL QUERY when cancelled (0: unknown) */
};

struct _async_pdo_view_s {
	async_pdo_tpl_t *tpl;
	zend_coroutine_t *co;
	async_pdo_conn_t *conn;   /* bound, or NULL */
	uint32_t depth;           /* calls of this coroutine running on the template */
	bool made_sql;            /* SQL ran through the template on the bound connection */
	HashTable *attrs;         /* attribute -> value this coroutine set */
	/* What the coroutine's last connection reported when it went back: */
	bool has_error;           /* an error state was kept (else: as a fresh connection) */
	zval error_code;          /* errorCode()'s answer */
	zval error_info;          /* errorInfo()'s answer */
	zval last_id;             /* lastInsertId()'s answer, or UNDEF */
	async_pdo_view_t *next_of_co; /* the coroutine's other views */
};

/* ---------------------------------------------------------------------------------------------
 * hook_pdo_pool.c: installation, templates, the methods' trampolines
 * ------------------------------------------------------------------------------------------- */

extern zend_class_entry *async_pdo_exception_ce;

/* The template of a PDO object, or NULL when pooling is off for it. */
async_pdo_tpl_t *async_pdo_tpl_of(zend_object *obj);
void async_pdo_tpl_release(async_pdo_tpl_t *tpl);
/* The request's end: the template's object and its connections still out become PHP's own. */
void async_pdo_pool_detach(async_pdo_tpl_t *tpl);
/* Calls a method of a PDO object by its lower-case name, as PHP's own (no pool in between): true
 * when it returned without an exception. `quiet`: no warning, no exception left (the connection's
 * error mode silenced for the call). */
bool async_pdo_call(zend_object *obj, const char *lc_name, uint32_t argc, zval *argv, zval *retval, bool quiet);
pdo_dbh_t *async_pdo_dbh(zend_object *obj);
bool async_pdo_in_transaction(zend_object *obj);

/* ---------------------------------------------------------------------------------------------
 * hook_pdo_pool_conn.c: the pool's callbacks, views and bindings, the statements' lifetimes
 * ------------------------------------------------------------------------------------------- */

/* The pool of a new template (its MIN connections made now); false with an exception. */
bool async_pdo_pool_create(async_pdo_tpl_t *tpl);
/* The template goes: views dropped, idle connections destroyed, busy ones when they come back. */
void async_pdo_pool_close(async_pdo_tpl_t *tpl);

async_pdo_view_t *async_pdo_view_get(async_pdo_tpl_t *tpl, zend_coroutine_t *co);
/* Binds a connection to the view (suspends at MAX; may_wait false: only an idle one); false with
 * an exception. */
bool async_pdo_view_bind(async_pdo_view_t *view, bool may_wait);
/* After a call: the connection goes back to the pool unless a statement or a transaction pins it. */
void async_pdo_view_after_call(async_pdo_view_t *view);
/* A call made a statement on the view's connection: it pins the connection while it lives. */
void async_pdo_conn_track_statement(async_pdo_conn_t *conn, zend_object *stmt);
/* A statement no longer pins its connection (taken back by the statement cache). */
void async_pdo_conn_untrack_statement(async_pdo_conn_t *conn, zend_object *stmt);
/* A call ended with an exception or an error: a cancelled, dead or dropped connection is broken. */
void async_pdo_conn_after_error(async_pdo_conn_t *conn, bool cancelled);
/* Applies what the template registered since the connection last took it. */
void async_pdo_conn_replay(async_pdo_conn_t *conn);
/* A view sets an attribute on its connection: the template's value is kept to be put back. */
bool async_pdo_conn_override(async_pdo_conn_t *conn, zend_long attr, zval *value);

void async_pdo_pool_conn_minit(void);

/* ---------------------------------------------------------------------------------------------
 * hook_pdo_pool_stmt.c: the prepared-statement cache of each connection
 * ------------------------------------------------------------------------------------------- */

/* prepare() of `sql` on a connection with a cache: a cached statement handed out again (true,
 * *retval set), or false to prepare as PHP does. */
bool async_pdo_stmt_cache_take(async_pdo_conn_t *conn, zend_string *sql, zval *options, zval *retval);
/* A statement prepare() just made: kept in the cache when it can be. */
void async_pdo_stmt_cache_put(async_pdo_conn_t *conn, zend_string *sql, zval *options, zend_object *stmt);
/* A statement's caller let it go (its destructor): true when the cache took it back. */
bool async_pdo_stmt_cache_back(zend_object *stmt);
void async_pdo_stmt_cache_free(async_pdo_conn_t *conn);
void async_pdo_stmt_cache_minit(void);
void async_pdo_stmt_cache_mshutdown(void);
void async_pdo_stmt_cache_rshutdown(void);

#endif /* ASYNC_HOOK_PDO_POOL_H */
