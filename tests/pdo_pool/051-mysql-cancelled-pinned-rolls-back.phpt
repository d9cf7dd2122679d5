--TEST--
PDO pool (mysql): a call cancelled inside a transaction whose statement the coroutine keeps (it caught the cancellation): the server rolls the transaction back at once and its row locks go, while the statement still pins the broken connection; the statement then reports the link gone, and the pool hands out a good connection
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
use function Async\{spawn, await, delay};

$db = pool_start_mariadb();
$mon = pool_monitor_mysql($db);
$mon->exec('CREATE TABLE c (id INT PRIMARY KEY, n INT NOT NULL) ENGINE=InnoDB');
$mon->exec('INSERT INTO c VALUES (1, 0)');
$pdo = pool_mysql($db, [PDO::ATTR_POOL_MAX => 2, PDO::ATTR_EMULATE_PREPARES => false]);
$sleeping = fn () => (int) $mon->query("SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE INFO = 'SELECT SLEEP(5)'")->fetchColumn();
$open = fn () => (int) $mon->query('SELECT COUNT(*) FROM information_schema.innodb_trx')->fetchColumn();

foreach (['the statement of the cancelled call' => 'SELECT SLEEP(5)', 'another statement' => 'SELECT 1'] as $what => $kept) {
    $held = null;
    $a = spawn(function () use ($pdo, $kept, &$held) {
        $pdo->beginTransaction();
        $pdo->exec('UPDATE c SET n = n + 1 WHERE id = 1');
        $other = $pdo->prepare('SELECT 1');
        $st = $pdo->prepare('SELECT SLEEP(5)');
        try {
            $st->execute();
        } catch (Async\AsyncCancellation $e) {
            echo "cancelled\n";
        }
        $held = $kept === 'SELECT 1' ? $other : $st;
    });
    while ($sleeping() === 0) {
        delay(2);
    }
    $a->cancel();
    await($a);
    echo "$what kept: ", $held instanceof PDOStatement ? 'yes' : 'no', "\n";
    // well within the 5 s of the SLEEP and the 50 s of a lock wait: 2 s (InnoDB refreshes what
    // information_schema.innodb_trx shows only when it was last read over 100 ms ago)
    $t0 = hrtime(true);
    do {
        delay(150);
    } while ($open() > 0 && ms_since($t0) < 2000);
    echo 'transactions open on the server: ', $open(), "\n";
    $mon->exec('SET SESSION innodb_lock_wait_timeout = 1');
    echo 'the row is free: ', $mon->exec('UPDATE c SET n = n + 10 WHERE id = 1'), "\n";
    try {
        $held->execute();
        echo "the kept statement ran\n";
    } catch (PDOException $e) {
        echo 'the kept statement: ', $e->errorInfo[1] ?? '?', "\n";
    }
    $held = null;
    echo 'the pool works: ', await(spawn(fn () => $pdo->query('SELECT n FROM c WHERE id = 1')->fetchColumn())), "\n";
}
?>
--EXPECTF--
cancelled
the statement of the cancelled call kept: yes
transactions open on the server: 0
the row is free: 1
the kept statement: %d
the pool works: 10
cancelled
another statement kept: yes
transactions open on the server: 0
the row is free: 1
the kept statement: %d
the pool works: 20
