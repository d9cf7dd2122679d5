/*
 * async.c — the module entry: INI, the start-up table of every part of the runtime, and
 * the basic Async\ functions (spawn, suspend, await, delay, protect, introspection). Nothing
 * calls into this file: it is the top of the layers (docs/architecture.md).
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include "php_async.h"
#include "php_ini.h"
#include "ext/standard/info.h"
#include "zend_exceptions.h"
#include "zend_closures.h"
/* core */
#include "core/core.h"
/* reactor */
#include "reactor/reactor.h"
/* primitives */
#include "classes/classes.h"
/* hooks */
#include "hooks/hooks.h"
#include "async_arginfo.h"

/* Sizes are bounded so a typo cannot make every coroutine allocate megabytes. */
static ZEND_INI_MH(OnUpdateVmStackSize)
{
	zend_long size = zend_ini_parse_quantity_warn(new_value, entry->name);
	if (size < 1024 || size > 16 * 1024 * 1024) {
		return FAILURE;
	}
	return OnUpdateLong(entry, new_value, mh_arg1, mh_arg2, mh_arg3, stage);
}

/* -1 (the default) means: per SAPI, decided when the drain starts; otherwise milliseconds, 0 to
 * wait forever. */
static ZEND_INI_MH(OnUpdateShutdownTimeout)
{
	zend_long ms = zend_ini_parse_quantity_warn(new_value, entry->name);
	if (ms < -1) {
		return FAILURE;
	}
	return OnUpdateLong(entry, new_value, mh_arg1, mh_arg2, mh_arg3, stage);
}

/* The watchdog's limit in ms (0 = off); turning it on in a request starts its thread. */
static ZEND_INI_MH(OnUpdateBlockWarning)
{
	zend_long ms = zend_ini_parse_quantity_warn(new_value, entry->name);
	if (ms < 0) {
		return FAILURE;
	}
	int rc = OnUpdateLong(entry, new_value, mh_arg1, mh_arg2, mh_arg3, stage);
	if (rc == SUCCESS && ms > 0 && stage == ZEND_INI_STAGE_RUNTIME) {
		async__watchdog_start();
	}
	return rc;
}

/* A signal name ("SIGQUIT", "QUIT") or number; "" or 0 = off. */
/* A cancelled PostgreSQL query's grace: at least 1 ms (0 would close every cancelled
 * connection at once), at most an hour. */
static ZEND_INI_MH(OnUpdatePgsqlCancelGrace)
{
	zend_long ms = zend_ini_parse_quantity_warn(new_value, entry->name);
	if (ms < 1 || ms > 3600000) {
		return FAILURE;
	}
	return OnUpdateLong(entry, new_value, mh_arg1, mh_arg2, mh_arg3, stage);
}

static ZEND_INI_MH(OnUpdateDumpSignal)
{
	if (async__dump_parse_signal(ZSTR_VAL(new_value)) < 0) {
		php_error_docref(NULL, E_WARNING, "async.dump_on_signal: \"%s\" names no signal that can be handled "
			"(use a name such as SIGQUIT or SIGUSR1, or a number)", ZSTR_VAL(new_value));
		return FAILURE;
	}
	return OnUpdateString(entry, new_value, mh_arg1, mh_arg2, mh_arg3, stage);
}

PHP_INI_BEGIN()
	STD_PHP_INI_BOOLEAN("async.debug_deadlock", "1", PHP_INI_ALL, OnUpdateBool, debug_deadlock, zend_async_globals, async_globals)
	STD_PHP_INI_ENTRY("async.vm_stack_size", "2048", PHP_INI_ALL, OnUpdateVmStackSize, vm_stack_size, zend_async_globals, async_globals)
	STD_PHP_INI_ENTRY("async.context_pool_size", "128", PHP_INI_ALL, OnUpdateLong, context_pool_size, zend_async_globals, async_globals)
	STD_PHP_INI_ENTRY("async.max_contexts", "0", PHP_INI_ALL, OnUpdateLong, max_contexts, zend_async_globals, async_globals)
	STD_PHP_INI_ENTRY("async.schedule_seed", "0", PHP_INI_ALL, OnUpdateLong, schedule_seed, zend_async_globals, async_globals)
	STD_PHP_INI_ENTRY("async.shutdown_timeout", "-1", PHP_INI_ALL, OnUpdateShutdownTimeout, shutdown_timeout, zend_async_globals, async_globals)
	STD_PHP_INI_BOOLEAN("async.stack_arena", "1", PHP_INI_SYSTEM, OnUpdateBool, use_stack_arena, zend_async_globals, async_globals)
	STD_PHP_INI_ENTRY("async.stack_guards", "-1", PHP_INI_SYSTEM, OnUpdateLong, stack_guards, zend_async_globals, async_globals)
	STD_PHP_INI_ENTRY("async.block_warning_ms", "0", PHP_INI_ALL, OnUpdateBlockWarning, block_warning_ms, zend_async_globals, async_globals)
	STD_PHP_INI_ENTRY("async.dump_on_signal", "", PHP_INI_SYSTEM | PHP_INI_PERDIR, OnUpdateDumpSignal, dump_on_signal, zend_async_globals, async_globals)
	STD_PHP_INI_ENTRY("async.pgsql_cancel_grace_ms", "2000", PHP_INI_ALL, OnUpdatePgsqlCancelGrace, pgsql_cancel_grace_ms, zend_async_globals, async_globals)
