#!/usr/bin/env bash
# Regenerates every *_arginfo.h from its *.stub.php (at the root and in the layers' folders) with
# PHP's own build/gen_stub.php.
# gen_stub.php wants nikic/PHP-Parser 4.x beside it; Debian ships it as the php-parser package,
# so we run a copy of the script from a scratch directory where the parser is linked in.
set -euo pipefail
cd "$(dirname "$0")/.."
gen=$(php-config --extension-dir | sed 's#/[0-9]*$##')/$(php-config --phpapi)/build/gen_stub.php
[ -f "$gen" ] || gen=$(dirname "$(command -v phpize)")/../lib/php/$(php-config --phpapi)/build/gen_stub.php
[ -f /usr/share/php/PhpParser/Node.php ] || { echo "install php-parser (apt-get install php-parser)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$gen" "$work/gen_stub.php"
version=$(grep -o 'PHP-Parser-\$version\|\$version = "[0-9.]*"' "$work/gen_stub.php" | grep -o '[0-9.]\+' | head -1)
mkdir -p "$work/PHP-Parser-$version/lib"
ln -s /usr/share/php/PhpParser "$work/PHP-Parser-$version/lib/PhpParser"
for stub in *.stub.php core/*.stub.php reactor/*.stub.php classes/*.stub.php hooks/*.stub.php; do
  [ -f "$stub" ] || continue
  php "$work/gen_stub.php" "$stub"
done
