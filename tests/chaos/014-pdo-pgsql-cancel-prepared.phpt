--TEST--
pdo_pgsql: a coroutine cancelled in PDO::query() with server-side prepares ends within the cancel grace, as with emulated prepares and ext/pgsql (found by the scenario matrix: pdo_pgsql.cancel.latency, pdo_pgsql.response.slow)
--DESCRIPTION--
Every answer of the server comes 700 ms late (the fault proxy's down:latency); the caller gives up
after 100 ms; async.pgsql_cancel_grace_ms is 1000, so the server answers each round trip within the
grace. With emulated prepares (one PQexec) the cancelled coroutine ends after one round trip
(~700 ms). With server-side prepares it ended after three before the fix (~2100 ms, past the
100 + 1000 ms that timeout + grace allow): pdo_pgsql went on from the interrupted prepare to the
execute. Now the execute is refused at once.
--EXTENSIONS--
pdo
pdo_pgsql
--SKIPIF--
<?php
require __DIR__ . '/proxy.inc';
require __DIR__ . '/../inc/servers.inc';
if (($r = chaos_skip_reason()) !== '') die("skip $r");
if (($r = servers_skip_reason('postgres', ['pdo_pgsql'])) !== '') die("skip $r");
?>
--INI--
async.pgsql_cancel_grace_ms=1000
--FILE--
<?php
require __DIR__ . '/proxy.inc';
require __DIR__ . '/../inc/servers.inc';
use function Async\{spawn, await, timeout};

$db = servers_start_postgres();
$proxy = ChaosProxy::start("127.0.0.1:{$db['port']}");
foreach ([true, false] as $emulated) {
    await(spawn(function () use ($proxy, $emulated) {
        $pdo = new PDO("pgsql:host=127.0.0.1;port={$proxy->port};dbname=postgres", 'postgres', '',
            [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION, PDO::ATTR_EMULATE_PREPARES => $emulated]);
        $pdo->query('SELECT 1');
        $live = array_filter($proxy->stats(), fn ($s) => $s['state'] === 'open');
        $proxy->fault('down:latency=700', max(array_keys($live)));
        $t = hrtime(true);
        $co = spawn(fn () => $pdo->query("SELECT repeat('x', 20000)")->fetchColumn());
        try {
            await($co, timeout(100));
        } catch (Async\OperationCanceledException) {
            $co->cancel();
            try {
                await($co);
            } catch (Async\AsyncCancellation) {
            }
        }
        $ms = ms_since($t);
        echo $emulated ? 'emulated' : 'server-side', ' prepares: the cancelled coroutine ended ',
            $ms < 1100 ? 'within timeout + grace' : sprintf('after %d ms, past timeout + grace (1100 ms)', $ms), "\n";
        echo '  the connection: ', $pdo->query('SELECT 2')->fetchColumn() == 2 ? 'usable' : 'broken', "\n";
    }));
}
?>
--EXPECT--
emulated prepares: the cancelled coroutine ended within timeout + grace
  the connection: usable
server-side prepares: the cancelled coroutine ended within timeout + grace
  the connection: usable
