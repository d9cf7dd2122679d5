/*
 * hooks/stream_transport.c — socket streams that suspend only the calling coroutine.
 *
 * The socket transports (tcp, udp, unix, udg and ext/openssl's ssl/tls family) get a factory
 * that calls the original one and then swaps the new stream's ops for a per-stream copy whose
 * read, write, close and set_option are ours (design doc §4b). Everything else stays PHP's:
 * the abstract data, the label, cast, stat and every message.
 *
 * How an operation runs in a coroutine, on a stream PHP sees as blocking:
 * - the descriptor is O_NONBLOCK under the hood, and the original op is called with the socket
 *   marked non-blocking for that one call, so it never waits itself;
 * - when it would block, the coroutine waits on the descriptor's poll (async_io_wait.h), bounded by the
 *   stream's timeout, and calls again. Trying first and waiting second is what TLS needs (OpenSSL
 *   may hold decrypted data while the socket is idle, P14);
 * - a timeout ends as PHP's own does (timed_out in the meta data, the same return value and notice).
 * Outside a coroutine, in a destructor (P9), after the runtime shut down, or for a stream the user
 * made non-blocking, the original op runs as it is, with the descriptor back in blocking mode
 * when PHP thinks it is blocking.
 *
 * Rules that keep this sound:
 * - every delegated call runs with the original ops in place (P15: xp_socket.c compares
 *   stream->ops with its own tables), and never suspends; suspension happens only here, with our
 *   ops in place, so other coroutines using the stream meanwhile still go through us;
 * - ext/openssl's own connect-time and accept-time handshakes would block inside the delegated
 *   call, so its enable_on_connect flag is hidden for that call and the handshake is done after
 *   it, through our crypto path;
 * - close() announces the descriptor to the poll table first (P13) and, if coroutines are still
 *   inside an op of this stream, lets them leave before PHP frees the stream.
 */
#include "php_async.h"
#include "hooks/hooks.h"
#include "core/core.h"
#include "reactor/reactor.h"
#include "async_io_wait.h"
#include "ext/standard/file.h"
#include "zend_exceptions.h"
#include <dlfcn.h>
#include <fcntl.h>
#include <netdb.h>
#include <sys/ioctl.h>

#ifndef PHP_TIMEOUT_ERROR_VALUE
# define PHP_TIMEOUT_ERROR_VALUE ETIMEDOUT
#endif

/* ext/openssl's private stream data starts like this (ext/openssl/xp_ssl.c) on the versions
 * core/core.h names. The handshake and TLS transports need it; on other versions they stay
 * PHP's own. */
#if ASYNC_OPENSSL_LAYOUT_KNOWN
# define NET_OPENSSL_LAYOUT 1
typedef struct {
	php_netstream_data_t s;
	void *ssl_handle;
	void *ctx;
	struct timeval connect_timeout;
	int enable_on_connect;
	int is_client;
	int ssl_active;
	php_stream_xport_crypt_method_t method;
} net_openssl_data_t;
#else
# define NET_OPENSSL_LAYOUT 0
#endif

#define NET_SSL_ERROR_WANT_READ 2  /* SSL_get_error() values */
#define NET_SSL_ERROR_WANT_WRITE 3
#define NET_SSL_WRITING 2 /* SSL_want() values */
#define NET_SSL_READING 3
#define NET_SSL_NOTHING 1
#define NET_CRYPTO_IS_CLIENT (1 << 0) /* xp_ssl.c's STREAM_CRYPTO_IS_CLIENT */

typedef enum { NET_STREAM, NET_DGRAM, NET_LOCAL_STREAM, NET_LOCAL_DGRAM, NET_PAIR } net_kind_t;

typedef struct {
	php_stream_ops ops;          /* first: stream->ops points here while the stream is ours */
	const php_stream_ops *orig;
	uint32_t inflight;           /* coroutines waiting inside one of our ops */
	php_socket_t fd;             /* the descriptor last seen */
	net_kind_t kind;
	bool openssl;                /* the abstract data is ext/openssl's */
	bool nonblock;               /* the descriptor is known to be O_NONBLOCK */
	bool tracked;                /* its poll is kept between waits */
	bool drained;                /* the last read emptied the socket: the next one waits first */
	bool read_resume;            /* async__net_read_wait() waited: the read it precedes goes on */
	uint64_t read_resume_at;     /* with that wait's deadline (0: none), */
	uint64_t read_resume_seq;    /* if no switch happened since (ASYNC_G(switch_seq)) */
	uint16_t accept_backoff_ms;  /* a listener out of descriptors: the next accept's back-off */
	bool listening;              /* listen() succeeded: a read of it fails at once (ENOTCONN), never waits */
	zend_async_timer_event_t *timer; /* the timeout's timer, re-armed wait after wait (not persistent) */
	bool closing;
	bool orphaned;               /* closed and freed while a coroutine was still inside */
	bool persistent;             /* pfsockopen() & co.: this state outlives the request */
	uint32_t serial;             /* the request whose state it holds (persistent streams) */
	bool writing;                /* a coroutine is inside a write: other writers wait their turn */
	zend_async_event_t write_turn; /* notified when that write ends or the stream closes */
} net_stream_t;

#define NET(stream)  ((net_stream_t *) (stream)->ops)
#define SOCK(stream) ((php_netstream_data_t *) (stream)->abstract)
#define NET_GONE (-2)            /* net_wait(): the stream was freed meanwhile; touch nothing */

/* per-process: libssl's SSL_want(), found once at MINIT */
static int (*ssl_want_fn)(const void *ssl);
/* per-process: libssl's SSL_pending(), found once at MINIT */
static int (*ssl_pending_fn)(const void *ssl);
/* per-process: libssl's SSL_peek(), found once at MINIT */
static int (*ssl_peek_fn)(void *ssl, void *buf, int num);
/* per-process: libssl's SSL_get_error(), found once at MINIT */
static int (*ssl_get_error_fn)(const void *ssl, int ret);
/* per-process: libcrypto's ERR_clear_error(), found once at MINIT */
static void (*err_clear_error_fn)(void);

static ssize_t net_read(php_stream *stream, char *buf, size_t count);

/* ---------------------------------------------------------------------------------------------
 * Descriptor mode, deadlines, waiting
 * ------------------------------------------------------------------------------------------- */

static void net_free(net_stream_t *ns)
{
	if (ns->timer != NULL) {
		ZEND_ASYNC_EVENT_RELEASE(&ns->timer->base);
		ns->timer = NULL;
	}
	async__wait_plain_event_free(&ns->write_turn);
	pefree(ns, ns->persistent);
}

/* A persistent stream outlives the request that opened it. What its state knew of an earlier
 * request (the poll tracked in that request's table, whether a writer held the turn) is gone
 * with it; no coroutine outlives a request, so nobody waits. */
static void net_sync(net_stream_t *ns)
{
	if (EXPECTED(!ns->persistent) || ns->serial == ASYNC_G(request_serial)) {
		return;
	}
	ZEND_ASSERT(ns->write_turn.callbacks.length == 0 && "no coroutine outlives its request");
	ns->serial = ASYNC_G(request_serial);
	ns->tracked = false;
	ns->fd = SOCK_ERR; /* seen anew: a poll left for its number is dropped (P13) */
	ns->writing = false;
	ns->inflight = 0;
}

static void net_set_nonblock(net_stream_t *ns, php_netstream_data_t *sock, bool on)
{
	int value = on;
	if (ioctl(sock->socket, FIONBIO, &value) == 0) {
		ns->nonblock = on;
	}
}

/* A descriptor number we have not seen on this stream may have been used by a closed socket
 * that left a poll behind: drop it before anyone waits (P13). */
static void net_fd_seen(net_stream_t *ns, php_netstream_data_t *sock)
{
	if (sock != NULL && sock->socket != SOCK_ERR && sock->socket != ns->fd) {
		ns->fd = sock->socket;
		ns->tracked = false;
		async_io_fd_closing(ns->fd);
	}
}

