/*
 * hooks/dns.c — gethostbyname(), gethostbynamel() and gethostbyaddr() suspend only the calling
 * coroutine while the lookup runs on the reactor's thread pool (reactor/dns.c), and the waiting
 * helpers the stream transports use for getaddrinfo().
 *
 * Each function gives PHP's own answers and warnings: the same resolver call runs (gethostbyname_r,
 * getnameinfo with NI_NAMEREQD), only on another thread. Outside a coroutine, or where switching is
 * forbidden (destructors on 8.2, P9), PHP's own handler runs. Handlers are swapped at MINIT only (P18).
 */
#include "php_async.h"
#include "hooks/hooks.h"
#include "core/core.h"
#include "reactor/reactor.h"
#include "async_io_wait.h"
#include "php_network.h"
#include <arpa/inet.h>
#include <netdb.h>
#include <unistd.h>

bool async__dns_can_wait(void)
{
	return async_io_can_wait();
}

/* The lookup answered: wake the coroutine. A failed lookup is an answer too (its status says
 * which), so the event's DnsException is not thrown into the waiter. */
static void dns_answered(zend_async_event_t *event, zend_async_event_callback_t *callback, void *result, zend_object *exception)
{
	zend_coroutine_event_callback_t *cb = (zend_coroutine_event_callback_t *) callback;
	zend_async_waker_t *waker = cb->coroutine->waker;
	(void) result;
	(void) exception;
	if (waker == NULL || waker->status != ZEND_ASYNC_WAKER_WAITING) {
		return;
	}
	waker->triggered_event = event;
	ZEND_ASYNC_ENQUEUE_COROUTINE(cb->coroutine);
}

bool async__dns_wait(zend_async_event_t *event)
{
	if (ZEND_ASYNC_EVENT_IS_CLOSED(event)) {
		return true;
	}
	zend_coroutine_t *co = async__wait_begin(NULL, "wait for a DNS lookup");
	if (co == NULL) {
		return false;
	}
	bool ok = async__wait_on(co, event, false, dns_answered, NULL) && async__wait_suspend(co);
	async__wait_end(co);
	return ok;
}

int async__dns_getaddrinfo(const char *node, const char *service, const struct addrinfo *hints, struct addrinfo **res)
{
	*res = NULL;
	zend_async_dns_addrinfo_t *lookup = ZEND_ASYNC_GETADDRINFO(node, service, hints);
	if (lookup == NULL) {
		return -1;
	}
	if (!async__dns_wait(&lookup->base)) {
		ZEND_ASYNC_EVENT_RELEASE(&lookup->base);
		return -1;
	}
	int status = async__dns_status(&lookup->base);
	if (status == 0) {
		*res = lookup->result;
		lookup->result = NULL; /* ours now */
	}
	ZEND_ASYNC_EVENT_RELEASE(&lookup->base);
	return status;
}

/* php_network_getaddresses() failed: its warning, and its text in *error_string when asked. */
static void getaddresses_failed(const char *host, zend_string **error_string, const char *reason, bool null_result)
{
	zend_string *message = null_result
		? strpprintf(0, "php_network_getaddresses: getaddrinfo for %s failed (null result pointer) errno=%d", host, errno)
		: strpprintf(0, "php_network_getaddresses: getaddrinfo for %s failed: %s", host, reason);
	if (error_string) {
		if (*error_string) {
			zend_string_release_ex(*error_string, 0);
		}
		*error_string = message;
		php_error_docref(NULL, E_WARNING, "%s", ZSTR_VAL(message));
		return;
	}
	if (null_result) {
		php_error_docref(NULL, E_WARNING, "php_network_getaddresses: getaddrinfo for %s failed (null result pointer)", host);
	} else {
		php_error_docref(NULL, E_WARNING, "%s", ZSTR_VAL(message));
	}
	zend_string_release_ex(message, 0);
}

bool async__dns_is_literal_address(const char *host)
{
	unsigned char buf[sizeof(struct in6_addr)];
	return inet_pton(AF_INET, host, buf) == 1 || inet_pton(AF_INET6, host, buf) == 1;
}

