/*
 * classes/fs_watcher.c — Async\FileSystemWatcher: `foreach` over the changes below a path (spec §3.15).
 *
 * Built on the reactor's filesystem event (ZEND_ASYNC_NEW_FILESYSTEM_EVENT), which the watcher
 * creates in its constructor (a missing path throws there) and holds until close(). The watcher
 * subscribes one callback to it for its whole life, so changes are buffered while nobody
 * iterates; the event is started (keeps the loop alive, counts for deadlock detection) only while
 * an iterator waits, so an idle watcher never holds the script open.
 *
 * The buffer is a FIFO ring of entries in arrival order:
 * - coalesce (default): one entry per filename, its renamed/changed flags OR-ed until it is taken
 *   (`pending` maps the filename to its flags; the ring keeps the order);
 * - raw: one entry per change libuv reported;
 * - debounce (debounceMs > 0): a burst of changes becomes one entry with filename = null, emitted
 *   debounceMs after the last change, or maxHoldMs after the first when the burst goes on.
 * The ring holds at most WATCHER_MAX_BUFFERED named entries. Changes beyond that are folded into
 * one entry with filename = null (the "summary" entry, also used by debounce): like inotify's
 * overflow, it says "something changed, look again". Memory stays bounded whatever the rate.
 *
 * The extensions allow-list applies in every mode (a directory or an extension-less file never
 * matches a non-empty list); it is matched against the end of the entry's base name, ASCII
 * case-insensitively ("php" and ".php" are the same).
 *
 * The watcher is also an Awaitable event of its own (F_ZEND_OBJ, like Channel): it notifies its
 * subscribers, with no result, whenever an entry is buffered and when it is closed (then it
 * stays completed). Iterators wait on it through the one wait path (core/core.h), so a
 * cancellation, the deadlock rules and the destructor rule (P9) apply as to any wait, and a
 * foreach at top level launches the scheduler as Channel's does. close() drops what is buffered
 * and ends every iteration.
 */
#include "php_async.h"
#include "classes/classes.h"
#include "core/core.h"
#include "async_ring.h"
#include "zend_interfaces.h"
#include "zend_exceptions.h"
#include "fs_watcher_arginfo.h"

/* The named entries a watcher buffers before it folds changes into the summary entry. */
#define WATCHER_MAX_BUFFERED 4096

zend_class_entry *async__ce_fs_watcher;
zend_class_entry *async__ce_fs_event;
/* per-process: object handlers, filled once at MINIT */
static zend_object_handlers watcher_handlers;

typedef struct _async_watcher_s async_watcher_t;

typedef struct {
	zend_string *filename; /* NULL: the summary entry */
	uint32_t events;       /* raw mode; coalesced flags live in `pending` */
} watcher_entry_t;

/* The watcher's subscription to the filesystem event or to its debounce timer. */
typedef struct {
	zend_async_event_callback_t base;
	async_watcher_t *watcher; /* NULL once the watcher let go */
} watcher_cb_t;

struct _async_watcher_s {
	zend_async_event_t event;          /* first: the Awaitable's event (F_ZEND_OBJ) */
	zend_async_filesystem_event_t *fs; /* one reference, until close() */
	watcher_cb_t *on_change;
	zend_string *path;
	HashTable *extensions;             /* ".ext" strings; NULL = every entry */
	bool constructed;
	bool closed;
	bool coalesce;
	uint32_t debounce_ms, max_hold_ms;
	uint32_t started;                  /* waits started on the watcher (the fs event started as often) */
	async_ring_t queue;                /* watcher_entry_t, oldest first */
	HashTable pending;                 /* coalesce: filename -> flags (IS_LONG) */
	uint32_t summary_events;           /* flags of the summary entry, while it is queued */
	bool summary_queued;
	/* debounce: the burst being collected */
	bool burst;
	uint32_t burst_events;
	uint64_t burst_first, burst_last;  /* reactor ms */
	zend_async_timer_event_t *timer;
	watcher_cb_t *on_timer;
	zend_object std;
};

