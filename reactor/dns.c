/*
 * reactor/dns.c — DNS lookups on libuv's thread pool as reactor events (see async_dns.h).
 *
 * One struct serves the three kinds (getaddrinfo, getnameinfo, gethostbyname_r). libuv owns the
 * request from submission until its callback, whatever happens to the event meanwhile, so the
 * memory is freed by whichever comes last: the final dispose or the callback. The callback only
 * stores the answer and notifies (P12); a lookup cannot be interrupted once a pool thread runs it.
 */
#include "php_async.h"
#define ASYNC_REACTOR_UV /* the libuv side of the reactor's header */
#include "reactor/reactor.h"
#include "zend_exceptions.h"
#include <netdb.h>
#include <arpa/inet.h>

typedef enum { DNS_ADDRINFO, DNS_NAMEINFO, DNS_HOSTENT } dns_kind_t;

typedef struct _async_dns_req_s async_dns_req_t;

struct _async_dns_req_s {
	union {
		zend_async_event_t base;
		zend_async_dns_addrinfo_t addrinfo;
		zend_async_dns_nameinfo_t nameinfo;
		async_dns_hostent_t hostent;
	} ev;
	dns_kind_t kind;
	bool in_flight;  /* libuv owns the request until its callback ran */
	bool orphaned;   /* every reference was dropped while in flight: the callback frees */
	bool detached;   /* request shutdown: the callback delivers nothing */
	int status;
	async_list_node_t link;  /* in ASYNC_G(dns_in_flight) while in flight */
	/* What the thread reads and writes: plain malloc memory, never ZendMM (not thread-safe). */
	char *node, *service;
	struct {
		int h_err;
		uint32_t count;
		struct in_addr *addrs;
	} work_out;
	union {
		uv_getaddrinfo_t ai;
		uv_getnameinfo_t ni;
		uv_work_t work;
	} req;
};

#define DNS_FROM_EVENT(e) ((async_dns_req_t *) (e))

/* In-flight lookups of this request (ASYNC_G(dns_in_flight)), so request shutdown can detach
 * them. */
static void in_flight_add(async_dns_req_t *dns)
{
	ZEND_ASSERT(!dns->in_flight && "a request is submitted once");
	dns->in_flight = true;
	async_list_append(&ASYNC_G(dns_in_flight), &dns->link);
}

static void in_flight_remove(async_dns_req_t *dns)
{
	ZEND_ASSERT(dns->in_flight && "only libuv's callback ends a request");
	dns->in_flight = false;
	async_list_remove(&ASYNC_G(dns_in_flight), &dns->link);
}

static void dns_free(async_dns_req_t *dns)
{
	zend_async_callbacks_free(&dns->ev.base);
	switch (dns->kind) {
		case DNS_ADDRINFO:
			if (dns->ev.addrinfo.result) {
				uv_freeaddrinfo(dns->ev.addrinfo.result);
			}
			break;
		case DNS_NAMEINFO:
			if (dns->ev.nameinfo.hostname) {
				zend_string_release(dns->ev.nameinfo.hostname);
			}
			if (dns->ev.nameinfo.service) {
				zend_string_release(dns->ev.nameinfo.service);
			}
			break;
		case DNS_HOSTENT:
			free(dns->work_out.addrs);
			break;
	}
	free(dns->node);
	free(dns->service);
	efree(dns);
}

/* ---------------------------------------------------------------------------------------------
 * Event methods
 * ------------------------------------------------------------------------------------------- */

/* The lookup already runs; starting only counts it as something the program waits for. */
static bool dns_start(zend_async_event_t *event)
{
	if (ZEND_ASYNC_EVENT_IS_CLOSED(event)) {
		return true;
	}
	return async__reactor_counting_start(event);
}

static void dns_cancel_request(async_dns_req_t *dns)
{
	/* Succeeds only while the request waits for a pool thread; a running lookup finishes. */
	switch (dns->kind) {
		case DNS_ADDRINFO: uv_cancel((uv_req_t *) &dns->req.ai); break;
		case DNS_NAMEINFO: uv_cancel((uv_req_t *) &dns->req.ni); break;
		case DNS_HOSTENT: uv_cancel((uv_req_t *) &dns->req.work); break;
	}
}

