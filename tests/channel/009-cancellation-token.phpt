--TEST--
Channel: recv()/send() with a cancellation token (any Completable); an already fired token only matters when the call would wait
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\{Channel, OperationCanceledException};
use function Async\{spawn, await, delay};

$ch = new Channel(1);

// A token that completes normally: OperationCanceledException without previous.
$token = spawn(function () { delay(10); return 1; });
try {
    $ch->recv($token);
} catch (OperationCanceledException $e) {
    echo "recv: ", $e->getMessage(), ", previous: ", var_export($e->getPrevious(), true), "\n";
}

// The token has fired already: a recv that would wait throws at once...
try {
    $ch->recv($token);
} catch (OperationCanceledException $e) {
    echo "recv again: ", $e->getMessage(), "\n";
}
// ...one that can complete does (like await() of a completed awaitable).
$ch->send("ready", $token);
var_dump($ch->recv($token));

// A failed token: previous is its exception.
$failed = spawn(function () { throw new LogicException("boom"); });
try { await($failed); } catch (LogicException $e) {}
$ch->send("fill");
try {
    $ch->send("more", $failed);
} catch (OperationCanceledException $e) {
    echo "send: ", $e->getMessage(), " <- ", $e->getPrevious()->getMessage(), "\n";
}
var_dump(count($ch), $ch->recv());

// A value arrives before the token fires: the token is forgotten.
$slow = spawn(function () { delay(200); });
$p = spawn(function () use ($ch) { delay(5); $ch->send("in time"); });
var_dump($ch->recv($slow));
await($p);
$slow->cancel();

// An Async\Timeout as the token: previous is its TimeoutException; the parked value is withdrawn.
try {
    $ch->recv(Async\timeout(20));
} catch (OperationCanceledException $e) {
    echo "timeout: ", get_class($e->getPrevious()), ": ", $e->getPrevious()->getMessage(), "\n";
}
$rendezvous = new Channel();
try {
    $rendezvous->send("withdrawn", Async\timeout(20));
} catch (OperationCanceledException $e) {
    echo "timeout: ", $e->getPrevious()->getMessage(), "\n";
}
var_dump(count($rendezvous), $rendezvous->sendAsync("x"), count($rendezvous)); // withdrawn: the slot is free

// Token type is checked.
try {
    $ch->recv(new stdClass);
} catch (TypeError $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECT--
recv: Operation has been cancelled, previous: NULL
recv again: Operation has been cancelled
string(5) "ready"
send: Operation has been cancelled <- boom
int(1)
string(4) "fill"
string(7) "in time"
timeout: Async\TimeoutException: Timeout occurred after 20 milliseconds
timeout: Timeout occurred after 20 milliseconds
int(0)
bool(true)
int(1)
Async\Channel::recv(): Argument #1 ($cancellationToken) must be of type ?Async\Completable, stdClass given
