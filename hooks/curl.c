/*
 * hooks/curl.c — ext/curl's blocking calls suspend only the calling coroutine.
 *
 * ext/curl blocks in libcurl, in two calls: curl_exec() in curl_easy_perform(), and
 * curl_multi_select() in curl_multi_wait(). Everything PHP does around them (the checks of the
 * handle's streams, its buffers, the error number, the returned body) is ext/curl's own and
 * differs between PHP versions; so the hook does not touch ext/curl's functions or objects at all.
 * It redirects ext/curl's imports of those libcurl functions (async_import.h): inside a coroutine
 * curl_easy_perform() runs the transfer on a multi handle of the easy handle's own, driven on the
 * reactor (hooks/curl_multi.c), and curl_multi_wait() waits for the multi's sockets on the reactor.
 * Outside a coroutine, where switching is impossible (a destructor on 8.2 and 8.3, the
 * scheduler), and before the scheduler started, each calls libcurl's own function: stock.
 *
 * The multi functions ext/curl calls from curl_multi_exec(), _add_handle(), _remove_handle() and
 * _info_read() never block; in coroutines they only take turns on a multi whose callback suspended
 * (multi_wait_free()). curl_easy_cleanup() drops the easy handle's multi first, and
 * curl_multi_cleanup() what the hooks knew of the multi (a new one may get its address).
 *
 * The imports are redirected at MINIT (ext/curl is loaded by then, whatever the order of the INI
 * files) and put back at MSHUTDOWN. Where they cannot be (a curl built into a binary this
 * platform's loader does not describe), curl stays stock with one warning at the first request.
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif
#include "php_async.h"
#include "hooks/hooks.h"

#ifdef HAVE_ASYNC_CURL

#include <stdarg.h>
#include "async_import.h"
#include "async_io_wait.h"
#include "core/core.h"

static CURLcode hooked_easy_perform(CURL *easy);
static void hooked_easy_cleanup(CURL *easy);
static CURLMcode hooked_multi_perform(CURLM *multi, int *running);
static CURLMcode hooked_multi_wait(CURLM *multi, struct curl_waitfd extra_fds[], unsigned int extra_nfds,
	int timeout_ms, int *numfds);
static CURLMcode hooked_multi_add_handle(CURLM *multi, CURL *easy);
static CURLMcode hooked_multi_remove_handle(CURLM *multi, CURL *easy);
static CURLMsg *hooked_multi_info_read(CURLM *multi, int *msgs_in_queue);
static CURLMcode hooked_multi_cleanup(CURLM *multi);
static CURLcode hooked_easy_setopt(CURL *easy, CURLoption option, ...);

enum { IMPORT_PERFORM, IMPORT_CLEANUP, IMPORT_MULTI_PERFORM, IMPORT_MULTI_WAIT, IMPORT_MULTI_ADD,
	IMPORT_MULTI_REMOVE, IMPORT_MULTI_INFO, IMPORT_MULTI_CLEANUP, IMPORT_SETOPT, IMPORT_COUNT };
/* per-process: ext/curl's GOT entries, rewritten at MINIT and put back at MSHUTDOWN */
static async_import_t imports[IMPORT_COUNT] = {
	[IMPORT_PERFORM] = { "curl_easy_perform", (void *) hooked_easy_perform },
	[IMPORT_CLEANUP] = { "curl_easy_cleanup", (void *) hooked_easy_cleanup },
	[IMPORT_MULTI_PERFORM] = { "curl_multi_perform", (void *) hooked_multi_perform },
	[IMPORT_MULTI_WAIT] = { "curl_multi_wait", (void *) hooked_multi_wait },
	[IMPORT_MULTI_ADD] = { "curl_multi_add_handle", (void *) hooked_multi_add_handle },
	[IMPORT_MULTI_REMOVE] = { "curl_multi_remove_handle", (void *) hooked_multi_remove_handle },
	[IMPORT_MULTI_INFO] = { "curl_multi_info_read", (void *) hooked_multi_info_read },
	[IMPORT_MULTI_CLEANUP] = { "curl_multi_cleanup", (void *) hooked_multi_cleanup },
	[IMPORT_SETOPT] = { "curl_easy_setopt", (void *) hooked_easy_setopt },
};

