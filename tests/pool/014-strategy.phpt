--TEST--
Pool: a CircuitBreakerStrategy hears reportSuccess($pool)/reportFailure($pool, $error) on release, drives the transitions; its exceptions (and a throwing beforeRelease's) are swallowed; shouldRecover() is never called
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\{Pool, CircuitBreakerState, CircuitBreakerStrategy};

class TripAfterTwo implements CircuitBreakerStrategy {
    public array $log = [];
    private int $failures = 0;
    public function reportSuccess(mixed $source): void {
        $this->log[] = "success " . ($source instanceof Pool ? "pool" : gettype($source));
        $this->failures = 0;
        if ($source->getState() === CircuitBreakerState::RECOVERING) {
            $source->activate();
        }
    }
    public function reportFailure(mixed $source, \Throwable $error): void {
        $this->log[] = "failure " . get_class($error) . ": " . $error->getMessage();
        if (++$this->failures >= 2) {
            $source->deactivate();
        }
        if ($error instanceof LogicException) {
            throw new RuntimeException("strategy exceptions are swallowed");
        }
    }
    public function shouldRecover(): bool {
        $this->log[] = "shouldRecover called";
        return true;
    }
}

$healthy = true;
$pool = new Pool(fn() => new stdClass, beforeRelease: function ($r) use (&$healthy) {
    if ($healthy === 'throw') { throw new LogicException("reset failed"); }
    return $healthy;
}, max: 3);
$s = new TripAfterTwo;
$pool->setCircuitBreakerStrategy($s);

$pool->release($pool->acquire());            // success
$healthy = false;
$pool->release($pool->acquire());            // failure 1
var_dump($pool->getState());
$healthy = 'throw';
try {
    $pool->release($pool->acquire());        // failure 2: the hook's exception is the error the strategy hears; swallowed
    echo "release did not throw\n";
} catch (LogicException $e) {
    echo "release threw: ", $e->getMessage(), "\n";
}
var_dump($pool->getState());                 // the strategy opened the circuit
try { $pool->acquire(); } catch (Async\ServiceUnavailableException $e) { echo $e->getMessage(), "\n"; }

$pool->recover();
$healthy = true;
$pool->release($pool->acquire());            // success while RECOVERING: the strategy closes it
var_dump($pool->getState());
echo implode("\n", $s->log), "\n";

// Removing the strategy.
$pool->setCircuitBreakerStrategy(null);
$pool->release($pool->acquire());
echo count($s->log), " entries\n";
?>
--EXPECT--
enum(Async\CircuitBreakerState::ACTIVE)
release did not throw
enum(Async\CircuitBreakerState::INACTIVE)
Service is unavailable (circuit breaker is open)
enum(Async\CircuitBreakerState::ACTIVE)
success pool
failure Exception: Resource validation failed
failure LogicException: reset failed
success pool
4 entries
