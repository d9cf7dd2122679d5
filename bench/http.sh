#!/usr/bin/env bash
# HTTP keep-alive throughput: examples/http_server.php (plain PHP, one coroutine per connection)
# against nginx answering `return 200` with a minimal configuration, in the same run.
#
#   bench/http.sh                      # 3 alternating rounds of 10 s each, 64 connections
#   BENCH_REPS=5 DURATION=5 CONNECTIONS=128 bench/http.sh
#   PHP=/path/to/php bench/http.sh      ASYNC_SO=/path/to/async.so bench/http.sh
#   PHP_FLAGS="" bench/http.sh           # the PHP server without opcache/JIT (default: tracing JIT)
#   FLOOR=1 bench/http.sh                # also bench/http_floor.php (parses nothing: the floor of a
#                                        # PHP server on the same system calls), informational
#   CFLOOR=1 bench/http.sh               # also bench/http_c_floor.c built with cc: the same calls
#                                        # in C (epoll), and on io_uring with liburing-dev installed
#   CPU_QUOTA=50 bench/http.sh           # each server limited to 50% of CPU 0 (a cgroup's CPU quota;
#                                        # needs root), so the servers bound the rate, not wrk
#
# Each server runs alone on CPU 0 (taskset -c 0; nginx with one process), wrk on CPU 1 with one
# thread. Rounds alternate PHP / nginx; the median req/s of each is reported with the ratio, and
# each round prints how busy both CPUs were (a client at ~100% means wrk, not the server, bound it).
# Installs wrk and nginx with apt when missing (this script only; scripts/setup.sh does not).
# A missed goal is printed, never fails the script; it exits non-zero only when a server could not
# be started or answered wrongly.
set -u

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
php="${PHP:-php}"
reps="${BENCH_REPS:-3}"
duration="${DURATION:-10}"
connections="${CONNECTIONS:-64}"
# The PHP server runs as PHP runs in production: opcache with the tracing JIT (PHP_FLAGS="" for none).
php_flags="${PHP_FLAGS--d zend_extension=opcache -d opcache.enable_cli=1 -d opcache.jit=tracing -d opcache.jit_buffer_size=64M}"
ext="${ASYNC_SO:-$root/modules/async.so}"   # ASYNC_SO: another build of the module

if [ ! -f "$ext" ]; then
    echo "http.sh: $ext not found: build the extension first (scripts/build.sh)" >&2
    exit 2
fi
missing=()
command -v wrk >/dev/null 2>&1 || missing+=(wrk)
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || missing+=(nginx)
if [ ${#missing[@]} -gt 0 ]; then
    echo "http.sh: installing ${missing[*]}"
    SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
    $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null \
        || { echo "http.sh: cannot install ${missing[*]}" >&2; exit 2; }
fi
nginx_bin="$(command -v nginx || echo /usr/sbin/nginx)"

work="$(mktemp -d)"
pids=()
cgroups=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
    wait 2>/dev/null
    for g in "${cgroups[@]}"; do rmdir "$g" 2>/dev/null; done
    rm -rf "$work"
}
trap cleanup EXIT

# A copy of the module, so a rebuild during the run cannot crash the server.
cp "$ext" "$work/async.so"

free_port() {
    "$php" -n -r '$s = stream_socket_server("tcp://127.0.0.1:0"); $n = stream_socket_get_name($s, false); echo substr($n, strrpos($n, ":") + 1);'
}

wait_port() { # port
    for _ in $(seq 1 100); do
        "$php" -n -r 'exit(@fsockopen("127.0.0.1", (int) $argv[1], $e, $s, 0.2) ? 0 : 1);' "$1" && return 0
        sleep 0.1
    done
    return 1
}

check_hello() { # port name
    local got
    got="$("$php" -n -r '$s = fsockopen("127.0.0.1", (int) $argv[1]); fwrite($s, "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"); echo stream_get_contents($s);' "$1")"
    case "$got" in
        "HTTP/1.1 200 OK"*Hello) return 0 ;;
    esac
    echo "http.sh: $2 answered wrongly:" >&2
    printf '%s\n' "$got" >&2
    return 1
}

