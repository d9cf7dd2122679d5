--TEST--
Channel: waiting inside a destructor throws AsyncException (PHP 8.2 forbids switching there); non-waiting calls work
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
<?php if (PHP_VERSION_ID >= 80400) die('skip PHP 8.4 allows switching inside destructors'); ?>
--FILE--
<?php
use Async\{Channel, AsyncException};
use function Async\{spawn, await};

class Holder {
    public function __construct(private Channel $ch) {}
    public function __destruct() {
        var_dump($this->ch->sendAsync("from dtor"), $this->ch->recv());
        try {
            $this->ch->recv();
        } catch (AsyncException $e) {
            echo get_class($e), ": ", $e->getMessage(), "\n";
        }
        try {
            $this->ch->send(1);
            $this->ch->send(2);
        } catch (AsyncException $e) {
            echo get_class($e), ": ", $e->getMessage(), "\n";
        }
    }
}

$co = spawn(function () {
    $h = new Holder(new Channel(1));
    unset($h);
    return "done";
});
var_dump(await($co));
?>
--EXPECTF--
bool(true)
string(9) "from dtor"
Async\AsyncException: Cannot wait on a channel inside a destructor: PHP %s forbids switching coroutines there
Async\AsyncException: Cannot wait on a channel inside a destructor: PHP %s forbids switching coroutines there
string(4) "done"
