/*
 * hook_curl.c — ext/curl's blocking calls suspend only the calling coroutine.
 *
 * curl_exec(): inside a coroutine the handle's transfer runs on a multi handle of its own,
 * driven on the reactor (hook_curl_multi.c); the rest is what ext/curl's curl_exec() does around
 * curl_easy_perform() — the handler checks and the clean-up before, the error, the returned
 * body and the flushes after — re-done on ext/curl's private layout (hook_curl_layout.h).
 * curl_multi_select(): inside a coroutine the multi's sockets are waited for on the reactor.
 * curl_multi_exec(), _add_handle(), _remove_handle(), _info_read() never block; in coroutines
 * they only take turns on a multi whose callback suspended (multi_wait_free()).
 *
 * Outside a coroutine, where switching is impossible (a destructor on 8.2, the scheduler), and
 * before the scheduler started, ext/curl's own handlers run untouched. The handlers are swapped
 * at MINIT (P18: ext/curl's functions are registered before any MINIT, so the load order does
 * not matter); whether the swap may act is decided once per process, at the first request, by
 * checking the mirrored layout on live handles (curl_layout_check()). A layout this build does
 * not know leaves curl stock with one warning.
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif
#include "php_async.h"
#include "hooks.h"

#ifdef HAVE_ASYNC_CURL

#include "hook_curl.h"
#include "hook_curl_layout.h"
#include "async_io_wait.h"
#include "async_wait.h"
#include "ext/standard/file.h"
#include "zend_exceptions.h"

static ZEND_FUNCTION(async_curl_exec);
static ZEND_FUNCTION(async_curl_multi_select);
static ZEND_FUNCTION(async_curl_multi_exec);
static ZEND_FUNCTION(async_curl_multi_add_handle);
static ZEND_FUNCTION(async_curl_multi_remove_handle);
static ZEND_FUNCTION(async_curl_multi_info_read);

enum { HOOK_EXEC, HOOK_MULTI_SELECT, HOOK_MULTI_EXEC, HOOK_MULTI_ADD, HOOK_MULTI_REMOVE, HOOK_MULTI_INFO };
/* per-process: the function table's handlers are swapped at MINIT */
static async_function_hook_t hooks[] = {
	[HOOK_EXEC] = { "curl_exec", ZEND_FN(async_curl_exec), NULL },
	[HOOK_MULTI_SELECT] = { "curl_multi_select", ZEND_FN(async_curl_multi_select), NULL },
	[HOOK_MULTI_EXEC] = { "curl_multi_exec", ZEND_FN(async_curl_multi_exec), NULL },
	[HOOK_MULTI_ADD] = { "curl_multi_add_handle", ZEND_FN(async_curl_multi_add_handle), NULL },
	[HOOK_MULTI_REMOVE] = { "curl_multi_remove_handle", ZEND_FN(async_curl_multi_remove_handle), NULL },
	[HOOK_MULTI_INFO] = { "curl_multi_info_read", ZEND_FN(async_curl_multi_info_read), NULL },
};

#define CALL_ORIGINAL(which) hooks[which].original(INTERNAL_FUNCTION_PARAM_PASSTHRU)

typedef enum { CURL_UNCHECKED, CURL_USABLE, CURL_STOCK } curl_state_t;

/* per-process: decided once, at the first request after ext/curl started */
static curl_state_t curl_state = CURL_UNCHECKED;

#if ASYNC_CURL_LAYOUT_KNOWN

/* per-process: ext/curl's classes, looked up once */
static zend_class_entry *curl_ce, *curl_multi_ce;
/* per-process: ext/curl's CurlHandle handlers, found by the layout check */
static const zend_object_handlers *curl_handlers_orig;
/* per-process: a copy of them whose free_obj drops the handle's driver first */
static zend_object_handlers curl_handlers_copy;

