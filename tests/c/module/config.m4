dnl A test-only extension that uses ext-async purely through zend_async_API.h, the way any other
dnl extension would. Built by scripts/test.sh; never installed.
PHP_ARG_ENABLE([async_abi_test], [whether to build the ext-async ABI test module],
  [AS_HELP_STRING([--enable-async-abi-test], [Build the ABI test module])], [no])

if test "$PHP_ASYNC_ABI_TEST" != "no"; then
  PHP_ADD_INCLUDE([$abs_srcdir/../../..])
  PKG_CHECK_MODULES([LIBUV], [libuv >= 1.44.0])
  PHP_EVAL_INCLINE($LIBUV_CFLAGS)
  PHP_NEW_EXTENSION(async_abi_test, [abi_test.c], $ext_shared)
fi
