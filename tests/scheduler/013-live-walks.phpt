--TEST--
Walks over live coroutines (a scope's cancellation, the graceful shutdown) while cancelling finishes not-started ones during the walk
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\Scope;
use function Async\{spawn, await, await_all, delay, suspend};

// 1. A scope cancelled with 150 started coroutines (cancelled when they next run) and 150 not
//    started (finished at once by the cancellation): each started one is cancelled once, the
//    others never run.
$scope = new Scope();
$ran = $caught = 0;
$body = function () use (&$ran, &$caught) {
    $ran++;
    try {
        delay(60000);
    } catch (Async\AsyncCancellation $e) {
        $caught++;
    }
};
$all = [];
for ($i = 0; $i < 150; $i++) {
    $all[] = $scope->spawn($body);
}
suspend(); // the first 150 start and wait
for ($i = 0; $i < 150; $i++) {
    $all[] = $scope->spawn($body);
}
$scope->cancel();
[$results, $errors] = await_all($all);
var_dump($ran, $caught, count($errors));

// 2. exit() in a coroutine: the graceful shutdown cancels 200 waiting coroutines and 200 that never
//    started, spawned after them (finished at once during the walk).
$cancelled = 0;
register_shutdown_function(function () use (&$cancelled) { echo "cancelled at shutdown: $cancelled\n"; });
for ($i = 0; $i < 200; $i++) {
    spawn(function () use (&$cancelled) {
        try {
            delay(60000);
        } catch (Async\AsyncCancellation $e) {
            $cancelled++;
        }
    });
}
suspend(); // they all wait now
spawn(function () use (&$cancelled) {
    for ($i = 0; $i < 200; $i++) {
        spawn(function () { echo "never runs\n"; });
    }
    exit(0);
});
delay(60000);
echo "not reached\n";
?>
--EXPECT--
int(150)
int(150)
int(150)
cancelled at shutdown: 200
