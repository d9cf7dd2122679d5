--TEST--
runtime_stats(): the counts follow coroutines being spawned, started, parked, woken and finished, and contexts being pooled
--INI--
fiber.stack_size=256K
async.context_pool_size=2
--FILE--
<?php
use Async\FutureState;
use Async\Future;
use function Async\{spawn, suspend, runtime_stats, await};

// One C context: the stack in whole pages plus the guard page.
$page = 4096; // x86-64 and most arm64 kernels
$ctx = 256 * 1024 + $page;

function show(string $when, array $keys): void {
    $s = runtime_stats();
    echo str_pad($when, 10), ": ", implode(", ", array_map(fn($k) => "$k={$s[$k]}", $keys)), "\n";
}
$queue = ['coroutines_total', 'coroutines_active', 'coroutine_queue', 'resumed_queue'];
$pool = ['fiber_pool_count', 'fiber_pool_capacity', 'fiber_pool_min'];

$state = new FutureState();
$future = new Future($state);
$co = [];
for ($i = 0; $i < 3; $i++) {
    $co[] = spawn(fn() => await($future));
}
show('spawned', $queue);
show('spawned', $pool);
var_dump(runtime_stats()['fiber_pool_virtual_bytes']);

suspend(); // they start and park on the future
show('parked', $queue);
var_dump(runtime_stats()['fiber_pool_virtual_bytes'] === 3 * $ctx);

$state->complete('go');
show('woken', $queue);

foreach ($co as $c) {
    await($c);
}
show('finished', $queue);
// Two contexts parked for reuse (async.context_pool_size=2), the third one was freed.
show('finished', $pool);
$s = runtime_stats();
var_dump($s['fiber_pool_virtual_bytes'] === 2 * $ctx, $s['fiber_stack_size'], $s['microtasks_queue']);

// A new coroutine takes a parked context.
$c = spawn(fn() => 1);
await($c);
show('reused', ['coroutines_total', 'coroutines_active', 'fiber_pool_count']);
?>
--EXPECT--
spawned   : coroutines_total=3, coroutines_active=3, coroutine_queue=3, resumed_queue=0
spawned   : fiber_pool_count=0, fiber_pool_capacity=2, fiber_pool_min=0
int(0)
parked    : coroutines_total=3, coroutines_active=3, coroutine_queue=0, resumed_queue=0
bool(true)
woken     : coroutines_total=3, coroutines_active=3, coroutine_queue=0, resumed_queue=3
finished  : coroutines_total=3, coroutines_active=0, coroutine_queue=0, resumed_queue=0
finished  : fiber_pool_count=2, fiber_pool_capacity=2, fiber_pool_min=0
bool(true)
int(262144)
int(0)
reused    : coroutines_total=4, coroutines_active=0, fiber_pool_count=2
