--TEST--
Net: EOF, peer reset and writing to a reset connection behave as PHP's own, inside and outside coroutines
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
require __DIR__ . '/net.inc';
use function Async\{spawn, await};

function scenario(string $label): void
{
    [$srv, $addr] = net_listen();

    // An orderly close: the last line, then EOF.
    $c = stream_socket_client("tcp://$addr", $errno, $errstr, 5);
    $s = stream_socket_accept($srv, 5);
    fwrite($s, "bye\n");
    fclose($s);
    echo "$label: ", var_export(fgets($c), true), ' ', var_export(fgets($c), true), ' eof=', var_export(feof($c), true), "\n";
    fclose($c);

    // Closing a socket with unread data sends a reset: the peer's read fails, then writing to
    // the dead connection gets EPIPE.
    $c = stream_socket_client("tcp://$addr", $errno, $errstr, 5);
    $s = stream_socket_accept($srv, 5);
    fwrite($c, "never read\n");
    stream_set_timeout($s, 5);
    fclose($s);
    $r = fread($c, 100);
    echo "$label: read after reset: ", var_export($r, true), ' eof=', var_export(feof($c), true),
        ' meta eof=', var_export(stream_get_meta_data($c)['eof'], true), "\n";
    $r = fwrite($c, "more");
    echo "$label: write after reset: ", var_export($r, true), "\n";
    fclose($c);
}

scenario('stock');
await(spawn(fn() => scenario('async')));
?>
--EXPECTF--
stock: 'bye
' false eof=true
stock: read after reset: false eof=true meta eof=true

Notice: fwrite(): Send of 4 bytes failed with errno=32 Broken pipe in %s on line %d
stock: write after reset: false
async: 'bye
' false eof=true
async: read after reset: false eof=true meta eof=true

Notice: fwrite(): Send of 4 bytes failed with errno=32 Broken pipe in %s on line %d
async: write after reset: false
