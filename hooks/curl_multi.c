/*
 * hooks/curl_multi.c — libcurl transfers driven by the reactor.
 *
 * A transfer runs on a multi handle through libcurl's multi-socket interface: libcurl says which
 * sockets it wants watched (CURLMOPT_SOCKETFUNCTION) and when it wants to be called back
 * (CURLMOPT_TIMERFUNCTION); the coroutine that runs the transfer waits for exactly those on the
 * reactor (async_io_wait_many(): one poll per socket, no thread) and hands each readiness to
 * curl_multi_socket_action(). libcurl is only ever called from that coroutine, never from a
 * reactor callback, so the PHP callbacks of the transfer (write, header, read, progress) run in
 * the coroutine that asked for it: they may echo into its output buffers, suspend, or throw.
 *
 * The same waiting serves curl_multi_select() for a multi handle PHP code drives itself with
 * curl_multi_exec(): its sockets come from curl_multi_fdset().
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif
#include "php_async.h"

#ifdef HAVE_ASYNC_CURL

#include <dlfcn.h>
#include "hooks/hooks.h"
#include "core/core.h"
#include "async_io_wait.h"
#include <time.h>
#include <unistd.h>

async_curl_api_t async__curl_api;

#define CURL_API async__curl_api

bool async__curl_api_load(void *dl_handle)
{
#define CURL_LOOKUP(field, symbol) \
	CURL_API.field = (void *) (dl_handle != NULL ? DL_FETCH_SYMBOL(dl_handle, symbol) : DL_FETCH_SYMBOL(RTLD_DEFAULT, symbol)); \
	if (CURL_API.field == NULL) { \
		return false; \
	}
	CURL_LOOKUP(easy_setopt, "curl_easy_setopt");
	CURL_LOOKUP(multi_init, "curl_multi_init");
	CURL_LOOKUP(multi_cleanup, "curl_multi_cleanup");
	CURL_LOOKUP(multi_setopt, "curl_multi_setopt");
	CURL_LOOKUP(multi_add_handle, "curl_multi_add_handle");
	CURL_LOOKUP(multi_remove_handle, "curl_multi_remove_handle");
	CURL_LOOKUP(multi_socket_action, "curl_multi_socket_action");
	CURL_LOOKUP(multi_info_read, "curl_multi_info_read");
	CURL_LOOKUP(multi_fdset, "curl_multi_fdset");
	CURL_LOOKUP(multi_timeout, "curl_multi_timeout");
#undef CURL_LOOKUP
	return true;
}

/* ---------------------------------------------------------------------------------------------
 * The driver: one easy handle, its private multi, the sockets and the deadline libcurl asked for
 * ------------------------------------------------------------------------------------------- */

struct _async_curl_driver_s {
	CURLM *multi;
	CURL *easy;
	async_io_pollfd_t *fds;    /* the sockets libcurl wants watched, and for what */
	async_io_pollfd_t *ready;  /* a copy taken after a wait: socket_action() may change fds */
	uint32_t count, size;
	int64_t deadline_ms;       /* when libcurl wants CURL_SOCKET_TIMEOUT; -1: no timer */
	bool busy;
};

static int64_t monotonic_ms(void)
{
	return (int64_t) (async_monotonic_ns() / 1000000);
}

static int driver_find(const async_curl_driver_t *d, curl_socket_t s)
{
	for (uint32_t i = 0; i < d->count; i++) {
		if (d->fds[i].fd == s) {
			return (int) i;
		}
	}
	return -1;
}

/* CURLMOPT_SOCKETFUNCTION: libcurl's interest in a socket changed. CURL_POLL_IN/OUT have the
 * values of ASYNC_POLL_READ/WRITE. */
static int driver_socket(CURL *easy, curl_socket_t s, int what, void *userp, void *socketp)
{
	async_curl_driver_t *d = userp;
	int at = driver_find(d, s);
	if (what == CURL_POLL_REMOVE) {
		/* no poll to drop: a connection's poll stays armed while it is cached (driver_close()
		 * drops it), any other socket's went when its last wait ended */
		if (at >= 0) {
			d->fds[at] = d->fds[--d->count];
		}
		return 0;
	}
	if (at < 0) {
		if (d->count == d->size) {
			d->size = d->size ? d->size * 2 : 4;
			d->fds = safe_erealloc(d->fds, d->size, sizeof(async_io_pollfd_t), 0);
			d->ready = safe_erealloc(d->ready, d->size, sizeof(async_io_pollfd_t), 0);
		}
		at = (int) d->count++;
	}
	d->fds[at] = (async_io_pollfd_t) { s, what & (CURL_POLL_IN | CURL_POLL_OUT), 0 };
	return 0;
}