/* ---------------------------------------------------------------------------------------------
 * The layout check: the mirrored structures must read what ext/curl wrote
 * ------------------------------------------------------------------------------------------- */

static bool call_function(const char *name, uint32_t argc, zval *argv, zval *retval)
{
	zend_function *fn = zend_hash_str_find_ptr(CG(function_table), name, strlen(name));
	if (fn == NULL) {
		return false;
	}
	zend_call_known_function(fn, NULL, NULL, retval, argc, argv, NULL);
	if (EG(exception)) {
		zend_clear_exception();
		zval_ptr_dtor(retval);
		return false;
	}
	return true;
}

static bool curl_layout_check_easy(void)
{
	zval handle, args[3], retval;
	if (!call_function("curl_init", 0, NULL, &handle)) {
		return false;
	}
	bool ok = Z_TYPE(handle) == IS_OBJECT && Z_OBJCE(handle) == curl_ce
		&& Z_OBJ(handle)->handlers->offset == XtOffsetOf(async_curl_t, std);
	async_curl_t *ch = ok ? async_curl_from_obj(Z_OBJ(handle)) : NULL;
	/* curl_init()'s defaults, then one option seen through the mirror */
	ok = ok && ch->cp != NULL && ch->handlers.write != NULL && ch->handlers.write_header != NULL
		&& ch->handlers.read != NULL && ch->handlers.write->method == ASYNC_CURL_STDOUT
		&& ch->handlers.write_header->method == ASYNC_CURL_IGNORE && ch->handlers.read->method == ASYNC_CURL_DIRECT
		&& Z_ISUNDEF(ch->handlers.std_err) && ch->header.str == NULL && ch->err.no == 0 && !ch->in_callback;
	/* PHP's own option (not libcurl's): ext/curl's constant */
	zval *returntransfer = zend_get_constant_str("CURLOPT_RETURNTRANSFER", sizeof("CURLOPT_RETURNTRANSFER") - 1);
	ok = ok && returntransfer != NULL && Z_TYPE_P(returntransfer) == IS_LONG;
	if (ok) {
		ZVAL_COPY_VALUE(&args[0], &handle);
		ZVAL_LONG(&args[1], Z_LVAL_P(returntransfer));
		ZVAL_TRUE(&args[2]);
		ok = call_function("curl_setopt", 3, args, &retval) && Z_TYPE(retval) == IS_TRUE
			&& ch->handlers.write->method == ASYNC_CURL_RETURN;
		long code = -1;
		ok = ok && async_curl_api.easy_getinfo(ch->cp, CURLINFO_RESPONSE_CODE, &code) == CURLE_OK && code == 0;
	}
	if (ok) {
		curl_handlers_orig = Z_OBJ(handle)->handlers;
	}
	zval_ptr_dtor(&handle);
	return ok;
}

static bool curl_layout_check_multi(void)
{
	zval handle;
	if (!call_function("curl_multi_init", 0, NULL, &handle)) {
		return false;
	}
	bool ok = Z_TYPE(handle) == IS_OBJECT && Z_OBJCE(handle) == curl_multi_ce
		&& Z_OBJ(handle)->handlers->offset == XtOffsetOf(async_curl_multi_t, std);
	long timeout = 0;
	ok = ok && async_curl_multi_from_obj(Z_OBJ(handle))->multi != NULL
		&& async_curl_api.multi_timeout(async_curl_multi_from_obj(Z_OBJ(handle))->multi, &timeout) == CURLM_OK
		&& timeout == -1;
	zval_ptr_dtor(&handle);
	return ok;
}

static void curl_free_obj(zend_object *object);

