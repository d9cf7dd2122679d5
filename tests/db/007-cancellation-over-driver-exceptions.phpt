--TEST--
A coroutine cancelled while a driver waits (PDO, a PDO subclass, mysqli; phpredis in 008) ends with its cancellation on top: the driver's exception thrown over it goes to the end of its previous chain, and `catch (PDOException)` & co. never swallow it
--DESCRIPTION--
Found by the soak (tests/chaos/012): the drivers see their I/O fail when the cancellation comes
in their wait, and throw their own exception, which PHP would put over the pending cancellation.
Each coroutine signals before its call, the main one waits until it is suspended inside (only the
driver's wait can suspend it there), then cancels it.
--SKIPIF--
<?php
require __DIR__ . '/../inc/servers.inc';
$why = servers_skip_reason('mariadb', ['pdo_mysql', 'mysqli']);
if ($why !== '') die("skip $why");
?>
--EXTENSIONS--
mysqlnd
pdo
pdo_mysql
mysqli
--INI--
async.debug_deadlock=0
--FILE--
<?php
require __DIR__ . '/../inc/servers.inc';
use function Async\{spawn, await, suspend};

$db = servers_start_mariadb();

class AppPdo extends PDO
{
}

function chain(Throwable $e): string
{
    $names = [];
    for (; $e !== null; $e = $e->getPrevious()) {
        $names[] = get_class($e);
    }
    return implode(' <- ', $names);
}

$calls = [
    'PDO::query()' => function (Closure $ready) use ($db) {
        $pdo = new PDO("mysql:host=127.0.0.1;port={$db['port']}", 'root', '', [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION]);
        $ready();
        $pdo->query('SELECT SLEEP(5)');
    },
    'a PDO subclass, its query(...) as a callable' => function (Closure $ready) use ($db) {
        $pdo = new AppPdo("mysql:host=127.0.0.1;port={$db['port']}", 'root', '', [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION]);
        $query = $pdo->query(...);
        $ready();
        $query('SELECT SLEEP(5)');
    },
    'PDOStatement::execute()' => function (Closure $ready) use ($db) {
        $pdo = new PDO("mysql:host=127.0.0.1;port={$db['port']}", 'root', '', [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION,
            PDO::ATTR_EMULATE_PREPARES => false]);
        $stmt = $pdo->prepare('SELECT SLEEP(?)');
        $ready();
        $stmt->execute([5]);
    },
    'mysqli_query() in strict report mode' => function (Closure $ready) use ($db) {
        mysqli_report(MYSQLI_REPORT_ERROR | MYSQLI_REPORT_STRICT);
        $link = mysqli_connect('127.0.0.1', 'root', '', '', $db['port']);
        $ready();
        mysqli_query($link, 'SELECT SLEEP(5)');
    },
    'mysqli::query()' => function (Closure $ready) use ($db) {
        mysqli_report(MYSQLI_REPORT_ERROR | MYSQLI_REPORT_STRICT);
        $link = new mysqli('127.0.0.1', 'root', '', '', $db['port']);
        $ready();
        $link->query('SELECT SLEEP(5)');
    },
];

foreach ($calls as $what => $call) {
    $inside = false;
    $co = spawn(function () use ($call, &$inside) {
        try {
            $call(function () use (&$inside) { $inside = true; });
            return 'returned';
        } catch (PDOException | mysqli_sql_exception $e) {
            return 'the driver\'s exception was caught: ' . chain($e);
        }
    });
    while (!$inside || !$co->isSuspended()) {
        suspend();
    }
    $t = hrtime(true);
    $co->cancel();
    try {
        $outcome = await($co);
        echo "$what: $outcome\n";
    } catch (Async\AsyncCancellation $e) {
        $ms = (hrtime(true) - $t) / 1e6;
        echo "$what: ", chain($e), $ms < 2000 ? '' : sprintf(' (after %d ms)', $ms), "\n";
    }
}

// Outside coroutines and without a cancellation, the drivers' exceptions are PHP's own.
$pdo = new PDO("mysql:host=127.0.0.1;port={$db['port']}", 'root', '', [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION]);
try {
    $pdo->query('SELECT * FROM no_such_db.no_such_table');
} catch (PDOException $e) {
    echo 'a bad query: ', chain($e), ' ', $e->getCode(), "\n";
}
echo await(spawn(function () use ($pdo) {
    try {
        $pdo->query('SELECT * FROM no_such_db.no_such_table');
    } catch (PDOException $e) {
        return 'in a coroutine: ' . chain($e) . ' ' . $e->getCode();
    }
})), "\n";
echo 'the connection still answers: ', $pdo->query('SELECT 42')->fetchColumn(), "\n";
?>
--EXPECT--
PDO::query(): Async\AsyncCancellation
a PDO subclass, its query(...) as a callable: Async\AsyncCancellation
PDOStatement::execute(): Async\AsyncCancellation
mysqli_query() in strict report mode: Async\AsyncCancellation <- mysqli_sql_exception
mysqli::query(): Async\AsyncCancellation <- mysqli_sql_exception
a bad query: PDOException 42S02
in a coroutine: PDOException 42S02
the connection still answers: 42
