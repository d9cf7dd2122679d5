/*
 * hooks/time.c — inside Async\Testing\virtual_time(), PHP's clocks read the bubble's clock:
 * time(), microtime(), hrtime(), gettimeofday(); date(), gmdate(), idate(), getdate(),
 * localtime() and strtotime() without a timestamp; new DateTime() / new DateTimeImmutable(),
 * date_create() and date_create_immutable() without a time ("now" or "").
 *
 * Outside a bubble every one of them is PHP's own (one load to know). Inside, the functions that
 * take an optional timestamp are called again with the bubble's; the DateTime constructors get
 * the bubble's instant as a local time string in the zone they would use ("Y-m-d H:i:s.u"), so
 * the object is the same as PHP's (named zone, microseconds) but for the instant. mktime() and
 * relative strings ("+1 day", "tomorrow") still start from real time.
 */
#include "php_async.h"
#include "hooks/hooks.h"
#include "core/core.h"
#include "ext/date/php_date.h"

enum { HOOK_TIME, HOOK_MICROTIME, HOOK_HRTIME, HOOK_GETTIMEOFDAY, HOOK_DATE, HOOK_GMDATE, HOOK_IDATE,
	HOOK_GETDATE, HOOK_LOCALTIME, HOOK_STRTOTIME, HOOK_DATE_CREATE, HOOK_DATE_CREATE_IMMUTABLE };

static ZEND_FUNCTION(async_time);
static ZEND_FUNCTION(async_microtime);
static ZEND_FUNCTION(async_hrtime);
static ZEND_FUNCTION(async_gettimeofday);
static ZEND_FUNCTION(async_date);
static ZEND_FUNCTION(async_gmdate);
static ZEND_FUNCTION(async_idate);
static ZEND_FUNCTION(async_getdate);
static ZEND_FUNCTION(async_localtime);
static ZEND_FUNCTION(async_strtotime);
static ZEND_FUNCTION(async_date_create);
static ZEND_FUNCTION(async_date_create_immutable);

/* per-process: handlers swapped at MINIT */
static async_function_hook_t hooks[] = {
	{ "time", ZEND_FN(async_time), NULL },
	{ "microtime", ZEND_FN(async_microtime), NULL },
	{ "hrtime", ZEND_FN(async_hrtime), NULL },
	{ "gettimeofday", ZEND_FN(async_gettimeofday), NULL },
	{ "date", ZEND_FN(async_date), NULL },
	{ "gmdate", ZEND_FN(async_gmdate), NULL },
	{ "idate", ZEND_FN(async_idate), NULL },
	{ "getdate", ZEND_FN(async_getdate), NULL },
	{ "localtime", ZEND_FN(async_localtime), NULL },
	{ "strtotime", ZEND_FN(async_strtotime), NULL },
	{ "date_create", ZEND_FN(async_date_create), NULL },
	{ "date_create_immutable", ZEND_FN(async_date_create_immutable), NULL },
};

/* per-process: the constructors of DateTime and DateTimeImmutable, swapped at MINIT */
static struct {
	const char *class_name;
	zif_handler original;
} ctors[] = { { "datetime", NULL }, { "datetimeimmutable", NULL } };

#define ORIGINAL(h) hooks[h].original(INTERNAL_FUNCTION_PARAM_PASSTHRU)
#define OUTSIDE_BUBBLE(clock, h) do { \
		if (EXPECTED((clock) == NULL)) { \
			ORIGINAL(h); \
			return; \
		} \
	} while (0)

/* ---------------------------------------------------------------------------------------------
 * Clocks
 * ------------------------------------------------------------------------------------------- */

static ZEND_FUNCTION(async_time)
{
	async_clock_t *clock = async__clock_current();
	OUTSIDE_BUBBLE(clock, HOOK_TIME);
	ZEND_PARSE_PARAMETERS_NONE();
	RETURN_LONG((zend_long) (async__clock_wall_ns(clock) / 1000000000u));
}