static bool dns_dispose(zend_async_event_t *event)
{
	async_dns_req_t *dns = DNS_FROM_EVENT(event);
	switch (async__reactor_request_release(event, dns->in_flight)) {
		case ASYNC_REQUEST_HELD:
			break;
		case ASYNC_REQUEST_ORPHANED:
			dns->orphaned = true;
			dns_cancel_request(dns);
			break;
		case ASYNC_REQUEST_FREE:
			dns_free(dns);
			break;
	}
	return true;
}

static zend_string *dns_info(zend_async_event_t *event)
{
	async_dns_req_t *dns = DNS_FROM_EVENT(event);
	switch (dns->kind) {
		case DNS_ADDRINFO:
			return zend_strpprintf(0, "DNS getaddrinfo(%s%s%s)", dns->node ? dns->node : "",
				dns->service ? ", " : "", dns->service ? dns->service : "");
		case DNS_NAMEINFO:
			return zend_string_init("DNS getnameinfo", sizeof("DNS getnameinfo") - 1, 0);
		default:
			return zend_strpprintf(0, "DNS gethostbyname(%s)", dns->node ? dns->node : "");
	}
}

static const async_event_methods_t dns_methods = {
	.start = dns_start, .stop = async__reactor_counting_stop, .dispose = dns_dispose, .info = dns_info,
};

static async_dns_req_t *dns_new(dns_kind_t kind, size_t extra_size)
{
	async_dns_req_t *dns = ecalloc(1, sizeof(async_dns_req_t) + extra_size);
	zend_async_event_t *event = &dns->ev.base;
	async__event_init(event, &dns_methods);
	event->extra_offset = (uint32_t) sizeof(async_dns_req_t);
	dns->kind = kind;
	return dns;
}

static void throw_dns(int code, const char *format, const char *what, const char *message)
{
	zend_object *ex = zend_async_new_exception(ZEND_ASYNC_EXCEPTION_DNS, format, what, message);
	zend_update_property_long(zend_get_exception_base(ex), ex, "code", sizeof("code") - 1, code);
	zend_throw_exception_internal(ex);
}

/* ---------------------------------------------------------------------------------------------
 * Completion: store the answer, close the event, wake the subscribers.
 * ------------------------------------------------------------------------------------------- */

static zend_object *failure_exception(async_dns_req_t *dns)
{
	const char *what = dns->node ? dns->node : (dns->service ? dns->service : "");
	const char *message = dns->kind == DNS_HOSTENT ? hstrerror(dns->status) : gai_strerror(dns->status);
	zend_object *ex = zend_async_new_exception(ZEND_ASYNC_EXCEPTION_DNS, "Failed to resolve \"%s\": %s", what, message);
	zend_update_property_long(zend_get_exception_base(ex), ex, "code", sizeof("code") - 1, dns->status);
	return ex;
}

/* Returns false when nobody is left to tell (the memory is gone or delivery is over). */
static bool dns_complete_begin(async_dns_req_t *dns)
{
	in_flight_remove(dns);
	if (dns->orphaned) {
		dns_free(dns);
		return false;
	}
	return !dns->detached;
}

static void dns_complete_end(async_dns_req_t *dns, void *result, uv_loop_t *loop)
{
	zend_async_event_t *event = &dns->ev.base;
	async__reactor_event_count_off(event);
	event->loop_ref_count = 0;
	ZEND_ASYNC_EVENT_SET_CLOSED(event);
	zend_object *error = dns->status != 0 ? failure_exception(dns) : NULL;
	ZEND_ASYNC_CALLBACKS_NOTIFY(event, result, error);
	if (error) {
		OBJ_RELEASE(error);
	}
	async__reactor_delivered(loop);
}

/* The resolver's own code (EAI_*), which PHP's messages are made of. libuv hands over its own
 * mapping of it (UV_EAI_*; a system error as -errno): map it back. glibc's EAI_* codes are
 * negative and overlap libuv's, so no libuv code leaks out. */
