dnl config.m4 for ext-async

PHP_ARG_ENABLE([async],
  [whether to enable the async runtime],
  [AS_HELP_STRING([--enable-async], [Enable coroutines, the scheduler and the libuv reactor])],
  [no])

if test "$PHP_ASYNC" != "no"; then
  PKG_CHECK_MODULES([LIBUV], [libuv >= 1.44.0])
  PHP_EVAL_INCLINE($LIBUV_CFLAGS)
  PHP_EVAL_LIBLINE($LIBUV_LIBS, ASYNC_SHARED_LIBADD)
  PHP_SUBST(ASYNC_SHARED_LIBADD)

  PHP_NEW_EXTENSION(async,
    [async.c zend_async_API.c exceptions.c coroutine.c scheduler.c libuv_reactor.c context.c sleep.c function_hooks.c pool.c channel.c future.c timeout.c scope.c misc.c signal.c reactor_signal.c cpu.c task_group.c await_all.c iterate.c reactor_dns.c dns.c sockets_hooks.c reactor_poll.c net_transport.c net_select.c reactor_io.c],
    $ext_shared,, [-DZEND_ENABLE_STATIC_TSRMLS_CACHE=1 -Wall -Wno-unused-parameter])
  PHP_INSTALL_HEADERS([ext/async], [zend_async_API.h php_async.h])
fi
