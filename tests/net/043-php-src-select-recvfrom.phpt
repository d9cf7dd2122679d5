--TEST--
Net: PHP's own tests inside a coroutine found these (the php-src lane): stream_select() with a float timeout warns once, stream_socket_recvfrom() on a listener fails at once (plain, STREAM_OOB, STREAM_PEEK) as stock PHP does
--DESCRIPTION--
php-src's ext/standard/tests/streams/bug72075.phpt and stream_socket_recvfrom.phpt, run with their
script in a coroutine (scripts/php-src-tests.sh): stream_select($r, $w, $e, 0.5) printed the
"Implicit conversion" deprecation twice (our parsing, then PHP's function parsing the same float
again); stream_socket_recvfrom() on a listening socket waited for readability (a connection) up to
default_socket_timeout where stock PHP returns false at once (recv() on a listener: ENOTCONN).
--INI--
error_reporting=-1
display_errors=1
default_socket_timeout=30
--FILE--
<?php
use function Async\{spawn, await};

function probe(string $where): void
{
    $srv = stream_socket_server('tcp://127.0.0.1:0', $errno, $errstr);
    $t = hrtime(true);
    var_dump(stream_socket_recvfrom($srv, 1500), stream_socket_recvfrom($srv, 1500, STREAM_OOB),
        stream_socket_recvfrom($srv, 1500, STREAM_PEEK));
    echo "$where: the three calls took ", (hrtime(true) - $t) < 2e9 ? 'no time' : 'seconds', "\n";
    $r = [$srv];
    $w = $e = null;
    var_dump(stream_select($r, $w, $e, 0.5));
    $r = [$srv];
    var_dump(stream_select($r, $w, $e, 0, 1.5));
    fclose($srv);
}
probe('stock');
await(spawn(fn () => probe('coroutine')));
?>
--EXPECTF--
bool(false)
bool(false)
bool(false)
stock: the three calls took no time

Deprecated: Implicit conversion from float 0.5 to int loses precision in %s on line %d
int(0)

Deprecated: Implicit conversion from float 1.5 to int loses precision in %s on line %d
int(0)
bool(false)
bool(false)
bool(false)
coroutine: the three calls took no time

Deprecated: Implicit conversion from float 0.5 to int loses precision in %s on line %d
int(0)

Deprecated: Implicit conversion from float 1.5 to int loses precision in %s on line %d
int(0)
