/*
 * hooks/watchdog.c — async.block_warning_ms: names the coroutine that keeps the loop from running.
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
#include "hooks/hooks.h"
#include "core/core.h"
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

/* A request thread's watcher: the thread and where it looks (that request thread's globals).
 * One per request thread (ASYNC_G(watchdog)): on a thread-safe PHP each thread serving requests
 * has globals of its own, and a watcher reads only the globals of the thread that started it. */
struct _async_watchdog_s {
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
	watchdog_sample_t sample; /* the thread's findings, consumed by the interrupt function */
};

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
		: async__coroutine_info(&co->event);
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
static void report_here(async_watchdog_t *w, zend_execute_data *ex)
{
	ex = async__user_frame(ex);
	zend_function *internal = calling_internal(ex);
	zend_string *name = ex != NULL && ex->func->common.function_name != NULL ? get_function_or_method_name(ex->func) : NULL;
	zend_string *inside = internal != NULL ? get_function_or_method_name(internal) : NULL;
	report(ex != NULL ? ZSTR_VAL(ex->func->op_array.filename) : "",
		ex != NULL && ex->opline != NULL ? ex->opline->lineno : 0,
		name != NULL ? ZSTR_VAL(name) : "", inside != NULL ? ZSTR_VAL(inside) : "", w->sample.since_ns);
	if (name != NULL) {
		zend_string_release(name);
	}
	if (inside != NULL) {
		zend_string_release(inside);
	}
}

static void watchdog_interrupt(zend_execute_data *execute_data)
{
	async_watchdog_t *w = ASYNC_G(watchdog);
	int state = w != NULL ? __atomic_load_n(&w->sample.state, __ATOMIC_ACQUIRE) : SAMPLE_NONE;
	if (state == SAMPLE_REQUESTED
		&& __atomic_compare_exchange_n(&w->sample.state, &state, SAMPLE_NONE, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		report_here(w, execute_data);
	} else if (state == SAMPLE_COPYING || state == SAMPLE_COPIED) {
		/* the thread copied (or is copying) a stalled internal call's frame */
		while (__atomic_load_n(&w->sample.state, __ATOMIC_ACQUIRE) == SAMPLE_COPYING) {
			sched_yield();
		}
		watchdog_sample_t *sample = &w->sample;
		report(sample->file, sample->line, sample->function, sample->internal, sample->since_ns);
		__atomic_store_n(&sample->state, SAMPLE_NONE, __ATOMIC_RELEASE);
	}
	if (interrupt_prev != NULL) {
		interrupt_prev(execute_data);
	}
}

/* ---------------------------------------------------------------------------------------------
 * The watcher thread
 * ------------------------------------------------------------------------------------------- */

/* Copies n bytes from memory that may be gone: false instead of a fault. */
static bool probe_copy(async_watchdog_t *w, void *dst, const void *src, size_t n)
{
	if (src == NULL || write(w->probe[1], src, n) != (ssize_t) n) {
		return false;
	}
	return read(w->probe[0], dst, n) == (ssize_t) n;
}

static void probe_string(async_watchdog_t *w, char *dst, size_t cap, const zend_string *src)
{
	size_t len;
	dst[0] = '\0';
	if (src == NULL || !probe_copy(w, &len, &src->len, sizeof(len))) {
		return;
	}
	len = len < cap - 1 ? len : cap - 1;
	if (probe_copy(w, dst, src->val, len)) {
		dst[len] = '\0';
	} else {
		dst[0] = '\0';
	}
}

#define PROBE(dst, src) probe_copy(w, &(dst), (src), sizeof(dst))

/* The main thread is inside one internal call: its frame chain stands still. Only the fields
 * needed are copied, one by one (a struct's padding and an internal frame's opline are never
 * written). */
static void copy_stalled_frame(async_watchdog_t *w)
{
	watchdog_sample_t *sample = &w->sample;
	zend_execute_data *ex = NULL;
	sample->internal[0] = sample->function[0] = sample->file[0] = '\0';
	sample->line = 0;
	if (!PROBE(ex, w->current)) {
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
				probe_string(w, sample->internal, sizeof(sample->internal), name);
			}
			if (!PROBE(ex, &ex->prev_execute_data)) {
				return;
			}
			continue;
		}
		if (PROBE(name, &func->common.function_name) && name != NULL) {
			char method[sizeof(sample->function) / 2];
			if (PROBE(scope, &func->common.scope) && scope != NULL && PROBE(class_name, &scope->name)) {
				probe_string(w, sample->function, sizeof(sample->function) / 2, class_name);
			}
			probe_string(w, method, sizeof(method), name);
			if (sample->function[0] != '\0') {
				strcat(sample->function, "::");
			}
			strcat(sample->function, method);
		}
		if (PROBE(file, &func->op_array.filename)) {
			probe_string(w, sample->file, sizeof(sample->file), file);
		}
		if (PROBE(opline, &ex->opline) && PROBE(op.lineno, &opline->lineno)) {
			sample->line = op.lineno;
		}
		return;
	}
}