/* PHP's own code, on a blocking stream, may rely on a blocking descriptor (recvfrom, recv with
 * no timeout). */
static void net_stock_mode(net_stream_t *ns, php_netstream_data_t *sock)
{
	if (ns->nonblock && sock != NULL && sock->is_blocked && sock->socket != SOCK_ERR) {
		net_set_nonblock(ns, sock, false);
	}
}

static void net_async_mode(net_stream_t *ns, php_netstream_data_t *sock)
{
	net_fd_seen(ns, sock);
	if (!ns->nonblock) {
		net_set_nonblock(ns, sock, true);
	}
}

/* An open descriptor, not being closed, inside a coroutine that may switch. */
static bool net_usable(net_stream_t *ns, php_netstream_data_t *sock)
{
	net_sync(ns);
	return sock != NULL && sock->socket != SOCK_ERR && !ns->closing && async_io_can_wait();
}

/* Coroutine-aware only for a stream PHP sees as blocking. */
static bool net_can_wait(net_stream_t *ns, php_netstream_data_t *sock)
{
	return net_usable(ns, sock) && sock->is_blocked;
}

/* A delegated call runs with the original ops (P15) and must not suspend: a warning it raises
 * could run a user error handler that waits, and other coroutines would then see the stream
 * half-swapped. Switching is blocked for its duration, as PHP does around destructors. */
static inline void net_orig_enter(php_stream *stream, net_stream_t *ns)
{
	zend_fiber_switch_block();
	stream->ops = ns->orig;
}

static inline void net_orig_leave(php_stream *stream, net_stream_t *ns)
{
	stream->ops = &ns->ops;
	zend_fiber_switch_unblock();
}

/* ext/openssl switches a blocking stream's descriptor around its own I/O, handshake and
 * liveness check, and leaves it blocking: after such a call we no longer know its mode. */
static inline void net_mode_unknown(php_stream *stream, net_stream_t *ns)
{
	php_netstream_data_t *sock = SOCK(stream);
	if (ns->openssl && sock != NULL && sock->is_blocked) {
		ns->nonblock = false;
	}
}

static int net_orig_set_option(php_stream *stream, net_stream_t *ns, int option, int value, void *ptrparam)
{
	if (ns->orig->set_option == NULL) {
		return PHP_STREAM_OPTION_RETURN_NOTIMPL;
	}
	net_orig_enter(stream, ns);
	int r = ns->orig->set_option(stream, option, value, ptrparam);
	net_orig_leave(stream, ns);
	return r;
}

/* Calls the original set_option as a non-blocking stream would (it then never waits). */
static int net_orig_set_option_nb(php_stream *stream, net_stream_t *ns, int option, int value, void *ptrparam)
{
	php_netstream_data_t *sock = SOCK(stream);
	sock->is_blocked = 0;
	int r = net_orig_set_option(stream, ns, option, value, ptrparam);
	sock->is_blocked = 1;
	return r;
}

/* A wait's deadline: `at` in hrtime ns, 0 = none. A read's or a write's starts with its first
 * wait (`start` still set), as PHP's own poll starts the timeout when it polls: a read or write
 * that does not wait reads no clock (on a keep-alive server those reads were 1.5% of its CPU). */
typedef struct {
	uint64_t at;
	const struct timeval *start; /* the timeout, until the first wait starts it */
} net_deadline_t;

/* The timeout's span in ns plus one (a deadline is never reached early), 0 when there is none:
 * a negative tv_sec is PHP's "no timeout". */
static uint64_t net_timeout_span(const struct timeval *tv)
{
	if (tv == NULL || tv->tv_sec < 0 || tv->tv_sec > 100000000) {
		return 0;
	}
	return (uint64_t) tv->tv_sec * 1000000000u + (uint64_t) tv->tv_usec * 1000u + 1;
}

/* A deadline counted from now (connect, accept, handshake, datagrams). */
static net_deadline_t net_deadline(const struct timeval *tv)
{
	uint64_t span = net_timeout_span(tv);
	return (net_deadline_t) { span ? async_reactor_hrtime() + span : 0, NULL };
}

/* A deadline counted from the first wait (reads and writes). */
static net_deadline_t net_deadline_at_wait(const struct timeval *tv)
{
	return (net_deadline_t) { 0, net_timeout_span(tv) ? tv : NULL };
}

/* Milliseconds left for the next wait, rounded up; -1 for none. Starts a deadline not started
 * yet: its whole span is left then, without a second clock read. */
static zend_long net_deadline_ms(net_deadline_t *d)
{
	uint64_t left;
	if (d->start != NULL) {
		left = net_timeout_span(d->start);
		d->start = NULL;
		d->at = async_reactor_hrtime() + left;
	} else if (d->at == 0) {
		return -1;
	} else {
		uint64_t now = async_reactor_hrtime();
		left = now >= d->at ? 0 : d->at - now;
	}
	return (zend_long) ((left + 999999) / 1000000);
}

/* Waits for the stream's descriptor: 1 ready, 0 timed out, -1 exception or the stream is being
 * closed, NET_GONE when the stream was freed meanwhile (the caller must not touch it). */
static zend_string *net_write_turn_info(zend_async_event_t *event)
{
	return zend_string_init("stream write turn", sizeof("stream write turn") - 1, 0);
}

static int net_wait(php_stream *stream, net_stream_t *ns, int mask, net_deadline_t *deadline)
{
	php_socket_t fd = SOCK(stream)->socket;
	if (!ns->tracked) {
		ns->tracked = true;
		async_io_fd_track(fd);
	}
	/* One waiter at a time re-arms the stream's own timer; a persistent stream's state outlives
	 * the request (and its loop), so it makes one per wait. */
	bool own_timer = ns->inflight == 0 && !ns->persistent;
	ns->inflight++;
	int r;
	do {
		/* libuv's loop clock counts whole milliseconds, so its timer may fire up to 1 ms before
		 * the deadline: wait out the rest, a timeout is never shorter than asked. */
		zend_long ms = net_deadline_ms(deadline);
		r = own_timer ? async_io_wait_fd_timer(fd, mask, ms, &ns->timer) : async_io_wait_fd(fd, mask, ms);
	} while (r == 0 && deadline->at != 0 && async_reactor_hrtime() < deadline->at && !ns->orphaned && !ns->closing);
	ns->inflight--;
	if (ns->orphaned) {
		if (ns->inflight == 0) {
			net_free(ns);
		}
		return NET_GONE;
	}
	if (ns->closing) {
		return -1;
	}
	return r > 0 ? 1 : r;
}

/* Which way a TLS operation that could not finish wants to go (a read may need to write during
 * a renegotiation, a handshake goes both ways). */
static int net_tls_direction(php_stream *stream, net_stream_t *ns, int fallback, bool handshake)
{
#if NET_OPENSSL_LAYOUT
	net_openssl_data_t *data = (net_openssl_data_t *) stream->abstract;
	if (ns->openssl && !handshake && ssl_get_error_fn != NULL && data->ssl_handle != NULL && data->ssl_active) {
		/* Not SSL_want(): libssl leaves it at "writing" after a write the socket refused for
		 * good (EPIPE, ECONNRESET), and waiting for a writable socket there retries the same
		 * failing write forever. SSL_get_error() asks the BIO whether the failure was only
		 * "not now" (EAGAIN); anything else is the end, which xp_ssl has already reported. */
		switch (ssl_get_error_fn(data->ssl_handle, -1)) {
			case NET_SSL_ERROR_WANT_WRITE: return ASYNC_POLL_WRITE;
			case NET_SSL_ERROR_WANT_READ: return ASYNC_POLL_READ;
			default: return 0;
		}
	}
	if (ns->openssl && ssl_want_fn != NULL && data->ssl_handle != NULL && (handshake || data->ssl_active)) {
		switch (ssl_want_fn(data->ssl_handle)) {
			case NET_SSL_WRITING: return ASYNC_POLL_WRITE;
			case NET_SSL_READING: return ASYNC_POLL_READ;
			case NET_SSL_NOTHING: return 0; /* nothing to wait for: it failed */
		}
	}
#endif
	return fallback;
}

