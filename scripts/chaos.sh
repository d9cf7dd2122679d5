#!/usr/bin/env bash
# The scenario matrix (tests/chaos/matrix.php; docs/chaos.md, "The scenario matrix") with the
# built module: fault x client x moment, each outcome and time checked against
# tests/chaos/matrix.expect, and what each scenario leaves behind. Ends with
# "<label>: N passed, N failed[, N skipped]"; exits non-zero when a scenario failed.
# Usage: scripts/chaos.sh [--valgrind] [matrix.php arguments: --seed N, --only ID, --fast, -v, ...]
#   --valgrind    every child php under memcheck (USE_ZEND_ALLOC=0, timeouts and margins times
#                 CHAOS_SLOW, default 6): a report fails the scenario it came in, a leak at exit
#                 its group
#   PHP           the php to run (default: php on PATH), e.g. the ASan build of
#                 scripts/php-from-source.sh; MODULE_ROOT where modules/async.so was built
#                 (default: this repository)
#   CHAOS_LABEL   the name on the closing line (default chaos-matrix)
#   CHAOS_SLOW    a factor on every configured timeout and margin (default 1; 6 under valgrind)
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
PHP=${PHP:-php}
module_root=${MODULE_ROOT:-$root}
valgrind=0
if [ "${1:-}" = --valgrind ]; then
  valgrind=1
  shift
fi
export ASYNC_SO="$module_root/modules/async.so"
export ASYNC_SRC_ROOT="$root"
[ -f "$ASYNC_SO" ] || { echo "chaos.sh: no $ASYNC_SO (scripts/build.sh builds it)" >&2; exit 2; }
abi="$module_root/tests/c/module/modules/async_abi_test.so"
[ -z "${CHAOS_ABI_MODULE:-}" ] && [ -f "$abi" ] && export CHAOS_ABI_MODULE="$abi"
if [ "$valgrind" = 1 ]; then
  command -v valgrind >/dev/null || { echo "chaos.sh: valgrind is not installed (scripts/setup.sh valgrind)" >&2; exit 2; }
  export USE_ZEND_ALLOC=0 CHAOS_SLOW=${CHAOS_SLOW:-6}
  # -q: only errors and leaks are printed, on the child's stderr (--log-fd=2), where the matrix
  # finds them and names the scenario they came in. The child's own children (proxy, upstreams,
  # servers) are not traced.
  export CHAOS_WRAP="valgrind -q --tool=memcheck --trace-children=no --leak-check=full --show-leak-kinds=definite --errors-for-leak-kinds=definite --log-fd=2"
fi
exec "$PHP" "$root/tests/chaos/matrix.php" "$@"
