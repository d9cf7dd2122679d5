--TEST--
PDO pool (mysql): an SQL error in a coroutine is reported as on a plain PDO: ERRMODE_EXCEPTION throws the same PDOException (query(), exec(), prepare()+execute(), also when an error handler turns ERRMODE_WARNING's warning into an exception), ERRMODE_WARNING warns the same; the connection is not broken by it and stays in the pool (same CONNECTION_ID() afterwards)
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
use function Async\{spawn, await};

$db = pool_start_mariadb();
function outcome(callable $f): string
{
    $warnings = [];
    set_error_handler(function ($no, $msg) use (&$warnings) { $warnings[] = $msg; return true; });
    try {
        $r = $f();
        $out = 'returned ' . get_debug_type($r);
    } catch (Throwable $e) {
        $out = get_class($e) . ': ' . $e->getMessage();
    } finally {
        restore_error_handler();
    }
    return $out . ($warnings ? ' + warning: ' . implode(' | ', $warnings) : '');
}
$calls = [
    'query' => fn (PDO $p) => $p->query('SELECT * FROM nosuchtable'),
    'exec' => fn (PDO $p) => $p->exec('SELECT * FROM nosuchtable'),
    'prepare + execute' => fn (PDO $p) => $p->prepare('SELECT * FROM nosuchtable WHERE id = ?')->execute([1]),
    'warning turned into ErrorException' => function (PDO $p) {
        $p->setAttribute(PDO::ATTR_ERRMODE, PDO::ERRMODE_WARNING);
        set_error_handler(fn ($no, $msg) => throw new ErrorException($msg));
        try {
            return $p->query('SELECT * FROM nosuchtable');
        } finally {
            restore_error_handler();
        }
    },
];
foreach ([PDO::ERRMODE_EXCEPTION => 'exception', PDO::ERRMODE_WARNING => 'warning'] as $mode => $modeName) {
    $plain = new PDO($db['dsn'], 'root', '', [PDO::ATTR_ERRMODE => $mode]);
    $pooled = pool_mysql($db, [PDO::ATTR_POOL_MAX => 1, PDO::ATTR_ERRMODE => $mode]);
    $pool = $pooled->getPool();
    $first = await(spawn(fn () => $pooled->query('SELECT CONNECTION_ID()')->fetchColumn()));
    foreach ($calls as $name => $call) {
        if ($modeName === 'warning' && $name === 'warning turned into ErrorException') {
            continue;
        }
        $stock = outcome(fn () => $call($plain));
        $mine = await(spawn(fn () => outcome(fn () => $call($pooled))));
        $id = await(spawn(fn () => $pooled->query('SELECT CONNECTION_ID()')->fetchColumn()));
        echo "$modeName, $name: ", $mine === $stock ? 'as stock' : "pooled: $mine; stock: $stock",
            ', connection ', $id === $first ? 'kept' : 'replaced', ', pool ', count($pool), "\n";
        $plain->setAttribute(PDO::ATTR_ERRMODE, $mode);
    }
    echo "  $modeName: ", outcome(fn () => $calls['query']($plain)), "\n";
}
?>
--EXPECT--
exception, query: as stock, connection kept, pool 1
exception, exec: as stock, connection kept, pool 1
exception, prepare + execute: as stock, connection kept, pool 1
exception, warning turned into ErrorException: as stock, connection kept, pool 1
  exception: PDOException: SQLSTATE[42S02]: Base table or view not found: 1146 Table 't.nosuchtable' doesn't exist
warning, query: as stock, connection kept, pool 1
warning, exec: as stock, connection kept, pool 1
warning, prepare + execute: as stock, connection kept, pool 1
  warning: returned bool + warning: PDO::query(): SQLSTATE[42S02]: Base table or view not found: 1146 Table 't.nosuchtable' doesn't exist
