--TEST--
PDO pool (mysql, MAX 1): a connection the server kills (KILL from another session) while idle in the pool, or between two calls of a coroutine in a transaction: the coroutine that uses it gets a failure (ERRMODE_SILENT: false), and the pool never hands it out again: the next coroutines get a new, working connection
--SKIPIF--
<?php
require __DIR__ . '/../inc/servers.inc';
$why = servers_skip_reason('mariadb', ['pdo_mysql']);
if ($why !== '') die("skip $why");
?>
--EXTENSIONS--
mysqlnd
pdo
pdo_mysql
--INI--
async.debug_deadlock=0
--FILE--
<?php
require __DIR__ . '/pool.inc';
use function Async\{spawn, await, delay, timeout};

$db = pool_start_mariadb();
$pdo = pool_mysql($db, [PDO::ATTR_POOL_MAX => 1, PDO::ATTR_ERRMODE => PDO::ERRMODE_SILENT]);
$pool = $pdo->getPool();
$mon = pool_monitor_mysql($db);
function kill(PDO $mon, int $id): void
{
    $mon->exec("KILL $id");
    while ($mon->query("SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE ID = $id")->fetchColumn() > 0) {
        delay(2);
    }
}
$id = fn () => (int) $pdo->query('SELECT CONNECTION_ID()')->fetchColumn();
$error = fn ($r) => $r === false ? 'it fails' : 'it returns ' . get_debug_type($r);

// 1. killed while idle in the pool
$victim = await(spawn($id));
echo 'idle: ', $pool->idleCount(), "\n";
kill($mon, $victim);
echo 'the user of the killed one: ', await(spawn(fn () => $error($pdo->query('SELECT 1')))), "\n";
$next = [await(spawn($id)), await(spawn($id))];
echo 'next coroutines: ', in_array($victim, $next, true) ? 'the killed one' : 'a new one', ', working: ',
    var_export($next[0] > 0 && $next[0] === $next[1], true), ', pool ', count($pool), "\n";

// 2. killed between two calls of a coroutine in a transaction (pinned)
$gates = new Gates();
$victim2 = null;
$a = spawn(function () use ($pdo, $gates, $id, $error, &$victim2) {
    $pdo->beginTransaction();
    $victim2 = $id();
    $gates->wait('go on');
    return $error($pdo->query('SELECT 1'));
});
while ($victim2 === null && !$a->isCompleted()) {
    delay(1);
}
kill($mon, $victim2);
$gates->open('go on');
echo 'in a transaction, its next call: ', await($a, timeout(5000)), "\n";
$next = [await(spawn($id)), await(spawn($id))];
echo 'next coroutines: ', in_array($victim2, $next, true) ? 'the killed one' : 'a new one', ', working: ',
    var_export($next[0] > 0 && $next[0] === $next[1], true), ', pool ', count($pool), "\n";
?>
--EXPECT--
idle: 1
the user of the killed one: it fails
next coroutines: a new one, working: true, pool 1
in a transaction, its next call: it fails
next coroutines: a new one, working: true, pool 1
