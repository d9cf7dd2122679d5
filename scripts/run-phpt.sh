#!/usr/bin/env bash
# Runs the phpt suite once with the given extra php flags, and prints one summary line:
#   "<lane>: N passed, N failed, N skipped"
# Exit status is non-zero when a test failed, was skipped or borked.
# The tests run from a private copy of tests/, so several lanes can run at once.
# Usage: scripts/run-phpt.sh <lane-name> [php -d flags ...]
#   TESTS           test files or directories under tests/ (default: all of tests/)
#   PHP, PHP_CONFIG the PHP to test with;  MODULE_ROOT where the modules were built (default: repo)
#   JOBS            parallel workers (default 2);  RUN_TESTS_ARGS extra run-tests.php arguments
#   KEEP_LOG=FILE   keep run-tests' whole output there
#   ALLOW_SKIP=1    skips do not fail the lane (still counted and listed): the valgrind lane,
#                   where the memory_limit tests cannot run without ZendMM
#   Tests whose behaviour differs with the PHP version (destructors may switch from 8.4) come in
#   two files: NAME.php82.phpt for PHP < 8.4 (8.2 and 8.3), NAME.php84.phpt for PHP >= 8.4; the
#   other version's file is left out, and named.
#   ASYNC_LACKS     components this PHP's Debian suite does not package (scripts/setup.sh --lacks,
#                   e.g. "xdebug redis" on 8.5): the tests that need them are not run, and named
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
lane=$1; shift
PHP=${PHP:-php}
runner="$root/run-tests.php"
[ -f "$runner" ] || runner="$("${PHP_CONFIG:-php-config}" --extension-dir | sed 's#/[^/]*$##')/$("${PHP_CONFIG:-php-config}" --phpapi)/build/run-tests.php"
module_root=${MODULE_ROOT:-$root}
abi_module="$module_root/tests/c/module/modules/async_abi_test.so"
mods=(-d "extension=$module_root/modules/async.so")
[ -f "$abi_module" ] && mods+=(-d "extension=$abi_module")

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$root" && find tests -name '*.phpt' -o -name '*.inc' | grep -v '^tests/c/module/' | tar -cf - -T -) | tar -xf - -C "$work"
# The tests a missing component would only skip: left out, and said so (a skip is a failure here).
needs_pattern() {
  case $1 in
    xdebug) echo 'xdebug\.so' ;;
    redis) echo "servers_skip_reason\\('redis'" ;;
    fpm) echo 'fpm_skip_reason\(' ;;
    *) echo "run-phpt.sh: unknown component $1" >&2; echo '^$^' ;;
  esac
}
for c in ${ASYNC_LACKS:-}; do
  left=$(cd "$work" && grep -rlE "$(needs_pattern "$c")" tests --include='*.phpt' | sort)
  [ -z "$left" ] && continue
  (cd "$work" && rm -f $left)
  echo "$lane: not run (no $c for this PHP): $(echo $left)"
done
php_id=$("$PHP" -n -r 'echo PHP_VERSION_ID;')
# Known failures of one lane on one PHP version (tests/known-failures/LANE-phpX.Y.list): left out, and named.
known="$root/tests/known-failures/$lane-php$("$PHP" -n -r 'echo PHP_MAJOR_VERSION, ".", PHP_MINOR_VERSION;').list"
if [ -f "$known" ]; then
  while read -r test why; do
    [ -n "$test" ] || continue
    rm -f "$work/$test"
    echo "$lane: left out on this PHP, a known failure: $test ($why)"
  done < "$known"
fi
other=php84; [ "$php_id" -lt 80400 ] || other=php82
variants=$(cd "$work" && find tests -name "*.$other.phpt" | sort)
if [ -n "$variants" ]; then
  (cd "$work" && rm -f $variants)
  echo "$lane: $(grep -c . <<<"$variants") variants for the other side of PHP 8.4 left out: $(echo $variants)"
fi
targets=()
for t in ${TESTS:-tests}; do
  t=${t#"$root"/}
  targets+=("$work/$t")
done

log="$work/run.log"
export ASYNC_SO="$module_root/modules/async.so" # for tests that start a child php
export ASYNC_SRC_ROOT="$root" # for tests that need more of the repository than tests/ (tests/chaos)
NO_INTERACTION=1 TEST_PHP_EXECUTABLE=$(command -v "$PHP") "$PHP" -n "$runner" -n -p "$(command -v "$PHP")" \
  "${mods[@]}" "$@" -q --no-color -j"${JOBS:-2}" --show-diff ${RUN_TESTS_ARGS:-} "${targets[@]}" >"$log" 2>&1
rc=$?
[ -z "${KEEP_LOG:-}" ] || cp "$log" "$KEEP_LOG"
# Results follow run-tests' progress line after a carriage return: the log is read split there.
lines=$(tr '\r' '\n' < "$log" | sed "s#$work/##g")
results=$(grep -E '^(FAIL|SKIP|BORK) ' <<<"$lines" || true)
[ -z "$results" ] || printf '%s\n' "$results"
# A leak valgrind reports (-m) is a failure: list the tests under LEAK.
sed -n '/^LEAKED TEST SUMMARY/,/^=====/p' <<<"$lines" | grep -E '\[.*\.phpt\]' | sed 's#^#LEAK #' || true
count() { grep -E "^Tests $1" "$log" | grep -oE '[0-9]+' | head -1; }
passed=$(count passed); failed=$(count failed); skipped=$(count skipped); leaked=$(count leaked)
borked=$(grep -cE '^BORK ' <<<"$results" || true)
passed=${passed:-0}; failed=${failed:-0}; skipped=${skipped:-0}; leaked=${leaked:-0}
failed=$((failed + leaked))
if [ "$passed" = 0 ] && [ "$failed" = 0 ]; then
  tail -40 "$log"
  failed=1
fi
if [ "$failed" != 0 ] || [ "${SHOW_LOG:-0}" = 1 ]; then
  sed -n '/^========DIFF========/,/^========DONE========/p' "$log" | head -400
fi
# run-tests retries a failed test once when it looks timing-related (uses hrtime/usleep, or its
# output says "timed out"/"deadlock"); a pass on the retry is WARNED and counted nowhere. List them:
# they are flaky tests to fix, not passes.
# Each appears twice (after the progress line's carriage return and in the summary): one per test.
retries=$(grep -E '^WARN .*warn: Test passed on retry attempt' <<<"$lines" | sort -u || true)
retried=$(grep -c . <<<"$retries" || true)
[ -z "$retries" ] || sed 's/^WARN /RETRIED /' <<<"$retries"
suffix=""
[ "${retried:-0}" = 0 ] || suffix=", $retried passed only on retry (flaky)"
echo "$lane: $passed passed, $failed failed, $skipped skipped$suffix"
[ "$skipped" = 0 ] || [ "${ALLOW_SKIP:-0}" = 1 ] || exit 1
[ "$rc" = 0 ] && [ "$failed" = 0 ] && [ "$borked" = 0 ]