static int resolver_status(int uv_status)
{
	switch (uv_status) {
		case 0: return 0;
#ifdef EAI_ADDRFAMILY
		case UV_EAI_ADDRFAMILY: return EAI_ADDRFAMILY;
#endif
		case UV_EAI_AGAIN: return EAI_AGAIN;
		case UV_EAI_BADFLAGS: return EAI_BADFLAGS;
		case UV_EAI_FAIL: return EAI_FAIL;
		case UV_EAI_FAMILY: return EAI_FAMILY;
		case UV_EAI_MEMORY: return EAI_MEMORY;
#ifdef EAI_NODATA
		case UV_EAI_NODATA: return EAI_NODATA;
#endif
		case UV_EAI_NONAME: return EAI_NONAME;
		case UV_EAI_OVERFLOW: return EAI_OVERFLOW;
		case UV_EAI_SERVICE: return EAI_SERVICE;
		case UV_EAI_SOCKTYPE: return EAI_SOCKTYPE;
		default: return EAI_SYSTEM; /* a system error, a cancelled request */
	}
}

static void addrinfo_cb(uv_getaddrinfo_t *req, int status, struct addrinfo *res)
{
	async_dns_req_t *dns = req->data;
	if (!dns_complete_begin(dns)) {
		if (res) {
			uv_freeaddrinfo(res);
		}
		return;
	}
	dns->status = resolver_status(status);
	dns->ev.addrinfo.result = res;
	dns_complete_end(dns, res, req->loop);
}

static void nameinfo_cb(uv_getnameinfo_t *req, int status, const char *hostname, const char *service)
{
	async_dns_req_t *dns = req->data;
	if (!dns_complete_begin(dns)) {
		return;
	}
	dns->status = resolver_status(status);
	if (status == 0) {
		if (hostname) {
			dns->ev.nameinfo.hostname = zend_string_init(hostname, strlen(hostname), 0);
		}
		if (service) {
			dns->ev.nameinfo.service = zend_string_init(service, strlen(service), 0);
		}
	}
	dns_complete_end(dns, &dns->ev.nameinfo, req->loop);
}

/* Runs on a pool thread: gethostbyname_r() with a buffer that grows on ERANGE, answers copied
 * out so nothing points into the buffer. */
static void hostent_work(uv_work_t *req)
{
	async_dns_req_t *dns = req->data;
	struct hostent he, *hp = NULL;
	size_t len = 1024;
	char *buf = NULL;
	int rc, h_err = 0;

	do {
		char *grown = realloc(buf, len);
		if (grown == NULL) {
			rc = ENOMEM;
			break;
		}
		buf = grown;
		rc = gethostbyname_r(dns->node, &he, buf, len, &hp, &h_err);
		len *= 2;
	} while (rc == ERANGE && len <= 1024 * 1024);

	dns->work_out.count = 0;
	dns->work_out.addrs = NULL;
	if (rc != 0 || hp == NULL) {
		dns->work_out.h_err = h_err ? h_err : NO_RECOVERY;
		free(buf);
		return;
	}
	dns->work_out.h_err = 0;
	uint32_t n = 0;
	if (hp->h_addrtype == AF_INET) {
		while (hp->h_addr_list[n] != NULL) {
			n++;
		}
	}
	if (n > 0) {
		dns->work_out.addrs = malloc(n * sizeof(struct in_addr));
		if (dns->work_out.addrs != NULL) {
			for (uint32_t i = 0; i < n; i++) {
				memcpy(&dns->work_out.addrs[i], hp->h_addr_list[i], sizeof(struct in_addr));
			}
			dns->work_out.count = n;
		}
	}
	free(buf);
}

static void hostent_after(uv_work_t *req, int status)
{
	async_dns_req_t *dns = req->data;
	if (!dns_complete_begin(dns)) {
		return;
	}
	dns->status = status != 0 ? NO_RECOVERY : dns->work_out.h_err;
	dns->ev.hostent.count = dns->work_out.count;
	dns->ev.hostent.addrs = dns->work_out.addrs;
	dns_complete_end(dns, &dns->ev.hostent, req->loop);
}

