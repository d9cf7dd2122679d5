#!/usr/bin/env bash
# The core figures on every supported PHP: await(spawn()), the switch round trip and a channel
# message, each against that PHP's own Fiber (measured in the same run), so a regression on one
# version shows as a ratio that moved on that version only.
#
#   bench/versions.sh                        # 8.2 here, 8.4 and 8.5 in their chroots
#   ASYNC_PHP_VERSIONS="8.4" bench/versions.sh
#   BENCH_REPS=11 bench/versions.sh          # passed on to bench/run.sh
#
# Builds the module for each version first (scripts/build.sh; scripts/php-chroot.sh for 8.4/8.5).
# Run it on a quiet machine: the figures are medians of BENCH_REPS runs.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
versions=${ASYNC_PHP_VERSIONS:-8.2 8.4 8.5}
benches=(spawn_await switch channel)
summary=()
for v in $versions; do
  echo "######## PHP $v ########"
  log=$(mktemp)
  if [ "$v" = 8.2 ]; then
    { "$root/scripts/build.sh" >/dev/null && "$root/bench/run.sh" "${benches[@]}"; } 2>&1 | tee "$log"
  else
    "$root/scripts/php-chroot.sh" "$v" run sh -c 'scripts/build.sh >/dev/null && bench/run.sh "$@"' sh "${benches[@]}" \
      2>&1 | tee "$log"
  fi
  while IFS= read -r line; do
    summary+=("PHP $v  $line")
  done < <(sed -n '/= summary =/,$p' "$log" | grep '^GOAL ')
  rm -f "$log"
done
echo "================================ every version ================================="
printf '%s\n' "${summary[@]}"