static bool net_tls_active(php_stream *stream, net_stream_t *ns)
{
#if NET_OPENSSL_LAYOUT
	return ns->openssl && ((net_openssl_data_t *) stream->abstract)->ssl_active;
#else
	return ns->openssl;
#endif
}

/* ---------------------------------------------------------------------------------------------
 * read / write
 * ------------------------------------------------------------------------------------------- */

/* One call of the original read or write, with the original ops in place (P15). */
static ssize_t net_orig_io(php_stream *stream, net_stream_t *ns, bool is_write, char *buf, size_t count)
{
	net_orig_enter(stream, ns);
	ssize_t n = is_write ? ns->orig->write(stream, buf, count) : ns->orig->read(stream, buf, count);
	net_orig_leave(stream, ns);
	return n;
}

/* Where we cannot wait: the original op exactly as stock PHP runs it. */
static ssize_t net_stock_io(php_stream *stream, net_stream_t *ns, bool is_write, char *buf, size_t count)
{
	net_stock_mode(ns, SOCK(stream));
	ssize_t n = net_orig_io(stream, ns, is_write, buf, count);
	net_mode_unknown(stream, ns);
	return n;
}

/* Try first: the original op, non-blocking for this one call. */
static ssize_t net_try_io(php_stream *stream, net_stream_t *ns, bool is_write, char *buf, size_t count)
{
	php_netstream_data_t *sock = SOCK(stream);
	sock->is_blocked = 0;
	ssize_t n = net_orig_io(stream, ns, is_write, buf, count);
	sock->is_blocked = 1;
	return n;
}

/* Where a read lands. PHP's buffered read hands ops->read the free end of the stream's read
 * buffer (readbuf + writepos) and accounts what we read there after we return. Another coroutine
 * reading the same stream while we wait may fill that buffer, consume it, compact it or move it:
 * our pointer is then stale. So after a wait the target is checked again: data someone else put
 * in the buffer is ours to take at once (return 0: PHP copies from the buffer, and a read never
 * waits for data that is already there), otherwise we read where PHP will now account it. */
typedef struct {
	bool into_buffer;            /* buf is the stream's own read buffer */
	unsigned char *readbuf;      /* the buffer and its fill level when buf was computed */
	zend_off_t writepos;
} net_read_target_t;

static void net_read_target_init(php_stream *stream, net_read_target_t *t, const char *buf)
{
	t->into_buffer = stream->readbuf != NULL && buf == (char *) stream->readbuf + stream->writepos;
	t->readbuf = stream->readbuf;
	t->writepos = stream->writepos;
}

/* After a wait: false when the caller should return 0 (buffered data is waiting, or no room). */
static bool net_read_target_refresh(php_stream *stream, net_read_target_t *t, char **buf, size_t *count)
{
	if (!t->into_buffer || (stream->readbuf == t->readbuf && stream->writepos == t->writepos)) {
		return true; /* nobody touched the buffer */
	}
	if (stream->writepos > stream->readpos) {
		return false;
	}
	t->readbuf = stream->readbuf;
	t->writepos = stream->writepos;
	*buf = (char *) stream->readbuf + stream->writepos;
	*count = stream->readbuflen - (size_t) stream->writepos;
	return *count > 0;
}

/* A read's deadline: from its first wait (`from_now`: from now), or, when async__net_read_wait()
 * has just waited for this very read (no switch since), that wait's own deadline: the two waits
 * together last no longer than the stream's timeout, and a wait that timed out makes the read
 * report the timeout after one look. */
static net_deadline_t net_read_deadline(net_stream_t *ns, php_netstream_data_t *sock, bool from_now)
{
	if (ns->read_resume) {
		ns->read_resume = false;
		if (ns->read_resume_seq == ASYNC_G(switch_seq)) {
			return (net_deadline_t) { ns->read_resume_at, NULL };
		}
	}
	return from_now ? net_deadline(&sock->timeout) : net_deadline_at_wait(&sock->timeout);
}

static ssize_t net_read(php_stream *stream, char *buf, size_t count)
{
	net_stream_t *ns = NET(stream);
	php_netstream_data_t *sock = SOCK(stream);
	if (ns->closing) {
		stream->eof = 1;
		return 0;
	}
	if (!net_can_wait(ns, sock)) {
		return net_stock_io(stream, ns, false, buf, count);
	}

	net_async_mode(ns, sock);
	net_deadline_t deadline = net_read_deadline(ns, sock, false);
	if (!net_tls_active(stream, ns)) {
		sock->timeout_event = 0; /* as PHP's wait for data does */
	}
	net_read_target_t target;
	net_read_target_init(stream, &target, buf);
	/* A read that got less than it asked for emptied the socket; on a keep-alive connection the
	 * next one would only learn EAGAIN from recv(). It waits for readiness first, so a request
	 * costs one recv(). Not over TLS: OpenSSL may hold decrypted bytes no poll reports. */
	bool wait_first = ns->drained && count > 0 && !net_tls_active(stream, ns);
	for (;;) {
		if (!wait_first) {
			ssize_t n = net_try_io(stream, ns, false, buf, count);
			ns->drained = n >= 0 && (size_t) n < count;
			if (n != 0 || stream->eof || count == 0) {
				return n;
			}
		}
		wait_first = false;
		int mask = net_tls_direction(stream, ns, ASYNC_POLL_READ, false);
		int r = mask ? net_wait(stream, ns, mask, &deadline) : -1;
		if (r == NET_GONE) {
			return -1;
		}
		if (r == 0) {
			if (!net_read_target_refresh(stream, &target, &buf, &count)) {
				return 0; /* what another reader buffered meanwhile: no timeout for that */
			}
			sock->timeout_event = 1;
			return -1;
		}
		if (r < 0) {
			if (ns->closing) {
				stream->eof = 1; /* another coroutine closed the stream we were reading */
				return 0;
			}
			return -1;
		}
		if (!net_read_target_refresh(stream, &target, &buf, &count)) {
			return 0;
		}
	}
}

/* ---------------------------------------------------------------------------------------------
 * Waiting before a read allocates (for hooks/stream_read.c)
 *
 * fread($s, 65536) allocates its 64 KiB before our read op runs, and an idle keep-alive
 * connection would hold them for as long as it waits: thousands of idle connections exhaust the
 * memory limit. So the read functions wait here first, while nothing is allocated yet, and
 * only then call PHP's function, whose read finds the data (or the timeout) at once.
 * ------------------------------------------------------------------------------------------- */

/* Data to read without waiting: application data OpenSSL holds or can make of what the socket
 * has, or a plain socket that polls readable now. A plain socket the last read emptied (it got
 * less than it asked for) is taken to be idle without a look: that read's recv() just said so,
 * and the read op would wait first too. `*mask` is what to wait for when not. */
