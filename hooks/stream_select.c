/*
 * hooks/stream_select.c — stream_select() for coroutines.
 *
 * stream_select(): inside a coroutine, the streams' descriptors are waited on through the
 * reactor (one poll proxy each, async_io_wait.h) within the timeout; then PHP's own stream_select()
 * runs with a zero timeout and fills the arrays, so the result, the array rewriting, the
 * buffered-data rule and every message stay PHP's. Whatever PHP decides without waiting (bad
 * arguments, a zero timeout, buffered data, no descriptor) goes straight to PHP's function, as
 * does everything outside a coroutine.
 *
 * Handlers are swapped at MINIT only (P18).
 */
#include "php_async.h"
#include "hooks/hooks.h"
#include "core/core.h"
#include "reactor/reactor.h"
#include "async_io_wait.h"

static ZEND_FUNCTION(async_stream_select);

enum { HOOK_SELECT };
/* per-process: the function table's handlers are swapped at MINIT */
static async_function_hook_t hooks[] = {
	[HOOK_SELECT] = { "stream_select", ZEND_FN(async_stream_select), NULL },
};

/* ---------------------------------------------------------------------------------------------
 * stream_select
 * ------------------------------------------------------------------------------------------- */

typedef struct {
	async_io_pollfd_t *fds;
	uint32_t count, size;
} select_set_t;

static void select_add(select_set_t *set, php_socket_t fd, int events)
{
	if (set->count == set->size) {
		set->size = set->size ? set->size * 2 : 8;
		set->fds = safe_erealloc(set->fds, set->size, sizeof(async_io_pollfd_t), 0);
	}
	set->fds[set->count++] = (async_io_pollfd_t) { fd, events, 0 };
}

static php_stream *select_stream(zval *elem)
{
	ZVAL_DEREF(elem);
	if (Z_TYPE_P(elem) != IS_RESOURCE) {
		return NULL;
	}
	return (php_stream *) zend_fetch_resource2(Z_RES_P(elem), NULL, php_file_le_stream(), php_file_le_pstream());
}

/* false when PHP must decide itself: an element that is not a live stream (PHP throws). */
static bool select_collect(zval *array, int events, select_set_t *set)
{
	if (array == NULL) {
		return true;
	}
	zval *elem;
	ZEND_HASH_FOREACH_VAL(Z_ARRVAL_P(array), elem) {
		php_stream *stream = select_stream(elem);
		if (stream == NULL) {
			return false;
		}
		php_socket_t fd = -1;
		if (php_stream_cast(stream, PHP_STREAM_AS_FD_FOR_SELECT | PHP_STREAM_CAST_INTERNAL, (void *) &fd, 1) == SUCCESS
			&& fd != -1) {
			select_add(set, fd, events);
		}
	} ZEND_HASH_FOREACH_END();
	return true;
}

/* Data already in PHP's read buffer makes PHP's stream_select() return at once. */
static bool select_has_buffered(zval *array)
{
	if (array == NULL) {
		return false;
	}
	zval *elem;
	ZEND_HASH_FOREACH_VAL(Z_ARRVAL_P(array), elem) {
		php_stream *stream = select_stream(elem);
		if (stream != NULL && stream->writepos - stream->readpos > 0) {
			return true;
		}
	} ZEND_HASH_FOREACH_END();
	return false;
}

/* PHP's stream_select() with the timeout arguments replaced by 0. */
static void select_call_now(zend_execute_data *execute_data, zval *return_value)
{
	for (uint32_t i = 4; i <= ZEND_NUM_ARGS() && i <= 5; i++) {
		zval *arg = ZEND_CALL_ARG(execute_data, i);
		zval_ptr_dtor(arg);
		ZVAL_LONG(arg, 0);
	}
	hooks[HOOK_SELECT].original(execute_data, return_value);
}

static void select_restore(zval *target, zval *saved)
{
	if (target != NULL) {
		zval_ptr_dtor(target);
		ZVAL_COPY(target, saved);
	}
}

/* The timeout arguments as our parsing read them: PHP's function, called after it, must not
 * coerce (and warn about) a float or a string again. */
