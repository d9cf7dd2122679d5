#!/usr/bin/env bash
# Prints the directory of Debian's php8.2 source package, unpacked once (apt-get source) into a
# cache directory outside the repo. Used by scripts/php-from-source.sh (PHPs built from it) and
# scripts/php-src-tests.sh (php-src's own tests). Nothing of it is kept in the repository.
# Usage: scripts/php-source.sh  (ASYNC_CACHE_DIR, default /var/cache/ext-async)
set -euo pipefail
cache=${ASYNC_CACHE_DIR:-/var/cache/ext-async}
root=$(cd "$(dirname "$0")/.." && pwd)

srcdir=$(ls -d "$cache"/src/php8.2-8.2.*/ 2>/dev/null | head -1 || true)
if [ -z "$srcdir" ]; then
  "$root/scripts/setup.sh" dpkg-dev >&2
  # deb-src entries derived from the machine's own apt sources (same URIs and suites).
  src_list=/etc/apt/sources.list.d/ext-async-src.sources
  if ! grep -rqs '^Types:.*deb-src' /etc/apt/sources.list.d/ && ! grep -qs '^deb-src' /etc/apt/sources.list; then
    if [ -f /etc/apt/sources.list.d/debian.sources ]; then
      # Whole stanzas (deb822 paragraphs): the security suite's stanza is left out entirely.
      awk 'BEGIN { RS = ""; ORS = "\n\n" } !/security/' /etc/apt/sources.list.d/debian.sources \
        | sed 's/^Types:.*/Types: deb-src/' > "$src_list"
    else
      grep '^deb ' /etc/apt/sources.list | grep -v security | sed 's/^deb /deb-src /' > /etc/apt/sources.list.d/ext-async-src.list
    fi
    apt-get update -qq >&2
  fi
  mkdir -p "$cache/src"
  (cd "$cache/src" && apt-get source -qq php8.2 >&2)
  srcdir=$(ls -d "$cache"/src/php8.2-8.2.*/ | head -1)
fi
echo "${srcdir%/}"
