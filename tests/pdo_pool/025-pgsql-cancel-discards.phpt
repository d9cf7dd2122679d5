--TEST--
PDO pool (pgsql): a coroutine cancelled mid-query (pg_sleep(5)) gets the cancellation at once, the server's query is cancelled, and its connection is destroyed: the pool counts one less, its backend ends, and no later coroutine is ever handed it (their queries work on other backends)
--SKIPIF--
<?php
require __DIR__ . '/../inc/servers.inc';
$why = servers_skip_reason('postgres', ['pdo_pgsql']);
if ($why !== '') die("skip $why");
?>
--EXTENSIONS--
pdo
pdo_pgsql
--INI--
async.debug_deadlock=0
--FILE--
<?php
require __DIR__ . '/pool.inc';
use function Async\{spawn, await, await_all_or_fail, delay, suspend, timeout};

$db = servers_start_postgres();
$pdo = pool_pgsql($db, [PDO::ATTR_POOL_MAX => 2]);
$pool = $pdo->getPool();
$mon = pool_monitor_pgsql($db);
$sessions = fn () => array_map('intval', $mon->query("SELECT pid FROM pg_stat_activity WHERE backend_type = 'client backend'")->fetchAll(PDO::FETCH_COLUMN));

// two pooled connections, both idle
function ids_at_once(PDO $pdo, int $n): array
{
    $bound = new ArrayObject();
    return await_all_or_fail(array_map(fn () => spawn(function () use ($pdo, $bound, $n) {
        $st = $pdo->query('SELECT pg_backend_pid()');
        $bound[] = 1;
        while (count($bound) < $n) {
            suspend();
        }
        return (int) $st->fetchColumn();
    }), range(1, $n)), timeout(5000));
}
$before = ids_at_once($pdo, 2);
echo 'pool: ', count($pool), ' connections, ', count(array_unique($before)), " distinct\n";

$a = spawn(fn () => $pdo->query('SELECT pg_sleep(5), pg_backend_pid()'));
do {    // until the server runs it
    delay(2);
    $victim = $mon->query("SELECT pid FROM pg_stat_activity WHERE state = 'active' AND query LIKE 'SELECT pg_sleep(5)%'")->fetchColumn();
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
echo 'its query still running on the server: ', $mon->query("SELECT count(*) FROM pg_stat_activity WHERE state = 'active' AND query LIKE 'SELECT pg_sleep(5)%'")->fetchColumn(), "\n";
echo 'pool right after: ', count($pool), ' connection(s), ', $pool->activeCount(), " active\n";

// the server sees the backend end (the client closed it)
$t0 = hrtime(true);
while (in_array($victim, $sessions(), true) && ms_since($t0) < 5000) {
    delay(20);
}
echo 'victim backend on the server: ', in_array($victim, $sessions(), true) ? 'still there' : 'gone', "\n";

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
its query still running on the server: 0
pool right after: 1 connection(s), 0 active
victim backend on the server: gone
later coroutines: 6 queries answered, victim among them: false
pool: 2, idle 2
