--TEST--
Every API call from __destruct run by the cycle collector (PHP 8.2/8.3, which forbid switching there: waits refuse or block): explicit gc_collect_cycles() in main and in a coroutine, and an automatic GC run
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded');
if (PHP_VERSION_ID >= 80400) die('skip PHP < 8.4 behaviour (PHP 8.4 allows switching inside destructors: see .php84.phpt)'); ?>
--INI--
async.debug_deadlock=0
zend.enable_gc=1
--FILE--
<?php
require __DIR__ . '/api.inc';
use function Async\{spawn, await, suspend, delay};

class Cyclic {
    public $self;
    public $co;
    public function __construct(private string $where, private bool $withWaits = true) { $this->self = $this; }
    public function __destruct() { exercise_api($this->where, $this->withWaits); }
}

new Cyclic("gc in main");
$n = gc_collect_cycles();
echo "-- collected: ", $n >= 0 ? "yes" : "no", "\n";
delay(1);

await(spawn(function () {
    new Cyclic("gc in coroutine");
    $n = gc_collect_cycles();
    echo "-- collected: ", $n >= 0 ? "yes" : "no", "\n";
}));

// A garbage cycle that also holds a finished coroutine whose closure captured the object.
function make_cycle_with_coroutine() {
    $o = new Cyclic("gc of a cycle holding a coroutine");
    $o->co = spawn(function () use ($o) { return 1; });
    await($o->co);
}
make_cycle_with_coroutine();
gc_collect_cycles();
delay(1);

// An automatic collection (root buffer full) inside a coroutine; no waits in this destructor so
// that the many collections do not make the test slow.
$c = spawn(function () {
    for ($i = 0; $i < 30000; $i++) {
        $a = new stdClass;
        $a->a = $a;
        if ($i === 100) {
            new Cyclic("automatic gc in coroutine", false);
        }
    }
    return "loop done";
});
var_dump(await($c));
delay(1);
echo "-- end\n";
?>
--EXPECTF--
[gc in main]
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
[/gc in main]
-- collected: yes
  <coroutine spawned in gc in main ran>
  <finally handler from gc in main>
[gc in coroutine]
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
[/gc in coroutine]
-- collected: yes
  <coroutine spawned in gc in coroutine ran>
  <finally handler from gc in coroutine>
[gc of a cycle holding a coroutine]
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
[/gc of a cycle holding a coroutine]
  <coroutine spawned in gc of a cycle holding a coroutine ran>
  <finally handler from gc of a cycle holding a coroutine>
[automatic gc in coroutine]
  spawn: Async\Coroutine
  protect: 'protected'
  current_coroutine: true
  coroutine_context: true
  get_coroutines: true
  cancel: NULL
  finally: NULL
[/automatic gc in coroutine]
  <coroutine spawned in automatic gc in coroutine ran>
  <finally handler from automatic gc in coroutine>
string(9) "loop done"
-- end
