--TEST--
Channel: waiting inside a destructor throws AsyncException on PHP 8.2/8.3 (they forbid switching there), and from PHP 8.4 recv()/send() wait for a peer coroutine there; non-waiting calls work
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
use Async\{Channel, AsyncException};
use function Async\{spawn, await};

// PHP 8.2 and 8.3 forbid switching coroutines inside a destructor: a channel wait is refused there.
// From PHP 8.4 the destructor's coroutine waits like any other: a peer coroutine spawned in the
// destructor gets to run and completes the wait.
class Holder {
    public function __construct(private Channel $ch) {}
    public function __destruct() {
        var_dump($this->ch->sendAsync("from dtor"), $this->ch->recv());
        if (PHP_VERSION_ID >= 80400) {
            $ch = $this->ch;
            // recv() on the empty channel waits until the peer sends.
            spawn(fn() => $ch->send("from peer"));
            echo "8.4+: recv() waited for the peer: ", var_export($ch->recv(), true), "\n";
            // The buffer (1) is full after send(1): send(2) waits until the peer has taken 1.
            $got = [];
            spawn(function () use ($ch, &$got) { $got[] = $ch->recv(); });
            $ch->send(1);
            $ch->send(2);
            echo "8.4+: send() waited until the peer took ", json_encode($got), ", then buffered ", $ch->recv(), "\n";
            return;
        }
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
%r(Async\\AsyncException: Cannot wait on a channel inside a destructor: PHP 8\.[23]\.\S+ forbids switching coroutines there|8\.4\+: recv\(\) waited for the peer: 'from peer')%r
%r(Async\\AsyncException: Cannot wait on a channel inside a destructor: PHP 8\.[23]\.\S+ forbids switching coroutines there|8\.4\+: send\(\) waited until the peer took \[1\], then buffered 2)%r
string(4) "done"
