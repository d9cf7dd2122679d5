/*
 * reactor/poll.c — descriptor readiness on libuv's uv_poll_t, shared per descriptor (seed:
 * "Poll Proxy").
 *
 * libuv allows one uv_poll_t per descriptor and loop (P13). So each descriptor gets ONE poll
 * event, kept in a per-request table (fd -> poll), and every waiter gets a poll *proxy* with its
 * own mask: a reader and a writer coroutine can wait on one socket at once. The poll watches the
 * union of the armed proxies' masks; when libuv reports readiness, only the proxies whose mask
 * matches are notified. Errors and hang-ups are reported to every armed proxy.
 *
 * A proxy is one-shot: once notified it is disarmed until started again, so a level-triggered
 * readiness does not notify the same waiter at every loop pass before it runs.
 *
 * Descriptor lifetime. A descriptor closed while libuv watches it would leave a stale watcher
 * that a new descriptor with the same number inherits (EBADF, lost events). So:
 * - untracked descriptors (anyone's) keep their poll only while someone waits;
 * - tracked descriptors (our socket streams: their close announces itself) keep the poll armed
 *   between waits, which saves two epoll_ctl per wait; it is stopped lazily when it fires with
 *   nobody interested, and dropped by async_io_fd_closing().
 */
#include "php_async.h"
#include "async_io_wait.h"
#define ASYNC_REACTOR_UV /* the libuv side of the reactor's header */
#include "reactor/reactor.h"
#include "core/core.h"
#include <fcntl.h>
#include <poll.h>

#define POLL_WATCHABLE (UV_READABLE | UV_WRITABLE | UV_PRIORITIZED)
#define POLL_ALWAYS    (ASYNC_POLL_ERROR | ASYNC_POLL_CLOSED)

typedef struct _async_poll_s async_poll_t;
typedef struct _async_proxy_s async_proxy_t;

struct _async_poll_s {
	zend_async_poll_event_t event; /* first: the event sits at offset 0 */
	uv_poll_t uv;
	async_proxy_t **proxies;       /* started proxies */
	uint32_t proxies_count, proxies_size;
	int uv_events;                 /* what libuv watches now; 0 = stopped */
	php_socket_t fd;
	bool in_table;
	bool tracked;
	bool closed;                   /* announced closing (or request shutdown): never polled again */
	bool direct_armed;             /* someone waits on the poll event itself */
	bool unapplied;                /* in ASYNC_G(unapplied_polls): its watch reaches epoll at the next run */
	async_proxy_t *spare;          /* a released proxy kept for the next wait (tracked polls) */
};

struct _async_proxy_s {
	zend_async_poll_proxy_t proxy; /* first */
	uint32_t slot;                 /* index in poll->proxies while started */
	bool armed;
	bool own_listed;               /* `own` is listed in its coroutine's waker */
	/* The waiter of a one-descriptor wait (wait_one()): listed in its coroutine's waker without a
	 * subscription (async__wait_list_own()) and woken by poll_deliver() directly, so a wait
	 * allocates no callback and walks no callback vector. Part of the proxy: the waker only
	 * borrows it (the proxy keeps one reference of its own, never dropped). */
	zend_coroutine_event_callback_t own;
	/* The same wait's subscription to its timeout's timer: a callback of the proxy, not a new one
	 * per wait. */
	zend_coroutine_event_callback_t timer_own;
};

#define POLL_OF(proxy) ((async_poll_t *) (proxy)->proxy.poll_event)
#define POLL_DETACHED(p) ZEND_ASYNC_EVENT_HAS(&(p)->event.base, ASYNC_EVENT_F_DETACHED)

static void poll_update(async_poll_t *poll, int fired_unwanted);
static void poll_note_unapplied(async_poll_t *poll);

/* ---------------------------------------------------------------------------------------------
 * Helpers
 * ------------------------------------------------------------------------------------------- */

static HashTable *poll_table(bool create)
{
	if (ASYNC_G(fd_polls) == NULL && create) {
		ALLOC_HASHTABLE(ASYNC_G(fd_polls));
		zend_hash_init(ASYNC_G(fd_polls), 16, NULL, NULL, 0);
	}
	return ASYNC_G(fd_polls);
}

static const char *mask_name(int mask)
{
	switch (mask & (ASYNC_POLL_READ | ASYNC_POLL_WRITE)) {
		case ASYNC_POLL_READ: return "read";
		case ASYNC_POLL_WRITE: return "write";
		case ASYNC_POLL_READ | ASYNC_POLL_WRITE: return "read|write";
		default: return mask & ASYNC_POLL_PRI ? "priority" : "none";
	}
}

/* ---------------------------------------------------------------------------------------------
 * The shared poll
 * ------------------------------------------------------------------------------------------- */

