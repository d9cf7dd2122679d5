#!/usr/bin/env bash
# Installs what building and testing need, only when missing, for the PHP of this Debian suite:
# 8.2 on Debian 12 (bookworm), 8.4 on Debian 13 (trixie), 8.5 on sid with experimental (the
# chroots of scripts/php-chroot.sh). PHP_VERSION_WANTED overrides the choice.
# Usage: scripts/setup.sh [extra-package ...]
#        scripts/setup.sh --lacks     prints what this suite does not package (e.g. "xdebug redis")
set -euo pipefail
# shellcheck disable=SC1091
suite=$( . /etc/os-release 2>/dev/null; echo "${VERSION_CODENAME:-}")
case $suite in
  trixie) suite_php=8.4 ;;
  forky|sid) suite_php=8.5 ;;
  *) suite_php=8.2 ;;
esac
v=${PHP_VERSION_WANTED:-$suite_php}

# What Debian packages for that PHP: 8.5 has opcache built in, and no Xdebug or phpredis yet.
lacks=()
case $v in
  8.5) lacks=(xdebug redis) ;;
esac
if [ "${1:-}" = "--lacks" ]; then
  echo "${lacks[*]}"
  exit 0
fi
has() { [[ " ${lacks[*]} " != *" $1 "* ]]; }

need=(php$v-dev php$v-cli libuv1-dev pkg-config make gcc valgrind
  # scripts/check-package.sh parses package.xml with PHP's XML parser
  php$v-xml
  # real clients for tests/db: private servers are started by the tests themselves
  mariadb-server redis-server php$v-mysql
  # tests/pgsql: PHP's two PostgreSQL clients, a server the tests start privately, and libpq's
  # headers for the hook's types (the module never links libpq)
  php$v-pgsql libpq-dev
  # tests/pdo_pool: the pool over pdo_sqlite too (a file database), and Doctrine DBAL over a
  # pooled PDO
  php$v-sqlite3 php-doctrine-dbal
  # tests/fpm: a private php-fpm per test, driven by cgi-fcgi
  php$v-fpm libfcgi-bin
  # tests/curl: ext/curl, libcurl's headers for the curl hooks (the module never links libcurl),
  # and the HTTP clients built on ext/curl
  php$v-curl libcurl4-openssl-dev php-guzzlehttp-guzzle php-getallheaders php-symfony-http-client
  # tests/net and tests/curl make certificates (openssl.cnf) and verify against the system CAs
  openssl ca-certificates "$@")
[ "$v" = 8.5 ] || need+=(php$v-opcache)
# Debian 12's PostgreSQL is 15; the other suites' default one (17 in trixie, 18 in sid)
case $suite in
  trixie|forky|sid) need+=(postgresql) ;;
  *) need+=(postgresql-15) ;;
esac
has redis && need+=(php$v-redis)
# Xdebug for tests/xdebug and the xdebug lane; loaded per test, never for the whole CLI
has xdebug && need+=(php$v-xdebug)

missing=()
for p in "${need[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  # sid's Release file on some archives is past its Valid-Until date
  $SUDO apt-get -o Acquire::Check-Valid-Until=false update -qq
  # In the chroots of other suites, recommends would pull in their default PHP's modules too.
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq ${APT_NO_RECOMMENDS:+--no-install-recommends} \
    "${missing[@]}" >/dev/null
  # Debian enables Xdebug for every SAPI on install; the tests load it themselves where they want
  # it (it would slow every other php process down and change what it prints).
  if [[ " ${missing[*]} " == *" php$v-xdebug "* ]] && command -v phpdismod >/dev/null; then
    $SUDO phpdismod -v "$v" -s ALL xdebug || true
  fi
fi