static bool curl_layout_check(void)
{
	zend_module_entry *module = zend_hash_str_find_ptr(&module_registry, "curl", sizeof("curl") - 1);
	curl_ce = zend_hash_str_find_ptr(CG(class_table), "curlhandle", sizeof("curlhandle") - 1);
	curl_multi_ce = zend_hash_str_find_ptr(CG(class_table), "curlmultihandle", sizeof("curlmultihandle") - 1);
	if (module == NULL || !module->module_started || curl_ce == NULL || curl_multi_ce == NULL) {
		return false;
	}
	if (!async_curl_api_load(module->handle)) {
		return false;
	}
	if (!curl_layout_check_easy() || !curl_layout_check_multi()) {
		return false;
	}
	curl_handlers_copy = *curl_handlers_orig;
	curl_handlers_copy.free_obj = curl_free_obj;
	return true;
}

#endif /* ASYNC_CURL_LAYOUT_KNOWN */

/* ---------------------------------------------------------------------------------------------
 * Module hooks
 * ------------------------------------------------------------------------------------------- */

void async_curl_hooks_install(void)
{
	async_function_hooks_install(hooks, sizeof(hooks) / sizeof(hooks[0]));
}

void async_curl_hooks_uninstall(void)
{
	async_function_hooks_uninstall(hooks, sizeof(hooks) / sizeof(hooks[0]));
}

void async_curl_hooks_rinit(void)
{
	if (curl_state != CURL_UNCHECKED || hooks[HOOK_EXEC].original == NULL) {
		return; /* decided already, or ext/curl is not loaded */
	}
#if ASYNC_CURL_LAYOUT_KNOWN
	curl_state = curl_layout_check() ? CURL_USABLE : CURL_STOCK;
#else
	curl_state = CURL_STOCK;
#endif
	if (curl_state == CURL_STOCK) {
		php_error_docref(NULL, E_WARNING,
			"ext/curl's private layout in PHP %s could not be confirmed (a PHP version this build does not know, "
			"or curl_init() unavailable): curl_exec() and curl_multi_select() keep blocking in coroutines",
			PHP_VERSION);
	}
}

static void driver_dtor(zval *zv)
{
	async_curl_driver_free(Z_PTR_P(zv));
}

void async_curl_hooks_rshutdown(void)
{
	HashTable *busy = ASYNC_G(curl_busy);
	if (busy != NULL) {
		ASYNC_G(curl_busy) = NULL; /* the coroutines are gone: nobody holds an entry now */
		zend_hash_destroy(busy);
		FREE_HASHTABLE(busy);
	}
	HashTable *drivers = ASYNC_G(curl_drivers);
	if (drivers != NULL) {
		ASYNC_G(curl_drivers) = NULL;
		zend_hash_destroy(drivers);
		FREE_HASHTABLE(drivers);
	}
}

#if ASYNC_CURL_LAYOUT_KNOWN

/* ---------------------------------------------------------------------------------------------
 * A handle's driver: made at its first curl_exec() in a coroutine, dropped with the handle
 * ------------------------------------------------------------------------------------------- */

static void curl_free_obj(zend_object *object)
{
	HashTable *drivers = ASYNC_G(curl_drivers);
	if (drivers != NULL) {
		zend_hash_index_del(drivers, (zend_ulong) (uintptr_t) async_curl_from_obj(object)->cp);
	}
	curl_handlers_orig->free_obj(object);
}

static async_curl_driver_t *curl_driver_for(async_curl_t *ch)
{
	HashTable *drivers = ASYNC_G(curl_drivers);
	if (drivers == NULL) {
		ALLOC_HASHTABLE(drivers);
		zend_hash_init(drivers, 8, NULL, driver_dtor, 0);
		ASYNC_G(curl_drivers) = drivers;
	}
	zend_ulong key = (zend_ulong) (uintptr_t) ch->cp;
	async_curl_driver_t *driver = zend_hash_index_find_ptr(drivers, key);
	if (driver != NULL) {
		return driver;
	}
	driver = async_curl_driver_new(ch->cp);
	if (driver == NULL) {
		return NULL;
	}
	zend_hash_index_add_new_ptr(drivers, key, driver);
	/* the driver must go when the handle does (its cached connection with it) */
	if (ch->std.handlers == curl_handlers_orig) {
		ch->std.handlers = &curl_handlers_copy;
	}
	return driver;
}

