/*
 * hooks/pdo_pool.c — one PDO object, many coroutines: PHP's own PDO class gets TrueAsync's pool
 * options (PDO::ATTR_POOL_*) and PDO::getPool(), without a patched PHP.
 *
 * The user's PDO object, built with PDO::ATTR_POOL_ENABLED, becomes a template: its constructor
 * still connects (so a wrong DSN or password throws where it always did, and calls made outside
 * coroutines use that connection, stock), and an Async\Pool of physical PDO objects, made with
 * the same constructor arguments, serves the coroutines. Every method of PDO (and of its 8.4
 * subclasses, and the drivers' methods of 8.2) has its handler replaced at MINIT by a trampoline
 * that knows the original: for a template called from a coroutine it binds a connection to the
 * coroutine (hooks/pdo_pool_conn.c), puts that connection's object in the frame's $this, and runs
 * PHP's own method. So the driver code is PHP's, each statement belongs to its physical
 * connection, and a coroutine suspended inside a call leaves nothing shared behind (the swap is
 * in its own frame). For every other PDO object the trampoline calls the original at once.
 *
 * Everything is put back at MSHUTDOWN: handlers, the constants, the getPool() methods.
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif
#include "php_async.h"
#include "hooks/hooks.h"

#ifdef HAVE_ASYNC_PDO_POOL

#include "core/core.h"
#include "async_io_wait.h"
#include "zend_exceptions.h"
#include "ext/standard/php_string.h"

/* per-process: found at MINIT (pdo is loaded before us: a module dependency) */
static zend_class_entry *pdo_ce;
zend_class_entry *async__pdo_exception_ce;

/* per-process: the handlers of templates, a copy of PDO's with two wrapped (tpl_handlers_init()) */
static zend_object_handlers tpl_handlers;
static const zend_object_handlers *pdo_handlers;

/* per-process: the constructors, replaced with ours */
static zif_handler orig_construct;
/* per-process: PDO::connect() (8.4), replaced with ours */
static zif_handler orig_connect;

/* ---------------------------------------------------------------------------------------------
 * Trampolines: one C function per distinct original handler, so that the original is found in
 * O(1) from the handler alone — also for the copies PHP makes when a class extends PDO.
 * ------------------------------------------------------------------------------------------- */

#define TRAMP_COUNT 80

typedef struct {
	zif_handler orig;
	async_pdo_method_kind_t kind;
} tramp_t;

/* per-process: filled at MINIT, and when a driver method of 8.2 is first looked up */
static tramp_t tramps[TRAMP_COUNT];
/* per-process: how many of them are taken */
static uint32_t tramps_used;

static void pdo_dispatch(uint32_t index, INTERNAL_FUNCTION_PARAMETERS);