static ZEND_FUNCTION(async_microtime)
{
	async_clock_t *clock = async__clock_current();
	OUTSIDE_BUBBLE(clock, HOOK_MICROTIME);
	bool as_float = false;
	ZEND_PARSE_PARAMETERS_START(0, 1)
		Z_PARAM_OPTIONAL
		Z_PARAM_BOOL(as_float)
	ZEND_PARSE_PARAMETERS_END();
	uint64_t ns = async__clock_wall_ns(clock);
	uint64_t sec = ns / 1000000000u, usec = (ns % 1000000000u) / 1000u;
	if (as_float) {
		RETURN_DOUBLE((double) sec + (double) usec / 1000000.0);
	}
	/* PHP's own format: "0.%08d %d" */
	RETURN_STR(zend_strpprintf(0, "%.8F %" PRIu64, (double) usec / 1000000.0, sec));
}

static ZEND_FUNCTION(async_hrtime)
{
	async_clock_t *clock = async__clock_current();
	OUTSIDE_BUBBLE(clock, HOOK_HRTIME);
	bool as_number = false;
	ZEND_PARSE_PARAMETERS_START(0, 1)
		Z_PARAM_OPTIONAL
		Z_PARAM_BOOL(as_number)
	ZEND_PARSE_PARAMETERS_END();
	uint64_t ns = async__clock_mono_ns(clock);
	if (as_number) {
		RETURN_LONG((zend_long) ns);
	}
	array_init_size(return_value, 2);
	add_next_index_long(return_value, (zend_long) (ns / 1000000000u));
	add_next_index_long(return_value, (zend_long) (ns % 1000000000u));
}

static ZEND_FUNCTION(async_gettimeofday)
{
	async_clock_t *clock = async__clock_current();
	OUTSIDE_BUBBLE(clock, HOOK_GETTIMEOFDAY);
	/* PHP's own answer (the zone fields), then the bubble's instant in it */
	ORIGINAL(HOOK_GETTIMEOFDAY);
	uint64_t ns = async__clock_wall_ns(clock);
	if (Z_TYPE_P(return_value) == IS_DOUBLE) {
		RETURN_DOUBLE((double) (ns / 1000) / 1000000.0);
	}
	if (Z_TYPE_P(return_value) == IS_ARRAY) {
		add_assoc_long(return_value, "sec", (zend_long) (ns / 1000000000u));
		add_assoc_long(return_value, "usec", (zend_long) ((ns % 1000000000u) / 1000u));
	}
}

/* ---------------------------------------------------------------------------------------------
 * Functions with an optional timestamp: called again with the bubble's
 * ------------------------------------------------------------------------------------------- */

/* The running function or constructor, called again with other arguments. */
static void call_again(zend_execute_data *execute_data, zval *return_value, uint32_t count, zval *params)
{
	zend_object *object = Z_TYPE(EX(This)) == IS_OBJECT ? Z_OBJ(EX(This)) : NULL;
	zend_call_known_function(EX(func), object, object != NULL ? object->ce : NULL, return_value, count, params, NULL);
}

/* The arguments given, with the one at `index` set to the bubble's timestamp when it is missing
 * or null; false when it was given (PHP's own function then runs as is). */
static bool with_timestamp(zend_execute_data *execute_data, zval *return_value, async_clock_t *clock, uint32_t index)
{
	uint32_t given = ZEND_NUM_ARGS();
	if (index < given && Z_TYPE_P(ZEND_CALL_ARG(execute_data, index + 1)) != IS_NULL) {
		return false;
	}
	if (given < index) {
		return false; /* a required argument is missing: PHP's own error */
	}
	uint32_t count = given > index + 1 ? given : index + 1;
	zval params[4];
	ZEND_ASSERT(count <= 4);
	for (uint32_t i = 0; i < count; i++) {
		if (i == index) {
			ZVAL_LONG(&params[i], (zend_long) (async__clock_wall_ns(clock) / 1000000000u));
		} else {
			ZVAL_COPY(&params[i], ZEND_CALL_ARG(execute_data, i + 1));
		}
	}
	call_again(execute_data, return_value, count, params);
	for (uint32_t i = 0; i < count; i++) {
		zval_ptr_dtor(&params[i]);
	}
	return true;
}