static bool net_read_ready_now(php_stream *stream, net_stream_t *ns, php_netstream_data_t *sock, int *mask)
{
	*mask = ASYNC_POLL_READ;
#if NET_OPENSSL_LAYOUT
	if (net_tls_active(stream, ns)) {
		void *ssl = ((net_openssl_data_t *) stream->abstract)->ssl_handle;
		if (ssl == NULL || ssl_pending_fn == NULL || ssl_peek_fn == NULL || ssl_get_error_fn == NULL
			|| ssl_pending_fn(ssl) > 0) {
			return true; /* decrypted bytes are there (or we cannot tell): the read takes them */
		}
		/* A peek (the descriptor is non-blocking) processes what the socket has: records OpenSSL
		 * read ahead, a TLS 1.3 session ticket with no data behind it, a partial record. Only
		 * "would block" means waiting; data, the end or an error are the read's to report. */
		char byte;
		int n = ssl_peek_fn(ssl, &byte, 1);
		if (n > 0) {
			return true;
		}
		int error = ssl_get_error_fn(ssl, n);
		if (error == NET_SSL_ERROR_WANT_WRITE) {
			*mask = ASYNC_POLL_WRITE;
		}
		if (error == NET_SSL_ERROR_WANT_READ || error == NET_SSL_ERROR_WANT_WRITE) {
			return false;
		}
		if (err_clear_error_fn != NULL) {
			err_clear_error_fn(); /* the read meets the same end and reports it with its own words */
		}
		return true;
	}
#endif
	if (ns->drained) {
		return false;
	}
	async_io_pollfd_t now = { sock->socket, ASYNC_POLL_READ, 0 };
	return async_io_wait_many(&now, 1, 0) != 0; /* readable, or an error the read will report */
}

/* An empty read buffer is given back while its stream waits (PHP makes a new one with the next
 * read): an idle connection then holds no buffer at all. Only while no other coroutine is inside
 * one of our ops: a waiting reader may hold a pointer into the buffer (net_read_target_t). */
static void net_read_buffer_drop(php_stream *stream, net_stream_t *ns)
{
	if (ns->inflight == 0 && stream->readbuf != NULL && stream->readpos == stream->writepos) {
		pefree(stream->readbuf, stream->is_persistent);
		stream->readbuf = NULL;
		stream->readbuflen = 0;
		stream->readpos = stream->writepos = 0;
	}
}

bool async__net_stream_owned(php_stream *stream)
{
	return stream->ops->read == net_read;
}

int async__net_read_wait(php_stream *stream)
{
	if (stream->ops->read != net_read || stream->eof || stream->writepos > stream->readpos) {
		return ASYNC_NET_READ_GO; /* not ours, at the end, or data is buffered: PHP's own path */
	}
	net_stream_t *ns = NET(stream);
	php_netstream_data_t *sock = SOCK(stream);
	if (ns->closing || ns->listening || !net_can_wait(ns, sock)) {
		return ASYNC_NET_READ_GO; /* non-blocking, a listener, outside a coroutine, ...: the read op decides */
	}
	net_async_mode(ns, sock);
	int mask;
	if (net_read_ready_now(stream, ns, sock, &mask)) {
		return ASYNC_NET_READ_GO;
	}
	net_read_buffer_drop(stream, ns);
	net_deadline_t deadline = net_deadline_at_wait(&sock->timeout);
	int r = net_wait(stream, ns, mask, &deadline);
	if (r == NET_GONE) {
		return ASYNC_NET_READ_CLOSED; /* closed and freed meanwhile: touch nothing */
	}
	if (r < 0) {
		return ns->closing ? ASYNC_NET_READ_CLOSED : ASYNC_NET_READ_THROWN;
	}
	/* Ready or timed out: the read runs now and goes on with this deadline (a timed-out one makes
	 * it look once and report the timeout exactly as its own wait would). */
	ns->drained = false;
	ns->read_resume = true;
	ns->read_resume_at = deadline.at;
	ns->read_resume_seq = ASYNC_G(switch_seq);
	return ASYNC_NET_READ_GO;
}

/* PHP's plain socket write reports a timed-out send this way (xp_socket.c). */
static void net_write_timeout_notice(php_stream *stream, size_t count)
{
	if (!(stream->flags & PHP_STREAM_FLAG_SUPPRESS_ERRORS)) {
		char *estr = php_socket_strerror(EAGAIN, NULL, 0);
		php_error_docref(NULL, E_NOTICE, "Send of " ZEND_LONG_FMT " bytes failed with errno=%d %s",
			(zend_long) count, EAGAIN, estr);
		efree(estr);
	}
}

/* One writer at a time per stream, in arrival order: a blocking fwrite() of one coroutine sends
 * all its bytes before another coroutine's start, as two processes writing one socket could
 * never promise but one PHP script always had. NET_GONE: the stream was freed meanwhile. */
static int net_write_turn_take(net_stream_t *ns)
{
	while (ns->writing) {
		ns->inflight++;
		bool ok = async__wait_event(&ns->write_turn, NULL, NULL, "write to a stream");
		ns->inflight--;
		async__wait_plain_event_trim(&ns->write_turn);
		if (ns->orphaned) {
			if (ns->inflight == 0) {
				net_free(ns);
			}
			return NET_GONE;
		}
		if (!ok || ns->closing) {
			return -1;
		}
	}
	ns->writing = true;
	return 1;
}

static void net_write_turn_give(net_stream_t *ns)
{
	ZEND_ASSERT(ns->writing);
	ns->writing = false;
	ZEND_ASYNC_CALLBACKS_NOTIFY(&ns->write_turn, NULL, NULL);
	async__wait_plain_event_trim(&ns->write_turn);
}

/* Sends the whole buffer (what a blocking send() does), waiting as often as needed within the
 * stream's timeout. What was sent before an error, a timeout or a cancellation is reported as a
 * short count; nothing sent is -1. */
static ssize_t net_write_all(php_stream *stream, net_stream_t *ns, const char *buf, size_t count, bool *gone)
{
	php_netstream_data_t *sock = SOCK(stream);
	net_deadline_t deadline = net_deadline_at_wait(&sock->timeout);
	size_t done = 0;
	for (;;) {
		ssize_t n = net_try_io(stream, ns, true, (char *) buf + done, count - done);
		if (n > 0) {
			done += (size_t) n;
			if (done == count) {
				return (ssize_t) done;
			}
			continue;
		}
		if (n < 0 || count == 0) {
			return done > 0 ? (ssize_t) done : n;
		}
		int mask = net_tls_direction(stream, ns, ASYNC_POLL_WRITE, false);
		if (mask == 0) {
			return done > 0 ? (ssize_t) done : n; /* TLS failed for good: xp_ssl's own 0 */
		}
		int r = net_wait(stream, ns, mask, &deadline);
		if (r == NET_GONE) {
			*gone = true;
			return -1;
		}
		if (r == 0) {
			sock->timeout_event = 1;
			if (!net_tls_active(stream, ns)) {
				net_write_timeout_notice(stream, count - done);
			}
			return done > 0 ? (ssize_t) done : -1;
		}
		if (r < 0) {
			return done > 0 ? (ssize_t) done : -1;
		}
	}
}

static ssize_t net_write(php_stream *stream, const char *buf, size_t count)
{
	net_stream_t *ns = NET(stream);
	php_netstream_data_t *sock = SOCK(stream);
	if (ns->closing) {
		return -1;
	}
	if (!net_can_wait(ns, sock)) {
		return net_stock_io(stream, ns, true, (char *) buf, count);
	}
	if (net_write_turn_take(ns) <= 0) {
		return -1; /* closed (or freed) while waiting for the turn, or cancelled */
	}
	net_async_mode(ns, sock);
	bool gone = false;
	ssize_t n = net_write_all(stream, ns, buf, count, &gone);
	if (!gone) {
		net_write_turn_give(ns);
	}
	return n;
}

/* ---------------------------------------------------------------------------------------------
 * close
 * ------------------------------------------------------------------------------------------- */

/* The coroutines woken by the close leave our ops before PHP frees the stream (they hold
 * pointers into it). The closer yields until they are gone; cancellation is deferred meanwhile,
 * as Async\protect() does, so the stream is never freed under them. */
static void net_let_waiters_leave(net_stream_t *ns)
{
	if (ns->inflight == 0 || !async_io_can_wait()) {
		return;
	}
	async_coroutine_t *co = async__coroutine_protect();
	for (int i = 0; i < 64 && ns->inflight > 0 && !EG(exception); i++) {
		async__wait_yield();
	}
	zend_object *error = async__coroutine_unprotect(co, !EG(exception));
	if (error != NULL) {
		zend_throw_exception_internal(error);
	}
}

