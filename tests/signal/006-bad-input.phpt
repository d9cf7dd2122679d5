--TEST--
signal(): SIGKILL is rejected with ValueError before anything is armed; wrong argument types are TypeErrors
--FILE--
<?php
use Async\Signal;
use function Async\{signal, timeout};

try {
    signal(Signal::SIGKILL);
} catch (ValueError $e) {
    echo get_class($e), ": ", $e->getMessage(), "\n";
}
// The token is not looked at (nor started) when the signal is refused.
try {
    signal(Signal::SIGKILL, timeout(1));
} catch (ValueError $e) {
    echo "again: ValueError\n";
}
foreach ([10, "SIGUSR1", null, new stdClass] as $bad) {
    try {
        signal($bad);
    } catch (TypeError $e) {
        echo $e->getMessage(), "\n";
    }
}
try {
    signal(Signal::SIGUSR1, new stdClass);
} catch (TypeError $e) {
    echo $e->getMessage(), "\n";
}
try {
    signal();
} catch (ArgumentCountError $e) {
    echo $e->getMessage(), "\n";
}
var_dump(Signal::from(10), Signal::tryFrom(9), Signal::tryFrom(19), count(Signal::cases()));
echo implode(",", array_map(fn($c) => "{$c->name}={$c->value}", Signal::cases())), "\n";
?>
--EXPECT--
ValueError: Async\signal(): Argument #1 ($signal) must not be Async\Signal::SIGKILL, which cannot be caught
again: ValueError
Async\signal(): Argument #1 ($signal) must be of type Async\Signal, int given
Async\signal(): Argument #1 ($signal) must be of type Async\Signal, string given
Async\signal(): Argument #1 ($signal) must be of type Async\Signal, null given
Async\signal(): Argument #1 ($signal) must be of type Async\Signal, stdClass given
Async\signal(): Argument #2 ($cancellation) must be of type ?Async\Completable, stdClass given
Async\signal() expects at least 1 argument, 0 given
enum(Async\Signal::SIGUSR1)
enum(Async\Signal::SIGKILL)
NULL
int(14)
SIGHUP=1,SIGINT=2,SIGQUIT=3,SIGILL=4,SIGABRT=6,SIGFPE=8,SIGKILL=9,SIGUSR1=10,SIGSEGV=11,SIGUSR2=12,SIGTERM=15,SIGBREAK=21,SIGABRT2=22,SIGWINCH=28
