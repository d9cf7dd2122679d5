/*
 * hooks/sleep.c — sleep(), usleep(), time_nanosleep() and time_sleep_until() suspend only the calling
 * coroutine. Handlers are swapped at MINIT only (P18: the JIT may embed handler addresses).
 * Outside a coroutine, or where switching is forbidden (destructors on 8.2, P9), the original
 * handler runs, so behaviour is exactly PHP's own.
 */
#include "php_async.h"
#include "hooks/hooks.h"
#include "core/core.h"
#include <sys/time.h>

static ZEND_FUNCTION(async_sleep);
static ZEND_FUNCTION(async_usleep);
static ZEND_FUNCTION(async_time_nanosleep);
static ZEND_FUNCTION(async_time_sleep_until);

/* per-process: the function table's handlers, swapped at MINIT */
static async_function_hook_t hooks[] = {
	{ "sleep", ZEND_FN(async_sleep), NULL },
	{ "usleep", ZEND_FN(async_usleep), NULL },
	{ "time_nanosleep", ZEND_FN(async_time_nanosleep), NULL },
	{ "time_sleep_until", ZEND_FN(async_time_sleep_until), NULL },
};

enum { HOOK_SLEEP, HOOK_USLEEP, HOOK_NANOSLEEP, HOOK_SLEEP_UNTIL };

/* sleep(PHP_INT_MAX) must mean "forever", not wrap around to "now". */
static zend_ulong saturating_mul(zend_ulong a, zend_ulong b)
{
	return (b != 0 && a > ZEND_ULONG_MAX / b) ? ZEND_ULONG_MAX : a * b;
}

static zend_ulong saturating_add(zend_ulong a, zend_ulong b)
{
	return a > ZEND_ULONG_MAX - b ? ZEND_ULONG_MAX : a + b;
}

/* Suspending applies once the runtime is launched and we may switch. */
static bool in_coroutine(void)
{
	return ZEND_ASYNC_G(coroutine) != NULL && async__wait_allowed();
}

#define FALLBACK(which) do { \
		if (!in_coroutine()) { \
			hooks[which].original(INTERNAL_FUNCTION_PARAM_PASSTHRU); \
			return; \
		} \
	} while (0)

static ZEND_FUNCTION(async_sleep)
{
	FALLBACK(HOOK_SLEEP);
	zend_long seconds;
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_LONG(seconds)
	ZEND_PARSE_PARAMETERS_END();
	if (seconds < 0) {
		zend_argument_value_error(1, "must be greater than or equal to 0");
		RETURN_THROWS();
	}
	if (!async__wait_ms(saturating_mul((zend_ulong) seconds, 1000), 0)) {
		RETURN_THROWS();
	}
	RETURN_LONG(0);
}

static ZEND_FUNCTION(async_usleep)
{
	FALLBACK(HOOK_USLEEP);
	zend_long microseconds;
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_LONG(microseconds)
	ZEND_PARSE_PARAMETERS_END();
	if (microseconds < 0) {
		zend_argument_value_error(1, "must be greater than or equal to 0");
		RETURN_THROWS();
	}
	if (!async__wait_ms((zend_ulong) microseconds / 1000, ((zend_ulong) microseconds % 1000) * 1000)) {
		RETURN_THROWS();
	}
}

static ZEND_FUNCTION(async_time_nanosleep)
{
	FALLBACK(HOOK_NANOSLEEP);
	zend_long seconds, nanoseconds;
	ZEND_PARSE_PARAMETERS_START(2, 2)
		Z_PARAM_LONG(seconds)
		Z_PARAM_LONG(nanoseconds)
	ZEND_PARSE_PARAMETERS_END();
	if (seconds < 0) {
		zend_argument_value_error(1, "must be greater than or equal to 0");
		RETURN_THROWS();
	}
	if (nanoseconds < 0) {
		zend_argument_value_error(2, "must be greater than or equal to 0");
		RETURN_THROWS();
	}
	if (nanoseconds > 999999999) {
		zend_value_error("Nanoseconds was not in the range 0 to 999 999 999 or seconds was negative");
		RETURN_THROWS();
	}
	if (!async__wait_ms(saturating_add(saturating_mul((zend_ulong) seconds, 1000), (zend_ulong) nanoseconds / 1000000),
			(zend_ulong) nanoseconds % 1000000)) {
		RETURN_THROWS();
	}
	RETURN_TRUE;
}

static ZEND_FUNCTION(async_time_sleep_until)
{
	FALLBACK(HOOK_SLEEP_UNTIL);
	double target;
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_DOUBLE(target)
	ZEND_PARSE_PARAMETERS_END();

	/* The same checks, in the same order, as PHP's own time_sleep_until(). */
	const uint64_t ns_per_sec = 1000000000;
	const double top_target_sec = (double) (UINT64_MAX / ns_per_sec);
	struct timeval tm;
	async_clock_t *clock = async__clock_current(); /* inside virtual_time(): its clock */
	if (clock == NULL && gettimeofday(&tm, NULL) != 0) {
		RETURN_FALSE;
	}
	if (UNEXPECTED(!(target >= 0 && target <= top_target_sec))) {
		zend_argument_value_error(1, "must be between 0 and %" PRIu64, (uint64_t) top_target_sec);
		RETURN_THROWS();
	}
	uint64_t target_ns = (uint64_t) (target * ns_per_sec);
	uint64_t current_ns = clock != NULL ? async__clock_wall_ns(clock)
		: ((uint64_t) tm.tv_sec) * ns_per_sec + ((uint64_t) tm.tv_usec) * 1000;
	if (target_ns < current_ns) {
		php_error_docref(NULL, E_WARNING, "Argument #1 ($timestamp) must be greater than or equal to the current time");
		RETURN_FALSE;
	}
	uint64_t diff_ns = target_ns - current_ns;
	zend_ulong ms = (zend_ulong) (diff_ns / 1000000);
	zend_ulong ns = (zend_ulong) (diff_ns % 1000000);
	if (!async__wait_ms(ms, ns)) {
		RETURN_THROWS();
	}
	RETURN_TRUE;
}

zend_result async__hook_sleep_minit(void)
{
	async__function_hooks_install(hooks, sizeof(hooks) / sizeof(hooks[0]));
	return SUCCESS;
}

void async__hook_sleep_mshutdown(void)
{
	async__function_hooks_uninstall(hooks, sizeof(hooks) / sizeof(hooks[0]));
}
