/*
 * hooks/stream_read.c — reads on socket streams wait before PHP allocates what they ask for.
 *
 * fread($conn, 65536) allocates its 64 KiB (php_stream_read_to_str()) and only then calls the
 * stream's read op, where a coroutine waits for data (hooks/stream_transport.c). An idle
 * keep-alive connection held those 64 KiB for as long as it was idle, and about two thousand
 * idle connections exhausted a 128 MiB memory limit. The functions that allocate the whole
 * length before they read are hooked here: inside a coroutine, on a socket stream of ours, a read
 * that would have to wait waits first, with nothing allocated (async__net_read_wait(): readiness,
 * the stream's timeout and cancellation, exactly as the read op waits; the stream's empty read
 * buffer is given back meanwhile), then PHP's own function runs and finds the data (or the
 * timeout) at once: what it allocates lives for one read, not for the wait.
 *
 * - fread($s, $length), fgets($s, $length), fgetcsv($s, $length, ...) and
 *   stream_socket_recvfrom($s, $length, ...): one wait first, then PHP's function; so do
 *   fgets($s) and stream_get_line(), which allocate as the data comes, for the stream's read
 *   buffer that the wait gives back;
 * - stream_get_contents($s, $length) reads until $length bytes or the end, so PHP would hold the
 *   whole length across every wait: in a coroutine, on a socket stream of ours, its loop runs
 *   here with a buffer that grows with what arrived (doubling, up to $length), each read after
 *   its own wait.
 *
 * What the hook does not recognise goes straight to PHP's function, so messages and behaviour
 * stay PHP's: arguments of other types (which PHP coerces or rejects), a stream that is not a
 * socket stream of ours, non-blocking streams, data already buffered, and everything outside a
 * coroutine. A read that must wait in the middle of what it reads (fgets() of a line that comes
 * in pieces, fread() after part of the length was buffered) still waits inside PHP's function.
 *
 * Handlers are swapped at MINIT only (P18).
 */
#include "php_async.h"
#include "hooks/hooks.h"
#include "core/core.h"
#include "ext/standard/file.h"

static ZEND_FUNCTION(async_fread);
static ZEND_FUNCTION(async_fgets);
static ZEND_FUNCTION(async_fgetcsv);
static ZEND_FUNCTION(async_stream_get_contents);
static ZEND_FUNCTION(async_stream_socket_recvfrom);
static ZEND_FUNCTION(async_stream_get_line);

enum { HOOK_FREAD, HOOK_FGETS, HOOK_FGETCSV, HOOK_GET_CONTENTS, HOOK_RECVFROM, HOOK_GET_LINE };
/* per-process: the function table's handlers are swapped at MINIT */
static async_function_hook_t hooks[] = {
	[HOOK_FREAD] = { "fread", ZEND_FN(async_fread), NULL },
	[HOOK_FGETS] = { "fgets", ZEND_FN(async_fgets), NULL },
	[HOOK_FGETCSV] = { "fgetcsv", ZEND_FN(async_fgetcsv), NULL },
	[HOOK_GET_CONTENTS] = { "stream_get_contents", ZEND_FN(async_stream_get_contents), NULL },
	[HOOK_RECVFROM] = { "stream_socket_recvfrom", ZEND_FN(async_stream_socket_recvfrom), NULL },
	[HOOK_GET_LINE] = { "stream_get_line", ZEND_FN(async_stream_get_line), NULL },
};

#define ORIGINAL(which) do { \
		hooks[which].original(INTERNAL_FUNCTION_PARAM_PASSTHRU); \
		return; \
	} while (0)

/* The first growth step of stream_get_contents()'s buffer: PHP's own chunk. */
#define GET_CONTENTS_FIRST 8192

/* ---------------------------------------------------------------------------------------------
 * The arguments, read as they are: only exact types are taken, the rest is PHP's to judge.
 * ------------------------------------------------------------------------------------------- */

static zval *arg(zend_execute_data *execute_data, uint32_t n)
{
	zval *z = ZEND_CALL_ARG(execute_data, n);
	ZVAL_DEREF(z);
	return z;
}

/* The stream of argument 1, or NULL (not a live stream: PHP's function reports it). */
static php_stream *arg_stream(zend_execute_data *execute_data)
{
	zval *z = arg(execute_data, 1);
	if (Z_TYPE_P(z) != IS_RESOURCE) {
		return NULL;
	}
	return (php_stream *) zend_fetch_resource2(Z_RES_P(z), NULL, php_file_le_stream(), php_file_le_pstream());
}

