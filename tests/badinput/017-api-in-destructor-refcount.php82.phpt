--TEST--
Every API call from __destruct during ordinary refcount destruction (PHP 8.2/8.3, which forbid switching there: waits refuse or block): in main, in a coroutine, while a coroutine unwinds on cancel
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded');
if (PHP_VERSION_ID >= 80400) die('skip PHP < 8.4 behaviour (PHP 8.4 allows switching inside destructors: see .php84.phpt)'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
require __DIR__ . '/api.inc';
use function Async\{spawn, await, suspend, delay};

class D {
    public function __construct(private string $where) {}
    public function __destruct() { exercise_api($this->where); }
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
--EXPECTF--
[dtor before launch]
  spawn: Async\Coroutine
  protect: 'protected'
  current_coroutine: true
  coroutine_context: true
  get_coroutines: true
  cancel: NULL
  finally: NULL
  await threw Async\AsyncException: Cannot await inside a destructor: PHP %s forbids switching coroutines there
  suspend: NULL
  delay: NULL
  usleep: NULL
  sleep: 0
  time_nanosleep: true
[/dtor before launch]
-- main continues
  <coroutine spawned in dtor before launch ran>
  <finally handler from dtor before launch>
[dtor in main]
  spawn: Async\Coroutine
  protect: 'protected'
  current_coroutine: true
  coroutine_context: true
  get_coroutines: true
  cancel: NULL
  finally: NULL
  await threw Async\AsyncException: Cannot await inside a destructor: PHP %s forbids switching coroutines there
  suspend: NULL
  delay: NULL
  usleep: NULL
  sleep: 0
  time_nanosleep: true
[/dtor in main]
-- main continues
  <coroutine spawned in dtor in main ran>
  <finally handler from dtor in main>
[dtor in coroutine]
  spawn: Async\Coroutine
  protect: 'protected'
  current_coroutine: true
  coroutine_context: true
  get_coroutines: true
  cancel: NULL
  finally: NULL
  await threw Async\AsyncException: Cannot await inside a destructor: PHP %s forbids switching coroutines there
  suspend: NULL
  delay: NULL
  usleep: NULL
  sleep: 0
  time_nanosleep: true
[/dtor in coroutine]
-- coroutine continues
  <coroutine spawned in dtor in coroutine ran>
  <finally handler from dtor in coroutine>
[dtor while unwinding a cancelled coroutine]
  spawn: Async\Coroutine
  protect: 'protected'
  current_coroutine: true
  coroutine_context: true
  get_coroutines: true
  cancel: NULL
  finally: NULL
  await threw Async\AsyncException: Cannot await inside a destructor: PHP %s forbids switching coroutines there
  suspend: NULL
  delay: NULL
  usleep: NULL
  sleep: 0
  time_nanosleep: true
[/dtor while unwinding a cancelled coroutine]
  <coroutine spawned in dtor while unwinding a cancelled coroutine ran>
  <finally handler from dtor while unwinding a cancelled coroutine>
-- cancelled: Coroutine cancelled
[dtor of a released result]
  spawn: Async\Coroutine
  protect: 'protected'
  current_coroutine: true
  coroutine_context: true
  get_coroutines: true
  cancel: NULL
  finally: NULL
  await threw Async\AsyncException: Cannot await inside a destructor: PHP %s forbids switching coroutines there
  suspend: NULL
  delay: NULL
  usleep: NULL
  sleep: 0
  time_nanosleep: true
[/dtor of a released result]
-- end
  <coroutine spawned in dtor of a released result ran>
  <finally handler from dtor of a released result>
