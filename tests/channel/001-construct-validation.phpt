--TEST--
Channel: constructor defaults and validation (each int 0..INT32_MAX, else ValueError)
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\Channel;

$ch = new Channel();
// isFull(): an empty rendezvous channel's one slot holds nothing
var_dump($ch->capacity(), count($ch), $ch->isEmpty(), $ch->isFull(), $ch->isClosed());
var_dump((new Channel(5))->capacity(), (new Channel(2147483647))->capacity());
var_dump($ch instanceof Async\Awaitable, $ch instanceof IteratorAggregate, $ch instanceof Countable);
var_dump($ch instanceof Async\Completable);

$bad = [
    [-1], [2147483648], [0, -1], [0, 2147483648], [0, 0, -5], [0, 0, PHP_INT_MAX],
];
foreach ($bad as $args) {
    try {
        new Channel(...$args);
        echo "no error\n";
    } catch (ValueError $e) {
        echo $e->getMessage(), "\n";
    }
}
try {
    new Channel(capacity: "x");
} catch (TypeError $e) {
    echo get_class($e), "\n";
}
$named = new Channel(noConsumerTimeout: 10, capacity: 3, hardTimeouts: true);
var_dump($named->capacity());

try {
    $ch->__construct(3);
} catch (Error $e) {
    echo $e->getMessage(), "\n";
}
try {
    clone $ch;
} catch (Error $e) {
    echo $e->getMessage(), "\n";
}
try {
    serialize($ch);
} catch (Exception $e) {
    echo $e->getMessage(), "\n";
}
try {
    $ch->foo = 1;
} catch (Error $e) {
    echo $e->getMessage(), "\n";
}
$r = new ReflectionClass(Channel::class);
var_dump($r->isFinal());
?>
--EXPECT--
int(0)
int(0)
bool(true)
bool(false)
bool(false)
int(5)
int(2147483647)
bool(true)
bool(true)
bool(true)
bool(false)
Async\Channel::__construct(): Argument #1 ($capacity) must be between 0 and 2147483647
Async\Channel::__construct(): Argument #1 ($capacity) must be between 0 and 2147483647
Async\Channel::__construct(): Argument #2 ($noProducerTimeout) must be between 0 and 2147483647
Async\Channel::__construct(): Argument #2 ($noProducerTimeout) must be between 0 and 2147483647
Async\Channel::__construct(): Argument #3 ($noConsumerTimeout) must be between 0 and 2147483647
Async\Channel::__construct(): Argument #3 ($noConsumerTimeout) must be between 0 and 2147483647
TypeError
int(3)
Async\Channel is already initialized
Trying to clone an uncloneable object of class Async\Channel
Serialization of 'Async\Channel' is not allowed
Cannot create dynamic property Async\Channel::$foo
bool(true)
