--TEST--
await() in a destructor: a finished coroutine replays; an unfinished one throws AsyncException (no switching there)
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await, delay};

class D {
    public function __construct(private $done, private $pending) {}
    public function __destruct() {
        var_dump(await($this->done));
        try {
            await($this->pending);
            echo "no exception\n";
        } catch (Async\AsyncException $e) {
            echo get_class($e), "\n";
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
--EXPECT--
string(16) "replayed in dtor"
Async\AsyncException
string(14) "pending result"
