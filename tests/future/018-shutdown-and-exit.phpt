--TEST--
Future: chain callables left at script end still run; a graceful shutdown rejects pending links with its cancellation
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\{Future, FutureState};
use function Async\{spawn, await, delay};

// A link on a finished future queued right before the script ends: the drain runs it.
Future::completed("drained")->map(function ($v) { echo "map ran: $v\n"; })->ignore();

// A link suspended inside its callable when another coroutine's error shuts everything down.
$s = new FutureState();
$child = (new Future($s))->map(function ($v) {
    try {
        delay(1000);
    } catch (Async\AsyncCancellation $e) {
        echo "callable cancelled: ", $e->getMessage(), "\n";
        throw $e;
    }
});
$s->complete(1);
// Links spawned during the shutdown are cancelled at once, like any new coroutine: this callable
// never runs, its child is rejected with the shutdown's cancellation.
$observer = $child->catch(function ($e) { echo "not reached\n"; });
register_shutdown_function(function () use ($child, $observer) {
    foreach (['child' => $child, 'observer' => $observer] as $name => $f) {
        try { $f->await(); } catch (Throwable $e) { echo "$name: ", get_class($e), ": ", $e->getMessage(), "\n"; }
    }
});
spawn(function () { delay(10); throw new RuntimeException("fatal elsewhere"); });
echo "script end\n";
?>
--EXPECTF--
script end
map ran: drained
callable cancelled: Graceful shutdown
%AFatal error: Uncaught RuntimeException: fatal elsewhere in %s:%d
Stack trace:
#0 [internal function]: {closure%S}()
#1 {main}
  thrown in %s on line %d
child: Async\AsyncCancellation: Graceful shutdown
observer: Async\AsyncCancellation: Graceful shutdown
