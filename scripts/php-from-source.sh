#!/usr/bin/env bash
# Builds PHP 8.2 from Debian's source package into a cache directory outside the repo, once, and
# prints its prefix. Flavours: debug (--enable-debug: leak reports and assertions), asan
# (debug + AddressSanitizer + UndefinedBehaviorSanitizer), zts (a thread-safe release build, -O2,
# as FrankenPHP and the official Docker "-zts" images run PHP).
# Usage: scripts/php-from-source.sh debug|asan|zts  (ASYNC_CACHE_DIR, default /var/cache/ext-async)
set -euo pipefail
flavour=${1:?usage: php-from-source.sh debug|asan|zts}
cache=${ASYNC_CACHE_DIR:-/var/cache/ext-async}
prefix="$cache/php-$flavour"
root=$(cd "$(dirname "$0")/.." && pwd)

# ext/curl, ext/pgsql and pdo_pgsql as shared extensions of that PHP (tests/curl and tests/pgsql
# load them with --EXTENSIONS--), built from the same source tree; added to PHPs built before they
# were part of this script.
build_ext() { # ext configure-flag package...
  local ext=$1 flag=$2 extdir
  shift 2
  extdir=$("$prefix/bin/php-config" --extension-dir)
  [ -f "$extdir/$ext.so" ] && return 0
  "$root/scripts/setup.sh" "$@" >&2
  local srcdir dir="$cache/$ext-$flavour"
  srcdir=$("$root/scripts/php-source.sh")
  rm -rf "$dir"
  cp -a "$srcdir/ext/$ext" "$dir"
  (cd "$dir" && "$prefix/bin/phpize" >&2 && CFLAGS="-O1 -g ${ext_cflags:-}" LDFLAGS="${ext_ldflags:-}" \
    ./configure --with-php-config="$prefix/bin/php-config" $flag >&2 && make -j"$(nproc)" >&2 && make install >&2)
}
build_exts() {
  build_ext curl "" libcurl4-openssl-dev
  build_ext pgsql --with-pgsql libpq-dev
  build_ext pdo_pgsql --with-pdo-pgsql libpq-dev
}
ext_cflags="" ext_ldflags=""
if [ "$flavour" = asan ]; then
  ext_cflags="-fsanitize=address,undefined -fno-omit-frame-pointer" ext_ldflags="-fsanitize=address,undefined"
fi

if [ -x "$prefix/bin/php" ] && [ -x "$prefix/bin/phpize" ]; then
  build_exts
  echo "$prefix"; exit 0
fi
"$root/scripts/setup.sh" dpkg-dev build-essential autoconf bison re2c pkg-config libxml2-dev libssl-dev \
  libsqlite3-dev zlib1g-dev >&2
srcdir=$("$root/scripts/php-source.sh")
build="$cache/build-$flavour"
rm -rf "$build"
cp -a "$srcdir" "$build"
cd "$build"
flags=(--prefix="$prefix" --disable-all --enable-cli --disable-cgi --disable-phpdbg
       --enable-sockets --enable-posix --enable-pcntl --with-openssl --enable-mysqlnd --with-mysqli
       --enable-pdo --with-pdo-mysql --with-pdo-sqlite --with-sqlite3 --enable-opcache --with-zlib)
cflags="-O1 -g"
case $flavour in
  debug) flags+=(--enable-debug) ;;
  asan) flags+=(--enable-debug --enable-address-sanitizer --enable-undefined-sanitizer) ;;
  zts) flags+=(--enable-zts); cflags="-O2 -g" ;;
  *) echo "php-from-source.sh: unknown flavour $flavour" >&2; exit 2 ;;
esac
[ -f configure ] || ./buildconf --force >&2
CFLAGS="$cflags" ./configure "${flags[@]}" >&2
make -j"$(nproc)" >&2
make install >&2
# Debian's patches leave a placeholder in phpize and php-config that its packaging fills in.
api=$(grep -o 'PHP_API_VERSION [0-9]*' "$prefix/include/php/main/php.h" | grep -o '[0-9]*')
sed -i -e 's#/@DEBIAN_PHP_API@##g' -e "s#@DEBIAN_PHP_API@#$api#g" "$prefix/bin/phpize" "$prefix/bin/php-config"
# phpize copies libtool's m4 files from its aclocal dir; a private prefix has none of its own.
[ -d "$prefix/share/aclocal" ] || sed -i 's#^aclocaldir=.*#aclocaldir="/usr/share/aclocal"#' "$prefix/bin/phpize"
build_exts
echo "$prefix"
