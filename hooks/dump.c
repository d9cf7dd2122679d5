/*
 * hooks/dump.c — async.dump_on_signal: every coroutine's trace and wait, on a signal (as Go does on
 * SIGQUIT).
 *
 * The handler (installed through zend_sigaction(), so PHP's deferral of signals inside critical
 * sections applies) only notes the request, raises the VM interrupt and wakes the loop through a
 * trigger event (uv_async_send() underneath, async-signal-safe). Whichever comes first does the
 * dump on the main thread: the interrupt, when PHP code is running (a coroutine busy in a loop is
 * shown running, where it is), or the trigger's callback, when the loop waits in the reactor. The
 * dump goes through PHP's error channel — one E_WARNING heading it, one per coroutine with its
 * state, what it waits for and its trace — so display_errors, log_errors and error_log decide
 * where it ends up. The process keeps running.
 */
#include "php_async.h"
#include "hooks/hooks.h"
#include "core/core.h"
#include "zend_builtin_functions.h"
#include "zend_exceptions.h"
#include <signal.h>

/* per-process: the signal handled, the action it replaced, and a dump asked for */
static struct {
	int signo;
	struct sigaction previous;
	volatile sig_atomic_t pending;
	zend_async_trigger_event_t *trigger; /* the current request's */
} dump = { 0 };

/* per-process: the interrupt function ours chains to, saved at MINIT */
static void (*interrupt_prev)(zend_execute_data *execute_data);

static const struct { const char *name; int signo; } signal_names[] = {
	{ "HUP", SIGHUP }, { "INT", SIGINT }, { "QUIT", SIGQUIT }, { "USR1", SIGUSR1 },
	{ "USR2", SIGUSR2 }, { "TERM", SIGTERM }, { "WINCH", SIGWINCH }, { "PWR", SIGPWR },
};

int async__dump_parse_signal(const char *value)
{
	if (value == NULL || value[0] == '\0' || strcmp(value, "0") == 0) {
		return 0;
	}
	if (value[0] >= '0' && value[0] <= '9') {
		char *end;
		long n = strtol(value, &end, 10);
		bool usable = *end == '\0' && n > 0 && n < NSIG && n != SIGKILL && n != SIGSTOP
			&& n != SIGSEGV && n != SIGBUS && n != SIGFPE && n != SIGILL && n != SIGABRT && n != SIGCHLD;
		return usable ? (int) n : -1;
	}
	const char *name = strncasecmp(value, "SIG", 3) == 0 ? value + 3 : value;
	for (size_t i = 0; i < sizeof(signal_names) / sizeof(signal_names[0]); i++) {
		if (strcasecmp(name, signal_names[i].name) == 0) {
			return signal_names[i].signo;
		}
	}
	return -1;
}

/* ---------------------------------------------------------------------------------------------
 * The dump (main thread)
 * ------------------------------------------------------------------------------------------- */

static zend_string *trace_of(zend_execute_data *frames)
{
	if (frames == NULL) {
		return zend_string_init("(no PHP frames)", sizeof("(no PHP frames)") - 1, 0);
	}
	zval trace;
	zend_execute_data *saved = EG(current_execute_data);
	EG(current_execute_data) = frames;
	zend_fetch_debug_backtrace(&trace, 0, 0, 0);
	EG(current_execute_data) = saved;
	zend_string *text = zend_trace_to_string(Z_ARRVAL(trace), true);
	zval_ptr_dtor(&trace);
	return text;
}

static void dump_one(async_coroutine_t *co, bool in_scheduler)
{
	zend_coroutine_t *coro = &co->coro;
	bool main = ZEND_COROUTINE_IS_MAIN(coro);
	bool running = coro == ZEND_ASYNC_CURRENT_COROUTINE && !in_scheduler;
	zend_string *info = main ? zend_coroutine_gen_info(coro, "Main coroutine") : async__coroutine_info(&coro->event);
	zend_execute_data *frames = running ? EG(current_execute_data)
		: main ? ASYNC_G(main_frame)
		: ZEND_COROUTINE_SUSPENDED(coro) ? co->execute_data : NULL;
	zend_string *state;
	if (running) {
		zend_execute_data *ex = async__user_frame(frames);
		state = ex != NULL && ex->opline != NULL
			? zend_strpprintf(0, "running at %s:%u", ZSTR_VAL(ex->func->op_array.filename), ex->opline->lineno)
			: zend_string_init("running", sizeof("running") - 1, 0);
	} else if (coro->waker != NULL && coro->waker->status == ZEND_ASYNC_WAKER_WAITING) {
		zend_string *what = async__scheduler_wait_info(coro);
		state = zend_strpprintf(0, "waits for %s", ZSTR_VAL(what));
		zend_string_release(what);
	} else if (ZEND_COROUTINE_IS_STARTED(coro)) {
		state = zend_string_init("queued to resume", sizeof("queued to resume") - 1, 0);
	} else {
		state = zend_string_init("not started", sizeof("not started") - 1, 0);
	}
	zend_string *trace = trace_of(frames);
	zend_error(E_WARNING, "%s: %s\n%s", ZSTR_VAL(info), ZSTR_VAL(state), ZSTR_VAL(trace));
	zend_string_release(trace);
	zend_string_release(state);
	zend_string_release(info);
}

