--TEST--
With curl_init() disabled the hooks have nothing to look at on any handle (they redirect ext/curl's calls into libcurl, not its objects): no warning, no crash, the curl_multi functions work in a coroutine
--SKIPIF--
<?php
require __DIR__ . '/../inc/http_fixture.inc';
$why = http_fixture_skip_reason();
if ($why !== '') die("skip $why");
?>
--EXTENSIONS--
curl
--INI--
pcre.jit=0
--FILE--
<?php
require __DIR__ . '/../inc/bounds.inc';
$script = tempnam(sys_get_temp_dir(), 'async-curl-disabled') . '.php';
file_put_contents($script, <<<'PHP'
<?php
use function Async\{spawn, await};
echo "script runs\n";
echo await(spawn(function () {
    $mh = curl_multi_init();
    $r = curl_multi_exec($mh, $active);
    return "multi exec=$r active=$active select=" . curl_multi_select($mh, 0.01);
})), "\n";
PHP);
$p = proc_open([PHP_BINARY, '-n', '-d', 'extension=curl', '-d', 'extension=' . async_module_path(),
    '-d', 'disable_functions=curl_init', '-d', 'display_errors=stderr', $script],
    [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
$out = stream_get_contents($pipes[1]);
$err = stream_get_contents($pipes[2]);
$rc = proc_close($p);
unlink($script);
echo $out;
echo "exit $rc\n";
echo $err === '' ? "no warning\n" : "stderr: $err\n";
?>
--EXPECT--
script runs
multi exec=0 active=0 select=0
exit 0
no warning