int async__dns_network_getaddresses(const char *host, int socktype, struct sockaddr ***sal, zend_string **error_string)
{
	/* A literal address never asks a resolver: PHP's own call answers at once. */
	if (host == NULL || !async__dns_can_wait() || async__dns_is_literal_address(host)) {
		return php_network_getaddresses(host, socktype, sal, error_string);
	}

	/* Hints as PHP chooses them: any family unless this machine has no IPv6 stack. */
	static int ipv6_missing = -1;
	if (ipv6_missing == -1) {
		int s = socket(PF_INET6, SOCK_DGRAM, 0);
		ipv6_missing = s < 0;
		if (s >= 0) {
			close(s);
		}
	}
	struct addrinfo hints, *res = NULL;
	memset(&hints, 0, sizeof(hints));
	hints.ai_family = ipv6_missing ? AF_INET : AF_UNSPEC;
	hints.ai_socktype = socktype;

	int status = async__dns_getaddrinfo(host, NULL, &hints, &res);
	if (status == -1 && EG(exception)) {
		return 0;
	}
	if (status != 0) {
		getaddresses_failed(host, error_string, gai_strerror(status), false);
		return 0;
	}
	if (res == NULL) {
		getaddresses_failed(host, error_string, NULL, true);
		return 0;
	}

	int n = 1;
	for (struct addrinfo *ai = res->ai_next; ai != NULL; ai = ai->ai_next) {
		n++;
	}
	*sal = safe_emalloc((size_t) n + 1, sizeof(**sal), 0);
	struct sockaddr **sap = *sal;
	for (struct addrinfo *ai = res; ai != NULL; ai = ai->ai_next) {
		*sap = emalloc(ai->ai_addrlen);
		memcpy(*sap, ai->ai_addr, ai->ai_addrlen);
		sap++;
	}
	*sap = NULL;
	ZEND_ASYNC_FREEADDRINFO(res);
	return n;
}

/* ---------------------------------------------------------------------------------------------
 * The hooked functions
 * ------------------------------------------------------------------------------------------- */

static ZEND_FUNCTION(async_gethostbyname);
static ZEND_FUNCTION(async_gethostbynamel);
static ZEND_FUNCTION(async_gethostbyaddr);

/* per-process: the function table's handlers, swapped at MINIT */
static async_function_hook_t hooks[] = {
	{ "gethostbyname", ZEND_FN(async_gethostbyname), NULL },
	{ "gethostbynamel", ZEND_FN(async_gethostbynamel), NULL },
	{ "gethostbyaddr", ZEND_FN(async_gethostbyaddr), NULL },
};

enum { HOOK_BYNAME, HOOK_BYNAMEL, HOOK_BYADDR };

#define FALLBACK(which) do { \
		if (!async__dns_can_wait()) { \
			hooks[which].original(INTERNAL_FUNCTION_PARAM_PASSTHRU); \
			return; \
		} \
	} while (0)

/* gethostbyname_r() for the current coroutine; NULL with an exception when the wait was
 * interrupted. The caller releases the event. */
static async_dns_hostent_t *lookup_hostent(const char *name)
{
	async_dns_hostent_t *lookup = async__dns_new_hostent(name);
	if (lookup == NULL) {
		return NULL;
	}
	if (!async__dns_wait(&lookup->base)) {
		ZEND_ASYNC_EVENT_RELEASE(&lookup->base);
		return NULL;
	}
	return lookup;
}

/* What gethostbyname() and gethostbynamel() share: their argument, PHP's length check (a name
 * too long gives the warning and, as PHP returns, the name itself or false) and the lookup.
 * NULL when return_value is already decided or an exception is set. */
static async_dns_hostent_t *hostent_lookup_arg(INTERNAL_FUNCTION_PARAMETERS, bool name_when_too_long, char **name)
{
	char *hostname;
	size_t hostname_len;

	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_PATH(hostname, hostname_len)
	ZEND_PARSE_PARAMETERS_END_EX(return NULL);

	if (hostname_len > MAXFQDNLEN) {
		php_error_docref(NULL, E_WARNING, "Host name cannot be longer than %d characters", MAXFQDNLEN);
		if (name_when_too_long) {
			RETVAL_STRINGL(hostname, hostname_len);
		} else {
			RETVAL_FALSE;
		}
		return NULL;
	}
	*name = hostname;
	return lookup_hostent(hostname);
}

