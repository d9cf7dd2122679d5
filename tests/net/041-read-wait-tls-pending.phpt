--TEST--
Net: over TLS, a read that would wait for the socket first looks inside OpenSSL: bytes of a record it already decrypted are read at once, not after the timeout; idle TLS readers hold no buffer
--SKIPIF--
<?php
if (!extension_loaded('async')) die('skip async not loaded');
if (!extension_loaded('openssl')) die('skip openssl is not built in');
if (getenv('USE_ZEND_ALLOC') === '0') die('skip memory_get_usage() needs ZendMM');
?>
--FILE--
<?php
require __DIR__ . '/net.inc';
use function Async\{spawn, await, await_all, suspend};

$cert = net_cert();
[$srv, $addr] = net_listen('tls', ssl: ['local_cert' => $cert]);
const N = 20;

/* N TLS connections: [client streams, server streams], each side in its own coroutine. */
function tls_pairs(string $addr, $srv): array
{
    $acceptor = spawn(function () use ($srv) {
        $peers = [];
        for ($i = 0; $i < N; $i++) {
            $peers[] = stream_socket_accept($srv, 10);
        }
        return $peers;
    });
    $clients = await_all(array_map(fn($i) => spawn(function () use ($addr) {
        $ctx = stream_context_create(['ssl' => net_client_ssl()]);
        $s = stream_socket_client("tls://$addr", $errno, $errstr, 10, STREAM_CLIENT_CONNECT, $ctx);
        stream_set_timeout($s, 5);
        return $s;
    }), range(0, N - 1)))[0];
    return [$clients, await($acceptor)];
}

await(spawn(function () use ($addr, $srv) {
// Idle TLS readers hold no buffer while they wait, and get their data.
[$idle, $peers] = tls_pairs($addr, $srv);
gc_collect_cycles();
$before = memory_get_usage();
$readers = [];
foreach ($idle as $s) {
    $readers[] = spawn(fn() => fread($s, 65536));
}
suspend();
suspend();
$per = (memory_get_usage() - $before) / N;
echo 'idle TLS readers: ', $per < 16384 ? 'each < 16 KiB' : "$per bytes each", "\n";
foreach ($peers as $p) {
    fwrite($p, "late\n");
}
echo 'they get their data: ', implode(',', array_unique(await_all($readers)[0])) === "late\n" ? 'yes' : 'no', "\n";

// One write of 40,000 bytes each: records of up to 16 KiB, read into the stream's 8 KiB chunks,
// so OpenSSL holds the rest of a record while the socket has nothing more. Then the peer stays
// silent: a read that waited for the socket would wait out its 5 s timeout.
[$clients, $peers] = tls_pairs($addr, $srv);
foreach ($peers as $i => $p) {
    fwrite($p, str_repeat(chr(65 + $i), 40000));
}
$t = hrtime(true);
$results = await_all(array_map(fn($s) => spawn(function () use ($s) {
    $got = '';
    while (strlen($got) < 40000) {
        $chunk = fread($s, 65536);
        if ($chunk === false || $chunk === '') {
            return 'stopped at ' . strlen($got) . (stream_get_meta_data($s)['timed_out'] ? ' (timed out)' : '');
        }
        $got .= $chunk;
    }
    return strlen($got) . ' bytes of ' . $got[0];
}), $clients))[0];
$ms = ms_since($t);
$ok = 0;
foreach ($results as $i => $r) {
    $ok += $r === '40000 bytes of ' . chr(65 + $i) ? 1 : 0;
}
echo "TLS readers that got all 40000 bytes: $ok of ", N, "\n";
echo 'without waiting out a timeout: ', $ms < 4000 ? 'yes' : "no ($ms ms)", "\n";
if ($ok < N) {
    print_r($results);
}
}));
?>
--EXPECT--
idle TLS readers: each < 16 KiB
they get their data: yes
TLS readers that got all 40000 bytes: 20 of 20
without waiting out a timeout: yes
