<?php
/*
 * tests/fuzz/run.php [FIRST [LAST]] [options]     (default: seeds 1..300)
 *
 * For every seed: generate the program (generate.php), compute the expected line with the
 * sequential run only (FUZZ_SEQ_ONLY=1), then run the program with async.schedule_seed=<seed> and
 * with async.schedule_seed=0, each under a time bound. Every --valgrind-every'th seed (and every
 * seed with --valgrind) also runs under valgrind memcheck with USE_ZEND_ALLOC=0.
 * A seed fails on: a non-zero exit, a signal, a timeout, output other than the expected
 * "OK <checksum>" line, or a valgrind error / definite leak.
 * Prints "fuzz: N passed, N failed" last and exits non-zero when a seed failed.
 *
 * Options:
 *   --jobs=N             parallel processes (default 2)
 *   --timeout=S          time bound per run in seconds (default 10; valgrind runs get 20x)
 *   --valgrind           run every seed under valgrind too
 *   --valgrind-every=N   run every Nth seed under valgrind (default 20, 0 = never)
 *   --php=PATH           PHP binary (default: the one running this script)
 *   --module=PATH        async.so (default: modules/async.so of this repository)
 *   --size=N             override the program size (number of tasks) chosen by the seed
 *   --avoid=LIST         generator workarounds for known runtime bugs (see README), e.g. main-spin
 *   --net=auto|on|off    network I/O through the fault proxy: in a quarter of the seeds (auto, the
 *                        default), in every seed, or in none (README, "Network I/O")
 *   --save               write tests/fuzz/regressions/seed-<N>.phpt for every failing seed
 *   --keep               keep the work directory (generated programs and outputs)
 *   --quiet              no per-seed progress
 */
declare(strict_types=1);

$root = dirname(__DIR__, 2);
$opts = ['jobs' => 2, 'timeout' => 10, 'valgrind' => false, 'valgrind-every' => 20, 'php' => PHP_BINARY,
    'module' => "$root/modules/async.so", 'size' => null, 'avoid' => null, 'net' => 'auto', 'save' => false, 'keep' => false,
    'quiet' => false];
$pos = [];
foreach (array_slice($argv, 1) as $arg) {
    if (preg_match('/^--([a-z-]+)(?:=(.*))?$/', $arg, $m)) {
        if (!array_key_exists($m[1], $opts)) {
            fwrite(STDERR, "unknown option $arg\n");
            exit(2);
        }
        $opts[$m[1]] = isset($m[2]) ? $m[2] : true;
    } else {
        $pos[] = (int) $arg;
    }
}
$first = $pos[0] ?? 1;
$last = $pos[1] ?? ($pos ? $first : 300);
$jobs = max(1, (int) $opts['jobs']);
$timeout = (int) $opts['timeout'];
$vgEvery = (int) $opts['valgrind-every'];
$module = $opts['module'];
if (!is_file($module)) {
    fwrite(STDERR, "module not found: $module\n");
    exit(2);
}
$work = sys_get_temp_dir() . '/async-fuzz-' . getmypid();
@mkdir($work, 0777, true);
$gen = __DIR__ . '/generate.php';
$php = $opts['php'];
$phpArgs = ['-n', '-d', "extension=$module", '-d', 'async.debug_deadlock=0', '-d', 'memory_limit=256M'];
$hasValgrind = trim((string) shell_exec('command -v valgrind')) !== '';

/* --------------------------------------------------------------------- a small process pool */

final class Pool
{
    private array $running = [];
    private array $queue = [];

    public function __construct(private int $size) {}

    /** $done(int $status, ?int $signal, bool $timedOut, string $out, float $secs) */
    public function add(array $cmd, array $env, int $timeout, callable $done, bool $front = false): void
    {
        $job = [$cmd, $env, $timeout, $done];
        $front ? array_unshift($this->queue, $job) : $this->queue[] = $job;
    }

    public function run(): void
    {
        while ($this->queue || $this->running) {
            while ($this->queue && count($this->running) < $this->size) {
                $this->start(array_shift($this->queue));
            }
            $this->poll();
            usleep(2000);
        }
    }

    private function start(array $job): void
    {
        [$cmd, $env, $timeout, $done] = $job;
        $outFile = tempnam(sys_get_temp_dir(), 'fz');
        $p = proc_open($cmd, [0 => ['file', '/dev/null', 'r'], 1 => ['file', $outFile, 'w'], 2 => ['redirect', 1]],
            $pipes, null, $env);
        $this->running[] = ['p' => $p, 'out' => $outFile, 'start' => microtime(true), 'timeout' => $timeout,
            'done' => $done, 'killed' => false];
    }

    private function poll(): void
    {
        foreach ($this->running as $i => &$r) {
            $st = proc_get_status($r['p']);
            $elapsed = microtime(true) - $r['start'];
            if ($st['running']) {
                if ($elapsed > $r['timeout'] && !$r['killed']) {
                    // Kill the whole process group is not possible without setsid; kill the child.
                    proc_terminate($r['p'], 9);
                    $r['killed'] = true;
                }
                continue;
            }
            proc_close($r['p']);
            $out = (string) file_get_contents($r['out']);
            @unlink($r['out']);
            $sig = $st['signaled'] ? $st['termsig'] : null;
            $cb = $r['done'];
            unset($this->running[$i]);
            $cb($st['exitcode'], $sig, $r['killed'], $out, $elapsed);
        }
        unset($r);
        $this->running = array_values($this->running);
    }
}

