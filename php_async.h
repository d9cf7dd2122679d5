/*
 * php_async.h — the module entry and the module's globals (ASYNC_G), nothing else. Every
 * per-request variable of the runtime is a field here; each layer declares its own functions in
 * its own header (see docs/architecture.md).
 */
#ifndef PHP_ASYNC_H
#define PHP_ASYNC_H

#include "php.h"
#include "zend_fibers.h"
#include "zend_async_API.h"
#include "async_ring.h"

#define PHP_ASYNC_VERSION "0.1.0"
#define PHP_ASYNC_NAME "async"

extern zend_module_entry async_module_entry;
#define phpext_async_ptr &async_module_entry

/* The runtime's own structs, named here only as pointers (core/core.h defines them). */
typedef struct _async_coroutine_s async_coroutine_t;
typedef struct _async_worker_s async_worker_t;
typedef struct _async_watchdog_s async_watchdog_t;
struct uv_loop_s;

ZEND_BEGIN_MODULE_GLOBALS(async)
	/* INI */
	bool debug_deadlock;
	zend_long vm_stack_size;
	zend_long context_pool_size;
	zend_long max_contexts;
	zend_long schedule_seed;
	zend_long shutdown_timeout;      /* ms after the script; -1 = per SAPI (scheduler.c) */
	zend_long block_warning_ms;      /* the watchdog's limit; 0 = off (hooks/watchdog.c) */
	char *dump_on_signal;            /* "SIGQUIT", a number, or "" = off (hooks/dump.c) */
	zend_long pgsql_cancel_grace_ms; /* a cancelled query's cancel request and answer (hooks/pgsql_cancel.c) */
	/* scheduler */
	async_ring_t run_queue;          /* zend_coroutine_t *, FIFO (scheduler.c) */
	uint32_t batch_left;             /* entries of the running batch not yet taken (scheduler.c) */
	uint32_t handoff_budget;         /* direct hand-offs the running batch may still make (scheduler.c) */
	uint32_t alive_skipped;          /* passes since the loop's liveness was last asked (scheduler.c) */
	uint32_t hidden_event_count;     /* started hidden events: unreferenced handles that can fire (libuv_reactor.c) */
	async_coroutine_t *handoff_last; /* reached by the last hand-off, with its queue reference (coroutine.c) */
	async_worker_t *dying_worker;    /* a worker whose context ended, for its resumer to retire (coroutine.c) */
	zend_async_microtask_t **microtasks;
	uint32_t microtasks_length, microtasks_capacity;
	async_list_t live;               /* live (unfinished) coroutines in spawn order, main first (core/core.h) */
	uint32_t walk_pass;              /* numbers the walks of the live list (coroutine.c) */
	async_coroutine_t *main;
	bool launched;
	bool drain_registered;
	bool main_finished;
	bool main_resumed;               /* the run loop popped the main coroutine */
	bool in_drain;
	bool exit_requested;
	uint64_t switch_seq;             /* counts switches and reactor entries/exits: the watchdog reads it */
	bool in_reactor_wait;            /* the loop blocks in the reactor (the watchdog stays quiet) */
	async_watchdog_t *watchdog;      /* this thread's watcher, when started; persistent (hooks/watchdog.c) */
	zend_execute_data *main_frame;   /* main's frames while it waits in the scheduler (the dump) */
	struct _async_clock_s *clocks;   /* live virtual clocks, newest first (clock.c) */
	struct _async_clock_s *clock_firing; /* the clock whose timer's callbacks run now (clock.c) */
	HashTable *autoloading;          /* lc class name -> the coroutine autoloading it (coroutine_autoload.c) */
	uint64_t rng_state;
	zend_ulong coroutines_total;
	uint32_t request_serial;         /* counts requests: state kept across them knows which is current */
	/* the bounded request end (scheduler.c) */
	uint64_t drain_started_ms;       /* reactor time when the first drain began; 0 = not yet */
	uint8_t shutdown_phase;          /* running, cancel due, cancelled, abandon due, abandoned */
	zend_async_timer_event_t *shutdown_timer;
	/* the drain's frame: the main script as observers and error locations see it (scheduler.c) */
	zend_execute_data drain_frame;
	zend_op_array drain_op_array;
	zend_op drain_op;
	/* contexts */
	async_worker_t *free_workers;
	uint32_t free_workers_count;
	uint32_t live_contexts;
	zend_ini_entry *error_reporting_ini; /* read for each new coroutine (coroutine.c) */
	char error_reporting_text[24];       /* the value last parsed from it, and what it gave */
	uint8_t error_reporting_len;         /* (0: none yet) */
	zend_long error_reporting_parsed;
	bool use_stack_arena;            /* C stacks from stack_arena.c (async.stack_arena) */
	zend_long stack_guards;          /* async.stack_guards: stacks with a guard page; -1 = auto */
	HashTable *scopes_with_finally;  /* scopes whose finally handlers have not run, for after a fatal error (scope.c) */
	bool fatal_in_coroutine;         /* a coroutine died of a fatal error: the drain closes every scope (scheduler.c) */
	bool drain_deferred;             /* ... and, the script's shutdown having begun, went to the end of the shutdown functions */
	/* primitives */
	struct _async_channel_s *soft_channels;    /* channels with soft timeouts (channel.c) */
	async_list_t signal_waits;                 /* pending Async\signal() waits (signal.c) */
	struct _async_cpu_times_s *cpu_snapshot;   /* cpu_usage()'s last snapshot, lazily (cpu.c) */
	struct _async_passthrough_s *passthrough_head, *passthrough_tail; /* future.c */
	bool passthrough_draining;
	/* hooks */
	zend_async_trigger_event_t *signal_trigger; /* wakes the loop for pcntl_signal() handlers (hooks/pcntl.c) */
	HashTable *curl_drivers;         /* CURL * -> its handle's multi for curl_exec() (hooks/curl.c) */
	HashTable *pgsql_conns;          /* PGconn * -> its turn, while it lives (hooks/pgsql_conn.c) */
	HashTable *pgsql_calls;          /* coroutine -> its innermost libpq call (hooks/pgsql_conn.c) */
	async_list_t pgsql_states;       /* every connection state of the request (hooks/pgsql_conn.c) */
	HashTable *pdo_templates;        /* template object handle -> async_pdo_tpl_t * (hooks/pdo_pool.c) */
	HashTable *pdo_views;            /* coroutine -> its first PDO pool view (hooks/pdo_pool_conn.c) */
	HashTable *pdo_stmts;            /* statement handle -> the pooled connection it pins (hooks/pdo_pool_conn.c) */
	HashTable *pdo_cached;           /* statement handle -> its place in a statement cache (hooks/pdo_pool_stmt.c) */
	HashTable *pgsql_closed;         /* PGconn * finished in this request, until reused (hooks/pgsql_conn.c) */
	zend_execute_data *pgsql_quiet_frame;  /* a driver function a cancellation returned into (hooks/pgsql_conn.c) */
	zend_object *pgsql_quiet_exception;    /* ... and that cancellation, pending (NULL: a connect's, deferred) */
	HashTable *curl_busy;            /* CURLM * -> who is inside, waits for, selects on a multi (hooks/curl.c) */
	HashTable *stdio_streams;        /* php_stream * -> its timeout and waiters (hooks/stdio.c) */
	HashTable *stdio_locks;          /* device+inode -> coroutines waiting in flock(), in order (hooks/stdio_lock.c) */
	zend_ulong stdio_lock_serial;    /* ids of those waiters (hooks/stdio_lock.c) */
	HashTable *stdio_copying;         /* coroutines inside copy(): their casts to a descriptor fail (hooks/stdio_files.c) */
	zend_coroutine_t *stdio_budget_co; /* who last did file I/O, and since when (hooks/stdio_files.c) */
	uint64_t stdio_budget_start;
	HashTable *persistent_cos;       /* coroutine -> the persistent entries it holds (hooks/persistent.c) */
	HashTable *persistent_objs;      /* PDO object handle -> the held entry it uses (hooks/persistent.c) */
	HashTable *persistent_turns;     /* key -> the PDO constructions of it, in turn (hooks/persistent.c) */
	zend_coroutine_t *persistent_opening; /* inside pfsockopen()/stream_socket_client(), until the factory (hooks/persistent.c) */
	zend_ulong persistent_serial;    /* numbers the private keys of held entries (hooks/persistent.c) */
	/* reactor */
	struct uv_loop_s *loop;          /* the request's loop (libuv_reactor.c) */
	struct _async_timer_batch_s *timer_batch_open;   /* the newest shared batch, joinable (reactor/timer.c) */
	struct _async_timer_batch_s *timer_batch_firing; /* the batch whose callbacks run now */
	struct _async_timer_batch_s *timer_batch_free;   /* parked batches for reuse */
	uint32_t timer_batch_free_count;
	HashTable *fd_polls;             /* descriptor -> its shared poll (reactor/poll.c) */
	struct _async_poll_s **unapplied_polls; /* untracked watches started since the loop last ran (reactor/poll.c) */
	uint32_t unapplied_polls_count, unapplied_polls_size;
	async_list_t dns_in_flight;      /* lookups libuv still owns (reactor/dns.c) */
	async_list_t work_in_flight;     /* thread-pool work libuv still owns (reactor/work.c) */
	async_list_t signals_armed;      /* armed signal events (reactor/signal.c) */
	async_list_t fs_events;          /* live filesystem events, their handles open (reactor/fs_event.c) */
ZEND_END_MODULE_GLOBALS(async)

ZEND_EXTERN_MODULE_GLOBALS(async)
#define ASYNC_G(v) ZEND_MODULE_GLOBALS_ACCESSOR(async, v)

/* Real monotonic time in ns, whatever virtual-time bubble runs (time budgets, the watchdog's
 * thread). Deadlines that pair with reactor timers read async_reactor_hrtime() instead. */
static zend_always_inline uint64_t async_monotonic_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

/* A switch happened (into or out of a coroutine, into or out of the reactor): the watchdog's
 * thread reads the counter, so the store is atomic; relaxed costs what a plain increment does. */
#define ASYNC_SWITCHED() \
	__atomic_store_n(&ASYNC_G(switch_seq), ASYNC_G(switch_seq) + 1, __ATOMIC_RELAXED)

#endif /* PHP_ASYNC_H */
