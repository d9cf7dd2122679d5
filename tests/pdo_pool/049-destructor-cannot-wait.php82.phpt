--TEST--
PDO pool (sqlite file, PHP < 8.4): in a destructor, where a coroutine cannot switch, a call on the template takes an idle connection if there is one, and otherwise (MAX held by another coroutine's statement) throws PDOException "No pooled connection is free ... waiting for one is impossible here" instead of waiting
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
use function Async\{spawn, await, suspend, timeout};

$file = pool_sqlite_file();
$pdo = new PDO("sqlite:$file", null, null, [PDO::ATTR_POOL_ENABLED => true, PDO::ATTR_POOL_MAX => 1,
    PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION]);
final class Job
{
    public function __construct(private PDO $pdo, private string $name) {}

    public function __destruct()
    {
        echo "{$this->name}: ", pool_thrown(fn () => print($this->pdo->query('SELECT 7')->fetchColumn() . ', ')), "\n";
    }
}
// 1. an idle connection: taken
await(spawn(function () use ($pdo) {
    $job = new Job($pdo, 'with one idle');
    unset($job);
}));
// 2. the only one held by another coroutine's statement
$gates = new Gates();
$holder = spawn(function () use ($pdo, $gates) {
    $st = $pdo->query('SELECT 1');
    $gates->wait('let go');
});
while ($pdo->getPool()->activeCount() < 1) {
    suspend();
}
await(spawn(function () use ($pdo) {
    $job = new Job($pdo, 'none free');
    unset($job);
}));
$gates->open('let go');
await($holder, timeout(5000));
echo 'afterwards: ', await(spawn(fn () => $pdo->query('SELECT 8')->fetchColumn())), ', pool ', count($pdo->getPool()), "\n";
?>
--EXPECT--
with one idle: 7, no exception
none free: PDOException: No pooled connection is free (PDO::ATTR_POOL_MAX reached), and waiting for one is impossible here
afterwards: 8, pool 1
