--TEST--
Future/FutureState: created and completed locations
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\{Future, FutureState};
use function Async\{spawn, await};

function show($label, $x) {
    [$file, $line] = $x->getCreatedFileAndLine();
    [$cfile, $cline] = $x->getCompletedFileAndLine();
    printf("%s: created %s:%d (%s) completed %s:%d (%s)\n", $label,
        $file === null ? 'null' : basename($file), $line, basename($x->getCreatedLocation()),
        $cfile === null ? 'null' : basename($cfile), $cline, basename($x->getCompletedLocation()));
    $x->ignore();
}

$s = new FutureState();                   // line 14
$f = new Future($s);                      // a reader reports the state's site
show("pending state", $s);
show("pending future", $f);
$s->complete(1);                          // line 18
show("state", $s);
show("future", $f);

function make() {
    return Future::completed(2);          // line 23
}
show("completed()", make());
show("failed()", Future::failed(new Exception)->ignore()); // line 26

$s = new FutureState();                   // line 28
await(spawn(function () use ($s) {
    $s->error(new Exception("e"));        // line 30
}));
show("from coroutine", $s);
$s->ignore();

// A chain child is created where map() is called; it completes in the chain's own coroutine,
// where no PHP frame is left, so the creation site stands in.
$child = Future::completed(3)->map(fn($v) => $v);  // line 37
show("child pending", $child);
$child->await();
show("child", $child);
?>
--EXPECT--
pending state: created 005-locations.php:14 (005-locations.php:14) completed null:0 (unknown)
pending future: created 005-locations.php:14 (005-locations.php:14) completed null:0 (unknown)
state: created 005-locations.php:14 (005-locations.php:14) completed 005-locations.php:18 (005-locations.php:18)
future: created 005-locations.php:14 (005-locations.php:14) completed 005-locations.php:18 (005-locations.php:18)
completed(): created 005-locations.php:23 (005-locations.php:23) completed 005-locations.php:23 (005-locations.php:23)
failed(): created 005-locations.php:26 (005-locations.php:26) completed 005-locations.php:26 (005-locations.php:26)
from coroutine: created 005-locations.php:28 (005-locations.php:28) completed 005-locations.php:30 (005-locations.php:30)
child pending: created 005-locations.php:37 (005-locations.php:37) completed null:0 (unknown)
child: created 005-locations.php:37 (005-locations.php:37) completed 005-locations.php:37 (005-locations.php:37)
