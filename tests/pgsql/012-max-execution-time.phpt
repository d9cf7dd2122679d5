--TEST--
max_execution_time ends a request (a fatal error) while coroutines wait in queries: their statements are cancelled on the server, the process does not wait for them
--SKIPIF--
<?php
require __DIR__ . '/../inc/servers.inc';
require __DIR__ . '/../inc/bounds.inc';
$why = servers_skip_reason('postgres', ['pgsql']);
if ($why !== '') die("skip $why");
if (async_module_path() === null) die('skip the async module path is unknown');
?>
--EXTENSIONS--
pgsql
--INI--
async.debug_deadlock=0
--FILE--
<?php
require __DIR__ . '/../inc/bounds.inc';
require __DIR__ . '/../inc/servers.inc';
require __DIR__ . '/../inc/pgsql.inc';

$db = servers_start_postgres();
$child = <<<'PHP'
<?php
use function Async\{spawn, delay};
[, $conninfo, $mode] = $argv;
if ($mode === 'persistent') {
    $GLOBALS['shared'] = pg_pconnect($conninfo);
}
for ($i = 0; $i < 2; $i++) {
    spawn(function () use ($conninfo, $mode) {
        $l = $mode === 'persistent' ? $GLOBALS['shared'] : pg_connect($conninfo, PGSQL_CONNECT_FORCE_NEW);
        pg_query($l, 'SELECT pg_sleep(20) /* left running? */');
    });
}
delay(200);
echo "burning CPU\n";
while (true) {
    hash('sha256', str_repeat('x', 1000));
}
PHP;
$script = sys_get_temp_dir() . '/async-pg-met-' . getmypid() . '.php';
file_put_contents($script, $child);
foreach (['own connections', 'persistent'] as $mode) {
    $t0 = hrtime(true);
    /* niced: its CPU burner leaves the tests running beside it more of the CPU */
    $cmd = ['nice', '-n', '5', PHP_BINARY, '-n', '-d', 'extension=pgsql', '-d', 'extension=' . async_module_path(),
        '-d', 'max_execution_time=1', '-d', 'display_errors=1', $script, $db['conninfo'], $mode === 'persistent' ? 'persistent' : 'own'];
    $proc = proc_open($cmd, [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
    $out = stream_get_contents($pipes[1]) . stream_get_contents($pipes[2]);
    proc_close($proc);
    $s = ms_since($t0) / 1000;
    echo "$mode: ", str_contains($out, 'Maximum execution time of 1 second exceeded') ? 'the fatal error' : $out,
        ', ', $s < 8 ? 'the process ended at once' : "the process took $s s", "\n";
    $left = -1;
    for ($i = 0; $i < 50 && $left !== 0; $i++) {
        $left = pg_running($db, 'left running?');
        usleep(20000);
    }
    echo "statements left running: $left\n";
}
@unlink($script);
?>
--EXPECT--
own connections: the fatal error, the process ended at once
statements left running: 0
persistent: the fatal error, the process ended at once
statements left running: 0