#define WATCHER_FROM_OBJ(o) ((async_watcher_t *) ((char *) (o) - XtOffsetOf(async_watcher_t, std)))
#define THIS_WATCHER() WATCHER_FROM_OBJ(Z_OBJ_P(ZEND_THIS))

/* ---------------------------------------------------------------------------------------------
 * The buffer
 * ------------------------------------------------------------------------------------------- */

/* Something to take: wake the iterators (and anyone awaiting the watcher). */
static void watcher_ready(async_watcher_t *w)
{
	if (w->event.callbacks.length > 0) {
		ZEND_ASYNC_CALLBACKS_NOTIFY(&w->event, NULL, NULL);
	}
}

static void watcher_push_summary(async_watcher_t *w, uint32_t events)
{
	w->summary_events |= events;
	if (!w->summary_queued) {
		w->summary_queued = true;
		watcher_entry_t *e = async_ring_push(&w->queue, sizeof(watcher_entry_t));
		e->filename = NULL;
		e->events = 0;
	}
	watcher_ready(w);
}

static void watcher_push(async_watcher_t *w, zend_string *filename, uint32_t events)
{
	if (w->coalesce) {
		zval *flags = zend_hash_find(&w->pending, filename);
		if (flags != NULL) {
			Z_LVAL_P(flags) |= events;
			return; /* already queued, its waiters already woken */
		}
	}
	if (w->queue.count - (w->summary_queued ? 1 : 0) >= WATCHER_MAX_BUFFERED) {
		watcher_push_summary(w, events);
		return;
	}
	if (w->coalesce) {
		zval flags;
		ZVAL_LONG(&flags, events);
		zend_hash_add_new(&w->pending, filename, &flags);
	}
	watcher_entry_t *e = async_ring_push(&w->queue, sizeof(watcher_entry_t));
	e->filename = zend_string_copy(filename);
	e->events = events;
	watcher_ready(w);
}

/* The oldest entry, removed: false when the buffer is empty. */
static bool watcher_take(async_watcher_t *w, zend_string **filename, uint32_t *events)
{
	if (w->queue.count == 0) {
		return false;
	}
	watcher_entry_t *e = async_ring_pop(&w->queue, sizeof(watcher_entry_t));
	*filename = e->filename;
	if (e->filename == NULL) {
		ZEND_ASSERT(w->summary_queued);
		*events = w->summary_events;
		w->summary_events = 0;
		w->summary_queued = false;
	} else if (w->coalesce) {
		zval *flags = zend_hash_find(&w->pending, e->filename);
		ZEND_ASSERT(flags != NULL && "a coalesced entry has its flags");
		*events = (uint32_t) Z_LVAL_P(flags);
		zend_hash_del(&w->pending, e->filename);
	} else {
		*events = e->events;
	}
	return true;
}

static void watcher_clear(async_watcher_t *w)
{
	zend_string *filename;
	uint32_t events;
	while (watcher_take(w, &filename, &events)) {
		if (filename != NULL) {
			zend_string_release(filename);
		}
	}
	if (w->queue.data != NULL) {
		async_ring_free(&w->queue);
	}
	zend_hash_clean(&w->pending);
}

/* ---------------------------------------------------------------------------------------------
 * Filtering and debounce
 * ------------------------------------------------------------------------------------------- */

static bool watcher_wanted(async_watcher_t *w, zend_string *filename)
{
	if (w->extensions == NULL) {
		return true;
	}
	const char *slash = zend_memrchr(ZSTR_VAL(filename), '/', ZSTR_LEN(filename));
	const char *base = slash ? slash + 1 : ZSTR_VAL(filename);
	size_t len = ZSTR_VAL(filename) + ZSTR_LEN(filename) - base;
	zend_string *ext;
	ZEND_HASH_FOREACH_STR_KEY(w->extensions, ext) {
		/* the base name is longer than ".ext": ".php" alone is a hidden file, not a PHP file */
		if (len > ZSTR_LEN(ext)
			&& zend_binary_strcasecmp(base + len - ZSTR_LEN(ext), ZSTR_LEN(ext), ZSTR_VAL(ext), ZSTR_LEN(ext)) == 0) {
			return true;
		}
	} ZEND_HASH_FOREACH_END();
	return false;
}

