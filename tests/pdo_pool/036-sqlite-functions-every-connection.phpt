--TEST--
PDO pool (sqlite file): a function, an aggregate and a collation registered on the template (sqliteCreate*(), or Pdo\Sqlite::create*() on 8.4+), before or after the first spawn(), work in every coroutine's connection: the MIN one made before the registration and those made later, 3 bound at once
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--EXTENSIONS--
pdo
pdo_sqlite
--INI--
async.debug_deadlock=0
--FILE--
<?php
require __DIR__ . '/pool.inc';
use function Async\{spawn, await_all_or_fail, suspend, timeout};

$file = pool_sqlite_file();
$options = [PDO::ATTR_POOL_ENABLED => true, PDO::ATTR_POOL_MIN => 1, PDO::ATTR_POOL_MAX => 3,
    PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION];
$modern = PHP_VERSION_ID >= 80400;
$pdo = $modern ? PDO::connect("sqlite:$file", null, null, $options) : new PDO("sqlite:$file", null, null, $options);
$register = function (string $what, ...$args) use ($pdo, $modern) {
    $method = $modern ? "create$what" : "sqliteCreate$what";
    return $pdo->$method(...$args);
};
$pdo->exec('CREATE TABLE words (w TEXT)');
$pdo->exec("INSERT INTO words VALUES ('b'), ('A'), ('c')");
echo 'made before the registration: ', count($pdo->getPool()), "\n";

var_dump($register('Function', 'twice', fn ($x) => $x * 2, 1));
var_dump($register('Aggregate', 'joined', fn ($ctx, $row, $w) => ($ctx ?? '') . $w, fn ($ctx, $n) => "$ctx/$n", 1));

// $n coroutines bound at once (each holds a statement), each runs $sql
function at_once(PDO $pdo, int $n, string $sql): array
{
    $state = new ArrayObject(['ok' => 0]);
    return await_all_or_fail(array_map(fn () => spawn(function () use ($pdo, $state, $n, $sql) {
        $st = $pdo->query($sql);
        $state['ok']++;
        while ($state['ok'] < $n) {
            suspend();
        }
        return [spl_object_id($st), $st->fetchColumn()];
    }), range(1, $n)), timeout(5000));
}
$rows = at_once($pdo, 3, "SELECT twice(21) || ' ' || (SELECT joined(w) FROM words)");
echo 'function and aggregate: ', json_encode(array_column($rows, 1)), ', pool ', count($pdo->getPool()), "\n";

// registered from a coroutine, after the connections were made
var_dump(await_all_or_fail([spawn(fn () => $register('Collation', 'nocase_rev', fn ($a, $b) => strcasecmp($b, $a)))])[0]);
$rows = at_once($pdo, 3, "SELECT group_concat(w, '') FROM (SELECT w FROM words ORDER BY w COLLATE nocase_rev)");
echo 'collation: ', json_encode(array_column($rows, 1)), ', pool ', count($pdo->getPool()), "\n";
?>
--EXPECT--
made before the registration: 1
bool(true)
bool(true)
function and aggregate: ["42 bAc\/4","42 bAc\/4","42 bAc\/4"], pool 3
bool(true)
collation: ["cbA","cbA","cbA"], pool 3
