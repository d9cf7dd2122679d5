/*
 * async_io_wait.h — waiting for descriptors from C without blocking the process.
 *
 * The small C API the hooks (streams, ext/sockets, DNS, stream_select) use to suspend only the
 * calling coroutine until a descriptor is ready. `make install` installs it as
 * <ext/async/async_io_wait.h> for other extensions (load ext-async first). Underneath, every descriptor has
 * ONE uv_poll_t per request (reactor/poll.c); each waiter is a poll proxy with its own mask, so a
 * reader and a writer coroutine can wait on the same socket at once.
 *
 * Rules:
 * - Call the wait functions only when async_io_can_wait() is true. Otherwise do what stock PHP does
 *   (a blocking call, poll(), ...): outside a coroutine the runtime must be invisible.
 * - A descriptor being closed by code that may have waited on it must be announced first with
 *   async_io_fd_closing(fd) (before close()): it wakes the waiters with ASYNC_POLL_CLOSED and
 *   drops the poll, so a new descriptor that reuses the number starts clean (P13).
 * - The descriptor's O_NONBLOCK flag is left as the caller set it (libuv's uv_poll_init would
 *   switch it on; we put it back).
 * - Regular files (which epoll refuses) are reported ready at once, as poll() does.
 */
#ifndef ASYNC_IO_WAIT_H
#define ASYNC_IO_WAIT_H

#include "php.h"
#include "php_network.h"
#include "zend_async_API.h"

BEGIN_EXTERN_C()

/* The first four have the values of the ABI's async_poll_event (READABLE, WRITABLE, DISCONNECT,
 * PRIORITIZED) and of libuv's UV_* poll flags. */
#define ASYNC_POLL_READ   1  /* readable (or a pending connection on a listening socket) */
#define ASYNC_POLL_WRITE  2  /* writable (or a non-blocking connect finished) */
#define ASYNC_POLL_ERROR  4  /* error or hang-up: always reported, never needs asking */
#define ASYNC_POLL_PRI    8  /* out-of-band / priority data (select()'s except set) */
#define ASYNC_POLL_CLOSED 16 /* async_io_fd_closing() was called while waiting */

/* Inside a coroutine, and switching is allowed (not in the scheduler, not in a destructor on 8.2,
 * not after the runtime's final drain). */
bool async_io_can_wait(void);

/* Suspends the current coroutine until fd is ready for `mask` (ASYNC_POLL_READ|ASYNC_POLL_WRITE;
 * ERROR and CLOSED are reported whatever the mask), or timeout_ms passes (< 0 = no timeout).
 * Returns the ready mask (> 0), 0 on timeout, -1 with an exception set (cancellation, ...). */
int async_io_wait_fd(php_socket_t fd, int mask, zend_long timeout_ms);

/* The same, with the timeout's timer kept by the caller between waits (*timer is NULL at first;
 * release it with ZEND_ASYNC_EVENT_RELEASE(&(*timer)->base) when done, and use it for one wait at
 * a time): a descriptor waited for over and over (a keep-alive connection) re-arms one libuv timer
 * instead of creating and closing one per wait. */
int async_io_wait_fd_timer(php_socket_t fd, int mask, zend_long timeout_ms, zend_async_timer_event_t **timer);

/* Several descriptors at once (stream_select, socket_select): waits until at least one entry is
 * ready, or timeout_ms passes (< 0 = no timeout; 0 = just look). Fills revents of every entry
 * (each a subset of events | ERROR | CLOSED) and returns how many entries are ready, 0 on
 * timeout, -1 with an exception set. Entries with fd < 0 or events == 0 are ignored. */
typedef struct {
	php_socket_t fd;
	int events;
	int revents;
} async_io_pollfd_t;

int async_io_wait_many(async_io_pollfd_t *fds, uint32_t count, zend_long timeout_ms);

/* The same, and the wait also ends when `also` fires: an event of the caller's that says waiting
 * for these descriptors is no longer the point (another coroutine made progress on a resource the
 * caller shares with it: curl_multi_select() while another coroutine's curl_multi_exec() finishes
 * transfers on the same multi). The waker holds a reference to `also` while it waits. Woken by it
 * alone, no entry is ready and the result is 0, as on a timeout. With timeout_ms == 0 `also` is not
 * looked at (a plain poll). */
int async_io_wait_many_or(async_io_pollfd_t *fds, uint32_t count, zend_long timeout_ms, zend_async_event_t *also);

/* Announces that fd is about to be closed: waiters wake with ASYNC_POLL_CLOSED, the poll handle
 * is stopped and forgotten. Harmless when nothing ever polled fd, and outside coroutines.
 * Calling it for a descriptor you just created or accepted is also good: a poll left behind by an
 * older descriptor with the same number (closed without this call) is dropped. */
void async_io_fd_closing(php_socket_t fd);

/* Optional: the caller promises to call async_io_fd_closing(fd) before closing fd. Its poll is
 * then kept armed between waits (no epoll_ctl per wait); otherwise it is dropped after each. */
void async_io_fd_track(php_socket_t fd);

END_EXTERN_C()

#endif /* ASYNC_IO_WAIT_H */