static void watcher_timer_fired(zend_async_event_t *event, zend_async_event_callback_t *callback,
	void *result, zend_object *exception);

static void watcher_timer_disarm(async_watcher_t *w)
{
	zend_async_timer_event_t *timer = w->timer;
	if (timer == NULL) {
		return;
	}
	w->timer = NULL;
	timer->base.del_callback(&timer->base, &w->on_timer->base);
	w->on_timer->watcher = NULL;
	ZEND_ASYNC_EVENT_CALLBACK_RELEASE(&w->on_timer->base);
	w->on_timer = NULL;
	timer->base.stop(&timer->base);
	ZEND_ASYNC_EVENT_RELEASE(&timer->base);
}

/* Hidden: a pending burst must not hold the script open nor count against a deadlock. While an
 * iterator waits, the started filesystem event keeps the loop running and the timer fires. */
static bool watcher_timer_arm(async_watcher_t *w, uint64_t ms)
{
	ZEND_ASSERT(w->timer == NULL);
	zend_async_timer_event_t *timer = ZEND_ASYNC_NEW_TIMER_EVENT((zend_ulong) ms, false);
	if (timer == NULL) {
		return false;
	}
	ZEND_ASYNC_EVENT_SET_HIDDEN(&timer->base);
	watcher_cb_t *cb = (watcher_cb_t *) ZEND_ASYNC_EVENT_CALLBACK_EX(watcher_timer_fired, sizeof(watcher_cb_t));
	cb->watcher = w;
	timer->base.add_callback(&timer->base, &cb->base);
	w->timer = timer;
	w->on_timer = cb;
	return timer->base.start(&timer->base);
}

/* The quiet period ended, or the burst was held for maxHoldMs: one summary entry. Otherwise the
 * burst went on since the timer was armed: wait for the rest. */
static void watcher_timer_fired(zend_async_event_t *event, zend_async_event_callback_t *callback,
	void *result, zend_object *exception)
{
	async_watcher_t *w = ((watcher_cb_t *) callback)->watcher;
	if (w == NULL) {
		return;
	}
	watcher_timer_disarm(w);
	if (!w->burst || w->closed) {
		return;
	}
	uint64_t now = ZEND_ASYNC_NOW();
	uint64_t due = w->burst_last + w->debounce_ms;
	if (w->max_hold_ms > 0 && w->burst_first + w->max_hold_ms < due) {
		due = w->burst_first + w->max_hold_ms;
	}
	if (now < due && watcher_timer_arm(w, due - now)) {
		return;
	}
	if (EG(exception)) {
		zend_clear_exception(); /* no timer: emit now rather than never */
	}
	w->burst = false;
	uint32_t events = w->burst_events;
	w->burst_events = 0;
	watcher_push_summary(w, events);
}

static void watcher_burst(async_watcher_t *w, uint32_t events)
{
	uint64_t now = ZEND_ASYNC_NOW();
	w->burst_events |= events;
	w->burst_last = now;
	if (!w->burst) {
		w->burst = true;
		w->burst_first = now;
		if (!watcher_timer_arm(w, w->debounce_ms)) {
			if (EG(exception)) {
				zend_clear_exception();
			}
			w->burst = false;
			w->burst_events = 0;
			watcher_push_summary(w, events);
		}
	}
}

/* The filesystem event's notification: what changed is in the event while it runs. */
static void watcher_on_change(zend_async_event_t *event, zend_async_event_callback_t *callback,
	void *result, zend_object *exception)
{
	async_watcher_t *w = ((watcher_cb_t *) callback)->watcher;
	zend_async_filesystem_event_t *fs = (zend_async_filesystem_event_t *) event;
	if (w == NULL || w->closed || fs->triggered_filename == NULL || !watcher_wanted(w, fs->triggered_filename)) {
		return;
	}
	uint32_t events = fs->triggered_events & (ZEND_ASYNC_FS_EVENT_RENAME | ZEND_ASYNC_FS_EVENT_CHANGE);
	if (w->debounce_ms > 0) {
		watcher_burst(w, events);
	} else {
		watcher_push(w, fs->triggered_filename, events);
	}
}