/* CURLMOPT_TIMERFUNCTION: -1 removes the timer; 0 asks for a call as soon as possible. */
static int driver_timer(CURLM *multi, long timeout_ms, void *userp)
{
	async_curl_driver_t *d = userp;
	d->deadline_ms = timeout_ms < 0 ? -1 : monotonic_ms() + timeout_ms;
	return 0;
}

/* CURLOPT_SOCKOPTFUNCTION: a new connection socket. Its poll is kept armed between waits (no
 * epoll_ctl per wait, and none per request on a kept-alive connection), which is safe because
 * every close of it is announced by driver_close(). A poll left by an older descriptor with the
 * same number is dropped first (P13). */
static int driver_sockopt(void *clientp, curl_socket_t s, curlsocktype purpose)
{
	if (purpose == CURLSOCKTYPE_IPCXN) {
		async_io_fd_closing(s);
		async_io_fd_track(s);
	}
	return CURL_SOCKOPT_OK;
}

/* CURLOPT_CLOSESOCKETFUNCTION: libcurl closes a connection socket (a connection copies the
 * callback when it is made, so it also runs when the multi's cache drops the connection later). */
static int driver_close(void *clientp, curl_socket_t s)
{
	async_io_fd_closing(s);
	return close(s);
}

async_curl_driver_t *async__curl_driver_new(CURL *easy)
{
	CURLM *multi = CURL_API.multi_init();
	if (multi == NULL) {
		return NULL;
	}
	async_curl_driver_t *d = ecalloc(1, sizeof(*d));
	d->multi = multi;
	d->easy = easy;
	d->deadline_ms = -1;
	CURL_API.multi_setopt(multi, CURLMOPT_SOCKETFUNCTION, driver_socket);
	CURL_API.multi_setopt(multi, CURLMOPT_SOCKETDATA, d);
	CURL_API.multi_setopt(multi, CURLMOPT_TIMERFUNCTION, driver_timer);
	CURL_API.multi_setopt(multi, CURLMOPT_TIMERDATA, d);
	return d;
}

void async__curl_driver_free(async_curl_driver_t *d)
{
	if (d->busy) {
		/* a coroutine abandoned in curl_exec() at the request's end never came back */
		CURL_API.multi_remove_handle(d->multi, d->easy);
	}
	/* the cached connections close now, each announced by driver_close() */
	CURL_API.multi_cleanup(d->multi);
	efree(d->fds);
	efree(d->ready);
	efree(d);
}

bool async__curl_driver_busy(const async_curl_driver_t *d)
{
	return d->busy;
}

/* The transfer's CURLMSG_DONE, if libcurl has posted it. */
static bool driver_done(async_curl_driver_t *d, CURLcode *result)
{
	CURLMsg *msg;
	int queued;
	while ((msg = CURL_API.multi_info_read(d->multi, &queued)) != NULL) {
		if (msg->msg == CURLMSG_DONE && msg->easy_handle == d->easy) {
			*result = msg->data.result;
			return true;
		}
	}
	return false;
}

static void driver_action(async_curl_driver_t *d, curl_socket_t s, int mask)
{
	int running;
	CURL_API.multi_socket_action(d->multi, s, mask, &running);
}

/* How long to wait: until libcurl's deadline (0: act now), or -1 for as long as it takes. */
static zend_long driver_wait_ms(const async_curl_driver_t *d)
{
	if (d->deadline_ms < 0) {
		/* libcurl always keeps a timer while a transfer runs; without one and without a socket
		 * nothing could ever wake us, so look again shortly rather than sleep for ever */
		return d->count == 0 ? 1 : -1;
	}
	int64_t left = d->deadline_ms - monotonic_ms();
	return left > 0 ? (zend_long) left : 0;
}

/* One wait and the socket actions it calls for. False with an exception. */
static bool driver_step(async_curl_driver_t *d)
{
	zend_long wait_ms = driver_wait_ms(d);
	if (wait_ms == 0) {
		d->deadline_ms = -1;
		driver_action(d, CURL_SOCKET_TIMEOUT, 0);
		return !EG(exception);
	}
	uint32_t count = d->count;
	memcpy(d->ready, d->fds, count * sizeof(async_io_pollfd_t));
	int ready = async_io_wait_many(d->ready, count, wait_ms);
	if (ready < 0) {
		return false;
	}
	if (ready == 0) {
		d->deadline_ms = -1;
		driver_action(d, CURL_SOCKET_TIMEOUT, 0);
		return !EG(exception);
	}
	for (uint32_t i = 0; i < count && !EG(exception); i++) {
		int revents = d->ready[i].revents;
		if (revents == 0) {
			continue;
		}
		int mask = (revents & ASYNC_POLL_READ ? CURL_CSELECT_IN : 0)
			| (revents & ASYNC_POLL_WRITE ? CURL_CSELECT_OUT : 0)
			| (revents & (ASYNC_POLL_ERROR | ASYNC_POLL_CLOSED) ? CURL_CSELECT_ERR : 0);
		driver_action(d, d->ready[i].fd, mask);
	}
	return !EG(exception);
}

