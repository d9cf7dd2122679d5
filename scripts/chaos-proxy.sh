#!/usr/bin/env bash
# The fault-injecting TCP proxy (tests/chaos/proxy.c; docs/chaos.md, "The fault proxy") from the
# command line: builds it once per version of its source into a cache outside the repository,
# then runs it with the arguments given (exec: its pid is the proxy's).
#   scripts/chaos-proxy.sh --help
#   scripts/chaos-proxy.sh --upstream 127.0.0.1:5432 --listen 127.0.0.1:6432 --seed 7 --fault 'latency=50'
#   scripts/chaos-proxy.sh --print-binary    # build if needed, print the binary's path, exit
# ASYNC_CACHE_DIR  where the binary goes (default /var/cache/ext-async; $TMPDIR or /tmp when that
#                  is not writable); CC the compiler (default cc)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
src=$root/tests/chaos/proxy.c
cc=${CC:-cc}
flags="-O2 -Wall -Wextra"

cache=${ASYNC_CACHE_DIR:-/var/cache/ext-async}
if ! mkdir -p "$cache" 2>/dev/null || [ ! -w "$cache" ]; then
  cache=${TMPDIR:-/tmp}/ext-async-cache-$(id -u)
  mkdir -p "$cache"
fi
# The name carries the hash of the source and of the flags: an edited proxy.c is rebuilt, and the
# worktrees of one machine share what they have in common.
sum=$( (echo "$cc $flags"; cat "$src") | sha256sum | cut -c1-16)
bin=$cache/chaos-proxy-$sum
if [ ! -x "$bin" ]; then
  # Built under a temporary name and renamed into place: tests that start at once never run a
  # half-written binary.
  tmp=$(mktemp "$bin.XXXXXX")
  # shellcheck disable=SC2086
  if ! $cc $flags -o "$tmp" "$src" >&2; then
    rm -f "$tmp"
    echo "chaos-proxy.sh: building $src failed" >&2
    exit 2
  fi
  chmod 755 "$tmp"
  mv -f "$tmp" "$bin"
fi
if [ "${1:-}" = --print-binary ]; then
  echo "$bin"
  exit 0
fi
exec "$bin" "$@"
