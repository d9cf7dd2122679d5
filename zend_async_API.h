/*
 * zend_async_API.h — the Zend-side async ABI.
 *
 * This header is the contract between the code that implements an async runtime (a scheduler and
 * a reactor, registered by ext-async) and every piece of C code that wants to wait without
 * blocking the process (other extensions, our own I/O hooks). It knows nothing of libuv nor of
 * ext-async's objects: only events, callbacks, coroutines, scopes, wakers and function-pointer
 * tables.
 *
 * On TrueAsync this lives in a patched php-src. Here it is compiled into ext-async and exported
 * with default visibility, so an extension loaded after "async" (declare ZEND_MOD_REQUIRED("async"))
 * resolves these symbols at load time.
 */
#ifndef ZEND_ASYNC_API_H
#define ZEND_ASYNC_API_H

#include "php.h"
#include <sys/socket.h>
#include <netdb.h>

#define ZEND_ASYNC_API "ext-async ABI v0.2.0"
#define ZEND_ASYNC_API_VERSION_MAJOR 0
#define ZEND_ASYNC_API_VERSION_MINOR 2
#define ZEND_ASYNC_API_VERSION_PATCH 0
#define ZEND_ASYNC_API_VERSION_NUMBER \
	((ZEND_ASYNC_API_VERSION_MAJOR << 16) | (ZEND_ASYNC_API_VERSION_MINOR << 8) | ZEND_ASYNC_API_VERSION_PATCH)

BEGIN_EXTERN_C()

ZEND_API const char *zend_async_get_api_version(void);
ZEND_API int zend_async_get_api_version_number(void);

typedef struct _zend_async_event_s zend_async_event_t;
typedef struct _zend_async_event_callback_s zend_async_event_callback_t;
typedef struct _zend_coroutine_s zend_coroutine_t;
typedef struct _zend_async_scope_s zend_async_scope_t;
typedef struct _zend_async_waker_s zend_async_waker_t;
typedef struct _zend_async_context_s zend_async_context_t;
typedef struct _zend_async_microtask_s zend_async_microtask_t;
typedef struct _zend_async_timer_event_s zend_async_timer_event_t;
typedef struct _zend_async_trigger_event_s zend_async_trigger_event_t;
typedef struct _zend_async_poll_event_s zend_async_poll_event_t;
typedef struct _zend_async_poll_proxy_s zend_async_poll_proxy_t;
typedef struct _zend_async_signal_event_s zend_async_signal_event_t;
typedef struct _zend_async_process_event_s zend_async_process_event_t;
typedef struct _zend_async_filesystem_event_s zend_async_filesystem_event_t;
typedef struct _zend_async_dns_nameinfo_s zend_async_dns_nameinfo_t;
typedef struct _zend_async_dns_addrinfo_s zend_async_dns_addrinfo_t;
typedef struct _zend_async_exec_event_s zend_async_exec_event_t;
typedef struct _zend_async_work_event_s zend_async_work_event_t;
typedef struct _zend_async_listen_event_s zend_async_listen_event_t;
typedef struct _zend_async_task_s zend_async_task_t;
typedef struct _zend_async_io_s zend_async_io_t;
typedef struct _zend_async_io_req_s zend_async_io_req_t;
typedef struct _zend_future_s zend_future_t;
typedef struct _zend_async_channel_s zend_async_channel_t;
typedef struct _zend_async_group_s zend_async_group_t;
typedef struct _zend_async_pool_s zend_async_pool_t;

typedef int zend_file_descriptor_t;
typedef int zend_socket_t;
typedef pid_t zend_process_t;

typedef struct {
	zend_fcall_info fci;
	zend_fcall_info_cache fci_cache;
} zend_fcall_t;

/* ---------------------------------------------------------------------------------------------
 * Event flags. Bits 0-12 belong to the base event; subtypes use bit 13 and up.
 * ------------------------------------------------------------------------------------------- */
#define ZEND_ASYNC_EVENT_F_CLOSED            (1u << 0)  /* complete: no start/stop/subscribe */
#define ZEND_ASYNC_EVENT_F_RESULT_USED       (1u << 1)  /* someone awaits the result */
#define ZEND_ASYNC_EVENT_F_EXC_CAUGHT        (1u << 2)  /* the error will be caught */
#define ZEND_ASYNC_EVENT_F_ZVAL_RESULT       (1u << 3)  /* callbacks receive a zval* result */
#define ZEND_ASYNC_EVENT_F_ZEND_OBJ          (1u << 4)  /* the event lives in a zend_object */
#define ZEND_ASYNC_EVENT_F_NO_FREE_MEMORY    (1u << 5)  /* dispose must not free the memory */
#define ZEND_ASYNC_EVENT_F_EXCEPTION_HANDLED (1u << 6)  /* the error was observed */
#define ZEND_ASYNC_EVENT_F_REFERENCE         (1u << 7)  /* this is a zend_async_event_ref_t */
#define ZEND_ASYNC_EVENT_F_OBJ_REF           (1u << 8)  /* extra_offset holds a zend_object* */
#define ZEND_ASYNC_EVENT_F_CLOSE_FD          (1u << 9)  /* close the descriptor on dispose */
#define ZEND_ASYNC_EVENT_F_HIDDEN            (1u << 10) /* not counted by deadlock detection */
#define ZEND_ASYNC_EVENT_F_BAILOUT           (1u << 11) /* a fatal error went through */
#define ZEND_ASYNC_EVENT_F_STARTED_LOOP      (1u << 12) /* counted in active_event_count */

#define ZEND_ASYNC_EVENT_HAS(ev, f)  (((ev)->flags & (f)) != 0)
#define ZEND_ASYNC_EVENT_SET(ev, f)  ((ev)->flags |= (f))
#define ZEND_ASYNC_EVENT_CLR(ev, f)  ((ev)->flags &= ~(f))

#define ZEND_ASYNC_EVENT_IS_CLOSED(ev)        ZEND_ASYNC_EVENT_HAS(ev, ZEND_ASYNC_EVENT_F_CLOSED)
#define ZEND_ASYNC_EVENT_SET_CLOSED(ev)       ZEND_ASYNC_EVENT_SET(ev, ZEND_ASYNC_EVENT_F_CLOSED)
#define ZEND_ASYNC_EVENT_IS_ZEND_OBJ(ev)      ZEND_ASYNC_EVENT_HAS(ev, ZEND_ASYNC_EVENT_F_ZEND_OBJ)
#define ZEND_ASYNC_EVENT_IS_HIDDEN(ev)        ZEND_ASYNC_EVENT_HAS(ev, ZEND_ASYNC_EVENT_F_HIDDEN)
#define ZEND_ASYNC_EVENT_SET_HIDDEN(ev)       ZEND_ASYNC_EVENT_SET(ev, ZEND_ASYNC_EVENT_F_HIDDEN)
#define ZEND_ASYNC_EVENT_IS_REFERENCE(ev)     ZEND_ASYNC_EVENT_HAS(ev, ZEND_ASYNC_EVENT_F_REFERENCE)
#define ZEND_ASYNC_EVENT_SET_RESULT_USED(ev)  ZEND_ASYNC_EVENT_SET(ev, ZEND_ASYNC_EVENT_F_RESULT_USED)
#define ZEND_ASYNC_EVENT_SET_EXC_CAUGHT(ev)   ZEND_ASYNC_EVENT_SET(ev, ZEND_ASYNC_EVENT_F_EXC_CAUGHT)
#define ZEND_ASYNC_EVENT_SET_ZVAL_RESULT(ev)  ZEND_ASYNC_EVENT_SET(ev, ZEND_ASYNC_EVENT_F_ZVAL_RESULT)
#define ZEND_ASYNC_EVENT_SET_CLOSE_FD(ev)     ZEND_ASYNC_EVENT_SET(ev, ZEND_ASYNC_EVENT_F_CLOSE_FD)
#define ZEND_ASYNC_EVENT_SET_EXCEPTION_HANDLED(ev) ZEND_ASYNC_EVENT_SET(ev, ZEND_ASYNC_EVENT_F_EXCEPTION_HANDLED)

/* ---------------------------------------------------------------------------------------------
 * Callbacks.
 * ------------------------------------------------------------------------------------------- */
typedef void (*zend_async_event_callback_fn)(zend_async_event_t *event,
	zend_async_event_callback_t *callback, void *result, zend_object *exception);
typedef void (*zend_async_event_callback_dispose_fn)(zend_async_event_callback_t *callback,
	zend_async_event_t *event);

struct _zend_async_event_callback_s {
	uint32_t ref_count;
	zend_async_event_callback_fn callback;
	zend_async_event_callback_dispose_fn dispose; /* frees the callback; NULL = efree */
};

/* The callback that wakes a coroutine: the waker's link between an event and its waiter. */
typedef struct {
	zend_async_event_callback_t base;
	zend_coroutine_t *coroutine;
	zend_async_event_t *event;
} zend_coroutine_event_callback_t;

typedef struct {
	uint32_t length;
	uint32_t capacity;
	zend_async_event_callback_t **data;
	/* Index of the running notification loop (or NULL), so removal during notify is safe. */
	uint32_t *current_iterator;
} zend_async_callbacks_vector_t;

