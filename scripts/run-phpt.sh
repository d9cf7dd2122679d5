#!/usr/bin/env bash
# Runs the phpt suite once with the given extra php flags, and prints one summary line:
#   "<lane>: N passed, N failed, N skipped"
# Exit status is non-zero when a test failed, was skipped or borked.
# Usage: scripts/run-phpt.sh <lane-name> [php -d flags ...]   (TESTS, PHP, RUN_TESTS_ARGS override)
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
lane=$1; shift
PHP=${PHP:-php}
tests=${TESTS:-$root/tests}
runner="$root/run-tests.php"
[ -f "$runner" ] || runner="$(dirname "$(command -v phpize)")/../lib/php/build/run-tests.php"
[ -f "$runner" ] || runner="$("${PHP_CONFIG:-php-config}" --extension-dir | sed 's#/[^/]*$##')/$("${PHP_CONFIG:-php-config}" --phpapi)/build/run-tests.php"
abi_module="$root/tests/c/module/modules/async_abi_test.so"
mods=(-d "extension=$root/modules/async.so")
[ -f "$abi_module" ] && mods+=(-d "extension=$abi_module")

log=$(mktemp)
NO_INTERACTION=1 TEST_PHP_EXECUTABLE=$(command -v "$PHP") "$PHP" -n "$runner" -n -p "$(command -v "$PHP")" \
  "${mods[@]}" "$@" -q -j"${JOBS:-2}" --show-diff ${RUN_TESTS_ARGS:-} $tests >"$log" 2>&1
rc=$?
grep -E '^(FAIL|SKIP|BORK|LEAK)' "$log" || true
count() { grep -E "^Tests $1" "$log" | grep -oE '[0-9]+' | head -1; }
passed=$(count passed); failed=$(count failed); skipped=$(count skipped)
borked=$(grep -cE '^BORK' "$log" || true)
passed=${passed:-0}; failed=${failed:-0}; skipped=${skipped:-0}
if [ "$passed" = 0 ] && [ "$failed" = 0 ]; then
  tail -40 "$log"
  failed=1
fi
if [ "$failed" != 0 ] || [ "${SHOW_LOG:-0}" = 1 ]; then
  sed -n '/^========DIFF========/,/^========DONE========/p' "$log" | head -400
fi
rm -f "$log"
echo "$lane: $passed passed, $failed failed, $skipped skipped"
[ "$rc" = 0 ] && [ "$failed" = 0 ] && [ "$skipped" = 0 ] && [ "$borked" = 0 ]
