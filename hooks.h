/*
 * hooks.h — the hook layer: PHP's own functions and stream transports made to suspend only the
 * calling coroutine (hook_*.c). Each hook is written as another extension would write it: it
 * waits through the descriptor-wait API (async_io_wait.h), the one wait path (async_wait.h) and the
 * ABI's events, and behaves exactly as stock PHP outside a coroutine.
 */
#ifndef ASYNC_HOOKS_H
#define ASYNC_HOOKS_H

#include "php.h"
#include "php_network.h"
#include "zend_async_API.h"

/* ---------------------------------------------------------------------------------------------
 * hook_functions.c: replacing the handlers of PHP's own functions in the function table
 * ------------------------------------------------------------------------------------------- */

/* One function made coroutine-aware: `original` is filled at install and is what the
 * replacement calls outside a coroutine. */
typedef struct {
	const char *name;
	zif_handler replacement;
	zif_handler original;
} async_function_hook_t;

/* MINIT (P18): functions that are missing (an extension not loaded) are left alone. */
void async_function_hooks_install(async_function_hook_t *hooks, size_t count);
/* MSHUTDOWN: the original handlers go back. */
void async_function_hooks_uninstall(async_function_hook_t *hooks, size_t count);

/* ---------------------------------------------------------------------------------------------
 * Each hook file's entry points (MINIT / MSHUTDOWN / RINIT)
 * ------------------------------------------------------------------------------------------- */

/* hook_sleep.c: sleep(), usleep(), time_nanosleep(), time_sleep_until() */
void async_sleep_hooks_install(void);
void async_sleep_hooks_uninstall(void);

/* hook_dns.c: gethostbyname(), gethostbynamel(), gethostbyaddr() */
void async_dns_hooks_install(void);
void async_dns_hooks_uninstall(void);

/* hook_sockets.c: ext/sockets (nothing happens when it is not loaded) */
void async_sockets_hooks_install(void);
void async_sockets_hooks_uninstall(void);
void async_sockets_hooks_rinit(void);

/* hook_stream_transport.c: the tcp/udp/unix/udg and TLS transports (wrapped at MINIT, put back
 * at MSHUTDOWN), and stream_socket_pair() */
void async_net_transports_install(void);
void async_net_transports_uninstall(void);

/* hook_pcntl.c: pcntl_fork() (refused while other coroutines live; the child re-arms the loop)
 * and pcntl_signal() (its handlers wake a loop blocked in the reactor); request end drops the
 * trigger those wake-ups use (before the reactor shuts down). */
void async_pcntl_hooks_install(void);
void async_pcntl_hooks_uninstall(void);
void async_pcntl_rshutdown(void);

/* hook_curl.c: curl_exec() and curl_multi_select() (nothing happens when ext/curl is not loaded,
 * or when this build has no libcurl headers); rinit checks ext/curl's layout once per process;
 * rshutdown drops the handles' multi handles (before the poll registry goes). */
void async_curl_hooks_install(void);
void async_curl_hooks_uninstall(void);
void async_curl_hooks_rinit(void);
void async_curl_hooks_rshutdown(void);

/* hook_pgsql.c: ext/pgsql and pdo_pgsql (nothing happens when neither is loaded, or when this
 * build has no libpq headers): libpq's waits and the drivers' calls into libpq redirected at
 * MINIT, put back at MSHUTDOWN; rinit warns once when they could not be; rshutdown cancels what
 * coroutines were left inside (before the poll registry goes). */
void async_pgsql_hooks_install(void);
void async_pgsql_hooks_uninstall(void);
void async_pgsql_hooks_rinit(void);
void async_pgsql_hooks_rshutdown(void);

/* hook_pdo_pool.c: PDO::ATTR_POOL_* and PDO::getPool() on PHP's own PDO class (nothing happens
 * when pdo is not loaded, or when this build had no PDO headers); rshutdown closes the pools and
 * leaves what lives on to PHP (before the reactor goes). */
void async_pdo_pool_install(void);
void async_pdo_pool_uninstall(void);
void async_pdo_pool_rshutdown(void);

/* hook_persistent.c: persistent connections held by one coroutine at a time (pfsockopen(),
 * stream_socket_client() with STREAM_CLIENT_PERSISTENT, PDO::ATTR_PERSISTENT): while a coroutine
 * holds one, its entry of EG(persistent_list) is under a private key, so a concurrent open of the
 * key makes another connection; released when closed or when the holder ends, put back under its
 * key (or a spare key) at the latest at rshutdown (before the reactor goes). */
void async_persistent_install(void);
void async_persistent_uninstall(void);
void async_persistent_rshutdown(void);
/* The transport factory made `stream` (registered under persistent_id when that is not NULL):
 * called by hook_stream_transport.c before the connect can suspend. */
