/*
 * async_dns.h — name resolution without blocking the process.
 *
 * reactor_dns.c runs lookups on libuv's thread pool and fills the ABI slots
 * zend_async_reactor_api.getaddrinfo / getnameinfo / freeaddrinfo. It also has one lookup of its
 * own, gethostbyname_r(), because PHP's gethostbyname()/gethostbynamel() are built on it and its
 * answers (order, duplicates, /etc/hosts handling) differ from getaddrinfo()'s.
 *
 * Events are one-shot C events (ref-counted). A lookup is submitted when the event is created; the
 * event completes (F_CLOSED) when the thread pool answers. Subscribers are notified with
 * result = the event's result field and, on failure, a DnsException whose code is the
 * resolver's own error (EAI_* or h_errno). The event owns its result: dispose frees it unless the
 * taker set the field to NULL (an addrinfo list is then freed with ZEND_ASYNC_FREEADDRINFO).
 * Dropping the last reference while the lookup runs is allowed: the memory is freed when the
 * thread pool gives the request back.
 *
 * dns.c holds the PHP side: gethostbyname(), gethostbynamel() and gethostbyaddr() inside a
 * coroutine, and the waiting helpers the stream transports use.
 */
#ifndef ASYNC_DNS_H
#define ASYNC_DNS_H

#include "php.h"
#include "zend_async_API.h"
#include <netinet/in.h>

BEGIN_EXTERN_C()

/* gethostbyname_r() on the thread pool: the IPv4 addresses of the answer, in its order. */
typedef struct {
	zend_async_event_t base;
	const char *name;
	uint32_t count;
	struct in_addr *addrs; /* count entries (owned by the event) */
} async_dns_hostent_t;

/* reactor_dns.c */
void async_dns_reactor_register(void);
void async_dns_rshutdown(void); /* before the reactor's own shutdown: in-flight lookups deliver nothing */
async_dns_hostent_t *async_dns_new_hostent(const char *name);
/* The resolver's status of a completed lookup: 0, EAI_* (getaddrinfo/getnameinfo) or h_errno
 * (hostent). A request that never ran reports EAI_SYSTEM / NO_RECOVERY. */
int async_dns_status(zend_async_event_t *event);

/* dns.c */
void async_dns_hooks_install(void);
void async_dns_hooks_uninstall(void);

/* Whether the caller may suspend for a lookup (inside a coroutine, switching allowed). */
bool async_dns_can_wait(void);

/* Waits for a lookup event created by the caller. true when it completed (read async_dns_status());
 * false with an exception (the coroutine was cancelled, ...). The caller keeps its reference. */
bool async_dns_wait(zend_async_event_t *event);

/* getaddrinfo() for the current coroutine: the same contract as getaddrinfo(3) (returns 0 or an
 * EAI_* code, *res to be freed with ZEND_ASYNC_FREEADDRINFO), or -1 with an exception set when the
 * wait was interrupted. Only call when async_dns_can_wait(). */
int async_dns_getaddrinfo(const char *node, const char *service, const struct addrinfo *hints, struct addrinfo **res);

/* php_network_getaddresses() with the lookup on the thread pool while the coroutine waits: the same
 * hints, result, warnings and *error_string. Outside a coroutine, and for literal addresses (which
 * never reach a resolver), it is PHP's own function. 0 with an exception when the wait was
 * interrupted (the coroutine was cancelled). */
int async_dns_network_getaddresses(const char *host, int socktype, struct sockaddr ***sal, zend_string **error_string);

END_EXTERN_C()

#endif /* ASYNC_DNS_H */
