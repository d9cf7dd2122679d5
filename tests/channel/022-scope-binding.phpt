--TEST--
Channel: bound to the creating scope — closed with SCOPE_DISPOSED when it is cancelled or disposed; buffered values still drain
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use Async\{Scope, Channel};
use function Async\{await, delay, spawn};
$s = new Scope();
$made = $s->spawn(function () { return new Channel(2); });
$ch = await($made);
$ch->send(1);
$reader = spawn(function () use ($ch) {
    $got = [];
    try { while (true) { $got[] = $ch->recv(); } } catch (Async\ChannelException $e) { $got[] = $e->getMessage(); $got[] = $e->reason->name; }
    return $got;
});
delay(1);
$s->cancel();
print_r(await($reader));
// scope disposed (object destroyed, empty)
$s2 = new Scope();
$ch2 = await($s2->spawn(fn() => new Channel()));
var_dump($ch2->isClosed());
unset($s2);
var_dump($ch2->isClosed());
// channel freed before scope
$s3 = new Scope();
await($s3->spawn(function () { $c = new Channel(); unset($c); }));
$s3->cancel();
// top-level channel: not bound to anything before launch
$top = new Channel(1);
$top->send(5);
var_dump($top->recv());
echo "ok\n";
?>
--EXPECT--
Array
(
    [0] => 1
    [1] => Channel closed: owner scope disposed
    [2] => SCOPE_DISPOSED
)
bool(false)
bool(true)
int(5)
ok