static void poll_close_cb(uv_handle_t *handle)
{
	efree(handle->data);
}

static void poll_free(async_poll_t *poll)
{
	if (poll->spare != NULL) {
		efree(poll->spare);
		poll->spare = NULL;
	}
	zend_async_callbacks_free(&poll->event.base);
	if (poll->proxies) {
		efree(poll->proxies);
		poll->proxies = NULL;
	}
	if (POLL_DETACHED(poll)) {
		efree(poll); /* the request shutdown already closed the handle */
		return;
	}
	async__reactor_event_count_off(&poll->event.base);
	uv_close((uv_handle_t *) &poll->uv, poll_close_cb);
}

static bool poll_dispose(zend_async_event_t *event)
{
	if (!async__reactor_last_ref(event)) {
		return true;
	}
	poll_free((async_poll_t *) event);
	return true;
}

/* Stops libuv watching (while the descriptor is still open: epoll forgets it now). */
static void poll_stop_watching(async_poll_t *poll)
{
	if (poll->uv_events != 0 && !POLL_DETACHED(poll)) {
		uv_poll_stop(&poll->uv);
	}
	poll->uv_events = 0;
}

static void poll_forget(async_poll_t *poll)
{
	if (poll->in_table) {
		poll->in_table = false;
		zend_hash_index_del(ASYNC_G(fd_polls), (zend_ulong) poll->fd);
		ZEND_ASYNC_EVENT_RELEASE(&poll->event.base); /* the table's reference */
	}
}

/* A proxy's readiness to its waiters: its own (a wait_one()) is woken directly, as
 * zend_async_waker_callback_resolve() would, and any subscriber through the callback vector. */
static void proxy_fire(async_proxy_t *proxy, int got)
{
	proxy->proxy.triggered_events = got;
	if (proxy->own_listed && zend_async_waker_take(&proxy->own, &proxy->proxy.base)) {
		ZEND_ASYNC_ENQUEUE_COROUTINE(proxy->own.coroutine);
	}
	if (proxy->proxy.base.callbacks.length != 0) {
		ZEND_ASYNC_CALLBACKS_NOTIFY(&proxy->proxy.base, NULL, NULL);
	}
}

/* Tells the armed proxies (and direct waiters) what happened; each proxy fires once. */
static void poll_deliver(async_poll_t *poll, int ready)
{
	zend_async_event_t *base = &poll->event.base;
	base->ref_count++;

	/* A proxy that fired and has not been stopped yet still counts as interested: its
	 * coroutine is queued and will consume the readiness (or wait again) soon. */
	int interest = 0;
	uint32_t n = poll->proxies_count;
	async_proxy_t *inline_list[8];
	async_proxy_t **list = n <= 8 ? inline_list : safe_emalloc(n, sizeof(*list), 0);
	for (uint32_t i = 0; i < n; i++) {
		list[i] = poll->proxies[i];
		list[i]->proxy.base.ref_count++;
		interest |= list[i]->proxy.events;
	}
	if (poll->direct_armed) {
		interest |= poll->event.events;
	}

	for (uint32_t i = 0; i < n; i++) {
		async_proxy_t *proxy = list[i];
		int got = ready & (proxy->proxy.events | POLL_ALWAYS);
		if (proxy->armed && got != 0) {
			proxy->armed = false;
			proxy_fire(proxy, got);
		}
		proxy->proxy.base.dispose(&proxy->proxy.base);
	}
	if (list != inline_list) {
		efree(list);
	}

	int got = ready & (poll->event.events | POLL_ALWAYS);
	if (poll->direct_armed && got != 0) {
		poll->direct_armed = false;
		poll->event.triggered_events = got;
		ZEND_ASYNC_CALLBACKS_NOTIFY(base, NULL, NULL);
	}

	poll_update(poll, ready & POLL_WATCHABLE & ~interest);
	poll_dispose(base);
}

static void poll_cb(uv_poll_t *handle, int status, int events)
{
	async_poll_t *poll = handle->data;
	int ready;
	if (status < 0) {
		/* libuv stopped the handle itself (POLLERR): the waiters learn the error from their call. */
		poll->uv_events = 0;
		ready = ASYNC_POLL_ERROR;
	} else {
		ready = events & POLL_WATCHABLE;
	}
	poll_deliver(poll, ready);
	async__reactor_delivered(handle->loop); /* let the scheduler run the woken coroutines */
}

/* Makes libuv watch what the armed waiters need. A tracked poll keeps watching the rest too,
 * until a readiness nobody wanted arrives (`fired_unwanted`): those bits are dropped. */