php_port="$(free_port)"
nginx_port="$(free_port)"
floor_port="$(free_port)"
floor="${FLOOR:-0}"
cfloor="${CFLOOR:-0}"

start_php_server() { # script port log: on CPU 0, with the module's copy
    # shellcheck disable=SC2086 # php_flags are plain words
    taskset -c 0 "$php" -n $php_flags -d "extension=$work/async.so" "$1" "127.0.0.1:$2" >"$3" 2>&1 &
    pids+=($!)
}
start_php_server "$root/examples/http_server.php" "$php_port" "$work/php.log"
[ "$floor" = 1 ] && start_php_server "$here/http_floor.php" "$floor_port" "$work/floor.log"

cat >"$work/nginx.conf" <<EOF
daemon off;
master_process off;
worker_processes 1;
error_log $work/nginx-error.log warn;
pid $work/nginx.pid;
events { worker_connections 4096; }
http {
    access_log off;
    keepalive_requests 100000000;
    keepalive_timeout 120s;
    client_body_temp_path $work/nginx-body;
    proxy_temp_path $work/nginx-proxy;
    fastcgi_temp_path $work/nginx-fastcgi;
    uwsgi_temp_path $work/nginx-uwsgi;
    scgi_temp_path $work/nginx-scgi;
    server {
        listen 127.0.0.1:$nginx_port;
        default_type text/plain;
        location / { return 200 "Hello"; }
    }
}
EOF
taskset -c 0 "$nginx_bin" -c "$work/nginx.conf" -p "$work" >"$work/nginx.log" 2>&1 &
pids+=($!)

# CFLOOR=1: bench/http_c_floor.c, the same system calls per request with next to no user space
# (epoll), and the same on io_uring when liburing's header is there: the kernel's ceiling.
cfloors=()
if [ "$cfloor" = 1 ]; then
    cc="${CC:-cc}"
    "$cc" -O2 -o "$work/cfloor" "$here/http_c_floor.c" || { echo "http.sh: cannot build bench/http_c_floor.c" >&2; exit 2; }
    cfloors+=(cfloor)
    if "$cc" -O2 -DWITH_LIBURING -o "$work/curing" "$here/http_c_floor.c" -luring 2>/dev/null; then
        cfloors+=(curing)
    else
        echo "http.sh: no liburing (apt-get install liburing-dev): the io_uring floor is left out"
    fi
fi
declare -A cport
for c in "${cfloors[@]}"; do
    cport[$c]="$(free_port)"
    taskset -c 0 "$work/$c" "${cport[$c]}" >"$work/$c.log" 2>&1 &
    pids+=($!)
done

quota="${CPU_QUOTA:-}"
limit_cpu() { # pid name: the process gets $quota% of one CPU (cgroup v2 cpu.max, or v1 cfs quota)
    local g
    if [ -f /sys/fs/cgroup/cgroup.controllers ]; then
        grep -qw cpu /sys/fs/cgroup/cgroup.subtree_control || echo +cpu >/sys/fs/cgroup/cgroup.subtree_control || return 1
        g="/sys/fs/cgroup/ext-async-http-$$-$2"
        mkdir "$g" && cgroups+=("$g") && echo "$((quota * 1000)) 100000" >"$g/cpu.max" || return 1
    elif [ -f /sys/fs/cgroup/cpu/cpu.cfs_quota_us ]; then
        g="/sys/fs/cgroup/cpu/ext-async-http-$$-$2"
        mkdir "$g" && cgroups+=("$g") && echo 100000 >"$g/cpu.cfs_period_us" \
            && echo "$((quota * 1000))" >"$g/cpu.cfs_quota_us" || return 1
    else
        return 1
    fi
    echo "$1" >"$g/cgroup.procs"
}
if [ -n "$quota" ]; then
    case "$quota" in
        [1-9] | [1-9][0-9] | 100) ;;
        *) echo "http.sh: CPU_QUOTA must be a percentage of one CPU, 1..100" >&2; exit 2 ;;
    esac
    for k in "${!pids[@]}"; do
        limit_cpu "${pids[$k]}" "$k" || { echo "http.sh: CPU_QUOTA needs a writable cgroup cpu controller (root)" >&2; exit 2; }
    done