static void *watchdog_main(void *arg)
{
	async_watchdog_t *w = arg;
	uint64_t seen = UINT64_MAX, warned = UINT64_MAX;
	uint64_t changed_ns = async_monotonic_ns();
	while (!__atomic_load_n(&w->stop, __ATOMIC_RELAXED)) {
		zend_long limit = __atomic_load_n(w->limit_ms, __ATOMIC_RELAXED);
		uint64_t tick_ms = limit >= 8 ? (uint64_t) limit / 4 : 2;
		if (limit <= 0) {
			tick_ms = 100;
		}
		struct timespec ts = { (time_t) (tick_ms / 1000), (long) (tick_ms % 1000) * 1000000L };
		nanosleep(&ts, NULL);
		uint64_t seq = __atomic_load_n(w->switch_seq, __ATOMIC_RELAXED);
		uint64_t now = async_monotonic_ns();
		if (seq != seen || __atomic_load_n(w->in_reactor, __ATOMIC_RELAXED)
			|| !__atomic_load_n(w->launched, __ATOMIC_RELAXED)) {
			seen = seq;
			changed_ns = now;
			continue;
		}
		if (warned == seq) {
			/* interrupt raised this episode and not taken for a tick: one internal call runs */
			int expected = SAMPLE_REQUESTED;
			if (__atomic_compare_exchange_n(&w->sample.state, &expected, SAMPLE_COPYING, false,
					__ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
				copy_stalled_frame(w);
				__atomic_store_n(&w->sample.state, SAMPLE_COPIED, __ATOMIC_RELEASE);
			}
			continue;
		}
		if (limit <= 0 || now - changed_ns < (uint64_t) limit * 1000000u) {
			continue;
		}
		warned = seq;
		w->sample.since_ns = changed_ns;
		__atomic_store_n(&w->sample.state, SAMPLE_REQUESTED, __ATOMIC_RELEASE);
		zend_atomic_bool_store(w->vm_interrupt, true);
	}
	return NULL;
}

/* Started with the scheduler, when the setting is on (or turned on later in the request). */
void async__watchdog_start(void)
{
	async_watchdog_t *w = ASYNC_G(watchdog);
	if (ASYNC_G(block_warning_ms) <= 0 || (w != NULL && w->running && w->pid == getpid())) {
		return;
	}
	if (w == NULL) {
		/* persistent: it outlives requests, as its thread does */
		w = ASYNC_G(watchdog) = pecalloc(1, sizeof(*w), 1);
		w->probe[0] = w->probe[1] = -1;
	}
	if (w->probe[0] >= 0) {
		close(w->probe[0]); /* a fork child's copy of its parent's pipe */
		close(w->probe[1]);
	}
	if (pipe(w->probe) != 0) {
		w->probe[0] = w->probe[1] = -1;
		return;
	}
	for (int i = 0; i < 2; i++) {
		fcntl(w->probe[i], F_SETFD, FD_CLOEXEC);
		fcntl(w->probe[i], F_SETFL, O_NONBLOCK);
	}
	w->switch_seq = &ASYNC_G(switch_seq);
	w->in_reactor = &ASYNC_G(in_reactor_wait);
	w->launched = &ASYNC_G(launched);
	w->limit_ms = &ASYNC_G(block_warning_ms);
	w->current = &EG(current_execute_data);
	w->vm_interrupt = &EG(vm_interrupt);
	w->pid = getpid();
	__atomic_store_n(&w->stop, false, __ATOMIC_RELAXED);
	/* the thread must take no signal meant for the process */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	w->running = pthread_create(&w->thread, NULL, watchdog_main, w) == 0;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

void async__hook_watchdog_rinit(void)
{
	if (ASYNC_G(watchdog) != NULL) {
		__atomic_store_n(&ASYNC_G(watchdog)->sample.state, SAMPLE_NONE, __ATOMIC_RELEASE);
	}
	async__watchdog_start();
}

zend_result async__hook_watchdog_minit(void)
{
	interrupt_prev = zend_interrupt_function;
	zend_interrupt_function = watchdog_interrupt;
	return SUCCESS;
}

/* The thread of these globals ends (MSHUTDOWN for the main one; on a thread-safe PHP, GSHUTDOWN
 * for each thread that served requests): its watcher stops first, as it reads them. */
void async__watchdog_stop(async_watchdog_t **slot)
{
	async_watchdog_t *w = *slot;
	if (w == NULL) {
		return;
	}
	*slot = NULL;
	if (w->running && w->pid == getpid()) {
		__atomic_store_n(&w->stop, true, __ATOMIC_RELAXED);
		pthread_join(w->thread, NULL);
	}
	if (w->probe[0] >= 0 && w->pid == getpid()) {
		close(w->probe[0]);
		close(w->probe[1]);
	}
	pefree(w, 1);
}

void async__hook_watchdog_mshutdown(void)
{
	async__watchdog_stop(&ASYNC_G(watchdog));
	if (zend_interrupt_function == watchdog_interrupt) {
		zend_interrupt_function = interrupt_prev;
	}
}
