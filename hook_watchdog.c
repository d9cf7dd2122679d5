/*
 * hook_watchdog.c — async.block_warning_ms: names the coroutine that keeps the loop from running.
 *
 * A coroutine that runs for long without suspending (a CPU-bound loop, a blocking call nothing
 * hooks) stalls every other one. The scheduler counts switches (ASYNC_G(switch_seq): every switch
 * into a coroutine and back, every entry into and exit from the reactor); a watcher thread samples
 * that counter every quarter of the limit. When it has not moved for the limit and the loop is not
 * waiting in the reactor, the thread raises the engine's VM interrupt, once per episode:
 *
 *  - PHP code is running (a busy loop): the VM takes the interrupt at its next check, at once,
 *    and zend_interrupt_function (ours, chained) reports the current frame — file, line, function,
 *    and the internal function it is called from, if any (a callback inside curl_exec()).
 *  - one internal call is running (a blocking call, a long C computation): the interrupt is not
 *    taken for a whole tick. No VM code runs meanwhile, so the frame chain stands still; the thread
 *    copies what it needs from it (the internal function's name, the innermost PHP frame's file,
 *    line and function) through a pipe — write() answers EFAULT for memory that is gone instead of
 *    faulting, so a frame that changes under the copy costs a wrong name, never a crash. The
 *    report is made when the call returns and the VM takes the interrupt.
 *
 * No signal is sent: a signal would cut short the very sleep or poll() it interrupts (nanosleep
 * and poll are never restarted). Off (0, the default), no thread exists and the only cost is the
 * switch counter's increment.
 */
#include "php_async.h"
#include "hooks.h"
#include "coroutine.h"
#include <pthread.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>
#include <errno.h>

enum { SAMPLE_NONE, SAMPLE_REQUESTED, SAMPLE_COPYING, SAMPLE_COPIED };

/* What the thread copied from a stalled internal call (read by the main thread once COPIED). */
typedef struct {
	int state;               /* SAMPLE_*, atomic */
	uint64_t since_ns;       /* when the stalled coroutine last switched */
	uint32_t line;
	char internal[80];       /* the internal function running, "" if none */
	char function[160];      /* the innermost PHP function, "" for the script's top */
	char file[1024];         /* "" when no PHP frame */
} watchdog_sample_t;

/* per-process: the watcher thread and where it looks (the main thread's globals) */
static struct {
	pthread_t thread;
	pid_t pid;               /* the process that started the thread (a fork child has none) */
	bool running;
	bool stop;               /* atomic */
	int probe[2];            /* the pipe the thread copies memory through */
	uint64_t *switch_seq;
	bool *in_reactor;
	bool *launched;
	zend_long *limit_ms;
	zend_execute_data **current;
	zend_atomic_bool *vm_interrupt;
} watchdog = { .probe = { -1, -1 } };

/* per-process: the thread's findings, consumed by the interrupt function */
static watchdog_sample_t sample;

/* per-process: the interrupt function ours chains to, saved at MINIT */
static void (*interrupt_prev)(zend_execute_data *execute_data);

/* ---------------------------------------------------------------------------------------------
 * The main thread's side
 * ------------------------------------------------------------------------------------------- */

/* The nearest internal function the PHP code runs under (a callback inside array_map() or
 * curl_exec()); a frame with nothing below it is a coroutine's root, not a call. */
static zend_function *calling_internal(zend_execute_data *ex)
{
	for (ex = ex != NULL ? ex->prev_execute_data : NULL; ex != NULL; ex = ex->prev_execute_data) {
		if (ex->func != NULL && ex->func->type == ZEND_INTERNAL_FUNCTION && ex->prev_execute_data != NULL) {
			return ex->func;
		}
	}
	return NULL;
}

static void report(const char *file, uint32_t line, const char *function, const char *internal, uint64_t since_ns)
{
	uint64_t ran_ms = (async_monotonic_ns() - since_ns) / 1000000;
	zend_coroutine_t *co = ZEND_ASYNC_CURRENT_COROUTINE;
	zend_string *who = co == NULL ? zend_string_init("The main script", sizeof("The main script") - 1, 0)
		: ZEND_COROUTINE_IS_MAIN(co) ? zend_coroutine_gen_info(co, "Main coroutine")
		: async_coroutine_info(&co->event);
	const char *message = "%s has run for %" PRIu64 " ms without suspending (async.block_warning_ms="
		ZEND_LONG_FMT "): at %s:%u in %s%s%s%s%s";
	zend_long limit = ASYNC_G(block_warning_ms);
	const char *fn = function[0] != '\0' ? function : "{main}";
	const char *parens = function[0] != '\0' ? "()" : "";
	const char *inside = internal[0] != '\0' ? ", inside " : "";
	const char *in_parens = internal[0] != '\0' ? "()" : "";
	if (file[0] != '\0') {
		zend_string *at = zend_string_init(file, strlen(file), 0);
		zend_error_at(E_WARNING, at, line, message, ZSTR_VAL(who), ran_ms, limit, file, line,
			fn, parens, inside, internal, in_parens);
		zend_string_release(at);
	} else {
		zend_error(E_WARNING, message, ZSTR_VAL(who), ran_ms, limit, "[no PHP frame]", 0u,
			fn, parens, inside, internal, in_parens);
	}
	zend_string_release(who);
}