static void poll_update(async_poll_t *poll, int fired_unwanted)
{
	if (poll->closed || POLL_DETACHED(poll)) {
		return;
	}
	int need = 0;
	for (uint32_t i = 0; i < poll->proxies_count; i++) {
		if (poll->proxies[i]->armed) {
			need |= poll->proxies[i]->proxy.events;
		}
	}
	if (poll->direct_armed) {
		need |= poll->event.events;
	}
	need &= POLL_WATCHABLE;

	int want = need;
	if (poll->tracked) {
		want |= poll->uv_events & ~fired_unwanted;
	}
	if (want != poll->uv_events) {
		if (want == 0) {
			poll_stop_watching(poll);
		} else if (uv_poll_start(&poll->uv, want, poll_cb) == 0) {
			poll->uv_events = want;
			poll_note_unapplied(poll);
		} else {
			/* Cannot watch (the descriptor went away): wake everyone, they will see why. */
			poll->uv_events = 0;
			if (need != 0) {
				poll_deliver(poll, ASYNC_POLL_ERROR);
			}
			return;
		}
	}
	/* An idle watch must not keep the loop alive. */
	if (poll->uv_events != 0) {
		if (need != 0) {
			uv_ref((uv_handle_t *) &poll->uv);
		} else {
			uv_unref((uv_handle_t *) &poll->uv);
		}
	}
	/* Untracked descriptors are forgotten as soon as nobody waits. */
	if (!poll->tracked && poll->proxies_count == 0 && !poll->direct_armed
		&& poll->event.base.loop_ref_count == 0) {
		poll_stop_watching(poll);
		poll_forget(poll);
	}
}

/* The descriptor is going or gone: never watched again, its waiters told it closed. */
static void poll_closed(async_poll_t *poll)
{
	zend_async_event_t *base = &poll->event.base;
	base->ref_count++;
	poll->closed = true;
	poll_stop_watching(poll);
	poll_forget(poll);
	poll_deliver(poll, ASYNC_POLL_CLOSED);
	poll_dispose(base);
}

/* libuv hands a started or changed watch to epoll only when the loop next runs, and aborts the
 * process if the descriptor is gone by then (EBADF). A descriptor its owner announces closing
 * (async_io_fd_closing()) never gets there; an untracked one can be closed behind our back: a
 * multi handle shared by coroutines, whose curl_multi_exec() in one closes a socket another
 * waits on in curl_multi_select() before the loop ran. Stock select() would never report such a
 * descriptor ready; here its watch is dropped and its waiters are told it closed. Such watches
 * are noted when started and checked just before each run. */
static void poll_note_unapplied(async_poll_t *poll)
{
	if (poll->tracked || poll->unapplied) {
		return;
	}
	if (ASYNC_G(unapplied_polls_count) == ASYNC_G(unapplied_polls_size)) {
		ASYNC_G(unapplied_polls_size) = ASYNC_G(unapplied_polls_size) ? ASYNC_G(unapplied_polls_size) * 2 : 8;
		ASYNC_G(unapplied_polls) = safe_erealloc(ASYNC_G(unapplied_polls), ASYNC_G(unapplied_polls_size), sizeof(async_poll_t *), 0);
	}
	poll->unapplied = true;
	poll->event.base.ref_count++; /* the list's */
	ASYNC_G(unapplied_polls)[ASYNC_G(unapplied_polls_count)++] = poll;
}

static void polls_before_run(bool blocking)
{
	for (uint32_t i = 0; i < ASYNC_G(unapplied_polls_count); i++) {
		async_poll_t *poll = ASYNC_G(unapplied_polls)[i];
		poll->unapplied = false;
		if (poll->uv_events != 0 && !poll->closed && !POLL_DETACHED(poll)
			&& fcntl(poll->fd, F_GETFD) == -1 && errno == EBADF) {
			poll_closed(poll);
		}
		poll_dispose(&poll->event.base);
	}
	ASYNC_G(unapplied_polls_count) = 0;
}

static bool poll_start(zend_async_event_t *event)
{
	async_poll_t *poll = (async_poll_t *) event;
	event->loop_ref_count++;
	poll->direct_armed = true;
	if (poll->closed) {
		poll->direct_armed = false;
		poll->event.triggered_events = ASYNC_POLL_CLOSED;
		ZEND_ASYNC_CALLBACKS_NOTIFY(event, NULL, NULL);
		return true;
	}
	async__reactor_event_count_on(event);
	poll_update(poll, 0);
	return true;
}

static bool poll_stop(zend_async_event_t *event)
{
	async_poll_t *poll = (async_poll_t *) event;
	if (!async__reactor_last_stop(event)) {
		return true;
	}
	poll->direct_armed = false;
	async__reactor_event_count_off(event);
	event->ref_count++;
	poll_update(poll, 0);
	poll_dispose(event);
	return true;
}

