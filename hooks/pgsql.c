/*
 * hooks/pgsql.c — PostgreSQL's clients (ext/pgsql, pdo_pgsql) suspend only the calling coroutine.
 *
 * Both drivers hand every wait to libpq, and libpq does all of its own waiting — for a connect,
 * an authentication round trip, a TLS handshake, a query's result, a COPY, a large object — in
 * poll() on the connection's one non-blocking socket (pqSocketPoll() in its source), and its host
 * name resolution in getaddrinfo(). So the drivers' code, which differs between PHP versions, is
 * never touched, nor copied: libpq's imports of poll(), getaddrinfo() and close() are redirected
 * (async_import.h, as another extension would do it), and so is pdo_pgsql's own poll() (the
 * timeout of getNotify()). In a coroutine:
 *
 * - poll() of one descriptor waits on the reactor and answers what poll() would (ready, or 0 at
 *   libpq's own timeout: connect_timeout keeps working);
 * - getaddrinfo() runs on the thread pool (async__dns_getaddrinfo(), the hook of gethostbyname());
 * - close() announces the socket to the poll registry first, so libpq's socket keeps one armed
 *   poll between queries instead of an epoll_ctl() pair per wait.
 *
 * Outside a coroutine, where switching is impossible, and on the pool's threads, each is libc's
 * own: stock. Which coroutine is inside which connection, and what a cancellation does, is
 * hooks/pgsql_conn.c and hooks/pgsql_cancel.c. Everything is redirected at MINIT (the drivers are
 * loaded by then, whatever the order of the INI files) and put back at MSHUTDOWN; where it cannot
 * be, the drivers stay stock, with one warning at the first request.
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif
#include "php_async.h"
#include "hooks/hooks.h"

#ifdef HAVE_ASYNC_PGSQL

#include "async_import.h"
#include "async_io_wait.h"
#include <netdb.h>
#include <poll.h>
#include <unistd.h>

#ifndef EAI_CANCELED
# define EAI_CANCELED EAI_AGAIN
#endif

static int pq_poll(struct pollfd *fds, nfds_t nfds, int timeout);
static int pq_getaddrinfo(const char *node, const char *service, const struct addrinfo *hints, struct addrinfo **res);
static int pq_close(int fd);
static int pdo_pq_poll(struct pollfd *fds, nfds_t nfds, int timeout);

enum { LIBPQ_POLL, LIBPQ_GETADDRINFO, LIBPQ_CLOSE, LIBPQ_COUNT };
/* per-process: libpq's GOT entries, rewritten at MINIT and put back at MSHUTDOWN */
static async_import_t libpq_imports[LIBPQ_COUNT] = {
	[LIBPQ_POLL] = { "poll", (void *) pq_poll },
	[LIBPQ_GETADDRINFO] = { "getaddrinfo", (void *) pq_getaddrinfo },
	[LIBPQ_CLOSE] = { "close", (void *) pq_close },
};

/* per-process: pdo_pgsql's own poll() (getNotify() with a timeout) */
static async_import_t pdo_imports[1] = { { "poll", (void *) pdo_pq_poll } };

#define ORIGINAL(table, which, type) ((__typeof__(type) *) (table)[which].original)

typedef enum { PGSQL_ABSENT, PGSQL_REDIRECTED, PGSQL_STOCK, PGSQL_STOCK_WARNED } pgsql_state_t;

/* per-process: decided at MINIT */
static pgsql_state_t pgsql_state = PGSQL_ABSENT;

/* per-process: filled once at MINIT */
async_pq_api_t async__pq_api;

