--TEST--
A non-exception fatal error (function redeclared via eval) inside a coroutine ends the script: main's finally block does not run (its stack is dropped, as PHP drops it); the shutdown functions run, then the other coroutines are cancelled and run theirs (issue #39 item 3)
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await, delay};

register_shutdown_function(function () { echo "shutdown function\n"; });
$sleeper = spawn(function () {
    try {
        delay(10000);
    } finally {
        echo "sleeper finally (after the shutdown functions: it is cancelled)\n";
    }
});
$c = spawn(function () {
    delay(1);
    eval('function redeclared_in_coroutine() {}');
    eval('function redeclared_in_coroutine() {}');
    echo "not reached\n";
});
$t = hrtime(true);
try {
    await($c);
} finally {
    echo "main finally (must not run after a fatal error)\n";
}
echo "main: not reached\n";
?>
--EXPECTF--
Fatal error: Cannot redeclare %r(function )?%rredeclared_in_coroutine() (previously declared in %s) in %s on line %d
shutdown function
sleeper finally (after the shutdown functions: it is cancelled)
