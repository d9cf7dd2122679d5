/*
 * reactor/io.c — the ABI's unified I/O handle (zend_async_io_t, seed "Async IO") for pipes,
 * TCP/UDP sockets, TTYs and files: one-shot read and write requests the reactor completes.
 *
 * A request is tried at once without blocking. If the descriptor is not ready, the handle waits
 * on the descriptor's shared poll through a proxy of its own (reactor/poll.c, via the ABI's
 * poll slots) and the reactor finishes the request from the poll callback: it does the read() or
 * the rest of the write(), marks the request completed and notifies the handle's event. A
 * coroutine waits like this:
 *
 *     zend_async_io_req_t *req = ZEND_ASYNC_IO_READ(io, 8192);
 *     if (!req->completed) {
 *         ZEND_ASYNC_WAKER_NEW(co);
 *         zend_async_resume_when(co, &io->event, false, zend_async_waker_callback_resolve, NULL);
 *         ZEND_ASYNC_SUSPEND();
 *         ZEND_ASYNC_WAKER_CLEAN(co);
 *     }
 *     ... req->result (bytes, 0 = EOF, -1 with req->exception), req->buf ...
 *     req->dispose(req);
 *
 * One read and one write may be pending per handle. The descriptor's blocking mode is never
 * changed: sockets use MSG_DONTWAIT, other descriptors are looked at with poll(0) first, and pipe
 * writes go PIPE_BUF bytes at a time (poll's "writable" promises that much).
 */
#include "php_async.h"
#include "async_io_wait.h"
#define ASYNC_REACTOR_UV /* the libuv side of the reactor's header */
#include "reactor/reactor.h"
#include "zend_exceptions.h"
#include <poll.h>
#include <limits.h>

typedef struct _async_io_handle_s async_io_handle_t;

typedef struct {
	zend_async_io_req_t req;     /* first */
	async_io_handle_t *handle;   /* NULL once detached (completed or the handle went away) */
	const char *data;            /* write: what is left to write lives in req.buf */
	size_t size;                 /* read: the buffer's size; write: the total */
	bool is_write;
} io_req_t;

typedef struct {
	zend_async_event_callback_t base;
	async_io_handle_t *handle;
	bool is_write;
} io_poll_callback_t;

struct _async_io_handle_s {
	zend_async_io_t io;                  /* first: the event sits at offset 0 */
	zend_async_poll_proxy_t *proxy[2];   /* [0] read, [1] write, while a request waits */
	io_poll_callback_t *callback[2];
	io_req_t *pending[2];
};

#define IO_IS_SOCKET(h) ((h)->io.type == ZEND_ASYNC_IO_TYPE_TCP || (h)->io.type == ZEND_ASYNC_IO_TYPE_UDP)

static void io_req_error(io_req_t *r, int err)
{
	r->req.result = -1;
	r->req.exception = zend_async_new_exception(ZEND_ASYNC_EXCEPTION_INPUT_OUTPUT, "%s", strerror(err));
}

/* Whether the descriptor is ready now, for descriptors that are not sockets (no MSG_DONTWAIT). */
static bool io_ready_now(async_io_handle_t *h, short events)
{
	if (IO_IS_SOCKET(h) || h->io.type == ZEND_ASYNC_IO_TYPE_FILE) {
		return true;
	}
	struct pollfd p = { h->io.descriptor.fd, events, 0 };
	return poll(&p, 1, 0) > 0;
}

/* One attempt. true = the request is finished (done, EOF or error); false = would block. */
static bool io_attempt(async_io_handle_t *h, io_req_t *r)
{
	int fd = h->io.descriptor.fd;
	if (!io_ready_now(h, r->is_write ? POLLOUT : POLLIN)) {
		return false;
	}
	ssize_t n;
	if (!r->is_write) {
		n = IO_IS_SOCKET(h) ? recv(fd, r->req.buf, r->size, MSG_DONTWAIT) : read(fd, r->req.buf, r->size);
		if (n >= 0) {
			r->req.result = n;
			if (n == 0) {
				h->io.state |= ZEND_ASYNC_IO_EOF;
			}
			return true;
		}
	} else {
		size_t left = r->size - (size_t) r->req.transferred;
		if (!IO_IS_SOCKET(h) && h->io.type != ZEND_ASYNC_IO_TYPE_FILE && left > PIPE_BUF) {
			left = PIPE_BUF;
		}
		const char *from = r->req.buf + r->req.transferred;
		n = IO_IS_SOCKET(h) ? send(fd, from, left, MSG_DONTWAIT | MSG_NOSIGNAL) : write(fd, from, left);
		if (n >= 0) {
			r->req.transferred += n;
			return (size_t) r->req.transferred == r->size;
		}
	}
	if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
		return false;
	}
	io_req_error(r, errno);
	return true;
}

