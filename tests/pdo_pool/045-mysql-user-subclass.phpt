--TEST--
PDO pool (mysql): a user class extending PDO (a framework's connection class) is pooled the same: its constructor runs once (not for the physical connections), its own methods and overridden ones calling parent:: run on the calling coroutine's connection (3 coroutines at once: 3 sessions), transactions stay per coroutine
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

final class Db extends PDO
{
    public static int $constructed = 0;
    public array $log = [];

    public function __construct(string $dsn)
    {
        self::$constructed++;
        parent::__construct($dsn, 'root', '', [PDO::ATTR_POOL_ENABLED => true, PDO::ATTR_POOL_MAX => 3,
            PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION]);
    }

    public function session(): int
    {
        return (int) $this->query('SELECT CONNECTION_ID()')->fetchColumn();
    }

    public function beginTransaction(): bool
    {
        $this->log[] = 'begin';
        return parent::beginTransaction();
    }
}
$db = pool_start_mariadb();
$pdo = new Db($db['dsn']);
$pdo->exec('CREATE TABLE items (tag VARCHAR(10)) ENGINE=InnoDB');
echo 'class ', get_class($pdo), ', pool ', get_debug_type($pdo->getPool()), "\n";

$state = new ArrayObject(['in' => 0, 'counted' => 0]);
$results = await_all_or_fail(array_map(fn ($i) => spawn(function () use ($pdo, $state, $i) {
    $pdo->beginTransaction();
    $pdo->exec("INSERT INTO items VALUES ('c$i')");
    $first = $pdo->session();
    $state['in']++;
    while ($state['in'] < 3) {     // all three in their transactions at once
        suspend();
    }
    $own = (int) $pdo->query('SELECT COUNT(*) FROM items')->fetchColumn();
    $same = $pdo->session() === $first;
    $state['counted']++;
    while ($state['counted'] < 3) {  // nobody commits before all have counted
        suspend();
    }
    $i === 2 ? $pdo->rollBack() : $pdo->commit();
    return [$first, $own, $same];
}), [1, 2, 3]), timeout(5000));
echo 'sessions at once: ', count(array_unique(array_column($results, 0))), ', each saw its own row only: ',
    var_export(array_column($results, 1) === [1, 1, 1], true), ', one session each: ', var_export(!in_array(false, array_column($results, 2), true), true), "\n";
echo 'beginTransaction() override ran: ', count($pdo->log), " times\n";
echo 'constructor ran: ', Db::$constructed, " time(s)\n";
echo 'rows: ', json_encode((new PDO($db['dsn'], 'root', ''))->query('SELECT tag FROM items ORDER BY tag')->fetchAll(PDO::FETCH_COLUMN)), "\n";
?>
--EXPECT--
class Db, pool Async\Pool
sessions at once: 3, each saw its own row only: true, one session each: true
beginTransaction() override ran: 3 times
constructor ran: 1 time(s)
rows: ["c1","c3"]