fi

wait_port "$php_port" || { echo "http.sh: the PHP server did not start:" >&2; cat "$work/php.log" >&2; exit 1; }
wait_port "$nginx_port" || { echo "http.sh: nginx did not start:" >&2; cat "$work/nginx.log" "$work/nginx-error.log" >&2; exit 1; }
check_hello "$php_port" "examples/http_server.php" || exit 1
check_hello "$nginx_port" "nginx" || exit 1
if [ "$floor" = 1 ]; then
    wait_port "$floor_port" || { echo "http.sh: bench/http_floor.php did not start:" >&2; cat "$work/floor.log" >&2; exit 1; }
    check_hello "$floor_port" "bench/http_floor.php" || exit 1
fi
for c in "${cfloors[@]}"; do
    wait_port "${cport[$c]}" || { echo "http.sh: bench/http_c_floor.c ($c) did not start:" >&2; cat "$work/$c.log" >&2; exit 1; }
    check_hello "${cport[$c]}" "bench/http_c_floor.c ($c)" || exit 1
done

echo "=== HTTP keep-alive: examples/http_server.php vs nginx return 200 ==="
echo "php: $("$php" -n -r 'echo PHP_VERSION;'), $(nproc) cores, load average $(cut -d' ' -f1 /proc/loadavg)," \
    "server on CPU 0${quota:+ (limited to $quota% of it)}, wrk -t1 -c$connections -d${duration}s on CPU 1, $reps alternating rounds"
echo "source: $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?'), nginx $("$nginx_bin" -v 2>&1 | sed 's/.*\///')"
echo "php flags: ${php_flags:-(none)}"

cpu_ticks() { # -> "busy total" jiffies of CPU 0 and of CPU 1 (/proc/stat: idle and iowait are not busy)
    awk '/^cpu[01] / { t = 0; for (i = 2; i <= NF; i++) t += $i; printf "%d %d ", t - $5 - $6, t }' /proc/stat
}

run_wrk() { # port -> prints "req/s server-CPU-busy% wrk-CPU-busy%"; errors go to stderr
    local out before after rps
    before="$(cpu_ticks)"
    out="$(taskset -c 1 wrk -t1 -c"$connections" -d"${duration}s" "http://127.0.0.1:$1/" 2>&1)"
    after="$(cpu_ticks)"
    if grep -qE 'Non-2xx|Socket errors' <<<"$out"; then
        grep -E 'Non-2xx|Socket errors' <<<"$out" | sed 's/^/    /' >&2
    fi
    rps="$(grep -E '^Requests/sec:' <<<"$out" | awk '{print $2}')"
    [ -n "$rps" ] || { echo "    wrk printed no rate: $(tail -1 <<<"$out")" >&2; rps=0; }
    printf '%s %s\n' "$rps" \
        "$(awk -v a="$before" -v b="$after" 'BEGIN { split(a, x, " "); split(b, y, " ");
            printf "%.1f %.1f", 100 * (y[1] - x[1]) / (y[2] - x[2]), 100 * (y[3] - x[3]) / (y[4] - x[4]) }')"
}