#define TRAMP(rc) \
	static ZEND_NAMED_FUNCTION(pdo_tramp_##rc) { pdo_dispatch((1##rc) - 100, INTERNAL_FUNCTION_PARAM_PASSTHRU); }
#define TRAMP_ROW(r) TRAMP(r##0) TRAMP(r##1) TRAMP(r##2) TRAMP(r##3) TRAMP(r##4) \
	TRAMP(r##5) TRAMP(r##6) TRAMP(r##7) TRAMP(r##8) TRAMP(r##9)
TRAMP_ROW(0) TRAMP_ROW(1) TRAMP_ROW(2) TRAMP_ROW(3) TRAMP_ROW(4) TRAMP_ROW(5) TRAMP_ROW(6) TRAMP_ROW(7)
#define TRAMP_REF(rc) pdo_tramp_##rc,
#define TRAMP_REF_ROW(r) TRAMP_REF(r##0) TRAMP_REF(r##1) TRAMP_REF(r##2) TRAMP_REF(r##3) TRAMP_REF(r##4) \
	TRAMP_REF(r##5) TRAMP_REF(r##6) TRAMP_REF(r##7) TRAMP_REF(r##8) TRAMP_REF(r##9)
static const zif_handler tramp_fns[TRAMP_COUNT] = {
	TRAMP_REF_ROW(0) TRAMP_REF_ROW(1) TRAMP_REF_ROW(2) TRAMP_REF_ROW(3)
	TRAMP_REF_ROW(4) TRAMP_REF_ROW(5) TRAMP_REF_ROW(6) TRAMP_REF_ROW(7)
};

static bool is_tramp(zif_handler handler)
{
	for (uint32_t i = 0; i < tramps_used; i++) {
		if (tramp_fns[i] == handler) {
			return true;
		}
	}
	return false;
}

static async_pdo_method_kind_t method_kind(const zend_string *lc_name)
{
	static const struct { const char *name; async_pdo_method_kind_t kind; } kinds[] = {
		{ "prepare", ASYNC_PDO_M_PREPARE },
		{ "query", ASYNC_PDO_M_QUERY },
		{ "exec", ASYNC_PDO_M_EXEC },
		{ "errorcode", ASYNC_PDO_M_ERROR_CODE },
		{ "errorinfo", ASYNC_PDO_M_ERROR_INFO },
		{ "lastinsertid", ASYNC_PDO_M_LAST_INSERT_ID },
		{ "intransaction", ASYNC_PDO_M_IN_TRANSACTION },
		{ "getattribute", ASYNC_PDO_M_GET_ATTRIBUTE },
		{ "setattribute", ASYNC_PDO_M_SET_ATTRIBUTE },
		/* what stays registered on a connection: repeated on each one */
		{ "sqlitecreatefunction", ASYNC_PDO_M_REGISTER },
		{ "sqlitecreateaggregate", ASYNC_PDO_M_REGISTER },
		{ "sqlitecreatecollation", ASYNC_PDO_M_REGISTER },
		{ "createfunction", ASYNC_PDO_M_REGISTER },
		{ "createaggregate", ASYNC_PDO_M_REGISTER },
		{ "createcollation", ASYNC_PDO_M_REGISTER },
		{ "setauthorizer", ASYNC_PDO_M_REGISTER },
		{ "loadextension", ASYNC_PDO_M_REGISTER },
		{ "setnoticecallback", ASYNC_PDO_M_REGISTER },
	};
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		if (zend_string_equals_cstr(lc_name, kinds[i].name, strlen(kinds[i].name))) {
			return kinds[i].kind;
		}
	}
	return ASYNC_PDO_M_GENERIC;
}

/* The trampoline of `orig` (made on first use); NULL when all are taken (the method then stays
 * PHP's own, on the template's connection). */
static zif_handler tramp_for(zif_handler orig, const zend_string *lc_name)
{
	for (uint32_t i = 0; i < tramps_used; i++) {
		if (tramps[i].orig == orig) {
			return tramp_fns[i];
		}
	}
	if (tramps_used == TRAMP_COUNT) {
		return NULL;
	}
	tramps[tramps_used].orig = orig;
	tramps[tramps_used].kind = method_kind(lc_name);
	return tramp_fns[tramps_used++];
}

static zif_handler tramp_orig(zif_handler tramp)
{
	for (uint32_t i = 0; i < tramps_used; i++) {
		if (tramp_fns[i] == tramp) {
			return tramps[i].orig;
		}
	}
	return tramp;
}

/* ---------------------------------------------------------------------------------------------
 * Templates
 * ------------------------------------------------------------------------------------------- */

async_pdo_tpl_t *async__pdo_tpl_of(zend_object *obj)
{
	if (obj->handlers != &tpl_handlers || ASYNC_G(pdo_templates) == NULL) {
		return NULL;
	}
	return zend_hash_index_find_ptr(ASYNC_G(pdo_templates), obj->handle);
}

pdo_dbh_t *async__pdo_dbh(zend_object *obj)
{
	return php_pdo_dbh_fetch_inner(obj);
}

bool async__pdo_in_transaction(zend_object *obj)
{
	pdo_dbh_t *dbh = async__pdo_dbh(obj);
	if (dbh == NULL || dbh->driver_data == NULL || dbh->methods == NULL) {
		return false;
	}
	return dbh->methods->in_transaction ? dbh->methods->in_transaction(dbh) : dbh->in_txn;
}

static void replay_free(async_pdo_replay_t *r)
{
	zend_string_release(r->method);
	for (uint32_t i = 0; i < r->argc; i++) {
		zval_ptr_dtor(&r->argv[i]);
	}
	efree(r->argv);
}

void async__pdo_tpl_release(async_pdo_tpl_t *tpl)
{
	ZEND_ASSERT(tpl->refcount > 0);
	if (--tpl->refcount > 0) {
		return;
	}
	for (uint32_t i = 0; i < tpl->ctor_argc; i++) {
		zval_ptr_dtor(&tpl->ctor_args[i]);
	}
	for (uint32_t i = 0; i < tpl->replay_count; i++) {
		replay_free(&tpl->replay[i]);
	}
	if (tpl->replay) {
		efree(tpl->replay);
	}
	zend_hash_destroy(&tpl->views);
	zend_hash_destroy(&tpl->conns);
	if (tpl->pool != NULL) {
		/* an Async\Pool object of it may live on: its callbacks find no template any more */
		*(async_pdo_tpl_t **) tpl->pool->user_data = NULL;
		ZEND_ASYNC_EVENT_RELEASE(&tpl->pool->event);
	}
	efree(tpl);
}

/* The request ends: the template's object, if it lives on, is PHP's own again; connections still
 * out (held by statements) are let go as plain PDO objects. */
void async__pdo_pool_detach(async_pdo_tpl_t *tpl)
{
	tpl->refcount++; /* through the loop */
	zend_ulong handle;
	async_pdo_conn_t *conn;
	ZEND_HASH_FOREACH_NUM_KEY_PTR(&tpl->conns, handle, conn) {
		if (!conn->out) {
			continue;
		}
		zend_object *obj = conn->obj;
		if (conn->saved_attrs != NULL) {
			zend_hash_destroy(conn->saved_attrs);
			FREE_HASHTABLE(conn->saved_attrs);
		}
		if (conn->stmt_cache != NULL) {
			async__pdo_stmt_cache_free(conn);
		}
		zend_hash_index_del(&tpl->conns, handle);
		efree(conn);
		async__pdo_tpl_release(tpl);
		OBJ_RELEASE(obj);
	} ZEND_HASH_FOREACH_END();
	if (tpl->obj != NULL) {
		tpl->obj->handlers = pdo_handlers;
		tpl->obj = NULL;
		async__pdo_tpl_release(tpl);
	}
	async__pdo_tpl_release(tpl);
}

/* The template object is freed: its pool goes, then PHP frees its own connection. */
static void tpl_free_obj(zend_object *obj)
{
	async_pdo_tpl_t *tpl = async__pdo_tpl_of(obj);
	if (tpl != NULL) {
		zend_hash_index_del(ASYNC_G(pdo_templates), obj->handle);
		tpl->obj = NULL;
		async__pdo_pool_close(tpl);
		async__pdo_tpl_release(tpl);
	}
	pdo_handlers->free_obj(obj);
}

/* The drivers' methods of 8.2 (and the old names on 8.4+: $pdo->pgsqlCopyFromArray()) are not in
 * the class's table: PDO makes them per connection on first lookup. The template's get their
 * trampoline here. */
static zend_function *tpl_get_method(zend_object **object, zend_string *name, const zval *key)
{
	zend_function *fn = pdo_handlers->get_method(object, name, key);
	if (fn == NULL || fn->type != ZEND_INTERNAL_FUNCTION
		|| (fn->common.fn_flags & (ZEND_ACC_CALL_VIA_TRAMPOLINE | ZEND_ACC_STATIC))
		|| is_tramp(fn->internal_function.handler)) {
		return fn;
	}
	zend_string *lc = zend_string_tolower(name);
	if (zend_hash_find_ptr(&(*object)->ce->function_table, lc) != fn) {
		/* not a method of the class: one of the driver's, made for this connection */
		zif_handler tramp = tramp_for(fn->internal_function.handler, lc);
		if (tramp != NULL) {
			fn->internal_function.handler = tramp;
		}
	}
	zend_string_release(lc);
	return fn;
}

/* ---------------------------------------------------------------------------------------------
 * The pool's options
 * ------------------------------------------------------------------------------------------- */

typedef struct {
	bool enabled;
	zend_long min, max, healthcheck_interval, stmt_cache_size;
} pool_options_t;

static const char *pool_attr_name(zend_long attr)
{
	switch (attr) {
		case ASYNC_PDO_ATTR_POOL_ENABLED: return "PDO::ATTR_POOL_ENABLED";
		case ASYNC_PDO_ATTR_POOL_MIN: return "PDO::ATTR_POOL_MIN";
		case ASYNC_PDO_ATTR_POOL_MAX: return "PDO::ATTR_POOL_MAX";
		case ASYNC_PDO_ATTR_POOL_HEALTHCHECK_INTERVAL: return "PDO::ATTR_POOL_HEALTHCHECK_INTERVAL";
		default: return "PDO::ATTR_POOL_STMT_CACHE_SIZE";
	}
}

static bool is_pool_attr(zend_long attr)
{
	return attr >= ASYNC_PDO_ATTR_POOL_FIRST && attr <= ASYNC_PDO_ATTR_POOL_LAST;
}

/* PDO's own reading of an integer attribute (pdo_get_long_param()): int, bool or an integer
 * string; anything else is a TypeError in PDO's words. */
static bool option_long(zval *value, zend_long *out)
{
	ZVAL_DEREF(value);
	switch (Z_TYPE_P(value)) {
		case IS_LONG: *out = Z_LVAL_P(value); return true;
		case IS_TRUE: *out = 1; return true;
		case IS_FALSE: *out = 0; return true;
		case IS_STRING:
			if (IS_LONG == is_numeric_str_function(Z_STR_P(value), out, NULL)) {
				return true;
			}
			ZEND_FALLTHROUGH;
		default:
			zend_type_error("Attribute value must be of type int for selected attribute, %s given",
				zend_zval_type_name(value));
			return false;
	}
}

static bool option_bool(zval *value, bool *out)
{
	ZVAL_DEREF(value);
	switch (Z_TYPE_P(value)) {
		case IS_TRUE: *out = true; return true;
		case IS_FALSE: *out = false; return true;
		case IS_LONG: *out = Z_LVAL_P(value) != 0; return true;
		case IS_STRING:
			if (Z_STRLEN_P(value) == 0 || zend_string_equals_literal(Z_STR_P(value), "0")) {
				*out = false;
				return true;
			}
			if (IS_LONG == is_numeric_str_function(Z_STR_P(value), NULL, NULL)) {
				*out = true;
				return true;
			}
			ZEND_FALLTHROUGH;
		default:
			zend_type_error("Attribute value must be of type bool for selected attribute, %s given",
				zend_zval_type_name(value));
			return false;
	}
}

/* Reads the pool's keys of the constructor's options; false with a TypeError or ValueError. */
static bool pool_options_parse(HashTable *options, pool_options_t *po)
{
	memset(po, 0, sizeof(*po));
	po->max = ASYNC_PDO_POOL_MAX_DEFAULT;
	zend_ulong key;
	zval *value;
	ZEND_HASH_FOREACH_NUM_KEY_VAL(options, key, value) {
		zend_long attr = (zend_long) key;
		if (!is_pool_attr(attr)) {
			continue;
		}
		bool ok = true;
		switch (attr) {
			case ASYNC_PDO_ATTR_POOL_ENABLED: ok = option_bool(value, &po->enabled); break;
			case ASYNC_PDO_ATTR_POOL_MIN: ok = option_long(value, &po->min); break;
			case ASYNC_PDO_ATTR_POOL_MAX: ok = option_long(value, &po->max); break;
			case ASYNC_PDO_ATTR_POOL_HEALTHCHECK_INTERVAL: ok = option_long(value, &po->healthcheck_interval); break;
			case ASYNC_PDO_ATTR_POOL_STMT_CACHE_SIZE: ok = option_long(value, &po->stmt_cache_size); break;
		}
		if (!ok) {
			return false;
		}
	} ZEND_HASH_FOREACH_END();
	if (po->max < 1 || po->max > UINT32_MAX) {
		zend_value_error("PDO::ATTR_POOL_MAX must be between 1 and %u", UINT32_MAX);
		return false;
	}
	if (po->min < 0 || po->min > po->max) {
		zend_value_error("PDO::ATTR_POOL_MIN must be between 0 and PDO::ATTR_POOL_MAX (" ZEND_LONG_FMT ")", po->max);
		return false;
	}
	if (po->healthcheck_interval < 0 || po->healthcheck_interval > UINT32_MAX) {
		zend_value_error("PDO::ATTR_POOL_HEALTHCHECK_INTERVAL must be between 0 and %u (milliseconds)", UINT32_MAX);
		return false;
	}
	if (po->stmt_cache_size < 0 || po->stmt_cache_size > 65536) {
		zend_value_error("PDO::ATTR_POOL_STMT_CACHE_SIZE must be between 0 and 65536");
		return false;
	}
	return true;
}

static bool has_pool_keys(HashTable *options)
{
	for (zend_long attr = ASYNC_PDO_ATTR_POOL_FIRST; attr <= ASYNC_PDO_ATTR_POOL_LAST; attr++) {
		if (zend_hash_index_exists(options, (zend_ulong) attr)) {
			return true;
		}
	}
	return false;
}

static bool option_persistent(HashTable *options)
{
	zval *v = zend_hash_index_find_deref(options, PDO_ATTR_PERSISTENT);
	if (v == NULL) {
		return false;
	}
	if (Z_TYPE_P(v) == IS_STRING && Z_STRLEN_P(v) > 0 && !is_numeric_string(Z_STRVAL_P(v), Z_STRLEN_P(v), NULL, NULL, 0)) {
		return true; /* a persistent connection's own key */
	}
	return zval_get_long(v) != 0;
}

/* PDO's own exception class, as PDO throws it (code 0). */
#define throw_pdo(...) zend_throw_exception_ex(async__pdo_exception_ce, 0, __VA_ARGS__)

/* The frame's options argument without the pool's keys (PDO would refuse them as unknown
 * attributes): a new array in the frame's slot. */
static void frame_strip_options(zval *options)
{
	zend_array *copy = zend_array_dup(Z_ARRVAL_P(options));
	for (zend_long attr = ASYNC_PDO_ATTR_POOL_FIRST; attr <= ASYNC_PDO_ATTR_POOL_LAST; attr++) {
		zend_hash_index_del(copy, (zend_ulong) attr);
	}
	zval_ptr_dtor(options);
	ZVAL_ARR(options, copy);
}

/* ---------------------------------------------------------------------------------------------
 * Making a template
 * ------------------------------------------------------------------------------------------- */

static bool driver_of(pdo_dbh_t *dbh, async_pdo_driver_t *driver)
{
	if (dbh->driver == NULL) {
		return false;
	}
	const char *name = dbh->driver->driver_name;
	size_t len = dbh->driver->driver_name_len;
	if (len == 5 && memcmp(name, "mysql", 5) == 0) {
		*driver = ASYNC_PDO_DRIVER_MYSQL;
	} else if (len == 5 && memcmp(name, "pgsql", 5) == 0) {
		*driver = ASYNC_PDO_DRIVER_PGSQL;
	} else if (len == 6 && memcmp(name, "sqlite", 6) == 0) {
		*driver = ASYNC_PDO_DRIVER_SQLITE;
	} else {
		throw_pdo("PDO::ATTR_POOL_ENABLED is supported for the mysql, pgsql and sqlite drivers, not for %.*s",
			(int) len, name);
		return false;
	}
	return true;
}

/* An SQLite database that only its own connection sees: each pooled connection would get an
 * empty one of its own. (The data source is what follows "sqlite:".) */
static bool sqlite_private_database(const char *source)
{
	if (source == NULL || *source == '\0' || strcmp(source, ":memory:") == 0) {
		return true;
	}
	if (strncmp(source, "file:", 5) == 0) {
		return strncmp(source + 5, ":memory:", 8) == 0 || strstr(source, "mode=memory") != NULL;
	}
	return false;
}

/* The class of the physical connections: the template's own PHP class (a user subclass's
 * constructor is not run for them). */
static zend_class_entry *conn_class_of(zend_class_entry *ce)
{
	while (ce != NULL && ce->type != ZEND_INTERNAL_CLASS) {
		ce = ce->parent;
	}
	return ce != NULL ? ce : pdo_ce;
}

/* The handlers of templates: PDO's, read from the first template (every PDO object has PHP's
 * one set: pdo_dbh_new()), with two wrapped. */
static void tpl_handlers_init(zend_object *obj)
{
	if (pdo_handlers != NULL) {
		ZEND_ASSERT(obj->handlers == pdo_handlers);
		return;
	}
	/* per-process: the same values whichever thread writes them first */
	memcpy(&tpl_handlers, obj->handlers, sizeof(zend_object_handlers));
	tpl_handlers.free_obj = tpl_free_obj;
	tpl_handlers.get_method = tpl_get_method;
	pdo_handlers = obj->handlers;
}

static bool tpl_create(zend_object *obj, zend_execute_data *execute_data, const pool_options_t *po)
{
	pdo_dbh_t *dbh = async__pdo_dbh(obj);
	async_pdo_driver_t driver;
	if (!driver_of(dbh, &driver)) {
		return false;
	}
	if (driver == ASYNC_PDO_DRIVER_SQLITE && sqlite_private_database(dbh->data_source)) {
		throw_pdo("PDO::ATTR_POOL_ENABLED cannot be used with an in-memory or temporary SQLite database: "
			"each pooled connection would open an empty database of its own");
		return false;
	}

	async_pdo_tpl_t *tpl = ecalloc(1, sizeof(async_pdo_tpl_t));
	tpl->refcount = 1;
	tpl->obj = obj;
	tpl->driver = driver;
	tpl->conn_ce = conn_class_of(obj->ce);
	tpl->min = po->min;
	tpl->max = po->max;
	tpl->healthcheck_interval = po->healthcheck_interval;
	tpl->stmt_cache_size = po->stmt_cache_size;
	tpl->ctor_argc = MIN(EX_NUM_ARGS(), 4);
	for (uint32_t i = 0; i < tpl->ctor_argc; i++) {
		ZVAL_COPY_DEREF(&tpl->ctor_args[i], ZEND_CALL_ARG(execute_data, i + 1));
	}
	zend_hash_init(&tpl->views, 8, NULL, NULL, 0);
	zend_hash_init(&tpl->conns, 8, NULL, NULL, 0);

	if (ASYNC_G(pdo_templates) == NULL) {
		ALLOC_HASHTABLE(ASYNC_G(pdo_templates));
		zend_hash_init(ASYNC_G(pdo_templates), 8, NULL, NULL, 0);
	}
	zend_hash_index_update_ptr(ASYNC_G(pdo_templates), obj->handle, tpl);
	tpl_handlers_init(obj);
	obj->handlers = &tpl_handlers;

	if (!async__pdo_pool_create(tpl)) {
		zend_hash_index_del(ASYNC_G(pdo_templates), obj->handle);
		obj->handlers = pdo_handlers;
		tpl->obj = NULL;
		async__pdo_tpl_release(tpl);
		return false;
	}
	return true;
}

/* new PDO(...) and new Pdo\Mysql(...) & co.: the pool's options are taken out of the options;
 * with PDO::ATTR_POOL_ENABLED the object becomes a template once PHP's constructor returns. */
static ZEND_NAMED_FUNCTION(pdo_construct)
{
	zval *options = EX_NUM_ARGS() >= 4 ? ZEND_CALL_ARG(execute_data, 4) : NULL;
	if (options == NULL || Z_TYPE_P(options) != IS_ARRAY || !has_pool_keys(Z_ARRVAL_P(options))) {
		/* PDO::ATTR_PERSISTENT: held by the coroutine (hooks/persistent.c) */
		async__persistent_pdo_construct(INTERNAL_FUNCTION_PARAM_PASSTHRU, orig_construct);
		return;
	}
	pool_options_t po;
	if (!pool_options_parse(Z_ARRVAL_P(options), &po)) {
		RETURN_THROWS();
	}
	frame_strip_options(options);
	if (!po.enabled) {
		async__persistent_pdo_construct(INTERNAL_FUNCTION_PARAM_PASSTHRU, orig_construct);
		return;
	}
	if (option_persistent(Z_ARRVAL_P(options))) {
		throw_pdo("PDO::ATTR_POOL_ENABLED cannot be combined with PDO::ATTR_PERSISTENT: a pooled connection "
			"belongs to one coroutine at a time, a persistent one to the whole process");
		RETURN_THROWS();
	}
	orig_construct(INTERNAL_FUNCTION_PARAM_PASSTHRU);
	if (EG(exception) == NULL) {
		tpl_create(Z_OBJ_P(ZEND_THIS), execute_data, &po);
	}
}

/* PDO::connect() (8.4+): the same, for the object it returns. */
static ZEND_NAMED_FUNCTION(pdo_connect)
{
	zval *options = EX_NUM_ARGS() >= 4 ? ZEND_CALL_ARG(execute_data, 4) : NULL;
	if (options == NULL || Z_TYPE_P(options) != IS_ARRAY || !has_pool_keys(Z_ARRVAL_P(options))) {
		async__persistent_pdo_construct(INTERNAL_FUNCTION_PARAM_PASSTHRU, orig_connect);
		return;
	}
	pool_options_t po;
	if (!pool_options_parse(Z_ARRVAL_P(options), &po)) {
		RETURN_THROWS();
	}
	frame_strip_options(options);
	if (po.enabled && option_persistent(Z_ARRVAL_P(options))) {
		throw_pdo("PDO::ATTR_POOL_ENABLED cannot be combined with PDO::ATTR_PERSISTENT: a pooled connection "
			"belongs to one coroutine at a time, a persistent one to the whole process");
		RETURN_THROWS();
	}
	if (po.enabled) {
		orig_connect(INTERNAL_FUNCTION_PARAM_PASSTHRU);
	} else {
		async__persistent_pdo_construct(INTERNAL_FUNCTION_PARAM_PASSTHRU, orig_connect);
	}
	if (po.enabled && EG(exception) == NULL && Z_TYPE_P(return_value) == IS_OBJECT
		&& !tpl_create(Z_OBJ_P(return_value), execute_data, &po)) {
		zval_ptr_dtor(return_value);
		ZVAL_UNDEF(return_value);
	}
}

/* PDO::getPool(): the template's Async\Pool, or null when pooling is off. */
static ZEND_NAMED_FUNCTION(pdo_get_pool)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_pdo_tpl_t *tpl = async__pdo_tpl_of(Z_OBJ_P(ZEND_THIS));
	if (tpl == NULL || tpl->pool == NULL) {
		RETURN_NULL();
	}
	zend_object *pool = ZEND_ASYNC_NEW_POOL_OBJ(tpl->pool);
	if (pool == NULL) {
		RETURN_THROWS();
	}
	RETURN_OBJ(pool);
}

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_pdo_get_pool, 0, 0, Async\\Pool, 1)
ZEND_END_ARG_INFO()

