--TEST--
Inside __destruct: PHP 8.2/8.3 cannot switch there, so delay()/usleep()/sleep() block the process and return; from PHP 8.4 they suspend only the destructor's coroutine (others run meanwhile) and return
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await, delay};

// PHP 8.2 and 8.3 forbid coroutine switches inside destructors: there each wait blocks the whole
// process (a coroutine spawned just before it has not run when it returns). From PHP 8.4 the
// destructor may switch: each wait suspends only its coroutine, so the one spawned before it runs.
function version_tag(): string { return PHP_VERSION_ID >= 80400 ? "8.4+" : "8.2-8.3"; }

function others_ran(callable $wait, mixed &$result): int
{
    $ran = 0;
    spawn(function () use (&$ran) { $ran = 1; });
    $result = $wait();
    return $ran;
}

class D {
    public function __construct(private string $where) {}
    public function __destruct() {
        $t = hrtime(true);
        $ran = others_ran(fn() => delay(30), $r);
        $ms = (hrtime(true) - $t) / 1e6;
        $ran += others_ran(fn() => usleep(10000), $u);
        $ran += others_ran(fn() => sleep(0), $s);
        $ran += others_ran(fn() => time_nanosleep(0, 1000), $n);
        echo "{$this->where}: waited ", $ms >= 29 ? "ok" : "too short ($ms)", ", usleep=", var_export($u, true),
            ", sleep=", var_export($s, true), ", nanosleep=", var_export($n, true), "\n";
        echo "  ", version_tag(), ": another coroutine ran during $ran of the 4 waits\n";
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

// PHP 8.2/8.3: while the destructor blocks, no other coroutine runs (it is a blocking fallback).
// PHP 8.4+: the destructor's delay() suspends its coroutine, and the other one runs meanwhile.
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
echo version_tag(), ": ", implode(", ", $log), "\n";

// Destructor at the end of a coroutine (local going out of scope after a suspension).
$f = spawn(function () {
    $d = new D("scope end");
    delay(1);
});
await($f);
echo "end\n";
?>
--EXPECTF--
in coroutine: waited ok, usleep=NULL, sleep=0, nanosleep=true
  %r(8\.2-8\.3: another coroutine ran during 0|8\.4\+: another coroutine ran during 4)%r of the 4 waits
coroutine continues
int(1)
in main: waited ok, usleep=NULL, sleep=0, nanosleep=true
  %r(8\.2-8\.3: another coroutine ran during 0|8\.4\+: another coroutine ran during 4)%r of the 4 waits
main continues
%r(8\.2-8\.3: dtor done, after unset, other|8\.4\+: other, dtor done, after unset)%r
scope end: waited ok, usleep=NULL, sleep=0, nanosleep=true
  %r(8\.2-8\.3: another coroutine ran during 0|8\.4\+: another coroutine ran during 4)%r of the 4 waits
end
