--TEST--
Pool: the periodic healthcheck checks idle resources only, destroys dead ones and restores min
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\Pool;
use function Async\delay;

class Conn {
    public bool $alive = true;
    public function __construct(public int $id) {}
}

$n = 0;
$checked = [];
$pool = new Pool(
    factory: function () use (&$n) { return new Conn(++$n); },
    destructor: function (Conn $c) { echo "destroy {$c->id}\n"; },
    healthcheck: function (Conn $c) use (&$checked) {
        $checked[$c->id] = ($checked[$c->id] ?? 0) + 1;
        if ($c->id === 3) { throw new RuntimeException("check failed"); } // counts as dead
        return $c->alive;
    },
    min: 3, max: 5, healthcheckInterval: 20,
);

$busy = $pool->acquire(); // Conn 1 is busy: never checked
$idle = $pool->acquire(); // Conn 2...
$pool->release($idle);    // ...goes back idle
$idle->alive = false;     // and dies while idle
echo "count ", count($pool), " idle ", $pool->idleCount(), "\n";

delay(70); // a few healthcheck rounds
ksort($checked);
echo "checked: ", implode(",", array_keys($checked)), "\n";
var_dump(isset($checked[1]));

// 2 (dead) and 3 (check threw) were destroyed and replaced up to min=3: 1 busy + 2 fresh idle.
echo "count ", count($pool), " idle ", $pool->idleCount(), " made $n\n";
$idle = [];
for ($i = $pool->idleCount(); $i > 0; $i--) { $idle[] = $pool->tryAcquire(); }
echo "idle ids: ", implode(",", array_map(fn($c) => $c->id, $idle)), "\n";
foreach ($idle as $c) { $pool->release($c); }
unset($idle, $c);
$pool->close();
$rounds = array_sum($checked);
delay(50); // the timer is stopped: no more checks
echo "checks after close: ", array_sum($checked) - $rounds, "\n";
$pool->release($busy);

// Without a healthcheck callable the interval does nothing; without an interval nothing runs.
$calls = 0;
$p2 = new Pool(fn() => 1, healthcheck: function () use (&$calls) { $calls++; return true; }, min: 1);
$p3 = new Pool(fn() => 1, min: 1, healthcheckInterval: 5);
delay(30);
var_dump($calls, count($p3));
?>
--EXPECTF--
count 3 idle 2
destroy 3
destroy 2
checked: 2,3%S
bool(false)
count 3 idle 2 made 5
idle ids: 4,5
destroy 4
destroy 5
checks after close: 0
destroy 1
int(0)
int(1)