static void io_stop_waiting(async_io_handle_t *h, int dir)
{
	zend_async_poll_proxy_t *proxy = h->proxy[dir];
	if (proxy == NULL) {
		return;
	}
	h->proxy[dir] = NULL;
	proxy->base.del_callback(&proxy->base, &h->callback[dir]->base);
	proxy->base.stop(&proxy->base);
	ZEND_ASYNC_EVENT_RELEASE(&proxy->base);
}

/* The request is over: detach it and tell whoever waits on the handle. */
static void io_complete(async_io_handle_t *h, int dir)
{
	io_req_t *r = h->pending[dir];
	h->pending[dir] = NULL;
	io_stop_waiting(h, dir);
	r->handle = NULL;
	r->req.completed = true;
	ZEND_ASYNC_CALLBACKS_NOTIFY(&h->io.event, &r->req, NULL);
}

/* The poll says ready (or closed): try again; wait on if it was a false alarm. */
static void io_poll_ready(zend_async_event_t *event, zend_async_event_callback_t *callback, void *result, zend_object *exception)
{
	io_poll_callback_t *cb = (io_poll_callback_t *) callback;
	async_io_handle_t *h = cb->handle;
	int dir = cb->is_write;
	io_req_t *r = h->pending[dir];
	zend_async_poll_proxy_t *proxy = (zend_async_poll_proxy_t *) event;
	if (r == NULL) {
		return;
	}
	if (proxy->triggered_events & ASYNC_POLL_CLOSED) {
		r->req.io_closed = true;
		r->req.result = -1;
		io_complete(h, dir);
		return;
	}
	if (io_attempt(h, r)) {
		io_complete(h, dir);
		return;
	}
	proxy->base.start(&proxy->base); /* re-arms the one-shot proxy */
}

static bool io_start_waiting(async_io_handle_t *h, int dir)
{
	zend_async_poll_event_t *poll = ZEND_ASYNC_NEW_POLL_EVENT(h->io.descriptor.fd, -1, 0);
	if (poll == NULL) {
		return false;
	}
	zend_async_poll_proxy_t *proxy = ZEND_ASYNC_NEW_POLL_PROXY_EVENT(poll, dir ? ZEND_ASYNC_WRITABLE : ZEND_ASYNC_READABLE);
	ZEND_ASYNC_EVENT_RELEASE(&poll->base); /* the proxy holds the poll */
	if (proxy == NULL) {
		return false;
	}
	if (h->callback[dir] == NULL) {
		h->callback[dir] = (io_poll_callback_t *) zend_async_event_callback_new(io_poll_ready, sizeof(io_poll_callback_t));
		h->callback[dir]->handle = h;
		h->callback[dir]->is_write = dir;
	}
	h->proxy[dir] = proxy;
	proxy->base.add_callback(&proxy->base, &h->callback[dir]->base);
	proxy->base.start(&proxy->base);
	return true;
}

/* ---------------------------------------------------------------------------------------------
 * Requests
 * ------------------------------------------------------------------------------------------- */

static void io_req_dispose(zend_async_io_req_t *req)
{
	io_req_t *r = (io_req_t *) req;
	if (r->handle != NULL) {
		/* Given up while pending (a cancelled waiter): the handle forgets it. */
		async_io_handle_t *h = r->handle;
		h->pending[r->is_write] = NULL;
		io_stop_waiting(h, r->is_write);
	}
	if (r->req.exception) {
		OBJ_RELEASE(r->req.exception);
	}
	if (r->req.buf) {
		efree(r->req.buf);
	}
	efree(r);
}

