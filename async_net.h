/*
 * async_net.h — the extension's internal declarations for descriptor polling and the
 * coroutine-aware socket streams (reactor_poll.c, net_transport.c, net_select.c).
 * The public C API for waiting on descriptors is io_poll.h.
 */
#ifndef ASYNC_NET_H
#define ASYNC_NET_H

#include "php.h"
#include "php_network.h"
#include "io_poll.h"

/* reactor_poll.c: registers the poll slots of the reactor table; drops every poll at RSHUTDOWN
 * (before the reactor closes its loop). */
void async_poll_register(void);
void async_poll_rshutdown(void);

/* reactor_io.c: the ABI's unified I/O handle slots (zend_async_io_api: create/read/write/close/flush). */
void async_io_register(void);

/* net_transport.c: wraps the socket transports (MINIT) and puts them back (MSHUTDOWN). */
void async_net_transports_install(void);
void async_net_transports_uninstall(void);

/* Makes a socket stream coroutine-aware (a stream made outside the transports, e.g. by
 * stream_socket_pair()). Persistent streams and streams already wrapped are left alone. */
void async_net_stream_wrap(php_stream *stream);

/* Name resolution for connects, with the contract of php_network_getaddresses(): the number of
 * addresses in *sal (free with php_network_freeaddresses()), 0 on failure with the same warning
 * and *error_string. Today it is PHP's own blocking resolver; it is the one place where an
 * asynchronous resolver plugs in. */
int async_net_resolve(const char *host, int socktype, struct sockaddr ***sal, zend_string **error_string);

/* net_select.c: stream_select() and stream_socket_pair() handlers (MINIT / MSHUTDOWN). */
void async_net_functions_install(void);
void async_net_functions_uninstall(void);

#endif /* ASYNC_NET_H */
