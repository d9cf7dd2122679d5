<?php
/*
 * scripts/php-src-compare.php — the report of scripts/php-src-tests.sh: reads the runs it left in
 * WORK (stock/, control/, coroutine/, maybe bare/: each run-tests' log run.log, the outputs of
 * failed tests NAME.out and their diffs NAME.diff, and wrapped/), and classifies every test whose
 * result differs between stock and coroutine:
 *   deliberate   listed in LIST ("path  reason", one a line; # starts a comment)
 *   artefact     the control run (the wrapper without a coroutine) differs the same way
 *   unexplained  anything else: fails the lane (exit status 1)
 * A result is PASS, FAIL, SKIP, BORK, XFAIL, ... (a pass on run-tests' retry counts as PASS and is
 * named); two FAILs differ when their outputs do, once the wrapper's stack frames are taken out
 * and every number is read as N (ports, pids, sizes and timings vary from run to run).
 * Usage: php -n scripts/php-src-compare.php WORK LIST TREE SECONDS DIR...
 *   TREE: the path the tests ran at (the wrapper named the scripts it took by md5 of their path)
 */
[, $work, $listFile, $tree, $seconds] = $argv;
$dirs = array_slice($argv, 5);

/* run-tests' result lines: "STATUS title [path.phpt] extra", after a carriage return. */
function results(string $log, array &$retried): array
{
    $r = [];
    $text = is_file($log) ? strtr(file_get_contents($log), "\r", "\n") : '';
    foreach (explode("\n", $text) as $line) {
        if (!preg_match('~^(PASS|FAIL|SKIP|BORK|XFAIL|XPASS|WARN|LEAK|XLEAK|LEAK&FAIL)\s.*\[([^\]\s]+\.phpt)\]~', $line, $m)) {
            continue;
        }
        [, $status, $path] = $m;
        if ($status === 'WARN') {
            if (strpos($line, 'passed on retry') !== false) {
                $retried[$path] = true;
            }
            $status = 'PASS';
        }
        $r[$path] = $status;
    }
    return $r;
}

/* A failed test's output, without the wrapper's frames, numbers read as N. */
function output(string $run, string $path): string
{
    $f = $run . '/' . substr($path, 0, -5) . '.out';
    if (!is_file($f)) {
        return '';
    }
    $out = [];
    foreach (explode("\n", str_replace("\r\n", "\n", file_get_contents($f))) as $l) {
        if (preg_match('~^#\d+ .*php-src-wrap\.php\(\d+\): ~', $l) || preg_match('~^#\d+ \[internal function\]: \{closure\}\(\)$~', $l)) {
            continue;
        }
        $out[] = preg_replace('~\d+~', 'N', $l);
    }
    return implode("\n", $out);
}

function same(array $a, array $b, string $ra, string $rb, string $path): bool
{
    $sa = $a[$path] ?? 'MISSING';
    $sb = $b[$path] ?? 'MISSING';
    return $sa === $sb && ($sa !== 'FAIL' || output($ra, $path) === output($rb, $path));
}

/* The first lines of what a run printed against what the test expects (run-tests' NAME.diff),
 * else a line diff of two outputs. */
function show(string $run, string $path, int $max = 24): string
{
    $f = $run . '/' . substr($path, 0, -5) . '.diff';
    if (!is_file($f)) {
        return '';
    }
    $lines = explode("\n", rtrim(file_get_contents($f)));
    $more = count($lines) > $max ? sprintf("\n      ... (%d more lines: %s)", count($lines) - $max, $f) : '';
    return '      ' . implode("\n      ", array_map(fn($l) => strlen($l) > 200 ? substr($l, 0, 197) . '...' : $l, array_slice($lines, 0, $max))) . $more . "\n";
}

$retried = ['stock' => [], 'control' => [], 'coroutine' => [], 'bare' => []];
$stock = results("$work/stock/run.log", $retried['stock']);
$control = results("$work/control/run.log", $retried['control']);
$coroutine = results("$work/coroutine/run.log", $retried['coroutine']);
$hasBare = is_dir("$work/bare");
$bare = $hasBare ? results("$work/bare/run.log", $retried['bare']) : [];

$listed = [];
foreach (is_file($listFile) ? file($listFile, FILE_IGNORE_NEW_LINES) : [] as $line) {
    $line = trim($line);
    if ($line === '' || $line[0] === '#') {
        continue;
    }
    [$path, $why] = preg_split('~\s+~', $line, 2) + [1 => ''];
    $listed[$path] = $why;
}