typedef bool (*zend_async_event_add_callback_t)(zend_async_event_t *event, zend_async_event_callback_t *callback);
typedef bool (*zend_async_event_del_callback_t)(zend_async_event_t *event, zend_async_event_callback_t *callback);
typedef bool (*zend_async_event_start_t)(zend_async_event_t *event);
typedef bool (*zend_async_event_stop_t)(zend_async_event_t *event);
typedef bool (*zend_async_event_replay_t)(zend_async_event_t *event, zend_async_event_callback_t *callback,
	zval *result, zend_object **exception);
typedef bool (*zend_async_event_dispose_t)(zend_async_event_t *event);
typedef zend_string *(*zend_async_event_info_t)(zend_async_event_t *event);
typedef void (*zend_async_event_callbacks_notify_t)(zend_async_event_t *event, void *result, zend_object *exception);

struct _zend_async_event_s {
	uint32_t flags;
	uint32_t extra_offset;
	union {
		uint32_t ref_count;          /* C events */
		uint32_t zend_object_offset; /* events living inside a zend_object */
	};
	uint32_t loop_ref_count;
	zend_async_callbacks_vector_t callbacks;
	zend_async_event_add_callback_t add_callback;
	zend_async_event_del_callback_t del_callback;
	zend_async_event_start_t start;
	zend_async_event_stop_t stop;
	zend_async_event_replay_t replay;                  /* nullable */
	zend_async_event_dispose_t dispose;
	zend_async_event_info_t info;                      /* nullable */
	zend_async_event_callbacks_notify_t notify_handler; /* nullable pre-notify interceptor */
};

/* A PHP object that points at an event whose lifetime differs from the object's. */
#define ZEND_ASYNC_EVENT_REF_PREFIX ZEND_ASYNC_EVENT_F_REFERENCE
#define ZEND_ASYNC_EVENT_REF_FIELDS \
	uint32_t flags; \
	uint32_t zend_object_offset; \
	zend_async_event_t *event;

typedef struct {
	ZEND_ASYNC_EVENT_REF_FIELDS
} zend_async_event_ref_t;

#define ZEND_ASYNC_EVENT_REF_PROLOG(ref, obj_field) do { \
		(ref)->flags = ZEND_ASYNC_EVENT_REF_PREFIX; \
		(ref)->zend_object_offset = (uint32_t) ((char *) &(ref)->obj_field - (char *) (ref)); \
		(ref)->event = NULL; \
	} while (0)

#define ZEND_ASYNC_EVENT_TO_OBJECT(ev) \
	((zend_object *) ((char *) (ev) + (ev)->zend_object_offset))

/* The object's handlers->offset leads to the struct start, which is an event or an event ref. */
static zend_always_inline zend_async_event_t *zend_async_object_to_event(zend_object *obj)
{
	char *base = (char *) obj - obj->handlers->offset;
	if (((zend_async_event_ref_t *) base)->flags & ZEND_ASYNC_EVENT_F_REFERENCE) {
		return ((zend_async_event_ref_t *) base)->event;
	}
	return (zend_async_event_t *) base;
}
#define ZEND_ASYNC_OBJECT_TO_EVENT(obj) zend_async_object_to_event(obj)

/* With F_OBJ_REF, extra_offset points at a zend_object* kept beside a C event. */
#define ZEND_ASYNC_EVENT_OBJ_REF(ev) (*(zend_object **) ((char *) (ev) + (ev)->extra_offset))

static zend_always_inline void zend_async_event_add_ref(zend_async_event_t *ev)
{
	if (ZEND_ASYNC_EVENT_IS_ZEND_OBJ(ev)) {
		GC_ADDREF(ZEND_ASYNC_EVENT_TO_OBJECT(ev));
	} else {
		ev->ref_count++;
	}
}

static zend_always_inline uint32_t zend_async_event_del_ref(zend_async_event_t *ev)
{
	if (ZEND_ASYNC_EVENT_IS_ZEND_OBJ(ev)) {
		return GC_DELREF(ZEND_ASYNC_EVENT_TO_OBJECT(ev));
	}
	return --ev->ref_count;
}

/* For C events dispose() drops one reference and frees at zero (see the event model). */
static zend_always_inline void zend_async_event_release(zend_async_event_t *ev)
{
	if (ZEND_ASYNC_EVENT_IS_ZEND_OBJ(ev)) {
		OBJ_RELEASE(ZEND_ASYNC_EVENT_TO_OBJECT(ev));
	} else {
		ev->dispose(ev);
	}
}

static zend_always_inline uint32_t zend_async_event_refcount(zend_async_event_t *ev)
{
	return ZEND_ASYNC_EVENT_IS_ZEND_OBJ(ev) ? GC_REFCOUNT(ZEND_ASYNC_EVENT_TO_OBJECT(ev)) : ev->ref_count;
}

#define ZEND_ASYNC_EVENT_ADD_REF(ev)  zend_async_event_add_ref(ev)
#define ZEND_ASYNC_EVENT_DEL_REF(ev)  zend_async_event_del_ref(ev)
#define ZEND_ASYNC_EVENT_RELEASE(ev)  zend_async_event_release(ev)
#define ZEND_ASYNC_EVENT_REFCOUNT(ev) zend_async_event_refcount(ev)

/* ---------------------------------------------------------------------------------------------
 * Callback vector and notification.
 * ------------------------------------------------------------------------------------------- */
ZEND_API zend_async_event_callback_t *zend_async_event_callback_new(
	zend_async_event_callback_fn callback, size_t size);
ZEND_API zend_coroutine_event_callback_t *zend_async_coroutine_callback_new(
	zend_coroutine_t *coroutine, zend_async_event_callback_fn callback, size_t size);
ZEND_API void zend_async_event_callback_add_ref(zend_async_event_callback_t *callback);
ZEND_API void zend_async_event_callback_release(zend_async_event_callback_t *callback, zend_async_event_t *event);

ZEND_API bool zend_async_callbacks_vector_push(zend_async_callbacks_vector_t *vector, zend_async_event_callback_t *callback);
ZEND_API bool zend_async_callbacks_vector_remove(zend_async_callbacks_vector_t *vector, zend_async_event_callback_t *callback);
ZEND_API void zend_async_callbacks_vector_free(zend_async_callbacks_vector_t *vector, zend_async_event_t *event);

ZEND_API bool zend_async_callbacks_push(zend_async_event_t *event, zend_async_event_callback_t *callback);
ZEND_API bool zend_async_callbacks_remove(zend_async_event_t *event, zend_async_event_callback_t *callback);
ZEND_API void zend_async_callbacks_notify(zend_async_event_t *event, void *result, zend_object *exception, bool from_handler);
ZEND_API void zend_async_callbacks_notify_and_close(zend_async_event_t *event, void *result, zend_object *exception);
ZEND_API void zend_async_callbacks_free(zend_async_event_t *event);

#define ZEND_ASYNC_CALLBACKS_NOTIFY(ev, result, exc)              zend_async_callbacks_notify((ev), (result), (exc), false)
#define ZEND_ASYNC_CALLBACKS_NOTIFY_FROM_HANDLER(ev, result, exc) zend_async_callbacks_notify((ev), (result), (exc), true)
#define ZEND_ASYNC_CALLBACKS_NOTIFY_AND_CLOSE(ev, result, exc)    zend_async_callbacks_notify_and_close((ev), (result), (exc))

#define ZEND_ASYNC_EVENT_CALLBACK(fn)          zend_async_event_callback_new((fn), 0)
#define ZEND_ASYNC_EVENT_CALLBACK_EX(fn, size) zend_async_event_callback_new((fn), (size))

/* The two above, inline: taking or dropping a reference that is not the last costs no call (a
 * channel's or a pool's waiter takes and drops three per message); only the last release calls
 * out, to dispose() or efree(). Same semantics as the exported functions, which stay for
 * extensions built against them. */
static zend_always_inline void zend_async_event_callback_ref(zend_async_event_callback_t *callback)
{
	ZEND_ASSERT(callback->ref_count > 0 && "a released callback cannot be referenced again");
	callback->ref_count++;
}

static zend_always_inline void zend_async_event_callback_unref(zend_async_event_callback_t *callback,
	zend_async_event_t *event)
{
	ZEND_ASSERT(callback->ref_count > 0);
	if (EXPECTED(callback->ref_count > 1)) {
		callback->ref_count--;
	} else {
		zend_async_event_callback_release(callback, event);
	}
}

#define ZEND_ASYNC_EVENT_CALLBACK_ADD_REF(cb)  zend_async_event_callback_ref(cb)
#define ZEND_ASYNC_EVENT_CALLBACK_RELEASE(cb)  zend_async_event_callback_unref((cb), NULL)

/* Defaults for events that only keep subscribers (coroutines, futures, channels, pools, scopes). */
ZEND_API bool zend_async_event_default_add_callback(zend_async_event_t *event, zend_async_event_callback_t *callback);
ZEND_API bool zend_async_event_default_del_callback(zend_async_event_t *event, zend_async_event_callback_t *callback);
ZEND_API bool zend_async_event_nop_start(zend_async_event_t *event);
ZEND_API bool zend_async_event_nop_stop(zend_async_event_t *event);

/* ---------------------------------------------------------------------------------------------
 * Event hierarchy. Every subtype starts with a zend_async_event_t.
 * ------------------------------------------------------------------------------------------- */