static const zend_function_entry pdo_pool_methods[] = {
	ZEND_NAMED_ME(getPool, pdo_get_pool, arginfo_pdo_get_pool, ZEND_ACC_PUBLIC)
	ZEND_FE_END
};

/* ---------------------------------------------------------------------------------------------
 * Calling a PDO object's method from C, as PHP's own
 * ------------------------------------------------------------------------------------------- */

/* `quiet`: the call's own failure is dropped, not its cancellation, which stays pending (the
 * caller gives up what it was doing). A pending exception set aside meanwhile comes back, with
 * what the call threw over it. */
bool async__pdo_call(zend_object *obj, const char *lc_name, uint32_t argc, zval *argv, zval *retval, bool quiet)
{
	zend_function *fn = zend_hash_str_find_ptr(&obj->ce->function_table, lc_name, strlen(lc_name));
	if (fn == NULL) {
		zend_string *name = zend_string_init(lc_name, strlen(lc_name), 0);
		zend_object *o = obj;
		fn = obj->handlers->get_method(&o, name, NULL);
		zend_string_release(name);
		if (fn == NULL) {
			ZVAL_UNDEF(retval);
			return false;
		}
	}
	pdo_dbh_t *dbh = async__pdo_dbh(obj);
	enum pdo_error_mode mode = dbh->error_mode;
	zend_object *pending = EG(exception);
	EG(exception) = NULL; /* set aside, as pool.c does: no frame's opline is touched */
	if (quiet) {
		dbh->error_mode = PDO_ERRMODE_SILENT;
	}
	ZVAL_UNDEF(retval);
	zend_call_known_instance_method(fn, obj, retval, argc, argv);
	if (quiet) {
		dbh->error_mode = mode;
	}
	bool ok = EG(exception) == NULL;
	if (!ok && (quiet || pending != NULL) && !async__exception_has_cancellation(EG(exception))) {
		zend_object *ex = EG(exception);
		EG(exception) = NULL;
		OBJ_RELEASE(ex);
	}
	if (pending != NULL) {
		if (EG(exception) != NULL) {
			zend_exception_set_previous(EG(exception), pending);
		} else {
			EG(exception) = pending;
		}
	}
	if (EG(exception) != NULL) {
		async__cancellation_on_top();
	}
	return ok;
}

