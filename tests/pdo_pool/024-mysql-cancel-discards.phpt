--TEST--
PDO pool (mysql): a coroutine cancelled mid-query gets the cancellation at once and its connection is destroyed: the pool counts one less, the server sees that session end, and no later coroutine is ever handed it (their queries work on other connections)
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
use function Async\{spawn, await, await_all_or_fail, delay, suspend, timeout};

$db = pool_start_mariadb();
$pdo = pool_mysql($db, [PDO::ATTR_POOL_MAX => 2]);
$pool = $pdo->getPool();
$mon = pool_monitor_mysql($db);
$sessions = fn () => array_map('intval', $mon->query("SELECT ID FROM information_schema.PROCESSLIST WHERE DB = 't'")->fetchAll(PDO::FETCH_COLUMN));

// two pooled connections, both idle
function ids_at_once(PDO $pdo, int $n): array
{
    $bound = new ArrayObject();
    return await_all_or_fail(array_map(fn () => spawn(function () use ($pdo, $bound, $n) {
        $st = $pdo->query('SELECT CONNECTION_ID()');
        $bound[] = 1;
        while (count($bound) < $n) {
            suspend();
        }
        return (int) $st->fetchColumn();
    }), range(1, $n)), timeout(5000));
}
$before = ids_at_once($pdo, 2);
echo 'pool: ', count($pool), ' connections, ', count(array_unique($before)), " distinct\n";

$a = spawn(fn () => $pdo->query('SELECT SLEEP(0.5), CONNECTION_ID()'));
do {    // until the server runs it
    delay(2);
    $victim = $mon->query("SELECT ID FROM information_schema.PROCESSLIST WHERE INFO LIKE 'SELECT SLEEP(0.5)%'")->fetchColumn();
} while ($victim === false);
$victim = (int) $victim;
$t0 = hrtime(true);
$a->cancel();
try {
    await($a);
    echo "not cancelled\n";
} catch (Throwable $e) {
    $ms = ms_since($t0);
    echo get_class($e), $ms < 100 * slow_factor() ? ' at once' : " after $ms ms", "\n";
}
echo 'the victim was a pooled one: ', var_export(in_array($victim, $before, true), true), "\n";
echo 'pool right after: ', count($pool), ' connection(s), ', $pool->activeCount(), " active\n";

// the server sees the session end (its SLEEP(0.5) over, it finds the client gone)
$t0 = hrtime(true);
while (in_array($victim, $sessions(), true) && ms_since($t0) < 5000) {
    delay(20);
}
echo 'victim session on the server: ', in_array($victim, $sessions(), true) ? 'still there' : 'gone', "\n";

// later coroutines: never the victim, and their queries work
$seen = [];
for ($round = 0; $round < 3; $round++) {
    array_push($seen, ...ids_at_once($pdo, 2));
}
echo 'later coroutines: ', count($seen), ' queries answered, victim among them: ', var_export(in_array($victim, $seen, true), true), "\n";
echo 'pool: ', count($pool), ', idle ', $pool->idleCount(), "\n";
?>
--EXPECT--
pool: 2 connections, 2 distinct
Async\AsyncCancellation at once
the victim was a pooled one: true
pool right after: 1 connection(s), 0 active
victim session on the server: gone
later coroutines: 6 queries answered, victim among them: false
pool: 2, idle 2