php_rps=()
nginx_rps=()
floor_rps=()
declare -A c_rps
client_busy=()
for i in $(seq 1 "$reps"); do
    # Alternate which goes first, so drift of a noisy machine hits both alike.
    if [ $((i % 2)) -eq 1 ]; then order="php nginx"; else order="nginx php"; fi
    if [ "$floor" = 1 ]; then
        case $((i % 3)) in 1) order="php nginx floor" ;; 2) order="nginx floor php" ;; *) order="floor php nginx" ;; esac
    fi
    [ ${#cfloors[@]} -gt 0 ] && order="$order ${cfloors[*]}"
    for who in $order; do
        case $who in
            php) read -r r sb cb <<<"$(run_wrk "$php_port")"; php_rps+=("$r") ;;
            nginx) read -r r sb cb <<<"$(run_wrk "$nginx_port")"; nginx_rps+=("$r") ;;
            floor) read -r r sb cb <<<"$(run_wrk "$floor_port")"; floor_rps+=("$r") ;;
            cfloor | curing) read -r r sb cb <<<"$(run_wrk "${cport[$who]}")"; c_rps[$who]="${c_rps[$who]:-} $r" ;;
        esac
        client_busy+=("$cb")
        printf '  round %d %-6s %10s req/s   CPU 0 (server) %5s%% busy, CPU 1 (wrk) %5s%%\n' "$i" "$who" "$r" "$sb" "$cb"
    done
done
kill -0 "${pids[0]}" 2>/dev/null || { echo "http.sh: the PHP server died:" >&2; cat "$work/php.log" >&2; exit 1; }

median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {if (NR % 2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }
spread() { printf '%s\n' "$@" | sort -g | awk 'NR==1{min=$1} {max=$1} END {printf "%.0f .. %.0f", min, max}'; }
ratio_of() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", (b > 0 ? a / b : 0) }'; }
pm="$(median "${php_rps[@]}")"
nm="$(median "${nginx_rps[@]}")"
ratio="$(ratio_of "$pm" "$nm")"
echo
printf 'examples/http_server.php: %.0f req/s (median; %s)\n' "$pm" "$(spread "${php_rps[@]}")"
printf 'nginx return 200:         %.0f req/s (median; %s)\n' "$nm" "$(spread "${nginx_rps[@]}")"
met="$(awk -v r="$ratio" 'BEGIN { print (r >= 0.9 ? "MET" : "MISSED") }')"
echo "ratio php/nginx: $ratio"
if [ "$floor" = 1 ]; then
    fm="$(median "${floor_rps[@]}")"
    printf 'bench/http_floor.php:     %.0f req/s (median; %s), floor/nginx %s (informational)\n' "$fm" \
        "$(spread "${floor_rps[@]}")" "$(ratio_of "$fm" "$nm")"
fi
for c in "${cfloors[@]}"; do
    read -r -a rs <<<"${c_rps[$c]}"
    cm="$(median "${rs[@]}")"
    printf 'bench/http_c_floor.c %-6s %.0f req/s (median; %s), %s/nginx %s (informational: %s)\n' "$c:" "$cm" \
        "$(spread "${rs[@]}")" "$c" "$(ratio_of "$cm" "$nm")" \
        "$([ "$c" = cfloor ] && echo "epoll, no user-space work" || echo "io_uring, one enter per batch")"
done
echo "GOAL http_keepalive: $met (php/nginx $ratio, goal >= 0.9)"
# When wrk's own CPU is (nearly) always busy, the rates are the load generator's ceiling, not the
# servers': a faster server shows up as idle time on CPU 0, not as more requests per second.
low="$(printf '%s\n' "${client_busy[@]}" | sort -g | head -1)"
if awk -v l="$low" 'BEGIN { exit !(l >= 97) }'; then
    echo "note: wrk's CPU was >= $low% busy in every round: the client bounds these rates" \
        "(CPU_QUOTA=50 gives each server half of CPU 0, so the servers bound them instead)"
fi
# Issue #15's goal. bench/history-2026.md ("HTTP against nginx", "one match per request head", "who bounds
# the rate") measures why it is out of reach: the same system calls per request as nginx, the
# kernel's TCP work for them ~80% of each server's CPU, and wrk's own CPU saturated.
met="$(awk -v r="$ratio" 'BEGIN { print (r >= 1.1 ? "MET" : "MISSED") }')"
echo "GOAL http_keepalive (#15): $met (php/nginx $ratio, goal >= 1.1)"
exit 0