/* ---------------------------------------------------------------------------------------------
 * The dispatch
 * ------------------------------------------------------------------------------------------- */

/* getAttribute()/setAttribute() of the pool's own attributes, on any PDO object: true when
 * answered here. */
static bool pool_attribute(async_pdo_tpl_t *tpl, async_pdo_method_kind_t kind, zend_execute_data *execute_data,
	zval *return_value)
{
	if (EX_NUM_ARGS() < 1) {
		return false;
	}
	zval *arg = ZEND_CALL_ARG(execute_data, 1);
	if (Z_TYPE_P(arg) != IS_LONG || !is_pool_attr(Z_LVAL_P(arg))) {
		return false;
	}
	zend_long attr = Z_LVAL_P(arg);
	if (kind == ASYNC_PDO_M_SET_ATTRIBUTE) {
		throw_pdo("%s can only be given to the constructor", pool_attr_name(attr));
		return true;
	}
	if (EX_NUM_ARGS() != 1) {
		return false; /* PHP's ZPP says what is wrong */
	}
	if (tpl == NULL) {
		RETVAL_FALSE;
		return true;
	}
	switch (attr) {
		case ASYNC_PDO_ATTR_POOL_ENABLED: RETVAL_TRUE; break;
		case ASYNC_PDO_ATTR_POOL_MIN: RETVAL_LONG(tpl->min); break;
		case ASYNC_PDO_ATTR_POOL_MAX: RETVAL_LONG(tpl->max); break;
		case ASYNC_PDO_ATTR_POOL_HEALTHCHECK_INTERVAL: RETVAL_LONG(tpl->healthcheck_interval); break;
		default: RETVAL_LONG(tpl->stmt_cache_size); break;
	}
	return true;
}