PHP_INI_END()

/* P4: every live C stack costs two memory maps (stack + guard page); leave room for the heap. */
static zend_long default_max_contexts(void)
{
	zend_long max_map_count = 65530;
	FILE *f = fopen("/proc/sys/vm/max_map_count", "r");
	if (f != NULL) {
		long v;
		if (fscanf(f, "%ld", &v) == 1 && v > 0) {
			max_map_count = v;
		}
		fclose(f);
	}
	zend_long reserve = max_map_count / 8 > 4096 ? max_map_count / 8 : 4096;
	zend_long cap = (max_map_count - reserve) / 2;
	return cap > 64 ? cap : 64;
}

static zend_coroutine_t *current_or_launch(void)
{
	if (ZEND_ASYNC_G(coroutine) == NULL) {
		async__scheduler_launch();
	}
	return ZEND_ASYNC_G(coroutine);
}

/* ---------------------------------------------------------------------------------------------
 * Functions
 * ------------------------------------------------------------------------------------------- */

ZEND_FUNCTION(Async_spawn)
{
	async_task_args_t task;
	ZEND_PARSE_PARAMETERS_START(1, -1)
		ASYNC_PARAM_TASK(task)
	ZEND_PARSE_PARAMETERS_END();

	async__spawn_task(NULL, NULL, &task, return_value);
}

ZEND_FUNCTION(Async_suspend)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async__wait_yield_inline();
}

ZEND_FUNCTION(Async_await)
{
	zend_object *awaitable, *cancellation = NULL;
	if (EXPECTED(ZEND_NUM_ARGS() == 1)) {
		/* await($coroutine), the common call, without Z_PARAM_OBJ_OF_CLASS's interface walk
		 * (instanceof_function_slow()); anything else takes the full parse below. */
		zval *arg = ZEND_CALL_ARG(execute_data, 1);
		if (Z_TYPE_P(arg) == IS_OBJECT && Z_OBJCE_P(arg) == async__ce_coroutine) {
			async__await(Z_OBJ_P(arg), NULL, return_value);
			return;
		}
	}
	ZEND_PARSE_PARAMETERS_START(1, 2)
		Z_PARAM_OBJ_OF_CLASS(awaitable, async__ce_completable)
		Z_PARAM_OPTIONAL
		Z_PARAM_OBJ_OF_CLASS_OR_NULL(cancellation, async__ce_completable)
	ZEND_PARSE_PARAMETERS_END();

	async__await(awaitable, cancellation, return_value);
}

ZEND_FUNCTION(Async_delay)
{
	zend_long ms;
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_LONG(ms)
	ZEND_PARSE_PARAMETERS_END();
	if (ms < 0) {
		zend_argument_value_error(1, "must be greater than or equal to 0");
		RETURN_THROWS();
	}
	async__wait_ms((zend_ulong) ms, 0);
}

ZEND_FUNCTION(Async_protect)
{
	zval *closure;
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_OBJECT_OF_CLASS(closure, zend_ce_closure)
	ZEND_PARSE_PARAMETERS_END();

	current_or_launch();
	async_coroutine_t *co = async__coroutine_protect();
	call_user_function(NULL, NULL, closure, return_value, 0, NULL);
	if (Z_ISREF_P(return_value)) {
		/* A by-reference closure: protect() itself returns by value. */
		zend_unwrap_reference(return_value);
	}
	zend_object *error = async__coroutine_unprotect(co, true);
	if (error != NULL) {
		/* The deferred cancellation wins over the closure's value. */
		zval_ptr_dtor(return_value);
		ZVAL_NULL(return_value);
		zend_throw_exception_internal(error);
	}
}

