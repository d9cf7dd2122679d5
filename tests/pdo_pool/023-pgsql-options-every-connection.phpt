--TEST--
PDO pool (pgsql): the constructor's arguments reach every pooled connection: 3 coroutines bound at once to the 3 MIN backends (distinct pg_backend_pid()) each are on TLS (sslmode=require in the DSN) and see FETCH_OBJ, ERRMODE_SILENT, ATTR_CASE, the statement class and DISABLE_PREPARES (no server-side prepared statement); so does a fourth made later
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
use function Async\{spawn, await_all_or_fail, suspend, timeout};

final class MyStatement extends PDOStatement
{
    protected function __construct(public string $tag) {}
}
$pgsql = fn (string $name) => constant(PHP_VERSION_ID >= 80400 ? "Pdo\\Pgsql::ATTR_$name" : "PDO::PGSQL_ATTR_$name");

$db = servers_start_postgres(['ssl' => true]);
$pdo = new PDO($db['dsn'] . ';sslmode=require', 'postgres', '', [
    PDO::ATTR_POOL_ENABLED => true, PDO::ATTR_POOL_MIN => 3, PDO::ATTR_POOL_MAX => 4,
    PDO::ATTR_DEFAULT_FETCH_MODE => PDO::FETCH_OBJ,
    PDO::ATTR_ERRMODE => PDO::ERRMODE_SILENT,
    PDO::ATTR_CASE => PDO::CASE_UPPER,
    PDO::ATTR_STATEMENT_CLASS => [MyStatement::class, ['mine']],
    $pgsql('DISABLE_PREPARES') => true,
]);
echo 'made by the constructor: ', count($pdo->getPool()), "\n";

$check = function () use ($pdo) {
    $st = $pdo->prepare('SELECT pg_backend_pid() AS pid, ssl AS tls FROM pg_stat_ssl WHERE pid = pg_backend_pid() AND 1 = ?');
    $st->execute([1]);
    $row = $st->fetch();
    $prepared = $pdo->query('SELECT count(*) AS n FROM pg_prepared_statements')->fetch()->N;
    $bad = var_export($pdo->query('SELECT * FROM nosuchtable'), true) . ' (' . $pdo->errorCode() . ')';
    return [(int) $row->PID, sprintf('%s(%s) row %s, TLS %s, server-side prepared %d, bad query %s', get_class($st), $st->tag,
        get_debug_type($row), var_export($row->TLS, true), $prepared, $bad), $st];
};
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
echo 'distinct backends: ', count(array_unique(array_column($results, 0))), "\n";
$results = together(4, $check);
echo 'with a fourth: ', count(array_unique(array_column($results, 0))), ' distinct, ',
    count(array_unique(array_column($results, 1))), " kind of answer: {$results[3][1]}\n";
echo 'pool: ', count($pdo->getPool()), "\n";
?>
--EXPECT--
made by the constructor: 3
MyStatement(mine) row stdClass, TLS true, server-side prepared 0, bad query false (42P01)
MyStatement(mine) row stdClass, TLS true, server-side prepared 0, bad query false (42P01)
MyStatement(mine) row stdClass, TLS true, server-side prepared 0, bad query false (42P01)
distinct backends: 3
with a fourth: 4 distinct, 1 kind of answer: MyStatement(mine) row stdClass, TLS true, server-side prepared 0, bad query false (42P01)
pool: 4
