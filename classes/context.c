/*
 * classes/context.c — Async\Context: key/value storage attached to a coroutine or a scope.
 * Keys are strings or objects; object keys match by identity and are kept alive by the context.
 * A scope's context looks further up the scope tree; a coroutine's context has no scope link, so
 * lookups through it are local (spec §3.6).
 */
#include "php_async.h"
#include "classes/classes.h"
#include "core/core.h"
#include "zend_exceptions.h"
#include "context_arginfo.h"

zend_class_entry *async__ce_context;
/* per-process: object handlers, filled once at MINIT */
static zend_object_handlers context_handlers;

typedef struct {
	HashTable values;      /* by string key */
	HashTable obj_values;  /* by the key object's handle */
	HashTable objects;     /* the key objects, kept alive so handles are not reused */
	zend_async_scope_t *scope; /* a scope's context: lookups go on through its ancestors */
	zend_object std;
} async_context_t;

#define CTX_FROM_OBJ(o) ((async_context_t *) ((char *) (o) - XtOffsetOf(async_context_t, std)))

static zend_object *context_create_object(zend_class_entry *ce)
{
	async_context_t *ctx = zend_object_alloc(sizeof(async_context_t), ce);
	zend_hash_init(&ctx->values, 0, NULL, ZVAL_PTR_DTOR, 0);
	zend_hash_init(&ctx->obj_values, 0, NULL, ZVAL_PTR_DTOR, 0);
	zend_hash_init(&ctx->objects, 0, NULL, ZVAL_PTR_DTOR, 0);
	ctx->scope = NULL;
	zend_object_std_init(&ctx->std, ce);
	ctx->std.handlers = &context_handlers;
	return &ctx->std;
}

zend_object *async__context_new_object(void)
{
	return context_create_object(async__ce_context);
}

static void context_free_obj(zend_object *object)
{
	async_context_t *ctx = CTX_FROM_OBJ(object);
	zend_hash_destroy(&ctx->values);
	zend_hash_destroy(&ctx->obj_values);
	zend_hash_destroy(&ctx->objects);
	zend_object_std_dtor(object);
}

static HashTable *context_get_gc(zend_object *object, zval **table, int *num)
{
	async_context_t *ctx = CTX_FROM_OBJ(object);
	zend_get_gc_buffer *buf = zend_get_gc_buffer_create();
	zval *zv;
	ZEND_HASH_FOREACH_VAL(&ctx->values, zv) {
		zend_get_gc_buffer_add_zval(buf, zv);
	} ZEND_HASH_FOREACH_END();
	ZEND_HASH_FOREACH_VAL(&ctx->obj_values, zv) {
		zend_get_gc_buffer_add_zval(buf, zv);
	} ZEND_HASH_FOREACH_END();
	ZEND_HASH_FOREACH_VAL(&ctx->objects, zv) {
		zend_get_gc_buffer_add_zval(buf, zv);
	} ZEND_HASH_FOREACH_END();
	zend_get_gc_buffer_use(buf, table, num);
	return NULL;
}

/* A key is a string, or an object matched by identity. */
typedef struct {
	zend_string *str;
	zend_object *obj;
} context_key_t;

static zval *context_find(async_context_t *ctx, context_key_t *key)
{
	return key->obj ? zend_hash_index_find(&ctx->obj_values, key->obj->handle) : zend_hash_find(&ctx->values, key->str);
}

void async__context_set_scope(zend_object *context, zend_async_scope_t *scope)
{
	CTX_FROM_OBJ(context)->scope = scope;
}

/* This context, then the contexts of the ancestor scopes up to a root (spec §3.6); scopes
 * without a context yet are skipped. */
static zval *context_find_inherited(async_context_t *ctx, context_key_t *key)
{
	zval *found = context_find(ctx, key);
	if (found != NULL || ctx->scope == NULL) {
		return found;
	}
	for (zend_async_scope_t *s = ctx->scope->parent_scope; s != NULL; s = s->parent_scope) {
		zend_object *parent_ctx = ASYNC_SCOPE(s)->context;
		if (parent_ctx != NULL && (found = context_find(CTX_FROM_OBJ(parent_ctx), key)) != NULL) {
			return found;
		}
	}
	return NULL;
}

static ZEND_COLD void throw_missing(context_key_t *key)
{
	if (key->obj) {
		zend_throw_exception_ex(async__ce_context_exception, 0, "Context key of type %s not found",
			ZSTR_VAL(key->obj->ce->name));
	} else {
		zend_throw_exception_ex(async__ce_context_exception, 0, "Context key \"%s\" not found", ZSTR_VAL(key->str));
	}
}

/* string|object and nothing else: a key is never coerced (an int 1 and a string "1" would
 * otherwise silently be the same key), in coercive mode as in strict mode. */
static bool context_key_from(zval *zkey, context_key_t *key, uint32_t arg_num)
{
	switch (Z_TYPE_P(zkey)) {
		case IS_STRING:
			key->str = Z_STR_P(zkey);
			return true;
		case IS_OBJECT:
			key->obj = Z_OBJ_P(zkey);
			return true;
		default:
			zend_argument_type_error(arg_num, "must be of type string|object, %s given", zend_zval_type_name(zkey));
			return false;
	}
}