/* A call made on the template itself, kept to be repeated on every pooled connection (the
 * connections made later at their start, the others when they are next bound). */
static void replay_record(async_pdo_tpl_t *tpl, zend_execute_data *execute_data)
{
	if (tpl->replay_count == tpl->replay_capacity) {
		tpl->replay_capacity = tpl->replay_capacity ? tpl->replay_capacity * 2 : 4;
		tpl->replay = safe_erealloc(tpl->replay, tpl->replay_capacity, sizeof(async_pdo_replay_t), 0);
	}
	async_pdo_replay_t *r = &tpl->replay[tpl->replay_count++];
	r->method = zend_string_tolower(EX(func)->common.function_name);
	r->argc = EX_NUM_ARGS();
	r->argv = safe_emalloc(MAX(r->argc, 1), sizeof(zval), 0);
	for (uint32_t i = 0; i < r->argc; i++) {
		ZVAL_COPY_DEREF(&r->argv[i], ZEND_CALL_ARG(execute_data, i + 1));
	}
}

/* A call on the template that registers something (an SQLite function), or that sets an
 * attribute outside coroutines: made on the template's own connection as PHP makes it, then
 * repeated on every pooled connection. */
static void call_on_template(async_pdo_tpl_t *tpl, zif_handler orig, INTERNAL_FUNCTION_PARAMETERS)
{
	orig(INTERNAL_FUNCTION_PARAM_PASSTHRU);
	if (EG(exception) == NULL && Z_TYPE_P(return_value) != IS_FALSE) {
		replay_record(tpl, execute_data);
	}
}