/* --------------------------------------------------------------------- per-seed bookkeeping */

$env = getenv();
unset($env['FUZZ_SEQ_ONLY']);
// The programs with network I/O find the fault proxy (tests/chaos/proxy.inc) and its source here.
$env['ASYNC_SRC_ROOT'] = $root;
$env['ASYNC_SO'] = realpath($module);
if (!in_array($opts['net'], ['auto', 'on', 'off'], true)) {
    fwrite(STDERR, "--net must be auto, on or off\n");
    exit(2);
}
$netSeeds = 0;
// The echo upstream and one fault proxy per entry of the palette, for the whole run: the programs
// with network I/O get their addresses in FUZZ_NET (spec => address) and start nothing themselves.
if ($opts['net'] !== 'off') {
    require_once __DIR__ . '/generate.php';
    require_once "$root/tests/chaos/proxy.inc";
    try {
        $echo = ChaosEcho::start(quiet: true);
        $netProxies = [];
        foreach ([...array_column(FuzzGen::NET_PALETTE, 0), 'blackhole'] as $spec) {
            $netProxies[$spec] = ChaosProxy::start($echo->addr, $spec, 1, ['--quiet']);
        }
        $env['FUZZ_NET'] = json_encode(array_map(fn ($p) => $p->addr, $netProxies));
        // A program run alone (a saved regression) starts its own from the binary built here.
        $env['ASYNC_CHAOS_PROXY'] = trim((string) shell_exec('bash ' . escapeshellarg("$root/scripts/chaos-proxy.sh")
            . ' --print-binary 2>/dev/null'));
    } catch (Throwable $e) {
        echo "the fault proxy cannot run here (the seeds with network I/O will fail): ", $e->getMessage(), "\n";
    }
}
$durations = [];
$results = [];    // seed => ['fail' => [reasons], 'pending' => n, 'expected' => ?string]
$failedSeeds = [];
$t0 = microtime(true);
$pool = new Pool($jobs);

$describe = function (int $status, ?int $sig, bool $timedOut, string $out, int $limit): string {
    if ($timedOut) {
        return "timed out after {$limit}s";
    }
    if ($sig !== null) {
        return "killed by signal $sig";
    }
    return "exit status $status";
};

$finishSeed = function (int $seed) use (&$results, &$failedSeeds, $opts, $first, $last) {
    $r = $results[$seed];
    if ($r['fail']) {
        $failedSeeds[$seed] = $r['fail'];
    }
    if (!$opts['quiet']) {
        $n = count($results) ;
        printf("[%d/%d] seed %d: %s\n", $seed - $first + 1, $last - $first + 1, $seed,
            $r['fail'] ? 'FAIL ' . implode(' | ', array_map(fn($f) => strtok($f, "\n"), $r['fail'])) : 'ok');
    }
};