#define TIMESTAMP_HOOK(fn, h, index, max_args) \
	static ZEND_FUNCTION(fn) \
	{ \
		async_clock_t *clock = async__clock_current(); \
		OUTSIDE_BUBBLE(clock, h); \
		if (ZEND_NUM_ARGS() > (max_args) || !with_timestamp(execute_data, return_value, clock, (index))) { \
			ORIGINAL(h); \
		} \
	}

TIMESTAMP_HOOK(async_date, HOOK_DATE, 1, 2)
TIMESTAMP_HOOK(async_gmdate, HOOK_GMDATE, 1, 2)
TIMESTAMP_HOOK(async_idate, HOOK_IDATE, 1, 2)
TIMESTAMP_HOOK(async_getdate, HOOK_GETDATE, 0, 1)
TIMESTAMP_HOOK(async_localtime, HOOK_LOCALTIME, 0, 2)
TIMESTAMP_HOOK(async_strtotime, HOOK_STRTOTIME, 1, 2)

/* ---------------------------------------------------------------------------------------------
 * DateTime "now"
 * ------------------------------------------------------------------------------------------- */

static bool call_named(const char *name, zval *retval, uint32_t count, zval *params)
{
	zval fn;
	ZVAL_STRING(&fn, name);
	bool ok = call_user_function(NULL, NULL, &fn, retval, count, params) == SUCCESS && !EG(exception);
	zval_ptr_dtor(&fn);
	return ok;
}

/* The bubble's instant as local time in `tz` (null: the default zone). */
static zend_string *bubble_local_time(async_clock_t *clock, zval *tz)
{
	uint64_t ns = async__clock_wall_ns(clock);
	zval arg, dt, ignored, params[2], text;
	ZVAL_STR(&arg, zend_strpprintf(0, "@%" PRIu64 ".%06" PRIu64, ns / 1000000000u, (ns % 1000000000u) / 1000u));
	bool ok = call_named("date_create", &dt, 1, &arg) && Z_TYPE(dt) == IS_OBJECT;
	zval_ptr_dtor(&arg);
	if (!ok) {
		zval_ptr_dtor(&dt);
		return NULL;
	}
	zval zone;
	if (tz != NULL) {
		ZVAL_COPY(&zone, tz);
	} else {
		zval name;
		ok = call_named("date_default_timezone_get", &name, 0, NULL) && call_named("timezone_open", &zone, 1, &name);
		zval_ptr_dtor(&name);
	}
	ZVAL_COPY_VALUE(&params[0], &dt);
	ZVAL_COPY_VALUE(&params[1], &zone);
	ok = ok && call_named("date_timezone_set", &ignored, 2, params);
	zval_ptr_dtor(&ignored);
	zval_ptr_dtor(&zone);
	ZVAL_STRING(&params[1], "Y-m-d H:i:s.u");
	ok = ok && call_named("date_format", &text, 2, params) && Z_TYPE(text) == IS_STRING;
	zval_ptr_dtor(&params[1]);
	zval_ptr_dtor(&dt);
	if (!ok) {
		zval_ptr_dtor(&text);
		return NULL;
	}
	return Z_STR(text);
}

/* Whether a call (time string first, zone second) asks for "now": the bubble's then. */
static bool wants_now(zend_execute_data *execute_data)
{
	if (ZEND_NUM_ARGS() == 0) {
		return true;
	}
	zval *time = ZEND_CALL_ARG(execute_data, 1);
	return ZEND_NUM_ARGS() <= 2 && Z_TYPE_P(time) == IS_STRING
		&& (Z_STRLEN_P(time) == 0 || zend_string_equals_literal_ci(Z_STR_P(time), "now"));
}

