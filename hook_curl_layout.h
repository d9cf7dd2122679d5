/*
 * hook_curl_layout.h — ext/curl's private object layouts, mirrored per PHP version.
 *
 * PHP does not install ext/curl's curl_private.h, yet curl_exec() must be re-done around a
 * CURL * and the handle's write buffer, error buffer and file handlers. These are copies of the
 * structures of the PHP versions this build knows (field for field; only names and types
 * matter). On any other version ASYNC_CURL_LAYOUT_KNOWN is 0 and curl stays stock; on a known
 * one hook_curl.c still checks the layout on a live handle before the hooks are used
 * (curl_layout_check()).
 */
#ifndef ASYNC_HOOK_CURL_LAYOUT_H
#define ASYNC_HOOK_CURL_LAYOUT_H

#include "php.h"
#include "zend_smart_str.h"
#include <curl/curl.h>

#if PHP_VERSION_ID >= 80200 && PHP_VERSION_ID < 80300
# define ASYNC_CURL_LAYOUT_KNOWN 1
#else
# define ASYNC_CURL_LAYOUT_KNOWN 0
#endif

#if ASYNC_CURL_LAYOUT_KNOWN

/* ext/curl's write/read methods (curl_private.h) */
#define ASYNC_CURL_STDOUT 0
#define ASYNC_CURL_FILE   1
#define ASYNC_CURL_USER   2
#define ASYNC_CURL_DIRECT 3
#define ASYNC_CURL_RETURN 4
#define ASYNC_CURL_IGNORE 7

typedef struct {
	zval func_name;
	zend_fcall_info_cache fci_cache;
	FILE *fp;
	smart_str buf;
	int method;
	zval stream;
} async_curl_write_t;

typedef struct {
	zval func_name;
	zend_fcall_info_cache fci_cache;
	FILE *fp;
	zend_resource *res;
	int method;
	zval stream;
} async_curl_read_t;

typedef struct {
	zval func_name;
	zend_fcall_info_cache fci_cache;
} async_curl_callback_t;

typedef struct {
	async_curl_write_t *write;
	async_curl_write_t *write_header;
	async_curl_read_t *read;
	zval std_err;
	async_curl_callback_t *progress;
	async_curl_callback_t *xferinfo;   /* PHP 8.2 needs libcurl >= 7.29, so always there */
	async_curl_callback_t *fnmatch;
} async_curl_handlers_t;

/* php_curl: a CurlHandle */
typedef struct {
	CURL *cp;
	async_curl_handlers_t handlers;
	void *to_free;
	struct {
		zend_string *str;
	} header;
	struct {
		char str[CURL_ERROR_SIZE + 1];
		int no;
	} err;
	bool in_callback;
	uint32_t *clone;
	zval postfields;
	zval private_data;
	void *share;
	zend_object std;
} async_curl_t;

/* php_curlm: a CurlMultiHandle */
typedef struct {
	CURLM *multi;
	zend_llist easyh;
	struct {
		void *server_push;
	} handlers;
	struct {
		int no;
	} err;
	zend_object std;
} async_curl_multi_t;

static zend_always_inline async_curl_t *async_curl_from_obj(zend_object *obj)
{
	return (async_curl_t *) ((char *) obj - XtOffsetOf(async_curl_t, std));
}

static zend_always_inline async_curl_multi_t *async_curl_multi_from_obj(zend_object *obj)
{
	return (async_curl_multi_t *) ((char *) obj - XtOffsetOf(async_curl_multi_t, std));
}

#endif /* ASYNC_CURL_LAYOUT_KNOWN */

#endif /* ASYNC_HOOK_CURL_LAYOUT_H */
