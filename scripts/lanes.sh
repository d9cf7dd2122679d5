#!/usr/bin/env bash
# The heavier quality lanes, each printing its own "<lane>: N passed, N failed, N skipped" line.
# Usage: scripts/lanes.sh [lane ...]
#   valgrind      the suite under memcheck (USE_ZEND_ALLOC=0), release PHP
#   jit-tracing   opcache.jit=tracing, hot counters at 1
#   jit-function  opcache.jit=function
#   debug         a debug PHP built from Debian's source: every leak and failed assertion fails a test
#   asan          a PHP built with AddressSanitizer + UBSan, and the extension with the same flags
#   zts           a thread-safe PHP 8.2 (as FrankenPHP and the Docker "-zts" images run), built from
#                 Debian's source: the C unit tests of the ABI and the phpt suite (no php-fpm,
#                 phpredis or Xdebug build for it: those tests are named and left out)
#   chaos         the scenario matrix (scripts/chaos.sh, docs/chaos.md): every fault x client x
#                 moment, outcomes and times against tests/chaos/matrix.expect, nothing left behind
#   chaos-valgrind  the same, each child php under memcheck (USE_ZEND_ALLOC=0)
#   chaos-asan    the same with the ASan + UBSan PHP and extension of the asan lane
#   xdebug        Xdebug loaded (php8.2-xdebug) in its debug and coverage modes: observers and
#                 stack walkers see every coroutine switch (develop and profile run in
#                 tests/xdebug; the whole suite cannot: develop rewrites var_dump() output, and
#                 Xdebug 3.2's profiler crashes on exit() inside any Fiber, with or without us)
#   php-src       php-src's own tests of streams, files, network, sockets, curl, pcntl and general
#                 functions (Debian's php8.2 source package) run as they are and with each test's
#                 script inside a coroutine; every difference is classified, and an unexplained
#                 one fails the lane (scripts/php-src-tests.sh, docs/chaos.md). PHP 8.2 only
#   soak          the soak (scripts/soak.sh, tests/chaos/soak.php) for 30 minutes (SOAK_SECONDS):
#                 HTTP through the fault proxy, the PDO pool, channels, cancellations; RSS drift,
#                 descriptors and coroutines back to their baseline, only expected error classes
# Default: all of them. PHP builds are cached in $ASYNC_CACHE_DIR (default /var/cache/ext-async).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh" valgrind || exit 1
"$root/scripts/build.sh" --with-test-module || exit 1
# What this PHP's Debian suite does not package (on 8.5: Xdebug, phpredis): those tests are named
# and left out (scripts/run-phpt.sh).
ASYNC_LACKS=${ASYNC_LACKS-$("$root/scripts/setup.sh" --lacks)}
export ASYNC_LACKS

