--TEST--
gc_collect_cycles() while coroutines are suspended keeps everything their frames reference alive
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await, delay, suspend, current_coroutine};

class Node {
    public $self;
    public $data;
    function __construct($d) { $this->self = $this; $this->data = $d; }
}

$cs = [];
for ($i = 0; $i < 50; $i++) {
    $cs[] = spawn(function () use ($i) {
        $n = new Node(str_repeat("x", 10) . $i);  // a cycle only reachable from this frame
        $me = current_coroutine();                 // the coroutine references itself from its frame
        $arr = [$n, $me];
        $arr[] = &$arr;
        delay(20);
        return $n->data . ($me === current_coroutine() ? "" : "!");
    });
}
suspend();
$collected = gc_collect_cycles();
var_dump(is_int($collected));
$ok = 0;
foreach ($cs as $i => $c) {
    if (await($c) === "xxxxxxxxxx$i") { $ok++; }
}
var_dump($ok);

// A coroutine that is only referenced by a cycle (closure holding its own handle), suspended.
$c = null;
$c = spawn(function () use (&$c) {
    delay(10);
    return $c instanceof Async\Coroutine;
});
$weak = WeakReference::create($c);
unset($c);
suspend();
gc_collect_cycles();
delay(30);
gc_collect_cycles();
echo "after\n";
?>
--EXPECT--
bool(true)
int(50)
after