static int net_close(php_stream *stream, int close_handle)
{
	net_stream_t *ns = NET(stream);
	php_netstream_data_t *sock = SOCK(stream);
	net_sync(ns);
	ns->closing = true;
	if (sock != NULL && sock->socket != SOCK_ERR) {
		async_io_fd_closing(sock->socket);
	}
	ZEND_ASYNC_CALLBACKS_NOTIFY(&ns->write_turn, NULL, NULL); /* writers waiting their turn */
	async__wait_plain_event_trim(&ns->write_turn);
	net_let_waiters_leave(ns);
	zend_fiber_switch_block();
	stream->ops = ns->orig;
	int r = ns->orig->close(stream, close_handle);
	zend_fiber_switch_unblock();
	if (ns->inflight > 0) {
		ns->orphaned = true; /* the last one to leave frees it */
	} else {
		net_free(ns);
	}
	return r;
}

/* ---------------------------------------------------------------------------------------------
 * TLS handshake
 * ------------------------------------------------------------------------------------------- */

#if NET_OPENSSL_LAYOUT
static int net_handshake(php_stream *stream, net_stream_t *ns, int option, int value, php_stream_xport_crypto_param *cparam)
{
	net_openssl_data_t *data = (net_openssl_data_t *) stream->abstract;
	php_netstream_data_t *sock = &data->s;
	/* The timeout PHP's handshake uses: the connect timeout for a client, the stream's for a server. */
	struct timeval tv = data->is_client ? data->connect_timeout : data->s.timeout;
	bool has_timeout = tv.tv_sec > 0 || (tv.tv_sec == 0 && tv.tv_usec > 0);
	net_deadline_t deadline = has_timeout ? net_deadline(&tv) : (net_deadline_t) { 0, NULL };

	net_async_mode(ns, sock);
	for (;;) {
		int r = net_orig_set_option_nb(stream, ns, option, value, cparam);
		if (r != PHP_STREAM_OPTION_RETURN_OK || cparam->outputs.returncode != 0) {
			return r;
		}
		int mask = net_tls_direction(stream, ns, ASYNC_POLL_READ, true);
		int w = mask ? net_wait(stream, ns, mask, &deadline) : -1;
		if (w == 0) {
			php_error_docref(NULL, E_WARNING, "SSL: Handshake timed out");
		}
		if (w != 1) {
			cparam->outputs.returncode = -1;
			return PHP_STREAM_OPTION_RETURN_OK;
		}
	}
}

/* ext/openssl starts the handshake inside connect/accept when enable_on_connect is set; that
 * would block. It is hidden for the delegated call and done afterwards by net_enable_crypto(). */
static int net_hide_enable_on_connect(php_stream *stream, net_stream_t *ns)
{
	if (!ns->openssl) {
		return 0;
	}
	net_openssl_data_t *data = (net_openssl_data_t *) stream->abstract;
	int previous = data->enable_on_connect;
	data->enable_on_connect = 0;
	return previous;
}

static void net_restore_enable_on_connect(php_stream *stream, int previous)
{
	if (previous) {
		((net_openssl_data_t *) stream->abstract)->enable_on_connect = previous;
	}
}

/* What ext/openssl does after connect/accept when enable_on_connect is set. */
static bool net_enable_crypto(php_stream *stream, php_stream_xport_crypt_method_t method)
{
	if (php_stream_xport_crypto_setup(stream, method, NULL) < 0 || php_stream_xport_crypto_enable(stream, 1) < 0) {
		php_error_docref(NULL, E_WARNING, "Failed to enable crypto");
		return false;
	}
	return true;
}
#else
static int net_hide_enable_on_connect(php_stream *stream, net_stream_t *ns) { (void) stream; (void) ns; return 0; }
static void net_restore_enable_on_connect(php_stream *stream, int previous) { (void) stream; (void) previous; }
#endif

static int net_crypto(php_stream *stream, net_stream_t *ns, int option, int value, php_stream_xport_crypto_param *cparam)
{
#if NET_OPENSSL_LAYOUT
	if (ns->openssl && cparam->op == STREAM_XPORT_CRYPTO_OP_ENABLE && cparam->inputs.activate
		&& !((net_openssl_data_t *) stream->abstract)->ssl_active && net_can_wait(ns, SOCK(stream))) {
		return net_handshake(stream, ns, option, value, cparam);
	}
#endif
	int r = net_orig_set_option(stream, ns, option, value, cparam);
	net_mode_unknown(stream, ns);
	return r;
}

/* ---------------------------------------------------------------------------------------------
 * connect
 * ------------------------------------------------------------------------------------------- */

/* xp_socket.c's address parser: "host:port" or "[v6]:port". NULL when it would fail (the
 * delegated connect then reports PHP's own error). */
static char *net_parse_address(const char *str, size_t len, int *port)
{
	if (len == 0 || memchr(str, '\0', len)) {
		return NULL;
	}
	char *end = NULL;
	if (len > 1 && str[0] == '[') {
		const char *p = memchr(str + 1, ']', len - 2);
		if (p == NULL || p[1] != ':') {
			return NULL;
		}
		*port = (int) strtol(p + 2, &end, 10);
		return end && *end ? NULL : estrndup(str + 1, p - str - 1);
	}
	const char *colon = memchr(str, ':', len - 1);
	if (colon == NULL) {
		return NULL;
	}
	*port = (int) strtol(colon + 1, &end, 10);
	return !end || !*end ? estrndup(str, colon - str) : NULL;
}

static void net_drop_error_text(php_stream_xport_param *xparam)
{
	if (xparam->outputs.error_text != NULL) {
		zend_string_release_ex(xparam->outputs.error_text, 0);
		xparam->outputs.error_text = NULL;
	}
}

/* One attempt: the original non-blocking connect (to `name` when given), then a wait for the
 * socket to become writable within the deadline and its SO_ERROR, as php_network_connect_socket()
 * does with poll(). A failed socket is closed, as PHP does before its next address. */
static void net_connect_to(php_stream *stream, net_stream_t *ns, php_stream_xport_param *xparam,
	int option, int value, const char *name, size_t namelen, net_deadline_t *deadline)
{
	php_netstream_data_t *sock = SOCK(stream);
	char *saved_name = xparam->inputs.name;
	size_t saved_len = xparam->inputs.namelen;
	if (name != NULL) {
		xparam->inputs.name = (char *) name;
		xparam->inputs.namelen = namelen;
	}
	xparam->op = STREAM_XPORT_OP_CONNECT_ASYNC;
	xparam->outputs.returncode = 0;
	xparam->outputs.error_code = 0;
	net_orig_set_option(stream, ns, option, value, xparam);
	xparam->op = STREAM_XPORT_OP_CONNECT;
	xparam->inputs.name = saved_name;
	xparam->inputs.namelen = saved_len;

	if (sock->socket != SOCK_ERR) {
		net_fd_seen(ns, sock);
		ns->nonblock = true; /* PHP's asynchronous connect leaves it so */
	}
	if (xparam->outputs.returncode != 1) {
		return;
	}

	int w = net_wait(stream, ns, ASYNC_POLL_WRITE, deadline);
	int err = 0;
	if (w < 0) {
		err = ECANCELED;
	} else if (w == 0) {
		err = PHP_TIMEOUT_ERROR_VALUE;
	} else {
		socklen_t len = sizeof(err);
		if (getsockopt(sock->socket, SOL_SOCKET, SO_ERROR, (char *) &err, &len) != 0) {
			err = php_socket_errno();
		}
	}
	xparam->outputs.error_code = err;
	if (err == 0) {
		xparam->outputs.returncode = 0;
		return;
	}
	xparam->outputs.returncode = -1;
	if (xparam->want_errortext) {
		net_drop_error_text(xparam);
		xparam->outputs.error_text = php_socket_error_str(err);
	}
	async_io_fd_closing(sock->socket);
	closesocket(sock->socket);
	sock->socket = SOCK_ERR;
	ns->fd = SOCK_ERR;
}

