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
  dnl looked up at run time (hook_curl_multi.c), so the module never links it.
  PKG_CHECK_MODULES([LIBCURL], [libcurl >= 7.61.0], [
    PHP_EVAL_INCLINE($LIBCURL_CFLAGS)
    AC_DEFINE([HAVE_ASYNC_CURL], [1], [Whether the curl hooks are built])
  ], [
    AC_MSG_WARN([libcurl headers not found (libcurl4-openssl-dev): curl_exec() will block in coroutines])
  ])

  dnl The PostgreSQL hooks need libpq's headers only, for its types: libpq itself is the one the
  dnl drivers (ext/pgsql, pdo_pgsql) loaded, looked up through their handles (hook_pgsql.c).
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

  dnl Sources by layer (docs/architecture.md); config.w32 lists the same (scripts/check-layout.sh).
  PHP_NEW_EXTENSION(async,
    [async.c \
     zend_async_API.c \
     exceptions.c awaitable.c coroutine.c coroutine_output.c coroutine_autoload.c coroutine_finally.c coroutine_awaiter.c clock.c stack_arena.c scheduler.c async_wait.c main_end.c async_import.c \
     reactor.c reactor_timer.c reactor_poll.c reactor_io.c reactor_dns.c reactor_signal.c reactor_process.c reactor_fs_event.c reactor_work.c \
     context.c scope.c future.c timeout.c channel.c pool.c task_group.c task_group_join.c task_group_iterator.c iterate.c virtual_time.c await.c signal_wait.c fs_watcher.c cpu.c runtime_stats.c \
     hook_functions.c hook_sleep.c hook_dns.c hook_sockets.c hook_stream_transport.c hook_stream_select.c hook_pcntl.c hook_curl.c hook_curl_multi.c hook_pgsql.c hook_pgsql_conn.c hook_pgsql_cancel.c hook_pdo_pool.c hook_pdo_pool_conn.c hook_pdo_pool_stmt.c hook_persistent.c hook_exec.c hook_proc_wait.c hook_stdio.c hook_stdio_files.c hook_stdio_lock.c hook_stdio_wrapper.c hook_stdio_pool.c hook_watchdog.c hook_dump.c hook_time.c],
    $ext_shared,, [-DZEND_ENABLE_STATIC_TSRMLS_CACHE=1 -Wall -Wno-unused-parameter $ASYNC_CC_FLAGS])
  PHP_INSTALL_HEADERS([ext/async], [zend_async_API.h async_io_wait.h async_import.h php_async.h async_ring.h])
fi
