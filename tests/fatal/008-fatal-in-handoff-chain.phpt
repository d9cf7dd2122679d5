--TEST--
Direct hand-off: a fatal error in a coroutine reached by a hand-off ends it as after any switch (shutdown functions run, the process is not left in a broken chain)
--INI--
error_reporting=E_ALL & ~E_DEPRECATED
--FILE--
<?php
use function Async\{spawn, await, suspend};

register_shutdown_function(function () {
    echo "shutdown function\n";
});
$rounds = 0;
$a = spawn(function () use (&$rounds) {
    try {
        for (;;) {
            $rounds++;
            suspend();
        }
    } finally {
        echo "a's finally: after the shutdown functions, a is cancelled as it is without hand-offs\n";
    }
});
$b = spawn(function () use (&$rounds) {
    for ($i = 0; $i < 100; $i++) {
        suspend();              // handed to from $a, and hands back
    }
    echo "b after $rounds rounds of a\n";
    trigger_error('boom', E_USER_ERROR);
});
await($b);
echo "not reached\n";
?>
--EXPECTF--
b after 10%d rounds of a

Fatal error: boom in %s on line %d
shutdown function
a's finally: after the shutdown functions, a is cancelled as it is without hand-offs
