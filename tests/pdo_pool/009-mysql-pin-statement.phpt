--TEST--
PDO pool (mysql): a live PDOStatement from prepare() or query() pins its connection to the coroutine: with MAX 1 another coroutine waits for the pool until the last statement is freed (two statements: freeing one is not enough), the pinned coroutine's other calls run in the same session, and then the waiter gets that connection
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

function waits_for_pool(Async\Coroutine $c): string
{
    while ((!$c->isStarted() || !$c->isSuspended()) && !$c->isCompleted()) {
        suspend();
    }
    $info = $c->isCompleted() ? ['completed'] : $c->getAwaitingInfo();
    return str_starts_with((string) ($info[0] ?? ''), 'Pool') ? 'waits for the pool' : 'not waiting for the pool: ' . implode(', ', $info);
}

foreach (['prepare', 'query', 'two statements'] as $case) {
    $gates = new Gates();
    $log = [];
    $a = spawn(function () use ($pdo, $gates, $case, &$log) {
        if ($case === 'prepare') {
            $st = $pdo->prepare('SELECT CONNECTION_ID(), @mark');
        } else {
            $st = $pdo->query('SELECT CONNECTION_ID()');
        }
        $second = $case === 'two statements' ? $pdo->prepare('SELECT 2') : null;
        $pdo->exec("SET @mark = 'mine'");          // a call of its own, on the pinned session
        $gates->wait('use it');
        if ($case === 'prepare') {
            $st->execute();
            [$id, $mark] = $st->fetch(PDO::FETCH_NUM);
            $log[] = "A: statement run, session variable $mark";
        } else {
            $id = $st->fetchColumn();
            $log[] = 'A: session variable ' . $pdo->query('SELECT @mark')->fetchColumn();
        }
        $gates->wait('free');
        unset($st);
        $log[] = 'A: freed one';
        $gates->wait('free second');
        $second = null;
        $log[] = 'A: freed all';
        return (int) $id;
    });
    while ($pool->activeCount() < 1) {
        suspend();
    }
    $b = spawn(function () use ($pdo, &$log) {
        $id = $pdo->query('SELECT CONNECTION_ID()')->fetchColumn();
        $log[] = 'B: ran';
        return (int) $id;
    });
    $log[] = 'B ' . waits_for_pool($b);
    $gates->release('use it');
    while (count($log) < 2) {   // A used its statement
        suspend();
    }
    $log[] = 'B ' . waits_for_pool($b);
    $gates->release('free');
    if ($case === 'two statements') {
        $log[] = 'B ' . waits_for_pool($b);
    }
    $gates->release('free second');
    [$idA, $idB] = await_all_or_fail([$a, $b], timeout(5000));
    echo "== $case\n", implode("\n", $log), "\n", 'same connection: ', var_export($idA === $idB, true),
        ', pool ', count($pool), ', idle ', $pool->idleCount(), "\n";
}
?>
--EXPECT--
== prepare
B waits for the pool
A: statement run, session variable mine
B waits for the pool
A: freed one
A: freed all
B: ran
same connection: true, pool 1, idle 1
== query
B waits for the pool
A: session variable mine
B waits for the pool
A: freed one
A: freed all
B: ran
same connection: true, pool 1, idle 1
== two statements
B waits for the pool
A: session variable mine
B waits for the pool
A: freed one
B waits for the pool
A: freed all
B: ran
same connection: true, pool 1, idle 1