typedef enum {
	ZEND_ASYNC_READABLE = 1,
	ZEND_ASYNC_WRITABLE = 2,
	ZEND_ASYNC_DISCONNECT = 4,
	ZEND_ASYNC_PRIORITIZED = 8
} async_poll_event;

struct _zend_async_poll_event_s {
	zend_async_event_t base;
	bool is_socket;
	union {
		zend_file_descriptor_t file;
		zend_socket_t socket;
	};
	async_poll_event events;
	async_poll_event triggered_events;
};

/* A per-direction view of one shared poll on a descriptor. */
struct _zend_async_poll_proxy_s {
	zend_async_event_t base;
	zend_async_poll_event_t *poll_event;
	async_poll_event events;
	async_poll_event triggered_events;
};

#define ZEND_ASYNC_TIMER_F_MULTISHOT (1u << 13)

struct _zend_async_timer_event_s {
	zend_async_event_t base;
	unsigned int timeout; /* ms */
	bool is_periodic;
};

struct _zend_async_signal_event_s {
	zend_async_event_t base;
	int signal;
};

struct _zend_async_process_event_s {
	zend_async_event_t base;
	zend_process_t process;
	zend_long exit_code;
};

/* Filesystem event: multi-shot, armed from creation (a path that cannot be watched makes creation
 * throw and return NULL) to the last reference. Each change notifies the subscribers with
 * result = NULL; triggered_events (RENAME | CHANGE) and triggered_filename (relative to path)
 * are valid only during the notification. start()/stop() mean "someone waits": only then does
 * the event keep the loop alive and count as active. RECURSIVE watches the subtree (emulated
 * with one watch per directory where the OS has no recursive watch). */
#define ZEND_ASYNC_FS_EVENT_RECURSIVE 1
#define ZEND_ASYNC_FS_EVENT_RENAME    1
#define ZEND_ASYNC_FS_EVENT_CHANGE    2

struct _zend_async_filesystem_event_s {
	zend_async_event_t base;
	zend_string *path;
	unsigned int flags;
	unsigned int triggered_events;
	zend_string *triggered_filename;
};

struct _zend_async_dns_nameinfo_s {
	zend_async_event_t base;
	zend_string *hostname;
	zend_string *service;
};

struct _zend_async_dns_addrinfo_s {
	zend_async_event_t base;
	const char *node;
	const char *service;
	struct addrinfo *result; /* free with ZEND_ASYNC_FREEADDRINFO */
};

typedef enum {
	ZEND_ASYNC_EXEC_MODE_EXEC,
	ZEND_ASYNC_EXEC_MODE_SYSTEM,
	ZEND_ASYNC_EXEC_MODE_PASSTHRU,
	ZEND_ASYNC_EXEC_MODE_SHELL_EXEC
} zend_async_exec_mode;

struct _zend_async_exec_event_s {
	zend_async_event_t base;
	zend_async_exec_mode exec_mode;
	bool terminated;
	char *cmd;
	zval *return_value;
	zval *result_buffer;
	size_t output_len;
	char *output_buffer;
	zend_long exit_code;
	int term_signal;
	zval *std_error;
};

/* A C function run on the reactor's thread pool (blocking system calls: fsync(), ...). `run`
 * executes on a pool thread: it must not touch PHP or Zend state nor allocate with ZendMM; it
 * reads `arg` (and the event's extra area) and writes `result`/`error` (errno). The job is queued
 * when the event first starts (waiting on it starts it), so fill the extra area before. The event closes
 * and notifies its subscribers on the loop thread when `run` returned; once a thread runs it, it
 * cannot be interrupted (a disposal meanwhile is honoured when it returns).
 *
 * `abandon` (optional, set before the event starts) is for a `run` that may block for
 * long or for ever (opening a FIFO waits for its peer), or that produces something to release (a
 * descriptor): it is called once, on the loop thread, when nobody waits for the result any more
 * before it was delivered — the last reference was released while in flight, or the request
 * ends. `run` may not have started, may be running, or may have returned; a job with an abandon
 * hook is never dropped, it runs. The hook must make `run` return soon (libuv waits for every
 * job at shutdown) and arrange that whatever `run` produces is released; `result` is delivered
 * to nobody after it. It races with `run`: they agree through atomics in the extra area, which
 * stays valid until `run` returned. Without the hook, an abandoned job that no thread took yet is
 * dropped. */
typedef void (*zend_async_work_fn)(zend_async_work_event_t *work);

struct _zend_async_work_event_s {
	zend_async_event_t base;
	zend_async_work_fn run;
	zend_async_work_fn abandon;
	void *arg;
	intptr_t result;
	int error;
};

struct _zend_async_listen_event_s {
	zend_async_event_t base;
	const char *host;
	int port;
	int backlog;
	zend_socket_t socket_fd;
	int (*get_local_address)(zend_async_listen_event_t *listen, struct sockaddr_storage *addr, socklen_t *len);
};

struct _zend_async_trigger_event_s {
	zend_async_event_t base;
	void (*trigger)(zend_async_trigger_event_t *event); /* safe from any thread */
};

struct _zend_async_task_s {
	zend_async_event_t base;
	void (*run)(zend_async_task_t *task); /* runs on a pool thread */
	void *data;
};

typedef enum {
	ZEND_ASYNC_IO_TYPE_PIPE,
	ZEND_ASYNC_IO_TYPE_FILE,
	ZEND_ASYNC_IO_TYPE_TCP,
	ZEND_ASYNC_IO_TYPE_UDP,
	ZEND_ASYNC_IO_TYPE_TTY
} zend_async_io_type;

#define ZEND_ASYNC_IO_READABLE     (1u << 0)
#define ZEND_ASYNC_IO_WRITABLE     (1u << 1)
#define ZEND_ASYNC_IO_CLOSED       (1u << 2)
#define ZEND_ASYNC_IO_EOF          (1u << 3)
#define ZEND_ASYNC_IO_APPEND       (1u << 4)
#define ZEND_ASYNC_IO_PRESERVE_FD  (1u << 5)
#define ZEND_ASYNC_IO_OWNS_FD      (1u << 6)
#define ZEND_ASYNC_IO_F_MULTISHOT  (1u << 13)

struct _zend_async_io_s {
	zend_async_event_t event;
	union {
		zend_file_descriptor_t fd;
		zend_socket_t socket;
	} descriptor;
	zend_async_io_type type;
	uint32_t state;
	void (*on_detach)(zend_async_io_t *io, void *arg);
	void *user_data;
};

struct _zend_async_io_req_s {
	union {
		ssize_t result;
		ssize_t transferred;
	};
	zend_object *exception;
	char *buf;
	bool completed;
	bool io_closed;
	void (*dispose)(zend_async_io_req_t *req);
};

/* Future: a one-shot result holder (Async\FutureState / Async\Future). The future lives in a
 * hidden Zend object (an F_ZEND_OBJ event): ZEND_ASYNC_NEW_FUTURE returns the caller's one
 * reference (ZEND_ASYNC_EVENT_RELEASE drops it); with _EX, extra_size zeroed bytes sit at
 * event.extra_offset. Subscribers get result (a zval*) or exception; a finished future replays.
 * Disposing one that nobody used, or whose error nobody observed, warns unless F_IGNORED. */
#define ZEND_FUTURE_F_THREAD_SAFE (1u << 13)
#define ZEND_FUTURE_F_IGNORED     (1u << 14)

struct _zend_future_s {
	zend_async_event_t event;
	zval result;
	zend_object *exception;
	zend_string *filename;
	uint32_t lineno;
	zend_string *completed_filename;
	uint32_t completed_lineno;
};

/* Channel (Async\Channel). The channel lives in its PHP object (an F_ZEND_OBJ event):
 * ZEND_ASYNC_NEW_CHANNEL returns the caller's one reference (ZEND_ASYNC_EVENT_RELEASE drops it; the
 * last one closes the channel with DISPOSED), ZEND_ASYNC_CHANNEL_OBJ is the Async\Channel object.
 * buffer_size 0 = rendezvous; resizable = the buffer grows instead of making senders wait;
 * thread_safe is not supported (Error). All methods borrow their zvals.
 * - send: buffers or hands over, parking the coroutine while the channel is full; false with an
 *   exception (ChannelException when closed, a cancellation...).
 * - receive: true and *result filled (the caller owns it); parks while empty; drains buffered values
 *   after close, then false with a ChannelException. `cancellation` (nullable) is a token event:
 *   when it fires, OperationCanceledException (previous = the token's error).
 * - try_send / try_receive: the same without parking; false without an exception when the
 *   channel is full / empty / closed.
 * - close: idempotent. Parked coroutines wake with ChannelException; other subscribers of the
 *   event are notified with one as `exception`. */
#define ZEND_ASYNC_CHANNEL_F_THREAD_SAFE (1u << 13)

struct _zend_async_channel_s {
	zend_async_event_t event;
	bool (*send)(zend_async_channel_t *channel, zval *value);
	bool (*receive)(zend_async_channel_t *channel, zval *result, zend_async_event_t *cancellation);
	void (*close)(zend_async_channel_t *channel);
	bool (*try_send)(zend_async_channel_t *channel, zval *value);
	bool (*try_receive)(zend_async_channel_t *channel, zval *result);
	void *user_data; /* extra_size bytes of the creator's, or NULL; never used by the channel */
};

struct _zend_async_group_s {
	zend_async_event_t event;
};