/* What a private connection would say where the coroutine has none bound (or, for
 * lastInsertId(), made no statement on the one bound): true when answered here. */
static bool answer_from_view(async_pdo_tpl_t *tpl, async_pdo_view_t *view, async_pdo_method_kind_t kind,
	zval *return_value)
{
	bool bound = view != NULL && view->conn != NULL;
	switch (kind) {
		case ASYNC_PDO_M_IN_TRANSACTION:
			if (bound) {
				return false;
			}
			RETVAL_FALSE;
			return true;
		case ASYNC_PDO_M_ERROR_CODE:
			if (bound) {
				return false;
			}
			if (view == NULL || Z_TYPE(view->error_code) == IS_UNDEF) {
				RETVAL_NULL(); /* as a connection no call was made on */
			} else {
				RETVAL_COPY(&view->error_code);
			}
			return true;
		case ASYNC_PDO_M_ERROR_INFO:
			if (bound) {
				return false;
			}
			if (view != NULL && Z_TYPE(view->error_info) == IS_ARRAY) {
				RETVAL_COPY(&view->error_info);
				return true;
			}
			array_init_size(return_value, 3);
			if (view == NULL || Z_TYPE(view->error_code) == IS_UNDEF) {
				add_next_index_str(return_value, ZSTR_EMPTY_ALLOC());
			} else {
				Z_TRY_ADDREF(view->error_code);
				add_next_index_zval(return_value, &view->error_code);
			}
			add_next_index_null(return_value);
			add_next_index_null(return_value);
			return true;
		case ASYNC_PDO_M_LAST_INSERT_ID:
			if (bound && view->made_sql) {
				return false; /* its own statement's, on its own connection */
			}
			if (view != NULL && Z_TYPE(view->last_id) != IS_UNDEF) {
				RETVAL_COPY(&view->last_id);
				return true;
			}
			if (tpl->driver != ASYNC_PDO_DRIVER_PGSQL) {
				RETVAL_STRINGL("0", 1); /* what a new MySQL or SQLite connection says */
				return true;
			}
			return false; /* PostgreSQL's lastval(), in a session cleared of others' sequences */
		default:
			return false;
	}
}

/* The calls that leave a connection's last insert id as theirs (MySQL resets it on every
 * statement, autocommit changes included). */
static bool kind_runs_sql(async_pdo_method_kind_t kind)
{
	switch (kind) {
		case ASYNC_PDO_M_ERROR_CODE:
		case ASYNC_PDO_M_ERROR_INFO:
		case ASYNC_PDO_M_LAST_INSERT_ID:
		case ASYNC_PDO_M_GET_ATTRIBUTE:
		case ASYNC_PDO_M_IN_TRANSACTION:
			return false;
		default:
			return true;
	}
}

/* SQL that may make an id lastInsertId() reads (PostgreSQL's lastval() is read only then). */
static bool sql_may_insert(zend_execute_data *execute_data)
{
	if (EX_NUM_ARGS() < 1) {
		return false;
	}
	zval *sql = ZEND_CALL_ARG(execute_data, 1);
	if (Z_TYPE_P(sql) != IS_STRING) {
		return false;
	}
	return php_memnistr(Z_STRVAL_P(sql), "insert", 6, Z_STRVAL_P(sql) + Z_STRLEN_P(sql)) != NULL
		|| php_memnistr(Z_STRVAL_P(sql), "nextval", 7, Z_STRVAL_P(sql) + Z_STRLEN_P(sql)) != NULL;
}

static bool conn_has_error(async_pdo_conn_t *conn)
{
	pdo_dbh_t *dbh = async__pdo_dbh(conn->obj);
	const char *code = dbh->query_stmt ? dbh->query_stmt->error_code : dbh->error_code;
	return code[0] != '\0' && strcmp(code, PDO_ERR_NONE) != 0;
}

