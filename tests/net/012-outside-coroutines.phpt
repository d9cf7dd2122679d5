--TEST--
Net: outside coroutines (before the first spawn, in destructors where PHP 8.2/8.3 forbid switching, in shutdown functions) sockets block as PHP's own; from PHP 8.4 a read in a destructor suspends only its coroutine (others run) and still times out
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
require __DIR__ . '/net.inc';
use function Async\{spawn, await, delay};

[$srv, $addr] = net_listen();

// Before any spawn there is no coroutine: PHP's own blocking code, the process waits.
$c = stream_socket_client("tcp://$addr", $errno, $errstr, 5);
$s = stream_socket_accept($srv, 5);
stream_set_timeout($c, 0, 100000);
$t = hrtime(true);
var_dump(fread($c, 10), stream_get_meta_data($c)['timed_out'], ms_since($t) >= 99);

class ReadsInDestructor
{
    public function __construct(private $stream) {}
    public function __destruct()
    {
        // PHP 8.2/8.3 forbid switching here: the read blocks in place and times out as PHP's does.
        // From PHP 8.4 it suspends the destructor's coroutine, and times out the same.
        $t = hrtime(true);
        $r = fread($this->stream, 10);
        echo 'destructor read: ', var_export($r, true), ', timed out: ',
            var_export(stream_get_meta_data($this->stream)['timed_out'], true), ', waited: ',
            var_export(ms_since($t) >= 99, true), "\n";
    }
}

$ticks = 0;
$ticker = spawn(function () use (&$ticks) {
    for (;;) {
        delay(5);
        $ticks++;
    }
});
await(spawn(function () use ($c, &$ticks) {
    $before = $ticks;
    $o = new ReadsInDestructor($c);
    unset($o);
    if (PHP_VERSION_ID < 80400) {
        echo '8.2-8.3: no other coroutine ran during the blocking read: ', var_export($ticks === $before, true), "\n";
    } else {
        echo '8.4+: the ticker ran during the suspended read: ', var_export($ticks > $before, true), "\n";
    }
}));
$ticker->cancel();

// After the script, in a shutdown function: main may still wait (the loop runs).
register_shutdown_function(function () use ($c, $s) {
    fwrite($s, "from shutdown\n");
    stream_set_timeout($c, 5);
    echo 'shutdown read: ', fgets($c);
});
echo "end of script\n";
?>
--EXPECTF--
bool(false)
bool(true)
bool(true)
destructor read: false, timed out: true, waited: true
%r(8\.2-8\.3: no other coroutine ran during the blocking read|8\.4\+: the ticker ran during the suspended read)%r: true
end of script
shutdown read: from shutdown
