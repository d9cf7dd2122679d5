--TEST--
ext/sockets: failures inside a coroutine give PHP's own warnings, return values and error codes
--EXTENSIONS--
sockets
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await};

function closed_port(): int {
    $s = socket_create(AF_INET, SOCK_STREAM, SOL_TCP);
    socket_bind($s, '127.0.0.1', 0);
    socket_getsockname($s, $a, $port);
    socket_close($s); // bound, never listening: connecting is refused
    return $port;
}

function scenario(string $what): array {
    $warnings = [];
    set_error_handler(function ($no, $msg) use (&$warnings) { $warnings[] = $msg; return true; });
    try {
        switch ($what) {
            case 'refused':
                $s = socket_create(AF_INET, SOCK_STREAM, SOL_TCP);
                $r = socket_connect($s, '127.0.0.1', closed_port());
                $r = [$r, socket_last_error($s), socket_last_error()];
                break;
            case 'broken pipe':
                socket_create_pair(AF_UNIX, SOCK_STREAM, 0, $p);
                socket_close($p[1]);
                $r = [socket_write($p[0], 'x'), socket_last_error($p[0]), socket_send($p[0], 'y', 1, 0)];
                break;
            case 'eof':
                socket_create_pair(AF_UNIX, SOCK_STREAM, 0, $p);
                socket_write($p[1], "no newline");
                socket_close($p[1]);
                $r = [socket_read($p[0], 100), socket_read($p[0], 100), socket_recv($p[0], $buf, 10, 0), $buf,
                    socket_read($p[0], 100, PHP_NORMAL_READ), socket_last_error($p[0])];
                break;
            case 'bad args':
                socket_create_pair(AF_UNIX, SOCK_STREAM, 0, $p);
                $r = [];
                foreach ([fn() => socket_write($p[0], 'x', -1), fn() => socket_send($p[0], 'x', -1, 0),
                          fn() => socket_read($p[0], 0), fn() => socket_recv($p[0], $b, 0, 0),
                          fn() => socket_read(), fn() => socket_write($p[0]), fn() => socket_recv($p[0], $b, 'x', 0),
                          fn() => socket_connect($p[0], 'x', 1), fn() => socket_accept($p[0]), fn() => socket_read(STDIN, 1),
                         ] as $f) {
                    try {
                        $r[] = $f();
                    } catch (Throwable $e) {
                        $r[] = get_class($e) . ': ' . $e->getMessage();
                    }
                }
                break;
            case 'closed socket':
                socket_create_pair(AF_UNIX, SOCK_STREAM, 0, $p);
                socket_close($p[0]);
                try {
                    $r = socket_read($p[0], 10);
                } catch (Throwable $e) {
                    $r = get_class($e) . ': ' . $e->getMessage();
                }
                break;
        }
    } finally {
        restore_error_handler();
    }
    return [$r, $warnings];
}

$cases = ['refused', 'broken pipe', 'eof', 'bad args', 'closed socket'];
$stock = [];
foreach ($cases as $c) {
    $stock[$c] = scenario($c);
}
$inside = await(spawn(function () use ($cases) {
    $out = [];
    foreach ($cases as $c) {
        $out[$c] = scenario($c);
    }
    return $out;
}));
foreach ($cases as $c) {
    echo $c, ': ', $stock[$c] === $inside[$c] ? 'same' : 'DIFFERENT ' . json_encode($stock[$c]) . ' vs ' . json_encode($inside[$c]), "\n";
}
echo implode("\n", $inside['refused'][1]), "\n";
echo implode("\n", $inside['broken pipe'][1]), "\n";
echo json_encode($inside['eof']), "\n";
?>
--EXPECT--
refused: same
broken pipe: same
eof: same
bad args: same
closed socket: same
socket_connect(): unable to connect [111]: Connection refused
socket_write(): unable to write to socket [32]: Broken pipe
socket_send(): Unable to write to socket [32]: Broken pipe
[["no newline","",0,null,false,104],["socket_read(): unable to read from socket [104]: Connection reset by peer"]]