static zend_string *poll_info(zend_async_event_t *event)
{
	async_poll_t *poll = (async_poll_t *) event;
	return zend_strpprintf(0, "Poll(fd=%d, %s)", (int) poll->fd, mask_name(poll->event.events));
}

static const async_event_methods_t poll_methods = {
	.start = poll_start, .stop = poll_stop, .dispose = poll_dispose, .info = poll_info,
};

/* The descriptor's shared poll, with a new reference for the caller; NULL with *error (a libuv
 * error code: UV_EPERM for files epoll refuses, UV_EBADF, ...). */
static async_poll_t *poll_get(php_socket_t fd, int *error)
{
	HashTable *table = poll_table(true);
	async_poll_t *poll = zend_hash_index_find_ptr(table, (zend_ulong) fd);
	if (poll != NULL) {
		poll->event.base.ref_count++;
		return poll;
	}
	uv_loop_t *loop = async__reactor_loop();
	int flags = fcntl(fd, F_GETFL);
	if (loop == NULL || flags < 0) {
		*error = UV_EBADF;
		return NULL;
	}
	poll = ecalloc(1, sizeof(async_poll_t));
	int rc = uv_poll_init_socket(loop, &poll->uv, fd);
	if (rc != 0) {
		efree(poll);
		*error = rc;
		return NULL;
	}
	/* uv_poll_init switched O_NONBLOCK on; the descriptor's owner decides that, not us. */
	if (!(flags & O_NONBLOCK)) {
		fcntl(fd, F_SETFL, flags);
	}
	poll->uv.data = poll;
	poll->fd = fd;
	zend_async_event_t *base = &poll->event.base;
	async__event_init(base, &poll_methods);
	base->ref_count = 2; /* the table's and the caller's */
	poll->event.is_socket = true;
	poll->event.socket = fd;
	poll->in_table = true;
	zend_hash_index_add_new_ptr(table, (zend_ulong) fd, poll);
	return poll;
}

/* ---------------------------------------------------------------------------------------------
 * Proxies
 * ------------------------------------------------------------------------------------------- */

static void proxy_detach(async_proxy_t *proxy)
{
	async_poll_t *poll = POLL_OF(proxy);
	ZEND_ASSERT(poll->proxies_count > 0 && proxy->slot < poll->proxies_count
		&& poll->proxies[proxy->slot] == proxy && "an armed proxy sits in its poll's slot");
	uint32_t last = --poll->proxies_count;
	if (proxy->slot != last) {
		poll->proxies[proxy->slot] = poll->proxies[last];
		poll->proxies[proxy->slot]->slot = proxy->slot;
	}
	proxy->armed = false;
}

static bool proxy_start(zend_async_event_t *event)
{
	async_proxy_t *proxy = (async_proxy_t *) event;
	async_poll_t *poll = POLL_OF(proxy);
	proxy->proxy.triggered_events = 0;
	if (poll->closed || POLL_DETACHED(poll)) {
		proxy_fire(proxy, ASYNC_POLL_CLOSED);
		return true;
	}
	/* Starting a started proxy re-arms it (a one-shot that fired) without counting twice. */
	if (event->loop_ref_count == 0) {
		event->loop_ref_count = 1;
		if (poll->proxies_count == poll->proxies_size) {
			poll->proxies_size = poll->proxies_size ? poll->proxies_size * 2 : 2;
			poll->proxies = safe_erealloc(poll->proxies, poll->proxies_size, sizeof(*poll->proxies), 0);
		}
		proxy->slot = poll->proxies_count++;
		poll->proxies[proxy->slot] = proxy;
		async__reactor_event_count_on(event);
	}
	proxy->armed = true;
	/* A tracked poll that already watches what this proxy wants (a keep-alive socket's reads) only
	 * needs to keep the loop alive again: what poll_update() would conclude, without its walk. */
	int wants = proxy->proxy.events & POLL_WATCHABLE;
	if (poll->tracked && wants != 0 && (poll->uv_events & wants) == wants) {
		uv_ref((uv_handle_t *) &poll->uv);
		return true;
	}
	poll_update(poll, 0);
	return true;
}

static bool proxy_stop(zend_async_event_t *event)
{
	async_proxy_t *proxy = (async_proxy_t *) event;
	if (event->loop_ref_count == 0) {
		return true;
	}
	event->loop_ref_count = 0;
	async_poll_t *poll = POLL_OF(proxy);
	bool was_armed = proxy->armed;
	proxy_detach(proxy);
	async__reactor_event_count_off(event);
	/* A proxy that fired was no longer in what the poll needs (poll_deliver() updated it then): a
	 * tracked poll has nothing to change. */
	if (!was_armed && poll->tracked) {
		return true;
	}
	poll->event.base.ref_count++;
	poll_update(poll, 0);
	poll_dispose(&poll->event.base);
	return true;
}