bool async__pq_api_load(void *dl_handle)
{
	void *scope = dl_handle != NULL ? dl_handle : RTLD_DEFAULT;
#define PQ_API(field, symbol) \
	if ((async__pq_api.field = (__typeof__(async__pq_api.field)) DL_FETCH_SYMBOL(scope, #symbol)) == NULL) { \
		return false; \
	}
	PQ_API(socket, PQsocket)
	PQ_API(status, PQstatus)
	PQ_API(get_cancel, PQgetCancel)
	PQ_API(cancel, PQcancel)
	PQ_API(free_cancel, PQfreeCancel)
	PQ_API(make_empty_result, PQmakeEmptyPGresult)
	PQ_API(result_status, PQresultStatus)
	PQ_API(clear, PQclear)
	PQ_API(freemem, PQfreemem)
	PQ_API(get_result, PQgetResult)
	PQ_API(put_copy_end, PQputCopyEnd)
	PQ_API(get_copy_data, PQgetCopyData)
	PQ_API(finish, PQfinish)
#undef PQ_API
	return true;
}

/* ---------------------------------------------------------------------------------------------
 * libpq's waits
 * ------------------------------------------------------------------------------------------- */

/* One descriptor in a coroutine: what poll() would answer, or -1 with the exception pending
 * (errno ECANCELED: libpq's callers do not retry that, as they would EINTR). */
static int pq_wait(struct pollfd *pfd, int timeout, pq_call_t *call)
{
	if (call == NULL || async__pq_call_track(call, pfd->fd)) {
		async_io_fd_track(pfd->fd); /* libpq's close() is ours: every close is announced */
	}
	int ready = async_io_wait_fd(pfd->fd, async__pq_poll_mask(pfd->events), timeout < 0 ? -1 : timeout);
	if (ready > 0) {
		pfd->revents = async__pq_poll_revents(ready, pfd->events);
		return 1;
	}
	if (ready == 0) {
		pfd->revents = 0;
		return 0;
	}
	if (call == NULL) {
		errno = ECANCELED;
		return -1;
	}
	async__pq_call_interrupt(call);
	return async__pq_cancel_poll(call, pfd, timeout);
}

static int pq_poll(struct pollfd *fds, nfds_t nfds, int timeout)
{
	__typeof__(poll) *real = ORIGINAL(libpq_imports, LIBPQ_POLL, poll);
	if (nfds != 1 || async__pq_on_pool_thread()) {
		return real(fds, nfds, timeout);
	}
	pq_call_t *call = async__pq_call_current();
	if (call != NULL && call->interrupted != NULL) {
		return async__pq_cancel_poll(call, fds, timeout); /* bounded, also where switching stopped */
	}
	if (!async_io_can_wait() || (call != NULL && call->blocking)) {
		return real(fds, nfds, timeout);
	}
	return pq_wait(fds, timeout, call);
}

/* pdo_pgsql's getNotify(): a plain wait for the connection's socket, outside libpq. */
static int pdo_pq_poll(struct pollfd *fds, nfds_t nfds, int timeout)
{
	if (nfds != 1 || !async_io_can_wait()) {
		return ORIGINAL(pdo_imports, 0, poll)(fds, nfds, timeout);
	}
	return pq_wait(fds, timeout, NULL);
}

static int pq_getaddrinfo(const char *node, const char *service, const struct addrinfo *hints, struct addrinfo **res)
{
	__typeof__(getaddrinfo) *real = ORIGINAL(libpq_imports, LIBPQ_GETADDRINFO, getaddrinfo);
	if (async__pq_on_pool_thread() || node == NULL || async__dns_is_literal_address(node)) {
		return real(node, service, hints, res);
	}
	pq_call_t *call = async__pq_call_current();
	if (call != NULL && call->interrupted != NULL) {
		*res = NULL;
		return EAI_CANCELED; /* a cancelled connect tries no further host */
	}
	if (!async__dns_can_wait() || (call != NULL && call->blocking)) {
		return real(node, service, hints, res);
	}
	int status = async__dns_getaddrinfo(node, service, hints, res);
	if (status == -1 && EG(exception)) {
		if (call != NULL) {
			async__pq_call_interrupt(call);
		}
		*res = NULL;
		return EAI_CANCELED;
	}
	return status;
}

static int pq_close(int fd)
{
	if (!async__pq_on_pool_thread()) {
		async_io_fd_closing(fd);
	}
	return ORIGINAL(libpq_imports, LIBPQ_CLOSE, close)(fd);
}

/* ---------------------------------------------------------------------------------------------
 * Module hooks
 * ------------------------------------------------------------------------------------------- */

static zend_module_entry *pq_module(const char *name)
{
	return zend_hash_str_find_ptr(&module_registry, name, strlen(name));
}

static void pq_restore_all(void)
{
	async__pq_conn_uninstall();
	async_import_restore(pdo_imports, 1);
	async_import_restore(libpq_imports, LIBPQ_COUNT);
}

/* The module entry is static data of the driver's own object: an address in it. */
static bool pq_install_driver(zend_module_entry *module, size_t slot)
{
	return module == NULL || async__pq_conn_install(module, module->handle, slot);
}

zend_result async__hook_pgsql_minit(void)
{
	zend_module_entry *pgsql = pq_module("pgsql");
	zend_module_entry *pdo_pgsql = pq_module("pdo_pgsql");
	if (pgsql == NULL && pdo_pgsql == NULL) {
		return SUCCESS;
	}
	pgsql_state = PGSQL_STOCK;
	void *handle = pgsql != NULL ? pgsql->handle : pdo_pgsql->handle;
	if (!async__pq_api_load(handle)) {
		return SUCCESS;
	}
	/* libpq's object: the one holding PQstatus() */
	if (async_import_redirect((const void *) async__pq_api.status, libpq_imports, LIBPQ_COUNT) != LIBPQ_COUNT) {
		async_import_restore(libpq_imports, LIBPQ_COUNT);
		return SUCCESS;
	}
	if (!pq_install_driver(pgsql, 0) || !pq_install_driver(pdo_pgsql, 1)) {
		pq_restore_all();
		return SUCCESS;
	}
	if (pdo_pgsql != NULL) {
		/* without it only getNotify()'s timeout blocks: not a reason to give the rest up */
		async_import_redirect(pdo_pgsql, pdo_imports, 1);
	}
	pgsql_state = PGSQL_REDIRECTED;
	return SUCCESS;
}

void async__hook_pgsql_mshutdown(void)
{
	pq_restore_all();
	if (pgsql_state == PGSQL_REDIRECTED) {
		pgsql_state = PGSQL_STOCK;
	}
}

void async__hook_pgsql_rinit(void)
{
	if (pgsql_state != PGSQL_STOCK) {
		return;
	}
	pgsql_state = PGSQL_STOCK_WARNED;
	php_error_docref(NULL, E_WARNING,
		"ext/pgsql's and pdo_pgsql's calls into libpq could not be redirected (a driver or libpq built into a "
		"binary this platform does not describe): PostgreSQL calls keep blocking in coroutines");
}

void async__hook_pgsql_rshutdown(void)
{
	async__pq_conn_rshutdown();
}

#else /* !HAVE_ASYNC_PGSQL: built without libpq's headers, the drivers stay stock */

zend_result async__hook_pgsql_minit(void) { return SUCCESS; }
void async__hook_pgsql_mshutdown(void) {}
void async__hook_pgsql_rinit(void) {}
void async__hook_pgsql_rshutdown(void) {}

#endif /* HAVE_ASYNC_PGSQL */
