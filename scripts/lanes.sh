#!/usr/bin/env bash
# The heavier quality lanes, each printing its own "<lane>: N passed, N failed, N skipped" line.
# Usage: scripts/lanes.sh [lane ...]      lanes: valgrind jit-tracing jit-function (default: all)
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh" valgrind || exit 1
"$root/scripts/build.sh" --with-test-module || exit 1

lanes=("$@")
[ ${#lanes[@]} -gt 0 ] || lanes=(valgrind jit-tracing jit-function)
status=0
for lane in "${lanes[@]}"; do
  case $lane in
    valgrind)
      # run-tests' -m runs each test under memcheck with USE_ZEND_ALLOC=0 and fails it on any
      # error or leak report.
      # run-tests cannot combine -m with parallel workers.
      JOBS=1 RUN_TESTS_ARGS="-m --set-timeout 300" "$root/scripts/run-phpt.sh" valgrind || status=1 ;;
    jit-tracing|jit-function)
      "$root/scripts/run-phpt.sh" "$lane" $("$root/scripts/jit-flags.sh" "${lane#jit-}") || status=1 ;;
    *) echo "unknown lane: $lane" >&2; status=1 ;;
  esac
done
exit $status
