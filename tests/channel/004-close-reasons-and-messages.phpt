--TEST--
Channel: close() is idempotent; send/sendAsync/recv after close; recv drains first; ChannelCloseReason and ChannelException::$reason
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\{Channel, ChannelCloseReason, ChannelException, AsyncException};

foreach (ChannelCloseReason::cases() as $case) {
    echo $case->name, " = '", $case->value, "'\n";
}
var_dump(ChannelCloseReason::from('deadlock') === ChannelCloseReason::DEADLOCK);
var_dump(is_subclass_of(ChannelException::class, AsyncException::class));
$prop = new ReflectionProperty(ChannelException::class, 'reason');
echo $prop->getType(), " public=", var_export($prop->isPublic(), true), "\n";

$ch = new Channel(4);
$ch->send(1);
$ch->send(2);
$ch->close();
$ch->close();    // idempotent
var_dump($ch->isClosed(), count($ch));
var_dump($ch->sendAsync(3));   // false, never throws
try {
    $ch->send(3);
} catch (ChannelException $e) {
    echo get_class($e), ": ", $e->getMessage(), " (", $e->reason->name, ")\n";
}
var_dump($ch->recv(), $ch->recv());   // drained first
for ($i = 0; $i < 2; $i++) {
    try {
        $ch->recv();
    } catch (ChannelException $e) {
        echo $e->getMessage(), " (", $e->reason->value, ") line ", $e->getLine(), "\n";
    }
}
var_dump(count($ch), $ch->isEmpty());

// A ChannelException made by user code has no reason until one is given.
$e = new ChannelException("mine");
try {
    $e->reason;
} catch (Error $err) {
    echo $err->getMessage(), "\n";
}
$e->reason = ChannelCloseReason::EXPLICIT;
try {
    $e->reason = "explicit";
} catch (TypeError $err) {
    echo get_class($err), "\n";
}
echo $e->reason->name, "\n";
?>
--EXPECTF--
EXPLICIT = 'explicit'
DISPOSED = 'disposed'
NO_PRODUCERS = 'no producers timeout'
NO_CONSUMERS = 'no consumers timeout'
DEADLOCK = 'deadlock'
SCOPE_DISPOSED = 'scope disposed'
bool(true)
bool(true)
Async\ChannelCloseReason public=true
bool(true)
int(2)
bool(false)
Async\ChannelException: Channel is closed (EXPLICIT)
int(1)
int(2)
Channel is closed (explicit) line %d
Channel is closed (explicit) line %d
int(0)
bool(true)
Typed property Async\ChannelException::$reason must not be accessed before initialization
TypeError
EXPLICIT