static void dump_all(bool in_scheduler)
{
	dump.pending = 0;
	if (!ASYNC_G(launched)) {
		zend_string *trace = trace_of(EG(current_execute_data));
		zend_error(E_WARNING, "Coroutine dump on signal %d: the scheduler has not started; the script is running\n%s",
			dump.signo, ZSTR_VAL(trace));
		zend_string_release(trace);
		return;
	}
	uint32_t n = 0;
	ASYNC_LIVE_FOREACH(co) {
		n += !(ZEND_COROUTINE_IS_MAIN(&co->coro) && ASYNC_G(main_finished));
	}
	zend_error(E_WARNING, "Coroutine dump on signal %d: %u coroutine%s", dump.signo, n, n == 1 ? "" : "s");
	async_live_walk_t walk; /* a user error handler may run */
	for (async_coroutine_t *co = async__live_walk_first(&walk); co != NULL; co = async__live_walk_next(&walk)) {
		if (!(ZEND_COROUTINE_IS_MAIN(&co->coro) && ASYNC_G(main_finished))) {
			dump_one(co, in_scheduler);
		}
	}
}

static void dump_interrupt(zend_execute_data *execute_data)
{
	if (dump.pending && !ZEND_ASYNC_G(in_scheduler_context)) {
		dump_all(false);
	}
	if (interrupt_prev != NULL) {
		interrupt_prev(execute_data);
	}
}

static void dump_woke(zend_async_event_t *event, zend_async_event_callback_t *callback,
	void *result, zend_object *exception)
{
	(void) event; (void) callback; (void) result; (void) exception;
	if (dump.pending) {
		dump_all(true);
	}
}

/* ---------------------------------------------------------------------------------------------
 * The signal
 * ------------------------------------------------------------------------------------------- */

static void dump_signal_handler(int signo, siginfo_t *info, void *context)
{
	(void) signo; (void) info; (void) context;
	dump.pending = 1;
	zend_atomic_bool_store_ex(&EG(vm_interrupt), true);
	if (dump.trigger != NULL) {
		dump.trigger->trigger(dump.trigger);
	}
}

void async__hook_dump_rinit(void)
{
	int signo = async__dump_parse_signal(ASYNC_G(dump_on_signal));
	dump.pending = 0;
	if (signo <= 0) {
		return;
	}
	zend_async_trigger_event_t *trigger = ZEND_ASYNC_NEW_TRIGGER_EVENT();
	if (trigger == NULL) {
		zend_clear_exception();
		return;
	}
	ZEND_ASYNC_EVENT_SET(&trigger->base, ZEND_ASYNC_EVENT_F_HIDDEN);
	zend_async_event_callback_t *cb = ZEND_ASYNC_EVENT_CALLBACK(dump_woke);
	trigger->base.add_callback(&trigger->base, cb);
	ZEND_ASYNC_EVENT_CALLBACK_RELEASE(cb);
	dump.trigger = trigger;

	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = dump_signal_handler;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	zend_sigaction(signo, &sa, &dump.previous);
	dump.signo = signo;
}

/* Before the reactor goes: the signal's previous action comes back, then the trigger goes. */
void async__hook_dump_rshutdown(void)
{
	if (dump.signo > 0) {
		zend_sigaction(dump.signo, &dump.previous, NULL);
		dump.signo = 0;
	}
	zend_async_trigger_event_t *trigger = dump.trigger;
	dump.trigger = NULL;
	if (trigger != NULL) {
		ZEND_ASYNC_EVENT_RELEASE(&trigger->base);
	}
}

zend_result async__hook_dump_minit(void)
{
	interrupt_prev = zend_interrupt_function;
	zend_interrupt_function = dump_interrupt;
	return SUCCESS;
}

void async__hook_dump_mshutdown(void)
{
	if (zend_interrupt_function == dump_interrupt) {
		zend_interrupt_function = interrupt_prev;
	}
}
