--TEST--
await_*: Iterator, IteratorAggregate (returning an iterator or a generator) and SPL containers as the trigger source
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Async\Future;
use function Async\{await_all, await_all_or_fail, await_any_of, spawn, delay};

class Tasks implements Iterator {
    private int $i = 0;
    public function __construct(private array $names) {}
    public function current(): mixed { $n = $this->names[$this->i]; return spawn(function () use ($n) { delay(1); return strtoupper($n); }); }
    public function key(): mixed { return $this->names[$this->i]; }
    public function next(): void { $this->i++; }
    public function rewind(): void { $this->i = 0; }
    public function valid(): bool { return $this->i < count($this->names); }
}
echo json_encode(await_all_or_fail(new Tasks(['a', 'b', 'c']))), "\n";

// An Iterator whose methods suspend.
class SlowTasks extends Tasks {
    public function current(): mixed { delay(2); return parent::current(); }
    public function next(): void { Async\suspend(); parent::next(); }
}
echo json_encode(await_all_or_fail(new SlowTasks(['x', 'y']))), "\n";

class Agg implements IteratorAggregate {
    public function __construct(private bool $generator) {}
    public function getIterator(): Iterator {
        if (!$this->generator) {
            return new ArrayIterator(['p' => Future::completed('P'), 'q' => spawn(fn() => 'Q')]);
        }
        return (function () {
            yield 'g1' => spawn(fn() => 'G1');
            yield 'g2' => Future::failed(new Exception('G2'));
        })();
    }
}
echo json_encode(await_all(new Agg(false))), "\n";
echo json_encode(pair_summary(await_all(new Agg(true)))), "\n";

// SPL containers.
echo json_encode(await_all(new ArrayObject(['one' => Future::completed(1), 'two' => spawn(fn() => 2)]))[0]), "\n";
$fixed = new SplFixedArray(2);
$fixed[0] = spawn(fn() => 'f0');
$fixed[1] = Future::completed('f1');
echo json_encode(await_all($fixed)[0]), "\n";
$storage = new SplObjectStorage();
$storage->offsetSet(spawn(fn() => 's0'));
$storage->offsetSet(spawn(fn() => 's1'));
echo json_encode(await_any_of(2, $storage)[0]), "\n";
?>
--EXPECT--
{"a":"A","b":"B","c":"C"}
{"x":"X","y":"Y"}
[{"p":"P","q":"Q"},[]]
[{"g1":"G1"},{"g2":"G2"}]
{"one":1,"two":2}
["f0","f1"]
["s0","s1"]