/* ---------------------------------------------------------------------------------------------
 * Resource pool (Async\Pool). Two halves: this public struct, which C code may read, and the
 * implementation's own struct that starts with it (idle ring, FIFO of waiters, counters).
 * A pool is an event: a parked acquire subscribes to it (add/del_callback); start/stop do
 * nothing; close() notifies the subscribers. Never waited on directly by PHP.
 *
 * Each of the five callbacks is either a PHP callable (zend_fcall_t *, the path of
 * `new Async\Pool(...)` and zend_async_pool_create()) or a C function (the path of
 * zend_async_pool_create_internal() / ZEND_ASYNC_NEW_POOL), chosen per callback by its
 * ZEND_ASYNC_POOL_F_*_INTERNAL bit in handler_flags. C callbacks are called directly, without
 * zend_call_function(). Every callback runs in the coroutine that triggered it and may suspend;
 * healthchecks run in a short-lived coroutine of their own.
 *
 * Resources are zvals. The pool holds a reference to each idle resource only; an acquired one
 * belongs to its holder until release().
 * ------------------------------------------------------------------------------------------- */
typedef enum {
	ZEND_ASYNC_CIRCUIT_ACTIVE,
	ZEND_ASYNC_CIRCUIT_INACTIVE,   /* acquire() throws ServiceUnavailableException, try_acquire() fails */
	ZEND_ASYNC_CIRCUIT_RECOVERING  /* treated as ACTIVE by acquire() */
} zend_async_circuit_state_t;

#define ZEND_ASYNC_POOL_F_FACTORY_INTERNAL        (1u << 0)
#define ZEND_ASYNC_POOL_F_DESTRUCTOR_INTERNAL     (1u << 1)
#define ZEND_ASYNC_POOL_F_HEALTHCHECK_INTERNAL    (1u << 2)
#define ZEND_ASYNC_POOL_F_BEFORE_ACQUIRE_INTERNAL (1u << 3)
#define ZEND_ASYNC_POOL_F_BEFORE_RELEASE_INTERNAL (1u << 4)
#define ZEND_ASYNC_POOL_F_STRATEGY_INTERNAL       (1u << 5)
#define ZEND_ASYNC_POOL_F_ALL_INTERNAL            0x1fu /* the five callbacks */

/* Fills *resource and returns SUCCESS; FAILURE with an exception propagates it, FAILURE without
 * one becomes PoolException("Failed to create pool resource"). */
typedef zend_result (*zend_async_pool_factory_fn)(zend_async_pool_t *pool, zval *resource);
/* Frees what the resource holds; the pool destroys the zval itself afterwards. May throw. */
typedef void (*zend_async_pool_destructor_fn)(zend_async_pool_t *pool, zval *resource);
/* healthcheck, before_acquire, before_release: false = dead / rejected (the resource is destroyed). */
typedef bool (*zend_async_pool_check_fn)(zend_async_pool_t *pool, zval *resource);
/* Circuit breaker strategy in C: told about every release (success, or failure with its error). */
typedef void (*zend_async_pool_report_success_fn)(zend_async_pool_t *pool);
typedef void (*zend_async_pool_report_failure_fn)(zend_async_pool_t *pool, zend_object *error);

struct _zend_async_pool_s {
	zend_async_event_t event;
	uint32_t handler_flags;                   /* ZEND_ASYNC_POOL_F_* */
	zend_async_circuit_state_t circuit_state;
	uint32_t min_size;                        /* pre-created, restored by the healthcheck */
	uint32_t max_size;                        /* idle + active never exceed it */
	uint32_t healthcheck_interval;            /* ms; 0 = no healthcheck timer */
	zend_object *wrapper;                     /* the Async\Pool object, if any (not a reference; the
	                                             event has F_OBJ_REF and extra_offset points here) */
	union { zend_fcall_t *fcall; zend_async_pool_factory_fn fn; } factory;
	union { zend_fcall_t *fcall; zend_async_pool_destructor_fn fn; } destructor;
	union { zend_fcall_t *fcall; zend_async_pool_check_fn fn; } healthcheck;
	union { zend_fcall_t *fcall; zend_async_pool_check_fn fn; } before_acquire;
	union { zend_fcall_t *fcall; zend_async_pool_check_fn fn; } before_release;
	union {
		zend_object *object; /* an Async\CircuitBreakerStrategy (a reference), or NULL */
		struct {
			zend_async_pool_report_success_fn report_success;
			zend_async_pool_report_failure_fn report_failure;
		} fn;                /* with ZEND_ASYNC_POOL_F_STRATEGY_INTERNAL; either may be NULL */
	} strategy;
	void *user_data;         /* the creator's (points at the extra_size bytes, if any); never used by the pool */
};

/* ---------------------------------------------------------------------------------------------
 * Microtasks and context.
 * ------------------------------------------------------------------------------------------- */
typedef void (*zend_async_microtask_handler_t)(zend_async_microtask_t *microtask);

struct _zend_async_microtask_s {
	zend_async_microtask_handler_t handler;
	zend_async_microtask_handler_t dtor;
	bool is_cancelled;
	uint32_t ref_count;
};

struct _zend_async_context_s {
	uint32_t flags;
	uint32_t offset;
	bool (*find)(zend_async_context_t *context, zval *key, zval *result, bool include_parent);
	void (*set)(zend_async_context_t *context, zval *key, zval *value);
	bool (*unset)(zend_async_context_t *context, zval *key);
	void (*dispose)(zend_async_context_t *context);
};

/* ---------------------------------------------------------------------------------------------
 * Coroutine. State lives in flags and in the waker; finished = F_CLOSED.
 * ------------------------------------------------------------------------------------------- */
#define ZEND_COROUTINE_F_STARTED   (1u << 13)
#define ZEND_COROUTINE_F_CANCELLED (1u << 14)
#define ZEND_COROUTINE_F_ZOMBIE    (1u << 15)
#define ZEND_COROUTINE_F_PROTECTED (1u << 16)
#define ZEND_COROUTINE_F_MAIN      (1u << 17)
#define ZEND_COROUTINE_F_FIBER     (1u << 18)
#define ZEND_COROUTINE_F_YIELD     (1u << 19)

#define ZEND_COROUTINE_IS_STARTED(c)    ZEND_ASYNC_EVENT_HAS(&(c)->event, ZEND_COROUTINE_F_STARTED)
#define ZEND_COROUTINE_SET_STARTED(c)   ZEND_ASYNC_EVENT_SET(&(c)->event, ZEND_COROUTINE_F_STARTED)
#define ZEND_COROUTINE_IS_CANCELLED(c)  ZEND_ASYNC_EVENT_HAS(&(c)->event, ZEND_COROUTINE_F_CANCELLED)
#define ZEND_COROUTINE_SET_CANCELLED(c) ZEND_ASYNC_EVENT_SET(&(c)->event, ZEND_COROUTINE_F_CANCELLED)
#define ZEND_COROUTINE_IS_PROTECTED(c)  ZEND_ASYNC_EVENT_HAS(&(c)->event, ZEND_COROUTINE_F_PROTECTED)
#define ZEND_COROUTINE_SET_PROTECTED(c) ZEND_ASYNC_EVENT_SET(&(c)->event, ZEND_COROUTINE_F_PROTECTED)
#define ZEND_COROUTINE_CLR_PROTECTED(c) ZEND_ASYNC_EVENT_CLR(&(c)->event, ZEND_COROUTINE_F_PROTECTED)
#define ZEND_COROUTINE_IS_MAIN(c)       ZEND_ASYNC_EVENT_HAS(&(c)->event, ZEND_COROUTINE_F_MAIN)
#define ZEND_COROUTINE_IS_ZOMBIE(c)     ZEND_ASYNC_EVENT_HAS(&(c)->event, ZEND_COROUTINE_F_ZOMBIE)
#define ZEND_COROUTINE_IS_FINISHED(c)   ZEND_ASYNC_EVENT_IS_CLOSED(&(c)->event)
#define ZEND_COROUTINE_SUSPENDED(c) \
	((c)->waker != NULL && (c)->waker->status < ZEND_ASYNC_WAKER_RESULT && (c)->waker->status != ZEND_ASYNC_WAKER_NO_STATUS)

#define ZEND_COROUTINE_NORMAL      0
#define ZEND_COROUTINE_HI_PRIORITY 255

typedef void (*zend_coroutine_entry_t)(void);
typedef void (*zend_async_coroutine_dispose)(zend_coroutine_t *coroutine);

/* Returning false removes the handler. */
typedef bool (*zend_coroutine_switch_handler_fn)(zend_coroutine_t *coroutine, bool is_enter, bool is_finishing);

typedef struct {
	uint32_t length;
	uint32_t capacity;
	zend_coroutine_switch_handler_fn *data;
} zend_coroutine_switch_handlers_vector_t;

struct _zend_coroutine_s {
	zend_async_event_t event;
	zend_fcall_t *fcall;                   /* userland entry */
	zend_coroutine_entry_t internal_entry; /* C entry, used when fcall is NULL */
	void *extended_data;
	zend_async_waker_t *waker;
	zend_async_scope_t *scope;
	zval result;
	zend_object *exception;
	zend_async_context_t *context;
	HashTable *internal_context;
	zend_string *filename; /* spawn site */
	uint32_t lineno;
	zend_async_coroutine_dispose extended_dispose;
	zend_coroutine_switch_handlers_vector_t *switch_handlers;
};

