--TEST--
The API from set_error_handler() callbacks (engine, internal-function and ext-async's own diagnostics) and from set_exception_handler()
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
error_reporting=-1
--FILE--
<?php
require __DIR__ . '/api.inc';
use function Async\{spawn, await, suspend, delay};

set_error_handler(function (int $no, string $msg) {
    exercise_api("error handler: $msg", false);
    // Waiting inside the handler suspends the coroutine that raised the diagnostic.
    api_try("await in error handler", fn() => await(spawn(function () { delay(1); return "awaited"; })));
    return true;
});

// Raised by the engine in main before launch, in main, in a coroutine.
echo $undefined1;
delay(0);
echo $undefined2;
var_dump(await(spawn(function () { echo $undefined3; return "coroutine continued"; })));
// Raised by an internal function inside a coroutine, and by ext-async's own parameter parsing.
var_dump(await(spawn(fn() => hex2bin("zz"))));
var_dump(await(spawn(function () { delay(null); return "delay(null) returned"; })));
// An error handler that throws inside a coroutine turns into the coroutine's exception.
set_error_handler(function (int $no, string $msg) { suspend(); throw new ErrorException($msg); });
api_try("throwing error handler", fn() => await(spawn(fn() => $undefined4)));
restore_error_handler();
restore_error_handler();

$background = spawn(function () { delay(1); return "background finished"; });
set_exception_handler(function (Throwable $e) use ($background) {
    echo "exception handler got ", get_class($e), ": ", $e->getMessage(), "\n";
    exercise_api("exception handler");
    // A handled exception is not a reason to cancel the other coroutines.
    echo await($background), "\n";
});
throw new RuntimeException("uncaught in main");
?>
--EXPECTF--
[error handler: Undefined variable $undefined1]
  spawn: Async\Coroutine
  protect: 'protected'
  current_coroutine: true
  coroutine_context: true
  get_coroutines: true
  cancel: NULL
  finally: NULL
[/error handler: Undefined variable $undefined1]
  <coroutine spawned in error handler: Undefined variable $undefined1 ran>
  <finally handler from error handler: Undefined variable $undefined1>
  await in error handler: 'awaited'
[error handler: Undefined variable $undefined2]
  spawn: Async\Coroutine
  protect: 'protected'
  current_coroutine: true
  coroutine_context: true
  get_coroutines: true
  cancel: NULL
  finally: NULL
[/error handler: Undefined variable $undefined2]
  <coroutine spawned in error handler: Undefined variable $undefined2 ran>
  <finally handler from error handler: Undefined variable $undefined2>
  await in error handler: 'awaited'
[error handler: Undefined variable $undefined3]
  spawn: Async\Coroutine
  protect: 'protected'
  current_coroutine: true
  coroutine_context: true
  get_coroutines: true
  cancel: NULL
  finally: NULL
[/error handler: Undefined variable $undefined3]
  <coroutine spawned in error handler: Undefined variable $undefined3 ran>
  <finally handler from error handler: Undefined variable $undefined3>
  await in error handler: 'awaited'
string(19) "coroutine continued"
[error handler: hex2bin(): Input string must be hexadecimal string]
  spawn: Async\Coroutine
  protect: 'protected'
  current_coroutine: true
  coroutine_context: true
  get_coroutines: true
  cancel: NULL
  finally: NULL
[/error handler: hex2bin(): Input string must be hexadecimal string]
  <coroutine spawned in error handler: hex2bin(): Input string must be hexadecimal string ran>
  <finally handler from error handler: hex2bin(): Input string must be hexadecimal string>
  await in error handler: 'awaited'
bool(false)
[error handler: Async\delay(): Passing null to parameter #1 ($ms) of type int is deprecated]
  spawn: Async\Coroutine
  protect: 'protected'
  current_coroutine: true
  coroutine_context: true
  get_coroutines: true
  cancel: NULL
  finally: NULL
[/error handler: Async\delay(): Passing null to parameter #1 ($ms) of type int is deprecated]
  <coroutine spawned in error handler: Async\delay(): Passing null to parameter #1 ($ms) of type int is deprecated ran>
  <finally handler from error handler: Async\delay(): Passing null to parameter #1 ($ms) of type int is deprecated>
  await in error handler: 'awaited'
string(20) "delay(null) returned"
  throwing error handler threw ErrorException: Undefined variable $undefined4
exception handler got RuntimeException: uncaught in main
[exception handler]
  spawn: Async\Coroutine
  protect: 'protected'
  current_coroutine: true
  coroutine_context: true
  get_coroutines: true
  cancel: NULL
  finally: NULL
  <coroutine spawned in exception handler ran>
  <finally handler from exception handler>
  await: 'awaited'
  suspend: NULL
  delay: NULL
  usleep: NULL
  sleep: 0
  time_nanosleep: true
[/exception handler]
background finished
