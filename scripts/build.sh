#!/usr/bin/env bash
# Builds modules/async.so with phpize, and the test-only ABI module beside it.
# Usage: scripts/build.sh [--with-test-module]   (PHPIZE/PHP_CONFIG override the toolchain)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
PHPIZE=${PHPIZE:-phpize}
PHP_CONFIG=${PHP_CONFIG:-php-config}
jobs=$(nproc 2>/dev/null || echo 2)

build_ext() { # dir configure-flag
  local dir=$1 flag=$2
  cd "$dir"
  # Reconfigure when the PHP we build against changed (e.g. a debug PHP lane).
  if [ ! -f Makefile ] || [ ! -f .built-against ] || [ "$(cat .built-against)" != "$($PHP_CONFIG --prefix)" ]; then
    [ -f Makefile ] && make distclean >/dev/null 2>&1 || true
    "$PHPIZE" >/dev/null 2>&1
    ./configure --with-php-config="$(command -v "$PHP_CONFIG")" "$flag" ${ASYNC_CONFIGURE_FLAGS:-} >/dev/null
    "$PHP_CONFIG" --prefix > .built-against
  fi
  make -j"$jobs" >/dev/null
}

build_ext "$root" --enable-async
if [ "${1:-}" = "--with-test-module" ]; then
  build_ext "$root/tests/c/module" --enable-async-abi-test
fi
echo "built: $root/modules/async.so"
