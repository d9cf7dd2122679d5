/*
 * classes/cpu.c — Async\CpuSnapshot, Async\cpu_usage(), Async\loadavg() and
 * Async\available_parallelism().
 *
 * A snapshot is five clocks read at one instant, in nanoseconds: the monotonic wall clock
 * (uv_hrtime), this process's user and system CPU time (getrusage through uv_getrusage), and
 * the idle and busy time of all the machine's CPUs summed (uv_cpu_info: busy = user + nice +
 * sys + irq), plus how many CPUs those sums cover.
 *
 * cpu_usage() compares now with a stored snapshot and then stores now, so each call measures the
 * interval since the previous one; the first call of a request only stores and reports zeros
 * (cpu_count and loadavg are not deltas and are always real). The stored snapshot is dropped at
 * request end. Over an interval:
 *   process_cores   = process CPU time / wall time      (1.0 = one core kept busy)
 *   process_percent = process_cores / cpu_count * 100   (share of the whole machine, 0..100)
 *   system_percent  = busy / (busy + idle) * 100         (all CPUs, every process)
 */
#include "php_async.h"
#include "classes/classes.h"
#include "reactor/reactor.h"
#include "cpu_arginfo.h"

zend_class_entry *async__ce_cpu_snapshot;

/* The declaration order of CpuSnapshot's properties (cpu.stub.php). */
enum { PROP_WALL, PROP_USER, PROP_SYSTEM, PROP_IDLE, PROP_BUSY, PROP_CPU_COUNT };

/* A source that cannot be read leaves its fields at zero. */
static void cpu_times_now(async_cpu_times_t *t)
{
	async__reactor_cpu_times(t);
}

static uint64_t delta(uint64_t now, uint64_t before)
{
	return now > before ? now - before : 0;
}

/* [1m, 5m, 15m], or NULL where the OS has no load average. */
static void loadavg_value(zval *return_value)
{
#ifdef PHP_WIN32
	ZVAL_NULL(return_value);
#else
	double avg[3];
	async__reactor_loadavg(avg);
	array_init_size(return_value, 3);
	for (int i = 0; i < 3; i++) {
		add_next_index_double(return_value, avg[i]);
	}
#endif
}

ZEND_FUNCTION(Async_loadavg)
{
	ZEND_PARSE_PARAMETERS_NONE();
	loadavg_value(return_value);
}

ZEND_FUNCTION(Async_cpu_usage)
{
	ZEND_PARSE_PARAMETERS_NONE();

	async_cpu_times_t now;
	cpu_times_now(&now);
	double process_cores = 0, process_percent = 0, system_percent = 0, interval_sec = 0;

	async_cpu_times_t *stored = ASYNC_G(cpu_snapshot);
	if (stored != NULL) {
		uint64_t wall = delta(now.wall_ns, stored->wall_ns);
		uint64_t process = delta(now.user_ns + now.system_ns, stored->user_ns + stored->system_ns);
		uint64_t busy = delta(now.busy_ns, stored->busy_ns);
		uint64_t idle = delta(now.idle_ns, stored->idle_ns);
		if (wall > 0) {
			process_cores = (double) process / (double) wall;
			interval_sec = (double) wall / 1e9;
		}
		if (now.cpu_count > 0) {
			process_percent = process_cores / now.cpu_count * 100.0;
		}
		if (busy + idle > 0) {
			system_percent = (double) busy / (double) (busy + idle) * 100.0;
		}
	}
	if (stored == NULL) {
		stored = ASYNC_G(cpu_snapshot) = emalloc(sizeof(*stored));
	}
	*stored = now;

	zval load;
	loadavg_value(&load);
	array_init_size(return_value, 6);
	add_assoc_double(return_value, "process_cores", process_cores);
	add_assoc_double(return_value, "process_percent", process_percent);
	add_assoc_double(return_value, "system_percent", system_percent);
	add_assoc_long(return_value, "cpu_count", now.cpu_count);
	add_assoc_double(return_value, "interval_sec", interval_sec);
	add_assoc_zval(return_value, "loadavg", &load);
}

ZEND_METHOD(Async_CpuSnapshot, __construct)
{
	ZEND_PARSE_PARAMETERS_NONE();
}

/* Readonly properties are initialised in place, as the engine does for enum cases. */
ZEND_METHOD(Async_CpuSnapshot, now)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_cpu_times_t t;
	cpu_times_now(&t);

	object_init_ex(return_value, async__ce_cpu_snapshot);
	zend_object *obj = Z_OBJ_P(return_value);
	ZVAL_LONG(OBJ_PROP_NUM(obj, PROP_WALL), (zend_long) t.wall_ns);
	ZVAL_LONG(OBJ_PROP_NUM(obj, PROP_USER), (zend_long) t.user_ns);
	ZVAL_LONG(OBJ_PROP_NUM(obj, PROP_SYSTEM), (zend_long) t.system_ns);
	ZVAL_LONG(OBJ_PROP_NUM(obj, PROP_IDLE), (zend_long) t.idle_ns);
	ZVAL_LONG(OBJ_PROP_NUM(obj, PROP_BUSY), (zend_long) t.busy_ns);
	ZVAL_LONG(OBJ_PROP_NUM(obj, PROP_CPU_COUNT), (zend_long) t.cpu_count);
}

ZEND_FUNCTION(Async_available_parallelism)
{
	ZEND_PARSE_PARAMETERS_NONE();
	uint32_t n = ZEND_ASYNC_AVAILABLE_PARALLELISM();
	RETURN_LONG(n > 0 ? n : 1);
}

zend_result async__cpu_minit(void)
{
	async__ce_cpu_snapshot = register_class_Async_CpuSnapshot();
	ZEND_ASSERT(async__ce_cpu_snapshot->default_properties_count == PROP_CPU_COUNT + 1);
	zend_register_functions(NULL, ext_functions, NULL, MODULE_PERSISTENT);
	return SUCCESS;
}

void async__cpu_rshutdown(void)
{
	if (ASYNC_G(cpu_snapshot) != NULL) {
		efree(ASYNC_G(cpu_snapshot));
		ASYNC_G(cpu_snapshot) = NULL;
	}
}
