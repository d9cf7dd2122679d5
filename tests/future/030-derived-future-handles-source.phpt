--TEST--
Future: an error that flows through finally() into a derived Future counts as handled when the derived Future's error is awaited or caught (also through two finally() links, and when the finally callback throws over it); a derived Future only ignore()d still leaves the source's warning (issue #39 item 7)
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
display_errors=1
log_errors=0
--FILE--
<?php
use Async\{FutureState, Future};
use function Async\{await, suspend};

function run_case(string $what, Closure $derive, Closure $use): void
{
    echo "-- $what\n";
    $state = new FutureState();
    $derived = $derive(new Future($state));
    $state->error(new RuntimeException('boom'));
    $use($derived);
    unset($derived, $state);
    gc_collect_cycles();
    for ($i = 0; $i < 3; $i++) {
        suspend();
    }
}

$finally = fn (Future $f) => $f->finally(function () {});
run_case('awaited', $finally, function ($d) {
    try {
        await($d);
    } catch (RuntimeException $e) {
        echo 'caught ', $e->getMessage(), "\n";
    }
});
run_case('caught with catch()', $finally, function ($d) {
    echo await($d->catch(fn ($e) => 'handled: ' . $e->getMessage())), "\n";
});
run_case('two finally() links, awaited', fn (Future $f) => $f->finally(function () {})->finally(function () {}),
    function ($d) {
        try {
            await($d);
        } catch (RuntimeException $e) {
            echo 'caught ', $e->getMessage(), "\n";
        }
    });
run_case('the finally callback throws over it', fn (Future $f) => $f->finally(fn () => throw new LogicException('cleanup')),
    function ($d) {
        try {
            await($d);
        } catch (LogicException $e) {
            echo 'caught ', $e->getMessage(), ', previous ', $e->getPrevious()->getMessage(), "\n";
        }
    });
run_case('only ignore()d', $finally, function ($d) {
    $d->ignore();
});
echo "end\n";
?>
--EXPECTF--
-- awaited
caught boom
-- caught with catch()
handled: boom
-- two finally() links, awaited
caught boom
-- the finally callback throws over it
caught cleanup, previous boom
-- only ignore()d

Warning: Unhandled exception in Future: boom; use catch() or ignore() to handle it (created at %s:%d, completed at %s:%d) in %s on line %d
end
