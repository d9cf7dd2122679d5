--TEST--
PDO pool options: a value of the wrong type is PHP's TypeError, one out of range a ValueError naming the option (MIN > MAX, MAX 0, negative MIN, interval and cache size, cache size over 65536); good values at the edges are taken
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
$cases = [
    'MIN > MAX' => [PDO::ATTR_POOL_MIN => 3, PDO::ATTR_POOL_MAX => 2],
    'MIN > default MAX' => [PDO::ATTR_POOL_MIN => 11],
    'MAX 0' => [PDO::ATTR_POOL_MAX => 0],
    'MAX -1' => [PDO::ATTR_POOL_MAX => -1],
    'MIN -1' => [PDO::ATTR_POOL_MIN => -1],
    'interval -1' => [PDO::ATTR_POOL_HEALTHCHECK_INTERVAL => -1],
    'cache -1' => [PDO::ATTR_POOL_STMT_CACHE_SIZE => -1],
    'cache 65537' => [PDO::ATTR_POOL_STMT_CACHE_SIZE => 65537],
    'MAX "many"' => [PDO::ATTR_POOL_MAX => 'many'],
    'MIN array' => [PDO::ATTR_POOL_MIN => []],
    'interval 1.5' => [PDO::ATTR_POOL_HEALTHCHECK_INTERVAL => 1.5],
    'cache null' => [PDO::ATTR_POOL_STMT_CACHE_SIZE => null],
];
foreach ($cases as $what => $options) {
    echo "$what: ", pool_thrown(fn () => new PDO("sqlite:$file", null, null, $options + [PDO::ATTR_POOL_ENABLED => true])), "\n";
}
// also from a coroutine
echo 'MIN > MAX in a coroutine: ', await(spawn(fn () => pool_thrown(fn () => new PDO("sqlite:$file", null, null,
    [PDO::ATTR_POOL_ENABLED => true, PDO::ATTR_POOL_MIN => 5, PDO::ATTR_POOL_MAX => 4])))), "\n";

// the edges are fine
$edges = new PDO("sqlite:$file", null, null, [PDO::ATTR_POOL_ENABLED => true, PDO::ATTR_POOL_MIN => 1,
    PDO::ATTR_POOL_MAX => 1, PDO::ATTR_POOL_HEALTHCHECK_INTERVAL => 0, PDO::ATTR_POOL_STMT_CACHE_SIZE => 65536]);
echo 'edges: MIN ', $edges->getAttribute(PDO::ATTR_POOL_MIN), ' MAX ', $edges->getAttribute(PDO::ATTR_POOL_MAX),
    ' cache ', $edges->getAttribute(PDO::ATTR_POOL_STMT_CACHE_SIZE), ', pool ', count($edges->getPool()), "\n";
// numeric strings are ints, as for PDO's own int attributes
$numeric = new PDO("sqlite:$file", null, null, [PDO::ATTR_POOL_ENABLED => true, PDO::ATTR_POOL_MAX => '3']);
var_dump($numeric->getAttribute(PDO::ATTR_POOL_MAX));
echo await(spawn(fn () => $edges->query('SELECT 6 * 7')->fetchColumn())), "\n";
?>
--EXPECT--
MIN > MAX: ValueError: PDO::ATTR_POOL_MIN must be between 0 and PDO::ATTR_POOL_MAX (2)
MIN > default MAX: ValueError: PDO::ATTR_POOL_MIN must be between 0 and PDO::ATTR_POOL_MAX (10)
MAX 0: ValueError: PDO::ATTR_POOL_MAX must be between 1 and 4294967295
MAX -1: ValueError: PDO::ATTR_POOL_MAX must be between 1 and 4294967295
MIN -1: ValueError: PDO::ATTR_POOL_MIN must be between 0 and PDO::ATTR_POOL_MAX (10)
interval -1: ValueError: PDO::ATTR_POOL_HEALTHCHECK_INTERVAL must be between 0 and 4294967295 (milliseconds)
cache -1: ValueError: PDO::ATTR_POOL_STMT_CACHE_SIZE must be between 0 and 65536
cache 65537: ValueError: PDO::ATTR_POOL_STMT_CACHE_SIZE must be between 0 and 65536
MAX "many": TypeError: Attribute value must be of type int for selected attribute, string given
MIN array: TypeError: Attribute value must be of type int for selected attribute, array given
interval 1.5: TypeError: Attribute value must be of type int for selected attribute, float given
cache null: TypeError: Attribute value must be of type int for selected attribute, null given
MIN > MAX in a coroutine: ValueError: PDO::ATTR_POOL_MIN must be between 0 and PDO::ATTR_POOL_MAX (4)
edges: MIN 1 MAX 1 cache 65536, pool 1
int(3)
42
