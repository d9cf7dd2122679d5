--TEST--
Pool: circuit breaker states; INACTIVE rejects acquire() with ServiceUnavailableException, RECOVERING acquires like ACTIVE
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\{Pool, CircuitBreakerState};

$pool = new Pool(fn() => "r", max: 2);
var_dump($pool->getState() === CircuitBreakerState::ACTIVE);

$pool->deactivate();
var_dump($pool->getState());
try {
    $pool->acquire();
} catch (Async\ServiceUnavailableException $e) {
    echo get_class($e), ": ", $e->getMessage(), "\n";
    var_dump($e instanceof Async\AsyncException, $e instanceof Async\PoolException);
}
var_dump($pool->tryAcquire());

$pool->recover();
var_dump($pool->getState());
var_dump($pool->acquire());

$pool->activate();
var_dump($pool->getState());
var_dump($pool->tryAcquire());
echo count($pool), "\n";

// Closed wins over the circuit.
$pool->deactivate();
$pool->close();
try { $pool->acquire(); } catch (Async\AsyncException $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; }
var_dump($pool->getState());

// A waiter parked before the circuit opened re-checks when it runs: ServiceUnavailableException
// (tests/pool/020 has the reservation passing on).
$p2 = new Pool(fn() => "x", max: 1);
$x = $p2->acquire();
$w = Async\spawn(fn() => $p2->acquire());
Async\suspend();
$p2->deactivate();
$p2->release($x);
try { var_dump(Async\await($w)); } catch (Async\ServiceUnavailableException $e) { echo get_class($e), "\n"; }
$p2->activate();
var_dump($p2->acquire());
?>
--EXPECT--
bool(true)
enum(Async\CircuitBreakerState::INACTIVE)
Async\ServiceUnavailableException: Service is unavailable (circuit breaker is open)
bool(true)
bool(false)
NULL
enum(Async\CircuitBreakerState::RECOVERING)
string(1) "r"
enum(Async\CircuitBreakerState::ACTIVE)
string(1) "r"
2
Async\PoolException: Pool is closed
enum(Async\CircuitBreakerState::INACTIVE)
Async\ServiceUnavailableException
string(1) "x"