ZEND_API void zend_coroutine_add_switch_handler(zend_coroutine_t *coroutine, zend_coroutine_switch_handler_fn handler);
ZEND_API bool zend_coroutine_remove_switch_handler(zend_coroutine_t *coroutine, zend_coroutine_switch_handler_fn handler);
ZEND_API void zend_coroutine_call_switch_handlers(zend_coroutine_t *coroutine, bool is_enter, bool is_finishing);

#define ZEND_COROUTINE_ADD_SWITCH_HANDLER(c, h) zend_coroutine_add_switch_handler((c), (h))
#define ZEND_COROUTINE_ENTER(c)  do { if ((c)->switch_handlers) zend_coroutine_call_switch_handlers((c), true, false); } while (0)
#define ZEND_COROUTINE_LEAVE(c)  do { if ((c)->switch_handlers) zend_coroutine_call_switch_handlers((c), false, false); } while (0)
#define ZEND_COROUTINE_FINISH(c) do { if ((c)->switch_handlers) zend_coroutine_call_switch_handlers((c), false, true); } while (0)

/* ---------------------------------------------------------------------------------------------
 * Scope (the tree of coroutines).
 * ------------------------------------------------------------------------------------------- */
/* Closed for spawning. The event itself closes (EVENT_F_CLOSED) only when the scope is disposed,
 * so a closed scope can still be waited on. */
#define ZEND_ASYNC_SCOPE_F_CLOSED          (1u << 18)
#define ZEND_ASYNC_SCOPE_F_NO_FREE_MEMORY  ZEND_ASYNC_EVENT_F_NO_FREE_MEMORY
#define ZEND_ASYNC_SCOPE_F_DISPOSE_SAFELY  (1u << 14)
#define ZEND_ASYNC_SCOPE_F_CANCELLED       (1u << 15)
#define ZEND_ASYNC_SCOPE_F_DISPOSING       (1u << 16)
#define ZEND_ASYNC_SCOPE_F_OWNER_PINNED    (1u << 17)

#define ZEND_ASYNC_SCOPE_IS_CLOSED(s)    ZEND_ASYNC_EVENT_HAS(&(s)->event, ZEND_ASYNC_SCOPE_F_CLOSED)
#define ZEND_ASYNC_SCOPE_IS_CANCELLED(s) ZEND_ASYNC_EVENT_HAS(&(s)->event, ZEND_ASYNC_SCOPE_F_CANCELLED)

typedef struct {
	uint32_t length;
	uint32_t capacity;
	zend_async_scope_t **data;
} zend_async_scopes_vector_t;

struct _zend_async_scope_s {
	zend_async_event_t event;
	zend_object *scope_object;
	zend_async_scopes_vector_t scopes;
	zend_async_scope_t *parent_scope;
	zend_async_scope_t *request_scope;
	zend_async_context_t *context;
	void (*before_coroutine_enqueue)(zend_coroutine_t *coroutine, zend_async_scope_t *scope, zval *result);
	void (*after_coroutine_enqueue)(zend_coroutine_t *coroutine, zend_async_scope_t *scope);
	bool (*can_be_disposed)(zend_async_scope_t *scope, bool with_zombies, bool check_zend_objects);
	bool (*try_to_dispose)(zend_async_scope_t *scope);
	bool (*catch_or_cancel)(zend_async_scope_t *scope, zend_coroutine_t *coroutine, zend_async_scope_t *from_scope,
		zend_object *exception, bool transfer_error, bool is_safely, bool is_cancellation);
};

/* ---------------------------------------------------------------------------------------------
 * Waker: what a suspended coroutine waits for, and what woke it.
 * ------------------------------------------------------------------------------------------- */
typedef enum {
	ZEND_ASYNC_WAKER_NO_STATUS = 0,
	ZEND_ASYNC_WAKER_WAITING = 1,
	ZEND_ASYNC_WAKER_QUEUED = 2,
	ZEND_ASYNC_WAKER_IGNORED = 3,
	ZEND_ASYNC_WAKER_RESULT = 4
} zend_async_waker_status;

typedef struct {
	zend_async_event_t *event;
	zend_async_event_callback_t *callback;
	bool owns_event; /* the waker stops and releases the event when cleaned */
} zend_async_waker_trigger_t;

typedef void (*zend_async_waker_dtor)(zend_coroutine_t *coroutine);

struct _zend_async_waker_s {
	zend_async_waker_status status;
	bool events_stopped;
	uint32_t length;
	uint32_t capacity;
	zend_async_waker_trigger_t *triggers;
	zend_async_waker_trigger_t inline_triggers[2];
	zend_async_event_t *triggered_event; /* the event that resolved the wait, if any */
	zval result;
	zend_object *error;
	zend_string *filename; /* suspend site */
	uint32_t lineno;
	zend_async_waker_dtor dtor;
};

ZEND_API zend_async_waker_t *zend_async_waker_new(zend_coroutine_t *coroutine);
ZEND_API void zend_async_waker_destroy(zend_coroutine_t *coroutine);
ZEND_API void zend_async_waker_clean(zend_coroutine_t *coroutine);
ZEND_API void zend_async_waker_stop_events(zend_async_waker_t *waker);
ZEND_API bool zend_async_waker_is_event_exists(zend_async_waker_t *waker, zend_async_event_t *event);
ZEND_API void zend_async_waker_apply_error(zend_async_waker_t *waker, zend_object *error, bool transfer, bool override);
ZEND_API bool zend_async_resume_when(zend_coroutine_t *coroutine, zend_async_event_t *event, bool trans_event,
	zend_async_event_callback_fn callback, zend_coroutine_event_callback_t *coroutine_callback);
/* The first event to fire wins: true when the callback's coroutine still waits (its waker now
 * names `event` as what woke it), false when something woke it already. Inline: the resolvers
 * below take it, and so does an event that keeps its waiters in a queue of its own (a channel's
 * wake, on every message). */
static zend_always_inline bool zend_async_waker_take(zend_coroutine_event_callback_t *cb, zend_async_event_t *event)
{
	zend_async_waker_t *waker = cb->coroutine->waker;
	if (waker == NULL || waker->status != ZEND_ASYNC_WAKER_WAITING) {
		return false;
	}
	waker->triggered_event = event;
	return true;
}
/* zend_async_waker_callback_resolve() but the enqueue: true when the coroutine still waited and
 * now has the event's result (a zval result copied into the waker) or its error; the caller
 * queues it. Inline for wakes the caller makes on every message or finish. */
static zend_always_inline bool zend_async_waker_resolve(zend_coroutine_event_callback_t *cb, zend_async_event_t *event,
	void *result, zend_object *exception)
{
	if (!zend_async_waker_take(cb, event)) {
		return false;
	}
	zend_async_waker_t *waker = cb->coroutine->waker;
	if (exception != NULL) {
		zend_async_waker_apply_error(waker, exception, false, true);
	} else if (result != NULL && ZEND_ASYNC_EVENT_HAS(event, ZEND_ASYNC_EVENT_F_ZVAL_RESULT)) {
		i_zval_ptr_dtor(&waker->result);
		ZVAL_COPY(&waker->result, (zval *) result);
	}
	return true;
}
ZEND_API void zend_async_waker_callback_resolve(zend_async_event_t *event, zend_async_event_callback_t *callback,
	void *result, zend_object *exception);
ZEND_API void zend_async_waker_callback_cancel(zend_async_event_t *event, zend_async_event_callback_t *callback,
	void *result, zend_object *exception);
ZEND_API void zend_async_waker_callback_timeout(zend_async_event_t *event, zend_async_event_callback_t *callback,
	void *result, zend_object *exception);

#define ZEND_ASYNC_WAKER_NEW(co)     zend_async_waker_new(co)
#define ZEND_ASYNC_WAKER_DESTROY(co) zend_async_waker_destroy(co)
#define ZEND_ASYNC_WAKER_CLEAN(co)   zend_async_waker_clean(co)
#define ZEND_ASYNC_WAKER_WAITING(w)  ((w) != NULL && (w)->status == ZEND_ASYNC_WAKER_WAITING)
#define ZEND_ASYNC_WAKER_IN_QUEUE(w) ((w) != NULL && (w)->status == ZEND_ASYNC_WAKER_QUEUED)
#define ZEND_ASYNC_WAKER_APPLY_ERROR(w, e, transfer)  zend_async_waker_apply_error((w), (e), (transfer), true)
#define ZEND_ASYNC_WAKER_APPEND_ERROR(w, e, transfer) zend_async_waker_apply_error((w), (e), (transfer), false)

/* ---------------------------------------------------------------------------------------------
 * Globals.
 * ------------------------------------------------------------------------------------------- */
typedef enum {
	ZEND_ASYNC_OFF = 0,
	ZEND_ASYNC_READY = 1,
	ZEND_ASYNC_ACTIVE = 2
} zend_async_state_t;

typedef struct {
	zend_async_state_t state;
	bool in_scheduler_context;
	bool graceful_shutdown;
	uint32_t active_coroutine_count;
	uint32_t active_event_count;
	zend_coroutine_t *coroutine;
	zend_coroutine_t *main_coroutine;
	zend_async_scope_t *main_scope;
	zend_object *exit_exception;
} zend_async_globals_t;