/* ---------------------------------------------------------------------------------------------
 * Creation (the ABI slots and the hostent lookup)
 * ------------------------------------------------------------------------------------------- */

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

static zend_async_dns_addrinfo_t *reactor_getaddrinfo(const char *node, const char *service,
	const struct addrinfo *hints, size_t extra_size)
{
	uv_loop_t *loop = async__reactor_loop_or_throw();
	if (loop == NULL) {
		return NULL;
	}
	async_dns_req_t *dns = dns_new(DNS_ADDRINFO, extra_size);
	dns->node = dup_or_null(node);
	dns->service = dup_or_null(service);
	dns->ev.addrinfo.node = dns->node;
	dns->ev.addrinfo.service = dns->service;
	dns->req.ai.data = dns;
	int rc = uv_getaddrinfo(loop, &dns->req.ai, addrinfo_cb, dns->node, dns->service, hints);
	if (rc != 0) {
		dns_free(dns);
		throw_dns(rc, "Failed to resolve \"%s\": %s", node ? node : (service ? service : ""), uv_strerror(rc));
		return NULL;
	}
	in_flight_add(dns);
	return &dns->ev.addrinfo;
}

static zend_async_dns_nameinfo_t *reactor_getnameinfo(const struct sockaddr *addr, int flags, size_t extra_size)
{
	uv_loop_t *loop = async__reactor_loop_or_throw();
	if (loop == NULL) {
		return NULL;
	}
	async_dns_req_t *dns = dns_new(DNS_NAMEINFO, extra_size);
	dns->req.ni.data = dns;
	int rc = uv_getnameinfo(loop, &dns->req.ni, nameinfo_cb, addr, flags);
	if (rc != 0) {
		dns_free(dns);
		throw_dns(rc, "Failed to resolve %s%s", "an address: ", uv_strerror(rc));
		return NULL;
	}
	in_flight_add(dns);
	return &dns->ev.nameinfo;
}

static void reactor_freeaddrinfo(struct addrinfo *ai)
{
	if (ai) {
		uv_freeaddrinfo(ai);
	}
}

async_dns_hostent_t *async__dns_new_hostent(const char *name)
{
	uv_loop_t *loop = async__reactor_loop_or_throw();
	if (loop == NULL) {
		return NULL;
	}
	async_dns_req_t *dns = dns_new(DNS_HOSTENT, 0);
	dns->node = strdup(name);
	if (dns->node == NULL) {
		dns_free(dns);
		zend_throw_error(NULL, "Async: out of memory");
		return NULL;
	}
	dns->ev.hostent.name = dns->node;
	dns->req.work.data = dns;
	int rc = uv_queue_work(loop, &dns->req.work, hostent_work, hostent_after);
	if (rc != 0) {
		dns_free(dns);
		throw_dns(rc, "Failed to resolve \"%s\": %s", name, uv_strerror(rc));
		return NULL;
	}
	in_flight_add(dns);
	return &dns->ev.hostent;
}

int async__dns_status(zend_async_event_t *event)
{
	return DNS_FROM_EVENT(event)->status;
}

void async__reactor_dns_rshutdown(void)
{
	for (async_list_node_t *n = ASYNC_G(dns_in_flight).first; n != NULL; n = n->next) {
		async_dns_req_t *dns = ASYNC_LIST_ITEM(n, async_dns_req_t, link);
		dns->detached = true;
		dns_cancel_request(dns);
	}
}

zend_result async__reactor_dns_minit(void)
{
	/* Only these slots: the reactor's other slots stay as libuv_reactor.c registered them. */
	zend_async_reactor_api_t api = {
		.getaddrinfo = reactor_getaddrinfo,
		.getnameinfo = reactor_getnameinfo,
		.freeaddrinfo = reactor_freeaddrinfo,
	};
	/* false: another implementation of this ABI table is registered */
	return zend_async_reactor_register("libuv", false, &api) ? SUCCESS : FAILURE;
}