for ($seed = $first; $seed <= $last; $seed++) {
    $prog = "$work/seed-$seed.php";
    $cmd = [$php, $gen, (string) $seed];
    if ($opts['size'] !== null) {
        $cmd[] = '--size=' . (int) $opts['size'];
    }
    if ($opts['avoid'] !== null) {
        $cmd[] = '--avoid=' . $opts['avoid'];
    }
    $cmd[] = '--net=' . $opts['net'];
    $src = shell_exec(implode(' ', array_map('escapeshellarg', $cmd)));
    if (!is_string($src) || !str_starts_with($src, '<?php')) {
        $results[$seed] = ['fail' => ['generator failed'], 'pending' => 0];
        $finishSeed($seed);
        continue;
    }
    file_put_contents($prog, $src);
    $net = !str_contains($src, "\nconst NET_FAULTS = [];\nconst NET_BLACK = false;\n");
    $netSeeds += $net ? 1 : 0;
    $results[$seed] = ['fail' => [], 'pending' => 1, 'expected' => null, 'net' => $net];
    $s = $seed;
    // 1. the expected line, from the sequential run only
    $pool->add([$php, ...$phpArgs, $prog], $env + ['FUZZ_SEQ_ONLY' => '1'], $timeout,
        function ($status, $sig, $to, $out, $secs) use ($s, $prog, &$results, $pool, $php, $phpArgs, $env, $timeout,
            $opts, $vgEvery, $hasValgrind, $describe, $finishSeed, &$durations) {
            $out = trim($out);
            if ($status !== 0 || !preg_match('/^OK -?\d+$/', $out)) {
                $results[$s]['fail'][] = 'sequential run (generator bug?): ' . $describe($status, $sig, $to, '', $timeout)
                    . ": $out";
                $results[$s]['pending']--;
                $finishSeed($s);
                return;
            }
            $results[$s]['expected'] = $out;
            $runs = [['schedule_seed' => $s, 'valgrind' => false], ['schedule_seed' => 0, 'valgrind' => false]];
            if ($hasValgrind && ($opts['valgrind'] || ($vgEvery > 0 && $s % $vgEvery === 0))) {
                $runs[] = ['schedule_seed' => $s, 'valgrind' => true];
            }
            foreach ($runs as $run) {
                $results[$s]['pending']++;
                $cmd = [$php, ...$phpArgs, '-d', 'async.schedule_seed=' . $run['schedule_seed'], $prog];
                $e = $env;
                $limit = $timeout;
                if ($run['valgrind']) {
                    $cmd = ['valgrind', '-q', '--error-exitcode=99', '--leak-check=full', '--errors-for-leak-kinds=definite',
                        '--show-leak-kinds=definite', '--num-callers=30', ...$cmd];
                    $e += ['USE_ZEND_ALLOC' => '0', 'ZEND_DONT_UNLOAD_MODULES' => '1'];
                    $limit = $timeout * 20;
                }
                $pool->add($cmd, $e, $limit, function ($status, $sig, $to, $out, $secs) use ($s, $run, $limit, $prog,
                    &$results, $describe, $finishSeed, $php, $phpArgs, &$durations) {
                    $durations[] = [$secs, $s, $run['valgrind'] ? 'valgrind' : 'schedule_seed=' . $run['schedule_seed']];
                    $expected = $results[$s]['expected'];
                    $body = trim(preg_replace('/^==\d+== Warning: client switching stacks\?.*\n|^==\d+==\s+.*(?:set address range perms|to suppress, use|further instances).*\n/m', '', $out));
                    if ($to || $sig !== null || $status !== 0 || $body !== $expected) {
                        $what = $run['valgrind'] ? 'valgrind' : 'schedule_seed=' . $run['schedule_seed'];
                        $results[$s]['fail'][] = "$what: " . $describe($status, $sig, $to, $out, $limit)
                            . ', output: ' . substr(str_replace("\n", ' / ', $body), 0, 600);
                    }
                    if (--$results[$s]['pending'] === 0) {
                        $finishSeed($s);
                    }
                }, true);
            }
            if (--$results[$s]['pending'] === 0) {
                $finishSeed($s);
            }
        });
}
$pool->run();
$secs = microtime(true) - $t0;

/* --------------------------------------------------------------------- report */

ksort($failedSeeds);
$rel = fn(string $p) => str_starts_with($p, "$root/") ? substr($p, strlen($root) + 1) : $p;
foreach ($failedSeeds as $seed => $reasons) {
    echo "\nseed $seed failed:\n";
    foreach ($reasons as $r) {
        echo "  $r\n";
    }
    $size = ($opts['size'] !== null ? ' --size=' . (int) $opts['size'] : '')
        . ($opts['avoid'] !== null ? ' --avoid=' . $opts['avoid'] : '')
        . ($opts['net'] !== 'auto' ? ' --net=' . $opts['net'] : '');
    // A program with network I/O finds the proxy from the repository (the current directory).
    $net = $results[$seed]['net'] ?? false;
    echo "  reproduce: php {$rel($gen)} $seed$size > /tmp/seed-$seed.php && "
        . "php -n -d extension={$rel($module)} -d async.debug_deadlock=0 -d async.schedule_seed=$seed /tmp/seed-$seed.php"
        . ($net ? '   (from the repository: it has network I/O through the fault proxy)' : '') . "\n";
    if ($opts['save'] && isset($results[$seed]['expected'])) {
        $dir = __DIR__ . '/regressions';
        @mkdir($dir, 0777, true);
        $file = "$dir/seed-$seed.phpt";
        $src = file_get_contents("$work/seed-$seed.php");
        file_put_contents($file, "--TEST--\nfuzz regression: seed $seed$size (tests/fuzz/generate.php)\n"
            . "--SKIPIF--\n<?php if (!extension_loaded('async')) die('skip async not loaded');"
            . ($net ? " require __DIR__ . '/../../chaos/proxy.inc'; if ((\$r = chaos_skip_reason()) !== '') die(\"skip \$r\");" : '')
            . " ?>\n"
            . "--INI--\nasync.schedule_seed=$seed\nasync.debug_deadlock=0\nmemory_limit=256M\n"
            . "--FILE--\n$src--EXPECT--\n{$results[$seed]['expected']}\n");
        echo "  saved: {$rel($file)}\n";
    }
}
if (!$opts['keep']) {
    array_map('unlink', glob("$work/*") ?: []);
    @rmdir($work);
} else {
    echo "\nprograms kept in $work\n";
}
$total = $last - $first + 1;
$failed = count($failedSeeds);
rsort($durations);
printf("\nseeds %d..%d (%d with network I/O) in %.1fs (%d jobs); slowest runs: %s\n", $first, $last, $netSeeds, $secs, $jobs,
    implode(', ', array_map(fn($d) => sprintf('seed %d %s %.1fs', $d[1], $d[2], $d[0]), array_slice($durations, 0, 5))));
echo 'fuzz: ', $total - $failed, ' passed, ', $failed, " failed\n";
exit($failed ? 1 : 0);
