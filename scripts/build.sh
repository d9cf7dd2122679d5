#!/usr/bin/env bash
# Builds modules/async.so with phpize, and the test-only ABI module beside it.
# Usage: scripts/build.sh [--with-test-module]
#   PHPIZE / PHP_CONFIG  build against another PHP (e.g. a debug build from php-from-source.sh)
#   BUILD_DIR            build out of tree: the sources are copied there first, the repo is untouched
#   ASYNC_CFLAGS         extra compiler flags (e.g. -fsanitize=address)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
PHPIZE=${PHPIZE:-phpize}
PHP_CONFIG=${PHP_CONFIG:-php-config}
jobs=$(nproc 2>/dev/null || echo 2)
src=$root
if [ -n "${BUILD_DIR:-}" ]; then
  mkdir -p "$BUILD_DIR"
  # Only the sources: tracked files plus untracked, not ignored ones.
  (cd "$root" && { git ls-files; git ls-files --others --exclude-standard; } 2>/dev/null | sort -u \
    | grep -E '\.(c|h|m4|w32|php|phpt|inc)$' | tar -cf - -T -) | tar -xf - -C "$BUILD_DIR"
  src=$BUILD_DIR
fi

build_ext() { # dir configure-flag
  local dir=$1 flag=$2
  cd "$dir"
  # Reconfigure also when config.m4 changed (a new source file).
  local stamp="$($PHP_CONFIG --prefix) ${ASYNC_CFLAGS:-} $(cksum < config.m4)"
  # Reconfigure when the PHP or the flags we build with changed.
  if [ ! -f Makefile ] || [ ! -f .built-against ] || [ "$(cat .built-against)" != "$stamp" ]; then
    [ -f Makefile ] && make distclean >/dev/null 2>&1 || true
    "$PHPIZE" >/dev/null 2>&1
    CFLAGS="-g -O2 ${ASYNC_CFLAGS:-}" LDFLAGS="${ASYNC_LDFLAGS:-}" \
      ./configure --with-php-config="$(command -v "$PHP_CONFIG")" "$flag" >/dev/null
    echo "$stamp" > .built-against
  fi
  make -j"$jobs" >/dev/null
}

build_ext "$src" --enable-async
if [ "${1:-}" = "--with-test-module" ]; then
  build_ext "$src/tests/c/module" --enable-async-abi-test
fi
echo "built: $src/modules/async.so"
