#!/usr/bin/env bash
# The packaging metadata agrees with the tree: package.xml (PECL) names every source, header, stub
# and test and nothing that is missing, and is what scripts/package-xml.php writes; composer.json
# (PIE) declares the extension; async.ini names every INI setting of async.c; the IDE stubs in
# stubs/ declare everything the *.stub.php files do. Prints "ok"/"FAIL" per check, then
# "packaging: N passed, N failed"; exits 1 when a check fails.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
passed=0; failed=0
check() { # check <title> <command...>
  local title=$1; shift
  local out
  if out=$("$@" 2>&1); then
    echo "ok   $title"; passed=$((passed + 1))
  else
    echo "FAIL $title"; [ -n "$out" ] && sed 's/^/     /' <<<"$out"; failed=$((failed + 1))
  fi
}

xml_files() { grep -o '<file name="[^"]*" role="[^"]*"' package.xml | sed 's/<file name="\([^"]*\)" role="\([^"]*\)"/\1 \2/'; }

in_sync() {
  diff <(php -n scripts/package-xml.php --stdout | grep -v '<date>') <(grep -v '<date>' package.xml)
}
well_formed() { # PHP's XML parser (php8.2-xml, installed by scripts/setup.sh)
  php -r '$x = simplexml_load_file("package.xml"); if ($x === false || $x->getName() !== "package" || (string) $x->providesextension !== "async") exit(1);'
}
files_exist() {
  local bad=0
  while read -r f role; do [ -f "$f" ] || { echo "listed but missing: $f"; bad=1; }; done < <(xml_files)
  return $bad
}
sources_listed() {
  local bad=0 f
  local listed; listed=$(xml_files | awk '$2 == "src" { print $1 }')
  # every source config.m4 and config.w32 build, every header they include, every stub
  local layers="core reactor classes hooks" d
  for f in $(sed -n '/PHP_NEW_EXTENSION/,/)/p' config.m4 | grep -oE '[a-z_0-9/]+\.c') \
           $(for d in $layers; do ls "$d"/*.c "$d"/*.h "$d"/*.stub.php 2>/dev/null; done) \
           $(grep -hoE '^#include "[a-z_0-9/]+\.h"' ./*.c ./*.h | grep -oE '[a-z_0-9/]+\.h' | sort -u) \
           $(ls ./*.stub.php | sed 's#^\./##'); do
    [ -f "$f" ] || continue # a header of PHP's own (php.h, ...)
    grep -qxF "$f" <<<"$listed" || { echo "not in package.xml: $f"; bad=1; }
  done
  return $bad
}
tests_listed() {
  local bad=0 f
  local listed; listed=$(xml_files | awk '$2 == "test" { print $1 }')
  while read -r f; do grep -qxF "$f" <<<"$listed" || { echo "test not in package.xml: $f"; bad=1; }; done \
    < <(git ls-files 'tests/*.phpt' 'tests/*.inc' 2>/dev/null || find tests -name '*.phpt' -o -name '*.inc')
  return $bad
}
composer_json() {
  php -n -r '$j = json_decode(file_get_contents("composer.json"), true, 512, JSON_THROW_ON_ERROR);
    if (($j["type"] ?? "") !== "php-ext" || ($j["php-ext"]["extension-name"] ?? "") !== "async") { echo "type/extension-name\n"; exit(1); }
    foreach ($j["php-ext"]["configure-options"] ?? [] as $o) { if (!str_contains(file_get_contents("config.m4"), "--" . $o["name"])) { echo "unknown configure option $o[name]\n"; exit(1); } }' || return 1
  if command -v composer >/dev/null 2>&1; then composer validate --no-check-publish --no-interaction composer.json; fi
}
ini_complete() {
  local bad=0 s
  for s in $(grep -oE 'INI_(BOOLEAN|ENTRY)\("async\.[a-z_]+"' async.c | grep -oE 'async\.[a-z_]+'); do
    grep -qE "^;?$s = " async.ini || { echo "async.ini lacks $s"; bad=1; }
  done
  grep -qx 'extension=async' async.ini || { echo "async.ini does not load the extension"; bad=1; }
  return $bad
}

check "package.xml is what scripts/package-xml.php writes" in_sync
check "package.xml is well-formed" well_formed
check "every file package.xml names exists" files_exist
check "every source, header and stub is in package.xml" sources_listed
check "every test is in package.xml" tests_listed
check "composer.json declares the extension (PIE)" composer_json
check "async.ini names every INI setting" ini_complete
check "IDE stubs declare every *.stub.php declaration" php scripts/gen-ide-stubs.php --check
echo "packaging: $passed passed, $failed failed"
[ $failed = 0 ]
