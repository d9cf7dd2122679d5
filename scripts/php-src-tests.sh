#!/usr/bin/env bash
# The php-src lane (docs/chaos.md, "PHP's own tests inside a coroutine"): php-src's own tests of
# streams, files, network, sockets, curl, pcntl and general functions, from Debian's php8.2 source
# package (scripts/php-source.sh), run with Debian's run-tests.php against this machine's PHP,
# the module loaded in every run:
#   stock      as they are (the module loaded, never used)
#   control    each test's script included by scripts/php-src-wrap.php from a closure, no coroutine
#   coroutine  the same closure run as a coroutine: Async\await(Async\spawn(...))
#   bare       (--bare) without the module: separates Debian's own failures on this machine, and
#              shows any test that merely loading the module changes
# Every test whose result (PASS/FAIL/SKIP/BORK, and the output of a test failing in both) differs
# between stock and coroutine is listed and classified (scripts/php-src-compare.php): deliberate
# (listed with the spec's reason in tests/known-failures/php-src-coroutine.list), wrapper artefact
# (the control run differs the same way), or unexplained, which fails the lane. Last line:
#   php-src-coroutine: N tests, N same, N deliberate, N artefacts, N unexplained
# Usage: scripts/php-src-tests.sh [options] [DIR ...]
#   DIR            test directories or .phpt files, relative to the source root (default:
#                  ext/standard/tests/streams, file, network and general_functions,
#                  ext/sockets/tests, ext/curl/tests, ext/pcntl/tests)
#   -j N           run-tests' parallel workers (default: $JOBS, else 2)
#   -o DIR         keep every run (logs, outputs, diffs) and the report in DIR (default: a temporary
#                  directory in /var/tmp, removed at the end). Not under /tmp: as root, each run
#                  gets an empty private /tmp (a mount namespace), so that what one run's tests
#                  leave there cannot change the next run's results
#   --bare         also the run without the module
#   --list FILE    the deliberate differences (default tests/known-failures/php-src-coroutine.list)
#   PHP            the PHP under test (default: php8.2 when there is one, else php)
#   MODULE         the module (default: this checkout's modules/async.so, built when missing)
#   RUN_TESTS_ARGS extra arguments for run-tests.php (e.g. "--set-timeout 120")
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
jobs=${JOBS:-2} out="" bare=0 list="$root/tests/known-failures/php-src-coroutine.list"
dirs=()
while [ $# -gt 0 ]; do
  case $1 in
    -j) jobs=$2; shift 2 ;;
    -o) out=$2; shift 2 ;;
    --bare) bare=1; shift ;;
    --list) list=$2; shift 2 ;;
    -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "php-src-tests.sh: unknown option $1" >&2; exit 2 ;;
    *) dirs+=("$1"); shift ;;
  esac
done
[ ${#dirs[@]} -gt 0 ] || dirs=(ext/standard/tests/streams ext/standard/tests/file ext/standard/tests/network
  ext/standard/tests/general_functions ext/sockets/tests ext/curl/tests ext/pcntl/tests)
PHP=${PHP:-$(command -v php8.2 || command -v php)}
PHP=$(command -v "$PHP") || { echo "php-src-tests.sh: no PHP" >&2; exit 2; }
MODULE=${MODULE:-$root/modules/async.so}
if [ ! -f "$MODULE" ]; then
  "$root/scripts/build.sh" >/dev/null || exit 1
fi
src=$("$root/scripts/php-source.sh") || exit 1

if [ -n "$out" ]; then
  mkdir -p "$out" && work=$(cd "$out" && pwd) || exit 2
  rm -rf "${work:?}"/{tree,wrap,bare,stock,control,coroutine,report.txt}
else
  work=$(mktemp -d /var/tmp/php-src-tests.XXXXXX)
  trap 'rm -rf "$work"' EXIT
fi
# Each run gets an empty private /tmp (a mount namespace with a tmpfs there), so that what one run's
# tests leave in /tmp (sockets, files of failed tests) cannot change the next run's results.
iso=()
if [ "$(id -u)" = 0 ] && [[ "$work/" != /tmp/* ]] && unshare --mount --propagation private true 2>/dev/null; then
  iso=(unshare --mount --propagation private sh -c 'mount -t tmpfs -o mode=1777 tmpfs /tmp && exec "$@"' sh)
else
  echo "php-src-tests.sh: the runs share /tmp (no mount namespace: not root, no unshare, or the work directory is in /tmp)"
fi
# What the tests reach outside their own directory: the FTP, HTTP and CLI-server helpers, test
# certs, the dl() test helpers.
copy=(run-tests.php ext/ftp/tests ext/openssl/tests sapi/cli/tests ext/standard/tests/http ext/dl_test/tests)
targets=()
for d in "${dirs[@]}"; do
  d=${d%/}
  base=$d
  if [ -d "$src/$d" ]; then copy+=("$d"); targets+=("$d")
  elif [ -f "$src/$d" ]; then base=$(dirname "$d"); copy+=("$base"); targets+=("$d")
  else echo "php-src-tests.sh: no $d in $src: left out"; continue; fi
  # and the helpers beside the directory (ext/standard/tests/skipif_root.inc)
  copy+=($(cd "$src" && find "$(dirname "$base")" -maxdepth 1 -type f))
done
[ ${#targets[@]} -gt 0 ] || exit 2
mkdir -p "$work/wrap"
cp "$root/scripts/php-src-wrap.php" "$work/wrap/php-src-wrap.php"
# Every run loads the same binary, even if the module is rebuilt meanwhile.
cp "$MODULE" "$work/async.so" || exit 2

# One run: a fresh copy of the tests at the same path every time (outputs name the same files),
# moved aside afterwards with the log, the outputs and the list of the scripts the wrapper took.
run() { # name [php -d flags ...]
  local name=$1 start=$SECONDS
  shift
  rm -rf "$work/tree" "$work/wrap/wrapped" "$work/wrap/coroutine"
  mkdir -p "$work/tree" "$work/wrap/wrapped"
  [ "$name" != coroutine ] || touch "$work/wrap/coroutine"
  (cd "$src" && tar -cf - "${copy[@]}") | tar -xf - -C "$work/tree"
  (cd "$work/tree" && "${iso[@]}" env NO_INTERACTION=1 TEST_PHP_EXECUTABLE="$PHP" "$PHP" run-tests.php -p "$PHP" "$@" \
    -q --no-color --show-slow 10000 -j"$jobs" ${RUN_TESTS_ARGS:-} "${targets[@]}" >"$work/tree/run.log" 2>&1)
  mv "$work/wrap/wrapped" "$work/tree/wrapped"
  mv "$work/tree" "$work/$name"
  echo "$((SECONDS - start))" > "$work/$name/seconds"
  n() { grep -E "^Tests $1" "$work/$name/run.log" | grep -oE '[0-9]+' | head -1; }
  echo "php-src-tests: $name run: $(n passed) passed, $(n failed) failed, $(n skipped) skipped in $((SECONDS - start)) s"
}
mod=(-d "extension=$work/async.so")
wrap=(-d "auto_prepend_file=$work/wrap/php-src-wrap.php")
start=$SECONDS
[ "$bare" = 0 ] || run bare
run stock "${mod[@]}"
run control "${mod[@]}" "${wrap[@]}"
run coroutine "${mod[@]}" "${wrap[@]}"
"$PHP" -n "$root/scripts/php-src-compare.php" "$work" "$list" "$work/tree" "$((SECONDS - start))" "${targets[@]}" \
  | tee "$work/report.txt"
exit "${PIPESTATUS[0]}"