/* ---------------------------------------------------------------------------------------------
 * Close
 * ------------------------------------------------------------------------------------------- */

/* Lets go of the filesystem event and the timer; idempotent. */
static void watcher_release_sources(async_watcher_t *w)
{
	watcher_timer_disarm(w);
	w->burst = false;
	zend_async_filesystem_event_t *fs = w->fs;
	if (fs == NULL) {
		return;
	}
	w->fs = NULL;
	fs->base.del_callback(&fs->base, &w->on_change->base);
	w->on_change->watcher = NULL;
	ZEND_ASYNC_EVENT_CALLBACK_RELEASE(&w->on_change->base);
	w->on_change = NULL;
	for (; w->started > 0; w->started--) {
		fs->base.stop(&fs->base);
	}
	ZEND_ASYNC_EVENT_RELEASE(&fs->base);
}

static void watcher_close(async_watcher_t *w)
{
	if (w->closed) {
		return;
	}
	w->closed = true;
	watcher_release_sources(w);
	watcher_clear(w);
	ZEND_ASYNC_EVENT_SET_CLOSED(&w->event);
	watcher_ready(w); /* iterators wake, find it closed and end */
}

/* ---------------------------------------------------------------------------------------------
 * The watcher's event (Awaitable)
 * ------------------------------------------------------------------------------------------- */

/* A wait on the watcher starts the filesystem event: someone is waiting for a change now. */
static bool watcher_event_start(zend_async_event_t *event)
{
	async_watcher_t *w = (async_watcher_t *) event;
	if (w->fs == NULL) {
		return true;
	}
	w->started++;
	return w->fs->base.start(&w->fs->base);
}

static bool watcher_event_stop(zend_async_event_t *event)
{
	async_watcher_t *w = (async_watcher_t *) event;
	if (w->fs != NULL && w->started > 0) {
		w->started--;
		w->fs->base.stop(&w->fs->base);
	}
	return true;
}

static bool watcher_event_dispose(zend_async_event_t *event)
{
	OBJ_RELEASE(ZEND_ASYNC_EVENT_TO_OBJECT(event));
	return true;
}

static zend_string *watcher_info(zend_async_event_t *event)
{
	async_watcher_t *w = (async_watcher_t *) event;
	return zend_strpprintf(0, "FileSystemWatcher(%s, buffered=%u%s)", w->path ? ZSTR_VAL(w->path) : "",
		w->queue.count, w->closed ? ", closed" : "");
}

/* ---------------------------------------------------------------------------------------------
 * Object lifecycle
 * ------------------------------------------------------------------------------------------- */

static const async_event_methods_t watcher_event_methods = {
	.start = watcher_event_start,
	.stop = watcher_event_stop,
	.dispose = watcher_event_dispose,
	.info = watcher_info,
};

static zend_object *watcher_object_create(zend_class_entry *ce)
{
	async_watcher_t *w = async__object_new(sizeof(async_watcher_t), XtOffsetOf(async_watcher_t, std), ce,
		&watcher_handlers);
	zend_hash_init(&w->pending, 8, NULL, NULL, 0);

	async__event_init_in_object(&w->event, &watcher_event_methods, XtOffsetOf(async_watcher_t, std), 0);
	w->closed = true; /* until the constructor succeeds */
	return &w->std;
}

static void watcher_object_free(zend_object *object)
{
	async_watcher_t *w = WATCHER_FROM_OBJ(object);
	watcher_release_sources(w);
	watcher_clear(w);
	zend_hash_destroy(&w->pending);
	if (w->extensions != NULL) {
		zend_array_destroy(w->extensions);
	}
	if (w->path != NULL) {
		zend_string_release(w->path);
	}
	zend_async_callbacks_free(&w->event);
	zend_object_std_dtor(object);
}