static ZEND_FUNCTION(async_gethostbyname)
{
	FALLBACK(HOOK_BYNAME);
	char *hostname;
	async_dns_hostent_t *lookup = hostent_lookup_arg(INTERNAL_FUNCTION_PARAM_PASSTHRU, true, &hostname);
	if (lookup == NULL) {
		return;
	}
	char text[INET_ADDRSTRLEN];
	if (async__dns_status(&lookup->base) != 0 || lookup->count == 0
			|| inet_ntop(AF_INET, &lookup->addrs[0], text, sizeof(text)) == NULL) {
		/* PHP hands the name back when it does not resolve. */
		RETVAL_STRING(hostname);
	} else {
		RETVAL_STRING(text);
	}
	ZEND_ASYNC_EVENT_RELEASE(&lookup->base);
}

static ZEND_FUNCTION(async_gethostbynamel)
{
	FALLBACK(HOOK_BYNAMEL);
	char *hostname;
	async_dns_hostent_t *lookup = hostent_lookup_arg(INTERNAL_FUNCTION_PARAM_PASSTHRU, false, &hostname);
	if (lookup == NULL) {
		return;
	}
	if (async__dns_status(&lookup->base) != 0) {
		RETVAL_FALSE;
	} else {
		array_init_size(return_value, lookup->count);
		for (uint32_t i = 0; i < lookup->count; i++) {
			char text[INET_ADDRSTRLEN];
			if (inet_ntop(AF_INET, &lookup->addrs[i], text, sizeof(text)) != NULL) {
				add_next_index_string(return_value, text);
			}
		}
	}
	ZEND_ASYNC_EVENT_RELEASE(&lookup->base);
}

/* getnameinfo(NI_NAMEREQD) through the reactor; the address when no name is registered, as PHP. */
static zend_string *reverse_lookup(const struct sockaddr *sa, const char *ip)
{
	zend_async_dns_nameinfo_t *lookup = ZEND_ASYNC_GETNAMEINFO(sa, NI_NAMEREQD);
	if (lookup == NULL) {
		return NULL;
	}
	if (!async__dns_wait(&lookup->base)) {
		ZEND_ASYNC_EVENT_RELEASE(&lookup->base);
		return NULL;
	}
	zend_string *name;
	if (async__dns_status(&lookup->base) != 0 || lookup->hostname == NULL) {
		name = zend_string_init(ip, strlen(ip), 0);
	} else {
		name = zend_string_copy(lookup->hostname);
	}
	ZEND_ASYNC_EVENT_RELEASE(&lookup->base);
	return name;
}

static ZEND_FUNCTION(async_gethostbyaddr)
{
	FALLBACK(HOOK_BYADDR);
	char *addr;
	size_t addr_len;

	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_PATH(addr, addr_len)
	ZEND_PARSE_PARAMETERS_END();

	struct sockaddr_in sa4;
	struct sockaddr_in6 sa6;
	memset(&sa4, 0, sizeof(sa4));
	memset(&sa6, 0, sizeof(sa6));
	zend_string *name;

	/* IPv6 first, then IPv4, as PHP tries them. */
	if (inet_pton(AF_INET6, addr, &sa6.sin6_addr) == 1) {
		sa6.sin6_family = AF_INET6;
		name = reverse_lookup((struct sockaddr *) &sa6, addr);
	} else if (inet_pton(AF_INET, addr, &sa4.sin_addr) == 1) {
		sa4.sin_family = AF_INET;
		name = reverse_lookup((struct sockaddr *) &sa4, addr);
	} else {
		php_error_docref(NULL, E_WARNING, "Address is not a valid IPv4 or IPv6 address");
		RETURN_FALSE;
	}
	if (name == NULL) {
		RETURN_THROWS();
	}
	RETURN_STR(name);
}

zend_result async__hook_dns_minit(void)
{
	async__function_hooks_install(hooks, sizeof(hooks) / sizeof(hooks[0]));
	return SUCCESS;
}

void async__hook_dns_mshutdown(void)
{
	async__function_hooks_uninstall(hooks, sizeof(hooks) / sizeof(hooks[0]));
}