static void driver_detach_options(async_curl_driver_t *d)
{
	CURL_API.easy_setopt(d->easy, CURLOPT_SOCKOPTFUNCTION, NULL);
	CURL_API.easy_setopt(d->easy, CURLOPT_CLOSESOCKETFUNCTION, NULL);
}

async_curl_outcome_t async__curl_driver_run(async_curl_driver_t *d, CURLcode *result)
{
	ZEND_ASSERT(!d->busy);
	/* neither option is one PHP 8.2 lets users set; both are taken off again below, so a later
	 * stock curl_exec() of the handle is untouched */
	CURL_API.easy_setopt(d->easy, CURLOPT_SOCKOPTFUNCTION, driver_sockopt);
	CURL_API.easy_setopt(d->easy, CURLOPT_CLOSESOCKETFUNCTION, driver_close);
	if (CURL_API.multi_add_handle(d->multi, d->easy) != CURLM_OK) {
		driver_detach_options(d);
		return ASYNC_CURL_REFUSED;
	}
	d->busy = true;
	/* adding armed a 0 ms timer: the first step starts the transfer without waiting */
	bool ok = true;
	while (!driver_done(d, result)) {
		if (!driver_step(d)) {
			/* an exception: the step may have ended the transfer with its own code (a write
			 * callback that threw: CURLE_WRITE_ERROR), which is then what it reports */
			ok = driver_done(d, result);
			break;
		}
	}
	/* detaching ends an unfinished transfer at once; a finished one leaves its connection in
	 * this multi's cache for the next curl_exec() */
	CURL_API.multi_remove_handle(d->multi, d->easy);
	driver_detach_options(d);
	d->count = 0;
	d->deadline_ms = -1;
	d->busy = false;
	return ok ? ASYNC_CURL_DONE : ASYNC_CURL_ABORTED;
}

/* ---------------------------------------------------------------------------------------------
 * curl_multi_select(): a multi handle driven by PHP code
 * ------------------------------------------------------------------------------------------- */

int async__curl_multi_wait(CURLM *multi, int timeout_ms, zend_async_event_t *progress, CURLMcode *error)
{
	fd_set readable, writable, failed;
	int max_fd = -1;
	FD_ZERO(&readable);
	FD_ZERO(&writable);
	FD_ZERO(&failed);
	CURLMcode code = CURL_API.multi_fdset(multi, &readable, &writable, &failed, &max_fd);
	if (code != CURLM_OK) {
		*error = code;
		async__wait_yield(); /* a loop that retries at once must not starve the others */
		return -1;
	}
	/* as curl_multi_wait(): libcurl's own timeout shortens the wait */
	long internal_ms = -1;
	if (CURL_API.multi_timeout(multi, &internal_ms) == CURLM_OK && internal_ms >= 0 && internal_ms < timeout_ms) {
		timeout_ms = (int) internal_ms;
	}
	uint32_t count = 0;
	async_io_pollfd_t *fds = max_fd >= 0 ? safe_emalloc(max_fd + 1, sizeof(async_io_pollfd_t), 0) : NULL;
	for (int fd = 0; fd <= max_fd; fd++) {
		int events = (FD_ISSET(fd, &readable) ? ASYNC_POLL_READ : 0) | (FD_ISSET(fd, &writable) ? ASYNC_POLL_WRITE : 0);
		if (events != 0 || FD_ISSET(fd, &failed)) {
			fds[count++] = (async_io_pollfd_t) { fd, events ? events : ASYNC_POLL_READ, 0 };
		}
	}
	int ready = 0;
	if (count > 0) {
		ready = async_io_wait_many_or(fds, count, timeout_ms, progress);
	}
	if (fds != NULL) {
		efree(fds);
	}
	/* curl_multi_wait() returns at once when there is nothing to wait for; a loop around it
	 * must still let the other coroutines run */
	if (ready == 0 && (count == 0 || timeout_ms == 0)) {
		async__wait_yield();
	}
	return ready;
}

#endif /* HAVE_ASYNC_CURL */
