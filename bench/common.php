<?php
/*
 * Shared helpers for the ext-async benchmarks (bench/*.php).
 *
 * Rules every benchmark follows (see bench/README.md):
 *  - each figure is printed together with a baseline measured in the same run, and the ratio;
 *  - every measurement is repeated (BENCH_REPS, default 7) and the median is reported;
 *  - subject and baseline are interleaved repetition by repetition, so drift of a noisy VM hits
 *    both alike;
 *  - a goal is printed as "GOAL <name>: MET|MISSED"; missing a goal never makes the script fail.
 *    A script exits non-zero only when it could not measure (extension missing, wrong result).
 */

declare(strict_types=1);

if (!extension_loaded('async')) {
    fwrite(STDERR, "ext-async is not loaded: run with php -n -d extension=/path/to/modules/async.so (see bench/run.sh)\n");
    exit(2);
}

/** Number of repetitions of each measurement (the median is reported). */
function bench_reps(int $default = 7): int
{
    $v = getenv('BENCH_REPS');
    return ($v !== false && (int) $v > 0) ? (int) $v : $default;
}

/** BENCH_QUICK=1 divides iteration counts by 10 (smoke runs only; figures are then noisier). */
function bench_scale(int $n): int
{
    return getenv('BENCH_QUICK') ? max(1, intdiv($n, 10)) : $n;
}

function bench_median(array $values): float
{
    sort($values);
    $n = count($values);
    if ($n === 0) {
        return NAN;
    }
    $mid = intdiv($n, 2);
    return $n % 2 ? (float) $values[$mid] : ($values[$mid - 1] + $values[$mid]) / 2.0;
}

/** Nanoseconds taken by $fn(). */
function bench_time_ns(callable $fn): int
{
    $t0 = hrtime(true);
    $fn();
    return hrtime(true) - $t0;
}

/** "min .. max" of a sample, to show the spread next to the median. */
function bench_spread(array $values, int $decimals = 3): string
{
    return sprintf("%.{$decimals}f .. %.{$decimals}f", min($values), max($values));
}

function bench_header(string $title, ?int $reps = null): void
{
    $reps ??= bench_reps();
    printf("=== %s ===\n", $title);
    $load = explode(' ', (string) @file_get_contents('/proc/loadavg'));
    printf("php %s, %s, %d cores, load average %s (other work on the machine inflates every figure), reps=%d%s\n",
        PHP_VERSION, php_uname('m'), bench_cpu_count(), $load[0] ?? '?', $reps,
        getenv('BENCH_QUICK') ? ', BENCH_QUICK (iterations / 10)' : '');
}

function bench_cpu_count(): int
{
    $n = 0;
    foreach (@file('/proc/cpuinfo') ?: [] as $line) {
        if (str_starts_with($line, 'processor')) {
            $n++;
        }
    }
    return $n;
}

/** Prints the goal line run.sh collects. Never exits. */
function bench_goal(string $name, bool $met, string $detail): void
{
    printf("GOAL %s: %s (%s)\n", $name, $met ? 'MET' : 'MISSED', $detail);
}

/** A wrong result means the figure is meaningless: report it and fail the script. */
function bench_check(bool $ok, string $what): void
{
    if (!$ok) {
        fwrite(STDERR, "WRONG RESULT: $what\n");
        echo "WRONG RESULT: $what\n";
        exit(3);
    }
}

/** Resident set size of this process in KiB (VmRSS from /proc/self/status). */
function bench_rss_kib(): int
{
    $status = file_get_contents('/proc/self/status');
    if ($status === false || !preg_match('/^VmRSS:\s+(\d+)\s+kB/m', $status, $m)) {
        throw new RuntimeException('cannot read VmRSS from /proc/self/status');
    }
    return (int) $m[1];
}

/**
 * The exact command line of this process (binary, -n, -d flags, extension path), without the
 * script arguments: used to re-run this same script in a fresh process with identical settings.
 *
 * @return list<string> argv up to and including the script path
 */
function bench_self_command(): array
{
    $raw = file_get_contents('/proc/self/cmdline');
    $argv = explode("\0", rtrim((string) $raw, "\0"));
    $script = realpath($_SERVER['SCRIPT_FILENAME']);
    foreach ($argv as $i => $arg) {
        if ($i > 0 && @realpath($arg) === $script) {
            return array_slice($argv, 0, $i + 1);
        }
    }
    throw new RuntimeException('cannot find the script in /proc/self/cmdline');
}

/**
 * Runs this script again in a fresh process with extra arguments and returns its stdout.
 * A child that crashes (signal, non-zero exit) is reported and makes the parent fail.
 */
function bench_run_child(array $args, array $extraIni = []): string
{
    $cmd = bench_self_command();
    $script = array_pop($cmd);
    foreach ($extraIni as $k => $v) {
        $cmd[] = '-d';
        $cmd[] = "$k=$v";
    }
    $cmd[] = $script;
    array_push($cmd, ...$args);
    $proc = proc_open($cmd, [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
    if (!is_resource($proc)) {
        throw new RuntimeException('proc_open failed');
    }
    $out = stream_get_contents($pipes[1]);
    $err = stream_get_contents($pipes[2]);
    fclose($pipes[1]);
    fclose($pipes[2]);
    $status = proc_close($proc);
    if ($status !== 0) {
        $shown = implode(' ', array_map('escapeshellarg', $cmd));
        fwrite(STDERR, "CHILD FAILED (exit status $status): $shown\n--- stdout ---\n$out\n--- stderr ---\n$err\n");
        echo "CHILD FAILED (exit status $status): $shown\n";
        exit(4);
    }
    return $out;
}

/** Parses "key=value" lines printed by a child. */
function bench_parse_kv(string $out): array
{
    $r = [];
    foreach (explode("\n", $out) as $line) {
        if (preg_match('/^([a-z_]+)=(-?[0-9.eE+-]+)$/', trim($line), $m)) {
            $r[$m[1]] = (float) $m[2];
        }
    }
    return $r;
}

/**
 * The Fiber baseline of the switch benchmarks: $n switch round trips (main resumes, the Fiber
 * suspends), in ns. $what names the caller's figure in the failure message.
 */
function bench_fiber_round_trips(int $n, string $what): int
{
    $f = new Fiber(static function (int $n): int {
        $k = 0;
        for ($i = 0; $i < $n; $i++) {
            Fiber::suspend();
            $k++;
        }
        return $k;
    });
    $t0 = hrtime(true);
    $f->start($n);
    while (!$f->isTerminated()) {
        $f->resume();
    }
    $ns = hrtime(true) - $t0;
    bench_check($f->getReturn() === $n, "$what: the Fiber resumed {$f->getReturn()} times, expected $n");
    return $ns;
}
