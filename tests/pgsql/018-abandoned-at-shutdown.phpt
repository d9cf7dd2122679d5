--TEST--
A coroutine the request's end abandons inside a query (async.shutdown_timeout, it caught its cancellation and queried again): the process ends without a crash, nothing is left running on the server, whether its connection is a global (freed before the coroutine's last turn) or its own
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
$GLOBALS['link'] = pg_connect($conninfo, PGSQL_CONNECT_FORCE_NEW);
spawn(function () use ($conninfo, $mode) {
    $l = $mode === 'global' ? $GLOBALS['link'] : pg_connect($conninfo, PGSQL_CONNECT_FORCE_NEW);
    try {
        pg_query($l, 'SELECT pg_sleep(20) /* first */');
    } catch (Async\AsyncCancellation $e) {
        echo "cancelled at the end, querying again\n";
        pg_query($l, 'SELECT pg_sleep(20) /* stubborn */');
    }
});
delay(100);
echo "script ends\n";
PHP;
$script = sys_get_temp_dir() . '/async-pg-abandon-' . getmypid() . '.php';
file_put_contents($script, $child);
foreach (['global', 'own'] as $mode) {
    $t0 = hrtime(true);
    $cmd = [PHP_BINARY, '-n', '-d', 'extension=pgsql', '-d', 'extension=' . async_module_path(),
        '-d', 'async.shutdown_timeout=300', '-d', 'display_errors=1', '-d', 'log_errors=0', $script, $db['conninfo'], $mode];
    $proc = proc_open($cmd, [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
    $out = stream_get_contents($pipes[1]) . stream_get_contents($pipes[2]);
    $status = proc_close($proc);
    $s = ms_since($t0) / 1000;
    echo "== $mode connection: exit status $status, ", $s < 15 ? 'ended without waiting for the statement' : "took $s s", "\n";
    echo str_contains($out, 'cancelled at the end, querying again') ? "the coroutine queried again\n" : $out;
    echo preg_match('/Request shutdown timeout: \d+ coroutines? still running/', $out) ? "abandoned with the runtime's warning\n" : $out;
    $left = -1;
    for ($i = 0; $i < 50 && $left !== 0; $i++) {
        $left = pg_running($db, 'pg_sleep(20)');
        usleep(20000);
    }
    echo "statements left running: $left\n";
}
@unlink($script);
?>
--EXPECT--
== global connection: exit status 0, ended without waiting for the statement
the coroutine queried again
abandoned with the runtime's warning
statements left running: 0
== own connection: exit status 0, ended without waiting for the statement
the coroutine queried again
abandoned with the runtime's warning
statements left running: 0