ZEND_FUNCTION(Async_current_coroutine)
{
	ZEND_PARSE_PARAMETERS_NONE();
	zend_coroutine_t *coro = ZEND_ASYNC_G(coroutine);
	if (coro == NULL) {
		async__throw(async__ce_async_exception, "The current coroutine is not defined");
		RETURN_THROWS();
	}
	RETURN_OBJ_COPY(ZEND_ASYNC_EVENT_TO_OBJECT(&coro->event));
}

ZEND_FUNCTION(Async_coroutine_context)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_coroutine_t *co = ASYNC_CO_FROM_CORO(current_or_launch());
	RETURN_OBJ_COPY(async__coroutine_get_context(co));
}

ZEND_FUNCTION(Async_get_coroutines)
{
	ZEND_PARSE_PARAMETERS_NONE();
	if (!ASYNC_G(launched)) {
		RETURN_EMPTY_ARRAY();
	}
	RETURN_ARR(ZEND_ASYNC_GET_COROUTINES());
}

/* ---------------------------------------------------------------------------------------------
 * Module
 * ------------------------------------------------------------------------------------------- */

static PHP_GINIT_FUNCTION(async)
{
#if defined(COMPILE_DL_ASYNC) && defined(ZTS)
	ZEND_TSRMLS_CACHE_UPDATE();
#endif
	memset(async_globals, 0, sizeof(*async_globals));
}

/* A thread that served requests ends (ZTS; at the process's end too): what reads its globals
 * from another thread stops first. */
static PHP_GSHUTDOWN_FUNCTION(async)
{
	async__watchdog_stop(&async_globals->watchdog);
}

/* ---------------------------------------------------------------------------------------------
 * The start-up table
 *
 * Every part of the runtime that starts or stops with the module or the request is one row here,
 * with the phases it has. MINIT and RINIT run down the table, RSHUTDOWN and MSHUTDOWN up it, so a
 * part stops after every part that started after it. The order is the dependencies': the settings
 * and the ABI first (last to go), the core, the reactor (its loop closes last of what a request
 * used), the classes, the hooks; and two rows at the end, whose RSHUTDOWN therefore runs first:
 * the coroutines a request left (everything else they may still use is still there) and, before
 * them, the PDO pool (its rollbacks are coroutines). A MINIT that fails stops the start-up, with
 * the part's name, after the parts already started are stopped again.
 * ------------------------------------------------------------------------------------------- */

typedef struct {
	const char *name;
	zend_result (*minit)(void);
	void (*mshutdown)(void);
	void (*rinit)(void);
	void (*rshutdown)(void);
} async_part_t;

/* per-process: the module number and type PHP gave at MINIT (INI entries are registered under
 * them) */
static int ini_module_number;
/* per-process: see ini_module_number */
static int ini_module_type;

static zend_result ini_minit(void)
{
	int module_number = ini_module_number, type = ini_module_type;
	REGISTER_INI_ENTRIES();
	ASYNC_G(use_stack_arena) = ASYNC_G(use_stack_arena) && async__stack_arena_available();
	if (ASYNC_G(max_contexts) == 0 && !ASYNC_G(use_stack_arena)) {
		/* the arena needs no memory map per stack: no limit but memory (memory_limit) */
		ASYNC_G(max_contexts) = default_max_contexts();
	}
	return SUCCESS;
}

static void ini_mshutdown(void)
{
	int module_number = ini_module_number, type = ini_module_type;
	UNREGISTER_INI_ENTRIES();
}

