--TEST--
PDO pool (mysql): the constructor's options reach every pooled connection: 3 coroutines bound at once to the 3 MIN connections (distinct CONNECTION_ID()) each see the init command (SET @x = 42), FOUND_ROWS, the default fetch mode FETCH_OBJ, ERRMODE_SILENT, ATTR_CASE and the statement class; so does one made later, above MIN
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
use function Async\{spawn, await_all_or_fail, suspend, timeout};

final class MyStatement extends PDOStatement
{
    protected function __construct(public string $tag) {}
}
// the driver's constants: Pdo\Mysql's from 8.4 on (PDO::MYSQL_* are deprecated in 8.5)
$mysql = fn (string $name) => constant(PHP_VERSION_ID >= 80400 ? "Pdo\\Mysql::ATTR_$name" : "PDO::MYSQL_ATTR_$name");

$db = pool_start_mariadb();
(new PDO($db['dsn'], 'root', ''))->exec('CREATE TABLE t1 (id INT PRIMARY KEY, v INT); INSERT INTO t1 VALUES (1, 5)');
$pdo = new PDO($db['dsn'], 'root', '', [
    PDO::ATTR_POOL_ENABLED => true, PDO::ATTR_POOL_MIN => 3, PDO::ATTR_POOL_MAX => 4,
    PDO::ATTR_DEFAULT_FETCH_MODE => PDO::FETCH_OBJ,
    PDO::ATTR_ERRMODE => PDO::ERRMODE_SILENT,
    PDO::ATTR_CASE => PDO::CASE_UPPER,
    PDO::ATTR_STATEMENT_CLASS => [MyStatement::class, ['mine']],
    $mysql('INIT_COMMAND') => 'SET @x = 42',
    $mysql('FOUND_ROWS') => true,
]);
echo 'made by the constructor: ', count($pdo->getPool()), "\n";

$check = function () use ($pdo) {
    $st = $pdo->query('SELECT CONNECTION_ID() AS id, @x AS x');   // a MyStatement: pins the connection
    $row = $st->fetch();
    $bad = var_export($pdo->query('SELECT * FROM nosuchtable'), true) . ' (' . $pdo->errorCode() . ')';
    // FOUND_ROWS: an UPDATE that changes nothing counts the row found
    $found = $pdo->exec('UPDATE t1 SET v = 5 WHERE id = 1');
    return [(int) $row->ID, sprintf('%s(%s) row %s, @x %s, bad query %s, UPDATE found %d', get_class($st), $st->tag,
        get_debug_type($row), $row->X, $bad, $found), $st];
};
/* $all coroutines run $check() at once: each keeps its statement (and so its connection) until all
 * have theirs */
function together(int $all, Closure $check): array
{
    $bound = new ArrayObject();
    return await_all_or_fail(array_map(fn () => spawn(function () use ($check, $bound, $all) {
        [$id, $line, $st] = $check();
        $bound[] = $id;
        while (count($bound) < $all) {
            suspend();
        }
        return [$id, $line];
    }), range(1, $all)), timeout(5000));
}
$results = together(3, $check);
foreach ($results as [$id, $line]) {
    echo $line, "\n";
}
echo 'distinct connections: ', count(array_unique(array_column($results, 0))), "\n";

// a fourth, made above MIN while the three are held
$results = together(4, $check);
echo 'with a fourth: ', count(array_unique(array_column($results, 0))), ' distinct, ',
    count(array_unique(array_column($results, 1))), " kind of answer: {$results[3][1]}\n";
echo 'pool: ', count($pdo->getPool()), "\n";
?>
--EXPECT--
made by the constructor: 3
MyStatement(mine) row stdClass, @x 42, bad query false (42S02), UPDATE found 1
MyStatement(mine) row stdClass, @x 42, bad query false (42S02), UPDATE found 1
MyStatement(mine) row stdClass, @x 42, bad query false (42S02), UPDATE found 1
distinct connections: 3
with a fourth: 4 distinct, 1 kind of answer: MyStatement(mine) row stdClass, @x 42, bad query false (42S02), UPDATE found 1
pool: 4