/* A released proxy of a descriptor that will be waited for again (a tracked one: a socket stream)
 * is kept for its next wait instead of freed. */
static bool proxy_may_park(async_poll_t *poll, async_proxy_t *proxy)
{
	return poll->tracked && poll->spare == NULL && !poll->closed && !POLL_DETACHED(poll)
		&& proxy->proxy.base.extra_offset == 0;
}

static bool proxy_dispose(zend_async_event_t *event)
{
	if (!async__reactor_last_ref(event)) {
		return true;
	}
	async_proxy_t *proxy = (async_proxy_t *) event;
	async_poll_t *poll = POLL_OF(proxy);
	proxy_stop(event);
	ZEND_ASSERT(!proxy->own_listed && "a waker lists the proxy only while it holds a reference");
	ZEND_ASSERT(proxy->own.base.ref_count == 1 && proxy->timer_own.base.ref_count == 1
		&& "nothing holds the proxy's own callbacks once the proxy goes");
	zend_async_callbacks_free(event);
	if (proxy_may_park(poll, proxy)) {
		poll->spare = proxy; /* holds no reference: poll_free() frees it */
	} else {
		efree(proxy);
	}
	poll_dispose(&poll->event.base);
	return true;
}

/* The waker lets go of a proxy's own waiter (zend_async_waker_clean()): nothing was subscribed. */
static bool proxy_del_callback(zend_async_event_t *event, zend_async_event_callback_t *callback)
{
	async_proxy_t *proxy = (async_proxy_t *) event;
	if (callback == &proxy->own.base) {
		proxy->own_listed = false;
		return true;
	}
	return zend_async_event_default_del_callback(event, callback);
}

/* Never called: the proxy's own reference keeps its waiter. */
static void proxy_own_dispose(zend_async_event_callback_t *callback, zend_async_event_t *event)
{
	ZEND_ASSERT(0 && "a proxy's own waiter lives as long as the proxy");
}

static zend_string *proxy_info(zend_async_event_t *event)
{
	async_proxy_t *proxy = (async_proxy_t *) event;
	return zend_strpprintf(0, "Poll(fd=%d, %s)", (int) POLL_OF(proxy)->fd, mask_name(proxy->proxy.events));
}

static const async_event_methods_t proxy_methods = {
	.start = proxy_start, .stop = proxy_stop, .dispose = proxy_dispose, .info = proxy_info,
};

/* A new proxy, or the poll's spare made new (without extra data only). */
static async_proxy_t *proxy_new(async_poll_t *poll, int events, size_t extra_size)
{
	async_proxy_t *proxy;
	if (extra_size == 0 && poll->spare != NULL) {
		proxy = poll->spare;
		poll->spare = NULL;
		memset(proxy, 0, sizeof(*proxy));
	} else {
		proxy = ecalloc(1, sizeof(async_proxy_t) + extra_size);
	}
	zend_async_event_t *base = &proxy->proxy.base;
	async__event_init(base, &proxy_methods);
	base->del_callback = proxy_del_callback;
	proxy->own.base.ref_count = 1;
	proxy->own.base.callback = zend_async_waker_callback_resolve;
	proxy->own.base.dispose = proxy_own_dispose;
	proxy->timer_own.base = proxy->own.base;
	if (extra_size) {
		base->extra_offset = sizeof(async_proxy_t);
	}
	proxy->proxy.poll_event = &poll->event;
	proxy->proxy.events = events & (ASYNC_POLL_READ | ASYNC_POLL_WRITE | ASYNC_POLL_PRI);
	poll->event.base.ref_count++;
	return proxy;
}

/* ---------------------------------------------------------------------------------------------
 * Reactor table slots
 * ------------------------------------------------------------------------------------------- */

static zend_async_poll_event_t *reactor_new_poll_event(zend_file_descriptor_t fd, zend_socket_t socket,
	async_poll_event events, size_t extra_size)
{
	php_socket_t target = fd >= 0 ? fd : socket;
	if (extra_size != 0) {
		zend_throw_error(NULL, "Async: poll events are shared per descriptor and take no extra data (use a poll proxy)");
		return NULL;
	}
	int error = 0;
	async_poll_t *poll = poll_get(target, &error);
	if (poll == NULL) {
		zend_throw_error(NULL, "Async: cannot poll descriptor %d: %s", (int) target, uv_strerror(error));
		return NULL;
	}
	poll->event.events |= events & (ASYNC_POLL_READ | ASYNC_POLL_WRITE | ASYNC_POLL_PRI);
	poll->event.is_socket = fd < 0;
	return &poll->event;
}

