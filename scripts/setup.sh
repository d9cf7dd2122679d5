#!/usr/bin/env bash
# Installs what building and testing need, only when missing (Debian 12 package names).
# Usage: scripts/setup.sh [extra-package ...]
set -euo pipefail
need=(php8.2-dev php8.2-cli php8.2-opcache libuv1-dev pkg-config make gcc valgrind
  # scripts/check-package.sh parses package.xml with PHP's XML parser
  php8.2-xml
  # real clients for tests/db: private servers are started by the tests themselves
  mariadb-server redis-server php8.2-mysql php8.2-redis
  # Xdebug for tests/xdebug and the xdebug lane; loaded per test, never for the whole CLI
  php8.2-xdebug
  # tests/fpm: a private php-fpm per test, driven by cgi-fcgi
  php8.2-fpm libfcgi-bin
  # tests/curl: ext/curl, libcurl's headers for the curl hooks (the module never links libcurl),
  # and the HTTP clients built on ext/curl
  php8.2-curl libcurl4-openssl-dev php-guzzlehttp-guzzle php-symfony-http-client "$@")
missing=()
for p in "${need[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
  # Debian enables Xdebug for every SAPI on install; the tests load it themselves where they want
  # it (it would slow every other php process down and change what it prints).
  if [[ " ${missing[*]} " == *" php8.2-xdebug "* ]] && command -v phpdismod >/dev/null; then
    $SUDO phpdismod -v 8.2 -s ALL xdebug || true
  fi
fi