$all = array_keys($stock + $coroutine);
sort($all);
$dirOf = function (string $path) use ($dirs): string {
    foreach ($dirs as $d) {
        if (strncmp($path, rtrim($d, '/') . '/', strlen(rtrim($d, '/')) + 1) === 0) {
            return $d;
        }
    }
    return dirname($path);
};
$count = ['same' => 0, 'deliberate' => 0, 'artefact' => 0, 'unexplained' => 0];
$perDir = [];
$sections = ['deliberate' => '', 'artefact' => '', 'unexplained' => ''];
$wrapped = 0;
foreach ($all as $path) {
    $d = $dirOf($path);
    $perDir[$d] ??= ['tests' => 0, 'ran' => 0, 'wrapped' => 0] + array_fill_keys(array_keys($count), 0);
    $perDir[$d]['tests']++;
    $s0 = $stock[$path] ?? 'MISSING';
    $s1 = $control[$path] ?? 'MISSING';
    $s2 = $coroutine[$path] ?? 'MISSING';
    if ($s0 !== 'SKIP') {
        $perDir[$d]['ran']++;
    }
    if (is_file("$work/coroutine/wrapped/" . md5("$tree/" . substr($path, 0, -5) . '.php'))) {
        $perDir[$d]['wrapped']++;
        $wrapped++;
    }
    if (same($stock, $coroutine, "$work/stock", "$work/coroutine", $path)) {
        $class = 'same';
    } elseif (same($control, $coroutine, "$work/control", "$work/coroutine", $path)) {
        $class = 'artefact';
    } elseif (isset($listed[$path])) {
        $class = 'deliberate';
    } else {
        $class = 'unexplained';
    }
    $count[$class]++;
    $perDir[$d][$class]++;
    if ($class === 'same') {
        continue;
    }
    $line = sprintf("  %s  stock %s, coroutine %s, control %s%s\n", $path, $s0, $s2, $s1,
        isset($retried['coroutine'][$path]) ? ' (coroutine passed on retry)' : '');
    if ($class === 'deliberate') {
        $line .= "      why: {$listed[$path]}\n";
    } elseif ($class === 'unexplained') {
        $line .= show("$work/coroutine", $path) ?: show("$work/stock", $path);
    }
    $sections[$class] .= $line;
}

$php = trim(shell_exec(escapeshellarg(PHP_BINARY) . ' -n -r "echo PHP_VERSION;"') ?? '');
echo "php-src's tests (Debian's php8.2 source package) against PHP $php (", PHP_BINARY, ")\n";
echo "deliberate differences: $listFile\n\n";
printf("%-40s %6s %6s %8s %6s %10s %9s %11s\n", 'directory', 'tests', 'ran', 'wrapped', 'same', 'deliberate', 'artefacts', 'unexplained');
foreach ($perDir as $d => $c) {
    printf("%-40s %6d %6d %8d %6d %10d %9d %11d\n", $d, $c['tests'], $c['ran'], $c['wrapped'], $c['same'], $c['deliberate'], $c['artefact'], $c['unexplained']);
}
echo "(ran: not skipped in the stock run; wrapped: the wrapper took the script in the coroutine run)\n";
foreach (['stock', 'control', 'coroutine', 'bare'] as $run) {
    if (is_file("$work/$run/seconds")) {
        printf("%s run: %d s", $run, (int) file_get_contents("$work/$run/seconds"));
        $counted = preg_match('/^Number of tests\s*:\s*(\d+)/m', strtr((string) @file_get_contents("$work/$run/run.log"), "\r", "\n"), $m) ? (int) $m[1] : -1;
        $read = count(['stock' => $stock, 'control' => $control, 'coroutine' => $coroutine, 'bare' => $bare][$run]);
        if ($counted !== $read) {
            printf(" (run-tests counted %d tests, %d results read from its log)", $counted, $read);
        }
        if ($retried[$run]) {
            echo ", passed only on retry: ", implode(' ', array_keys($retried[$run]));
        }
        echo "\n";
    }
}
echo "\n";
$titles = [
    'deliberate' => 'Deliberate differences (the spec says so)',
    'artefact' => 'Wrapper artefacts (the control run, without a coroutine, differs the same way)',
    'unexplained' => 'UNEXPLAINED differences',
];
foreach ($titles as $class => $title) {
    if ($sections[$class] !== '') {
        echo "$title: {$count[$class]}\n", $sections[$class], "\n";
    }
}
$stale = [];
foreach ($listed as $path => $why) {
    if (!in_array($path, $all, true)) {
        continue;
    }
    $s0 = $stock[$path] ?? 'MISSING';
    $s2 = $coroutine[$path] ?? 'MISSING';
    if (same($stock, $coroutine, "$work/stock", "$work/coroutine", $path) || same($control, $coroutine, "$work/control", "$work/coroutine", $path)) {
        $stale[] = "  $path  stock $s0, coroutine $s2";
    }
}
if ($stale) {
    echo "Listed as deliberate but not a runtime difference in this run (skipped here, or fixed?):\n", implode("\n", $stale), "\n\n";
}

$status = $count['unexplained'] > 0 ? 1 : 0;
if ($hasBare) {
    $differ = [];
    $failing = 0;
    foreach (array_keys($bare + $stock) as $path) {
        if (($bare[$path] ?? '') === 'FAIL') {
            $failing++;
        }
        if (!same($bare, $stock, "$work/bare", "$work/stock", $path)) {
            $differ[] = sprintf("  %s  without the module %s, with it %s\n%s", $path, $bare[$path] ?? 'MISSING', $stock[$path] ?? 'MISSING', show("$work/stock", $path));
        }
    }
    if ($differ) {
        echo "MERELY LOADING THE MODULE changes these results:\n", implode('', $differ), "\n";
        $status = 1;
    }
    printf("php-src-loaded: %d tests, %d fail without the module (Debian's build on this machine), %d differ with the module loaded\n",
        count($bare + $stock), $failing, count($differ));
}
printf("%d of the %d tests ran wrapped in the coroutine run; the runs took %d s\n", $wrapped, count($all), (int) $seconds);
printf("php-src-coroutine: %d tests, %d same, %d deliberate, %d artefacts, %d unexplained\n",
    count($all), $count['same'], $count['deliberate'], $count['artefact'], $count['unexplained']);
exit($status);
