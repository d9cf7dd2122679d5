/*
 * hook_curl.h — what the two halves of the curl hook share (private to hook_curl*.c).
 *
 * hook_curl_multi.c knows libcurl only: its functions (taken from the libcurl ext/curl itself
 * uses), and a transfer driven by the multi-socket interface on the reactor.
 * hook_curl.c knows which of ext/curl's calls into libcurl block, and redirects them.
 */
#ifndef ASYNC_HOOK_CURL_H
#define ASYNC_HOOK_CURL_H

#include "php.h"
#include "zend_async_API.h"
#include <curl/curl.h>

/* libcurl's functions, looked up in the library ext/curl was loaded with (never linked: a
 * second libcurl, or a different flavour of it, must never see ext/curl's handles). */
typedef struct {
	__typeof__(curl_easy_setopt) *easy_setopt;
	__typeof__(curl_multi_init) *multi_init;
	__typeof__(curl_multi_cleanup) *multi_cleanup;
	__typeof__(curl_multi_setopt) *multi_setopt;
	__typeof__(curl_multi_add_handle) *multi_add_handle;
	__typeof__(curl_multi_remove_handle) *multi_remove_handle;
	__typeof__(curl_multi_socket_action) *multi_socket_action;
	__typeof__(curl_multi_info_read) *multi_info_read;
	__typeof__(curl_multi_fdset) *multi_fdset;
	__typeof__(curl_multi_timeout) *multi_timeout;
} async_curl_api_t;

/* per-process: filled once by async_curl_api_load() */
extern async_curl_api_t async_curl_api;

/* Looks every function up through `dl_handle` (ext/curl's module handle; NULL: the process's
 * global scope, for a curl built into PHP). False when one is missing. */
bool async_curl_api_load(void *dl_handle);

/* One easy handle's private multi: the transfers of curl_exec() on that handle run there, so
 * every callback of the transfer runs in the coroutine that called curl_exec() (see
 * docs/curl.md for why not one multi for all). Kept while the handle lives, so the connection
 * of one curl_exec() is reused by the next. */
typedef struct _async_curl_driver_s async_curl_driver_t;

async_curl_driver_t *async_curl_driver_new(CURL *easy);
void async_curl_driver_free(async_curl_driver_t *driver);
/* A transfer of this driver is running (a callback called curl_exec() on its own handle). */
bool async_curl_driver_busy(const async_curl_driver_t *driver);

typedef enum {
	ASYNC_CURL_DONE,     /* *result holds the transfer's CURLcode */
	ASYNC_CURL_ABORTED,  /* an exception (cancellation, a callback threw): the transfer was ended */
	ASYNC_CURL_REFUSED,  /* libcurl would not take the handle (in another multi): nothing done */
} async_curl_outcome_t;

/* Runs the handle's transfer to its end, suspending only the current coroutine while libcurl
 * waits for its sockets and timers. Call only when async_io_can_wait(). The handle is detached
 * again whatever the outcome, so it stays usable. */
async_curl_outcome_t async_curl_driver_run(async_curl_driver_t *driver, CURLcode *result);

/* curl_multi_wait() for a multi handle the caller drives with curl_multi_perform(): waits for
 * its sockets on the reactor, at most timeout_ms (shortened to libcurl's own timeout), or until
 * `progress` is notified (0 then, as on a timeout). The number of ready sockets; -1 with *error
 * set (a libcurl error) or with an exception (cancellation). */
int async_curl_multi_wait(CURLM *multi, int timeout_ms, zend_async_event_t *progress, CURLMcode *error);

#endif /* ASYNC_HOOK_CURL_H */
