--TEST--
Inside __destruct switching is impossible: delay()/usleep()/sleep() block the process and return
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await, delay};

class D {
    public function __construct(private string $where) {}
    public function __destruct() {
        $t = hrtime(true);
        delay(30);
        $ms = (hrtime(true) - $t) / 1e6;
        $u = usleep(10000);
        $s = sleep(0);
        $n = time_nanosleep(0, 1000);
        echo "{$this->where}: waited ", $ms >= 29 ? "ok" : "too short ($ms)", ", usleep=", var_export($u, true),
            ", sleep=", var_export($s, true), ", nanosleep=", var_export($n, true), "\n";
    }
}

// Destructor running inside a coroutine.
$c = spawn(function () {
    $d = new D("in coroutine");
    unset($d);
    echo "coroutine continues\n";
    return 1;
});
var_dump(await($c));

// Destructor in the main coroutine.
$d = new D("in main");
unset($d);
echo "main continues\n";

// While the destructor blocks, no other coroutine runs (it is a blocking fallback).
$log = [];
$e = spawn(function () use (&$log) {
    $d = new class {
        public function __destruct() { global $log; delay(10); $log[] = "dtor done"; }
    };
    unset($d);
    $log[] = "after unset";
});
$other = spawn(function () use (&$log) { $log[] = "other"; });
await($e);
await($other);
echo implode(", ", $log), "\n";

// Destructor at the end of a coroutine (local going out of scope after a suspension).
$f = spawn(function () {
    $d = new D("scope end");
    delay(1);
});
await($f);
echo "end\n";
?>
--EXPECT--
in coroutine: waited ok, usleep=NULL, sleep=0, nanosleep=true
coroutine continues
int(1)
in main: waited ok, usleep=NULL, sleep=0, nanosleep=true
main continues
dtor done, after unset, other
scope end: waited ok, usleep=NULL, sleep=0, nanosleep=true
end
