<?php
/*
 * Processes: (a) 100 concurrent shell_exec('true'), one per coroutine, against the same 100 run
 * one after the other, blocking, outside any coroutine (PHP's popen()/pclose()). (b) the same 100
 * run one after the other inside one coroutine (the hook's own posix_spawn() + pipe wait +
 * process event), against the blocking sequence: what the coroutine path costs per command.
 *
 * Every measurement runs in a fresh child process: once a process has spawned a coroutine its main
 * flow is the main coroutine, where shell_exec() takes the coroutine path, so the blocking
 * baseline runs in processes that never start the scheduler. Children alternate, the median of
 * BENCH_REPS is reported.
 *
 * Goal: (a) the concurrent run takes at most 0.7 of the blocking sequence.
 *
 *   php -n -d extension=modules/async.so bench/exec.php [commands]
 */
declare(strict_types=1);
require __DIR__ . '/common.php';

use function Async\{spawn, await_all};

$mode = $argv[1] ?? '';
$n = (int) ($argv[2] ?? 100);

if ($mode !== '') {
    $t0 = hrtime(true);
    if ($mode === 'blocking') {
        $ok = 0;
        for ($i = 0; $i < $n; $i++) {
            $ok += shell_exec('true') === null ? 1 : 0;
        }
    } elseif ($mode === 'concurrent') {
        $tasks = [];
        for ($i = 0; $i < $n; $i++) {
            $tasks[] = spawn(fn() => shell_exec('true'));
        }
        [$results, $errors] = await_all($tasks);
        $ok = count(array_filter($results, fn($r) => $r === null));
    } else { // sequential inside one coroutine
        [$results] = await_all([spawn(function () use ($n) {
            $ok = 0;
            for ($i = 0; $i < $n; $i++) {
                $ok += shell_exec('true') === null ? 1 : 0;
            }
            return $ok;
        })]);
        $ok = $results[0];
    }
    $ms = (hrtime(true) - $t0) / 1e6;
    bench_check($ok === $n, "$mode: $ok of $n outputs correct");
    echo "ms=$ms\n";
    exit(0);
}

$n = max(10, bench_scale($n));
bench_header("exec: $n shell_exec('true') concurrent in coroutines vs sequential blocking");
$reps = bench_reps();
$runs = ['blocking' => [], 'concurrent' => [], 'sequential' => []];
for ($r = 0; $r < $reps; $r++) {
    $order = $r % 2 ? ['concurrent', 'sequential', 'blocking'] : ['blocking', 'sequential', 'concurrent'];
    foreach ($order as $m) {
        $runs[$m][] = bench_parse_kv(bench_run_child([$m, (string) $n]))['ms'];
    }
}
$blocking = bench_median($runs['blocking']);
$concurrent = bench_median($runs['concurrent']);
$sequential = bench_median($runs['sequential']);
printf("(a) %d concurrent in coroutines: %.1f ms (%s)\n", $n, $concurrent, bench_spread($runs['concurrent'], 1));
printf("    %d sequential, blocking:      %.1f ms (%s)\n", $n, $blocking, bench_spread($runs['blocking'], 1));
printf("    ratio concurrent/blocking: %.2f\n", $concurrent / $blocking);
printf("(b) %d sequential in a coroutine: %.1f ms, %.0f us per command; blocking %.0f us per command; ratio %.2f\n",
    $n, $sequential, $sequential * 1000 / $n, $blocking * 1000 / $n, $sequential / $blocking);
bench_goal('exec concurrent/blocking <= 0.7', $concurrent / $blocking <= 0.7,
    sprintf('ratio %.2f', $concurrent / $blocking));