static void select_args_parsed(zend_execute_data *execute_data, zend_long sec, bool sec_null, zend_long usec,
	bool usec_null)
{
	for (uint32_t i = 4; i <= ZEND_NUM_ARGS() && i <= 5; i++) {
		zval *arg = ZEND_CALL_ARG(execute_data, i);
		if (Z_TYPE_P(arg) == IS_LONG || Z_TYPE_P(arg) == IS_NULL) {
			continue;
		}
		bool is_null = i == 4 ? sec_null : usec_null;
		zval_ptr_dtor(arg);
		if (is_null) {
			ZVAL_NULL(arg);
		} else {
			ZVAL_LONG(arg, i == 4 ? sec : usec);
		}
	}
}

static ZEND_FUNCTION(async_stream_select)
{
	if (!async_io_can_wait()) {
		hooks[HOOK_SELECT].original(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	zval *arrays[3];
	zend_long sec = 0, usec = 0;
	bool sec_null = true, usec_null = true;
	ZEND_PARSE_PARAMETERS_START(4, 5)
		Z_PARAM_ARRAY_EX2(arrays[0], 1, 1, 0)
		Z_PARAM_ARRAY_EX2(arrays[1], 1, 1, 0)
		Z_PARAM_ARRAY_EX2(arrays[2], 1, 1, 0)
		Z_PARAM_LONG_OR_NULL(sec, sec_null)
		Z_PARAM_OPTIONAL
		Z_PARAM_LONG_OR_NULL(usec, usec_null)
	ZEND_PARSE_PARAMETERS_END();
	select_args_parsed(execute_data, sec, sec_null, usec, usec_null);

	bool bad_args = (!sec_null && (sec < 0 || usec < 0)) || (sec_null && !usec_null && usec != 0);
	bool no_wait = !sec_null && sec == 0 && usec == 0;
	if (bad_args || no_wait || select_has_buffered(arrays[0])) {
		hooks[HOOK_SELECT].original(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}

	select_set_t set = { NULL, 0, 0 };
	static const int events[3] = { ASYNC_POLL_READ, ASYNC_POLL_WRITE, ASYNC_POLL_PRI };
	bool ok = true;
	for (int i = 0; i < 3 && ok; i++) {
		ok = select_collect(arrays[i], events[i], &set);
	}
	/* Casting a TLS stream may have moved decrypted data into its read buffer. */
	if (!ok || set.count == 0 || select_has_buffered(arrays[0])) {
		if (set.fds) {
			efree(set.fds);
		}
		hooks[HOOK_SELECT].original(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}

	zval saved[3];
	for (int i = 0; i < 3; i++) {
		if (arrays[i] != NULL) {
			ZVAL_COPY(&saved[i], arrays[i]);
		} else {
			ZVAL_UNDEF(&saved[i]);
		}
	}
	uint64_t deadline = 0;
	if (!sec_null) {
		zend_ulong ms = (zend_ulong) sec > ZEND_LONG_MAX / 2000 ? ZEND_LONG_MAX / 2000 : (zend_ulong) sec * 1000;
		ms += ((zend_ulong) usec + 999) / 1000;
		deadline = async_reactor_hrtime() + (uint64_t) ms * 1000000u;
	}

	for (;;) {
		zend_long remaining = -1;
		if (deadline != 0) {
			uint64_t now = async_reactor_hrtime();
			remaining = now >= deadline ? 0 : (zend_long) ((deadline - now + 999999) / 1000000);
		}
		int n = remaining == 0 ? 0 : async_io_wait_many(set.fds, set.count, remaining);
		if (n < 0) {
			break; /* the exception (a cancellation) goes up; the arrays are untouched */
		}
		select_call_now(execute_data, return_value);
		if (n == 0 || EG(exception) || Z_TYPE_P(return_value) != IS_LONG || Z_LVAL_P(return_value) != 0) {
			break;
		}
		/* Woken, but another coroutine took the data first: wait again, arrays as they were. */
		zval_ptr_dtor(return_value);
		ZVAL_UNDEF(return_value);
		for (int i = 0; i < 3; i++) {
			select_restore(arrays[i], &saved[i]);
		}
	}
	for (int i = 0; i < 3; i++) {
		zval_ptr_dtor(&saved[i]);
	}
	efree(set.fds);
}

/* ---------------------------------------------------------------------------------------------
 * Install
 * ------------------------------------------------------------------------------------------- */

zend_result async__hook_net_functions_minit(void)
{
	async__function_hooks_install(hooks, sizeof(hooks) / sizeof(hooks[0]));
	return SUCCESS;
}

void async__hook_net_functions_mshutdown(void)
{
	async__function_hooks_uninstall(hooks, sizeof(hooks) / sizeof(hooks[0]));
}
