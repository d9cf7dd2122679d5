/*
 * reactor/fs_event.c — the reactor's filesystem event (zend_async_reactor_api.new_filesystem_event)
 * on libuv's uv_fs_event_t.
 *
 * Multi-shot, armed from creation to the last reference. Every change libuv reports notifies the
 * subscribers with result = NULL; what changed is in the event while the notification runs:
 * triggered_events (ZEND_ASYNC_FS_EVENT_RENAME | _CHANGE) and triggered_filename (relative to
 * `path`; the subscriber copies what it keeps). A change nobody subscribed to is simply dropped.
 *
 * start()/stop() do not arm anything: like a trigger, the watch is armed but unref'ed while
 * nobody waits, so a holder that only buffers changes (Async\FileSystemWatcher between two
 * iterations) neither keeps the loop alive nor holds back deadlock detection. From the first
 * start() to the last stop() someone waits: the handles are ref'ed and the event counts in
 * active_event_count (a change can come from another process at any time, as a signal can).
 *
 * ZEND_ASYNC_FS_EVENT_RECURSIVE. libuv watches subtrees itself on macOS and Windows; on Linux
 * (inotify) and the other Unixes it does not, so the event keeps one handle per directory, keyed
 * by its path relative to the root ("" for the root, "a/b/" below it), at most
 * ASYNC_FS_MAX_WATCHES of them. A directory created (or moved in) below the root gets a handle
 * when its parent reports it, and its contents found at that moment are reported as created
 * (they may predate the handle). One removed or moved out loses its handle and those below.
 * Symbolic links to directories are not followed (lstat()), so a link cannot make a cycle. The
 * scans are blocking opendir()/lstat() calls on the loop: local metadata, as libuv's own
 * inotify code does with inotify_add_watch().
 *
 * Memory. Each handle is a separate allocation closed with uv_close() and freed from its close
 * callback. The event struct itself holds no handle, so the last dispose() frees it at once.
 * Request shutdown closes the handles of every live event (ASYNC_G(fs_events)) before the
 * reactor closes its loop; an owner releasing the event later only frees the struct.
 */
#include "php_async.h"
#define ASYNC_REACTOR_UV /* the libuv side of the reactor's header */
#include "reactor/reactor.h"
#include "core/core.h"
#include <sys/stat.h>
#include <dirent.h>
#include <errno.h>

/* The cap on handles per recursive event: each is one inotify watch (spec §3.15). */
#define ASYNC_FS_MAX_WATCHES 8192

#if defined(__APPLE__) || defined(_WIN32)
# define ASYNC_FS_NATIVE_RECURSIVE 1
#else
# define ASYNC_FS_NATIVE_RECURSIVE 0
#endif

typedef struct _async_fs_s async_fs_t;

typedef struct {
	uv_fs_event_t uv;   /* first: the close callback frees the allocation */
	async_fs_t *owner;  /* NULL once closing */
	zend_string *rel;   /* "" for the root, "a/b/" below it */
} async_fs_watch_t;

struct _async_fs_s {
	zend_async_filesystem_event_t event; /* first: the allocation starts with the event */
	HashTable watches;                    /* rel -> async_fs_watch_t* */
	bool emulated;                        /* RECURSIVE done here, one handle per directory */
	bool waited;                          /* between the first start() and the last stop() */
	bool linked;                          /* in ASYNC_G(fs_events) */
	async_list_node_t node;
};

#define FS_EVENT(fs) (&(fs)->event.base)

/* ---------------------------------------------------------------------------------------------
 * Handles
 * ------------------------------------------------------------------------------------------- */

static void watch_close_cb(uv_handle_t *handle)
{
	async_fs_watch_t *w = (async_fs_watch_t *) handle;
	zend_string_release(w->rel);
	efree(w);
}

static void watch_close(async_fs_watch_t *w)
{
	ZEND_ASSERT(w->owner != NULL && "a handle is closed once");
	w->owner = NULL;
	uv_close((uv_handle_t *) &w->uv, watch_close_cb);
}

/* The path of an entry relative to the root, as the file system knows it. */
static zend_string *fs_full_path(async_fs_t *fs, const char *rel, size_t len)
{
	zend_string *root = fs->event.path;
	if (len == 0) {
		return zend_string_copy(root);
	}
	bool slash = ZSTR_LEN(root) > 0 && ZSTR_VAL(root)[ZSTR_LEN(root) - 1] == '/';
	return zend_string_concat3(ZSTR_VAL(root), ZSTR_LEN(root), slash ? "" : "/", slash ? 0 : 1, rel, len);
}