/* Argument n is an int above 0. */
static bool arg_length(zend_execute_data *execute_data, uint32_t n)
{
	zval *z = arg(execute_data, n);
	return Z_TYPE_P(z) == IS_LONG && Z_LVAL_P(z) > 0;
}

/* Argument n is a string of `min` to `max` bytes. */
static bool arg_short_string(zend_execute_data *execute_data, uint32_t n, size_t min, size_t max)
{
	zval *z = arg(execute_data, n);
	return Z_TYPE_P(z) == IS_STRING && Z_STRLEN_P(z) >= min && Z_STRLEN_P(z) <= max;
}

/* In a coroutine, a socket stream of ours in argument 1 (the rest is decided by the wait). */
static php_stream *hooked_stream(zend_execute_data *execute_data)
{
	if (ZEND_ASYNC_G(coroutine) == NULL) {
		return NULL;
	}
	php_stream *stream = arg_stream(execute_data);
	return stream != NULL && async__net_stream_owned(stream) ? stream : NULL;
}

/* ---------------------------------------------------------------------------------------------
 * One wait, then PHP's function
 * ------------------------------------------------------------------------------------------- */

/* fread(resource $stream, int $length): string|false */
static ZEND_FUNCTION(async_fread)
{
	php_stream *stream;
	if (ZEND_NUM_ARGS() != 2 || !arg_length(execute_data, 2) || (stream = hooked_stream(execute_data)) == NULL) {
		ORIGINAL(HOOK_FREAD);
	}
	switch (async__net_read_wait(stream)) {
		case ASYNC_NET_READ_CLOSED:
			RETURN_EMPTY_STRING(); /* what the read op answers for a stream closed under it */
		case ASYNC_NET_READ_THROWN:
			RETURN_THROWS();
	}
	ORIGINAL(HOOK_FREAD);
}

/* fgets(resource $stream, ?int $length = null): string|false. Without a length PHP allocates as
 * the line arrives, but the stream's read buffer (8 KiB) would be held through the wait: the wait
 * first gives it back too. */
static ZEND_FUNCTION(async_fgets)
{
	uint32_t argc = ZEND_NUM_ARGS();
	php_stream *stream;
	if (argc < 1 || argc > 2 || (argc == 2 && Z_TYPE_P(arg(execute_data, 2)) != IS_NULL && !arg_length(execute_data, 2))
		|| (stream = hooked_stream(execute_data)) == NULL) {
		ORIGINAL(HOOK_FGETS);
	}
	switch (async__net_read_wait(stream)) {
		case ASYNC_NET_READ_CLOSED:
			RETURN_FALSE;
		case ASYNC_NET_READ_THROWN:
			RETURN_THROWS();
	}
	ORIGINAL(HOOK_FGETS);
}

/* fgetcsv(resource $stream, ?int $length = null, string $separator = ",", string $enclosure = "\"",
 * string $escape = "\\"): array|false; a length of null or 0 allocates as the line arrives. The
 * characters are taken only when PHP would accept them, so a bad one is still refused before
 * anything is read. */
static ZEND_FUNCTION(async_fgetcsv)
{
	uint32_t argc = ZEND_NUM_ARGS();
	php_stream *stream;
	if (argc < 2 || argc > 5 || !arg_length(execute_data, 2)
		|| (argc >= 3 && !arg_short_string(execute_data, 3, 1, 1))
		|| (argc >= 4 && !arg_short_string(execute_data, 4, 1, 1))
		|| (argc >= 5 && !arg_short_string(execute_data, 5, 0, 1))
		|| (stream = hooked_stream(execute_data)) == NULL) {
		ORIGINAL(HOOK_FGETCSV);
	}
	switch (async__net_read_wait(stream)) {
		case ASYNC_NET_READ_CLOSED:
			RETURN_FALSE;
		case ASYNC_NET_READ_THROWN:
			RETURN_THROWS();
	}
	ORIGINAL(HOOK_FGETCSV);
}

/* stream_socket_recvfrom(resource $socket, int $length, int $flags = 0, &$address = null):
 * string|false. Out-of-band data is not announced by readability: that stays PHP's. */
