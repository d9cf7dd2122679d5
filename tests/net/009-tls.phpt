--TEST--
Net: TLS (tls:// server and clients, and stream_socket_enable_crypto) with concurrent handshakes and a large hash-checked transfer
--SKIPIF--
<?php
if (!extension_loaded('async')) die('skip async not loaded');
if (!extension_loaded('openssl')) die('skip openssl is not built in');
?>
--FILE--
<?php
require __DIR__ . '/net.inc';
use function Async\{spawn, await, delay};

$cert = net_cert();
$ticks = 0;
$ticker = spawn(function () use (&$ticks) {
    for (;;) {
        delay(2);
        $ticks++;
    }
});

// 1. tls:// on both sides: the handshakes happen inside accept and connect.
[$srv, $addr] = net_listen('tls', ssl: ['local_cert' => $cert]);
$n = 8;
$server = spawn(function () use ($srv, $n) {
    $handlers = [];
    for ($i = 0; $i < $n; $i++) {
        $c = stream_socket_accept($srv, 10);
        $handlers[] = spawn(function () use ($c) {
            while (($line = fgets($c)) !== false) {
                fwrite($c, "tls: $line");
            }
            fclose($c);
        });
    }
    foreach ($handlers as $h) {
        await($h);
    }
});
$clients = [];
for ($i = 0; $i < $n; $i++) {
    $clients[] = spawn(function () use ($addr, $i) {
        $ctx = stream_context_create(['ssl' => net_client_ssl()]);
        $s = stream_socket_client("tls://$addr", $errno, $errstr, 10, STREAM_CLIENT_CONNECT, $ctx);
        fwrite($s, "hello $i\n");
        $reply = fgets($s);
        $crypto = stream_get_meta_data($s)['crypto']['protocol'] ?? 'none';
        fclose($s);
        return $reply === "tls: hello $i\n" && str_starts_with($crypto, 'TLSv1');
    });
}
$ticksBefore = $ticks;
$ok = 0;
foreach ($clients as $c) {
    $ok += await($c) ? 1 : 0;
}
await($server);
echo "tls:// clients ok: $ok\n";
echo "the ticker ran during the handshakes: ", var_export($ticks > $ticksBefore, true), "\n";

// 2. Plain tcp, then stream_socket_enable_crypto() on both ends, in concurrent coroutines; a
// large transfer crosses many TLS records and partial writes.
[$srv, $addr] = net_listen(ssl: ['local_cert' => $cert]);
$payload = random_bytes(3 << 20);
$server = spawn(function () use ($srv, $payload) {
    $c = stream_socket_accept($srv, 10);
    $on = stream_socket_enable_crypto($c, true, STREAM_CRYPTO_METHOD_TLS_SERVER);
    $request = fgets($c);
    $sent = net_write_all($c, $payload);
    fclose($c);
    return [$on, $request, $sent];
});
$ctx = stream_context_create(['ssl' => net_client_ssl()]);
$s = stream_socket_client("tcp://$addr", $errno, $errstr, 10, STREAM_CLIENT_CONNECT, $ctx);
var_dump(stream_socket_enable_crypto($s, true, STREAM_CRYPTO_METHOD_TLS_CLIENT));
fwrite($s, "send it\n");
$got = '';
while (!feof($s)) {
    $got .= fread($s, 8192);
}
[$on, $request, $sent] = await($server);
var_dump($on, $request, $sent);
echo "payload intact: ", var_export(hash('sha256', $got) === hash('sha256', $payload), true), "\n";

// 3. A peer that never speaks TLS: the handshake times out (connect timeout for a client, the
// stream timeout for a server) with PHP's warnings, while other coroutines run.
[$srv, $addr] = net_listen(ssl: ['local_cert' => $cert]);
$silent = spawn(fn() => stream_socket_accept($srv, 10)); // accepts, then never answers
$t = hrtime(true);
$ticksBefore = $ticks;
$ctx = stream_context_create(['ssl' => net_client_ssl()]);
$s = stream_socket_client("tls://$addr", $errno, $errstr, 0.3, STREAM_CLIENT_CONNECT, $ctx);
$ms = ms_since($t);
var_dump($s);
echo "client handshake timed out in bounds: ", var_export($ms >= 299 && $ms < 2000 * slow_factor(), true), "\n";
echo "the ticker ran meanwhile: ", var_export($ticks > $ticksBefore, true), "\n";
fclose(await($silent));

$mute = stream_socket_client("tcp://$addr", $errno, $errstr, 5);
$c = stream_socket_accept($srv, 5);
stream_set_timeout($c, 0, 300000);
$t = hrtime(true);
var_dump(stream_socket_enable_crypto($c, true, STREAM_CRYPTO_METHOD_TLS_SERVER));
$ms = ms_since($t);
echo "server handshake timed out in bounds: ", var_export($ms >= 299 && $ms < 2000 * slow_factor(), true), "\n";
$ticker->cancel();
?>
--EXPECTF--
tls:// clients ok: 8
the ticker ran during the handshakes: true
bool(true)
bool(true)
string(8) "send it
"
int(3145728)
payload intact: true

Warning: stream_socket_client(): SSL: Handshake timed out in %s on line %d

Warning: stream_socket_client(): Failed to enable crypto in %s on line %d

Warning: stream_socket_client(): Unable to connect to tls://127.0.0.1:%d (Unknown error) in %s on line %d
bool(false)
client handshake timed out in bounds: true
the ticker ran meanwhile: true

Warning: stream_socket_enable_crypto(): SSL: Handshake timed out in %s on line %d
bool(false)
server handshake timed out in bounds: true
