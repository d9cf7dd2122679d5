#!/usr/bin/env bash
# The whole suite on the PHP of this machine (scripts/test.sh runs it on every supported version):
# install what is missing, build, run
# the layering rules (scripts/check-layout.sh, on the objects just built) and its self-test, the
# packaging metadata (scripts/check-package.sh), the C
# unit tests of the ABI, the phpt suite, the phpt suite again under opcache's tracing JIT
# (hot thresholds at 1), a bounded run of the stress fuzzer, and a soak of SOAK_SECONDS (default
# 120; 0 leaves it out; scripts/soak.sh). Heavier lanes (valgrind, debug PHP, sanitizers, the
# function JIT, the 30-minute soak): scripts/lanes.sh.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh" || exit 1
echo "PHP $(php -r 'echo PHP_VERSION, PHP_ZTS ? " ZTS" : " NTS";'), libuv $(pkg-config --modversion libuv 2>/dev/null || echo '?')"
ASYNC_LACKS=$("$root/scripts/setup.sh" --lacks)
export ASYNC_LACKS
[ -z "$ASYNC_LACKS" ] || echo "not in this suite: $ASYNC_LACKS (Debian packages no such module for PHP $(php -r 'echo PHP_MAJOR_VERSION, ".", PHP_MINOR_VERSION;'); the tests that need it are not run)"
"$root/scripts/build.sh" --with-test-module || exit 1

status=0
total_passed=0
total_failed=0

# run_lane <title> <command...>: prints the lane's output and adds its "N passed, N failed".
run_lane() {
  local title=$1; shift
  echo "== $title =="
  local out rc
  out=$("$@" 2>&1); rc=$?
  echo "$out"
  local line
  line=$(grep -E '[0-9]+ passed, [0-9]+ failed' <<<"$out" | tail -1)
  if [[ $line =~ ([0-9]+)\ passed,\ ([0-9]+)\ failed ]]; then
    total_passed=$((total_passed + BASH_REMATCH[1]))
    total_failed=$((total_failed + BASH_REMATCH[2]))
  else
    total_failed=$((total_failed + 1))
  fi
  [ $rc = 0 ] || status=1
}

run_lane "layout rules (scripts/check-layout.sh)" "$root/scripts/check-layout.sh"
run_lane "layout checker self-test" "$root/scripts/check-layout-selftest.sh"
run_lane "installed headers (scripts/check-headers.sh)" "$root/scripts/check-headers.sh"
run_lane "packaging (scripts/check-package.sh)" "$root/scripts/check-package.sh"
mods=(-d "extension=$root/modules/async.so" -d "extension=$root/tests/c/module/modules/async_abi_test.so")
run_lane "C unit tests (zend_async_API)" php -n "${mods[@]}" -r 'exit(async_abi_test_run() ? 0 : 1);'
run_lane "phpt suite" "$root/scripts/run-phpt.sh" phpt
run_lane "phpt suite, tracing JIT" "$root/scripts/run-phpt.sh" jit-tracing $("$root/scripts/jit-flags.sh" tracing)
if [ -f "$root/tests/fuzz/run.php" ]; then
  run_lane "stress fuzzer (seeds 1..${FUZZ_SEEDS:-300})" php "$root/tests/fuzz/run.php" 1 "${FUZZ_SEEDS:-300}"
fi
soak_seconds=${SOAK_SECONDS:-120}
if [ -f "$root/tests/chaos/soak.php" ] && [ "$soak_seconds" != 0 ]; then
  run_lane "soak (${soak_seconds} s: HTTP through the fault proxy, the PDO pool, channels, cancellations)" \
    "$root/scripts/soak.sh" "$soak_seconds"
fi

echo "total: $total_passed passed, $total_failed failed"
[ $status = 0 ] && echo "ALL LANES PASSED" || echo "SOME LANES FAILED"
exit $status