static ZEND_FUNCTION(async_stream_socket_recvfrom)
{
	uint32_t argc = ZEND_NUM_ARGS();
	php_stream *stream;
	if (argc < 2 || argc > 4 || !arg_length(execute_data, 2)
		|| (argc >= 3 && (Z_TYPE_P(arg(execute_data, 3)) != IS_LONG || (Z_LVAL_P(arg(execute_data, 3)) & STREAM_OOB)))
		|| (stream = hooked_stream(execute_data)) == NULL) {
		ORIGINAL(HOOK_RECVFROM);
	}
	switch (async__net_read_wait(stream)) {
		case ASYNC_NET_READ_CLOSED:
			if (argc >= 4) {
				zval *address = ZEND_CALL_ARG(execute_data, 4);
				ZEND_TRY_ASSIGN_REF_NULL(address);
			}
			RETURN_FALSE;
		case ASYNC_NET_READ_THROWN:
			RETURN_THROWS();
	}
	ORIGINAL(HOOK_RECVFROM);
}

/* stream_get_line(resource $stream, int $length, string $ending = ""): string|false; PHP fills the
 * stream's buffer as the record arrives: the wait first gives that buffer back while it is idle. */
static ZEND_FUNCTION(async_stream_get_line)
{
	uint32_t argc = ZEND_NUM_ARGS();
	php_stream *stream;
	if (argc < 2 || argc > 3 || Z_TYPE_P(arg(execute_data, 2)) != IS_LONG || Z_LVAL_P(arg(execute_data, 2)) < 0
		|| (argc == 3 && Z_TYPE_P(arg(execute_data, 3)) != IS_STRING)
		|| (stream = hooked_stream(execute_data)) == NULL) {
		ORIGINAL(HOOK_GET_LINE);
	}
	switch (async__net_read_wait(stream)) {
		case ASYNC_NET_READ_CLOSED:
			RETURN_FALSE;
		case ASYNC_NET_READ_THROWN:
			RETURN_THROWS();
	}
	ORIGINAL(HOOK_GET_LINE);
}

/* ---------------------------------------------------------------------------------------------
 * stream_get_contents(resource $stream, ?int $length = null, int $offset = -1): string|false
 * ------------------------------------------------------------------------------------------- */

/* _php_stream_copy_to_mem()'s loop for a length, with a buffer that grows with what arrived:
 * reads until `maxlen` bytes or the end of the stream, each read after its own wait. NULL when
 * nothing was read (PHP's function then returns ""); an exception may be set. */
static zend_string *get_contents(php_stream *stream, size_t maxlen)
{
	zend_string *result = NULL;
	size_t len = 0, size = 0;
	while (len < maxlen && !php_stream_eof(stream)) {
		int w = async__net_read_wait(stream);
		if (w != ASYNC_NET_READ_GO) {
			break; /* closed meanwhile (touch nothing: the end of the stream), or cancelled */
		}
		if (len == size) {
			size = size == 0 ? MIN(maxlen, GET_CONTENTS_FIRST) : (size > maxlen / 2 ? maxlen : size * 2);
			result = result == NULL ? zend_string_alloc(size, 0) : zend_string_realloc(result, size, 0);
		}
		ssize_t n = php_stream_read(stream, ZSTR_VAL(result) + len, size - len);
		if (n <= 0) {
			break;
		}
		len += (size_t) n;
	}
	if (len == 0) {
		if (result != NULL) {
			zend_string_efree(result);
		}
		return NULL;
	}
	if (len < size / 2) {
		result = zend_string_truncate(result, len, 0);
	}
	ZSTR_LEN(result) = len;
	ZSTR_VAL(result)[len] = '\0';
	return result;
}

static ZEND_FUNCTION(async_stream_get_contents)
{
	uint32_t argc = ZEND_NUM_ARGS();
	php_stream *stream;
	if (argc < 2 || argc > 3 || !arg_length(execute_data, 2)
		|| (argc == 3 && (Z_TYPE_P(arg(execute_data, 3)) != IS_LONG || Z_LVAL_P(arg(execute_data, 3)) != -1))
		|| (stream = hooked_stream(execute_data)) == NULL) {
		ORIGINAL(HOOK_GET_CONTENTS);
	}
	zend_string *contents = get_contents(stream, (size_t) Z_LVAL_P(arg(execute_data, 2)));
	if (EG(exception)) {
		if (contents != NULL) {
			zend_string_efree(contents);
		}
		RETURN_THROWS();
	}
	if (contents == NULL) {
		RETURN_EMPTY_STRING();
	}
	RETURN_NEW_STR(contents);
}

/* ---------------------------------------------------------------------------------------------
 * Install
 * ------------------------------------------------------------------------------------------- */

zend_result async__hook_stream_read_minit(void)
{
	async__function_hooks_install(hooks, sizeof(hooks) / sizeof(hooks[0]));
	return SUCCESS;
}

void async__hook_stream_read_mshutdown(void)
{
	async__function_hooks_uninstall(hooks, sizeof(hooks) / sizeof(hooks[0]));
}