/* The real libcurl function an import was bound to. */
#define ORIGINAL(which, type) ((__typeof__(type) *) imports[which].original)

typedef enum { CURL_ABSENT, CURL_REDIRECTED, CURL_STOCK, CURL_STOCK_WARNED } curl_state_t;

/* per-process: decided at MINIT */
static curl_state_t curl_state = CURL_ABSENT;

/* ---------------------------------------------------------------------------------------------
 * Module hooks
 * ------------------------------------------------------------------------------------------- */

/* ext/curl's object: the one that holds curl_exec()'s handler. */
static const void *curl_anchor(void **dl_handle)
{
	zend_module_entry *module = zend_hash_str_find_ptr(&module_registry, "curl", sizeof("curl") - 1);
	zend_function *exec = zend_hash_str_find_ptr(CG(function_table), "curl_exec", sizeof("curl_exec") - 1);
	if (module == NULL || exec == NULL || exec->type != ZEND_INTERNAL_FUNCTION) {
		return NULL;
	}
	*dl_handle = module->handle;
	return (const void *) exec->internal_function.handler;
}

zend_result async__hook_curl_minit(void)
{
	void *dl_handle = NULL;
	const void *anchor = curl_anchor(&dl_handle);
	if (anchor == NULL) {
		return SUCCESS; /* ext/curl is not loaded */
	}
	curl_state = CURL_STOCK;
	if (!async__curl_api_load(dl_handle)) {
		return SUCCESS;
	}
	async_import_redirect(anchor, imports, IMPORT_COUNT);
	for (int i = 0; i < IMPORT_COUNT; i++) {
		if (imports[i].original == NULL) {
			async_import_restore(imports, IMPORT_COUNT);
			return SUCCESS; /* all or nothing: a half-redirected curl would mix the two ways */
		}
	}
	curl_state = CURL_REDIRECTED;
	return SUCCESS;
}

void async__hook_curl_mshutdown(void)
{
	async_import_restore(imports, IMPORT_COUNT);
	if (curl_state == CURL_REDIRECTED) {
		curl_state = CURL_STOCK;
	}
}

void async__hook_curl_rinit(void)
{
	if (curl_state != CURL_STOCK) {
		return;
	}
	curl_state = CURL_STOCK_WARNED;
	php_error_docref(NULL, E_WARNING,
		"ext/curl's calls into libcurl could not be redirected (ext/curl built into a binary this platform "
		"does not describe, or a libcurl without the functions ext-async uses): curl_exec() and "
		"curl_multi_select() keep blocking in coroutines");
}

static void driver_dtor(zval *zv)
{
	async__curl_driver_free(Z_PTR_P(zv));
}

void async__hook_curl_rshutdown(void)
{
	HashTable *busy = ASYNC_G(curl_busy);
	if (busy != NULL) {
		ASYNC_G(curl_busy) = NULL; /* the coroutines are gone: nobody holds an entry now */
		zend_hash_destroy(busy);
		FREE_HASHTABLE(busy);
	}
	HashTable *drivers = ASYNC_G(curl_drivers);
	if (drivers != NULL) {
		ASYNC_G(curl_drivers) = NULL;
		zend_hash_destroy(drivers);
		FREE_HASHTABLE(drivers);
	}
}

/* ---------------------------------------------------------------------------------------------
 * curl_exec(): curl_easy_perform() on the easy handle's own multi
 * ------------------------------------------------------------------------------------------- */

static zend_ulong handle_key(const void *handle)
{
	return (zend_ulong) (uintptr_t) handle;
}

/* The easy handle's driver, made at its first curl_exec() in a coroutine; it goes when ext/curl
 * cleans the handle up (hooked_easy_cleanup()) or at the request's end. */
