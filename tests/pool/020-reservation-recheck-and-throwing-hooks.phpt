--TEST--
Pool: a released resource is reserved for the woken waiter, which re-checks the pool when it runs — close() in between destroys it and gives PoolException, a circuit opened in between gives ServiceUnavailableException and passes the reservation on (the next waiter never hangs); a beforeAcquire/beforeRelease hook that throws is a rejection
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use Async\{Pool, PoolException, ServiceUnavailableException, CircuitBreakerStrategy, CircuitBreaker};
use function Async\{spawn, await, suspend};

function outcome(callable $fn): string
{
    try {
        return 'got ' . var_export($fn(), true);
    } catch (Throwable $e) {
        return get_class($e) . ': ' . $e->getMessage();
    }
}

function make_pool(array $extra = []): Pool
{
    $n = 0;
    return new Pool(...$extra + [
        'factory' => function () use (&$n) { return ++$n; },
        'destructor' => function ($r) { echo "  destroy $r\n"; },
        'max' => 1,
    ]);
}

echo "close between release and the waiter's turn:\n";
$pool = make_pool();
$r = $pool->acquire();
$w = spawn(fn() => outcome(fn() => $pool->acquire()));
suspend();
$pool->release($r); // reserved for $w
$pool->close();
$got = await($w);
echo '  waiter: ', $got, "\n";
var_dump(count($pool));

echo "circuit opened between release and the waiter's turn:\n";
$pool = make_pool();
$r = $pool->acquire();
$w1 = spawn(fn() => outcome(fn() => $pool->acquire()));
$w2 = spawn(fn() => outcome(fn() => $pool->acquire(2000)));
suspend();
$pool->release($r);
$pool->deactivate();
$w3 = null;
$first = await($w1);   // passes the reservation to the second
$second = await($w2);  // runs while still open: fails at once, no 2 s timeout
echo '  first: ', $first, "\n  second: ", $second, "\n";
$pool->activate();
echo '  after activate: ', outcome(fn() => $pool->acquire()), "\n";

echo "a slot reservation likewise:\n";
$pool = make_pool(['factory' => function () { static $n = 10; return ++$n; },
    'beforeRelease' => fn($r) => false]);
$r = $pool->acquire();
$w1 = spawn(fn() => outcome(fn() => $pool->acquire()));
$w2 = spawn(fn() => outcome(fn() => $pool->acquire()));
suspend();
$pool->release($r);   // rejected: destroyed, its slot goes to $w1
$pool->deactivate();
$first = await($w1);   // its slot goes to the second, which runs before main and fails too
$pool->activate();
$second = await($w2);
echo '  first: ', $first, "\n  second: ", $second, "\n";
echo '  after activate: ', outcome(fn() => $pool->acquire()), "\n";

echo "hooks that throw are rejections:\n";
$failures = [];
$pool = new Pool(
    factory: function () { static $n = 0; return ++$n; },
    destructor: function ($r) { echo "  destroy $r\n"; },
    beforeAcquire: function ($r) { if ($r === 1) { throw new RuntimeException("acquire says no"); } return true; },
    beforeRelease: function ($r) { if ($r === 2) { throw new RuntimeException("release says no"); } return true; },
    min: 1, max: 3,
);
$pool->setCircuitBreakerStrategy(new class($failures) implements CircuitBreakerStrategy {
    public function __construct(private array &$log) {}
    public function reportSuccess(mixed $source): void {}
    public function reportFailure(mixed $source, \Throwable $error): void { $this->log[] = get_class($error) . ': ' . $error->getMessage(); }
    public function shouldRecover(): bool { return false; }
});
$a = outcome(function () use ($pool) { return $pool->acquire(); });
echo '  acquire: ', $a, "\n";
$b = outcome(function () use ($pool) { $pool->release(2); return 'ok'; });
echo '  release: ', $b, "\n";
echo '  strategy heard: ', implode('; ', $failures), "\n";
var_dump(count($pool));
// Below min (1) with nobody waiting: the pool makes one in a coroutine of its own.
suspend();
var_dump(count($pool), $pool->idleCount());
?>
--EXPECT--
close between release and the waiter's turn:
  destroy 1
  waiter: Async\PoolException: Pool is closed
int(0)
circuit opened between release and the waiter's turn:
  first: Async\ServiceUnavailableException: Service is unavailable (circuit breaker is open)
  second: Async\ServiceUnavailableException: Service is unavailable (circuit breaker is open)
  after activate: got 1
a slot reservation likewise:
  destroy 11
  first: Async\ServiceUnavailableException: Service is unavailable (circuit breaker is open)
  second: Async\ServiceUnavailableException: Service is unavailable (circuit breaker is open)
  after activate: got 12
hooks that throw are rejections:
  destroy 1
  acquire: got 2
  destroy 2
  release: got 'ok'
  strategy heard: RuntimeException: release says no
int(0)
int(1)
int(1)
  destroy 3