static zend_async_io_req_t *io_request(zend_async_io_t *io, bool is_write, const char *buf, size_t size)
{
	async_io_handle_t *h = (async_io_handle_t *) io;
	io_req_t *r = ecalloc(1, sizeof(io_req_t));
	r->req.dispose = io_req_dispose;
	r->is_write = is_write;
	r->size = size;
	r->req.buf = emalloc(size ? size : 1);
	if (is_write && size) {
		memcpy(r->req.buf, buf, size);
	}
	if (io->state & ZEND_ASYNC_IO_CLOSED) {
		r->req.io_closed = true;
		r->req.result = -1;
		r->req.completed = true;
		return &r->req;
	}
	if (h->pending[is_write] != NULL) {
		r->req.result = -1;
		r->req.exception = zend_async_new_exception(ZEND_ASYNC_EXCEPTION_INPUT_OUTPUT,
			is_write ? "A write is already pending on this handle" : "A read is already pending on this handle");
		r->req.completed = true;
		return &r->req;
	}
	if (io_attempt(h, r)) {
		r->req.completed = true;
		return &r->req;
	}
	r->handle = h;
	h->pending[is_write] = r;
	if (!io_start_waiting(h, is_write)) {
		h->pending[is_write] = NULL;
		r->handle = NULL;
		r->req.result = -1;
		if (EG(exception)) {
			r->req.exception = EG(exception);
			GC_ADDREF(r->req.exception);
			zend_clear_exception();
		}
		r->req.completed = true;
	}
	return &r->req;
}

static zend_async_io_req_t *io_read(zend_async_io_t *io, size_t max_size)
{
	return io_request(io, false, NULL, max_size);
}

static zend_async_io_req_t *io_write(zend_async_io_t *io, const char *buf, size_t count)
{
	return io_request(io, true, buf, count);
}

/* ---------------------------------------------------------------------------------------------
 * The handle
 * ------------------------------------------------------------------------------------------- */

static int io_close(zend_async_io_t *io)
{
	async_io_handle_t *h = (async_io_handle_t *) io;
	if (io->state & ZEND_ASYNC_IO_CLOSED) {
		return 0;
	}
	io->state |= ZEND_ASYNC_IO_CLOSED;
	for (int dir = 0; dir < 2; dir++) {
		if (h->pending[dir] != NULL) {
			h->pending[dir]->req.io_closed = true;
			h->pending[dir]->req.result = -1;
			io_complete(h, dir);
		}
	}
	int r = 0;
	if ((io->state & ZEND_ASYNC_IO_OWNS_FD) && !(io->state & ZEND_ASYNC_IO_PRESERVE_FD)) {
		async_io_fd_closing(io->descriptor.fd);
		r = close(io->descriptor.fd);
	}
	if (io->on_detach) {
		io->on_detach(io, io->user_data);
	}
	return r;
}

static int io_flush(zend_async_io_t *io)
{
	(void) io;
	return 0; /* nothing is buffered here */
}

static bool io_event_dispose(zend_async_event_t *event)
{
	if (event->ref_count > 1) {
		event->ref_count--;
		return true;
	}
	async_io_handle_t *h = (async_io_handle_t *) event;
	for (int dir = 0; dir < 2; dir++) {
		if (h->pending[dir] != NULL) {
			h->pending[dir]->handle = NULL; /* its owner still disposes it */
			h->pending[dir] = NULL;
		}
		io_stop_waiting(h, dir);
		if (h->callback[dir] != NULL) {
			zend_async_event_callback_unref(&h->callback[dir]->base, NULL);
		}
	}
	async__reactor_counting_stop(event);
	zend_async_callbacks_free(event);
	efree(h);
	return true;
}

static zend_string *io_event_info(zend_async_event_t *event)
{
	static const char *types[] = { "pipe", "file", "tcp", "udp", "tty" };
	async_io_handle_t *h = (async_io_handle_t *) event;
	return zend_strpprintf(0, "IO(%s, fd=%d)", types[h->io.type], h->io.descriptor.fd);
}

static const async_event_methods_t io_methods = {
	.start = async__reactor_counting_start, .stop = async__reactor_counting_stop, .dispose = io_event_dispose, .info = io_event_info,
};

static zend_async_io_t *io_create(zend_file_descriptor_t fd, zend_async_io_type type, uint32_t state)
{
	if (fd < 0 || type > ZEND_ASYNC_IO_TYPE_TTY) {
		zend_throw_error(NULL, "Async: an I/O handle needs a valid descriptor and type");
		return NULL;
	}
	async_io_handle_t *h = ecalloc(1, sizeof(async_io_handle_t));
	zend_async_event_t *event = &h->io.event;
	async__event_init(event, &io_methods);
	h->io.descriptor.fd = fd;
	h->io.type = type;
	h->io.state = state & ~(ZEND_ASYNC_IO_CLOSED | ZEND_ASYNC_IO_EOF);
	return &h->io;
}

zend_result async__reactor_io_minit(void)
{
	zend_async_io_api_t api = {
		.create = io_create,
		.read = io_read,
		.write = io_write,
		.close = io_close,
		.flush = io_flush,
	};
	/* false: another implementation of this ABI table is registered */
	return zend_async_io_register("libuv", false, &api) ? SUCCESS : FAILURE;
}
