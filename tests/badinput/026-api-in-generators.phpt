--TEST--
Generators and the API: waiting inside generators, generators shared by coroutines, cancellation thrown into generators, spawning generator functions
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
require __DIR__ . '/api.inc';
use function Async\{spawn, await, suspend, delay, current_coroutine};

// 1. The whole API from inside a generator body, driven from main and from a coroutine.
function gen_api(string $where) { exercise_api($where); yield 1; }
foreach (gen_api("generator in main") as $_) {}
await(spawn(function () { foreach (gen_api("generator in coroutine") as $_) {} }));

// 2. A generator suspended mid-wait while another coroutine tries to resume it.
$g = (function () { yield 1; delay(10); yield 2; })();
$g->current();
$a = spawn(function () use ($g) { $g->next(); return "a got " . $g->current(); });
$b = spawn(function () use ($g) {
    try { $g->next(); return "b got " . $g->current(); } catch (Error $e) { return "b: " . get_class($e) . ": " . $e->getMessage(); }
});
var_dump(await($a), await($b));

// 3. A generator resumed by a different coroutine each step sees the current coroutine change.
$g = (function () { $ids = []; for ($i = 0; $i < 3; $i++) { $ids[] = current_coroutine()->getId(); yield; } return $ids; })();
$g->current();
await(spawn(fn() => $g->next()));
await(spawn(fn() => $g->next()));
await(spawn(fn() => $g->next()));
var_dump(count(array_unique($g->getReturn())));

// 4. Cancelling a coroutine while a generator it drives is waiting: the generator's finally runs.
$c = spawn(function () {
    $g = (function () { try { yield 1; delay(100000); yield 2; } finally { echo "generator finally ran\n"; } })();
    foreach ($g as $v) { echo "got $v\n"; }
});
suspend();
suspend();
$c->cancel(new Async\AsyncCancellation("stop generator"));
api_try("await", fn() => await($c));

// 5. Throwing a cancellation into a generator by hand, and spawning generator functions.
$g = (function () { try { yield 1; } catch (Async\AsyncCancellation $e) { yield "caught " . $e->getMessage(); } })();
$g->current();
var_dump($g->throw(new Async\AsyncCancellation("thrown in")));
function plain_gen() { yield 1; return 2; }
api_try("spawn a generator function", fn() => get_class(await(spawn('plain_gen'))));
api_try("spawn a generator's method", fn() => await(spawn([(function () { yield 1; })(), 'current'])));
api_try("yield from a coroutine result", fn() => iterator_to_array(await(spawn(fn() => (function () { delay(1); yield from [1, 2]; })()))));
// 6. A generator left suspended in a finished coroutine is destroyed cleanly.
api_try("abandoned generator", fn() => await(spawn(function () {
    $g = (function () { try { yield 1; delay(1); yield 2; } finally { echo "abandoned generator finally\n"; } })();
    $g->current();
    return "returned";
})));
echo "end\n";
?>
--EXPECT--
[generator in main]
  spawn: Async\Coroutine
  protect: 'protected'
  current_coroutine: true
  coroutine_context: true
  get_coroutines: true
  cancel: NULL
  finally: NULL
  <coroutine spawned in generator in main ran>
  <finally handler from generator in main>
  await: 'awaited'
  suspend: NULL
  delay: NULL
  usleep: NULL
  sleep: 0
  time_nanosleep: true
[/generator in main]
[generator in coroutine]
  spawn: Async\Coroutine
  protect: 'protected'
  current_coroutine: true
  coroutine_context: true
  get_coroutines: true
  cancel: NULL
  finally: NULL
  <coroutine spawned in generator in coroutine ran>
  <finally handler from generator in coroutine>
  await: 'awaited'
  suspend: NULL
  delay: NULL
  usleep: NULL
  sleep: 0
  time_nanosleep: true
[/generator in coroutine]
string(7) "a got 2"
string(52) "b: Error: Cannot resume an already running generator"
int(3)
got 1
generator finally ran
  await threw Async\AsyncCancellation: stop generator
string(16) "caught thrown in"
  spawn a generator function: 'Generator'
  spawn a generator's method: 1
  yield from a coroutine result: array (
  0 => 1,
  1 => 2,
)
abandoned generator finally
  abandoned generator: 'returned'
end
