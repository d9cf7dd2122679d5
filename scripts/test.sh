#!/usr/bin/env bash
# One command on a fresh Debian 12 machine: install what is missing, build, run the whole suite:
# the C unit tests of the ABI, the phpt suite, and the phpt suite again under opcache's tracing
# JIT (hot thresholds at 1). Heavier lanes (valgrind, debug PHP, sanitizers): scripts/lanes.sh.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh" || exit 1
"$root/scripts/build.sh" --with-test-module || exit 1

status=0
echo "== C unit tests (zend_async_API) =="
php -n -d extension="$root/modules/async.so" -d extension="$root/tests/c/module/modules/async_abi_test.so" \
  -r 'exit(async_abi_test_run() ? 0 : 1);' || status=1

echo "== phpt suite =="
"$root/scripts/run-phpt.sh" phpt || status=1

echo "== phpt suite, tracing JIT =="
"$root/scripts/run-phpt.sh" jit-tracing $("$root/scripts/jit-flags.sh" tracing) || status=1

[ $status = 0 ] && echo "ALL LANES PASSED" || echo "SOME LANES FAILED"
exit $status
