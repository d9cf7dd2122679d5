--TEST--
PDO pool: refused with a PDOException that says why: together with PDO::ATTR_PERSISTENT (also a persistent key string, and through PDO::connect() on 8.4+), and an in-memory or temporary SQLite database (sqlite::memory:, sqlite:, file::memory:, mode=memory); the same options without pooling still work
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
use function Async\{spawn, await};

$file = pool_sqlite_file();
function refused(callable $f, string $why): string
{
    try {
        $f();
        return 'accepted';
    } catch (Throwable $e) {
        return get_class($e) . (stripos($e->getMessage(), $why) !== false ? " naming $why" : ': ' . $e->getMessage());
    }
}
$pool = [PDO::ATTR_POOL_ENABLED => true];

echo 'persistent: ', refused(fn () => new PDO("sqlite:$file", null, null, $pool + [PDO::ATTR_PERSISTENT => true]), 'ATTR_PERSISTENT'), "\n";
echo 'persistent key: ', refused(fn () => new PDO("sqlite:$file", null, null, $pool + [PDO::ATTR_PERSISTENT => 'mine']), 'ATTR_PERSISTENT'), "\n";
echo 'persistent, MIN 1: ', refused(fn () => new PDO("sqlite:$file", null, null, $pool + [PDO::ATTR_POOL_MIN => 1, PDO::ATTR_PERSISTENT => 1]), 'ATTR_PERSISTENT'), "\n";
echo 'persistent in a coroutine: ', await(spawn(fn () => refused(fn () => new PDO("sqlite:$file", null, null, $pool + [PDO::ATTR_PERSISTENT => true]), 'ATTR_PERSISTENT'))), "\n";
if (PHP_VERSION_ID >= 80400) {
    echo 'PDO::connect persistent: ', refused(fn () => PDO::connect("sqlite:$file", null, null, $pool + [PDO::ATTR_PERSISTENT => true]), 'ATTR_PERSISTENT'), "\n";
} else {
    echo 'PDO::connect persistent: ', refused(fn () => new PDO("sqlite:$file", null, null, $pool + [PDO::ATTR_PERSISTENT => true]), 'ATTR_PERSISTENT'), "\n";
}

foreach (['sqlite::memory:', 'sqlite:', 'sqlite:file::memory:', 'sqlite:file::memory:?cache=shared', 'sqlite:file:mem1?mode=memory&cache=shared'] as $dsn) {
    echo "$dsn: ", refused(fn () => new PDO($dsn, null, null, $pool), 'memory'), "\n";
}
if (PHP_VERSION_ID >= 80400) {
    echo 'PDO::connect sqlite::memory:: ', refused(fn () => PDO::connect('sqlite::memory:', null, null, $pool), 'memory'), "\n";
} else {
    echo 'PDO::connect sqlite::memory:: ', refused(fn () => new PDO('sqlite::memory:', null, null, $pool), 'memory'), "\n";
}

// without pooling, all of these are PHP's own
$p = new PDO("sqlite:$file", null, null, [PDO::ATTR_POOL_ENABLED => false, PDO::ATTR_PERSISTENT => true]);
echo 'persistent, pooling off: ', $p->query('SELECT 1')->fetchColumn(), ' ', get_debug_type($p->getPool()), "\n";
$m = new PDO('sqlite::memory:', null, null, [PDO::ATTR_POOL_ENABLED => false]);
echo 'memory, pooling off: ', $m->query('SELECT 2')->fetchColumn(), ' ', get_debug_type($m->getPool()), "\n";
// and a file database is fine
$f = new PDO("sqlite:$file", null, null, $pool);
echo 'file: ', await(spawn(fn () => $f->query('SELECT 3')->fetchColumn())), ' ', get_debug_type($f->getPool()), "\n";
?>
--EXPECT--
persistent: PDOException naming ATTR_PERSISTENT
persistent key: PDOException naming ATTR_PERSISTENT
persistent, MIN 1: PDOException naming ATTR_PERSISTENT
persistent in a coroutine: PDOException naming ATTR_PERSISTENT
PDO::connect persistent: PDOException naming ATTR_PERSISTENT
sqlite::memory:: PDOException naming memory
sqlite:: PDOException naming memory
sqlite:file::memory:: PDOException naming memory
sqlite:file::memory:?cache=shared: PDOException naming memory
sqlite:file:mem1?mode=memory&cache=shared: PDOException naming memory
PDO::connect sqlite::memory:: PDOException naming memory
persistent, pooling off: 1 null
memory, pooling off: 2 null
file: 3 Async\Pool
