--TEST--
Every API call from __destruct run by the cycle collector (PHP 8.4+, which allows switching there): explicit gc_collect_cycles() in main and in a coroutine, and an automatic GC run; await() waits and returns, suspend()/delay()/the sleep family suspend only the destructor's coroutine (another coroutine runs meanwhile)
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded');
if (PHP_VERSION_ID < 80400) die('skip PHP 8.4+ behaviour (PHP 8.2 and 8.3 forbid switching inside destructors: see .php82.phpt)'); ?>
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
    public function __destruct() { exercise_api($this->where, $this->withWaits, true); }
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
--EXPECT--
[gc in main]
  spawn: Async\Coroutine
  protect: 'protected'
  current_coroutine: true
  coroutine_context: true
  get_coroutines: true
  cancel: NULL
  finally: NULL
  <coroutine spawned in gc in main ran>
  <finally handler from gc in main>
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
[/gc in main]
-- collected: yes
[gc in coroutine]
  spawn: Async\Coroutine
  protect: 'protected'
  current_coroutine: true
  coroutine_context: true
  get_coroutines: true
  cancel: NULL
  finally: NULL
  <coroutine spawned in gc in coroutine ran>
  <finally handler from gc in coroutine>
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
[/gc in coroutine]
-- collected: yes
[gc of a cycle holding a coroutine]
  spawn: Async\Coroutine
  protect: 'protected'
  current_coroutine: true
  coroutine_context: true
  get_coroutines: true
  cancel: NULL
  finally: NULL
  <coroutine spawned in gc of a cycle holding a coroutine ran>
  <finally handler from gc of a cycle holding a coroutine>
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
[/gc of a cycle holding a coroutine]
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