static async_curl_driver_t *driver_for(CURL *easy)
{
	HashTable *drivers = ASYNC_G(curl_drivers);
	if (drivers == NULL) {
		ALLOC_HASHTABLE(drivers);
		zend_hash_init(drivers, 8, NULL, driver_dtor, 0);
		ASYNC_G(curl_drivers) = drivers;
	}
	async_curl_driver_t *driver = zend_hash_index_find_ptr(drivers, handle_key(easy));
	if (driver == NULL) {
		driver = async__curl_driver_new(easy);
		if (driver != NULL) {
			zend_hash_index_add_new_ptr(drivers, handle_key(easy), driver);
		}
	}
	return driver;
}

/* ---------------------------------------------------------------------------------------------
 * A write callback that throws in a coroutine ends its transfer
 *
 * Stock PHP's write function, when the user's CURLOPT_WRITEFUNCTION throws, reports the chunk as
 * taken and the transfer goes on (each later callback skipped while the exception is pending). In
 * a coroutine the exception ends the transfer instead, as TrueAsync's does: the chunk is refused,
 * libcurl fails the transfer with CURLE_WRITE_ERROR, which curl_errno() and curl_multi_info_read()
 * report, whether the transfer ran in curl_exec() or in a multi handle PHP code drives. ext/curl
 * installs its write function on every handle with curl_easy_setopt(): ours goes in its place and
 * calls it.
 * ------------------------------------------------------------------------------------------- */

typedef size_t (*curl_write_fn_t)(char *data, size_t size, size_t nmemb, void *ctx);
/* per-process: ext/curl's write function, seen at its first curl_easy_setopt(CURLOPT_WRITEFUNCTION) */
static curl_write_fn_t php_curl_write;

static size_t write_or_abort(char *data, size_t size, size_t nmemb, void *ctx)
{
	/* asked before the call: with an exception pending nothing can wait */
	bool in_coroutine = EG(exception) == NULL && async_io_can_wait();
	size_t n = php_curl_write(data, size, nmemb, ctx);
	if (UNEXPECTED(in_coroutine && EG(exception) != NULL) && size * nmemb > 0) {
		return 0; /* this chunk's callback threw: refused, CURLE_WRITE_ERROR */
	}
	return n;
}

/* libcurl's option types by number (curl.h: CURLOPTTYPE_*) say what the variadic argument is. */
static CURLcode hooked_easy_setopt(CURL *easy, CURLoption option, ...)
{
	__typeof__(curl_easy_setopt) *real = ORIGINAL(IMPORT_SETOPT, curl_easy_setopt);
	va_list ap;
	va_start(ap, option);
	CURLcode rc;
	if (option < CURLOPTTYPE_OBJECTPOINT) {
		rc = real(easy, option, va_arg(ap, long));
	} else if (option < CURLOPTTYPE_OFF_T) {
		void *p = va_arg(ap, void *);
		if (option == CURLOPT_WRITEFUNCTION && p != NULL && p != (void *) write_or_abort
			&& (php_curl_write == NULL || p == (void *) php_curl_write)) {
			php_curl_write = (curl_write_fn_t) p;
			p = (void *) write_or_abort;
		}
		rc = real(easy, option, p);
#ifdef CURLOPTTYPE_BLOB
	} else if (option < CURLOPTTYPE_BLOB) {
#else
	} else if (option < CURLOPTTYPE_OFF_T + 10000) {
#endif
		rc = real(easy, option, va_arg(ap, curl_off_t));
	} else {
		rc = real(easy, option, va_arg(ap, void *));
	}
	va_end(ap);
	return rc;
}

