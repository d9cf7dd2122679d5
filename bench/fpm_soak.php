<?php
/*
 * fpm_soak: a private php-fpm (pm = static, 2 workers, ext-async loaded) serves N requests whose
 * script works with coroutines (spawns, a channel, a TaskGroup, timers, one coroutine left
 * behind for the drain); every worker's RSS is read from /proc after a warm-up and at the end.
 *
 * Goal: no worker grows by more than 1 MB between the two readings.
 * Baseline (same run): the same number of requests to a script without coroutines, on the same
 * workers, before the coroutine phase: its RSS growth is the engine's own noise.
 *
 *   php -n -d extension=modules/async.so bench/fpm_soak.php [requests=10000] [warmup=1000]
 *
 * Needs php8.2-fpm and libfcgi-bin (scripts/setup.sh installs them). Requests go one after the
 * other through cgi-fcgi, as nginx would send them.
 */
declare(strict_types=1);
require __DIR__ . '/common.php';
require __DIR__ . '/../tests/inc/fpm.inc';

if ($reason = fpm_skip_reason()) {
    fwrite(STDERR, "fpm_soak: $reason\n");
    exit(2);
}
$requests = (int) ($argv[1] ?? bench_scale(10_000));
$warmup = (int) ($argv[2] ?? max(1, intdiv($requests, 10)));

$work = <<<'PHP'
<?php
use Async\{Channel, TaskGroup};
use function Async\{spawn, await, delay};
$ch = new Channel(4);
$producer = spawn(function () use ($ch) { for ($i = 0; $i < 20; $i++) { $ch->send($i); } $ch->close(); });
$sum = 0;
foreach ($ch as $v) { $sum += $v; }
$group = new TaskGroup(4);
for ($i = 0; $i < 8; $i++) { $group->spawn(function () use ($i) { delay(0); return str_repeat('x', 100 * $i); }); }
$group->close();
$group->awaitCompletion();
await($producer);
spawn(fn() => delay(1)); // left for the drain after the script
echo getmypid(), ' ', $sum;
PHP;
$plain = "<?php\n\$a = []; for (\$i = 0; \$i < 200; \$i++) { \$a[] = str_repeat('x', 100); }\necho getmypid(), ' ', count(\$a);";

$fpm = fpm_start(['memory_limit' => '128M'], ['work.php' => $work, 'plain.php' => $plain], 2);

function rss_kib(int $pid): int
{
    foreach (file("/proc/$pid/status") ?: [] as $line) {
        if (str_starts_with($line, 'VmRSS:')) {
            return (int) trim(substr($line, 6));
        }
    }
    return -1;
}

/* Runs $n requests of $script; returns the worker pids seen. */
function soak(array $fpm, string $script, int $n): array
{
    $pids = [];
    for ($i = 0; $i < $n; $i++) {
        [$body, , $exit] = fpm_request($fpm, $script);
        if ($exit !== 0 || !str_contains($body, ' ')) {
            fwrite(STDERR, "request $i of $script failed: exit $exit, body " . substr($body, 0, 200) . "\n");
            exit(1);
        }
        $pids[(int) $body] = true;
    }
    return array_keys($pids);
}

function phase(array $fpm, string $script, int $warmup, int $requests): array
{
    $pids = soak($fpm, $script, $warmup);
    $before = [];
    foreach ($pids as $pid) { $before[$pid] = rss_kib($pid); }
    $t = microtime(true);
    $pids = array_unique(array_merge($pids, soak($fpm, $script, $requests)));
    $seconds = microtime(true) - $t;
    $growth = [];
    foreach ($pids as $pid) {
        $growth[$pid] = isset($before[$pid]) ? rss_kib($pid) - $before[$pid] : null;
    }
    return [$before, $growth, $seconds];
}

bench_header("fpm_soak: $requests requests after $warmup warm-up, 2 static workers");
[$b0, $g0, $s0] = phase($fpm, 'plain.php', $warmup, $requests);
[$b1, $g1, $s1] = phase($fpm, 'work.php', $warmup, $requests);
foreach ($g0 as $pid => $g) {
    printf("  baseline worker %d: RSS %d KiB after warm-up, %+d KiB after %d requests\n", $pid, $b0[$pid] ?? -1, $g ?? 0, $requests);
}
foreach ($g1 as $pid => $g) {
    printf("  coroutine worker %d: RSS %d KiB after warm-up, %+d KiB after %d requests\n", $pid, $b1[$pid] ?? -1, $g ?? 0, $requests);
}
$worst = max(array_map(fn($g) => $g ?? 0, $g1));
$worst0 = max(array_map(fn($g) => $g ?? 0, $g0));
printf("RESULT fpm_soak worst worker RSS growth with coroutines: %+d KiB over %d requests (%.2f ms/request)\n", $worst, $requests, $s1 * 1000 / $requests);
printf("RESULT fpm_soak baseline (no coroutines): %+d KiB over %d requests (%.2f ms/request)\n", $worst0, $requests, $s0 * 1000 / $requests);
printf("GOAL fpm_soak RSS growth <= 1024 KiB: %s (%+d KiB; baseline %+d KiB)\n", $worst <= 1024 ? 'MET' : 'MISSED', $worst, $worst0);