void async_persistent_stream_made(php_stream *stream, const char *persistent_id);
/* PDO::__construct() / PDO::connect() of PHP (`orig`) with PDO::ATTR_PERSISTENT taken care of:
 * constructions of one key take turns, and the connection is held by the calling coroutine until
 * its PDO objects are freed or it ends (hook_pdo_pool.c calls it). */
void async_persistent_pdo_construct(INTERNAL_FUNCTION_PARAMETERS, zif_handler orig);

/* hook_exec.c: exec(), system(), passthru(), shell_exec() (and the backtick operator): inside a
 * coroutine the command runs under /bin/sh -c with a pipe read through the descriptor-wait API,
 * and its exit is waited for on the reactor's process event. */
void async_exec_hooks_install(void);
void async_exec_hooks_uninstall(void);

/* hook_proc_wait.c: proc_close(), pclose(), pcntl_waitpid(), pcntl_wait(): wait for the child's
 * exit without reaping it, then PHP's own function reaps it. */
void async_proc_wait_hooks_install(void);
void async_proc_wait_hooks_uninstall(void);

/* hook_stdio.c: PHP's stdio streams (files, pipes, FIFOs, TTYs) and flock(), patched into
 * php_stream_stdio_ops at MINIT, put back at MSHUTDOWN; rshutdown drops per-stream state. */
void async_stdio_hooks_install(void);
void async_stdio_hooks_uninstall(void);
void async_stdio_hooks_rshutdown(void);

/* hook_stream_select.c: stream_select() */
void async_net_functions_install(void);
void async_net_functions_uninstall(void);

/* ---------------------------------------------------------------------------------------------
 * What the hooks share
 * ------------------------------------------------------------------------------------------- */

/* hook_stream_transport.c: makes a socket stream coroutine-aware (one made outside the
 * transports, e.g. by stream_socket_pair()). Persistent streams and streams already wrapped are
 * left alone. */
void async_net_stream_wrap(php_stream *stream);

/* hook_dns.c: whether the caller may suspend for a lookup (inside a coroutine, switching
 * allowed). */
bool async_dns_can_wait(void);
/* Waits for a lookup event created by the caller. true when it completed (read
 * async_dns_status()); false with an exception (the coroutine was cancelled, ...). The caller
 * keeps its reference. */
bool async_dns_wait(zend_async_event_t *event);
/* getaddrinfo() for the current coroutine: the same contract as getaddrinfo(3) (returns 0 or an
 * EAI_* code, *res to be freed with ZEND_ASYNC_FREEADDRINFO), or -1 with an exception set when the
 * wait was interrupted. Only call when async_dns_can_wait(). */
int async_dns_getaddrinfo(const char *node, const char *service, const struct addrinfo *hints, struct addrinfo **res);
/* An IPv4 or IPv6 address written out: no resolver is ever asked for it. */
bool async_dns_is_literal_address(const char *host);
/* php_network_getaddresses() with the lookup on the thread pool while the coroutine waits: the
 * same hints, result, warnings and *error_string. Outside a coroutine, and for literal addresses
 * (which never reach a resolver), it is PHP's own function. 0 with an exception when the wait was
 * interrupted (the coroutine was cancelled). */
int async_dns_network_getaddresses(const char *host, int socktype, struct sockaddr ***sal, zend_string **error_string);

/* hook_proc_wait.c: suspends the current coroutine until the child `pid` has exited (it is not
 * reaped: the caller's waitpid() then returns at once). True at once when it has exited already
 * or is not ours to wait for; false with an exception (the coroutine was cancelled). Only call
 * when async_io_can_wait(). */
bool async_child_wait_exit(pid_t pid);

/* hook_watchdog.c: async.block_warning_ms. A watcher thread (started when the setting is on)
 * raises the VM interrupt when no switch happened for the limit; the interrupt function names the
 * coroutine and where it is. */
void async_watchdog_minit(void);
void async_watchdog_mshutdown(void);
void async_watchdog_rinit(void);  /* (starts the thread when the setting is on) */
void async_watchdog_start(void);  /* turned on at runtime */
/* The thread whose globals hold *slot ends: its watcher stops (MSHUTDOWN, and GSHUTDOWN on ZTS). */
struct _async_watchdog_s;
void async_watchdog_stop(struct _async_watchdog_s **slot);

/* hook_dump.c: async.dump_on_signal. The signal prints every coroutine's state and trace through
 * PHP's error channel. parse: 0 for off, -1 for a value that names no usable signal. */
int async_dump_parse_signal(const char *value);
void async_dump_minit(void);
void async_dump_mshutdown(void);
void async_dump_rinit(void);
void async_dump_rshutdown(void);

/* hook_time.c: time(), microtime(), hrtime(), gettimeofday(), the date functions without a
 * timestamp and DateTime's "now" read the clock of a virtual_time() bubble inside one. */
void async_time_hooks_install(void);
void async_time_hooks_uninstall(void);

#endif /* ASYNC_HOOKS_H */