/* Every address of the host in turn, as php_network_connect_socket_to_host() does, until one
 * connects or the deadline passes. */
static void net_connect_host(php_stream *stream, net_stream_t *ns, php_stream_xport_param *xparam,
	int option, int value, net_deadline_t *deadline)
{
	int port = 0;
	char *host = ns->kind == NET_STREAM || ns->kind == NET_DGRAM
		? net_parse_address(xparam->inputs.name, xparam->inputs.namelen, &port) : NULL;
	if (host == NULL) {
		net_connect_to(stream, ns, xparam, option, value, NULL, 0, deadline);
		return;
	}

	struct sockaddr **addresses = NULL;
	/* Inside a coroutine the lookup runs on the reactor's thread pool (hooks/dns.c) and only this
	 * coroutine waits; answers, warnings and error text are PHP's own. */
	int n = async__dns_network_getaddresses(host, ns->kind == NET_DGRAM ? SOCK_DGRAM : SOCK_STREAM, &addresses,
		xparam->want_errortext ? &xparam->outputs.error_text : NULL);
	efree(host);
	if (n == 0) {
		xparam->outputs.returncode = -1;
		return;
	}
	for (struct sockaddr **sa = addresses; *sa != NULL; sa++) {
		char ip[NI_MAXHOST], name[NI_MAXHOST + 16];
		socklen_t salen = (*sa)->sa_family == AF_INET6 ? sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in);
		if (getnameinfo(*sa, salen, ip, sizeof(ip), NULL, 0, NI_NUMERICHOST) != 0) {
			continue;
		}
		int len = snprintf(name, sizeof(name), (*sa)->sa_family == AF_INET6 ? "[%s]:%d" : "%s:%d", ip, port);
		net_drop_error_text(xparam); /* each attempt reports its own error, as PHP does */
		net_connect_to(stream, ns, xparam, option, value, name, (size_t) len, deadline);
		if (xparam->outputs.returncode == 0 || EG(exception)
			|| (deadline->at != 0 && async_reactor_hrtime() >= deadline->at)) {
			break;
		}
	}
	php_network_freeaddresses(addresses);
}

/* stream_socket_client(), fsockopen() and stream_socket_server() let the other coroutines run
 * once before they connect or bind, as the resolution of their address does for a host name:
 * TrueAsync resolves every address on its event loop, and code written for it may count on that
 * turn (a server spawned just before its client). A cancellation met there fails the call as a
 * cancelled connect does. */
static bool net_yield_once(php_stream_xport_param *xparam)
{
	async__wait_yield();
	if (EXPECTED(EG(exception) == NULL)) {
		return true;
	}
	xparam->outputs.returncode = -1;
	xparam->outputs.error_code = ECANCELED;
	if (xparam->want_errortext) {
		net_drop_error_text(xparam);
		xparam->outputs.error_text = php_socket_error_str(ECANCELED);
	}
	return false;
}

static int net_connect(php_stream *stream, net_stream_t *ns, php_stream_xport_param *xparam, int option, int value)
{
	if (!net_yield_once(xparam)) {
		return PHP_STREAM_OPTION_RETURN_OK;
	}
	net_deadline_t deadline = net_deadline(xparam->inputs.timeout);
	int enable_on_connect = net_hide_enable_on_connect(stream, ns);
	net_connect_host(stream, ns, xparam, option, value, &deadline);
	net_restore_enable_on_connect(stream, enable_on_connect);
#if NET_OPENSSL_LAYOUT
	if (enable_on_connect && xparam->outputs.returncode == 0
		&& !net_enable_crypto(stream, ((net_openssl_data_t *) stream->abstract)->method)) {
		xparam->outputs.returncode = -1;
	}
#endif
	return PHP_STREAM_OPTION_RETURN_OK;
}

/* ---------------------------------------------------------------------------------------------
 * accept
 * ------------------------------------------------------------------------------------------- */

static void net_wrap(php_stream *stream, net_kind_t kind);

/* The original accept with a zero timeout (a poll(0) and accept()), then a wait, until a
 * connection comes or the deadline passes; the client is made ours, and TLS listeners do the
 * handshake here as ext/openssl would, but without blocking. */
/* PHP polls for stream_socket_accept()'s timeout whatever the listener's mode, so a non-blocking
 * listener given a timeout waits too (as a blocking one does, but only the caller); without a
 * timeout it answers at once, as accept() on a non-blocking socket does. */
static bool net_accept_can_wait(net_stream_t *ns, php_netstream_data_t *sock, const struct timeval *timeout)
{
	bool timed = timeout != NULL && (timeout->tv_sec > 0 || timeout->tv_usec > 0);
	return net_usable(ns, sock) && (sock->is_blocked || timed);
}

/* accept() failed for want of a resource that only time (other connections closing) gives back. */
static bool net_accept_exhausted(int err)
{
	return err == EMFILE || err == ENFILE || err == ENOBUFS || err == ENOMEM;
}

#define NET_ACCEPT_BACKOFF_FIRST_MS 5
#define NET_ACCEPT_BACKOFF_MAX_MS   100

/* The back-off of a listener out of descriptors: 5 ms, doubling at each failure in a row up to
 * 100 ms, within the accept's deadline. 1 to retry, -1 when the deadline leaves no time (nothing
 * thrown) or the wait was cancelled (the exception is set) or the listener is being closed,
 * NET_GONE when it was closed and freed meanwhile. The caller counts itself in `inflight`. */
static int net_accept_backoff(php_stream *stream, net_stream_t *ns, net_deadline_t *deadline)
{
	(void) stream;
	zend_ulong ms = ns->accept_backoff_ms == 0 ? NET_ACCEPT_BACKOFF_FIRST_MS : ns->accept_backoff_ms;
	ns->accept_backoff_ms = (uint16_t) MIN(ms * 2, NET_ACCEPT_BACKOFF_MAX_MS);
	if (deadline->at != 0) {
		uint64_t now = async_reactor_hrtime();
		if (now >= deadline->at) {
			return -1;
		}
		ms = MIN(ms, (deadline->at - now + 999999) / 1000000);
	}
	bool ok = async__wait_ms(ms, 0);
	if (ns->orphaned) {
		if (--ns->inflight == 0) {
			net_free(ns);
		}
		return NET_GONE;
	}
	return ok && !ns->closing ? 1 : -1;
}