/* Calls the function or constructor again with the bubble's local time and the zone given. */
static bool with_local_time(zend_execute_data *execute_data, zval *return_value, async_clock_t *clock)
{
	if (!wants_now(execute_data)) {
		return false;
	}
	zval *tz = ZEND_NUM_ARGS() >= 2 && Z_TYPE_P(ZEND_CALL_ARG(execute_data, 2)) == IS_OBJECT
		? ZEND_CALL_ARG(execute_data, 2) : NULL;
	zend_string *local = bubble_local_time(clock, tz);
	if (local == NULL) {
		return EG(exception) != NULL; /* an exception stands; otherwise PHP's own "now" */
	}
	zval params[2];
	ZVAL_STR(&params[0], local);
	if (tz != NULL) {
		ZVAL_COPY(&params[1], tz);
	} else {
		ZVAL_NULL(&params[1]);
	}
	call_again(execute_data, return_value, 2, params);
	zval_ptr_dtor(&params[0]);
	zval_ptr_dtor(&params[1]);
	return true;
}

static ZEND_FUNCTION(async_date_create)
{
	async_clock_t *clock = async__clock_current();
	OUTSIDE_BUBBLE(clock, HOOK_DATE_CREATE);
	if (!with_local_time(execute_data, return_value, clock)) {
		ORIGINAL(HOOK_DATE_CREATE);
	}
}

static ZEND_FUNCTION(async_date_create_immutable)
{
	async_clock_t *clock = async__clock_current();
	OUTSIDE_BUBBLE(clock, HOOK_DATE_CREATE_IMMUTABLE);
	if (!with_local_time(execute_data, return_value, clock)) {
		ORIGINAL(HOOK_DATE_CREATE_IMMUTABLE);
	}
}

static void datetime_construct(INTERNAL_FUNCTION_PARAMETERS, zif_handler original)
{
	async_clock_t *clock = async__clock_current();
	if (clock == NULL || !with_local_time(execute_data, return_value, clock)) {
		original(INTERNAL_FUNCTION_PARAM_PASSTHRU);
	}
}

static ZEND_FUNCTION(async_datetime_construct)
{
	datetime_construct(INTERNAL_FUNCTION_PARAM_PASSTHRU, ctors[0].original);
}

static ZEND_FUNCTION(async_datetime_immutable_construct)
{
	datetime_construct(INTERNAL_FUNCTION_PARAM_PASSTHRU, ctors[1].original);
}

static zend_function *ctor_of(const char *class_name)
{
	zend_class_entry *ce = zend_hash_str_find_ptr(CG(class_table), class_name, strlen(class_name));
	zend_function *fn = ce != NULL ? zend_hash_str_find_ptr(&ce->function_table, "__construct", sizeof("__construct") - 1) : NULL;
	return fn != NULL && fn->type == ZEND_INTERNAL_FUNCTION ? fn : NULL;
}

zend_result async__hook_time_minit(void)
{
	async__function_hooks_install(hooks, sizeof(hooks) / sizeof(hooks[0]));
	zif_handler replacements[] = { ZEND_FN(async_datetime_construct), ZEND_FN(async_datetime_immutable_construct) };
	for (size_t i = 0; i < 2; i++) {
		zend_function *fn = ctor_of(ctors[i].class_name);
		if (fn != NULL) {
			ctors[i].original = fn->internal_function.handler;
			fn->internal_function.handler = replacements[i];
		}
	}
	return SUCCESS;
}

void async__hook_time_mshutdown(void)
{
	async__function_hooks_uninstall(hooks, sizeof(hooks) / sizeof(hooks[0]));
	for (size_t i = 0; i < 2; i++) {
		zend_function *fn = ctor_of(ctors[i].class_name);
		if (fn != NULL && ctors[i].original != NULL) {
			fn->internal_function.handler = ctors[i].original;
		}
		ctors[i].original = NULL;
	}
}
