--TEST--
Every API call from __destruct during ordinary refcount destruction (PHP 8.4+, which allows switching there): in main, in a coroutine, while a coroutine unwinds on cancel, await() waits and returns, suspend()/delay()/the sleep family suspend only the destructor's coroutine (another coroutine runs meanwhile), spawned coroutines run during the destructor's waits
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded');
if (PHP_VERSION_ID < 80400) die('skip PHP 8.4+ behaviour (PHP 8.2 and 8.3 forbid switching inside destructors: see .php82.phpt)'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
require __DIR__ . '/api.inc';
use function Async\{spawn, await, suspend, delay};

class D {
    public function __construct(private string $where) {}
    public function __destruct() { exercise_api($this->where, true, true); }
}

// Before the scheduler was ever launched.
$d = new D("dtor before launch");
unset($d);
echo "-- main continues\n";
delay(1);

// In the (launched) main coroutine.
$d = new D("dtor in main");
$d = null;
echo "-- main continues\n";
delay(1);

// In a coroutine.
await(spawn(function () {
    $d = new D("dtor in coroutine");
    unset($d);
    echo "-- coroutine continues\n";
}));

// While a coroutine's stack unwinds because it was cancelled.
$c = spawn(function () {
    $d = new D("dtor while unwinding a cancelled coroutine");
    delay(100000);
});
suspend();
$c->cancel();
try { await($c); } catch (Async\AsyncCancellation $e) { echo "-- cancelled: ", $e->getMessage(), "\n"; }

// When a finished coroutine's result is released.
$r = spawn(fn() => new D("dtor of a released result"));
await($r);
unset($r);
echo "-- end\n";
?>
--EXPECT--
[dtor before launch]
  spawn: Async\Coroutine
  protect: 'protected'
  current_coroutine: true
  coroutine_context: true
  get_coroutines: true
  cancel: NULL
  finally: NULL
  <coroutine spawned in dtor before launch ran>
  <finally handler from dtor before launch>
  await: 'awaited'
  suspend: NULL
    another coroutine ran during suspend
  delay: NULL
    another coroutine ran during delay
  usleep: NULL
    another coroutine ran during usleep
  sleep: 0
    another coroutine ran during sleep
  time_nanosleep: true
    another coroutine ran during time_nanosleep
[/dtor before launch]
-- main continues
[dtor in main]
  spawn: Async\Coroutine
  protect: 'protected'
  current_coroutine: true
  coroutine_context: true
  get_coroutines: true
  cancel: NULL
  finally: NULL
  <coroutine spawned in dtor in main ran>
  <finally handler from dtor in main>
  await: 'awaited'
  suspend: NULL
    another coroutine ran during suspend
  delay: NULL
    another coroutine ran during delay
  usleep: NULL
    another coroutine ran during usleep
  sleep: 0
    another coroutine ran during sleep
  time_nanosleep: true
    another coroutine ran during time_nanosleep
[/dtor in main]
-- main continues
[dtor in coroutine]
  spawn: Async\Coroutine
  protect: 'protected'
  current_coroutine: true
  coroutine_context: true
  get_coroutines: true
  cancel: NULL
  finally: NULL
  <coroutine spawned in dtor in coroutine ran>
  <finally handler from dtor in coroutine>
  await: 'awaited'
  suspend: NULL
    another coroutine ran during suspend
  delay: NULL
    another coroutine ran during delay
  usleep: NULL
    another coroutine ran during usleep
  sleep: 0
    another coroutine ran during sleep
  time_nanosleep: true
    another coroutine ran during time_nanosleep
[/dtor in coroutine]
-- coroutine continues
[dtor while unwinding a cancelled coroutine]
  spawn: Async\Coroutine
  protect: 'protected'
  current_coroutine: true
  coroutine_context: true
  get_coroutines: true
  cancel: NULL
  finally: NULL
  <coroutine spawned in dtor while unwinding a cancelled coroutine ran>
  <finally handler from dtor while unwinding a cancelled coroutine>
  await: 'awaited'
  suspend: NULL
    another coroutine ran during suspend
  delay: NULL
    another coroutine ran during delay
  usleep: NULL
    another coroutine ran during usleep
  sleep: 0
    another coroutine ran during sleep
  time_nanosleep: true
    another coroutine ran during time_nanosleep
[/dtor while unwinding a cancelled coroutine]
-- cancelled: Coroutine cancelled
[dtor of a released result]
  spawn: Async\Coroutine
  protect: 'protected'
  current_coroutine: true
  coroutine_context: true
  get_coroutines: true
  cancel: NULL
  finally: NULL
  <coroutine spawned in dtor of a released result ran>
  <finally handler from dtor of a released result>
  await: 'awaited'
  suspend: NULL
    another coroutine ran during suspend
  delay: NULL
    another coroutine ran during delay
  usleep: NULL
    another coroutine ran during usleep
  sleep: 0
    another coroutine ran during sleep
  time_nanosleep: true
    another coroutine ran during time_nanosleep
[/dtor of a released result]
-- end