static int net_accept(php_stream *stream, net_stream_t *ns, php_stream_xport_param *xparam, int option, int value)
{
	php_netstream_data_t *sock = SOCK(stream);
	if (!net_accept_can_wait(ns, sock, xparam->inputs.timeout)) {
		int r = net_orig_set_option(stream, ns, option, value, xparam);
		net_wrap(xparam->outputs.client, ns->kind);
		return r;
	}

	net_async_mode(ns, sock);
	net_deadline_t deadline = net_deadline(xparam->inputs.timeout);
	struct timeval *timeout = xparam->inputs.timeout, zero = { 0, 0 };
	int enable_on_connect = net_hide_enable_on_connect(stream, ns);
	int r;
	bool backed_off = false;
	ns->inflight++;
	for (;;) {
		xparam->inputs.timeout = &zero;
		r = net_orig_set_option(stream, ns, option, value, xparam);
		xparam->inputs.timeout = timeout;
		int err = xparam->outputs.error_code;
		if (r == PHP_STREAM_OPTION_RETURN_OK && xparam->outputs.client == NULL && net_accept_exhausted(err)
			&& !backed_off) {
			/* Out of descriptors (or kernel memory): the listener stays readable, and failing at
			 * once would let a retrying loop spin without ever switching, starving the coroutines
			 * whose closes would free descriptors. Back off on a timer and try once more; a
			 * second failure is reported as PHP reports it. */
			backed_off = true;
			int b = net_accept_backoff(stream, ns, &deadline);
			if (b == NET_GONE) {
				return PHP_STREAM_OPTION_RETURN_OK; /* returncode is -1 from the last attempt */
			}
			if (b > 0) {
				net_drop_error_text(xparam);
				continue;
			}
			if (b < 0 && EG(exception) == NULL) {
				break; /* the deadline came first: the error stands */
			}
			int error = ns->closing ? EBADF : ECANCELED;
			if (xparam->want_errortext) {
				net_drop_error_text(xparam);
				xparam->outputs.error_text = php_socket_error_str(error);
			}
			xparam->outputs.error_code = error;
			break;
		}
		if (r != PHP_STREAM_OPTION_RETURN_OK || xparam->outputs.client != NULL
			|| (err != PHP_TIMEOUT_ERROR_VALUE && err != EAGAIN && err != EWOULDBLOCK)) {
			break;
		}
		ns->inflight--;
		int w = net_wait(stream, ns, ASYNC_POLL_READ, &deadline);
		if (w == NET_GONE) {
			return PHP_STREAM_OPTION_RETURN_OK; /* returncode is -1 from the last attempt */
		}
		ns->inflight++;
		if (w == 1) {
			net_drop_error_text(xparam);
			continue;
		}
		/* Timed out, closed by another coroutine, or cancelled (the exception goes up). */
		int error = w == 0 ? PHP_TIMEOUT_ERROR_VALUE : ns->closing ? EBADF : ECANCELED;
		if (xparam->want_errortext) {
			net_drop_error_text(xparam);
			xparam->outputs.error_text = php_socket_error_str(error);
		}
		xparam->outputs.error_code = error;
		xparam->outputs.returncode = -1;
		break;
	}
	net_restore_enable_on_connect(stream, enable_on_connect);

	php_stream *client = xparam->outputs.client;
	if (client != NULL) {
		ns->accept_backoff_ms = 0;
	}
	net_wrap(client, ns->kind);
#if NET_OPENSSL_LAYOUT
	if (client != NULL && enable_on_connect) {
		net_openssl_data_t *listener = (net_openssl_data_t *) stream->abstract;
		listener->method &= ~NET_CRYPTO_IS_CLIENT; /* as ext/openssl does */
		((net_openssl_data_t *) client->abstract)->method = listener->method;
		if (!net_enable_crypto(client, listener->method)) {
			php_stream_close(client);
			xparam->outputs.client = NULL;
			xparam->outputs.returncode = -1;
		}
	}
#endif
	ns->inflight--;
	if (ns->orphaned && ns->inflight == 0) {
		net_free(ns); /* the listener was closed while we were handshaking */
	}
	return r;
}

/* ---------------------------------------------------------------------------------------------
 * recvfrom / sendto: PHP's own call does not wait (and warns on EAGAIN), so readiness comes first.
 * A receive honours stream_set_timeout() as a read does (stock PHP's recvfrom() would block for
 * ever): at the deadline it returns -1 (stream_socket_recvfrom() gives false) with timed_out set.
 * ------------------------------------------------------------------------------------------- */

static int net_datagram(php_stream *stream, net_stream_t *ns, php_stream_xport_param *xparam, int option, int value, int mask)
{
	php_netstream_data_t *sock = SOCK(stream);
	if (!net_can_wait(ns, sock)) {
		net_stock_mode(ns, sock);
		return net_orig_set_option(stream, ns, option, value, xparam);
	}
	net_async_mode(ns, sock);
	net_deadline_t deadline = mask == ASYNC_POLL_READ ? net_read_deadline(ns, sock, true) : (net_deadline_t) { 0, NULL };
	if (mask == ASYNC_POLL_READ) {
		sock->timeout_event = 0;
	}
	for (;;) {
		async_io_pollfd_t now = { sock->socket, mask, 0 };
		int ready = async_io_wait_many(&now, 1, 0);
		if (ready < 0) {
			xparam->outputs.returncode = -1;
			return PHP_STREAM_OPTION_RETURN_OK;
		}
		if (ready > 0) {
			return net_orig_set_option(stream, ns, option, value, xparam);
		}
		int w = net_wait(stream, ns, mask, &deadline);
		if (w == NET_GONE || w <= 0) {
			if (w == 0) {
				sock->timeout_event = 1;
			}
			xparam->outputs.returncode = -1;
			return PHP_STREAM_OPTION_RETURN_OK;
		}
	}
}

/* ---------------------------------------------------------------------------------------------
 * set_option
 * ------------------------------------------------------------------------------------------- */

static int net_xport(php_stream *stream, net_stream_t *ns, int option, int value, php_stream_xport_param *xparam)
{
	php_netstream_data_t *sock = SOCK(stream);
	int r;
	switch (xparam->op) {
		case STREAM_XPORT_OP_CONNECT:
			if (sock != NULL && sock->is_blocked && async_io_can_wait()) {
				return net_connect(stream, ns, xparam, option, value);
			}
			r = net_orig_set_option(stream, ns, option, value, xparam);
			net_fd_seen(ns, sock);
			return r;
		case STREAM_XPORT_OP_CONNECT_ASYNC:
			r = net_orig_set_option(stream, ns, option, value, xparam);
			net_fd_seen(ns, sock);
			if (sock != NULL && sock->socket != SOCK_ERR) {
				ns->nonblock = true;
			}
			return r;
		case STREAM_XPORT_OP_ACCEPT:
			return net_accept(stream, ns, xparam, option, value);
		case STREAM_XPORT_OP_BIND:
			if (async_io_can_wait() && !net_yield_once(xparam)) {
				return PHP_STREAM_OPTION_RETURN_OK;
			}
			r = net_orig_set_option(stream, ns, option, value, xparam);
			net_fd_seen(ns, sock); /* bind creates the socket */
			return r;
		case STREAM_XPORT_OP_LISTEN:
			r = net_orig_set_option(stream, ns, option, value, xparam);
			ns->listening = ns->listening || xparam->outputs.returncode == 0;
			return r;
		case STREAM_XPORT_OP_RECV:
			/* a listener has nothing to receive, and out-of-band data is not announced by
			 * readability: both are PHP's own call, which fails (or finds the byte) at once */
			if (ns->listening || (xparam->inputs.flags & STREAM_OOB)) {
				return net_orig_set_option(stream, ns, option, value, xparam);
			}
			return net_datagram(stream, ns, xparam, option, value, ASYNC_POLL_READ);
		case STREAM_XPORT_OP_SEND:
			return net_datagram(stream, ns, xparam, option, value, ASYNC_POLL_WRITE);
		default:
			r = net_orig_set_option(stream, ns, option, value, xparam);
			net_fd_seen(ns, sock); /* bind creates the socket */
			return r;
	}
}

static int net_set_option(php_stream *stream, int option, int value, void *ptrparam)
{
	net_stream_t *ns = NET(stream);
	php_netstream_data_t *sock = SOCK(stream);
	net_sync(ns);
	if (sock == NULL) {
		return net_orig_set_option(stream, ns, option, value, ptrparam);
	}
	switch (option) {
		case PHP_STREAM_OPTION_XPORT_API:
			return net_xport(stream, ns, option, value, (php_stream_xport_param *) ptrparam);
		case PHP_STREAM_OPTION_CRYPTO_API:
			return net_crypto(stream, ns, option, value, (php_stream_xport_crypto_param *) ptrparam);
		case PHP_STREAM_OPTION_BLOCKING: {
			int r = net_orig_set_option(stream, ns, option, value, ptrparam);
			if (r != PHP_STREAM_OPTION_RETURN_ERR) {
				ns->nonblock = value == 0;
			}
			return r;
		}
		case PHP_STREAM_OPTION_CHECK_LIVENESS:
			/* feof(): PHP looks without waiting; on a descriptor we made non-blocking, say so,
			 * or ext/openssl would switch it back to blocking around its peek. */
			if (ns->openssl && ns->nonblock && sock->is_blocked) {
				return net_orig_set_option_nb(stream, ns, option, value, ptrparam);
			} else {
				int r = net_orig_set_option(stream, ns, option, value, ptrparam);
				net_mode_unknown(stream, ns);
				return r;
			}
		default:
			return net_orig_set_option(stream, ns, option, value, ptrparam);
	}
}

