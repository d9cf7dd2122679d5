--TEST--
PDO pool (mysql): at MAX (1) the waiters get the connection strictly in the order they asked for it (arrival, not spawn order: 3, 1, 5, 2, 4), and the holder asking again right after it let go is served after all of them (no barging)
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
use function Async\{spawn, await, await_all_or_fail, suspend, timeout};

$db = pool_start_mariadb();
$pdo = pool_mysql($db, [PDO::ATTR_POOL_MAX => 1]);
$pool = $pdo->getPool();
$gates = new Gates();
$order = [];

$holder = spawn(function () use ($pdo, $gates, &$order) {
    $st = $pdo->query('SELECT CONNECTION_ID()');   // pinned while $st lives
    $order[] = 'holder';
    $gates->wait('let go');
    unset($st);                                    // the connection goes to the first waiter
    $again = $pdo->query('SELECT 1');              // and this asks again at once
    $order[] = 'holder again';
    unset($again);
});
while ($pool->activeCount() < 1) {
    suspend();
}

$waiters = [];
foreach ([1, 2, 3, 4, 5] as $i) {
    $waiters[$i] = spawn(function () use ($pdo, $gates, $i, &$order) {
        $gates->wait("ask $i");
        $st = $pdo->query("SELECT $i");             // waits at MAX
        $order[] = "waiter $i";                     // recorded while it holds the connection
        unset($st);
    });
}
// each waiter asks only once the one before is waiting for the pool
foreach ([3, 1, 5, 2, 4] as $i) {
    $gates->release("ask $i");
    while (!$waiters[$i]->isStarted() || !$waiters[$i]->isSuspended()) {
        suspend();
    }
}
echo 'waiting: ', count(array_filter($waiters, fn ($w) => !$w->isCompleted())), ', pool ', count($pool), ' connection, ', $pool->activeCount(), " active\n";

$gates->open('let go');
await_all_or_fail([$holder, ...array_values($waiters)], timeout(5000));
echo implode("\n", $order), "\n";
echo 'after: ', count($pool), ' pooled, ', $pool->idleCount(), " idle\n";
?>
--EXPECT--
waiting: 5, pool 1 connection, 1 active
holder
waiter 3
waiter 1
waiter 5
waiter 2
waiter 4
holder again
after: 1 pooled, 1 idle
