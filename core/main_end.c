/*
 * core/main_end.c — how the main script's end looks to the runtime (spec §8.1.3, §8.1.4, §8.2).
 *
 * - exit() in the main coroutine starts the graceful shutdown, as exit() in a coroutine does: the
 *   others are cancelled and run their finally blocks in the drain, before the shutdown
 *   functions. Up to 8.3 a user opcode handler on ZEND_EXIT sees it before the engine unwinds
 *   (opcache's JIT accepts handlers on this opcode, and it costs nothing elsewhere); from 8.4,
 *   where exit() and die() are functions, their handlers are wrapped (at MINIT, P18).
 * - An AsyncCancellation that reaches the top of the main script uncaught (main awaited a
 *   coroutine that ended cancelled) ends the script quietly: cancellations are not errors. The
 *   engine reports an uncaught exception through zend_error_cb ("Uncaught <Class>: ...") after
 *   the script's frame is gone; the report is dropped when <Class> is a cancellation. (A zend_observer end handler on the
 *   script would see it directly, but registering any fcall observer made every PHP call 25-30%
 *   slower, 70% under the tracing JIT, here: measured, see docs/semantics.md.)
 * Before the runtime launched (nothing spawned, nothing waited) both stay stock.
 *
 * The error callback also runs the filters the hooks register (async__error_filter_register()).
 */
#include "php_async.h"
#include "core/core.h"
#include "zend_exceptions.h"

#if ASYNC_EXIT_IS_FUNCTION
/* per-process: exit()'s and die()'s own handlers, swapped at MINIT */
static zif_handler exit_fn_prev[2];
static const char *const exit_fn_names[2] = { "exit", "die" };
#else
/* per-process: the handler ours chains to, saved at MINIT */
static user_opcode_handler_t exit_handler_prev;
#endif
/* per-process: likewise */
static void (*error_cb_prev)(int type, zend_string *error_filename, const uint32_t error_lineno, zend_string *message);

/* per-process: registered at MINIT */
static async_error_filter_fn error_filters[4];
/* per-process: likewise */
static uint32_t error_filter_count;

void async__error_filter_register(async_error_filter_fn filter)
{
	ZEND_ASSERT(error_filter_count < sizeof(error_filters) / sizeof(error_filters[0]));
	for (uint32_t i = 0; i < error_filter_count; i++) {
		if (error_filters[i] == filter) {
			return;
		}
	}
	error_filters[error_filter_count++] = filter;
}

static bool in_main_coroutine(void)
{
	zend_coroutine_t *co = ZEND_ASYNC_CURRENT_COROUTINE;
	return ASYNC_G(launched) && co != NULL && ZEND_COROUTINE_IS_MAIN(co);
}

#if ASYNC_EXIT_IS_FUNCTION
static void main_exit_fn(INTERNAL_FUNCTION_PARAMETERS, int which)
{
	if (in_main_coroutine()) {
		async__scheduler_graceful_shutdown();
	}
	exit_fn_prev[which](INTERNAL_FUNCTION_PARAM_PASSTHRU);
}

static ZEND_FUNCTION(async_main_exit)
{
	main_exit_fn(INTERNAL_FUNCTION_PARAM_PASSTHRU, 0);
}

static ZEND_FUNCTION(async_main_die)
{
	main_exit_fn(INTERNAL_FUNCTION_PARAM_PASSTHRU, 1);
}

static void exit_fn_swap(bool install)
{
	static const zif_handler ours[2] = { ZEND_FN(async_main_exit), ZEND_FN(async_main_die) };
	for (int i = 0; i < 2; i++) {
		zend_function *fn = zend_hash_str_find_ptr(CG(function_table), exit_fn_names[i], strlen(exit_fn_names[i]));
		if (fn == NULL || fn->type != ZEND_INTERNAL_FUNCTION) {
			continue;
		}
		if (install && fn->internal_function.handler != ours[i]) {
			exit_fn_prev[i] = fn->internal_function.handler;
			fn->internal_function.handler = ours[i];
		} else if (!install && fn->internal_function.handler == ours[i]) {
			fn->internal_function.handler = exit_fn_prev[i];
		}
	}
}
#else
static int main_exit_handler(zend_execute_data *execute_data)
{
	if (in_main_coroutine()) {
		async__scheduler_graceful_shutdown();
	}
	return exit_handler_prev != NULL ? exit_handler_prev(execute_data) : ZEND_USER_OPCODE_DISPATCH;
}
#endif

/* The class an "Uncaught <Class>: message ..." / "Uncaught <Class> in ..." report names, if it
 * is a cancellation (a class name holds neither ':' nor a space). */
static bool is_uncaught_cancellation_report(zend_string *message)
{
	const char *prefix = "Uncaught ";
	size_t plen = strlen(prefix);
	if (ZSTR_LEN(message) <= plen || memcmp(ZSTR_VAL(message), prefix, plen) != 0) {
		return false;
	}
	const char *name = ZSTR_VAL(message) + plen;
	size_t len = strcspn(name, ": \n");
	if (len == 0 || len > 1024) {
		return false;
	}
	zend_string *class_name = zend_string_init(name, len, 0);
	zend_class_entry *ce = zend_lookup_class_ex(class_name, NULL, ZEND_FETCH_CLASS_NO_AUTOLOAD);
	zend_string_release(class_name);
	return ce != NULL && instanceof_function(ce, async__ce_async_cancellation);
}

static void main_error_cb(int type, zend_string *error_filename, const uint32_t error_lineno, zend_string *message)
{
	for (uint32_t i = 0; i < error_filter_count; i++) {
		if (error_filters[i](type)) {
			return;
		}
	}
	/* The engine reports an exception that left the script after its frame is gone. */
	if ((type & E_ALL) == E_ERROR && EG(current_execute_data) == NULL && ASYNC_G(launched)
		&& is_uncaught_cancellation_report(message)) {
		return; /* the script's end by a cancellation: not an error (§8.2) */
	}
	error_cb_prev(type, error_filename, error_lineno, message);
}

zend_result async__main_end_minit(void)
{
#if ASYNC_EXIT_IS_FUNCTION
	exit_fn_swap(true);
#else
	exit_handler_prev = zend_get_user_opcode_handler(ZEND_EXIT);
	zend_set_user_opcode_handler(ZEND_EXIT, main_exit_handler);
#endif
	error_cb_prev = zend_error_cb;
	zend_error_cb = main_error_cb;
	return SUCCESS;
}

void async__main_end_rinit(void)
{
	/* An extension that installs its error callback per request without chaining (Xdebug's
	 * develop mode) would leave ours out: wrap what is there now. */
	if (zend_error_cb != main_error_cb) {
		error_cb_prev = zend_error_cb;
		zend_error_cb = main_error_cb;
	}
}

void async__main_end_mshutdown(void)
{
#if ASYNC_EXIT_IS_FUNCTION
	exit_fn_swap(false);
#else
	zend_set_user_opcode_handler(ZEND_EXIT, exit_handler_prev);
#endif
	if (zend_error_cb == main_error_cb) {
		zend_error_cb = error_cb_prev;
	}
	error_filter_count = 0;
}