static const async_part_t parts[] = {
	/* name                   MINIT                            MSHUTDOWN                           RINIT                      RSHUTDOWN */
	{ "INI settings",         ini_minit,                       ini_mshutdown,                      NULL,                      NULL },
	{ "stack arena",          NULL,                            async__stack_arena_mshutdown,        NULL,                      async__stack_arena_rshutdown },
	{ "ABI tables",           NULL,                            zend_async_api_unregister_all,      NULL,                      NULL },
	/* core */
	{ "awaitable",            async__awaitable_minit,           NULL,                               NULL,                      NULL },
	{ "exceptions",           async__exceptions_minit,          NULL,                               NULL,                      NULL },
	{ "coroutine",            async__coroutine_minit,           NULL,                               NULL,                      NULL },
	{ "scheduler",            async__scheduler_minit,           NULL,                               async__scheduler_rinit,     NULL },
	{ "main script's end",    async__main_end_minit,            async__main_end_mshutdown,           async__main_end_rinit,      NULL },
	{ "autoload",             async__autoload_minit,            async__autoload_mshutdown,           NULL,                      async__autoload_rshutdown },
	{ "workers",              NULL,                            NULL,                               NULL,                      async__workers_rshutdown },
	/* reactor */
	{ "reactor",              async__reactor_minit,             NULL,                               NULL,                      async__reactor_rshutdown },
	{ "reactor timers",       async__reactor_timer_minit,       NULL,                               NULL,                      NULL },
	{ "reactor polls",        async__reactor_poll_minit,        NULL,                               NULL,                      async__reactor_poll_rshutdown },
	{ "reactor work",         async__reactor_work_minit,        NULL,                               NULL,                      async__reactor_work_rshutdown },
	{ "reactor DNS",          async__reactor_dns_minit,         NULL,                               NULL,                      async__reactor_dns_rshutdown },
	{ "reactor fs events",    async__reactor_fs_minit,          NULL,                               NULL,                      async__reactor_fs_rshutdown },
	{ "reactor signals",      async__reactor_signal_minit,      NULL,                               NULL,                      async__reactor_signal_rshutdown },
	{ "reactor processes",    async__reactor_process_minit,     NULL,                               NULL,                      NULL },
	{ "reactor I/O",          async__reactor_io_minit,          NULL,                               NULL,                      NULL },
	{ "virtual clocks",       NULL,                            NULL,                               NULL,                      async__clock_rshutdown },
	/* classes */
	{ "Context",              async__context_minit,             NULL,                               NULL,                      NULL },
	{ "Scope",                async__scope_minit,               NULL,                               NULL,                      NULL },
	{ "Future",               async__future_minit,              NULL,                               NULL,                      NULL },
	{ "timeout()",            async__timeout_minit,             NULL,                               NULL,                      NULL },
	{ "Pool",                 async__pool_minit,                NULL,                               NULL,                      NULL },
	{ "Channel",              async__channel_minit,             NULL,                               NULL,                      NULL },
	{ "TaskGroup",            async__task_group_minit,          NULL,                               NULL,                      NULL },
	{ "iterate()",            async__iterate_minit,             NULL,                               NULL,                      NULL },
	{ "virtual_time()",       async__virtual_time_minit,        NULL,                               NULL,                      NULL },
	{ "the await family",     async__await_minit,               NULL,                               NULL,                      NULL },
	{ "signal()",             async__signal_minit,              NULL,                               NULL,                      async__signal_rshutdown },
	{ "FileSystemWatcher",    async__fs_watcher_minit,          NULL,                               NULL,                      NULL },
	{ "CPU functions",        async__cpu_minit,                 NULL,                               NULL,                      async__cpu_rshutdown },
	{ "runtime_stats()",      async__runtime_stats_minit,       NULL,                               NULL,                      NULL },
	/* hooks */
	{ "sleep hooks",          async__hook_sleep_minit,          async__hook_sleep_mshutdown,         NULL,                      NULL },
	{ "DNS hooks",            async__hook_dns_minit,            async__hook_dns_mshutdown,           NULL,                      NULL },
	{ "socket transports",    async__hook_transports_minit,     async__hook_transports_mshutdown,    NULL,                      NULL },
	{ "socket functions",     async__hook_net_functions_minit,  async__hook_net_functions_mshutdown, NULL,                      NULL },
	{ "socket stream reads",  async__hook_stream_read_minit,    async__hook_stream_read_mshutdown,   NULL,                      NULL },
	{ "ext/sockets hooks",    async__hook_sockets_minit,        async__hook_sockets_mshutdown,       async__hook_sockets_rinit,  NULL },
	{ "pcntl hooks",          async__hook_pcntl_minit,          async__hook_pcntl_mshutdown,         NULL,                      async__hook_pcntl_rshutdown },
	{ "curl hooks",           async__hook_curl_minit,           async__hook_curl_mshutdown,          async__hook_curl_rinit,     async__hook_curl_rshutdown },
	{ "PostgreSQL hooks",     async__hook_pgsql_minit,          async__hook_pgsql_mshutdown,         async__hook_pgsql_rinit,    async__hook_pgsql_rshutdown },
	{ "persistent connections", async__hook_persistent_minit,   async__hook_persistent_mshutdown,    NULL,                      async__hook_persistent_rshutdown },
	{ "exec hooks",           async__hook_exec_minit,           async__hook_exec_mshutdown,          NULL,                      NULL },
	{ "process waits",        async__hook_proc_wait_minit,      async__hook_proc_wait_mshutdown,     NULL,                      NULL },
	{ "stdio hooks",          async__hook_stdio_minit,          async__hook_stdio_mshutdown,         NULL,                      async__hook_stdio_rshutdown },
	{ "time hooks",           async__hook_time_minit,           async__hook_time_mshutdown,          NULL,                      NULL },
	{ "watchdog",             async__hook_watchdog_minit,       async__hook_watchdog_mshutdown,      async__hook_watchdog_rinit, NULL },
	{ "signal dump",          async__hook_dump_minit,           async__hook_dump_mshutdown,          async__hook_dump_rinit,     async__hook_dump_rshutdown },
	/* a request's end starts here */
	{ "coroutines left",      NULL,                            NULL,                               NULL,                      async__scheduler_rshutdown },
	{ "PDO pool",             async__hook_pdo_pool_minit,       async__hook_pdo_pool_mshutdown,      NULL,                      async__hook_pdo_pool_rshutdown },
	/* last: its wrappers go around the other hooks' (the PDO pool's trampolines) */
	{ "cancellation on top",  async__hook_cancel_on_top_minit,  async__hook_cancel_on_top_mshutdown, NULL,                      NULL },
};

