--TEST--
PDO pool (mysql) under Doctrine DBAL: one pooled PDO shared by 8 coroutines (MAX 3), each with its own DBAL Connection over it, running transactional() blocks that insert rows in several statements: each transaction stays on one session and sees only its own uncommitted rows, the commits land, the rollbacks (an exception thrown inside) leave nothing, and no DBAL or PDO transaction state crosses coroutines
--SKIPIF--
<?php
require __DIR__ . '/../inc/servers.inc';
$why = servers_skip_reason('mariadb', ['pdo_mysql']);
if ($why === '' && !is_file('/usr/share/php/Doctrine/DBAL/Connection.php')) {
    $why = 'Doctrine DBAL is not installed (php-doctrine-dbal)';
}
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
use function Async\{spawn, await_all, suspend, timeout};
use Doctrine\DBAL\Connection;

// Debian's php-doctrine-dbal (DBAL 3) and what it uses, from /usr/share/php
spl_autoload_register(function (string $class) {
    $roots = ['Doctrine\\DBAL\\' => 'Doctrine/DBAL/', 'Doctrine\\Common\\' => 'Doctrine/Common/',
        'Doctrine\\Deprecations\\' => 'Doctrine/Deprecations/', 'Psr\\Log\\' => 'Psr/Log/', 'Psr\\Cache\\' => 'Psr/Cache/'];
    foreach ($roots as $prefix => $dir) {
        if (str_starts_with($class, $prefix)) {
            $file = '/usr/share/php/' . $dir . str_replace('\\', '/', substr($class, strlen($prefix))) . '.php';
            if (is_file($file)) {
                require $file;
            }
            return;
        }
    }
});

/* A DBAL driver whose "connection" is the one pooled PDO every coroutine shares. */
final class SharedPdoDriver extends Doctrine\DBAL\Driver\AbstractMySQLDriver
{
    public function __construct(private PDO $pdo) {}

    public function connect(array $params): Doctrine\DBAL\Driver\Connection
    {
        return new Doctrine\DBAL\Driver\PDO\Connection($this->pdo);
    }
}

$db = pool_start_mariadb();
$pdo = pool_mysql($db, [PDO::ATTR_POOL_MAX => 3]);
$pdo->exec('CREATE TABLE items (id INT PRIMARY KEY AUTO_INCREMENT, tag VARCHAR(10), k INT) ENGINE=InnoDB');
$version = $pdo->getAttribute(PDO::ATTR_SERVER_VERSION);
$n = 8;
$fails = [3, 6];    // these throw inside their transaction

$cs = [];
for ($i = 1; $i <= $n; $i++) {
    $cs[$i] = spawn(function () use ($pdo, $version, $i, $fails) {
        $conn = new Connection(['serverVersion' => $version], new SharedPdoDriver($pdo));
        $tag = "c$i";
        $seen = [];
        try {
            $conn->transactional(function (Connection $c) use ($tag, $i, $fails, &$seen) {
                $session = $c->fetchOne('SELECT CONNECTION_ID()');
                for ($k = 0; $k < 3; $k++) {
                    $c->insert('items', ['tag' => $tag, 'k' => $k]);
                    suspend();      // let the others run in between
                }
                $seen['own rows'] = (int) $c->fetchOne('SELECT COUNT(*) FROM items WHERE tag = ?', [$tag]);
                $seen['uncommitted of others'] = (int) $c->fetchOne(
                    'SELECT COUNT(*) FROM items WHERE tag <> ? AND tag IN (' . implode(',', array_fill(0, count($fails), '?')) . ')',
                    [$tag, ...array_map(fn ($f) => "c$f", $fails)]);
                $seen['one session'] = $c->fetchOne('SELECT CONNECTION_ID()') === $session;
                $seen['in transaction'] = $c->isTransactionActive() && $c->getNativeConnection()->inTransaction();
                if (in_array($i, $fails, true)) {
                    throw new RuntimeException("rolled back $tag");
                }
            });
            $outcome = 'committed';
        } catch (RuntimeException $e) {
            $outcome = $e->getMessage();
        }
        $seen['after'] = ($conn->isTransactionActive() || $pdo->inTransaction()) ? 'still in a transaction' : 'clean';
        return [$outcome, $seen];
    });
}
$results = await_all($cs, timeout(10000));
$expected = ['own rows' => 3, 'uncommitted of others' => 0, 'one session' => true, 'in transaction' => true, 'after' => 'clean'];
foreach ($results[0] as $i => [$outcome, $seen]) {
    echo "c$i: $outcome", $seen === $expected ? ', as expected' : ', ' . json_encode($seen), "\n";
}
foreach ($results[1] as $i => $e) {
    echo "c$i failed: ", get_class($e), ': ', $e->getMessage(), "\n";
}
$mon = pool_monitor_mysql($db);
echo 'rows: ', json_encode($mon->query('SELECT tag, COUNT(*) FROM items GROUP BY tag ORDER BY tag')->fetchAll(PDO::FETCH_KEY_PAIR)), "\n";
echo 'pool: ', count($pdo->getPool()), ', idle ', $pdo->getPool()->idleCount(), "\n";
?>
--EXPECT--
c1: committed, as expected
c2: committed, as expected
c3: rolled back c3, as expected
c4: committed, as expected
c5: committed, as expected
c6: rolled back c6, as expected
c7: committed, as expected
c8: committed, as expected
rows: {"c1":3,"c2":3,"c4":3,"c5":3,"c7":3,"c8":3}
pool: 3, idle 3
