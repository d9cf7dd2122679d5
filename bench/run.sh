#!/usr/bin/env bash
# Runs every ext-async benchmark and prints its figures and goals.
#
#   bench/run.sh                 # all benchmarks
#   bench/run.sh switch delay    # only those whose name contains one of the words
#   PHP=/opt/php/bin/php bench/run.sh
#   BENCH_REPS=11 bench/run.sh   # more repetitions (median reported; default 7, memory 5)
#   BENCH_QUICK=1 bench/run.sh   # iterations / 10: a smoke run, figures are noisier
#
# Each benchmark runs as: $PHP -n -d extension=<repo>/modules/async.so [its -d flags] bench/X.php
# A missed goal is printed as MISSED and never fails this script. It exits non-zero only when a
# benchmark could not produce its figures (crash, wrong result, timeout), which is a bug to report.
set -u

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ext="$here/../modules/async.so"
php="${PHP:-php}"
per_bench_timeout="${BENCH_TIMEOUT:-600}"

if [ ! -f "$ext" ]; then
    echo "run.sh: $ext not found: build the extension first (phpize && ./configure --enable-async && make)" >&2
    exit 2
fi
ext="$(cd "$(dirname "$ext")" && pwd)/$(basename "$ext")"
ext_built="$(date -u -r "$ext" '+%Y-%m-%d %H:%M:%S UTC')"

# Benchmark a private copy of the module: a rebuild of modules/async.so while the benchmarks run
# (make overwrites the file in place) would otherwise crash the running php processes, and every
# benchmark of this run must measure the same binary.
snapshot_dir="$(mktemp -d)"
trap 'rm -rf "$snapshot_dir"' EXIT
cp "$ext" "$snapshot_dir/async.so"
ext_src="$ext"
ext="$snapshot_dir/async.so"

# name | extra php flags
benchmarks=(
    "spawn_await|"
    "switch|"
    "delay_10k|-d async.context_pool_size=10000"
    "memory_per_coroutine|"
    "pool|"
    "channel|"
    "taskgroup|"
    "await_all|-d async.context_pool_size=10000"
    "socket_pingpong|"
    "curl|-d extension=curl"
    "pgsql|-d extension=pgsql -d extension=pdo -d extension=pdo_pgsql"
    "pdo_pool|-d extension=pdo -d extension=mysqlnd -d extension=pdo_mysql -d extension=pgsql -d extension=pdo_pgsql"
    "exec|"
    "files|-d memory_limit=-1"
    "fpm_soak|"
    "million|"
    "watchdog|"
)

filters=("$@")
selected() {
    [ ${#filters[@]} -eq 0 ] && return 0
    local name="$1"
    for w in "${filters[@]}"; do
        case "$name" in *"$w"*) return 0 ;; esac
    done
    return 1
}

timeout_cmd=()
if command -v timeout >/dev/null 2>&1; then
    timeout_cmd=(timeout --signal=KILL "$per_bench_timeout")
fi

echo "ext-async benchmarks — $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc 2>/dev/null || echo '?') cores"
echo "php: $("$php" -n -r 'echo PHP_BINARY, " ", PHP_VERSION;')"
echo "extension: $ext_src (built $ext_built, sha256 $(sha256sum "$ext" | cut -c1-12)), run from a copy"
if git -C "$here/.." rev-parse --short HEAD >/dev/null 2>&1; then
    echo "source: $(git -C "$here/.." rev-parse --short HEAD)$(git -C "$here/.." diff --quiet -- '*.c' '*.h' 2>/dev/null || echo ' (+ uncommitted C changes)')"
fi
echo

goals=()
failures=()
for entry in "${benchmarks[@]}"; do
    name="${entry%%|*}"
    flags="${entry#*|}"
    selected "$name" || continue
    # shellcheck disable=SC2206 # flags are plain words
    extra=($flags)
    echo "---------------------------------------------------------------------------------"
    echo "\$ $php -n -d extension=$ext_src ${extra[*]} $here/$name.php"
    out_file="$snapshot_dir/$name.out"
    "${timeout_cmd[@]}" "$php" -n -d "extension=$ext" "${extra[@]}" "$here/$name.php" 2>&1 | tee "$out_file"
    rc=${PIPESTATUS[0]}
    while IFS= read -r line; do
        goals+=("$line")
    done < <(grep '^GOAL ' "$out_file")
    if [ "$rc" -ne 0 ]; then
        case "$rc" in
            137) why="killed (timeout ${per_bench_timeout}s or SIGKILL)" ;;
            139) why="segmentation fault" ;;
            134) why="abort" ;;
            *)   why="exit status $rc" ;;
        esac
        failures+=("$name: $why")
        echo "!!! $name FAILED: $why"
    fi
    echo
done

echo "================================= summary ======================================="
for g in "${goals[@]}"; do
    echo "$g"
done
if [ ${#failures[@]} -gt 0 ]; then
    for f in "${failures[@]}"; do
        echo "FAILED $f"
    done
    exit 1
fi
exit 0