/* ---------------------------------------------------------------------------------------------
 * curl_exec()
 * ------------------------------------------------------------------------------------------- */

/* ext/curl's _php_curl_verify_handlers(): a stream given to CURLOPT_FILE, CURLOPT_INFILE,
 * CURLOPT_WRITEHEADER or CURLOPT_STDERR that was closed since falls back to the default, with
 * ext/curl's warning. */
static bool stream_gone(zval *stream)
{
	return !Z_ISUNDEF_P(stream)
		&& zend_fetch_resource2_ex(stream, NULL, php_file_le_stream(), php_file_le_pstream()) == NULL;
}

static void curl_verify_handlers(async_curl_t *ch)
{
	if (stream_gone(&ch->handlers.std_err)) {
		php_error_docref(NULL, E_WARNING, "CURLOPT_STDERR resource has gone away, resetting to stderr");
		zval_ptr_dtor(&ch->handlers.std_err);
		ZVAL_UNDEF(&ch->handlers.std_err);
		async_curl_api.easy_setopt(ch->cp, CURLOPT_STDERR, stderr);
	}
	if (ch->handlers.read && stream_gone(&ch->handlers.read->stream)) {
		php_error_docref(NULL, E_WARNING, "CURLOPT_INFILE resource has gone away, resetting to default");
		zval_ptr_dtor(&ch->handlers.read->stream);
		ZVAL_UNDEF(&ch->handlers.read->stream);
		ch->handlers.read->res = NULL;
		ch->handlers.read->fp = 0;
		async_curl_api.easy_setopt(ch->cp, CURLOPT_INFILE, (void *) ch);
	}
	if (ch->handlers.write_header && stream_gone(&ch->handlers.write_header->stream)) {
		php_error_docref(NULL, E_WARNING, "CURLOPT_WRITEHEADER resource has gone away, resetting to default");
		zval_ptr_dtor(&ch->handlers.write_header->stream);
		ZVAL_UNDEF(&ch->handlers.write_header->stream);
		ch->handlers.write_header->fp = 0;
		ch->handlers.write_header->method = ASYNC_CURL_IGNORE;
		async_curl_api.easy_setopt(ch->cp, CURLOPT_WRITEHEADER, (void *) ch);
	}
	if (ch->handlers.write && stream_gone(&ch->handlers.write->stream)) {
		php_error_docref(NULL, E_WARNING, "CURLOPT_FILE resource has gone away, resetting to default");
		zval_ptr_dtor(&ch->handlers.write->stream);
		ZVAL_UNDEF(&ch->handlers.write->stream);
		ch->handlers.write->fp = 0;
		ch->handlers.write->method = ASYNC_CURL_STDOUT;
		async_curl_api.easy_setopt(ch->cp, CURLOPT_FILE, (void *) ch);
	}
}

/* ext/curl's _php_curl_cleanup_handle(): a new transfer starts with no body, headers or error */
static void curl_cleanup_handle(async_curl_t *ch)
{
	smart_str_free(&ch->handlers.write->buf);
	if (ch->header.str) {
		zend_string_release_ex(ch->header.str, 0);
		ch->header.str = NULL;
	}
	memset(ch->err.str, 0, CURL_ERROR_SIZE + 1);
	ch->err.no = 0;
}

/* The transfer ended by an exception: curl_errno() says it was aborted. */
static void curl_record_abort(async_curl_t *ch)
{
	zend_class_entry *cancellation = ZEND_ASYNC_GET_CE(ZEND_ASYNC_EXCEPTION_CANCELLATION);
	bool cancelled = EG(exception) != NULL && cancellation != NULL && instanceof_function(EG(exception)->ce, cancellation);
	ch->err.no = (int) CURLE_ABORTED_BY_CALLBACK;
	snprintf(ch->err.str, sizeof(ch->err.str), "%s",
		cancelled ? "Transfer aborted: the coroutine was cancelled" : "Transfer aborted: a callback threw an exception");
	smart_str_free(&ch->handlers.write->buf);
}

