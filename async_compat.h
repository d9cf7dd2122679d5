/*
 * async_compat.h — what differs between the PHP versions the module builds against (8.2 to 8.5),
 * in one place (header-only, no layer: any file may include it).
 *
 * Every PHP_VERSION_ID test of the module is here. The rest of the code asks for a capability
 * (ASYNC_EXIT_IS_FUNCTION), or calls a wrapper that has one body per version
 * (async_compat_parse_arg_func()); it never names a version. Tests are ">= first version that
 * has it", so a version between two tested ones (8.3) takes the branch of the older one unless
 * the change landed in it, and a newer one takes the newest branch.
 *
 * Where the change landed is written beside each test; the layouts the module mirrors from
 * PHP's private sources (ext/openssl's stream data, the fiber stack) are checked on live objects
 * where a wrong guess would do harm.
 */
#ifndef ASYNC_COMPAT_H
#define ASYNC_COMPAT_H

#include "php.h"
#include "zend_API.h"

#if PHP_VERSION_ID < 80200
# error "ext-async needs PHP 8.2 or later"
#endif

/* P5: zend_fiber_init_context() returns bool on 8.2 and zend_result from 8.3 on. */
#if PHP_VERSION_ID >= 80300
# define ASYNC_FIBER_INIT_OK(call) ((call) == SUCCESS)
#else
# define ASYNC_FIBER_INIT_OK(call) (call)
#endif

/* 8.3: zend_fcall_info_cache has a closure member (the Closure object the cache came from). */
#define ASYNC_FCC_HAS_CLOSURE (PHP_VERSION_ID >= 80300)

/* 8.4: fiber switches inside destructors are allowed (zend_fiber_switch_block() around
 * destructor calls is gone: refcount, GC and shutdown destructors alike); 8.2 and 8.3 forbid them
 * (P9). zend_fiber_switch_blocked() tells either way; this only picks the words of messages. */
#define ASYNC_DESTRUCTORS_MAY_SWITCH (PHP_VERSION_ID >= 80400)
#if ASYNC_DESTRUCTORS_MAY_SWITCH
/* from 8.4 only PHP's own code blocks it (a user error handler called from inside a socket call) */
# define ASYNC_SWITCH_BLOCKED_WHERE "while PHP's own code runs a user handler"
#else
# define ASYNC_SWITCH_BLOCKED_WHERE "inside a destructor"
#endif

/* 8.4: internal functions may have frameless variants, which the VM calls without going
 * through the handler (P18). */
#define ASYNC_HAVE_FRAMELESS (PHP_VERSION_ID >= 80400)

/* 8.4: exit() and die() are functions (zif_exit); before, the ZEND_EXIT opcode. */
#define ASYNC_EXIT_IS_FUNCTION (PHP_VERSION_ID >= 80400)

/* 8.5: php_shutdown_function_entry holds only a fcall info cache (and the arguments); before, a
 * zend_fcall_info too, whose function_name names the callable. */
#define ASYNC_SHUTDOWN_ENTRY_HAS_FCI (PHP_VERSION_ID < 80500)

/* zend_parse_arg_func() got a sixth argument in 8.4: whether a trampoline made for the lookup may
 * be freed (true: the caller keeps only the fci/fcc, as Z_PARAM_FUNC does). */
static zend_always_inline bool async_compat_parse_arg_func(zval *arg, zend_fcall_info *fci,
	zend_fcall_info_cache *fcc, char **error)
{
#if PHP_VERSION_ID >= 80400
	return zend_parse_arg_func(arg, fci, fcc, false, error, true);
#else
	return zend_parse_arg_func(arg, fci, fcc, false, error);
#endif
}

/* The layout of ext/openssl's private stream data (ext/openssl/xp_ssl.c,
 * php_openssl_netstream_data_t) that the TLS hooks read: unchanged from 8.2 to 8.5. A version
 * past the newest this build was tested on keeps ext/openssl's streams PHP's own. */
#define ASYNC_OPENSSL_LAYOUT_KNOWN (PHP_VERSION_ID < 80600)

/* The private zend_fiber_stack of Zend/zend_fibers.c that an arena stack is presented as
 * (coroutine.h mirrors it): the same fields from 8.2 to 8.5. */
#define ASYNC_FIBER_STACK_LAYOUT_KNOWN (PHP_VERSION_ID < 80600)

/* 8.5: a PDOStatement's PDO object and its lazy row are zend_object pointers (before, zvals). */
#define ASYNC_PDO_STMT_OBJECT_POINTERS (PHP_VERSION_ID >= 80500)

#endif /* ASYNC_COMPAT_H */
