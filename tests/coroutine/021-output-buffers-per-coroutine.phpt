--TEST--
Output buffers are per coroutine: each ob_start()/ob_get_clean() sees only its own output whatever the interleaving; callbacks and output_add_rewrite_var() stay with their coroutine; outside its own buffers a coroutine prints where it always did (main's buffer); buffers left open are flushed when the coroutine ends; output of others while an ob_start() callback waits is not lost
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use function Async\{spawn, await, delay};

// 1. Interleaved renders: every coroutine gets exactly its own, at its own level.
$cs = [];
foreach (['a' => 30, 'b' => 10, 'c' => 20] as $name => $ms) {
    $cs[$name] = spawn(function () use ($name, $ms) {
        ob_start();
        echo "<$name:1>";
        delay($ms);
        echo "<$name:2>";
        $level = ob_get_level();
        $status = count(ob_get_status(true));
        return [ob_get_clean(), $level, $status];
    });
}
foreach ($cs as $name => $c) {
    [$s, $level, $status] = await($c);
    echo "$name rendered $s at level $level ($status buffer)\n";
}

// 2. A callback transforms only its own coroutine's output.
$up = spawn(function () { ob_start(fn($b) => strtoupper($b)); echo "shout "; delay(10); echo "more\n"; ob_end_flush(); });
$low = spawn(function () { delay(5); echo "quiet\n"; });
await($up);
await($low);

// 3. Outside its own buffers a coroutine prints into main's buffer, as it always did.
ob_start();
await(spawn(function () { echo "[from a coroutine]"; }));
$main = ob_get_clean();
echo "main's buffer got: $main\n";

// 4. A coroutine that ends with a buffer open: it is flushed into what is below it.
ob_start();
await(spawn(function () { ob_start(); echo "[left open]"; }));
$main = ob_get_clean();
echo "main's buffer got: $main\n";

// 5. output_add_rewrite_var() rewrites the forms of its own coroutine only (its rewriter is one
//    of that coroutine's buffers: flushed when it ends).
$r = spawn(function () {
    output_add_rewrite_var('tok', 'abc');
    echo '<form action="/x"></form>', "\n";
    delay(10);
});
$o = spawn(function () {
    delay(5);
    echo '<form action="/y"></form>', "\n";
});
await($r);
await($o);

// 6. Another coroutine prints while main's ob_start() callback waits: nothing is lost.
spawn(function () { delay(1); echo "[other coroutine]\n"; });
ob_start(function ($buf) { delay(20); return "<" . trim($buf) . ">\n"; });
echo "buffered\n";
ob_end_flush();
echo "level at the end: ", ob_get_level(), "\n";
?>
--EXPECT--
a rendered <a:1><a:2> at level 1 (1 buffer)
b rendered <b:1><b:2> at level 1 (1 buffer)
c rendered <c:1><c:2> at level 1 (1 buffer)
quiet
SHOUT MORE
main's buffer got: [from a coroutine]
main's buffer got: [left open]
<form action="/y"></form>
<form action="/x"><input type="hidden" name="tok" value="abc" /></form>
[other coroutine]
<buffered>
level at the end: 0