/* What ext/curl's curl_exec() does after curl_easy_perform(). */
static void curl_exec_result(async_curl_t *ch, CURLcode error, zval *return_value)
{
	ch->err.no = (int) error;
	if (error != CURLE_OK) {
		smart_str_free(&ch->handlers.write->buf);
		RETURN_FALSE;
	}
	if (!Z_ISUNDEF(ch->handlers.std_err)) {
		php_stream *stream = zend_fetch_resource2_ex(&ch->handlers.std_err, NULL, php_file_le_stream(), php_file_le_pstream());
		if (stream) {
			php_stream_flush(stream);
		}
	}
	async_curl_write_t *write = ch->handlers.write;
	if (write->method == ASYNC_CURL_RETURN && write->buf.s) {
		smart_str_0(&write->buf);
		RETURN_STR_COPY(write->buf.s);
	}
	/* flush the file handle, so any remaining data is synched to disk */
	if (write->method == ASYNC_CURL_FILE && write->fp) {
		fflush(write->fp);
	}
	if (ch->handlers.write_header->method == ASYNC_CURL_FILE && ch->handlers.write_header->fp) {
		fflush(ch->handlers.write_header->fp);
	}
	if (write->method == ASYNC_CURL_RETURN) {
		RETURN_EMPTY_STRING();
	}
	RETURN_TRUE;
}

static ZEND_FUNCTION(async_curl_exec)
{
	if (curl_state != CURL_USABLE || !async_io_can_wait()) {
		CALL_ORIGINAL(HOOK_EXEC);
		return;
	}
	zval *zid;
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_OBJECT_OF_CLASS(zid, curl_ce)
	ZEND_PARSE_PARAMETERS_END();

	async_curl_t *ch = async_curl_from_obj(Z_OBJ_P(zid));
	async_curl_driver_t *driver = curl_driver_for(ch);
	if (driver == NULL || async_curl_driver_busy(driver)) {
		/* no multi handle, or curl_exec() on its own handle from a callback: libcurl answers */
		CALL_ORIGINAL(HOOK_EXEC);
		return;
	}
	curl_verify_handlers(ch);
	curl_cleanup_handle(ch);

	CURLcode error = CURLE_OK;
	switch (async_curl_driver_run(driver, &error)) {
		case ASYNC_CURL_REFUSED:
			/* in a multi handle already: curl_easy_perform() reports it as stock does */
			CALL_ORIGINAL(HOOK_EXEC);
			return;
		case ASYNC_CURL_ABORTED:
			curl_record_abort(ch);
			RETURN_THROWS();
		case ASYNC_CURL_DONE:
			curl_exec_result(ch, error, return_value);
			return;
	}
}

/* ---------------------------------------------------------------------------------------------
 * A multi handle PHP code drives: one coroutine inside libcurl at a time
 *
 * A callback of a transfer may suspend inside curl_multi_exec(). Until it returns, libcurl
 * refuses every other call on that multi (CURLM_RECURSIVE_API_CALL) — a thing stock PHP never
 * meets, and one that makes a loop like Guzzle's spin for ever in the other coroutines. So
 * curl_multi_exec() marks its multi busy, and the calls of other coroutines on a busy multi
 * wait until it is free. The coroutine inside the callback itself gets libcurl's answer, as stock.
 * ------------------------------------------------------------------------------------------- */

/* What the hooks know of a multi driven from coroutines: who is inside libcurl on it, who waits
 * for that, who waits in curl_multi_select(), and how many transfers ran at the last
 * curl_multi_exec(). Kept while any of those is so (running > 0 included: the next call compares
 * against it), dropped when none is, freed at the request's end. */