/* A call of a template from a coroutine: on the coroutine's connection. */
static void pool_call(async_pdo_tpl_t *tpl, zend_coroutine_t *co, async_pdo_method_kind_t kind, zif_handler orig,
	INTERNAL_FUNCTION_PARAMETERS)
{
	zend_object *obj = Z_OBJ(EX(This));
	async_pdo_view_t *view = zend_hash_index_find_ptr(&tpl->views, (zend_ulong) (uintptr_t) co);
	if (answer_from_view(tpl, view, kind, return_value)) {
		return;
	}
	if (view == NULL) {
		view = async__pdo_view_get(tpl, co);
	}
	if (view->conn == NULL && !async__pdo_view_bind(view, async_io_can_wait())) {
		return; /* the exception says why (a cancellation while waiting, a failed connect) */
	}
	async_pdo_conn_t *conn = view->conn;
	if (conn->replayed < tpl->replay_count) {
		async__pdo_conn_replay(conn);
	}
	if (kind == ASYNC_PDO_M_LAST_INSERT_ID && !view->made_sql) {
		/* PostgreSQL: no sequence of the coroutine's own used on this session yet. The session's
		 * lastval()/currval() state is an earlier coroutine's: cleared, so PHP's own call answers
		 * as on a new connection ("lastval is not yet defined in this session"). */
		zval sql, rv;
		ZVAL_STRINGL(&sql, "DISCARD SEQUENCES", sizeof("DISCARD SEQUENCES") - 1);
		async__pdo_call(conn->obj, "exec", 1, &sql, &rv, true);
		zval_ptr_dtor(&sql);
		zval_ptr_dtor(&rv);
	}
	if (kind == ASYNC_PDO_M_SET_ATTRIBUTE && EX_NUM_ARGS() == 2 && Z_TYPE_P(ZEND_CALL_ARG(execute_data, 1)) == IS_LONG) {
		if (!async__pdo_conn_override(conn, Z_LVAL_P(ZEND_CALL_ARG(execute_data, 1)), ZEND_CALL_ARG(execute_data, 2))) {
			async__pdo_view_after_call(view);
			return;
		}
	}
	if (kind == ASYNC_PDO_M_PREPARE && conn->stmt_cache != NULL && EX_NUM_ARGS() >= 1
		&& Z_TYPE_P(ZEND_CALL_ARG(execute_data, 1)) == IS_STRING
		&& async__pdo_stmt_cache_take(conn, Z_STR_P(ZEND_CALL_ARG(execute_data, 1)),
			EX_NUM_ARGS() >= 2 ? ZEND_CALL_ARG(execute_data, 2) : NULL, return_value)) {
		async__pdo_view_after_call(view);
		return;
	}

	zend_object *conn_obj = conn->obj;
	GC_ADDREF(conn_obj); /* alive through the call, whatever happens to the binding */
	view->depth++;
	Z_OBJ(EX(This)) = conn_obj;
	orig(INTERNAL_FUNCTION_PARAM_PASSTHRU);
	Z_OBJ(EX(This)) = obj;
	view->depth--;
	if (kind_runs_sql(kind) && view->conn == conn) {
		view->made_sql = true;
	}

	if ((kind == ASYNC_PDO_M_PREPARE || kind == ASYNC_PDO_M_QUERY) && Z_TYPE_P(return_value) == IS_OBJECT) {
		if (kind == ASYNC_PDO_M_PREPARE && conn->stmt_cache != NULL) {
			async__pdo_stmt_cache_put(conn, Z_STR_P(ZEND_CALL_ARG(execute_data, 1)),
				EX_NUM_ARGS() >= 2 ? ZEND_CALL_ARG(execute_data, 2) : NULL, Z_OBJ_P(return_value));
		}
		async__pdo_conn_track_statement(conn, Z_OBJ_P(return_value));
	}
	if ((kind == ASYNC_PDO_M_EXEC || kind == ASYNC_PDO_M_QUERY || kind == ASYNC_PDO_M_PREPARE)
		&& tpl->driver == ASYNC_PDO_DRIVER_PGSQL && sql_may_insert(execute_data)) {
		conn->maybe_inserted = true;
	}
	if (EG(exception) != NULL) {
		async__pdo_conn_after_error(conn, async__hook_is_cancellation(EG(exception)));
	} else if (conn_has_error(conn)) {
		async__pdo_conn_after_error(conn, false);
	}
	if (kind == ASYNC_PDO_M_SET_ATTRIBUTE && EG(exception) == NULL && Z_TYPE_P(return_value) == IS_TRUE) {
		if (view->attrs == NULL) {
			ALLOC_HASHTABLE(view->attrs);
			zend_hash_init(view->attrs, 4, NULL, ZVAL_PTR_DTOR, 0);
		}
		zval copy;
		ZVAL_COPY_DEREF(&copy, ZEND_CALL_ARG(execute_data, 2));
		zend_hash_index_update(view->attrs, (zend_ulong) Z_LVAL_P(ZEND_CALL_ARG(execute_data, 1)), &copy);
	}
	OBJ_RELEASE(conn_obj);
	if (view->depth == 0) {
		async__pdo_view_after_call(view);
	}
}