/* One per thread on a thread-safe PHP (each thread serves its own requests): a thread-local
 * variable, which every extension reads through ZEND_ASYNC_G() as it would a plain one. */
#ifdef ZTS
ZEND_API extern TSRM_TLS zend_async_globals_t zend_async_api_globals;
#else
ZEND_API extern zend_async_globals_t zend_async_api_globals;
#endif
#define ZEND_ASYNC_G(v) (zend_async_api_globals.v)

#define ZEND_ASYNC_IS_OFF              (ZEND_ASYNC_G(state) == ZEND_ASYNC_OFF)
#define ZEND_ASYNC_IS_READY            (ZEND_ASYNC_G(state) == ZEND_ASYNC_READY)
#define ZEND_ASYNC_IS_ACTIVE           (ZEND_ASYNC_G(state) == ZEND_ASYNC_ACTIVE)
#define ZEND_ASYNC_ON                  (ZEND_ASYNC_G(state) >= ZEND_ASYNC_READY)
#define ZEND_ASYNC_CURRENT_COROUTINE   (ZEND_ASYNC_G(coroutine))
#define ZEND_ASYNC_MAIN_COROUTINE      (ZEND_ASYNC_G(main_coroutine))
#define ZEND_ASYNC_MAIN_SCOPE          (ZEND_ASYNC_G(main_scope))
#define ZEND_ASYNC_CURRENT_SCOPE       (ZEND_ASYNC_G(coroutine) ? ZEND_ASYNC_G(coroutine)->scope : ZEND_ASYNC_G(main_scope))
#define ZEND_ASYNC_IS_SCHEDULER_CONTEXT (ZEND_ASYNC_G(in_scheduler_context))
#define ZEND_ASYNC_GRACEFUL_SHUTDOWN   (ZEND_ASYNC_G(graceful_shutdown))
#define ZEND_ASYNC_EXIT_EXCEPTION      (ZEND_ASYNC_G(exit_exception))

/* Hidden events never hold back deadlock detection. */
#define ZEND_ASYNC_INCREASE_EVENT_COUNT(ev) do { \
		if (!ZEND_ASYNC_EVENT_IS_HIDDEN(ev)) { ZEND_ASYNC_G(active_event_count)++; } \
	} while (0)
#define ZEND_ASYNC_DECREASE_EVENT_COUNT(ev) do { \
		if (!ZEND_ASYNC_EVENT_IS_HIDDEN(ev) && ZEND_ASYNC_G(active_event_count) > 0) { \
			ZEND_ASYNC_G(active_event_count)--; \
		} \
	} while (0)
#define ZEND_ASYNC_INCREASE_COROUTINE_COUNT (ZEND_ASYNC_G(active_coroutine_count)++)
#define ZEND_ASYNC_DECREASE_COROUTINE_COUNT do { \
		if (ZEND_ASYNC_G(active_coroutine_count) > 0) { ZEND_ASYNC_G(active_coroutine_count)--; } \
	} while (0)

/* ---------------------------------------------------------------------------------------------
 * Class lookup, for code that must throw the runtime's exceptions.
 * ------------------------------------------------------------------------------------------- */
typedef enum {
	ZEND_ASYNC_CLASS_NO = 0,
	ZEND_ASYNC_CLASS_AWAITABLE = 1,
	ZEND_ASYNC_CLASS_COMPLETABLE = 2,
	ZEND_ASYNC_CLASS_COROUTINE = 3,
	ZEND_ASYNC_CLASS_SCOPE = 4,
	ZEND_ASYNC_CLASS_FUTURE = 5,
	ZEND_ASYNC_CLASS_CHANNEL = 6,
	ZEND_ASYNC_CLASS_POOL = 7,
	ZEND_ASYNC_CLASS_CONTEXT = 8,
	ZEND_ASYNC_EXCEPTION_DEFAULT = 30,
	ZEND_ASYNC_EXCEPTION_CANCELLATION = 31,
	ZEND_ASYNC_EXCEPTION_TIMEOUT = 32,
	ZEND_ASYNC_EXCEPTION_INPUT_OUTPUT = 33,
	ZEND_ASYNC_EXCEPTION_POLL = 34,
	ZEND_ASYNC_EXCEPTION_DNS = 35,
	ZEND_ASYNC_EXCEPTION_DEADLOCK = 36,
	ZEND_ASYNC_EXCEPTION_SERVICE_UNAVAILABLE = 37,
	ZEND_ASYNC_EXCEPTION_OPERATION_CANCELLED = 38,
	ZEND_ASYNC_EXCEPTION_THREAD_TRANSFER = 39,
	ZEND_ASYNC_EXCEPTION_REMOTE = 40
} zend_async_class;

/* ---------------------------------------------------------------------------------------------
 * Function tables. Before registration every slot holds a stub that throws
 * "Async API is not enabled" (and returns NULL/false), never a crash.
 * ------------------------------------------------------------------------------------------- */
typedef struct {
	void (*launch)(void);
	zend_coroutine_t *(*new_coroutine)(zend_async_scope_t *scope);
	zend_async_scope_t *(*new_scope)(zend_async_scope_t *parent, bool with_zend_object);
	zend_async_context_t *(*new_context)(void);
	zend_coroutine_t *(*spawn)(zend_async_scope_t *scope, zend_object *scope_provider, int32_t priority);
	void (*suspend)(bool from_main);
	bool (*enqueue_coroutine)(zend_coroutine_t *coroutine);
	void (*resume)(zend_coroutine_t *coroutine, zend_object *error, bool transfer_error);
	void (*cancel)(zend_coroutine_t *coroutine, zend_object *error, bool transfer_error, bool is_safely);
	void (*shutdown)(void);
	zend_array *(*get_coroutines)(void);
	void (*add_microtask)(zend_async_microtask_t *microtask);
	zend_array *(*get_awaiting_info)(zend_coroutine_t *coroutine);
	zend_class_entry *(*get_class_ce)(zend_async_class type);
	zend_future_t *(*new_future)(bool thread_safe, size_t extra_size);
	zend_async_channel_t *(*new_channel)(size_t buffer_size, bool resizable, bool thread_safe, size_t extra_size);
	zend_async_group_t *(*new_group)(size_t extra_size);
} zend_async_scheduler_api_t;

typedef struct {
	bool (*startup)(void);
	void (*shutdown)(void);
	bool (*execute)(bool no_wait);
	bool (*loop_alive)(void);
	zend_async_poll_event_t *(*new_socket_event)(zend_socket_t socket, async_poll_event events, size_t extra_size);
	zend_async_poll_event_t *(*new_poll_event)(zend_file_descriptor_t fd, zend_socket_t socket, async_poll_event events, size_t extra_size);
	zend_async_poll_proxy_t *(*new_poll_proxy_event)(zend_async_poll_event_t *poll, async_poll_event events, size_t extra_size);
	zend_async_timer_event_t *(*new_timer_event)(zend_ulong timeout_ms, zend_ulong nanoseconds, bool is_periodic, size_t extra_size);
	zend_async_signal_event_t *(*new_signal_event)(int signum, size_t extra_size);
	zend_async_process_event_t *(*new_process_event)(zend_process_t process, size_t extra_size);
	zend_async_filesystem_event_t *(*new_filesystem_event)(zend_string *path, unsigned int flags, size_t extra_size);
	zend_async_dns_nameinfo_t *(*getnameinfo)(const struct sockaddr *addr, int flags, size_t extra_size);
	zend_async_dns_addrinfo_t *(*getaddrinfo)(const char *node, const char *service, const struct addrinfo *hints, size_t extra_size);
	void (*freeaddrinfo)(struct addrinfo *ai);
	zend_async_exec_event_t *(*new_exec_event)(zend_async_exec_mode mode, const char *cmd, zval *return_buffer,
		zval *return_value, zval *std_error, const char *cwd, const char *env, size_t extra_size);
	zend_async_trigger_event_t *(*new_trigger_event)(size_t extra_size);
	uint32_t (*available_parallelism)(void);
	uint64_t (*now)(void);
	/* appended: existing slots keep their offsets */
	zend_async_work_event_t *(*new_work_event)(zend_async_work_fn run, void *arg, size_t extra_size);
} zend_async_reactor_api_t;

typedef struct {
	zend_async_io_t *(*create)(zend_file_descriptor_t fd, zend_async_io_type type, uint32_t state);
	zend_async_io_req_t *(*read)(zend_async_io_t *io, size_t max_size);
	zend_async_io_req_t *(*write)(zend_async_io_t *io, const char *buf, size_t count);
	int (*close)(zend_async_io_t *io);
	int (*flush)(zend_async_io_t *io);
	zend_async_listen_event_t *(*socket_listen)(const char *host, int port, int backlog, uint32_t flags, size_t extra_size);
} zend_async_io_api_t;

