--TEST--
Found by the soak: a coroutine cancelled while a MySQL connection is being made (new PDO, or the PDO pool connecting for a call) must end with its cancellation, not with a PDOException that hides it
--DESCRIPTION--
The soak's monkey cancels operations at random points; a pooled PDO call that had to make a new
connection came out as "PDOException: SQLSTATE[HY000] [2006] MySQL server has gone away" (the
AsyncCancellation only as its previous), and sometimes as "SQLSTATE[HY000]: General error: 2006
MySQL server has gone away" with no cancellation anywhere: code that catches PDOException (every
retry loop) then swallows the cancellation. pgsql puts the cancellation on top, the driver's
PDOException at the end of its previous chain (docs/pgsql.md). Here the coroutine is cancelled
after 0, 1, 2 scheduler turns, then after 0.15, 0.3, ... 6 ms of them, so that the cancellation
lands in every step of the connect (TCP connect, greeting, authentication) and of the first query;
each outcome must be the query's result (all was over first) or an AsyncCancellation.
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
require __DIR__ . '/../inc/servers.inc';
use function Async\{spawn, await, suspend};

$db = servers_start_mariadb();
$dsn = "mysql:host=127.0.0.1;port={$db['port']}";
$options = [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION];
foreach (['new PDO' => false, 'pooled PDO' => true] as $what => $pooled) {
    $outcomes = [];
    for ($turns = 0; $turns < 40; $turns++) {
        $pdo = $pooled ? new PDO($dsn, 'root', '', $options + [PDO::ATTR_POOL_ENABLED => true, PDO::ATTR_POOL_MAX => 1]) : null;
        $co = spawn(function () use ($pdo, $dsn, $options) {
            $pdo ??= new PDO($dsn, 'root', '', $options);
            return $pdo->query('SELECT 1')->fetchColumn();
        });
        // 0, 1, 2 turns of the scheduler, then up to 6 ms of them (the server answers in between)
        $until = hrtime(true) + max(0, $turns - 2) * 150_000;
        for ($i = 0; $i < $turns || hrtime(true) < $until; $i++) {
            suspend();
        }
        $co->cancel();
        try {
            $outcome = 'the result ' . await($co);
        } catch (Async\AsyncCancellation $e) {
            $outcome = 'AsyncCancellation';
        } catch (Throwable $e) {
            $outcome = get_class($e) . ': ' . $e->getMessage() . ($e->getPrevious() ? ' (previous ' . get_class($e->getPrevious()) . ')' : '');
        }
        $outcomes[$outcome][] = $turns;
        $pdo?->getPool()->close();
    }
    $wrong = array_filter(array_keys($outcomes), fn ($o) => $o !== 'AsyncCancellation' && $o !== 'the result 1');
    echo "$what: cancelled in the connect: ", isset($outcomes['AsyncCancellation']) ? 'AsyncCancellation' : 'never', "\n";
    echo "$what: other outcomes: ", $wrong ? '' : 'none', "\n";
    foreach ($wrong as $o) {
        echo "  $o, after turns ", implode(',', $outcomes[$o]), "\n";
    }
}
?>
--EXPECT--
new PDO: cancelled in the connect: AsyncCancellation
new PDO: other outcomes: none
pooled PDO: cancelled in the connect: AsyncCancellation
pooled PDO: other outcomes: none
