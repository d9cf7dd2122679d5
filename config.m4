dnl config.m4 for ext-async

PHP_ARG_ENABLE([async],
  [whether to enable the async runtime],
  [AS_HELP_STRING([--enable-async], [Enable coroutines, the scheduler and the libuv reactor])],
  [no])

PHP_ARG_ENABLE([async-lto],
  [whether to build the async runtime with link-time optimization],
  [AS_HELP_STRING([--disable-async-lto], [Build without link-time optimization])],
  [yes], [no])

if test "$PHP_ASYNC" != "no"; then
  PKG_CHECK_MODULES([LIBUV], [libuv >= 1.44.0])
  PHP_EVAL_INCLINE($LIBUV_CFLAGS)
  PHP_EVAL_LIBLINE($LIBUV_LIBS, ASYNC_SHARED_LIBADD)
  PHP_SUBST(ASYNC_SHARED_LIBADD)

  dnl The curl hooks need libcurl's headers only: libcurl itself is the one ext/curl loaded,
  dnl looked up at run time (hooks/curl_multi.c), so the module never links it.
  PKG_CHECK_MODULES([LIBCURL], [libcurl >= 7.61.0], [
    PHP_EVAL_INCLINE($LIBCURL_CFLAGS)
    AC_DEFINE([HAVE_ASYNC_CURL], [1], [Whether the curl hooks are built])
  ], [
    AC_MSG_WARN([libcurl headers not found (libcurl4-openssl-dev): curl_exec() will block in coroutines])
  ])

  dnl The PostgreSQL hooks need libpq's headers only, for its types: libpq itself is the one the
  dnl drivers (ext/pgsql, pdo_pgsql) loaded, looked up through their handles (hooks/pgsql.c).
  PKG_CHECK_MODULES([LIBPQ], [libpq >= 10], [
    PHP_EVAL_INCLINE($LIBPQ_CFLAGS)
    AC_DEFINE([HAVE_ASYNC_PGSQL], [1], [Whether the PostgreSQL hooks are built])
  ], [
    AC_MSG_WARN([libpq headers not found (libpq-dev): ext/pgsql and pdo_pgsql will block in coroutines])
  ])

  dnl The PDO pool needs PDO's headers (php8.x-dev installs them): PDO itself is the one PHP loaded,
  dnl found at MINIT by its class name, so the module never links pdo.so.
  AC_MSG_CHECKING([for PDO's driver header])
  ASYNC_PHP_INCLUDES=`$PHP_CONFIG --include-dir`
  if test -f "$ASYNC_PHP_INCLUDES/ext/pdo/php_pdo_driver.h"; then
    AC_DEFINE([HAVE_ASYNC_PDO_POOL], [1], [Whether the PDO pool is built])
    AC_MSG_RESULT([yes])
    dnl mysqlnd's headers (php8.x-dev installs them too): a pooled MySQL connection broken by a
    dnl cancellation is shut down on the wire at once (hooks/pdo_pool_sever.c).
    if test -f "$ASYNC_PHP_INCLUDES/ext/mysqlnd/mysqlnd_reverse_api.h"; then
      AC_DEFINE([HAVE_ASYNC_MYSQLND], [1], [Whether mysqlnd's headers are there])
    fi
  else
    AC_MSG_RESULT([no])
    AC_MSG_WARN([PDO's headers not found: PDO::ATTR_POOL_ENABLED will not exist])
  fi

  dnl Only the ABI (ZEND_API) and get_module() are exported: calls between the module's own files
  dnl and its globals then bind directly, not through the PLT and GOT (the switch path crosses
  dnl several files on every suspend).
  ASYNC_CC_FLAGS=""
  AX_CHECK_COMPILE_FLAG([-fvisibility=hidden], [ASYNC_CC_FLAGS="-fvisibility=hidden"])
  dnl PHP's and libuv's functions are called through the GOT, not a PLT stub: one jump less on
  dnl each (the switch path calls zend_fiber_switch_context() twice per round trip).
  AX_CHECK_COMPILE_FLAG([-fno-plt], [ASYNC_CC_FLAGS="$ASYNC_CC_FLAGS -fno-plt"])

  dnl A memset of a fixed size up to 1 KiB is a loop of vector stores, not `rep stos`: gcc's generic
  dnl tuning picks `rep stos` for a few hundred bytes, whose start-up costs ~35 cycles on x86, and
  dnl zeroing a new coroutine (416 bytes) was then ~4% of a whole await(spawn()) (~12 ns of 260).
  dnl Sizes known only at run time still call memset(). gcc on x86 only; others skip the flag.
  AX_CHECK_COMPILE_FLAG([-mmemset-strategy=vector_loop:1024:noalign,libcall:-1:noalign],
    [ASYNC_CC_FLAGS="$ASYNC_CC_FLAGS -mmemset-strategy=vector_loop:1024:noalign,libcall:-1:noalign"])

  dnl Link-time optimization: the hot paths cross files (a spawn runs through async.c, scope.c,
  dnl scheduler.c and coroutine.c; a finish through coroutine.c, coroutine_awaiter.c and scope.c),
  dnl and LTO inlines across them (await(spawn()) ~2% fewer instructions, 3-11% less time in
  dnl this machine's noisy runs).
  dnl The flag goes to the compile and to the link (libtool passes -flto through).
  if test "$PHP_ASYNC_LTO" != "no"; then
    AX_CHECK_COMPILE_FLAG([-flto=auto], [
      ASYNC_CC_FLAGS="$ASYNC_CC_FLAGS -flto=auto"
      ASYNC_SHARED_LIBADD="$ASYNC_SHARED_LIBADD -flto=auto"
    ])
  fi

  dnl Sources by layer (docs/architecture.md): the spine at the root, each layer's files in its
  dnl folder. config.w32 lists the same (scripts/check-layout.sh).
  PHP_NEW_EXTENSION(async,
    [async.c zend_async_API.c libuv_reactor.c scheduler.c coroutine.c pool.c channel.c \
     core/exceptions.c core/awaitable.c core/coroutine_output.c core/coroutine_autoload.c core/coroutine_finally.c core/coroutine_awaiter.c core/clock.c core/stack_arena.c core/wait.c core/main_end.c core/import.c core/workers.c core/iterator.c \
     reactor/timer.c reactor/poll.c reactor/io.c reactor/dns.c reactor/signal.c reactor/process.c reactor/fs_event.c reactor/work.c \
     classes/context.c classes/scope.c classes/future.c classes/timeout.c classes/task_group.c classes/task_group_join.c classes/iterate.c classes/virtual_time.c classes/await.c classes/signal_wait.c classes/fs_watcher.c classes/cpu.c classes/runtime_stats.c \
     hooks/functions.c hooks/cancel_on_top.c hooks/sleep.c hooks/dns.c hooks/sockets.c hooks/stream_transport.c hooks/stream_select.c hooks/stream_read.c hooks/pcntl.c hooks/curl.c hooks/curl_multi.c hooks/pgsql.c hooks/pgsql_conn.c hooks/pgsql_cancel.c hooks/pdo_pool.c hooks/pdo_pool_conn.c hooks/pdo_pool_stmt.c hooks/pdo_pool_sever.c hooks/persistent.c hooks/exec.c hooks/proc_wait.c hooks/stdio.c hooks/stdio_files.c hooks/stdio_lock.c hooks/stdio_wrapper.c hooks/stdio_pool.c hooks/watchdog.c hooks/dump.c hooks/time.c],
    $ext_shared,, [-DZEND_ENABLE_STATIC_TSRMLS_CACHE=1 -Wall -Wno-unused-parameter $ASYNC_CC_FLAGS])
  PHP_ADD_BUILD_DIR([$ext_builddir/core])
  PHP_ADD_BUILD_DIR([$ext_builddir/reactor])
  PHP_ADD_BUILD_DIR([$ext_builddir/classes])
  PHP_ADD_BUILD_DIR([$ext_builddir/hooks])
  PHP_INSTALL_HEADERS([ext/async], [zend_async_API.h async_io_wait.h async_import.h php_async.h async_ring.h])
fi
