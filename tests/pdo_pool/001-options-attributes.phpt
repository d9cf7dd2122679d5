--TEST--
PDO pool options: the PDO::ATTR_POOL_* constants exist (also on Pdo\Mysql, Pdo\Pgsql, Pdo\Sqlite on 8.4+); getAttribute() gives their values when pooling is on (in and outside coroutines), false when off and on a plain PDO; setAttribute() of one throws; getPool() is an Async\Pool only when on
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--EXTENSIONS--
pdo
pdo_sqlite
mysqlnd
pdo_mysql
pdo_pgsql
--INI--
async.debug_deadlock=0
--FILE--
<?php
require __DIR__ . '/pool.inc';
use function Async\{spawn, await};

$names = ['ATTR_POOL_ENABLED', 'ATTR_POOL_MIN', 'ATTR_POOL_MAX', 'ATTR_POOL_HEALTHCHECK_INTERVAL',
    'ATTR_POOL_STMT_CACHE_SIZE'];
$values = [];
foreach ($names as $name) {
    $values[$name] = constant("PDO::$name");
}
echo 'constants: ', count(array_filter($values, 'is_int')), ' ints, ', count(array_unique($values)), " distinct\n";
// not one of PDO's own attributes
$own = array_filter((new ReflectionClass('PDO'))->getConstants(), fn ($v, $k) => str_starts_with($k, 'ATTR_')
    && !str_starts_with($k, 'ATTR_POOL_'), ARRAY_FILTER_USE_BOTH);
echo 'clash with PDO::ATTR_*: ', count(array_intersect($values, $own)), "\n";
if (PHP_VERSION_ID >= 80400) {
    $same = 0;
    foreach (['Pdo\Mysql', 'Pdo\Pgsql', 'Pdo\Sqlite'] as $class) {
        foreach ($values as $name => $v) {
            $same += constant("$class::$name") === $v;
        }
    }
    echo $same === 15 ? "driver classes: the same constants\n" : "driver classes: $same of 15\n";
} else {
    echo "driver classes: the same constants\n";
}

$file = pool_sqlite_file();
$show = function (PDO $pdo) use ($values) {
    $out = [];
    foreach ($values as $name => $attr) {
        $out[] = substr($name, 10) . '=' . var_export($pdo->getAttribute($attr), true);
    }
    return implode(' ', $out);
};

$on = new PDO("sqlite:$file", null, null, [PDO::ATTR_POOL_ENABLED => true, PDO::ATTR_POOL_MIN => 2,
    PDO::ATTR_POOL_MAX => 5, PDO::ATTR_POOL_HEALTHCHECK_INTERVAL => 1500, PDO::ATTR_POOL_STMT_CACHE_SIZE => 32]);
echo 'on: ', $show($on), "\n";
echo 'on, in a coroutine: ', await(spawn(fn () => $show($on))), "\n";
$defaults = new PDO("sqlite:$file", null, null, [PDO::ATTR_POOL_ENABLED => true]);
echo 'defaults: ', $show($defaults), "\n";
$off = new PDO("sqlite:$file", null, null, [PDO::ATTR_POOL_ENABLED => false, PDO::ATTR_POOL_MAX => 5]);
echo 'off: ', $show($off), "\n";
$plain = new PDO("sqlite:$file");
echo 'plain: ', $show($plain), "\n";
echo 'plain, in a coroutine: ', await(spawn(fn () => $show($plain))), "\n";

foreach (['on' => $on, 'plain' => $plain] as $what => $pdo) {
    foreach ($values as $name => $attr) {
        echo "setAttribute($name) $what: ", pool_thrown(fn () => $pdo->setAttribute($attr, 3)), "\n";
    }
}
echo 'setAttribute in a coroutine: ', await(spawn(fn () => pool_thrown(fn () => $on->setAttribute(PDO::ATTR_POOL_MAX, 3)))), "\n";
echo 'still: ', $show($on), "\n";

$pool = $on->getPool();
echo 'getPool on: ', get_debug_type($pool), ', count ', count($pool), ', idle ', $pool->idleCount(), "\n";
echo 'getPool off: ', get_debug_type($off->getPool()), "\n";
echo 'getPool plain: ', get_debug_type($plain->getPool()), "\n";
echo 'getPool in a coroutine: ', await(spawn(fn () => get_debug_type($on->getPool()) . ' ' . get_debug_type($plain->getPool()))), "\n";
?>
--EXPECT--
constants: 5 ints, 5 distinct
clash with PDO::ATTR_*: 0
driver classes: the same constants
on: ENABLED=true MIN=2 MAX=5 HEALTHCHECK_INTERVAL=1500 STMT_CACHE_SIZE=32
on, in a coroutine: ENABLED=true MIN=2 MAX=5 HEALTHCHECK_INTERVAL=1500 STMT_CACHE_SIZE=32
defaults: ENABLED=true MIN=0 MAX=10 HEALTHCHECK_INTERVAL=0 STMT_CACHE_SIZE=0
off: ENABLED=false MIN=false MAX=false HEALTHCHECK_INTERVAL=false STMT_CACHE_SIZE=false
plain: ENABLED=false MIN=false MAX=false HEALTHCHECK_INTERVAL=false STMT_CACHE_SIZE=false
plain, in a coroutine: ENABLED=false MIN=false MAX=false HEALTHCHECK_INTERVAL=false STMT_CACHE_SIZE=false
setAttribute(ATTR_POOL_ENABLED) on: PDOException: PDO::ATTR_POOL_ENABLED can only be given to the constructor
setAttribute(ATTR_POOL_MIN) on: PDOException: PDO::ATTR_POOL_MIN can only be given to the constructor
setAttribute(ATTR_POOL_MAX) on: PDOException: PDO::ATTR_POOL_MAX can only be given to the constructor
setAttribute(ATTR_POOL_HEALTHCHECK_INTERVAL) on: PDOException: PDO::ATTR_POOL_HEALTHCHECK_INTERVAL can only be given to the constructor
setAttribute(ATTR_POOL_STMT_CACHE_SIZE) on: PDOException: PDO::ATTR_POOL_STMT_CACHE_SIZE can only be given to the constructor
setAttribute(ATTR_POOL_ENABLED) plain: PDOException: PDO::ATTR_POOL_ENABLED can only be given to the constructor
setAttribute(ATTR_POOL_MIN) plain: PDOException: PDO::ATTR_POOL_MIN can only be given to the constructor
setAttribute(ATTR_POOL_MAX) plain: PDOException: PDO::ATTR_POOL_MAX can only be given to the constructor
setAttribute(ATTR_POOL_HEALTHCHECK_INTERVAL) plain: PDOException: PDO::ATTR_POOL_HEALTHCHECK_INTERVAL can only be given to the constructor
setAttribute(ATTR_POOL_STMT_CACHE_SIZE) plain: PDOException: PDO::ATTR_POOL_STMT_CACHE_SIZE can only be given to the constructor
setAttribute in a coroutine: PDOException: PDO::ATTR_POOL_MAX can only be given to the constructor
still: ENABLED=true MIN=2 MAX=5 HEALTHCHECK_INTERVAL=1500 STMT_CACHE_SIZE=32
getPool on: Async\Pool, count 2, idle 2
getPool off: null
getPool plain: null
getPool in a coroutine: Async\Pool null
