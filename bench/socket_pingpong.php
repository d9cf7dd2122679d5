<?php
/*
 * Socket ping-pong: two coroutines of one process exchange a 16-byte message over a blocking
 * stream_socket_pair() (A writes, B reads and answers, A reads: one round trip), against the same
 * exchange between two blocking PHP processes (this script proc_open()s itself as the peer and
 * hands it its end of the pair as descriptor 3). Informational: a loopback TCP connection between
 * two coroutines.
 *
 * Goal: a coroutine round trip is faster than a process round trip (ratio < 1).
 *
 *   php -n -d extension=modules/async.so bench/socket_pingpong.php [round_trips]
 */
declare(strict_types=1);
require __DIR__ . '/common.php';

use function Async\{spawn, await};

const MESSAGE = 'ping-pong-012345'; // SIZE bytes
const SIZE = 16;

function read_exactly($stream, int $n): string
{
    $data = '';
    while (strlen($data) < $n) {
        $chunk = fread($stream, $n - strlen($data));
        if ($chunk === false || $chunk === '') {
            throw new RuntimeException('peer closed');
        }
        $data .= $chunk;
    }
    return $data;
}

/* The peer process: answers the number of messages it is told, then exits. (Not "until the pair
 * closes": proc_open() lets the child inherit the parent's end of the pair too, which is not
 * close-on-exec, so the pair never closes while the child runs; the child's read then ended only
 * at default_socket_timeout, 60 s per process round.) */
if (($argv[1] ?? '') === 'peer') {
    $s = fopen('php://fd/3', 'r+');
    stream_set_write_buffer($s, 0);
    for ($left = (int) ($argv[2] ?? 0); $left > 0; $left--) {
        fwrite($s, strrev(read_exactly($s, SIZE)));
    }
    exit(0);
}

$n = bench_scale((int) ($argv[1] ?? 20000));
$message = MESSAGE;

/* Two coroutines over one pair; returns ns per round trip. */
function coroutines_round_trip(int $n, string $message, $a, $b): float
{
    $answerer = spawn(function () use ($b, $n) {
        for ($i = 0; $i < $n; $i++) {
            fwrite($b, strrev(read_exactly($b, SIZE)));
        }
    });
    $t0 = hrtime(true);
    $asker = spawn(function () use ($a, $n, $message) {
        $ok = 0;
        for ($i = 0; $i < $n; $i++) {
            fwrite($a, $message);
            $ok += read_exactly($a, SIZE) === strrev($message) ? 1 : 0;
        }
        return $ok;
    });
    $ok = await($asker);
    $ns = (hrtime(true) - $t0) / $n;
    await($answerer);
    bench_check($ok === $n, "coroutines: $ok of $n answers correct");
    return $ns;
}

/* This process (blocking, no coroutine involved) against the peer process. */
function processes_round_trip(int $n, string $message): float
{
    $pair = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
    $cmd = bench_self_command();
    $cmd[] = 'peer';
    $cmd[] = (string) ($n + 1); // the untimed first exchange and the n timed ones
    $proc = proc_open($cmd, [3 => $pair[1]], $pipes);
    fclose($pair[1]);
    $s = $pair[0];
    stream_set_write_buffer($s, 0);
    // One exchange first so the child's start-up is not timed.
    fwrite($s, $message);
    read_exactly($s, SIZE);
    $ok = 0;
    $t0 = hrtime(true);
    for ($i = 0; $i < $n; $i++) {
        fwrite($s, $message);
        $ok += read_exactly($s, SIZE) === strrev($message) ? 1 : 0;
    }
    $ns = (hrtime(true) - $t0) / $n;
    fclose($s);
    proc_close($proc);
    bench_check($ok === $n, "processes: $ok of $n answers correct");
    return $ns;
}

bench_header("socket ping-pong, $n round trips of " . SIZE . ' bytes');
$co = [];
$pr = [];
$tcp = [];
$reps = bench_reps();
for ($r = 0; $r < $reps; $r++) {
    // Interleaved, alternating which goes first.
    $order = $r % 2 ? ['pr', 'co'] : ['co', 'pr'];
    foreach ($order as $which) {
        if ($which === 'pr') {
            $pr[] = processes_round_trip($n, $message);
        } else {
            [$a, $b] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
            $co[] = coroutines_round_trip($n, $message, $a, $b);
            fclose($a);
            fclose($b);
        }
    }
    $server = stream_socket_server('tcp://127.0.0.1:0');
    $addr = stream_socket_get_name($server, false);
    $client = await(spawn(fn() => stream_socket_client("tcp://$addr")));
    $peer = stream_socket_accept($server);
    stream_set_write_buffer($client, 0);
    stream_set_write_buffer($peer, 0);
    $tcp[] = coroutines_round_trip($n, $message, $client, $peer);
    fclose($client);
    fclose($peer);
    fclose($server);
}

$com = bench_median($co) / 1000;
$prm = bench_median($pr) / 1000;
$tcpm = bench_median($tcp) / 1000;
$ratio = $com / $prm;
printf("two coroutines, stream_socket_pair:   %.2f µs per round trip (median; %s)\n", $com, bench_spread(array_map(fn($x) => $x / 1000, $co), 2));
printf("two blocking processes, same pair:    %.2f µs per round trip (median; %s)\n", $prm, bench_spread(array_map(fn($x) => $x / 1000, $pr), 2));
printf("two coroutines, loopback TCP:         %.2f µs per round trip (median; %s)\n", $tcpm, bench_spread(array_map(fn($x) => $x / 1000, $tcp), 2));
printf("ratio coroutines/processes: %.3f\n", $ratio);
bench_goal('socket_pingpong', $ratio < 1.0, sprintf('coroutines/processes %.3f, goal < 1', $ratio));