static CURLcode hooked_easy_perform(CURL *easy)
{
	if (!async_io_can_wait()) {
		return ORIGINAL(IMPORT_PERFORM, curl_easy_perform)(easy);
	}
	async_curl_driver_t *driver = driver_for(easy);
	if (driver == NULL || async__curl_driver_busy(driver)) {
		/* no multi handle, or curl_exec() on its own handle from a callback: libcurl answers */
		return ORIGINAL(IMPORT_PERFORM, curl_easy_perform)(easy);
	}
	CURLcode result = CURLE_OK;
	switch (async__curl_driver_run(driver, &result)) {
		case ASYNC_CURL_REFUSED:
			/* in a multi handle already: curl_easy_perform() reports it as stock does */
			return ORIGINAL(IMPORT_PERFORM, curl_easy_perform)(easy);
		case ASYNC_CURL_ABORTED:
			/* cancelled, or a callback other than the write one threw: the exception goes up
			 * from curl_exec(), whose curl_errno() is then 42 */
			return CURLE_ABORTED_BY_CALLBACK;
		case ASYNC_CURL_DONE:
			break;
	}
	return result;
}

static void hooked_easy_cleanup(CURL *easy)
{
	HashTable *drivers = ASYNC_G(curl_drivers);
	if (drivers != NULL) {
		/* its multi first: the handle must not be freed while a multi still lists it */
		zend_hash_index_del(drivers, handle_key(easy));
	}
	ORIGINAL(IMPORT_CLEANUP, curl_easy_cleanup)(easy);
}

/* ---------------------------------------------------------------------------------------------
 * A multi handle PHP code drives: one coroutine inside libcurl at a time
 *
 * A callback of a transfer may suspend inside curl_multi_exec(). Until it returns, libcurl
 * refuses every other call on that multi (CURLM_RECURSIVE_API_CALL) — a thing stock PHP never
 * meets, and one that makes a loop like Guzzle's spin for ever in the other coroutines. So
 * curl_multi_perform() marks its multi busy, and the calls of other coroutines on a busy multi
 * wait until it is free. The coroutine inside the callback itself gets libcurl's answer, as stock.
 * ------------------------------------------------------------------------------------------- */

/* What the hooks know of a multi driven from coroutines: who is inside libcurl on it, who waits
 * for that, who waits in curl_multi_select() on it, and how many transfers ran at the last
 * curl_multi_exec(). Kept while any of those is so (running > 0 included: the next call compares
 * against it), dropped when none is, freed at the request's end. */
typedef struct {
	zend_coroutine_t *owner;        /* inside curl_multi_perform() on it; NULL: free */
	uint32_t holders;               /* waiters, and the owner during its call: the entry stays */
	uint32_t selectors;             /* inside curl_multi_wait() on it */
	int running;                    /* what the last curl_multi_perform() in a coroutine reported; -1: none yet */
	zend_async_event_t *progress;   /* notified when that count drops; NULL until a selector waits */
} multi_busy_t;

/* The progress event: a plain event; one reference is the entry's, one each waiting selector's. */
static bool multi_progress_dispose(zend_async_event_t *event)
{
	if (--event->ref_count > 0) {
		return true;
	}
	zend_async_callbacks_free(event);
	efree(event);
	return true;
}

static zend_string *multi_progress_info(zend_async_event_t *event)
{
	(void) event;
	return zend_string_init("curl multi progress", sizeof("curl multi progress") - 1, 0);
}

static zend_async_event_t *multi_progress_new(void)
{
	zend_async_event_t *event = ecalloc(1, sizeof(*event));
	event->ref_count = 1;
	event->add_callback = zend_async_event_default_add_callback;
	event->del_callback = zend_async_event_default_del_callback;
	event->start = zend_async_event_nop_start;
	event->stop = zend_async_event_nop_stop;
	event->dispose = multi_progress_dispose;
	event->info = multi_progress_info;
	return event;
}

static void multi_busy_dtor(zval *zv)
{
	multi_busy_t *entry = Z_PTR_P(zv);
	if (entry->progress != NULL) {
		ZEND_ASYNC_EVENT_RELEASE(entry->progress);
	}
	efree(entry);
}

static multi_busy_t *multi_busy_find(CURLM *multi)
{
	HashTable *busy = ASYNC_G(curl_busy);
	return busy != NULL ? zend_hash_index_find_ptr(busy, handle_key(multi)) : NULL;
}

