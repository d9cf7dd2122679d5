--TEST--
One connection shared by coroutines: calls take turns in arrival order (never a crossed result), a call waiting for its turn can be cancelled, pg_close() waits for the call inside, and a call waiting behind the close gets an Error
--SKIPIF--
<?php
require __DIR__ . '/../inc/servers.inc';
$why = servers_skip_reason('postgres', ['pgsql', 'pdo_pgsql']);
if ($why !== '') die("skip $why");
?>
--EXTENSIONS--
pgsql
pdo
pdo_pgsql
--INI--
async.debug_deadlock=0
--FILE--
<?php
require __DIR__ . '/../inc/bounds.inc';
require __DIR__ . '/../inc/servers.inc';
require __DIR__ . '/../inc/pgsql.inc';
use function Async\{spawn, await, await_all, delay};

$db = servers_start_postgres();
$l = pg_connect($db['conninfo'], PGSQL_CONNECT_FORCE_NEW);
$p = pdo_pg_connect($db, [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION]);
pg_query($l, 'CREATE TABLE t (a text)');

/* 8 coroutines x 20 queries on one pgsql link and one PDO */
$crossed = 0;
$order = [];
$cs = [];
for ($i = 0; $i < 8; $i++) {
    $cs[] = spawn(function () use ($l, $p, $i, &$crossed, &$order) {
        $s = $p->prepare('SELECT ?::text, pg_sleep(0.001)');
        for ($k = 0; $k < 20; $k++) {
            $v = "$i-$k";
            $r = pg_query_params($l, 'SELECT $1::text, pg_sleep(0.001)', [$v]);
            $crossed += pg_fetch_result($r, 0, 0) !== $v;
            $s->execute([$v]);
            $crossed += $s->fetchColumn() !== $v;
            $order[] = $i;
        }
    });
}
[$results, $errors] = await_all($cs);
echo count($errors), " errors, $crossed crossed results\n";
echo count(array_unique(array_slice($order, 0, 16))) === 8 ? "every coroutine had turns from the start\n" : "one ran ahead: " . implode(',', array_slice($order, 0, 16)) . "\n";

/* a second caller waits for the first one's query, then gets its own answer */
$a = spawn(function () use ($l) {
    $r = pg_query($l, "SELECT pg_sleep(0.2), 'a'");
    return pg_fetch_result($r, 0, 1);
});
$b = spawn(function () use ($l) {
    delay(20);
    $t0 = hrtime(true);
    $r = pg_query($l, "SELECT 'b'");
    return [pg_fetch_result($r, 0, 0), ms_since($t0)];
});
[$bv, $bms] = await($b);
echo await($a), ' ', $bv, $bms >= 150 ? ", b waited for a's query\n" : ", b took $bms ms\n";

/* cancelled while waiting for its turn: its statement never reaches the server */
$a = spawn(fn () => pg_query($l, 'SELECT pg_sleep(0.2)'));
$b = spawn(function () use ($l) {
    delay(20);
    pg_query($l, "INSERT INTO t VALUES ('should not be there')");
});
delay(50);
$b->cancel();
try {
    await($b);
} catch (Async\AsyncCancellation $e) {
    echo "the waiting call was cancelled\n";
}
await($a);
echo pg_fetch_result(pg_query($l, 'SELECT count(*) FROM t'), 0, 0), " rows inserted\n";

/* pg_close() takes its turn: the query inside finishes first */
$l2 = pg_connect($db['conninfo'], PGSQL_CONNECT_FORCE_NEW);
$a = spawn(fn () => pg_fetch_result(pg_query($l2, "SELECT pg_sleep(0.2), 'inside'"), 0, 1));
$closer = spawn(function () use ($l2) {
    delay(20);
    $t0 = hrtime(true);
    pg_close($l2);
    return ms_since($t0);
});
$ms = await($closer);
echo await($a), $ms >= 150 ? ", the close waited for it\n" : ", the close took $ms ms\n";

/* a call queued behind the close finds the connection gone */
$l3 = pg_connect($db['conninfo'], PGSQL_CONNECT_FORCE_NEW);
$a = spawn(fn () => pg_query($l3, 'SELECT pg_sleep(0.2)'));
$closer = spawn(function () use ($l3) {
    delay(10);
    pg_close($l3);
});
$late = spawn(function () use ($l3) {
    delay(30);
    try {
        pg_query($l3, 'SELECT 1');
        return 'ran';
    } catch (Error $e) {
        return get_class($e) . ': ' . $e->getMessage();
    }
});
await($a);
await($closer);
echo await($late), "\n";
?>
--EXPECT--
0 errors, 0 crossed results
every coroutine had turns from the start
a b, b waited for a's query
the waiting call was cancelled
0 rows inserted
inside, the close waited for it
Error: The PostgreSQL connection was closed by another coroutine while this call waited for it