/* The pool table. A new pool holds one reference, the caller's (ZEND_ASYNC_EVENT_RELEASE drops it);
 * min_size resources are created before it returns. Creation returns NULL with an exception on
 * bad sizes (min > max, max == 0) or when pre-creating fails.
 * - create: callables; the pool takes ownership of the zend_fcall_t's (NULL = none; factory required).
 * - create_internal: C functions (NULL = none; factory required).
 * - new_pool_obj: the pool's Async\Pool object (created on first call; a new reference each time).
 *   Destroying that object does not close a pool created in C.
 * - acquire: true and *result filled (the caller owns it); false with an exception. Parks the
 *   coroutine in FIFO order while the pool is exhausted; timeout_ms 0 = no limit
 *   (Async\TimeoutException after it).
 * - try_acquire: as acquire without parking; false without an exception when closed, INACTIVE
 *   or exhausted.
 * - release: borrows *resource (the pool takes its own reference).
 * - close: idempotent; wakes waiters with PoolException, destroys idle resources (busy ones on
 *   release); may throw the first destructor exception, the others chained as previous. */
typedef struct {
	zend_async_pool_t *(*create)(zend_fcall_t *factory, zend_fcall_t *destructor, zend_fcall_t *healthcheck,
		zend_fcall_t *before_acquire, zend_fcall_t *before_release,
		uint32_t min_size, uint32_t max_size, uint32_t healthcheck_interval_ms, size_t extra_size);
	zend_async_pool_t *(*create_internal)(zend_async_pool_factory_fn factory, zend_async_pool_destructor_fn destructor,
		zend_async_pool_check_fn healthcheck, zend_async_pool_check_fn before_acquire,
		zend_async_pool_check_fn before_release,
		uint32_t min_size, uint32_t max_size, uint32_t healthcheck_interval_ms, size_t extra_size);
	zend_object *(*new_pool_obj)(zend_async_pool_t *pool);
	bool (*acquire)(zend_async_pool_t *pool, zval *result, zend_long timeout_ms);
	bool (*try_acquire)(zend_async_pool_t *pool, zval *result);
	void (*release)(zend_async_pool_t *pool, zval *resource);
	void (*close)(zend_async_pool_t *pool);
} zend_async_pool_api_t;

ZEND_API extern zend_async_scheduler_api_t zend_async_scheduler_api;
ZEND_API extern zend_async_reactor_api_t zend_async_reactor_api;
ZEND_API extern zend_async_io_api_t zend_async_io_api;
ZEND_API extern zend_async_pool_api_t zend_async_pool_api;

/* Registration. A table is copied; NULL slots keep their stub. A second module may replace the
 * table only with allow_override; re-registering from the same module always succeeds. */
ZEND_API bool zend_async_scheduler_register(const char *module, bool allow_override, const zend_async_scheduler_api_t *api);
ZEND_API bool zend_async_reactor_register(const char *module, bool allow_override, const zend_async_reactor_api_t *api);
ZEND_API bool zend_async_io_register(const char *module, bool allow_override, const zend_async_io_api_t *api);
ZEND_API bool zend_async_pool_api_register(const char *module, bool allow_override, const zend_async_pool_api_t *api);
ZEND_API void zend_async_api_unregister_all(void);

ZEND_API bool zend_async_is_enabled(void);
ZEND_API bool zend_scheduler_is_enabled(void);
ZEND_API bool zend_async_reactor_is_enabled(void);
ZEND_API const char *zend_async_scheduler_module(void);
ZEND_API const char *zend_async_reactor_module(void);

/* Throw helpers (use the registered exception classes; plain Error before registration). */
ZEND_API zend_object *zend_async_new_exception(zend_async_class type, const char *format, ...) ZEND_ATTRIBUTE_FORMAT(printf, 2, 3);
ZEND_API zend_object *zend_async_throw(zend_async_class type, const char *format, ...) ZEND_ATTRIBUTE_FORMAT(printf, 2, 3);
ZEND_API zend_object *zend_async_throw_cancellation(const char *format, ...) ZEND_ATTRIBUTE_FORMAT(printf, 1, 2);
ZEND_API zend_object *zend_async_throw_timeout(const char *format, ...) ZEND_ATTRIBUTE_FORMAT(printf, 1, 2);

ZEND_API void zend_fcall_release(zend_fcall_t *fcall);
/* A heap copy of a parsed callable without arguments (NULL for an empty fci). */
ZEND_API zend_fcall_t *zend_async_fcall_new(zend_fcall_info *fci, zend_fcall_info_cache *fcc);
/* Calls a stored callable with these arguments. Each call gets its own fci/fcc copy: the stored
 * ones are shared (several coroutines may be inside the same callable, the GC walks them). */
ZEND_API void zend_async_fcall_call(zend_fcall_t *fcall, zval *retval, uint32_t argc, zval *argv);
/* The same with a copy of the call's arguments (a spawn's `...$args`, named ones included). */
ZEND_API zend_fcall_t *zend_async_fcall_new_with_args(zend_fcall_info *fci, zend_fcall_info_cache *fcc,
	zval *args, uint32_t args_count, HashTable *named_args);
/* Fills a zend_fcall_t the caller owns (embedded in its own struct: no allocation) as
 * zend_async_fcall_new_with_args() does; up to args_storage_size arguments are copied into
 * args_storage (the caller's too), more into an allocation. fci must not be empty. Release with
 * zend_async_fcall_dtor() and the same args_storage. Inline: every spawn. */
static zend_always_inline void zend_async_fcall_init(zend_fcall_t *fcall, zend_fcall_info *fci, zend_fcall_info_cache *fcc,
	zval *args, uint32_t args_count, HashTable *named_args, zval *args_storage, uint32_t args_storage_size)
{
	ZEND_ASSERT(fci->size != 0 && "an empty fci is no callable");
	fcall->fci = *fci;
	fcall->fci.params = NULL;
	fcall->fci.param_count = args_count;
	fcall->fci.named_params = NULL;
	fcall->fci_cache = *fcc;
	/* A __call trampoline is freed by the call that uses it: resolve it afresh each time. The
	 * rest of the cache is kept, so a callable checked in the caller's scope (a private method)
	 * still works when called later from elsewhere. (The test is the engine's own, inline: most
	 * callables are not trampolines.) */
	if (UNEXPECTED(fcc->function_handler != NULL
			&& (fcc->function_handler->common.fn_flags & ZEND_ACC_CALL_VIA_TRAMPOLINE))) {
		zend_release_fcall_info_cache(&fcall->fci_cache);
	}
	Z_TRY_ADDREF(fcall->fci.function_name);
	if (args_count > 0) {
		fcall->fci.params = args_count <= args_storage_size ? args_storage : safe_emalloc(args_count, sizeof(zval), 0);
		for (uint32_t i = 0; i < args_count; i++) {
			ZVAL_COPY(&fcall->fci.params[i], &args[i]);
		}
	}
	if (named_args != NULL && zend_hash_num_elements(named_args) > 0) {
		fcall->fci.named_params = zend_array_dup(named_args);
	}
}

/* Releases what a zend_fcall_t holds (the callable, the arguments) but not the struct itself:
 * zend_fcall_release() is this and the struct's efree(). */
static zend_always_inline void zend_async_fcall_dtor(zend_fcall_t *fcall, zval *args_storage)
{
	/* Read first: what is released may run code that reaches the struct's owner. */
	zend_fcall_info fci = fcall->fci;
	i_zval_ptr_dtor(&fci.function_name);
	for (uint32_t i = 0; i < fci.param_count; i++) {
		i_zval_ptr_dtor(&fci.params[i]);
	}
	if (fci.params != NULL && fci.params != args_storage) {
		efree(fci.params);
	}
	if (fci.named_params != NULL) {
		zend_array_release(fci.named_params);
	}
}

/* replay() for events that keep a zval result and an exception (coroutines, futures). */
ZEND_API bool zend_async_replay_stored(zend_async_event_t *event, zend_async_event_callback_t *callback,
	zval *stored_result, zend_object *stored_exception, zval *result, zend_object **exception);
ZEND_API zend_string *zend_coroutine_callable_name(zend_coroutine_t *coroutine);
ZEND_API zend_string *zend_coroutine_gen_info(zend_coroutine_t *coroutine, const char *zend_coroutine_name);

/* ---------------------------------------------------------------------------------------------
 * Macros: the way C code talks to the runtime.
 * ------------------------------------------------------------------------------------------- */