static zend_async_poll_event_t *reactor_new_socket_event(zend_socket_t socket, async_poll_event events, size_t extra_size)
{
	return reactor_new_poll_event(-1, socket, events, extra_size);
}

static zend_async_poll_proxy_t *reactor_new_poll_proxy_event(zend_async_poll_event_t *poll_event,
	async_poll_event events, size_t extra_size)
{
	if (poll_event == NULL || poll_event->base.start != poll_start) {
		zend_throw_error(NULL, "Async: a poll proxy needs a poll event made by this reactor");
		return NULL;
	}
	return &proxy_new((async_poll_t *) poll_event, events, extra_size)->proxy;
}

zend_result async__reactor_poll_minit(void)
{
	zend_async_reactor_api_t api = {
		.new_socket_event = reactor_new_socket_event,
		.new_poll_event = reactor_new_poll_event,
		.new_poll_proxy_event = reactor_new_poll_proxy_event,
	};
	/* NULL slots keep what libuv_reactor.c registered under the same module name. */
	/* false: another implementation of this ABI table is registered */
	static const async_reactor_part_t part = { .before_run = polls_before_run }; /* per-process: constant */
	async__reactor_add_part(&part);
	return zend_async_reactor_register("libuv", false, &api) ? SUCCESS : FAILURE;
}

/* Every poll is stopped and forgotten before the reactor closes its loop. Polls still referenced
 * by a waker (coroutines dropped after a fatal error) are detached by the loop's close walk. */
void async__reactor_poll_rshutdown(void)
{
	for (uint32_t i = 0; i < ASYNC_G(unapplied_polls_count); i++) {
		ASYNC_G(unapplied_polls)[i]->unapplied = false;
		poll_dispose(&ASYNC_G(unapplied_polls)[i]->event.base);
	}
	if (ASYNC_G(unapplied_polls) != NULL) {
		efree(ASYNC_G(unapplied_polls));
		ASYNC_G(unapplied_polls) = NULL;
	}
	ASYNC_G(unapplied_polls_count) = ASYNC_G(unapplied_polls_size) = 0;
	HashTable *table = ASYNC_G(fd_polls);
	if (table == NULL) {
		return;
	}
	async_poll_t *poll;
	ZEND_HASH_FOREACH_PTR(table, poll) {
		poll->closed = true;
		poll_stop_watching(poll);
		poll->in_table = false;
		ZEND_ASYNC_EVENT_RELEASE(&poll->event.base);
	} ZEND_HASH_FOREACH_END();
	zend_hash_destroy(table);
	FREE_HASHTABLE(table);
	ASYNC_G(fd_polls) = NULL;
}

/* ---------------------------------------------------------------------------------------------
 * async_io_wait.h
 * ------------------------------------------------------------------------------------------- */

bool async_io_can_wait(void)
{
	/* A finished coroutine still current runs its finish handlers (a connection given back
	 * there): it cannot suspend any more, so its I/O is stock, blocking. */
	return ZEND_ASYNC_G(coroutine) != NULL && !ZEND_COROUTINE_IS_FINISHED(ZEND_ASYNC_G(coroutine))
		&& ZEND_ASYNC_IS_ACTIVE && async__wait_allowed() && EG(exception) == NULL && !CG(unclean_shutdown);
}

void async_io_fd_closing(php_socket_t fd)
{
	HashTable *table = ASYNC_G(fd_polls);
	async_poll_t *poll = table ? zend_hash_index_find_ptr(table, (zend_ulong) fd) : NULL;
	if (poll != NULL) {
		poll_closed(poll);
	}
}

void async_io_fd_track(php_socket_t fd)
{
	if (!async_io_can_wait()) {
		return;
	}
	int error;
	async_poll_t *poll = poll_get(fd, &error);
	if (poll != NULL) {
		poll->tracked = true;
		poll_dispose(&poll->event.base);
	}
}

