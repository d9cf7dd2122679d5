--TEST--
Every API call from __destruct during shutdown destruction (globals, objects owned by a coroutine's context), PHP 8.2/8.3: spawning there is refused with a clear AsyncException (8.2 and 8.3 cannot switch in shutdown destructors, so it would never run)
--SKIPIF--
<?php require __DIR__ . '/child.inc'; badinput_skip();
if (PHP_VERSION_ID >= 80400) die('skip PHP < 8.4 behaviour (PHP 8.4 allows switching inside destructors: see .php84.phpt)'); ?>
--FILE--
<?php
require __DIR__ . '/child.inc';
$api = var_export(__DIR__ . '/api.inc', true);
$prelude = "<?php require $api;\n" . '
class D {
    public function __construct(private string $where) {}
    public function __destruct() { exercise_api($this->where); }
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
--EXPECTF--
== global object, scheduler never launched (exit 0)
[end of script]
[shutdown dtor]
  spawn threw Async\AsyncException: Cannot spawn a coroutine in a destructor during request shutdown: it would never run
  protect: 'protected'
  current_coroutine: true
  coroutine_context: true
  get_coroutines: true
  cancel: NULL
  finally: NULL
  await threw Async\AsyncException: Cannot spawn a coroutine in a destructor during request shutdown: it would never run
  suspend: NULL
  delay: NULL
  usleep: NULL
  sleep: 0
  time_nanosleep: true
[/shutdown dtor]
== global object, after the script's coroutines finished (exit 0)
[end of script]
[script coroutine done]
[shutdown dtor]
  spawn threw Async\AsyncException: Cannot spawn a coroutine in a destructor during request shutdown: it would never run
  protect: 'protected'
  current_coroutine: true
  coroutine_context: true
  get_coroutines: true
  cancel: NULL
  finally: NULL
  await threw Async\AsyncException: Cannot spawn a coroutine in a destructor during request shutdown: it would never run
  suspend: NULL
  delay: NULL
  usleep: NULL
  sleep: 0
  time_nanosleep: true
[/shutdown dtor]
== object owned by a finished coroutine's context (exit 0)
[end of script]
[context-owned dtor]
  spawn threw Async\AsyncException: Cannot spawn a coroutine in a destructor during request shutdown: it would never run
  protect: 'protected'
  current_coroutine: true
  coroutine_context: true
  get_coroutines: true
  cancel: NULL
  finally: NULL
  await threw Async\AsyncException: Cannot spawn a coroutine in a destructor during request shutdown: it would never run
  suspend: NULL
  delay: NULL
  usleep: NULL
  sleep: 0
  time_nanosleep: true
[/context-owned dtor]
