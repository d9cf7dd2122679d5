#!/usr/bin/env bash
# One command on a fresh Debian 12 machine: the whole suite (scripts/suite.sh) on every supported
# PHP — 8.2 on this machine, 8.4 and 8.5 in chroots of their Debian suites (scripts/php-chroot.sh
# makes them on first use, about two minutes each, and reuses them) — and one
# "PHP <v>: N passed, N failed" line per version, then the total.
#   ASYNC_PHP_VERSIONS  the versions to run (default "8.2 8.4 8.5" on Debian 12; on a machine of
#                       another suite, Debian 13 or sid, only its own PHP's)
# CI (.ci/run) runs exactly this.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh" >&2 || exit 1
here=$(php -n -r 'echo PHP_MAJOR_VERSION, ".", PHP_MINOR_VERSION;')
default="8.2 8.4 8.5"
[ "$here" = 8.2 ] || default=$here
versions=${ASYNC_PHP_VERSIONS:-$default}

status=0
summary=()
total_passed=0
total_failed=0
for v in $versions; do
  start=$(date +%s)
  echo "######## PHP $v ########"
  log=$(mktemp)
  if [ "$v" = "$here" ]; then
    "$root/scripts/suite.sh" 2>&1 | tee "$log"
    rc=${PIPESTATUS[0]}
  else
    "$root/scripts/php-chroot.sh" "$v" run scripts/suite.sh 2>&1 | tee "$log"
    rc=${PIPESTATUS[0]}
  fi
  line=$(grep -E '^total: [0-9]+ passed, [0-9]+ failed' "$log" | tail -1)
  lacks=$(grep -E '^not in this suite: ' "$log" | tail -1)
  rm -f "$log"
  passed=0 failed=1
  if [[ $line =~ ([0-9]+)\ passed,\ ([0-9]+)\ failed ]]; then
    passed=${BASH_REMATCH[1]} failed=${BASH_REMATCH[2]}
  fi
  [ "$rc" = 0 ] || { status=1; [ "$failed" != 0 ] || failed=1; }
  total_passed=$((total_passed + passed))
  total_failed=$((total_failed + failed))
  summary+=("PHP $v: $passed passed, $failed failed ($(( $(date +%s) - start )) s)${lacks:+; ${lacks}}")
done

echo "######## every version ########"
printf '%s\n' "${summary[@]}"
echo "total: $total_passed passed, $total_failed failed"
[ $status = 0 ] && echo "ALL VERSIONS PASSED" || echo "SOME VERSIONS FAILED"
exit $status