typedef struct {
	zend_coroutine_t *owner;        /* inside curl_multi_exec() on it; NULL: free */
	uint32_t holders;               /* waiters, and the owner during its call: the entry stays */
	uint32_t selectors;             /* inside curl_multi_select() on it */
	zend_long running;              /* what the last curl_multi_exec() in a coroutine reported; -1: none yet */
	zend_async_event_t *progress;   /* notified when that count drops; NULL until a selector waits */
} multi_busy_t;

static zend_ulong multi_key(CURLM *multi)
{
	return (zend_ulong) (uintptr_t) multi;
}

/* The progress event: a plain event; one reference is the entry's, one each waiting selector's. */
static bool multi_progress_dispose(zend_async_event_t *event)
{
	if (--event->ref_count > 0) {
		return true;
	}
	zend_async_callbacks_free(event);
	efree(event);
	return true;
}

static zend_string *multi_progress_info(zend_async_event_t *event)
{
	(void) event;
	return zend_string_init("curl multi progress", sizeof("curl multi progress") - 1, 0);
}

static zend_async_event_t *multi_progress_new(void)
{
	zend_async_event_t *event = ecalloc(1, sizeof(*event));
	event->ref_count = 1;
	event->add_callback = zend_async_event_default_add_callback;
	event->del_callback = zend_async_event_default_del_callback;
	event->start = zend_async_event_nop_start;
	event->stop = zend_async_event_nop_stop;
	event->dispose = multi_progress_dispose;
	event->info = multi_progress_info;
	return event;
}

static void multi_busy_dtor(zval *zv)
{
	multi_busy_t *entry = Z_PTR_P(zv);
	if (entry->progress != NULL) {
		ZEND_ASYNC_EVENT_RELEASE(entry->progress);
	}
	efree(entry);
}

static multi_busy_t *multi_busy_find(CURLM *multi)
{
	HashTable *busy = ASYNC_G(curl_busy);
	return busy != NULL ? zend_hash_index_find_ptr(busy, multi_key(multi)) : NULL;
}

static multi_busy_t *multi_busy_entry(CURLM *multi)
{
	HashTable *busy = ASYNC_G(curl_busy);
	if (busy == NULL) {
		ALLOC_HASHTABLE(busy);
		zend_hash_init(busy, 4, NULL, multi_busy_dtor, 0);
		ASYNC_G(curl_busy) = busy;
	}
	multi_busy_t *entry = zend_hash_index_find_ptr(busy, multi_key(multi));
	if (entry == NULL) {
		entry = ecalloc(1, sizeof(*entry));
		entry->running = -1;
		zend_hash_index_add_new_ptr(busy, multi_key(multi), entry);
	}
	return entry;
}

static multi_busy_t *multi_busy_hold(CURLM *multi)
{
	multi_busy_t *entry = multi_busy_entry(multi);
	entry->holders++;
	return entry;
}

static void multi_busy_forget_if_idle(CURLM *multi, multi_busy_t *entry)
{
	if (entry->holders == 0 && entry->owner == NULL && entry->selectors == 0 && entry->running <= 0
		&& ASYNC_G(curl_busy) != NULL) {
		zend_hash_index_del(ASYNC_G(curl_busy), multi_key(multi));
	}
}

static void multi_busy_drop(CURLM *multi, multi_busy_t *entry)
{
	ZEND_ASSERT(entry->holders > 0);
	entry->holders--;
	multi_busy_forget_if_idle(multi, entry);
}

/* After a curl_multi_exec() in a coroutine: fewer transfers running than the last call reported
 * (or the first call seen) means transfers ended, maybe those a coroutine in curl_multi_select()
 * waits for. This call may have read their sockets dry before the reactor looked at them again,
 * and then nothing else would wake the selector before its timeout (Guzzle's 1 s, with a client
 * shared by coroutines). Only a drop wakes: two selectors woken by each other's every call would
 * spin. */