static HashTable *watcher_object_get_gc(zend_object *object, zval **table, int *num)
{
	*table = NULL; /* strings only: nothing the GC could find a cycle through */
	*num = 0;
	return zend_std_get_properties(object);
}

/* ---------------------------------------------------------------------------------------------
 * Iteration: foreach yields FileSystemEvent objects until close().
 * ------------------------------------------------------------------------------------------- */

static void watcher_event_object(async_watcher_t *w, zend_string *filename, uint32_t events, zval *result)
{
	object_init_ex(result, async__ce_fs_event);
	zend_object *obj = Z_OBJ_P(result);
	ZEND_ASSERT(obj->ce->default_properties_count == 4 && "path, filename, renamed, changed");
	/* Readonly properties are written once, here, before anyone sees the object. */
	ZVAL_STR_COPY(OBJ_PROP_NUM(obj, 0), w->path);
	if (filename != NULL) {
		ZVAL_STR(OBJ_PROP_NUM(obj, 1), filename); /* takes the entry's reference */
	} else {
		ZVAL_NULL(OBJ_PROP_NUM(obj, 1));
	}
	ZVAL_BOOL(OBJ_PROP_NUM(obj, 2), (events & ZEND_ASYNC_FS_EVENT_RENAME) != 0);
	ZVAL_BOOL(OBJ_PROP_NUM(obj, 3), (events & ZEND_ASYNC_FS_EVENT_CHANGE) != 0);
}

/* The next entry into iter->current; UNDEF when the watcher is closed or the wait failed. */
static void watcher_iterator_fetch(async_iterator_t *iter)
{
	async_watcher_t *w = WATCHER_FROM_OBJ(Z_OBJ(iter->it.data));
	for (;;) {
		zend_string *filename;
		uint32_t events;
		if (watcher_take(w, &filename, &events)) {
			watcher_event_object(w, filename, events, &iter->current);
			return;
		}
		if (w->closed) {
			return;
		}
		zend_coroutine_t *co = async__wait_begin(NULL, "wait for filesystem events");
		if (co == NULL) {
			return;
		}
		bool ok = async__wait_on(co, &w->event, false, zend_async_waker_callback_resolve, NULL)
			&& async__wait_suspend(co);
		async__wait_end(co);
		if (!ok) {
			return;
		}
	}
}

/* per-process: constant */
static const async_iterator_ops_t watcher_iterator_ops = {
	.fetch = watcher_iterator_fetch,
	.by_ref_error = "Cannot iterate Async\\FileSystemWatcher by reference",
};

static zend_object_iterator *watcher_get_iterator(zend_class_entry *ce, zval *object, int by_ref)
{
	return async__iterator_new(object, by_ref, &watcher_iterator_ops);
}

/* ---------------------------------------------------------------------------------------------
 * Methods
 * ------------------------------------------------------------------------------------------- */

static bool parse_ms(zend_long value, uint32_t arg)
{
	if (value < 0 || value > INT32_MAX) {
		zend_argument_value_error(arg, "must be between 0 and %d", INT32_MAX);
		return false;
	}
	return true;
}

/* The allow-list as a set of ".ext" strings (a leading dot is optional in the argument). */
static HashTable *parse_extensions(HashTable *list)
{
	if (zend_hash_num_elements(list) == 0) {
		return NULL;
	}
	HashTable *set = zend_new_array(zend_hash_num_elements(list));
	zval *value;
	ZEND_HASH_FOREACH_VAL(list, value) {
		ZVAL_DEREF(value);
		if (Z_TYPE_P(value) != IS_STRING) {
			zend_argument_type_error(6, "must contain only strings, %s given", zend_zval_type_name(value));
			zend_array_destroy(set);
			return NULL;
		}
		const char *ext = Z_STRVAL_P(value);
		size_t len = Z_STRLEN_P(value);
		if (len > 0 && ext[0] == '.') {
			ext++;
			len--;
		}
		if (len == 0 || memchr(ext, '/', len) != NULL || memchr(ext, '\0', len) != NULL) {
			zend_argument_value_error(6, "must contain file extensions (\"php\" or \".php\"), \"%s\" given", Z_STRVAL_P(value));
			zend_array_destroy(set);
			return NULL;
		}
		zend_string *key = zend_string_concat2(".", 1, ext, len);
		zend_hash_add_empty_element(set, key);
		zend_string_release(key);
	} ZEND_HASH_FOREACH_END();
	return set;
}