static multi_busy_t *multi_busy_entry(CURLM *multi)
{
	HashTable *busy = ASYNC_G(curl_busy);
	if (busy == NULL) {
		ALLOC_HASHTABLE(busy);
		zend_hash_init(busy, 4, NULL, multi_busy_dtor, 0);
		ASYNC_G(curl_busy) = busy;
	}
	multi_busy_t *entry = zend_hash_index_find_ptr(busy, handle_key(multi));
	if (entry == NULL) {
		entry = ecalloc(1, sizeof(*entry));
		entry->running = -1;
		zend_hash_index_add_new_ptr(busy, handle_key(multi), entry);
	}
	return entry;
}

static multi_busy_t *multi_busy_hold(CURLM *multi)
{
	multi_busy_t *entry = multi_busy_entry(multi);
	entry->holders++;
	return entry;
}

static void multi_busy_forget_if_idle(CURLM *multi, multi_busy_t *entry)
{
	if (entry->holders == 0 && entry->owner == NULL && entry->selectors == 0 && entry->running <= 0
		&& ASYNC_G(curl_busy) != NULL) {
		zend_hash_index_del(ASYNC_G(curl_busy), handle_key(multi));
	}
}

static void multi_busy_drop(CURLM *multi, multi_busy_t *entry)
{
	ZEND_ASSERT(entry->holders > 0);
	entry->holders--;
	multi_busy_forget_if_idle(multi, entry);
}

/* After a curl_multi_perform() in a coroutine: fewer transfers running than the last call
 * reported (or the first call seen) means transfers ended, maybe those a coroutine in
 * curl_multi_select() waits for. This call may have read their sockets dry before the reactor
 * looked at them again, and then nothing else would wake the selector before its timeout
 * (Guzzle's 1 s, with a client shared by coroutines). Only a drop wakes: two selectors woken by
 * each other's every call would spin. */
static void multi_note_running(multi_busy_t *entry, int running)
{
	bool ended = entry->running < 0 || running < entry->running;
	entry->running = running;
	if (ended && entry->selectors > 0) {
		ZEND_ASSERT(entry->progress != NULL);
		ZEND_ASYNC_CALLBACKS_NOTIFY(entry->progress, NULL, NULL);
	}
}

/* Waits while another coroutine is inside the multi. False with an exception (cancelled). */
static bool multi_wait_free(CURLM *multi)
{
	zend_coroutine_t *me = ZEND_ASYNC_CURRENT_COROUTINE;
	multi_busy_t *entry = multi_busy_find(multi);
	if (entry == NULL || entry->owner == NULL || entry->owner == me) {
		return true;
	}
	bool ok = true;
	multi_busy_hold(multi);
	while (entry->owner != NULL && entry->owner != me) {
		/* rare (a callback suspended): a short sleep, not an event per multi */
		if (!async__wait_ms(1, 0)) {
			ok = false;
			break;
		}
	}
	multi_busy_drop(multi, entry);
	return ok;
}

static CURLMcode hooked_multi_perform(CURLM *multi, int *running)
{
	__typeof__(curl_multi_perform) *perform = ORIGINAL(IMPORT_MULTI_PERFORM, curl_multi_perform);
	if (!async_io_can_wait()) {
		return perform(multi, running);
	}
	zend_coroutine_t *me = ZEND_ASYNC_CURRENT_COROUTINE;
	multi_busy_t *entry = multi_busy_find(multi);
	if (entry != NULL && entry->owner == me) {
		return perform(multi, running); /* from its own callback: libcurl answers, as stock */
	}
	if (!multi_wait_free(multi)) {
		*running = 0;
		return CURLM_OK; /* the cancellation goes up from curl_multi_exec() */
	}
	entry = multi_busy_hold(multi);
	entry->owner = me;
	CURLMcode code = perform(multi, running);
	entry->owner = NULL;
	if (code == CURLM_OK && !EG(exception)) {
		multi_note_running(entry, *running);
	}
	bool waited_for = entry->holders > 1;
	multi_busy_drop(multi, entry);
	if (waited_for) {
		/* a loop calling curl_multi_exec() again at once (Guzzle's, while another coroutine's
		 * handle is not added yet) must let the waiters in */
		async__wait_yield();
	}
	return code;
}