/* A real directory (not a link to one). */
static bool fs_is_dir(const char *path)
{
	struct stat st;
	return lstat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static void fs_cb(uv_fs_event_t *handle, const char *filename, int events, int status);

/* A handle for the directory (or the root file) at `rel` ("" or ending in '/'). 0 or a libuv
 * error; UV_ENOSPC once the cap is reached. */
static int watch_add(async_fs_t *fs, zend_string *rel)
{
	if (zend_hash_num_elements(&fs->watches) >= ASYNC_FS_MAX_WATCHES) {
		return UV_ENOSPC;
	}
	async_fs_watch_t *w = ecalloc(1, sizeof(async_fs_watch_t));
	uv_fs_event_init(async__reactor_loop(), &w->uv);
	w->owner = fs;
	w->rel = zend_string_copy(rel);
	/* No handle->data: the reactor's shutdown walk must not take this for an event. */
	zend_string *full = fs_full_path(fs, ZSTR_VAL(rel), ZSTR_LEN(rel) > 0 ? ZSTR_LEN(rel) - 1 : 0);
	unsigned int flags = (!fs->emulated && (fs->event.flags & ZEND_ASYNC_FS_EVENT_RECURSIVE)) ? UV_FS_EVENT_RECURSIVE : 0;
	int rc = uv_fs_event_start(&w->uv, fs_cb, ZSTR_VAL(full), flags);
	zend_string_release(full);
	if (rc != 0) {
		watch_close(w);
		return rc;
	}
	if (!fs->waited) {
		uv_unref((uv_handle_t *) &w->uv);
	}
	zend_hash_update_ptr(&fs->watches, rel, w);
	return 0;
}

/* Closes the handle of `rel` and of every directory below it. */
static void watch_remove_tree(async_fs_t *fs, const char *rel, size_t len)
{
	zend_string *key;
	async_fs_watch_t *w;
	ZEND_HASH_MAP_FOREACH_STR_KEY_PTR(&fs->watches, key, w) {
		if (ZSTR_LEN(key) >= len && memcmp(ZSTR_VAL(key), rel, len) == 0) {
			watch_close(w);
			zend_hash_del_bucket(&fs->watches, _p);
		}
	} ZEND_HASH_FOREACH_END();
}

static void fs_notify(async_fs_t *fs, const char *rel, size_t len, unsigned int events)
{
	zend_async_event_t *event = FS_EVENT(fs);
	if (event->callbacks.length == 0) {
		return;
	}
	fs->event.triggered_events = events;
	fs->event.triggered_filename = zend_string_init(rel, len, 0);
	ZEND_ASYNC_CALLBACKS_NOTIFY(event, NULL, NULL);
	zend_string_release(fs->event.triggered_filename);
	fs->event.triggered_filename = NULL;
	fs->event.triggered_events = 0;
}

/* Adds handles for the directory `rel` ("a/b/") and every directory below it. With `report`
 * (a directory that appeared after the watch began) each entry found is reported as created:
 * it may have been made before its parent had a handle. At construction (`strict`) an error
 * other than a vanished or unreadable directory is returned; later ones are skipped. */
static int watch_add_tree(async_fs_t *fs, zend_string *rel, bool report, bool strict)
{
	if (ZSTR_LEN(rel) > 0) {
		int rc = watch_add(fs, rel);
		if (rc != 0) {
			return (rc == UV_ENOENT || rc == UV_EACCES || rc == UV_ENOTDIR || !strict) ? 0 : rc;
		}
	}
	zend_string *dir = fs_full_path(fs, ZSTR_VAL(rel), ZSTR_LEN(rel));
	DIR *d = opendir(ZSTR_VAL(dir));
	zend_string_release(dir);
	if (d == NULL) {
		return 0;
	}
	int rc = 0;
	struct dirent *de;
	while (rc == 0 && (de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0) {
			continue;
		}
		zend_string *child = zend_string_concat2(ZSTR_VAL(rel), ZSTR_LEN(rel), de->d_name, strlen(de->d_name));
		if (report) {
			fs_notify(fs, ZSTR_VAL(child), ZSTR_LEN(child), ZEND_ASYNC_FS_EVENT_RENAME);
		}
		zend_string *full = fs_full_path(fs, ZSTR_VAL(child), ZSTR_LEN(child));
		if (fs_is_dir(ZSTR_VAL(full))) {
			zend_string *sub = zend_string_concat2(ZSTR_VAL(child), ZSTR_LEN(child), "/", 1);
			if (!zend_hash_exists(&fs->watches, sub)) {
				rc = watch_add_tree(fs, sub, report, strict);
			}
			zend_string_release(sub);
		}
		zend_string_release(full);
		zend_string_release(child);
	}
	closedir(d);
	return rc;
}

/* Recursive emulation after `rel` ("a/b", no trailing slash) was created, removed or renamed. */
static void fs_follow(async_fs_t *fs, const char *rel, size_t len)
{
	zend_string *sub = zend_string_concat2(rel, len, "/", 1);
	zend_string *full = fs_full_path(fs, rel, len);
	watch_remove_tree(fs, ZSTR_VAL(sub), ZSTR_LEN(sub)); /* gone, or possibly another inode now */
	if (fs_is_dir(ZSTR_VAL(full))) {
		watch_add_tree(fs, sub, true, false);
	}
	zend_string_release(full);
	zend_string_release(sub);
}

/* A handle below the root reporting on its own directory (deleted or moved away: libuv names it
 * by its base name). Its parent reports that change; the handle is dropped. */
static bool fs_self_event(async_fs_t *fs, async_fs_watch_t *w, const char *filename)
{
	size_t len = ZSTR_LEN(w->rel) - 1; /* without the trailing '/' */
	const char *base = zend_memrchr(ZSTR_VAL(w->rel), '/', len);
	base = base ? base + 1 : ZSTR_VAL(w->rel);
	if (strlen(filename) != (size_t) (ZSTR_VAL(w->rel) + len - base) || memcmp(filename, base, strlen(filename)) != 0) {
		return false;
	}
	zend_string *full = fs_full_path(fs, ZSTR_VAL(w->rel), len);
	bool gone = !fs_is_dir(ZSTR_VAL(full));
	zend_string_release(full);
	return gone;
}

static void fs_cb(uv_fs_event_t *handle, const char *filename, int events, int status)
{
	async_fs_watch_t *w = (async_fs_watch_t *) handle;
	async_fs_t *fs = w->owner;
	if (fs == NULL || status < 0) {
		return;
	}
	uv_loop_t *loop = handle->loop;
	if (filename == NULL) {
		filename = ""; /* a platform that cannot name the entry: the directory itself changed */
	}
	ZEND_ASYNC_EVENT_ADD_REF(FS_EVENT(fs)); /* a subscriber may drop the last reference */
	if (fs->emulated && ZSTR_LEN(w->rel) > 0 && fs_self_event(fs, w, filename)) {
		zend_string *rel = zend_string_copy(w->rel);
		watch_remove_tree(fs, ZSTR_VAL(rel), ZSTR_LEN(rel));
		zend_string_release(rel);
	} else {
		zend_string *rel = zend_string_concat2(ZSTR_VAL(w->rel), ZSTR_LEN(w->rel), filename, strlen(filename));
		unsigned int what = (events & UV_RENAME ? ZEND_ASYNC_FS_EVENT_RENAME : 0)
			| (events & UV_CHANGE ? ZEND_ASYNC_FS_EVENT_CHANGE : 0);
		fs_notify(fs, ZSTR_VAL(rel), ZSTR_LEN(rel), what);
		if (fs->emulated && (events & UV_RENAME) && ZSTR_LEN(rel) > 0 && fs->linked) {
			fs_follow(fs, ZSTR_VAL(rel), ZSTR_LEN(rel));
		}
		zend_string_release(rel);
	}
	ZEND_ASYNC_EVENT_RELEASE(FS_EVENT(fs));
	async__reactor_delivered(loop);
}

/* ---------------------------------------------------------------------------------------------
 * Event methods
 * ------------------------------------------------------------------------------------------- */

static void fs_set_waited(async_fs_t *fs, bool waited)
{
	async_fs_watch_t *w;
	fs->waited = waited;
	ZEND_HASH_MAP_FOREACH_PTR(&fs->watches, w) {
		if (waited) {
			uv_ref((uv_handle_t *) &w->uv);
		} else {
			uv_unref((uv_handle_t *) &w->uv);
		}
	} ZEND_HASH_FOREACH_END();
	if (waited) {
		async__reactor_event_count_on(FS_EVENT(fs));
	} else {
		async__reactor_event_count_off(FS_EVENT(fs));
	}
}

static bool fs_start(zend_async_event_t *event)
{
	async_fs_t *fs = (async_fs_t *) event;
	if (async__reactor_first_start(event) && fs->linked) {
		fs_set_waited(fs, true);
	}
	return true;
}

static bool fs_stop(zend_async_event_t *event)
{
	async_fs_t *fs = (async_fs_t *) event;
	if (async__reactor_last_stop(event) && fs->linked) {
		fs_set_waited(fs, false);
	}
	return true;
}

/* Closes every handle; the struct stays for its owners. */
static void fs_detach(async_fs_t *fs)
{
	if (!fs->linked) {
		return;
	}
	async_fs_watch_t *w;
	ZEND_HASH_MAP_FOREACH_PTR(&fs->watches, w) {
		watch_close(w);
	} ZEND_HASH_FOREACH_END();
	zend_hash_clean(&fs->watches);
	async__reactor_event_count_off(FS_EVENT(fs));
	fs->waited = false;
	fs->linked = false;
	async_list_remove(&ASYNC_G(fs_events), &fs->node);
	ZEND_ASYNC_EVENT_SET(FS_EVENT(fs), ASYNC_EVENT_F_DETACHED);
}

static bool fs_dispose(zend_async_event_t *event)
{
	async_fs_t *fs = (async_fs_t *) event;
	if (!async__reactor_last_ref(event)) {
		return true;
	}
	event->loop_ref_count = 0;
	fs_detach(fs);
	zend_async_callbacks_free(event);
	zend_hash_destroy(&fs->watches);
	zend_string_release(fs->event.path);
	efree(fs);
	return true;
}

static zend_string *fs_info(zend_async_event_t *event)
{
	async_fs_t *fs = (async_fs_t *) event;
	return zend_strpprintf(0, "FileSystemEvent(%s%s, watches=%u)", ZSTR_VAL(fs->event.path),
		(fs->event.flags & ZEND_ASYNC_FS_EVENT_RECURSIVE) ? ", recursive" : "",
		zend_hash_num_elements(&fs->watches));
}

static const async_event_methods_t fs_methods = {
	.start = fs_start, .stop = fs_stop, .dispose = fs_dispose, .info = fs_info,
};

static ZEND_COLD void fs_throw(zend_string *path, int rc)
{
	const char *why;
#ifdef _WIN32
	why = uv_strerror(rc);
#else
	why = rc == UV_ENOSPC ? "too many directories to watch" : strerror(-rc);
#endif
	if (rc == UV_ENOSPC) {
		async__throw(async__ce_async_exception, "Cannot watch \"%s\": %s (at most %d directories%s)",
			ZSTR_VAL(path), why, ASYNC_FS_MAX_WATCHES, ", or the system's inotify limit");
	} else {
		async__throw(async__ce_async_exception, "Cannot watch \"%s\": %s", ZSTR_VAL(path), why);
	}
}

static zend_async_filesystem_event_t *reactor_new_filesystem_event(zend_string *path, unsigned int flags, size_t extra_size)
{
	if (ZSTR_LEN(path) == 0) {
		zend_value_error("Path must not be empty");
		return NULL;
	}
	if (async__reactor_loop_or_throw() == NULL) {
		return NULL;
	}
	async_fs_t *fs = ecalloc(1, sizeof(async_fs_t) + extra_size);
	async__event_init(FS_EVENT(fs), &fs_methods);
	if (extra_size) {
		FS_EVENT(fs)->extra_offset = sizeof(async_fs_t);
	}
	fs->event.path = zend_string_copy(path);
	fs->event.flags = flags;
	fs->emulated = !ASYNC_FS_NATIVE_RECURSIVE && (flags & ZEND_ASYNC_FS_EVENT_RECURSIVE);
	zend_hash_init(&fs->watches, 8, NULL, NULL, 0);
	fs->linked = true;
	async_list_append(&ASYNC_G(fs_events), &fs->node);

	int rc = watch_add(fs, ZSTR_EMPTY_ALLOC());
	if (rc == 0 && fs->emulated && fs_is_dir(ZSTR_VAL(path))) {
		rc = watch_add_tree(fs, ZSTR_EMPTY_ALLOC(), false, true);
	}
	if (rc != 0) {
		fs_throw(path, rc);
		fs_dispose(FS_EVENT(fs));
		return NULL;
	}
	return &fs->event;
}

/* ---------------------------------------------------------------------------------------------
 * Module
 * ------------------------------------------------------------------------------------------- */

void async__reactor_fs_rshutdown(void)
{
	while (ASYNC_G(fs_events).first != NULL) {
		fs_detach(ASYNC_LIST_ITEM(ASYNC_G(fs_events).first, async_fs_t, node));
	}
}

zend_result async__reactor_fs_minit(void)
{
	zend_async_reactor_api_t api = { .new_filesystem_event = reactor_new_filesystem_event };
	/* false: another implementation of this ABI table is registered */
	return zend_async_reactor_register(ASYNC_REACTOR_NAME, false, &api) ? SUCCESS : FAILURE;
}
