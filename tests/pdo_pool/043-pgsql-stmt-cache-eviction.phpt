--TEST--
PDO pool (pgsql): a statement cache of size 2 on one backend never keeps more than 2 statements in pg_prepared_statements while 3 distinct SQL strings are used, in blocks (hits within a block: 6 prepares for 30 uses) and round-robin (every use misses): an evicted statement is deallocated on the server
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
$sqls = ['SELECT ?::int + 1', 'SELECT ?::int + 2', 'SELECT ?::int + 3'];
// what the session has prepared, read without preparing on the server (emulated, with options: not cached)
$kept = function (PDO $pdo) {
    $st = $pdo->prepare('SELECT statement FROM pg_prepared_statements ORDER BY name', [PDO::ATTR_EMULATE_PREPARES => true]);
    $st->execute();
    return $st->fetchAll(PDO::FETCH_COLUMN);
};
$patterns = [
    'blocks of 5' => fn ($i) => intdiv($i, 5) % 3,
    'round-robin' => fn ($i) => $i % 3,
];
foreach ($patterns as $name => $pick) {
    $pdo = pool_pgsql($db, [PDO::ATTR_POOL_MAX => 1, PDO::ATTR_POOL_STMT_CACHE_SIZE => 2]);
    $most = 0;
    $wrong = 0;
    for ($i = 0; $i < 30; $i++) {
        $k = $pick($i);
        [$ok, $n] = await(spawn(function () use ($pdo, $sqls, $k, $i, $kept) {
            $st = $pdo->prepare($sqls[$k]);
            $st->execute([$i * 10]);
            $ok = (int) $st->fetchColumn() === $i * 10 + $k + 1;
            unset($st);
            return [$ok, count($kept($pdo))];
        }));
        $wrong += $ok ? 0 : 1;
        $most = max($most, $n);
    }
    $last = await(spawn(fn () => $kept($pdo)));
    // a statement prepared on the server now: pdo_pgsql's per-connection number says how many came before
    $before = await(spawn(function () use ($pdo) {
        $st = $pdo->prepare('SELECT name FROM pg_prepared_statements ORDER BY name DESC LIMIT 1');
        $st->execute();
        return hexdec(substr($st->fetchColumn(), strlen('pdo_stmt_'))) - 1;
    }));
    echo "$name: server prepares $before, kept at most $most, at the end ", json_encode($last), ", wrong answers $wrong\n";
}
?>
--EXPECT--
blocks of 5: server prepares 6, kept at most 2, at the end ["SELECT $1::int + 2","SELECT $1::int + 3"], wrong answers 0
round-robin: server prepares 30, kept at most 2, at the end ["SELECT $1::int + 2","SELECT $1::int + 3"], wrong answers 0
