--TEST--
Persistent: pfsockopen() with the port as a numeric string (or the host as an int-like value) finds the coroutine's own persistent connection again, as stock PHP does; a null port warns once
--DESCRIPTION--
php-src's ext/standard/tests/streams/bug54623.phpt in a coroutine (scripts/php-src-tests.sh): a
second pfsockopen('udp://127.0.0.1', '63844') opened a second connection instead of returning the
first one (the key was computed only for an int port), so closing the second left the first open.
--INI--
error_reporting=-1
display_errors=1
--FILE--
<?php
use function Async\{spawn, await};

function probe(string $where, int $port): void
{
    $sock = pfsockopen('udp://127.0.0.1', (string) $port);
    @fwrite($sock, "1");
    $sock2 = pfsockopen('udp://127.0.0.1', (string) $port);
    @fwrite($sock2, "2");
    fclose($sock2);
    try {
        fwrite($sock, "3");
        echo "$where: the first stream is still open (a second connection was made)\n";
    } catch (TypeError $e) {
        echo "$where: the first stream is closed with the second (one connection)\n"; // the message differs on 8.5
    }
    $a = pfsockopen('udp://127.0.0.1', $port + 1.0);
    $b = pfsockopen('udp://127.0.0.1', $port + 1);
    fclose($b);
    try {
        fwrite($a, "4");
        $same = 'no';
    } catch (TypeError) {
        $same = 'yes';
    }
    echo "$where: a float port is the same key: $same\n";
    var_dump(pfsockopen('udp://127.0.0.1', null));
}
$port = 40000 + getmypid() % 20000;
probe('stock', $port);
await(spawn(fn () => probe('coroutine', $port + 2)));
?>
--EXPECTF--
stock: the first stream is closed with the second (one connection)
stock: a float port is the same key: yes

Deprecated: pfsockopen(): Passing null to parameter #2 ($port) of type int is deprecated in %s on line %d

Warning: pfsockopen(): Unable to connect to udp://127.0.0.1:0 (%s) in %s on line %d
bool(false)
coroutine: the first stream is closed with the second (one connection)
coroutine: a float port is the same key: yes

Deprecated: pfsockopen(): Passing null to parameter #2 ($port) of type int is deprecated in %s on line %d

Warning: pfsockopen(): Unable to connect to udp://127.0.0.1:0 (%s) in %s on line %d
bool(false)
