--TEST--
Every API call from register_shutdown_function callbacks: before any launch, after the script's coroutines finished, after exit() in a coroutine, nested registration
--SKIPIF--
<?php require __DIR__ . '/child.inc'; badinput_skip(); ?>
--FILE--
<?php
require __DIR__ . '/child.inc';
$prelude = "<?php require " . var_export(__DIR__ . '/api.inc', true) . ";\n";
foreach ([
    'scheduler never launched' =>
        'register_shutdown_function(fn() => exercise_api("shutdown function"));',
    'after the script\'s coroutines finished' =>
        'register_shutdown_function(fn() => exercise_api("shutdown function"));
         Async\spawn(function () { Async\delay(2); echo "[script coroutine done]\n"; });',
    'launched, nothing left to run' =>
        'Async\delay(1);
         register_shutdown_function(fn() => exercise_api("shutdown function"));',
    'registered inside a coroutine' =>
        'Async\await(Async\spawn(fn() => register_shutdown_function(fn() => exercise_api("shutdown function")))); ',
    'registered by another shutdown function' =>
        'Async\delay(1);
         register_shutdown_function(fn() => register_shutdown_function(fn() => exercise_api("nested shutdown function")));',
    'after exit() in a coroutine' =>
        'register_shutdown_function(fn() => exercise_api("shutdown function"));
         Async\spawn(function () { Async\delay(1); exit(3); });
         Async\delay(1000);',
] as $label => $code) {
    [$out, $rc] = run_child($prelude . $code . "\necho \"[end of script]\n\";", 3);
    echo "== $label (exit $rc)\n$out";
}
?>
--EXPECTF--
== scheduler never launched (exit 0)
[end of script]
[shutdown function]
  spawn: Async\Coroutine
  protect: 'protected'
  current_coroutine: true
  coroutine_context: true
  get_coroutines: true
  cancel: NULL
  finally: NULL
  <coroutine spawned in shutdown function ran>
  <finally handler from shutdown function>
  await: 'awaited'
  suspend: NULL
  delay: NULL
  usleep: NULL
  sleep: 0
  time_nanosleep: true
[/shutdown function]
== after the script's coroutines finished (exit 0)
[end of script]
[script coroutine done]
[shutdown function]
  spawn: Async\Coroutine
  protect: 'protected'
  current_coroutine: true
  coroutine_context: true
  get_coroutines: true
  cancel: NULL
  finally: NULL
  <coroutine spawned in shutdown function ran>
  <finally handler from shutdown function>
  await: 'awaited'
  suspend: NULL
  delay: NULL
  usleep: NULL
  sleep: 0
  time_nanosleep: true
[/shutdown function]
== launched, nothing left to run (exit 0)
[end of script]
[shutdown function]
  spawn: Async\Coroutine
  protect: 'protected'
  current_coroutine: true
  coroutine_context: true
  get_coroutines: true
  cancel: NULL
  finally: NULL
  <coroutine spawned in shutdown function ran>
  <finally handler from shutdown function>
  await: 'awaited'
  suspend: NULL
  delay: NULL
  usleep: NULL
  sleep: 0
  time_nanosleep: true
[/shutdown function]
== registered inside a coroutine (exit 0)
[end of script]
[shutdown function]
  spawn: Async\Coroutine
  protect: 'protected'
  current_coroutine: true
  coroutine_context: true
  get_coroutines: true
  cancel: NULL
  finally: NULL
  <coroutine spawned in shutdown function ran>
  <finally handler from shutdown function>
  await: 'awaited'
  suspend: NULL
  delay: NULL
  usleep: NULL
  sleep: 0
  time_nanosleep: true
[/shutdown function]
== registered by another shutdown function (exit 0)
[end of script]
[nested shutdown function]
  spawn: Async\Coroutine
  protect: 'protected'
  current_coroutine: true
  coroutine_context: true
  get_coroutines: true
  cancel: NULL
  finally: NULL
  <coroutine spawned in nested shutdown function ran>
  <finally handler from nested shutdown function>
  await: 'awaited'
  suspend: NULL
  delay: NULL
  usleep: NULL
  sleep: 0
  time_nanosleep: true
[/nested shutdown function]
== after exit() in a coroutine (exit 3)
[shutdown function]
  spawn: Async\Coroutine
  protect: 'protected'
  current_coroutine: true
  coroutine_context: true
  get_coroutines: true
  cancel: NULL
  finally: NULL
  <coroutine spawned in shutdown function ran>
  <finally handler from shutdown function>
  await: 'awaited'
  suspend: NULL
  delay: NULL
  usleep: NULL
  sleep: 0
  time_nanosleep: true
[/shutdown function]
