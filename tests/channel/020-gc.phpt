--TEST--
Channel: buffered values are visible to the GC (a channel holding itself is collected); dropping a channel frees its values
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\Channel;
use function Async\{spawn, await};

class Tracked {
    public static int $alive = 0;
    public $ref;
    public function __construct() { self::$alive++; }
    public function __destruct() { self::$alive--; }
}

// Dropped with values inside: freed at once, values destroyed.
$ch = new Channel(3);
$ch->send(new Tracked);
$ch->send(new Tracked);
var_dump(Tracked::$alive);
unset($ch);
var_dump(Tracked::$alive);

// A cycle through the buffer: channel -> value -> channel.
gc_collect_cycles();
$ch = new Channel(2);
$t = new Tracked;
$t->ref = $ch;
$ch->send($t);
$ch->send($ch);
unset($t, $ch);
var_dump(Tracked::$alive);
var_dump(gc_collect_cycles() > 0, Tracked::$alive);

// A channel captured by a coroutine that has finished is freed with it.
$co = spawn(function () {
    $ch = new Channel(1);
    $ch->send(new Tracked);
    return "ok";
});
var_dump(await($co), Tracked::$alive);
?>
--EXPECT--
int(2)
int(0)
int(1)
bool(true)
int(0)
string(2) "ok"
int(0)
