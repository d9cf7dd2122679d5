--TEST--
A server that does not answer the cancel request (its backend stopped): after async.pgsql_cancel_grace_ms the connection is closed with a warning that says why, and the cancellation still comes up
--SKIPIF--
<?php
require __DIR__ . '/../inc/servers.inc';
$why = servers_skip_reason('postgres', ['pgsql', 'pdo_pgsql', 'posix']);
if ($why !== '') die("skip $why");
?>
--EXTENSIONS--
pgsql
pdo
pdo_pgsql
posix
--INI--
async.debug_deadlock=0
async.pgsql_cancel_grace_ms=300
--FILE--
<?php
require __DIR__ . '/../inc/bounds.inc';
require __DIR__ . '/../inc/servers.inc';
require __DIR__ . '/../inc/pgsql.inc';
use function Async\{spawn, await, delay};

$db = servers_start_postgres();

foreach (['pgsql', 'PDO'] as $driver) {
    if ($driver === 'pgsql') {
        $l = pg_connect($db['conninfo'], PGSQL_CONNECT_FORCE_NEW);
        $pid = pg_get_pid($l);
        $query = fn () => pg_query($l, 'SELECT pg_sleep(30)');
        $after = function () use ($l) {
            var_dump(pg_connection_status($l) === PGSQL_CONNECTION_BAD);
        };
    } else {
        $p = pdo_pg_connect($db, [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION]);
        $pid = (int) $p->query('SELECT pg_backend_pid()')->fetchColumn();
        $query = fn () => $p->query('SELECT pg_sleep(30)');
        $after = function () use ($p) {
            try {
                $p->query('SELECT 1');
            } catch (PDOException $e) {
                echo "the next query: PDOException\n";
            }
        };
    }
    $warnings = [];
    set_error_handler(function ($no, $msg) use (&$warnings) { $warnings[] = $msg; return true; });
    $c = spawn($query);
    delay(50);
    posix_kill($pid, SIGSTOP); /* it cannot take the cancel now */
    $t0 = hrtime(true);
    $c->cancel();
    try {
        await($c);
        echo "not cancelled\n";
    } catch (Async\AsyncCancellation $e) {
        $ms = ms_since($t0);
        echo "$driver: cancelled ", $ms >= 299 && $ms < 300 + 500 * slow_factor() ? 'after the grace' : "after $ms ms", "\n";
    }
    posix_kill($pid, SIGCONT);
    restore_error_handler();
    echo implode("\n", $warnings), "\n";
    $after();
}
?>
--EXPECT--
pgsql: cancelled after the grace
pg_query(): The PostgreSQL connection was closed: the server did not answer the cancel request of the cancelled coroutine within async.pgsql_cancel_grace_ms (300 ms)
bool(true)
PDO: cancelled after the grace
PDO::query(): The PostgreSQL connection was closed: the server did not answer the cancel request of the cancelled coroutine within async.pgsql_cancel_grace_ms (300 ms)
the next query: PDOException
