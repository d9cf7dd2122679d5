--TEST--
PDO pool (pgsql): the request ends (exit() in the main flow, or async.shutdown_timeout cancelling what is left) with things still out: a statement kept in a global after its coroutine ended, a coroutine parked inside a transaction, idle MIN connections: the process ends cleanly (exit status 0, no crash, no warning), the open transaction is not committed, and the server is left with none of its sessions
--SKIPIF--
<?php
require __DIR__ . '/../inc/servers.inc';
require __DIR__ . '/../inc/bounds.inc';
$why = servers_skip_reason('postgres', ['pdo_pgsql']);
if ($why !== '') die("skip $why");
if (async_module_path() === null) die('skip the async module path is unknown');
?>
--EXTENSIONS--
pdo
pdo_pgsql
--INI--
async.debug_deadlock=0
--FILE--
<?php
require __DIR__ . '/pool.inc';

$db = servers_start_postgres();
$mon = pool_monitor_pgsql($db);
$mon->exec('CREATE TABLE items (tag TEXT)');
$child = <<<'PHP'
<?php
use function Async\{spawn, await, delay};
$pdo = new PDO($argv[1], 'postgres', '', [PDO::ATTR_POOL_ENABLED => true, PDO::ATTR_POOL_MIN => 2,
    PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION]);
$GLOBALS['kept'] = await(spawn(fn () => $pdo->query("SELECT 'kept statement'")));
spawn(function () use ($pdo) {
    $pdo->beginTransaction();
    $pdo->exec("INSERT INTO items VALUES ('uncommitted')");
    echo "in a transaction, parked\n";
    delay(60000);
});
delay(50);
echo $GLOBALS['kept']->fetchColumn(), "\n";
echo "script ends\n";
if ($argv[2] === 'exit') {
    exit(0);
}
PHP;
$script = sys_get_temp_dir() . '/async-pdo-pool-end-' . getmypid() . '.php';
file_put_contents($script, $child);
foreach (['exit' => [], 'shutdown timeout' => ['-d', 'async.shutdown_timeout=200']] as $end => $ini) {
    $cmd = [PHP_BINARY, '-n', ...child_extension_flags(['pdo', 'pdo_pgsql']), '-d', 'extension=' . async_module_path(),
        '-d', 'async.debug_deadlock=0', '-d', 'display_errors=1', '-d', 'log_errors=0', ...$ini, $script, $db['dsn'], $end];
    $proc = proc_open($cmd, [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
    $out = stream_get_contents($pipes[1]) . stream_get_contents($pipes[2]);
    $status = proc_close($proc);
    echo "== $end: exit status $status, output:\n$out";
    $left = -1;
    for ($i = 0; $i < 100 && $left !== 0; $i++) {   // the server notices closed sessions at once: a moment
        $left = (int) $mon->query("SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()")->fetchColumn();
        usleep(20000);
    }
    echo "sessions left on the server: $left\n";
    echo 'committed rows: ', $mon->query('SELECT count(*) FROM items')->fetchColumn(), "\n";
}
@unlink($script);
?>
--EXPECT--
== exit: exit status 0, output:
in a transaction, parked
kept statement
script ends
sessions left on the server: 0
committed rows: 0
== shutdown timeout: exit status 0, output:
in a transaction, parked
kept statement
script ends
sessions left on the server: 0
committed rows: 0