static void pdo_dispatch(uint32_t index, INTERNAL_FUNCTION_PARAMETERS)
{
	ZEND_ASSERT(index < tramps_used);
	zif_handler orig = tramps[index].orig;
	if (Z_TYPE(EX(This)) != IS_OBJECT || EXPECTED(Z_OBJ(EX(This))->handlers != &tpl_handlers)) {
		async_pdo_method_kind_t kind = tramps[index].kind;
		if ((kind == ASYNC_PDO_M_GET_ATTRIBUTE || kind == ASYNC_PDO_M_SET_ATTRIBUTE) && Z_TYPE(EX(This)) == IS_OBJECT
			&& pool_attribute(NULL, kind, execute_data, return_value)) {
			return;
		}
		orig(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	async_pdo_tpl_t *tpl = async__pdo_tpl_of(Z_OBJ(EX(This)));
	async_pdo_method_kind_t kind = tramps[index].kind;
	if ((kind == ASYNC_PDO_M_GET_ATTRIBUTE || kind == ASYNC_PDO_M_SET_ATTRIBUTE)
		&& pool_attribute(tpl, kind, execute_data, return_value)) {
		return;
	}
	if (tpl == NULL) {
		orig(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	zend_coroutine_t *co = ZEND_ASYNC_CURRENT_COROUTINE;
	bool outside = co == NULL || ZEND_ASYNC_IS_SCHEDULER_CONTEXT || tpl->closed || tpl->pool == NULL;
	if (kind == ASYNC_PDO_M_REGISTER || (outside && kind == ASYNC_PDO_M_SET_ATTRIBUTE)) {
		call_on_template(tpl, orig, INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	if (outside) {
		/* outside coroutines: the template's own connection, as PHP does */
		orig(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	pool_call(tpl, co, kind, orig, INTERNAL_FUNCTION_PARAM_PASSTHRU);
}

/* ---------------------------------------------------------------------------------------------
 * Installation
 * ------------------------------------------------------------------------------------------- */

static const struct { const char *name; zend_long value; } pool_constants[] = {
	{ "ATTR_POOL_ENABLED", ASYNC_PDO_ATTR_POOL_ENABLED },
	{ "ATTR_POOL_MIN", ASYNC_PDO_ATTR_POOL_MIN },
	{ "ATTR_POOL_MAX", ASYNC_PDO_ATTR_POOL_MAX },
	{ "ATTR_POOL_HEALTHCHECK_INTERVAL", ASYNC_PDO_ATTR_POOL_HEALTHCHECK_INTERVAL },
	{ "ATTR_POOL_STMT_CACHE_SIZE", ASYNC_PDO_ATTR_POOL_STMT_CACHE_SIZE },
};

/* Methods PHP calls without an object, or that make or unmake the object: left as they are. */
static bool method_skipped(zend_function *fn, zend_string *lc_name)
{
	return fn->type != ZEND_INTERNAL_FUNCTION || (fn->common.fn_flags & ZEND_ACC_STATIC)
		|| zend_string_equals_literal(lc_name, "__wakeup") || zend_string_equals_literal(lc_name, "__sleep")
		|| zend_string_equals_literal(lc_name, "getpool");
}

static void class_install(zend_class_entry *ce)
{
	for (size_t i = 0; i < sizeof(pool_constants) / sizeof(pool_constants[0]); i++) {
		if (ce == pdo_ce) {
			zend_declare_class_constant_long(ce, pool_constants[i].name, strlen(pool_constants[i].name),
				pool_constants[i].value);
		} else {
			/* inherited as PHP inherits an internal class's constants: a copy of the parent's
			 * (still declared by PDO), which the child frees with itself at MSHUTDOWN */
			zend_class_constant *c = zend_hash_str_find_ptr(&pdo_ce->constants_table, pool_constants[i].name,
				strlen(pool_constants[i].name));
			if (c != NULL) {
				zend_class_constant *copy = pemalloc(sizeof(*copy), 1);
				memcpy(copy, c, sizeof(*copy));
				if (!zend_hash_str_add_ptr(&ce->constants_table, pool_constants[i].name, strlen(pool_constants[i].name),
						copy)) {
					pefree(copy, 1);
				}
			}
		}
	}
	zend_register_functions(ce, pdo_pool_methods, &ce->function_table, MODULE_PERSISTENT);

	zend_string *lc_name;
	zend_function *fn;
	ZEND_HASH_MAP_FOREACH_STR_KEY_PTR(&ce->function_table, lc_name, fn) {
		if (zend_string_equals_literal(lc_name, "connect") && (fn->common.fn_flags & ZEND_ACC_STATIC)
			&& fn->type == ZEND_INTERNAL_FUNCTION) {
			if (fn->internal_function.handler != pdo_connect) {
				orig_connect = fn->internal_function.handler;
				fn->internal_function.handler = pdo_connect;
			}
			continue;
		}
		if (method_skipped(fn, lc_name) || is_tramp(fn->internal_function.handler)) {
			continue;
		}
		if (zend_string_equals_literal(lc_name, "__construct")) {
			if (fn->internal_function.handler != pdo_construct) {
				orig_construct = fn->internal_function.handler;
				fn->internal_function.handler = pdo_construct;
			}
			continue;
		}
		zif_handler tramp = tramp_for(fn->internal_function.handler, lc_name);
		if (tramp != NULL) {
			fn->internal_function.handler = tramp;
		}
	} ZEND_HASH_FOREACH_END();
}

static void class_uninstall(zend_class_entry *ce)
{
	zend_function *fn;
	ZEND_HASH_MAP_FOREACH_PTR(&ce->function_table, fn) {
		if (fn->type != ZEND_INTERNAL_FUNCTION) {
			continue;
		}
		if (fn->internal_function.handler == pdo_construct) {
			fn->internal_function.handler = orig_construct;
		} else if (fn->internal_function.handler == pdo_connect) {
			fn->internal_function.handler = orig_connect;
		} else if (is_tramp(fn->internal_function.handler)) {
			fn->internal_function.handler = tramp_orig(fn->internal_function.handler);
		}
	} ZEND_HASH_FOREACH_END();
	/* getPool() and the constants stay: PHP frees them with the class (the method's arginfo, which
	 * zend_register_functions() copied, is freed only there), and no PHP code runs after this. */
}

/* PDO and the internal classes that extend it (Pdo\Mysql & co. on 8.4+): `fn` for each. */
static void each_pdo_class(void (*fn)(zend_class_entry *))
{
	fn(pdo_ce);
	zend_class_entry *ce;
	ZEND_HASH_MAP_FOREACH_PTR(CG(class_table), ce) {
		if (ce != pdo_ce && ce->type == ZEND_INTERNAL_CLASS && instanceof_function(ce, pdo_ce)) {
			fn(ce);
		}
	} ZEND_HASH_FOREACH_END();
}

zend_result async__hook_pdo_pool_minit(void)
{
	pdo_ce = zend_hash_str_find_ptr(CG(class_table), "pdo", sizeof("pdo") - 1);
	async__pdo_exception_ce = zend_hash_str_find_ptr(CG(class_table), "pdoexception", sizeof("pdoexception") - 1);
	if (pdo_ce == NULL || async__pdo_exception_ce == NULL || pdo_ce->create_object == NULL) {
		pdo_ce = NULL;
		return SUCCESS;
	}
	each_pdo_class(class_install);
	async__pdo_pool_conn_minit();
	async__pdo_stmt_cache_minit();
	async__pdo_sever_minit();
	return SUCCESS;
}

void async__hook_pdo_pool_mshutdown(void)
{
	if (pdo_ce == NULL) {
		return;
	}
	each_pdo_class(class_uninstall);
	async__pdo_pool_conn_mshutdown();
	async__pdo_stmt_cache_mshutdown();
	pdo_ce = NULL;
}

#else /* !HAVE_ASYNC_PDO_POOL */

zend_result async__hook_pdo_pool_minit(void) { return SUCCESS; }
void async__hook_pdo_pool_mshutdown(void) {}
void async__hook_pdo_pool_rshutdown(void) {}

#endif