/* timeout 0: a plain poll(2), no switch. */
static int wait_now(async_io_pollfd_t *fds, uint32_t count)
{
	struct pollfd inline_pfds[8];
	struct pollfd *pfds = count <= 8 ? inline_pfds : safe_emalloc(count, sizeof(struct pollfd), 0);
	for (uint32_t i = 0; i < count; i++) {
		bool used = fds[i].fd >= 0 && fds[i].events != 0;
		pfds[i].fd = used ? fds[i].fd : -1;
		pfds[i].events = (fds[i].events & ASYNC_POLL_READ ? POLLIN : 0) | (fds[i].events & ASYNC_POLL_WRITE ? POLLOUT : 0)
			| (fds[i].events & ASYNC_POLL_PRI ? POLLPRI : 0);
		pfds[i].revents = 0;
	}
	int n;
	do {
		n = poll(pfds, count, 0);
	} while (n < 0 && errno == EINTR);
	int ready = 0;
	for (uint32_t i = 0; n > 0 && i < count; i++) {
		short r = pfds[i].revents;
		int got = (r & POLLIN ? ASYNC_POLL_READ : 0) | (r & POLLOUT ? ASYNC_POLL_WRITE : 0)
			| (r & POLLPRI ? ASYNC_POLL_PRI : 0);
		got &= fds[i].events;
		if (r & (POLLERR | POLLHUP | POLLNVAL)) {
			got |= ASYNC_POLL_ERROR | (fds[i].events & (ASYNC_POLL_READ | ASYNC_POLL_WRITE));
		}
		fds[i].revents = got;
		ready += got != 0;
	}
	if (pfds != inline_pfds) {
		efree(pfds);
	}
	return ready;
}

/* What poll(2) says of a descriptor that cannot be polled (poll_get()'s error): a file (epoll
 * refuses them) is ready for what was asked, anything else is in error. */
static int unpollable_revents(int error, int events)
{
	return error == UV_EPERM ? events & (ASYNC_POLL_READ | ASYNC_POLL_WRITE) : ASYNC_POLL_ERROR;
}

/* Subscribes the current coroutine's waker to one proxy per descriptor. Descriptors that cannot
 * be polled are ready at once, as poll(2) says: files (epoll refuses them) for what was asked,
 * bad descriptors with an error. Returns how many were ready at once, or -1 with an exception. */
static int wait_subscribe(zend_coroutine_t *co, async_io_pollfd_t *fds, uint32_t count, async_proxy_t **proxies)
{
	int ready = 0;
	for (uint32_t i = 0; i < count; i++) {
		proxies[i] = NULL;
		if (fds[i].fd < 0 || (fds[i].events & (ASYNC_POLL_READ | ASYNC_POLL_WRITE | ASYNC_POLL_PRI)) == 0) {
			continue;
		}
		int error = 0;
		async_poll_t *poll = poll_get(fds[i].fd, &error);
		if (poll == NULL) {
			fds[i].revents = unpollable_revents(error, fds[i].events);
			ready++;
			continue;
		}
		async_proxy_t *proxy = proxy_new(poll, fds[i].events, 0);
		poll_dispose(&poll->event.base);
		if (!zend_async_resume_when(co, &proxy->proxy.base, true, zend_async_waker_callback_resolve, NULL)) {
			return -1;
		}
		proxies[i] = proxy;
	}
	return ready;
}

static bool wait_on_timer_event(zend_coroutine_t *co, zend_async_timer_event_t *timer, bool trans,
	zend_coroutine_event_callback_t *cb)
{
	if (cb != NULL) {
		cb->base.ref_count++; /* the waker takes it */
	}
	return zend_async_resume_when(co, &timer->base, trans, zend_async_waker_callback_resolve, cb);
}

/* The timeout's timer: the caller's kept one re-armed, or a new one (kept in *slot when given).
 * `cb`: the subscription's callback when the caller has one (NULL: a new one). */
static bool wait_on_timer(zend_coroutine_t *co, zend_long timeout_ms, zend_async_timer_event_t **slot,
	zend_coroutine_event_callback_t *cb)
{
	if (slot == NULL) {
		zend_async_timer_event_t *timer = ZEND_ASYNC_NEW_TIMER_EVENT((zend_ulong) timeout_ms, false);
		return timer != NULL && wait_on_timer_event(co, timer, true, cb);
	}
	if (*slot != NULL && !async__reactor_timer_rearm(*slot, (zend_ulong) timeout_ms)) {
		ZEND_ASYNC_EVENT_RELEASE(&(*slot)->base);
		*slot = NULL;
	}
	if (*slot == NULL) {
		*slot = ZEND_ASYNC_NEW_TIMER_EVENT((zend_ulong) timeout_ms, false);
		if (*slot == NULL) {
			return false;
		}
	}
	return wait_on_timer_event(co, *slot, false, cb);
}

