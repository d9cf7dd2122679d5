--TEST--
mysqli persistent hosts ("p:") the WordPress way: 6 coroutines each open new mysqli('p:127.0.0.1', ...) or mysqli_init() + real_connect('p:...'), run a few queries and close(), 5 times in a loop: a coroutine's queries always run on a connection no other coroutine uses at the same time (CONNECTION_ID() never shared while in use), one session per open, no errors
--SKIPIF--
<?php
require __DIR__ . '/../inc/servers.inc';
$why = servers_skip_reason('mariadb', ['mysqli']);
if ($why !== '') die("skip $why");
?>
--EXTENSIONS--
mysqlnd
mysqli
--INI--
async.debug_deadlock=0
--FILE--
<?php
require __DIR__ . '/../inc/servers.inc';
use function Async\{spawn, await_all, timeout};

$db = servers_start_mariadb();
$port = $db['port'];
mysqli_report(MYSQLI_REPORT_ERROR | MYSQLI_REPORT_STRICT);
(new mysqli('127.0.0.1', 'root', '', '', $port))->query('CREATE DATABASE wp');

$inUse = [];       // CONNECTION_ID() => the coroutine using it now
$clashes = [];
$most = 0;
$sessions = [];
$n = 6;
$rounds = 5;
$cs = [];
for ($i = 1; $i <= $n; $i++) {
    $cs[$i] = spawn(function () use ($i, $port, $rounds, &$inUse, &$clashes, &$sessions, &$most) {
        for ($r = 0; $r < $rounds; $r++) {
            if ($r % 2 === 0) {
                $m = new mysqli('p:127.0.0.1', 'root', '', 'wp', $port);
            } else {
                $m = mysqli_init();     // WordPress's own way
                $m->real_connect('p:127.0.0.1', 'root', '', 'wp', $port);
            }
            $id = (int) $m->query('SELECT CONNECTION_ID()')->fetch_row()[0];
            if (isset($inUse[$id])) {
                $clashes[] = "coroutine $i got connection $id while coroutine {$inUse[$id]} used it";
            }
            $inUse[$id] = $i;
            $most = max($most, count($inUse));
            $m->query("SET @mine = $i");
            [$sleep, $mine, $again] = $m->query('SELECT SLEEP(0.02), @mine, CONNECTION_ID()')->fetch_row();
            if ((int) $mine !== $i || (int) $again !== $id) {
                $clashes[] = "coroutine $i: @mine $mine, connection $again (was $id)";
            }
            $sessions[$id] = true;
            unset($inUse[$id]);
            $m->close();
        }
        return $rounds;
    });
}
[$done, $errors] = await_all($cs, timeout(10000));
echo 'rounds done: ', array_sum($done), ' of ', $n * $rounds, "\n";
foreach ($errors as $i => $e) {
    echo "coroutine $i: ", get_class($e), ': ', $e->getMessage(), "\n";
}
echo 'clashes: ', count($clashes), "\n", implode("\n", array_slice($clashes, 0, 5)), $clashes ? "\n" : '';
echo 'sessions used: ', count($sessions) >= 2 ? 'several' : count($sessions), ', in use at once: ', $most >= 2 ? 'several' : $most, "\n";
?>
--EXPECT--
rounds done: 30 of 30
clashes: 0
sessions used: several, in use at once: several