static void multi_note_running(multi_busy_t *entry, zend_execute_data *execute_data)
{
	if (ZEND_NUM_ARGS() < 2 || EG(exception)) {
		return;
	}
	zval *still_running = ZEND_CALL_ARG(execute_data, 2);
	ZVAL_DEREF(still_running);
	if (Z_TYPE_P(still_running) != IS_LONG) {
		return;
	}
	zend_long running = Z_LVAL_P(still_running);
	bool ended = entry->running < 0 || running < entry->running;
	entry->running = running;
	if (ended && entry->selectors > 0) {
		ZEND_ASSERT(entry->progress != NULL);
		ZEND_ASYNC_CALLBACKS_NOTIFY(entry->progress, NULL, NULL);
	}
}

/* Waits while another coroutine is inside the multi. False with an exception (cancelled). */
static bool multi_wait_free(CURLM *multi)
{
	zend_coroutine_t *me = ZEND_ASYNC_CURRENT_COROUTINE;
	multi_busy_t *entry = multi_busy_find(multi);
	if (entry == NULL || entry->owner == NULL || entry->owner == me) {
		return true;
	}
	bool ok = true;
	multi_busy_hold(multi);
	while (entry->owner != NULL && entry->owner != me) {
		/* rare (a callback suspended): a short sleep, not an event per multi */
		if (!async_wait_ms(1, 0)) {
			ok = false;
			break;
		}
	}
	multi_busy_drop(multi, entry);
	return ok;
}

/* The multi handle a hooked curl_multi_*() call is about, or NULL when PHP's handler must run
 * as it is (not in a coroutine, unusable layout, or an argument it will reject itself). */
static async_curl_multi_t *multi_of_call(zend_execute_data *execute_data)
{
	if (curl_state != CURL_USABLE || !async_io_can_wait() || ZEND_NUM_ARGS() < 1) {
		return NULL;
	}
	zval *arg = ZEND_CALL_ARG(execute_data, 1);
	ZVAL_DEREF(arg);
	if (Z_TYPE_P(arg) != IS_OBJECT || Z_OBJCE_P(arg) != curl_multi_ce) {
		return NULL;
	}
	return async_curl_multi_from_obj(Z_OBJ_P(arg));
}

static ZEND_FUNCTION(async_curl_multi_exec)
{
	async_curl_multi_t *mh = multi_of_call(execute_data);
	if (mh == NULL) {
		CALL_ORIGINAL(HOOK_MULTI_EXEC);
		return;
	}
	zend_coroutine_t *me = ZEND_ASYNC_CURRENT_COROUTINE;
	multi_busy_t *entry = multi_busy_find(mh->multi);
	if (entry != NULL && entry->owner == me) {
		CALL_ORIGINAL(HOOK_MULTI_EXEC); /* from its own callback: libcurl answers, as stock */
		return;
	}
	if (!multi_wait_free(mh->multi)) {
		RETURN_THROWS();
	}
	entry = multi_busy_hold(mh->multi);
	entry->owner = me;
	CALL_ORIGINAL(HOOK_MULTI_EXEC);
	entry->owner = NULL;
	multi_note_running(entry, execute_data);
	bool waited_for = entry->holders > 1;
	multi_busy_drop(mh->multi, entry);
	if (waited_for) {
		/* a loop calling curl_multi_exec() again at once (Guzzle's, while another coroutine's
		 * handle is not added yet) must let the waiters in */
		async_wait_yield();
	}
}

/* add, remove, info_read: wait while another coroutine is inside the multi, then PHP's own */
#define MULTI_WAIT_THEN_ORIGINAL(which) do { \
		async_curl_multi_t *mh = multi_of_call(execute_data); \
		if (mh != NULL && !multi_wait_free(mh->multi)) { \
			RETURN_THROWS(); \
		} \
		CALL_ORIGINAL(which); \
	} while (0)