/* PHP code was running when the interrupt was raised: this frame is where it is. */
static void report_here(zend_execute_data *ex)
{
	ex = async_user_frame(ex);
	zend_function *internal = calling_internal(ex);
	zend_string *name = ex != NULL && ex->func->common.function_name != NULL ? get_function_or_method_name(ex->func) : NULL;
	zend_string *inside = internal != NULL ? get_function_or_method_name(internal) : NULL;
	report(ex != NULL ? ZSTR_VAL(ex->func->op_array.filename) : "",
		ex != NULL && ex->opline != NULL ? ex->opline->lineno : 0,
		name != NULL ? ZSTR_VAL(name) : "", inside != NULL ? ZSTR_VAL(inside) : "", sample.since_ns);
	if (name != NULL) {
		zend_string_release(name);
	}
	if (inside != NULL) {
		zend_string_release(inside);
	}
}

static void watchdog_interrupt(zend_execute_data *execute_data)
{
	int state = __atomic_load_n(&sample.state, __ATOMIC_ACQUIRE);
	if (state == SAMPLE_REQUESTED
		&& __atomic_compare_exchange_n(&sample.state, &state, SAMPLE_NONE, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		report_here(execute_data);
	} else if (state == SAMPLE_COPYING || state == SAMPLE_COPIED) {
		/* the thread copied (or is copying) a stalled internal call's frame */
		while (__atomic_load_n(&sample.state, __ATOMIC_ACQUIRE) == SAMPLE_COPYING) {
			sched_yield();
		}
		report(sample.file, sample.line, sample.function, sample.internal, sample.since_ns);
		__atomic_store_n(&sample.state, SAMPLE_NONE, __ATOMIC_RELEASE);
	}
	if (interrupt_prev != NULL) {
		interrupt_prev(execute_data);
	}
}

/* ---------------------------------------------------------------------------------------------
 * The watcher thread
 * ------------------------------------------------------------------------------------------- */

/* Copies n bytes from memory that may be gone: false instead of a fault. */
static bool probe_copy(void *dst, const void *src, size_t n)
{
	if (src == NULL || write(watchdog.probe[1], src, n) != (ssize_t) n) {
		return false;
	}
	return read(watchdog.probe[0], dst, n) == (ssize_t) n;
}

static void probe_string(char *dst, size_t cap, const zend_string *src)
{
	size_t len;
	dst[0] = '\0';
	if (src == NULL || !probe_copy(&len, &src->len, sizeof(len))) {
		return;
	}
	len = len < cap - 1 ? len : cap - 1;
	if (probe_copy(dst, src->val, len)) {
		dst[len] = '\0';
	} else {
		dst[0] = '\0';
	}
}

#define PROBE(dst, src) probe_copy(&(dst), (src), sizeof(dst))

/* The main thread is inside one internal call: its frame chain stands still. Only the fields
 * needed are copied, one by one (a struct's padding and an internal frame's opline are never
 * written). */
static void copy_stalled_frame(void)
{
	zend_execute_data *ex = NULL;
	sample.internal[0] = sample.function[0] = sample.file[0] = '\0';
	sample.line = 0;
	if (!PROBE(ex, watchdog.current)) {
		return;
	}
	for (int depth = 0; ex != NULL && depth < 256; depth++) {
		zend_function *func;
		zend_uchar type;
		zend_string *name, *file, *class_name = NULL;
		zend_class_entry *scope;
		const zend_op *opline;
		zend_op op;
		if (!PROBE(func, &ex->func) || func == NULL || !PROBE(type, &func->type)) {
			return;
		}
		if (type != ZEND_USER_FUNCTION && type != ZEND_EVAL_CODE) {
			if (type == ZEND_INTERNAL_FUNCTION && depth == 0 && PROBE(name, &func->common.function_name)) {
				probe_string(sample.internal, sizeof(sample.internal), name);
			}
			if (!PROBE(ex, &ex->prev_execute_data)) {
				return;
			}
			continue;
		}
		if (PROBE(name, &func->common.function_name) && name != NULL) {
			char method[sizeof(sample.function) / 2];
			if (PROBE(scope, &func->common.scope) && scope != NULL && PROBE(class_name, &scope->name)) {
				probe_string(sample.function, sizeof(sample.function) / 2, class_name);
			}
			probe_string(method, sizeof(method), name);
			if (sample.function[0] != '\0') {
				strcat(sample.function, "::");
			}
			strcat(sample.function, method);
		}
		if (PROBE(file, &func->op_array.filename)) {
			probe_string(sample.file, sizeof(sample.file), file);
		}
		if (PROBE(opline, &ex->opline) && PROBE(op.lineno, &opline->lineno)) {
			sample.line = op.lineno;
		}
		return;
	}
}

static void *watchdog_main(void *arg)
{
	(void) arg;
	uint64_t seen = UINT64_MAX, warned = UINT64_MAX;
	uint64_t changed_ns = async_monotonic_ns();
	while (!__atomic_load_n(&watchdog.stop, __ATOMIC_RELAXED)) {
		zend_long limit = __atomic_load_n(watchdog.limit_ms, __ATOMIC_RELAXED);
		uint64_t tick_ms = limit >= 8 ? (uint64_t) limit / 4 : 2;
		if (limit <= 0) {
			tick_ms = 100;
		}
		struct timespec ts = { (time_t) (tick_ms / 1000), (long) (tick_ms % 1000) * 1000000L };
		nanosleep(&ts, NULL);
		uint64_t seq = __atomic_load_n(watchdog.switch_seq, __ATOMIC_RELAXED);
		uint64_t now = async_monotonic_ns();
		if (seq != seen || __atomic_load_n(watchdog.in_reactor, __ATOMIC_RELAXED)
			|| !__atomic_load_n(watchdog.launched, __ATOMIC_RELAXED)) {
			seen = seq;
			changed_ns = now;
			continue;
		}
		if (warned == seq) {
			/* interrupt raised this episode and not taken for a tick: one internal call runs */
			int expected = SAMPLE_REQUESTED;
			if (__atomic_compare_exchange_n(&sample.state, &expected, SAMPLE_COPYING, false,
					__ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
				copy_stalled_frame();
				__atomic_store_n(&sample.state, SAMPLE_COPIED, __ATOMIC_RELEASE);
			}
			continue;
		}
		if (limit <= 0 || now - changed_ns < (uint64_t) limit * 1000000u) {
			continue;
		}
		warned = seq;
		sample.since_ns = changed_ns;
		__atomic_store_n(&sample.state, SAMPLE_REQUESTED, __ATOMIC_RELEASE);
		zend_atomic_bool_store(watchdog.vm_interrupt, true);
	}
	return NULL;
}

/* Started with the scheduler, when the setting is on (or turned on later in the request). */
void async_watchdog_start(void)
{
	if (ASYNC_G(block_warning_ms) <= 0 || (watchdog.running && watchdog.pid == getpid())) {
		return;
	}
	if (watchdog.probe[0] >= 0) {
		close(watchdog.probe[0]); /* a fork child's copy of its parent's pipe */
		close(watchdog.probe[1]);
	}
	if (pipe(watchdog.probe) != 0) {
		watchdog.probe[0] = watchdog.probe[1] = -1;
		return;
	}
	for (int i = 0; i < 2; i++) {
		fcntl(watchdog.probe[i], F_SETFD, FD_CLOEXEC);
		fcntl(watchdog.probe[i], F_SETFL, O_NONBLOCK);
	}
	watchdog.switch_seq = &ASYNC_G(switch_seq);
	watchdog.in_reactor = &ASYNC_G(in_reactor_wait);
	watchdog.launched = &ASYNC_G(launched);
	watchdog.limit_ms = &ASYNC_G(block_warning_ms);
	watchdog.current = &EG(current_execute_data);
	watchdog.vm_interrupt = &EG(vm_interrupt);
	watchdog.pid = getpid();
	__atomic_store_n(&watchdog.stop, false, __ATOMIC_RELAXED);
	/* the thread must take no signal meant for the process */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	watchdog.running = pthread_create(&watchdog.thread, NULL, watchdog_main, NULL) == 0;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

void async_watchdog_rinit(void)
{
	__atomic_store_n(&sample.state, SAMPLE_NONE, __ATOMIC_RELEASE);
	async_watchdog_start();
}

void async_watchdog_minit(void)
{
	interrupt_prev = zend_interrupt_function;
	zend_interrupt_function = watchdog_interrupt;
}

void async_watchdog_mshutdown(void)
{
	if (watchdog.running && watchdog.pid == getpid()) {
		__atomic_store_n(&watchdog.stop, true, __ATOMIC_RELAXED);
		pthread_join(watchdog.thread, NULL);
		close(watchdog.probe[0]);
		close(watchdog.probe[1]);
		watchdog.probe[0] = watchdog.probe[1] = -1;
	}
	watchdog.running = false;
	if (zend_interrupt_function == watchdog_interrupt) {
		zend_interrupt_function = interrupt_prev;
	}
}