ZEND_METHOD(Async_FileSystemWatcher, __construct)
{
	zend_string *path;
	bool recursive = false, coalesce = true;
	zend_long debounce = 0, max_hold = 0;
	HashTable *extensions = NULL;
	ZEND_PARSE_PARAMETERS_START(1, 6)
		Z_PARAM_PATH_STR(path)
		Z_PARAM_OPTIONAL
		Z_PARAM_BOOL(recursive)
		Z_PARAM_BOOL(coalesce)
		Z_PARAM_LONG(debounce)
		Z_PARAM_LONG(max_hold)
		Z_PARAM_ARRAY_HT(extensions)
	ZEND_PARSE_PARAMETERS_END();

	async_watcher_t *w = THIS_WATCHER();
	if (w->constructed) {
		zend_throw_error(NULL, "Async\\FileSystemWatcher is already initialized");
		RETURN_THROWS();
	}
	if (ZSTR_LEN(path) == 0) {
		zend_argument_value_error(1, "cannot be empty");
		RETURN_THROWS();
	}
	if (!parse_ms(debounce, 4) || !parse_ms(max_hold, 5)) {
		RETURN_THROWS();
	}
	if (max_hold > 0 && debounce == 0) {
		zend_argument_value_error(5, "requires $debounceMs to be greater than 0");
		RETURN_THROWS();
	}
	HashTable *set = extensions ? parse_extensions(extensions) : NULL;
	if (EG(exception)) {
		RETURN_THROWS();
	}
	zend_async_filesystem_event_t *fs = ZEND_ASYNC_NEW_FILESYSTEM_EVENT(path,
		recursive ? ZEND_ASYNC_FS_EVENT_RECURSIVE : 0);
	if (fs == NULL) {
		if (set != NULL) {
			zend_array_destroy(set);
		}
		RETURN_THROWS();
	}
	w->constructed = true;
	w->closed = false;
	w->path = zend_string_copy(path);
	w->extensions = set;
	w->coalesce = coalesce;
	w->debounce_ms = (uint32_t) debounce;
	w->max_hold_ms = (uint32_t) max_hold;
	w->fs = fs;
	w->on_change = (watcher_cb_t *) ZEND_ASYNC_EVENT_CALLBACK_EX(watcher_on_change, sizeof(watcher_cb_t));
	w->on_change->watcher = w;
	fs->base.add_callback(&fs->base, &w->on_change->base);
}

ZEND_METHOD(Async_FileSystemWatcher, close)
{
	ZEND_PARSE_PARAMETERS_NONE();
	watcher_close(THIS_WATCHER());
}

ZEND_METHOD(Async_FileSystemWatcher, isClosed)
{
	ZEND_PARSE_PARAMETERS_NONE();
	RETURN_BOOL(THIS_WATCHER()->closed);
}

ZEND_METHOD(Async_FileSystemWatcher, getIterator)
{
	ZEND_PARSE_PARAMETERS_NONE();
	zend_create_internal_iterator_zval(return_value, ZEND_THIS);
}

/* ---------------------------------------------------------------------------------------------
 * Registration
 * ------------------------------------------------------------------------------------------- */

zend_result async__fs_watcher_minit(void)
{
	async__ce_fs_event = register_class_Async_FileSystemEvent();
	async__ce_fs_watcher = register_class_Async_FileSystemWatcher(async__ce_awaitable, zend_ce_aggregate);
	async__ce_fs_watcher->create_object = watcher_object_create;
	async__ce_fs_watcher->get_iterator = watcher_get_iterator;
	async__object_handlers_init(&watcher_handlers, XtOffsetOf(async_watcher_t, std), NULL,
		watcher_object_free, watcher_object_get_gc);
	return SUCCESS;
}
