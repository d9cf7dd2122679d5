/*
 * cpu.c — Async\CpuSnapshot, Async\cpu_usage() and Async\loadavg().
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
#include "misc.h"

zend_class_entry *async_ce_cpu_snapshot;

typedef struct {
	uint64_t wall_ns;
	uint64_t user_ns;
	uint64_t system_ns;
	uint64_t idle_ns;
	uint64_t busy_ns;
	uint32_t cpu_count;
} async_cpu_times_t;

/* The stored snapshot of cpu_usage() (the runtime is NTS). */
static async_cpu_times_t stored;
static bool stored_valid;

/* The declaration order of CpuSnapshot's properties (misc.stub.php). */
enum { PROP_WALL, PROP_USER, PROP_SYSTEM, PROP_IDLE, PROP_BUSY, PROP_CPU_COUNT };

static uint64_t timeval_ns(const uv_timeval_t *tv)
{
	return (uint64_t) tv->tv_sec * 1000000000u + (uint64_t) tv->tv_usec * 1000u;
}

/* A source that cannot be read leaves its fields at zero. */
static void cpu_times_now(async_cpu_times_t *t)
{
	memset(t, 0, sizeof(*t));
	t->wall_ns = uv_hrtime();

	uv_rusage_t usage;
	if (uv_getrusage(&usage) == 0) {
		t->user_ns = timeval_ns(&usage.ru_utime);
		t->system_ns = timeval_ns(&usage.ru_stime);
	}

	uv_cpu_info_t *cpus;
	int count;
	if (uv_cpu_info(&cpus, &count) == 0) {
		for (int i = 0; i < count; i++) {
			const struct uv_cpu_times_s *c = &cpus[i].cpu_times;
			t->busy_ns += (c->user + c->nice + c->sys + c->irq) * 1000000u; /* ms */
			t->idle_ns += c->idle * 1000000u;
		}
		t->cpu_count = (uint32_t) count;
		uv_free_cpu_info(cpus, count);
	}
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
	uv_loadavg(avg);
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

	if (stored_valid) {
		uint64_t wall = delta(now.wall_ns, stored.wall_ns);
		uint64_t process = delta(now.user_ns + now.system_ns, stored.user_ns + stored.system_ns);
		uint64_t busy = delta(now.busy_ns, stored.busy_ns);
		uint64_t idle = delta(now.idle_ns, stored.idle_ns);
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
	stored = now;
	stored_valid = true;

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

	object_init_ex(return_value, async_ce_cpu_snapshot);
	zend_object *obj = Z_OBJ_P(return_value);
	ZVAL_LONG(OBJ_PROP_NUM(obj, PROP_WALL), (zend_long) t.wall_ns);
	ZVAL_LONG(OBJ_PROP_NUM(obj, PROP_USER), (zend_long) t.user_ns);
	ZVAL_LONG(OBJ_PROP_NUM(obj, PROP_SYSTEM), (zend_long) t.system_ns);
	ZVAL_LONG(OBJ_PROP_NUM(obj, PROP_IDLE), (zend_long) t.idle_ns);
	ZVAL_LONG(OBJ_PROP_NUM(obj, PROP_BUSY), (zend_long) t.busy_ns);
	ZVAL_LONG(OBJ_PROP_NUM(obj, PROP_CPU_COUNT), (zend_long) t.cpu_count);
}

void async_cpu_snapshot_register(zend_class_entry *ce)
{
	async_ce_cpu_snapshot = ce;
	ZEND_ASSERT(ce->default_properties_count == PROP_CPU_COUNT + 1);
}

void async_cpu_rshutdown(void)
{
	stored_valid = false;
}
