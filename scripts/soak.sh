#!/usr/bin/env bash
# The soak (tests/chaos/soak.php; docs/chaos.md, "The soak"): a mixed workload on ext-async for
# SECONDS (default 120), checked for RSS drift, descriptors and coroutines left behind, and error
# classes it does not expect. Prints the soak's own lines, then "soak: N passed, N failed".
# Usage: scripts/soak.sh [seconds] [soak.php options: --seed N --report S --warmup S --no-db --verbose]
#   PHP            the PHP to run (default php);  MODULE_ROOT where async.so was built (default: repo)
#   SOAK_SEED      the seed when --seed is not given (default: the soak picks one and prints it)
#   SOAK_AVOID     known bugs to steer around or tolerate (soak.php's KNOWN_BUGS, comma-separated;
#                  default: none, all of them are fixed), to bisect an older build
#   KEEP_LOG=FILE  keep the whole output there too
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=120
if [ $# -gt 0 ] && [[ $1 =~ ^[0-9]+$ ]]; then
  seconds=$1; shift
fi
PHP=${PHP:-php}
module_root=${MODULE_ROOT:-$root}
so="$module_root/modules/async.so"
if [ ! -f "$so" ]; then
  echo "soak.sh: no module at $so (build it: scripts/build.sh)" >&2
  echo "soak: 0 passed, 1 failed"
  exit 1
fi
# -n: no php.ini; the extensions the workload uses, where this PHP has them as shared modules.
ext_dir=$("$PHP" -n -r 'echo ini_get("extension_dir");')
mods=(-d "extension=$so")
for ext in mysqlnd pdo pdo_mysql curl; do
  if [ -f "$ext_dir/$ext.so" ] && ! "$PHP" -n -r "exit(extension_loaded('$ext') ? 0 : 1);"; then
    mods+=(-d "extension=$ext")
  fi
done
args=(--seconds "$seconds")
[ -z "${SOAK_SEED:-}" ] || args+=(--seed "$SOAK_SEED")
avoid=${SOAK_AVOID-}
[ -z "$avoid" ] || args+=(--avoid "$avoid")
export ASYNC_SO="$so" ASYNC_SRC_ROOT="$root"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# A hang is a failure too: the soak gets its time, the stop (up to 60 s per worker) and a margin.
timeout -k 10 $((seconds + 300)) "$PHP" -n "${mods[@]}" -d memory_limit=512M -d async.debug_deadlock=0 \
  "$root/tests/chaos/soak.php" "${args[@]}" "$@" 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
[ -z "${KEEP_LOG:-}" ] || cp "$log" "$KEEP_LOG"
if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
  echo "soak: FAIL: killed after $((seconds + 300)) s (a hang)"
fi
if [ "$rc" = 0 ] && grep -qE '^soak: [0-9]+ s, .*, PASS$' "$log"; then
  echo "soak: 1 passed, 0 failed"
  exit 0
fi
echo "soak: 0 passed, 1 failed (exit status $rc)"
exit 1