static int wait_many(async_io_pollfd_t *fds, uint32_t count, zend_long timeout_ms, zend_async_timer_event_t **timer,
	zend_async_event_t *also)
{
	for (uint32_t i = 0; i < count; i++) {
		fds[i].revents = 0;
	}
	if (!async_io_can_wait()) {
		if (!EG(exception)) {
			zend_throw_error(NULL, "Async: cannot wait for a descriptor here (no coroutine, or switching is not allowed)");
		}
		return -1;
	}
	if (timeout_ms == 0) {
		return wait_now(fds, count);
	}

	zend_coroutine_t *co = async__wait_begin(NULL, "wait for a descriptor");
	if (co == NULL) {
		return -1;
	}
	async_proxy_t *inline_proxies[4];
	async_proxy_t **proxies = count <= 4 ? inline_proxies : safe_emalloc(count, sizeof(*proxies), 0);

	int ready = wait_subscribe(co, fds, count, proxies);
	if (ready == 0 && also != NULL && !zend_async_resume_when(co, also, false, zend_async_waker_callback_resolve, NULL)) {
		ready = -1;
	}
	if (ready == 0 && timeout_ms > 0 && !wait_on_timer(co, timeout_ms, timer, NULL)) {
		ready = -1;
	}
	if (ready == 0) {
		async__wait_suspend(co);
	}
	if (ready >= 0 && !EG(exception)) {
		for (uint32_t i = 0; i < count; i++) {
			if (proxies[i] != NULL) {
				fds[i].revents = proxies[i]->proxy.triggered_events & (fds[i].events | POLL_ALWAYS);
				ready += fds[i].revents != 0;
			}
		}
	}
	async__wait_end(co);
	if (proxies != inline_proxies) {
		efree(proxies);
	}
	return EG(exception) ? -1 : ready;
}

/* One descriptor, the common wait (a socket stream's read or write): the proxy's own waiter is
 * listed in the waker instead of subscribed, and the proxy is the poll's spare from the last wait.
 * The same answers as wait_many() for one entry. */
static int wait_one(php_socket_t fd, int mask, zend_long timeout_ms, zend_async_timer_event_t **timer)
{
	zend_coroutine_t *co = async__wait_begin(NULL, "wait for a descriptor");
	if (co == NULL) {
		return -1;
	}
	int error = 0;
	async_poll_t *poll = poll_get(fd, &error);
	if (poll == NULL) {
		async__wait_end(co);
		return unpollable_revents(error, mask);
	}
	async_proxy_t *proxy = proxy_new(poll, mask, 0);
	poll_dispose(&poll->event.base);
	zend_async_event_t *event = &proxy->proxy.base;

	bool ok;
	proxy->own.base.ref_count++; /* the waker's */
	if (EXPECTED(async__wait_list_own(co, event, &proxy->own))) {
		proxy->own_listed = true;
		proxy_start(event);
		ok = true;
	} else {
		proxy->own.base.ref_count--;
		ok = zend_async_resume_when(co, event, false, zend_async_waker_callback_resolve, NULL);
	}
	ok = ok && (timeout_ms < 0 || wait_on_timer(co, timeout_ms, timer, &proxy->timer_own));
	int revents = -1;
	if (ok && async__wait_suspend(co)) {
		revents = proxy->proxy.triggered_events & (mask | POLL_ALWAYS);
	}
	async__wait_end(co);
	/* Ours goes last: the waker releases the proxy (its first trigger) before it drops the timer's
	 * subscription, whose callback lives inside the proxy. */
	ZEND_ASYNC_EVENT_RELEASE(event);
	return EG(exception) ? -1 : revents;
}

/* wait_one() takes a real wait for one descriptor; the rest (nothing to watch, a zero timeout's
 * plain poll(2), no coroutine to suspend) keeps wait_many()'s answers. */
static zend_always_inline bool wait_one_fits(php_socket_t fd, int mask, zend_long timeout_ms)
{
	return fd >= 0 && (mask & (ASYNC_POLL_READ | ASYNC_POLL_WRITE | ASYNC_POLL_PRI)) != 0 && timeout_ms != 0
		&& async_io_can_wait();
}

int async_io_wait_many(async_io_pollfd_t *fds, uint32_t count, zend_long timeout_ms)
{
	return wait_many(fds, count, timeout_ms, NULL, NULL);
}

int async_io_wait_many_or(async_io_pollfd_t *fds, uint32_t count, zend_long timeout_ms, zend_async_event_t *also)
{
	ZEND_ASSERT(also != NULL);
	return wait_many(fds, count, timeout_ms, NULL, also);
}

int async_io_wait_fd_timer(php_socket_t fd, int mask, zend_long timeout_ms, zend_async_timer_event_t **timer)
{
	if (wait_one_fits(fd, mask, timeout_ms)) {
		return wait_one(fd, mask, timeout_ms, timer);
	}
	async_io_pollfd_t entry = { fd, mask, 0 };
	int n = wait_many(&entry, 1, timeout_ms, timer, NULL);
	return n > 0 ? entry.revents : n;
}

int async_io_wait_fd(php_socket_t fd, int mask, zend_long timeout_ms)
{
	return async_io_wait_fd_timer(fd, mask, timeout_ms, NULL);
}
