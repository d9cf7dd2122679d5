--TEST--
phpredis: a coroutine cancelled in a blocking command ends with its cancellation on top, never hidden under a RedisException (see tests/db/007)
--SKIPIF--
<?php
require __DIR__ . '/../inc/servers.inc';
$why = servers_skip_reason('redis', ['redis']);
if ($why !== '') die("skip $why");
?>
--EXTENSIONS--
igbinary
redis
--INI--
async.debug_deadlock=0
--FILE--
<?php
require __DIR__ . '/../inc/servers.inc';
use function Async\{spawn, await, suspend};

$srv = servers_start_redis();

function chain(Throwable $e): string
{
    $names = [];
    for (; $e !== null; $e = $e->getPrevious()) {
        $names[] = get_class($e);
    }
    return implode(' <- ', $names);
}

foreach (['blPop', 'get'] as $command) {
    $inside = false;
    $co = spawn(function () use ($srv, $command, &$inside) {
        $r = new Redis();
        $r->connect('127.0.0.1', $srv['port'], 2.0);
        if ($command === 'get') {
            $r->rawCommand('CLIENT', 'PAUSE', '3000', 'ALL'); // the next command waits for the server
        }
        $inside = true;
        try {
            $command === 'blPop' ? $r->blPop(['redis-008-empty'], 5) : $r->get('k');
            return 'returned';
        } catch (RedisException $e) {
            return 'the RedisException was caught: ' . chain($e);
        }
    });
    while (!$inside || !$co->isSuspended()) {
        suspend();
    }
    $t = hrtime(true);
    $co->cancel();
    try {
        $outcome = await($co);
        echo "$command: $outcome\n";
    } catch (Async\AsyncCancellation $e) {
        $ms = (hrtime(true) - $t) / 1e6;
        echo "$command: ", get_class($e), $ms < 2000 ? ' at once' : sprintf(' after %d ms', $ms), "\n";
    }
}
$r = new Redis();
$r->connect('127.0.0.1', $srv['port'], 2.0);
$r->rawCommand('CLIENT', 'UNPAUSE');
echo 'the server answers: ', $r->ping() ? 'yes' : 'no', "\n";
?>
--EXPECT--
blPop: Async\AsyncCancellation at once
get: Async\AsyncCancellation at once
the server answers: yes
