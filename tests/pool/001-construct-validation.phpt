--TEST--
Pool: constructor validation (PHP-style ValueError messages), class shape, "Pool is not initialized"
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\Pool;

$f = fn() => new stdClass;
$cases = [
    'min < 0' => fn() => new Pool($f, min: -1),
    'max < 1' => fn() => new Pool($f, max: 0),
    'min > max' => fn() => new Pool($f, min: 5, max: 4),
    'interval < 0' => fn() => new Pool($f, healthcheckInterval: -5),
    'factory not callable' => fn() => new Pool('no_such_function'),
    'destructor not callable' => fn() => new Pool($f, 42),
];
foreach ($cases as $name => $make) {
    try {
        $make();
        echo "$name: no error\n";
    } catch (Throwable $e) {
        echo "$name: ", get_class($e), ": ", $e->getMessage(), "\n";
    }
}

// Boundaries are accepted.
$p = new Pool($f, min: 0, max: 1, healthcheckInterval: 0);
$q = new Pool($f, null, null, null, null, 3, 3);
var_dump(count($p), count($q));

try {
    $p->__construct($f);
} catch (Error $e) {
    echo get_class($e), ": ", $e->getMessage(), "\n";
}

// Shape of the class.
$rc = new ReflectionClass(Pool::class);
var_dump($rc->isFinal(), $p instanceof Countable, $p instanceof Async\CircuitBreaker);
var_dump(interface_exists(Async\CircuitBreakerStrategy::class));
var_dump((new ReflectionEnum(Async\CircuitBreakerState::class))->isBacked());
var_dump(array_map(fn($c) => $c->name, Async\CircuitBreakerState::cases()));
try { clone $p; } catch (Error $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; }
try { serialize($p); } catch (Exception $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; }
try { $p->dynamic = 1; } catch (Error $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; }
var_dump(Async\PoolException::class, get_parent_class(Async\PoolException::class));

// A final internal class cannot be made without its constructor; the only way to see an
// object with no pool behind it is from inside a constructor that then fails.
$blank = null;
try {
    new Pool(function () use (&$blank) {
        foreach (debug_backtrace(DEBUG_BACKTRACE_PROVIDE_OBJECT) as $frame) {
            if (($frame['object'] ?? null) instanceof Pool) {
                $blank = $frame['object'];
            }
        }
        return false;
    }, min: 1);
} catch (Async\PoolException $e) {
    echo get_class($e), ": ", $e->getMessage(), "\n";
}
foreach (['acquire', 'tryAcquire', 'close', 'isClosed', 'count', 'idleCount', 'activeCount', 'getState', 'activate'] as $m) {
    try {
        $blank->$m();
        echo "$m: no error\n";
    } catch (Async\PoolException $e) {
        echo "$m: ", $e->getMessage(), "\n";
    }
}
try { $blank->release(1); } catch (Async\PoolException $e) { echo "release: ", $e->getMessage(), "\n"; }
?>
--EXPECT--
min < 0: ValueError: Async\Pool::__construct(): Argument #6 ($min) must be >= 0
max < 1: ValueError: Async\Pool::__construct(): Argument #7 ($max) must be >= 1
min > max: ValueError: Async\Pool::__construct(): Argument #6 ($min) must be <= max
interval < 0: ValueError: Async\Pool::__construct(): Argument #8 ($healthcheckInterval) must be >= 0
factory not callable: TypeError: Async\Pool::__construct(): Argument #1 ($factory) must be a valid callback, function "no_such_function" not found or invalid function name
destructor not callable: TypeError: Async\Pool::__construct(): Argument #2 ($destructor) must be a valid callback or null, no array or string given
int(0)
int(3)
Error: Async\Pool is already initialized
bool(true)
bool(true)
bool(true)
bool(true)
bool(false)
array(3) {
  [0]=>
  string(6) "ACTIVE"
  [1]=>
  string(8) "INACTIVE"
  [2]=>
  string(10) "RECOVERING"
}
Error: Trying to clone an uncloneable object of class Async\Pool
Exception: Serialization of 'Async\Pool' is not allowed
Error: Cannot create dynamic property Async\Pool::$dynamic
string(19) "Async\PoolException"
string(20) "Async\AsyncException"
Async\PoolException: Failed to create pool resource
acquire: Pool is not initialized
tryAcquire: Pool is not initialized
close: Pool is not initialized
isClosed: Pool is not initialized
count: Pool is not initialized
idleCount: Pool is not initialized
activeCount: Pool is not initialized
getState: Pool is not initialized
activate: Pool is not initialized
release: Pool is not initialized