/* ---------------------------------------------------------------------------------------------
 * Wrapping
 * ------------------------------------------------------------------------------------------- */

/* Only PHP's own socket streams: their abstract data starts with php_netstream_data_t. */
static bool net_is_socket_ops(const php_stream_ops *ops)
{
	static const char *labels[] = { "tcp_socket", "udp_socket", "unix_socket", "udg_socket",
		"generic_socket", "tcp_socket/ssl" };
	if (ops->label == NULL) {
		return false;
	}
	for (size_t i = 0; i < sizeof(labels) / sizeof(labels[0]); i++) {
		if (strcmp(ops->label, labels[i]) == 0) {
			return true;
		}
	}
	return false;
}

static void net_wrap(php_stream *stream, net_kind_t kind)
{
	if (stream == NULL || stream->abstract == NULL || stream->ops->read == net_read
		|| !net_is_socket_ops(stream->ops)) {
		return;
	}
	/* A persistent stream's state lives as long as the stream (across requests: net_sync()). */
	net_stream_t *ns = pecalloc(1, sizeof(net_stream_t), stream->is_persistent);
	ns->persistent = stream->is_persistent;
	ns->serial = ASYNC_G(request_serial);
	ns->ops = *stream->ops;
	ns->ops.read = net_read;
	ns->ops.write = net_write;
	ns->ops.close = net_close;
	ns->ops.set_option = net_set_option;
	ns->orig = stream->ops;
	ns->kind = kind;
	ns->fd = SOCK_ERR;
	async__wait_plain_event_init(&ns->write_turn, net_write_turn_info);
	ns->openssl = strcmp(stream->ops->label, "tcp_socket/ssl") == 0;
#if !NET_OPENSSL_LAYOUT
	if (ns->openssl) {
		pefree(ns, ns->persistent); /* unknown private layout: ext/openssl's streams stay PHP's own */
		return;
	}
#endif
	stream->ops = &ns->ops;
	net_fd_seen(ns, SOCK(stream));
}

void async__net_stream_wrap(php_stream *stream)
{
	net_wrap(stream, NET_PAIR);
}

/* ---------------------------------------------------------------------------------------------
 * Transport factories
 * ------------------------------------------------------------------------------------------- */

typedef struct {
	const char *name;
	net_kind_t kind;
	php_stream_transport_factory orig;
} net_transport_t;

/* per-process: the transport hash is swapped at MINIT */
static net_transport_t transports[] = {
	{ "tcp", NET_STREAM, NULL },
	{ "udp", NET_DGRAM, NULL },
	{ "unix", NET_LOCAL_STREAM, NULL },
	{ "udg", NET_LOCAL_DGRAM, NULL },
#if NET_OPENSSL_LAYOUT
	{ "ssl", NET_STREAM, NULL },
	{ "sslv3", NET_STREAM, NULL },
	{ "tls", NET_STREAM, NULL },
	{ "tlsv1.0", NET_STREAM, NULL },
	{ "tlsv1.1", NET_STREAM, NULL },
	{ "tlsv1.2", NET_STREAM, NULL },
	{ "tlsv1.3", NET_STREAM, NULL },
#endif
};

static php_stream *net_factory(const char *proto, size_t protolen, const char *resourcename, size_t resourcenamelen,
	const char *persistent_id, int options, int flags, struct timeval *timeout, php_stream_context *context STREAMS_DC)
{
	for (size_t i = 0; i < sizeof(transports) / sizeof(transports[0]); i++) {
		net_transport_t *t = &transports[i];
		if (t->orig != NULL && strlen(t->name) == protolen && memcmp(t->name, proto, protolen) == 0) {
			php_stream *stream = t->orig(proto, protolen, resourcename, resourcenamelen, persistent_id,
				options, flags, timeout, context STREAMS_REL_CC);
			net_wrap(stream, t->kind);
			async__persistent_stream_made(stream, persistent_id); /* held before the connect suspends */
			return stream;
		}
	}
	return NULL;
}

/* ---------------------------------------------------------------------------------------------
 * stream_socket_pair(): PHP makes these streams itself (no transport factory), so they are made
 * coroutine-aware after the fact.
 * ------------------------------------------------------------------------------------------- */

static ZEND_FUNCTION(async_stream_socket_pair);

/* per-process: the function table's handlers are swapped at MINIT */
static async_function_hook_t pair_hook[] = {
	{ "stream_socket_pair", ZEND_FN(async_stream_socket_pair), NULL },
};

static php_stream *pair_stream(zval *elem)
{
	ZVAL_DEREF(elem);
	if (Z_TYPE_P(elem) != IS_RESOURCE) {
		return NULL;
	}
	return (php_stream *) zend_fetch_resource2(Z_RES_P(elem), NULL, php_file_le_stream(), php_file_le_pstream());
}


static ZEND_FUNCTION(async_stream_socket_pair)
{
	pair_hook[0].original(INTERNAL_FUNCTION_PARAM_PASSTHRU);
	if (Z_TYPE_P(return_value) != IS_ARRAY) {
		return;
	}
	zval *elem;
	ZEND_HASH_FOREACH_VAL(Z_ARRVAL_P(return_value), elem) {
		php_stream *stream = pair_stream(elem);
		if (stream != NULL) {
			async__net_stream_wrap(stream);
		}
	} ZEND_HASH_FOREACH_END();
}

/* ---------------------------------------------------------------------------------------------
 * Install
 * ------------------------------------------------------------------------------------------- */

zend_result async__hook_transports_minit(void)
{
	async__function_hooks_install(pair_hook, 1);
	HashTable *hash = php_stream_xport_get_hash();
	for (size_t i = 0; i < sizeof(transports) / sizeof(transports[0]); i++) {
		net_transport_t *t = &transports[i];
		php_stream_transport_factory orig = zend_hash_str_find_ptr(hash, t->name, strlen(t->name));
		if (orig != NULL && orig != net_factory) {
			t->orig = orig;
			php_stream_xport_register(t->name, net_factory);
		}
	}
	/* libssl is already loaded with PHP's openssl extension; its SSL_want() tells which way a
	 * TLS operation is blocked. */
	ssl_want_fn = (int (*)(const void *)) dlsym(RTLD_DEFAULT, "SSL_want");
	ssl_pending_fn = (int (*)(const void *)) dlsym(RTLD_DEFAULT, "SSL_pending");
	ssl_peek_fn = (int (*)(void *, void *, int)) dlsym(RTLD_DEFAULT, "SSL_peek");
	ssl_get_error_fn = (int (*)(const void *, int)) dlsym(RTLD_DEFAULT, "SSL_get_error");
	err_clear_error_fn = (void (*)(void)) dlsym(RTLD_DEFAULT, "ERR_clear_error");
	return SUCCESS;
}

void async__hook_transports_mshutdown(void)
{
	async__function_hooks_uninstall(pair_hook, 1);
	for (size_t i = 0; i < sizeof(transports) / sizeof(transports[0]); i++) {
		if (transports[i].orig != NULL) {
			php_stream_xport_register(transports[i].name, transports[i].orig);
			transports[i].orig = NULL;
		}
	}
}
