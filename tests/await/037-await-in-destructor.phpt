--TEST--
await() in a destructor: a finished coroutine replays; an unfinished one throws AsyncException on PHP 8.2/8.3 (no switching there), and from PHP 8.4 is waited for and its result returned
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await, delay};

// PHP 8.2 and 8.3 forbid switching coroutines inside a destructor: awaiting an unfinished coroutine
// there is refused. From PHP 8.4 the destructor's coroutine suspends until the result is there.
class D {
    public function __construct(private $done, private $pending) {}
    public function __destruct() {
        var_dump(await($this->done));
        try {
            $r = await($this->pending);
            echo PHP_VERSION_ID >= 80400 ? "8.4+: awaited " . var_export($r, true) : "8.2-8.3: BAD, no exception", "\n";
        } catch (Async\AsyncException $e) {
            echo PHP_VERSION_ID >= 80400 ? "8.4+: BAD, " : "8.2-8.3: ", get_class($e), "\n";
        }
    }
}
$done = spawn(fn() => "replayed in dtor");
await($done);
$pending = spawn(fn() => delay(20) ?? "pending result");
$d = new D($done, $pending);
unset($d);
var_dump(await($pending));
?>
--EXPECTF--
string(16) "replayed in dtor"
%r(8\.2-8\.3: Async\\AsyncException|8\.4\+: awaited 'pending result')%r
string(14) "pending result"
