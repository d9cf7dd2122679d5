--TEST--
pgsql: 4 coroutines each run SELECT pg_sleep(0.3) on their own connection and finish together; a ticker keeps ticking; outside coroutines the same queries take their sum
--SKIPIF--
<?php
require __DIR__ . '/../inc/servers.inc';
$why = servers_skip_reason('postgres', ['pgsql']);
if ($why !== '') die("skip $why");
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
use function Async\{spawn, await, await_all_or_fail};

$db = servers_start_postgres();
$n = 4;

/* stock: outside coroutines each query holds the process */
$links = [];
for ($i = 0; $i < $n; $i++) {
    $links[$i] = pg_connect($db['conninfo'], PGSQL_CONNECT_FORCE_NEW);
}
$t0 = hrtime(true);
foreach ($links as $l) {
    pg_query($l, 'SELECT pg_sleep(0.1)');
}
$ms = ms_since($t0);
echo $ms >= $n * 100 - 1 ? "stock: one after the other\n" : "stock took $ms ms\n";

/* connected first, and every path run once (the tracing JIT compiles on first runs): the
 * window measured holds the queries only */
$links = await_all_or_fail(array_map(fn ($i) => spawn(fn () => pg_connect($db['conninfo'], PGSQL_CONNECT_FORCE_NEW)), range(0, $n - 1)));
$run = function (float $sleep) use ($links) {
    $cs = [];
    foreach ($links as $i => $l) {
        $cs[$i] = spawn(function () use ($l, $i, $sleep) {
            $t = hrtime(true);
            $r = pg_query($l, "SELECT pg_sleep($sleep), $i AS id");
            $GLOBALS['first_answer'] ??= hrtime(true);
            return [(int) pg_fetch_result($r, 0, 'id'), ms_since($t)];
        });
    }
    return $cs;
};
$ticker = new Ticker(1);
await_all_or_fail($run(0.01));
unset($GLOBALS['first_answer']);
$t0 = hrtime(true);
$cs = $run(0.3);
$ok = 0;
foreach ($cs as $i => $c) {
    [$id, $ms] = await($c);
    $ok += $id === $i && $ms >= 299;
}
$total = ms_since($t0);
$ticker->stop();
echo "$ok of $n queries answered, each after its 300 ms\n";
echo $total < 300 + 250 * slow_factor() ? "together: well under the sum\n" : "took $total ms\n";
/* while the four wait for the server: from the queries' start to the first answer */
$gap = $ticker->worstGap($t0, $GLOBALS['first_answer']);
echo $gap < 20 * slow_factor() ? "the ticker kept ticking\n" : "the ticker waited $gap ms\n";
?>
--EXPECT--
stock: one after the other
4 of 4 queries answered, each after its 300 ms
together: well under the sum
the ticker kept ticking