#define PARTS (sizeof(parts) / sizeof(parts[0]))

static PHP_MINIT_FUNCTION(async)
{
	ini_module_number = module_number;
	ini_module_type = type;
	for (size_t i = 0; i < PARTS; i++) {
		if (parts[i].minit == NULL || parts[i].minit() == SUCCESS) {
			continue;
		}
		php_error_docref(NULL, E_CORE_WARNING, "ext-async could not start its %s (another extension "
			"implementing the same async ABI?): the module does not load", parts[i].name);
		while (i-- > 0) {
			if (parts[i].mshutdown != NULL) {
				parts[i].mshutdown();
			}
		}
		return FAILURE;
	}
	return SUCCESS;
}

static PHP_MSHUTDOWN_FUNCTION(async)
{
	for (size_t i = PARTS; i-- > 0;) {
		if (parts[i].mshutdown != NULL) {
			parts[i].mshutdown();
		}
	}
	return SUCCESS;
}

static PHP_RINIT_FUNCTION(async)
{
#if defined(COMPILE_DL_ASYNC) && defined(ZTS)
	ZEND_TSRMLS_CACHE_UPDATE();
#endif
	for (size_t i = 0; i < PARTS; i++) {
		if (parts[i].rinit != NULL) {
			parts[i].rinit();
		}
	}
	return SUCCESS;
}

static PHP_RSHUTDOWN_FUNCTION(async)
{
	for (size_t i = PARTS; i-- > 0;) {
		if (parts[i].rshutdown != NULL) {
			parts[i].rshutdown();
		}
	}
	return SUCCESS;
}

static PHP_MINFO_FUNCTION(async)
{
	php_info_print_table_start();
	php_info_print_table_row(2, "Module", "async");
	php_info_print_table_row(2, "Version", PHP_ASYNC_VERSION);
	php_info_print_table_row(2, "TrueAsync API", ZEND_ASYNC_API);
	php_info_print_table_row(2, "LibUv Reactor", "Enabled");
	php_info_print_table_row(2, "libuv version", async__reactor_version());
	php_info_print_table_row(2, "libuv version (compiled)", async__reactor_version_compiled());
	php_info_print_table_row(2, "PHP version (compiled)", PHP_VERSION);
	php_info_print_table_end();
	DISPLAY_INI_ENTRIES();
}

/* Modules whose classes and functions the hooks change start first, whatever the INI order. */
static const zend_module_dep module_deps[] = {
	ZEND_MOD_OPTIONAL("pdo")
	ZEND_MOD_OPTIONAL("pdo_mysql")
	ZEND_MOD_OPTIONAL("pdo_pgsql")
	ZEND_MOD_OPTIONAL("pdo_sqlite")
	ZEND_MOD_OPTIONAL("pgsql")
	ZEND_MOD_OPTIONAL("mysqli")
	ZEND_MOD_OPTIONAL("curl")
	ZEND_MOD_OPTIONAL("sockets")
	ZEND_MOD_OPTIONAL("redis")
	ZEND_MOD_OPTIONAL("soap")
	ZEND_MOD_END
};

zend_module_entry async_module_entry = {
	STANDARD_MODULE_HEADER_EX, NULL,
	module_deps,
	PHP_ASYNC_NAME,
	ext_functions,
	PHP_MINIT(async),
	PHP_MSHUTDOWN(async),
	PHP_RINIT(async),
	PHP_RSHUTDOWN(async),
	PHP_MINFO(async),
	PHP_ASYNC_VERSION,
	PHP_MODULE_GLOBALS(async),
	PHP_GINIT(async),
	PHP_GSHUTDOWN(async),
	NULL,
	STANDARD_MODULE_PROPERTIES_EX
};

#ifdef COMPILE_DL_ASYNC
# ifdef ZTS
ZEND_TSRMLS_CACHE_DEFINE()
# endif
ZEND_GET_MODULE(async)
#endif