static ZEND_FUNCTION(async_curl_multi_add_handle)
{
	MULTI_WAIT_THEN_ORIGINAL(HOOK_MULTI_ADD);
}

static ZEND_FUNCTION(async_curl_multi_remove_handle)
{
	MULTI_WAIT_THEN_ORIGINAL(HOOK_MULTI_REMOVE);
}

static ZEND_FUNCTION(async_curl_multi_info_read)
{
	MULTI_WAIT_THEN_ORIGINAL(HOOK_MULTI_INFO);
}

/* ---------------------------------------------------------------------------------------------
 * curl_multi_select()
 * ------------------------------------------------------------------------------------------- */

static ZEND_FUNCTION(async_curl_multi_select)
{
	if (curl_state != CURL_USABLE || !async_io_can_wait()) {
		CALL_ORIGINAL(HOOK_MULTI_SELECT);
		return;
	}
	zval *z_mh;
	double timeout = 1.0;
	ZEND_PARSE_PARAMETERS_START(1, 2)
		Z_PARAM_OBJECT_OF_CLASS(z_mh, curl_multi_ce)
		Z_PARAM_OPTIONAL
		Z_PARAM_DOUBLE(timeout)
	ZEND_PARSE_PARAMETERS_END();

	if (!(timeout >= 0.0 && timeout <= ((double) INT_MAX / 1000.0))) {
		CALL_ORIGINAL(HOOK_MULTI_SELECT); /* ext/curl's warning and -1 */
		return;
	}
	async_curl_multi_t *mh = async_curl_multi_from_obj(Z_OBJ_P(z_mh));
	if (!multi_wait_free(mh->multi)) {
		RETURN_THROWS();
	}
	/* the wait also ends when another coroutine's curl_multi_exec() ends transfers on this multi */
	multi_busy_t *entry = multi_busy_entry(mh->multi);
	if (entry->progress == NULL) {
		entry->progress = multi_progress_new();
	}
	entry->selectors++;
	CURLMcode error = CURLM_OK;
	int ready = async_curl_multi_wait(mh->multi, (int) (timeout * 1000.0), entry->progress, &error);
	/* looked up again: the entry stays while we select, but not past the request's end */
	entry = multi_busy_find(mh->multi);
	if (entry != NULL) {
		ZEND_ASSERT(entry->selectors > 0);
		entry->selectors--;
		multi_busy_forget_if_idle(mh->multi, entry);
	}
	if (ready < 0) {
		if (EG(exception)) {
			RETURN_THROWS();
		}
		mh->err.no = (int) error;
	}
	RETURN_LONG(ready);
}

#else /* !ASYNC_CURL_LAYOUT_KNOWN */

static ZEND_FUNCTION(async_curl_exec)
{
	CALL_ORIGINAL(HOOK_EXEC);
}

static ZEND_FUNCTION(async_curl_multi_select)
{
	CALL_ORIGINAL(HOOK_MULTI_SELECT);
}

static ZEND_FUNCTION(async_curl_multi_exec)
{
	CALL_ORIGINAL(HOOK_MULTI_EXEC);
}

static ZEND_FUNCTION(async_curl_multi_add_handle)
{
	CALL_ORIGINAL(HOOK_MULTI_ADD);
}

static ZEND_FUNCTION(async_curl_multi_remove_handle)
{
	CALL_ORIGINAL(HOOK_MULTI_REMOVE);
}

static ZEND_FUNCTION(async_curl_multi_info_read)
{
	CALL_ORIGINAL(HOOK_MULTI_INFO);
}

#endif /* ASYNC_CURL_LAYOUT_KNOWN */

#else /* !HAVE_ASYNC_CURL: built without libcurl's headers, curl stays stock */

void async_curl_hooks_install(void) {}
void async_curl_hooks_uninstall(void) {}
void async_curl_hooks_rinit(void) {}
void async_curl_hooks_rshutdown(void) {}

#endif /* HAVE_ASYNC_CURL */