#define ZEND_ASYNC_IS_ENABLED()              zend_async_is_enabled()
#define ZEND_ASYNC_SCHEDULER_LAUNCH()        zend_async_scheduler_api.launch()
#define ZEND_ASYNC_SCHEDULER_INIT()          do { if (ZEND_ASYNC_G(coroutine) == NULL) { zend_async_scheduler_api.launch(); } } while (0)
#define ZEND_ASYNC_NEW_COROUTINE(scope)      zend_async_scheduler_api.new_coroutine(scope)
#define ZEND_ASYNC_NEW_SCOPE(parent)         zend_async_scheduler_api.new_scope((parent), false)
#define ZEND_ASYNC_NEW_SCOPE_WITH_OBJECT(parent) zend_async_scheduler_api.new_scope((parent), true)
#define ZEND_ASYNC_NEW_CONTEXT()             zend_async_scheduler_api.new_context()
#define ZEND_ASYNC_SPAWN()                   zend_async_scheduler_api.spawn(NULL, NULL, ZEND_COROUTINE_NORMAL)
#define ZEND_ASYNC_SPAWN_WITH(scope)         zend_async_scheduler_api.spawn((scope), NULL, ZEND_COROUTINE_NORMAL)
#define ZEND_ASYNC_SPAWN_WITH_PROVIDER(p)    zend_async_scheduler_api.spawn(NULL, (p), ZEND_COROUTINE_NORMAL)
#define ZEND_ASYNC_SPAWN_WITH_PRIORITY(prio) zend_async_scheduler_api.spawn(NULL, NULL, (prio))
#define ZEND_ASYNC_SUSPEND()                 zend_async_scheduler_api.suspend(false)
#define ZEND_ASYNC_ENQUEUE_COROUTINE(c)      zend_async_scheduler_api.enqueue_coroutine(c)
#define ZEND_ASYNC_RESUME(c)                 zend_async_scheduler_api.resume((c), NULL, false)
#define ZEND_ASYNC_RESUME_WITH_ERROR(c, e, t) zend_async_scheduler_api.resume((c), (e), (t))
#define ZEND_ASYNC_CANCEL(c, e, t)           zend_async_scheduler_api.cancel((c), (e), (t), false)
#define ZEND_ASYNC_CANCEL_EX(c, e, t, safe)  zend_async_scheduler_api.cancel((c), (e), (t), (safe))
#define ZEND_ASYNC_SHUTDOWN()                zend_async_scheduler_api.shutdown()
#define ZEND_ASYNC_GET_COROUTINES()          zend_async_scheduler_api.get_coroutines()
#define ZEND_ASYNC_ADD_MICROTASK(m)          zend_async_scheduler_api.add_microtask(m)
#define ZEND_ASYNC_GET_AWAITING_INFO(c)      zend_async_scheduler_api.get_awaiting_info(c)
#define ZEND_ASYNC_GET_CE(type)              zend_async_scheduler_api.get_class_ce(type)
#define ZEND_ASYNC_GET_EXCEPTION_CE(type)    zend_async_scheduler_api.get_class_ce(type)
#define ZEND_ASYNC_NEW_FUTURE(thread_safe)   zend_async_scheduler_api.new_future((thread_safe), 0)
#define ZEND_ASYNC_NEW_FUTURE_EX(thread_safe, extra) zend_async_scheduler_api.new_future((thread_safe), (extra))
#define ZEND_ASYNC_NEW_CHANNEL(size, resizable, ts) zend_async_scheduler_api.new_channel((size), (resizable), (ts), 0)
#define ZEND_ASYNC_NEW_CHANNEL_EX(size, resizable, ts, extra) zend_async_scheduler_api.new_channel((size), (resizable), (ts), (extra))
#define ZEND_ASYNC_CHANNEL_OBJ(ch)           ZEND_ASYNC_EVENT_TO_OBJECT(&(ch)->event)
#define ZEND_ASYNC_CHANNEL_SEND(ch, v)       (ch)->send((ch), (v))
#define ZEND_ASYNC_CHANNEL_RECEIVE(ch, r, cancellation) (ch)->receive((ch), (r), (cancellation))
#define ZEND_ASYNC_CHANNEL_TRY_SEND(ch, v)   (ch)->try_send((ch), (v))
#define ZEND_ASYNC_CHANNEL_TRY_RECEIVE(ch, r) (ch)->try_receive((ch), (r))
#define ZEND_ASYNC_CHANNEL_CLOSE(ch)         (ch)->close(ch)
#define ZEND_ASYNC_NEW_GROUP()               zend_async_scheduler_api.new_group(0)

#define ZEND_ASYNC_REACTOR_STARTUP()         zend_async_reactor_api.startup()
#define ZEND_ASYNC_REACTOR_SHUTDOWN()        zend_async_reactor_api.shutdown()
#define ZEND_ASYNC_REACTOR_EXECUTE(no_wait)  zend_async_reactor_api.execute(no_wait)
#define ZEND_ASYNC_REACTOR_LOOP_ALIVE()      zend_async_reactor_api.loop_alive()
#define ZEND_ASYNC_NEW_SOCKET_EVENT(s, ev)   zend_async_reactor_api.new_socket_event((s), (ev), 0)
#define ZEND_ASYNC_NEW_POLL_EVENT(fd, s, ev) zend_async_reactor_api.new_poll_event((fd), (s), (ev), 0)
#define ZEND_ASYNC_NEW_POLL_PROXY_EVENT(p, ev) zend_async_reactor_api.new_poll_proxy_event((p), (ev), 0)
#define ZEND_ASYNC_NEW_TIMER_EVENT(ms, periodic) zend_async_reactor_api.new_timer_event((ms), 0, (periodic), 0)
#define ZEND_ASYNC_NEW_TIMER_EVENT_EX(ms, periodic, extra) zend_async_reactor_api.new_timer_event((ms), 0, (periodic), (extra))
#define ZEND_ASYNC_NEW_TIMER_EVENT_NS(ms, ns, periodic) zend_async_reactor_api.new_timer_event((ms), (ns), (periodic), 0)
#define ZEND_ASYNC_NEW_SIGNAL_EVENT(sig)     zend_async_reactor_api.new_signal_event((sig), 0)
#define ZEND_ASYNC_NEW_PROCESS_EVENT(p)      zend_async_reactor_api.new_process_event((p), 0)
#define ZEND_ASYNC_NEW_FILESYSTEM_EVENT(path, flags) zend_async_reactor_api.new_filesystem_event((path), (flags), 0)
#define ZEND_ASYNC_NEW_TRIGGER_EVENT()       zend_async_reactor_api.new_trigger_event(0)
#define ZEND_ASYNC_GETADDRINFO(node, service, hints) zend_async_reactor_api.getaddrinfo((node), (service), (hints), 0)
#define ZEND_ASYNC_GETNAMEINFO(addr, flags)  zend_async_reactor_api.getnameinfo((addr), (flags), 0)
#define ZEND_ASYNC_FREEADDRINFO(ai)          zend_async_reactor_api.freeaddrinfo(ai)
#define ZEND_ASYNC_AVAILABLE_PARALLELISM()   zend_async_reactor_api.available_parallelism()
#define ZEND_ASYNC_NOW()                     zend_async_reactor_api.now()
#define ZEND_ASYNC_NEW_WORK(run, arg)        zend_async_reactor_api.new_work_event((run), (arg), 0)
#define ZEND_ASYNC_NEW_WORK_EX(run, arg, extra) zend_async_reactor_api.new_work_event((run), (arg), (extra))

#define ZEND_ASYNC_IO_CREATE(fd, type, state) zend_async_io_api.create((fd), (type), (state))
#define ZEND_ASYNC_IO_READ(io, max)          zend_async_io_api.read((io), (max))
#define ZEND_ASYNC_IO_WRITE(io, buf, n)      zend_async_io_api.write((io), (buf), (n))
#define ZEND_ASYNC_IO_CLOSE(io)              zend_async_io_api.close(io)
#define ZEND_ASYNC_IO_FLUSH(io)              zend_async_io_api.flush(io)
#define ZEND_ASYNC_SOCKET_LISTEN(h, p, b)    zend_async_io_api.socket_listen((h), (p), (b), 0, 0)

/* With _EX, extra_size bytes are allocated with the pool; pool->user_data starts out pointing at them. */
#define ZEND_ASYNC_NEW_POOL(factory, destructor, healthcheck, before_acquire, before_release, min, max, interval) \
	zend_async_pool_api.create_internal((factory), (destructor), (healthcheck), (before_acquire), (before_release), \
		(min), (max), (interval), 0)
#define ZEND_ASYNC_NEW_POOL_EX(factory, destructor, healthcheck, before_acquire, before_release, min, max, interval, extra) \
	zend_async_pool_api.create_internal((factory), (destructor), (healthcheck), (before_acquire), (before_release), \
		(min), (max), (interval), (extra))
#define ZEND_ASYNC_NEW_POOL_OBJ(pool)        zend_async_pool_api.new_pool_obj(pool)
#define ZEND_ASYNC_POOL_ACQUIRE(pool, r, t)  zend_async_pool_api.acquire((pool), (r), (t))
#define ZEND_ASYNC_POOL_TRY_ACQUIRE(pool, r) zend_async_pool_api.try_acquire((pool), (r))
#define ZEND_ASYNC_POOL_RELEASE(pool, r)     zend_async_pool_api.release((pool), (r))
#define ZEND_ASYNC_POOL_CLOSE(pool)          zend_async_pool_api.close(pool)

/* The two creation paths by name (seed 002): callables, or C function pointers. */
static zend_always_inline zend_async_pool_t *zend_async_pool_create(zend_fcall_t *factory, zend_fcall_t *destructor,
	zend_fcall_t *healthcheck, zend_fcall_t *before_acquire, zend_fcall_t *before_release,
	uint32_t min_size, uint32_t max_size, uint32_t healthcheck_interval_ms)
{
	return zend_async_pool_api.create(factory, destructor, healthcheck, before_acquire, before_release,
		min_size, max_size, healthcheck_interval_ms, 0);
}

static zend_always_inline zend_async_pool_t *zend_async_pool_create_internal(zend_async_pool_factory_fn factory,
	zend_async_pool_destructor_fn destructor, zend_async_pool_check_fn healthcheck,
	zend_async_pool_check_fn before_acquire, zend_async_pool_check_fn before_release,
	uint32_t min_size, uint32_t max_size, uint32_t healthcheck_interval_ms)
{
	return zend_async_pool_api.create_internal(factory, destructor, healthcheck, before_acquire, before_release,
		min_size, max_size, healthcheck_interval_ms, 0);
}

END_EXTERN_C()

#endif /* ZEND_ASYNC_API_H */
