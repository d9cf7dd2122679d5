--TEST--
Every API call from __destruct during shutdown destruction (globals, objects owned by a coroutine's context), PHP 8.4+, which allows switching there: spawn() works and the coroutine runs during the destructor's waits, await() waits and returns, suspend()/delay()/the sleep family let another coroutine run
--SKIPIF--
<?php require __DIR__ . '/child.inc'; badinput_skip();
if (PHP_VERSION_ID < 80400) die('skip PHP 8.4+ behaviour (PHP 8.2 and 8.3 forbid switching inside destructors: see .php82.phpt)'); ?>
--FILE--
<?php
require __DIR__ . '/child.inc';
$api = var_export(__DIR__ . '/api.inc', true);
$prelude = "<?php require $api;\n" . '
class D {
    public function __construct(private string $where) {}
    public function __destruct() { exercise_api($this->where, true, true); }
}
';
foreach ([
    'global object, scheduler never launched' => '$keep = new D("shutdown dtor");',
    'global object, after the script\'s coroutines finished' =>
        'Async\spawn(function () { Async\delay(2); echo "[script coroutine done]\n"; });
         $keep = new D("shutdown dtor");',
    'object owned by a finished coroutine\'s context' =>
        '$c = Async\spawn(function () { Async\coroutine_context()->set("d", new D("context-owned dtor")); });
         Async\await($c);',
] as $label => $code) {
    [$out, $rc] = run_child($prelude . $code . "\necho \"[end of script]\n\";");
    echo "== $label (exit $rc)\n$out";
}
?>
--EXPECT--
== global object, scheduler never launched (exit 0)
[end of script]
[shutdown dtor]
  spawn: Async\Coroutine
  protect: 'protected'
  current_coroutine: true
  coroutine_context: true
  get_coroutines: true
  cancel: NULL
  finally: NULL
  <coroutine spawned in shutdown dtor ran>
  <finally handler from shutdown dtor>
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
[/shutdown dtor]
== global object, after the script's coroutines finished (exit 0)
[end of script]
[script coroutine done]
[shutdown dtor]
  spawn: Async\Coroutine
  protect: 'protected'
  current_coroutine: true
  coroutine_context: true
  get_coroutines: true
  cancel: NULL
  finally: NULL
  <coroutine spawned in shutdown dtor ran>
  <finally handler from shutdown dtor>
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
[/shutdown dtor]
== object owned by a finished coroutine's context (exit 0)
[end of script]
[context-owned dtor]
  spawn: Async\Coroutine
  protect: 'protected'
  current_coroutine: true
  coroutine_context: true
  get_coroutines: true
  cancel: NULL
  finally: NULL
  <coroutine spawned in context-owned dtor ran>
  <finally handler from context-owned dtor>
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
[/context-owned dtor]
