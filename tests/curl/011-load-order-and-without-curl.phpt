--TEST--
ext-async with ext/curl loaded before it, after it, or not at all: the hooks work in either order, and without curl nothing breaks
--SKIPIF--
<?php
require __DIR__ . '/../inc/http_fixture.inc';
$why = http_fixture_skip_reason();
if ($why !== '') die("skip $why");
?>
--EXTENSIONS--
curl
--INI--
async.debug_deadlock=0
--FILE--
<?php
require __DIR__ . '/../inc/http_fixture.inc';

$server = http_fixture_start();
$so = async_module_path();
$script = tempnam(sys_get_temp_dir(), 'async-curl-order') . '.php';
file_put_contents($script, <<<'PHP'
<?php
use function Async\{spawn, await_all};
if (!function_exists('curl_exec')) {
    echo "no curl: ", await_all([spawn(fn() => 1), spawn(fn() => 2)])[0] === [1, 2] ? "async works" : "broken", "\n";
    exit;
}
$t0 = hrtime(true);
[$r] = await_all(array_map(fn($i) => spawn(function () use ($i) {
    $ch = curl_init(getenv('FIXTURE_URL') . "/delay?ms=300&body=$i");
    curl_setopt($ch, CURLOPT_RETURNTRANSFER, true);
    return curl_exec($ch);
}), [1, 2, 3]));
$ms = (hrtime(true) - $t0) / 1e6;
echo implode(',', $r), ' ', $ms < 600 * (getenv('USE_ZEND_ALLOC') === '0' ? 8 : 1) ? 'overlapped' : "serial ($ms ms)", "\n";
PHP);
$env = ['FIXTURE_URL' => $server['url']] + getenv();
$runs = [
    'curl first' => ['-d', 'extension=curl', '-d', "extension=$so"],
    'async first' => ['-d', "extension=$so", '-d', 'extension=curl'],
    'no curl' => ['-d', "extension=$so"],
];
foreach ($runs as $name => $flags) {
    $p = proc_open(array_merge([PHP_BINARY, '-n'], $flags, [$script]), [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes, null, $env);
    $out = stream_get_contents($pipes[1]) . stream_get_contents($pipes[2]);
    proc_close($p);
    echo "$name: ", trim($out), "\n";
}
unlink($script);
?>
--EXPECT--
curl first: 1,2,3 overlapped
async first: 1,2,3 overlapped
no curl: no curl: async works