cache=${ASYNC_CACHE_DIR:-/var/cache/ext-async}
lanes=("$@")
[ ${#lanes[@]} -gt 0 ] || lanes=(valgrind jit-tracing jit-function debug asan xdebug zts chaos chaos-valgrind chaos-asan php-src soak)

# Builds the extension out of tree against a PHP built from source; prints the PHP's prefix.
source_build() { # flavour
  local flavour=$1 prefix
  prefix=$("$root/scripts/php-from-source.sh" "$flavour") || return 1
  local flags="" ldflags=""
  if [ "$flavour" = asan ]; then
    flags="-fsanitize=address,undefined -fno-omit-frame-pointer"
    ldflags="-fsanitize=address,undefined"
  fi
  PHPIZE="$prefix/bin/phpize" PHP_CONFIG="$prefix/bin/php-config" BUILD_DIR="$cache/ext-$flavour" \
    ASYNC_CFLAGS="$flags" ASYNC_LDFLAGS="$ldflags" "$root/scripts/build.sh" --with-test-module >/dev/null || return 1
  echo "$prefix"
}

# Builds the extension out of tree against a PHP built from source, then runs the suite with it.
source_lane() { # flavour [run-tests args]
  local flavour=$1 prefix
  prefix=$(source_build "$flavour") || return 1
  local mods="$cache/ext-$flavour"
  "$prefix/bin/php" -n -d "extension=$mods/modules/async.so" -d "extension=$mods/tests/c/module/modules/async_abi_test.so" \
    -r 'exit(async_abi_test_run() ? 0 : 1);' | sed "s/^/$flavour C unit tests: /" || return 1
  PHP="$prefix/bin/php" PHP_CONFIG="$prefix/bin/php-config" MODULE_ROOT="$cache/ext-$flavour" \
    RUN_TESTS_ARGS="${2:-}" "$root/scripts/run-phpt.sh" "$flavour"
}
status=0
for lane in "${lanes[@]}"; do
  case $lane in
    valgrind)
      # run-tests' -m runs each test under memcheck with USE_ZEND_ALLOC=0 and fails it on any
      # error or leak report.
      # run-tests cannot combine -m with parallel workers.
      # The private PostgreSQL, MariaDB and redis servers of the tests run natively (run-tests traces children):
      # a postmaster under memcheck takes minutes to start, and it is not what is tested.
      VALGRIND_OPTS="${VALGRIND_OPTS:-} --trace-children-skip=*/postgres,*/initdb,*/setpriv,*/pg_ctl,*/mariadbd,*/redis-server" \
        JOBS=1 ALLOW_SKIP=1 RUN_TESTS_ARGS="-m --set-timeout 300" "$root/scripts/run-phpt.sh" valgrind || status=1 ;;
    jit-tracing|jit-function)
      "$root/scripts/run-phpt.sh" "$lane" $("$root/scripts/jit-flags.sh" "${lane#jit-}") || status=1 ;;
    debug) source_lane debug || status=1 ;;
    # --asan runs without ZendMM, so the memory_limit tests skip there too. Extensions stay
    # loaded at exit (ZEND_DONT_UNLOAD_MODULES): LeakSanitizer then names their frames, and it
    # neither reports what an unloaded library's static pointers held (libpq's BIO method) nor
    # crashes on the thread-local blocks of a library unloaded under it (libpq's dependencies).
    asan) ZEND_DONT_UNLOAD_MODULES=1 ALLOW_SKIP=1 source_lane asan "--asan" || status=1 ;;
    # run-tests forces xdebug.mode=off when it sees Xdebug; the environment variable wins over it.
    xdebug)
      if [[ " $ASYNC_LACKS " == *" xdebug "* ]]; then
        echo "xdebug: not run: no Xdebug is packaged for PHP $(php -n -r 'echo PHP_MAJOR_VERSION, ".", PHP_MINOR_VERSION;')"
      else
        XDEBUG_MODE=debug,coverage "$root/scripts/run-phpt.sh" xdebug -d zend_extension=xdebug.so || status=1
      fi ;;
    zts) ASYNC_LACKS="xdebug redis fpm" source_lane zts || status=1 ;;
    chaos) CHAOS_LABEL=chaos "$root/scripts/chaos.sh" --selftest && CHAOS_LABEL=chaos "$root/scripts/chaos.sh" || status=1 ;;
    chaos-valgrind) CHAOS_LABEL=chaos-valgrind "$root/scripts/chaos.sh" --valgrind || status=1 ;;
    # Without ZendMM (as run-tests --asan), modules kept loaded at exit for LeakSanitizer (see asan);
    # timeouts and margins tripled (a TLS handshake byte by byte takes a second there). This PHP has no phpredis: the redis scenarios are skipped, named.
    chaos-asan)
      prefix=$(source_build asan) || { status=1; continue; }
      USE_ZEND_ALLOC=0 ZEND_DONT_UNLOAD_MODULES=1 CHAOS_SLOW=${CHAOS_SLOW:-3} CHAOS_LABEL=chaos-asan \
        PHP="$prefix/bin/php" MODULE_ROOT="$cache/ext-asan" "$root/scripts/chaos.sh" || status=1 ;;
    # Its tests are PHP 8.2's (the source package of this Debian suite): not run on another PHP.
    php-src)
      if [ "$(php -n -r 'echo PHP_MAJOR_VERSION, ".", PHP_MINOR_VERSION;')" != 8.2 ]; then
        echo "php-src: not run: php-src's tests are PHP 8.2's (Debian 12's source package)"
      else
        PHP=$(command -v php) MODULE="$root/modules/async.so" "$root/scripts/php-src-tests.sh" || status=1
      fi ;;
    soak) "$root/scripts/soak.sh" "${SOAK_SECONDS:-1800}" || status=1 ;;
    *) echo "unknown lane: $lane" >&2; status=1 ;;
  esac
done
exit $status
