--TEST--
PDO pool (pgsql, server-side prepares): with PDO::ATTR_POOL_STMT_CACHE_SIZE 8, 100 sequential coroutines (MAX 1: one backend) that each prepare the same SQL make one server-side prepare in all, kept in pg_prepared_statements (pdo_pgsql numbers its statements per connection: a probe prepared afterwards is the 2nd, not the 101st as with the cache off); each coroutine gets its own rows
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
use function Async\{spawn, await};

$db = servers_start_postgres();
$sql = 'SELECT n, n * 2 FROM generate_series(1, 200) AS n WHERE n >= ? ORDER BY n LIMIT 3';
/* In the session of the one pooled connection: the statements prepared there now, the probe's own
 * last; its number says how many were prepared on this connection before it. */
function probe(PDO $pdo): string
{
    return await(spawn(function () use ($pdo) {
        $st = $pdo->prepare('SELECT name, statement FROM pg_prepared_statements ORDER BY name');
        $st->execute();
        $rows = $st->fetchAll(PDO::FETCH_NUM);
        $mine = array_pop($rows);
        return 'prepared before the probe: ' . (hexdec(substr($mine[0], strlen('pdo_stmt_'))) - 1)
            . ', kept: ' . json_encode(array_column($rows, 1));
    }));
}
foreach ([0, 8] as $size) {
    $pdo = pool_pgsql($db, [PDO::ATTR_POOL_MAX => 1, PDO::ATTR_POOL_STMT_CACHE_SIZE => $size]);
    $wrong = 0;
    for ($i = 1; $i <= 100; $i++) {
        $wrong += await(spawn(function () use ($pdo, $sql, $i) {
            $st = $pdo->prepare($sql);
            $st->execute([$i]);
            if ($i % 10 === 0) {
                return $st->fetch(PDO::FETCH_NUM) == [$i, $i * 2] ? 0 : 1;   // the rest left unread
            }
            return $st->fetchAll(PDO::FETCH_NUM) == [[$i, $i * 2], [$i + 1, ($i + 1) * 2], [$i + 2, ($i + 2) * 2]] ? 0 : 1;
        }));
    }
    echo "cache $size: ", probe($pdo), ", wrong answers $wrong, pool ", count($pdo->getPool()), "\n";
}
?>
--EXPECT--
cache 0: prepared before the probe: 100, kept: [], wrong answers 0, pool 1
cache 8: prepared before the probe: 1, kept: ["SELECT n, n * 2 FROM generate_series(1, 200) AS n WHERE n >= $1 ORDER BY n LIMIT 3"], wrong answers 0, pool 1
