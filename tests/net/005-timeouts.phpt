--TEST--
Net: read, write, accept and default_socket_timeout timeouts end as PHP's own do, while other coroutines run
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
default_socket_timeout=1
--FILE--
<?php
require __DIR__ . '/net.inc';
use function Async\{spawn, await, delay};

function within(float $ms, float $low, float $high): string
{
    return $ms >= $low && $ms < $high * slow_factor() ? 'in bounds' : "out of bounds ($ms ms)";
}

/* Runs the same steps outside a coroutine (PHP's own code) and inside one: same output. */
function scenario(string $label): void
{
    [$srv, $addr] = net_listen();
    $c = stream_socket_client("tcp://$addr", $errno, $errstr, 5);
    $s = stream_socket_accept($srv, 5);

    // Read timeout (stream_set_timeout): false, timed_out, not EOF.
    stream_set_timeout($c, 0, 200000);
    $t = hrtime(true);
    $r = fread($c, 10);
    echo "$label: read ", var_export($r, true), ', ', within(ms_since($t), 199, 1000), "\n";
    $meta = stream_get_meta_data($c);
    echo "$label: timed_out=", var_export($meta['timed_out'], true), " eof=", var_export($meta['eof'], true), "\n";
    fwrite($s, "late\n");
    echo "$label: then data: ", fgets($c);
    echo "$label: timed_out=", var_export(stream_get_meta_data($c)['timed_out'], true), "\n";

    // Write timeout: nobody reads, the buffers fill; a partial write, then PHP's notice.
    $data = str_repeat('x', 16 << 20);
    $t = hrtime(true);
    $n = @fwrite($c, $data);
    echo "$label: big write partial: ", var_export($n > 0 && $n < strlen($data), true), ', ', within(ms_since($t), 199, 1000), "\n";
    error_clear_last();
    $t = hrtime(true);
    $n = @fwrite($c, $data);
    echo "$label: next write timed out: ", var_export($n === false || $n < strlen($data), true), ', ', within(ms_since($t), 199, 1000), "\n";
    $notice = error_get_last()['message'] ?? 'no notice';
    echo "$label: ", str_starts_with($notice, 'fwrite(): Send of ') ? 'fwrite(): Send of N bytes' . strstr($notice, ' failed') : $notice, "\n";
    echo "$label: timed_out=", var_export(stream_get_meta_data($c)['timed_out'], true), "\n";

    // default_socket_timeout (1 s here) applies to a stream without stream_set_timeout.
    [$srv2, $addr2] = net_listen();
    $d = stream_socket_client("tcp://$addr2", $errno, $errstr, 5);
    $t = hrtime(true);
    $r = fgets($d);
    echo "$label: default timeout ", var_export($r, true), ', ', within(ms_since($t), 999, 2000), "\n";

    // Accept timeout.
    $t = hrtime(true);
    $r = stream_socket_accept($srv, 0.2);
    echo "$label: accept ", var_export($r, true), ', ', within(ms_since($t), 199, 1000), "\n";
}

scenario('stock');
$ticks = 0;
$ticker = spawn(function () use (&$ticks) {
    for (;;) {
        delay(10);
        $ticks++;
    }
});
await(spawn(fn() => scenario('async')));
echo "ticks while waiting: ", $ticks >= 50 ? 'many' : $ticks, "\n";
$ticker->cancel();
?>
--EXPECTF--
stock: read false, in bounds
stock: timed_out=true eof=false
stock: then data: late
stock: timed_out=false
stock: big write partial: true, in bounds
stock: next write timed out: true, in bounds
stock: fwrite(): Send of N bytes failed with errno=11 Resource temporarily unavailable
stock: timed_out=true
stock: default timeout false, in bounds

Warning: stream_socket_accept(): Accept failed: Connection timed out in %s on line %d
stock: accept false, in bounds
async: read false, in bounds
async: timed_out=true eof=false
async: then data: late
async: timed_out=false
async: big write partial: true, in bounds
async: next write timed out: true, in bounds
async: fwrite(): Send of N bytes failed with errno=11 Resource temporarily unavailable
async: timed_out=true
async: default timeout false, in bounds

Warning: stream_socket_accept(): Accept failed: Connection timed out in %s on line %d
async: accept false, in bounds
ticks while waiting: many
