--TEST--
await_*: an exception from the iteration (generator body, current(), key(), next(), rewind(), getIterator()) reaches the caller; what was subscribed is released
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Async\{Future, FutureState};
use function Async\{await_all, await_any_or_fail, await_all_or_fail, await_first_success, spawn, delay};

$state = new FutureState();
$pending = new Future($state);

// The generator throws midway, after yielding a pending trigger and after suspending.
$thrown = new LogicException('generator broke');
$gen = (function () use ($pending, $thrown) {
    yield 'p' => $pending;
    delay(5);
    yield 'c' => spawn(fn() => 'c');
    throw $thrown;
})();
try { await_all($gen); } catch (LogicException $e) { echo "midway: ", describe($e), ", same object: ", var_export($e === $thrown, true), "\n"; }
echo "still subscribed to the pending trigger: ", count($state->getAwaitingInfo()), "\n";

// Throws before the first yield.
try { await_any_or_fail((function () { throw new RuntimeException('at once'); yield; })()); } catch (RuntimeException $e) { echo "at once: ", describe($e), "\n"; }

class Faulty implements Iterator {
    private int $i = 0;
    public function __construct(private string $where, private Future $pending) {}
    private function check(string $m) { if ($this->where === $m) throw new DomainException("$m() failed at {$this->i}"); }
    public function current(): mixed { $this->check('current'); return $this->i === 0 ? $this->pending : spawn(fn() => $this->i); }
    public function key(): mixed { $this->check('key'); return "k{$this->i}"; }
    public function next(): void { $this->i++; if ($this->i === 1) $this->check('next'); }
    public function rewind(): void { $this->check('rewind'); $this->i = 0; }
    public function valid(): bool { if ($this->i === 1) $this->check('valid'); return $this->i < 3; }
}
foreach (['current', 'key', 'next', 'rewind', 'valid'] as $where) {
    try {
        await_all_or_fail(new Faulty($where, $pending));
        echo "$where: no exception\n";
    } catch (DomainException $e) {
        echo "$where: ", describe($e), ", subscriptions left: ", count($state->getAwaitingInfo()), "\n";
    }
}

class BadAggregate implements IteratorAggregate {
    public function __construct(private mixed $what) {}
    public function getIterator(): Iterator {
        if ($this->what instanceof Throwable) throw $this->what;
        return $this->what;
    }
}
try { await_first_success(new BadAggregate(new UnexpectedValueException('no iterator'))); } catch (UnexpectedValueException $e) { echo "getIterator: ", describe($e), "\n"; }

// A generator that cannot be traversed (already finished).
$done = (function () { yield 1; })();
foreach ($done as $_) {}
try { await_all($done); } catch (Exception $e) { echo "finished generator: ", describe($e), "\n"; }

// The waiter is fine afterwards.
$state->complete('ok');
var_dump(await_all([$pending])[0]);
?>
--EXPECT--
midway: LogicException(generator broke), same object: true
still subscribed to the pending trigger: 0
at once: RuntimeException(at once)
current: DomainException(current() failed at 0), subscriptions left: 0
key: DomainException(key() failed at 0), subscriptions left: 0
next: DomainException(next() failed at 1), subscriptions left: 0
rewind: DomainException(rewind() failed at 0), subscriptions left: 0
valid: DomainException(valid() failed at 1), subscriptions left: 0
getIterator: UnexpectedValueException(no iterator)
finished generator: Exception(Cannot traverse an already closed generator)
array(1) {
  [0]=>
  string(2) "ok"
}