/* add, remove, info_read: wait while another coroutine is inside the multi, then libcurl's own.
 * A wait cancelled leaves the multi untouched; the cancellation goes up from ext/curl's call. */
static CURLMcode hooked_multi_add_handle(CURLM *multi, CURL *easy)
{
	if (async_io_can_wait() && !multi_wait_free(multi)) {
		return CURLM_OK;
	}
	return ORIGINAL(IMPORT_MULTI_ADD, curl_multi_add_handle)(multi, easy);
}

static CURLMcode hooked_multi_remove_handle(CURLM *multi, CURL *easy)
{
	if (async_io_can_wait() && !multi_wait_free(multi)) {
		return CURLM_OK;
	}
	return ORIGINAL(IMPORT_MULTI_REMOVE, curl_multi_remove_handle)(multi, easy);
}

static CURLMsg *hooked_multi_info_read(CURLM *multi, int *msgs_in_queue)
{
	if (async_io_can_wait() && !multi_wait_free(multi)) {
		*msgs_in_queue = 0;
		return NULL;
	}
	return ORIGINAL(IMPORT_MULTI_INFO, curl_multi_info_read)(multi, msgs_in_queue);
}

/* A CurlMultiHandle freed: nobody is inside it or waits for it (each would hold the object), so
 * what the hooks kept of it goes, before a new multi can get the same address. */
static CURLMcode hooked_multi_cleanup(CURLM *multi)
{
	HashTable *busy = ASYNC_G(curl_busy);
	if (busy != NULL) {
		zend_hash_index_del(busy, handle_key(multi));
	}
	return ORIGINAL(IMPORT_MULTI_CLEANUP, curl_multi_cleanup)(multi);
}

/* ---------------------------------------------------------------------------------------------
 * curl_multi_select(): curl_multi_wait() on the reactor
 * ------------------------------------------------------------------------------------------- */

static CURLMcode hooked_multi_wait(CURLM *multi, struct curl_waitfd extra_fds[], unsigned int extra_nfds,
	int timeout_ms, int *numfds)
{
	if (!async_io_can_wait() || extra_nfds != 0 || timeout_ms < 0) {
		return ORIGINAL(IMPORT_MULTI_WAIT, curl_multi_wait)(multi, extra_fds, extra_nfds, timeout_ms, numfds);
	}
	if (numfds != NULL) {
		*numfds = 0;
	}
	if (!multi_wait_free(multi)) {
		return CURLM_OK; /* the cancellation goes up from curl_multi_select() */
	}
	/* the wait also ends when another coroutine's curl_multi_exec() ends transfers on this multi */
	multi_busy_t *entry = multi_busy_entry(multi);
	if (entry->progress == NULL) {
		entry->progress = multi_progress_new();
	}
	entry->selectors++;
	CURLMcode error = CURLM_OK;
	int ready = async__curl_multi_wait(multi, timeout_ms, entry->progress, &error);
	/* looked up again: the entry stays while we select, but not past the request's end */
	entry = multi_busy_find(multi);
	if (entry != NULL) {
		ZEND_ASSERT(entry->selectors > 0);
		entry->selectors--;
		multi_busy_forget_if_idle(multi, entry);
	}
	if (ready < 0) {
		return EG(exception) ? CURLM_OK : error;
	}
	if (numfds != NULL) {
		*numfds = ready;
	}
	return CURLM_OK;
}

#else /* !HAVE_ASYNC_CURL: built without libcurl's headers, curl stays stock */

zend_result async__hook_curl_minit(void) { return SUCCESS; }
void async__hook_curl_mshutdown(void) {}
void async__hook_curl_rinit(void) {}
void async__hook_curl_rshutdown(void) {}

#endif /* HAVE_ASYNC_CURL */