#define KEY_PARAM(key) do { \
		zval *zkey_; \
		ZEND_PARSE_PARAMETERS_START(1, 1) \
			Z_PARAM_ZVAL(zkey_) \
		ZEND_PARSE_PARAMETERS_END(); \
		if (!context_key_from(zkey_, &(key), 1)) { \
			RETURN_THROWS(); \
		} \
	} while (0)

static void context_lookup(INTERNAL_FUNCTION_PARAMETERS, bool required, bool as_bool, bool local)
{
	context_key_t key = { NULL, NULL };
	KEY_PARAM(key);
	async_context_t *ctx = CTX_FROM_OBJ(Z_OBJ_P(ZEND_THIS));
	zval *found = local ? context_find(ctx, &key) : context_find_inherited(ctx, &key);
	if (as_bool) {
		RETURN_BOOL(found != NULL);
	}
	if (found == NULL) {
		if (required) {
			throw_missing(&key);
			RETURN_THROWS();
		}
		RETURN_NULL();
	}
	RETURN_COPY(found);
}

ZEND_METHOD(Async_Context, find) { context_lookup(INTERNAL_FUNCTION_PARAM_PASSTHRU, false, false, false); }
ZEND_METHOD(Async_Context, get) { context_lookup(INTERNAL_FUNCTION_PARAM_PASSTHRU, true, false, false); }
ZEND_METHOD(Async_Context, has) { context_lookup(INTERNAL_FUNCTION_PARAM_PASSTHRU, false, true, false); }
ZEND_METHOD(Async_Context, findLocal) { context_lookup(INTERNAL_FUNCTION_PARAM_PASSTHRU, false, false, true); }
ZEND_METHOD(Async_Context, getLocal) { context_lookup(INTERNAL_FUNCTION_PARAM_PASSTHRU, true, false, true); }
ZEND_METHOD(Async_Context, hasLocal) { context_lookup(INTERNAL_FUNCTION_PARAM_PASSTHRU, false, true, true); }

ZEND_METHOD(Async_Context, set)
{
	context_key_t key = { NULL, NULL };
	zval *zkey, *value;
	bool replace = false;
	ZEND_PARSE_PARAMETERS_START(2, 3)
		Z_PARAM_ZVAL(zkey)
		Z_PARAM_ZVAL(value)
		Z_PARAM_OPTIONAL
		Z_PARAM_BOOL(replace)
	ZEND_PARSE_PARAMETERS_END();
	if (!context_key_from(zkey, &key, 1)) {
		RETURN_THROWS();
	}

	async_context_t *ctx = CTX_FROM_OBJ(Z_OBJ_P(ZEND_THIS));
	if (!replace && context_find(ctx, &key) != NULL) {
		async__throw(async__ce_async_exception, "Context key already exists and replace is false");
		RETURN_THROWS();
	}
	/* Replace in place and destroy the old value last, as PHP's own assignment does: its
	 * destructor may re-enter this context and reshape the tables. */
	zval *slot = context_find(ctx, &key);
	if (slot != NULL) {
		zval garbage;
		ZVAL_COPY_VALUE(&garbage, slot);
		ZVAL_COPY(slot, value);
		zval_ptr_dtor(&garbage);
	} else {
		Z_TRY_ADDREF_P(value);
		if (key.obj) {
			zend_hash_index_add_new(&ctx->obj_values, key.obj->handle, value);
			zval zkey;
			ZVAL_OBJ_COPY(&zkey, key.obj);
			zend_hash_index_update(&ctx->objects, key.obj->handle, &zkey);
		} else {
			zend_hash_add_new(&ctx->values, key.str, value);
		}
	}
	RETURN_OBJ_COPY(Z_OBJ_P(ZEND_THIS));
}

ZEND_METHOD(Async_Context, unset)
{
	context_key_t key = { NULL, NULL };
	KEY_PARAM(key);
	async_context_t *ctx = CTX_FROM_OBJ(Z_OBJ_P(ZEND_THIS));
	if (key.obj) {
		zend_hash_index_del(&ctx->obj_values, key.obj->handle);
		zend_hash_index_del(&ctx->objects, key.obj->handle);
	} else {
		zend_hash_del(&ctx->values, key.str);
	}
	RETURN_OBJ_COPY(Z_OBJ_P(ZEND_THIS));
}

/* ---------------------------------------------------------------------------------------------
 * Registration
 * ------------------------------------------------------------------------------------------- */

zend_result async__context_minit(void)
{
	async__ce_context = register_class_Async_Context();
	async__ce_context->create_object = context_create_object;
	async__object_handlers_init(&context_handlers, XtOffsetOf(async_context_t, std), NULL, context_free_obj, context_get_gc);
	async__class_register(ZEND_ASYNC_CLASS_CONTEXT, async__ce_context);
	async__coroutine_set_context_factory(async__context_new_object);
	return SUCCESS;
}
