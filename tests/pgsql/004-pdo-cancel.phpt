--TEST--
pdo_pgsql: a coroutine cancelled while query(), exec(), execute() (server-side and emulated prepares), a copy or a transaction's statement runs: the cancellation comes up at once in every error mode (no PDOException or warning over it), the server cancels the statement, the PDO stays usable
--SKIPIF--
<?php
require __DIR__ . '/../inc/servers.inc';
$why = servers_skip_reason('postgres', ['pdo_pgsql']);
if ($why !== '') die("skip $why");
?>
--EXTENSIONS--
pdo
pdo_pgsql
--INI--
async.debug_deadlock=0
--FILE--
<?php
require __DIR__ . '/../inc/bounds.inc';
require __DIR__ . '/../inc/servers.inc';
require __DIR__ . '/../inc/pgsql.inc';
use function Async\{spawn, await, delay};

$db = servers_start_postgres();
$modes = ['exception' => PDO::ERRMODE_EXCEPTION, 'warning' => PDO::ERRMODE_WARNING, 'silent' => PDO::ERRMODE_SILENT];

foreach ($modes as $modeName => $mode) {
    $p = pdo_pg_connect($db, [PDO::ATTR_ERRMODE => $mode]);
    $cases = [
        'query' => fn () => $p->query('SELECT pg_sleep(30)'),
        'exec' => fn () => $p->exec('SELECT pg_sleep(30)'),
        'prepare + execute' => function () use ($p) {
            $s = $p->prepare('SELECT pg_sleep(?)');
            $s->execute([30]);
        },
        'emulated prepare + execute' => function () use ($p) {
            $s = $p->prepare('SELECT pg_sleep(?)', [PDO::ATTR_EMULATE_PREPARES => true]);
            $s->execute([30]);
        },
        'copyToArray' => fn () => pdo_pg($p, 'CopyToArray', '(SELECT pg_sleep(30))'),
        'in a transaction' => function () use ($p) {
            $p->beginTransaction();
            $p->exec('SELECT pg_sleep(30)');
        },
    ];
    $lines = [];
    foreach ($cases as $name => $f) {
        $warnings = [];
        set_error_handler(function ($no, $msg) use (&$warnings) { $warnings[] = $msg; return true; });
        $c = spawn($f);
        delay(50);
        $t0 = hrtime(true);
        $c->cancel();
        $outcome = 'not cancelled';
        try {
            await($c);
        } catch (Throwable $e) {
            $outcome = get_class($e) . ($e->getPrevious() ? ' over ' . get_class($e->getPrevious()) : '');
        }
        $ms = ms_since($t0);
        restore_error_handler();
        $inTx = $p->inTransaction();
        if ($inTx) {
            $p->rollBack();
        }
        $next = $p->query('SELECT 42');
        $lines[] = sprintf('%s: %s%s, running %d, %snext query %s, warnings %d', $name, $outcome,
            $ms < 200 * slow_factor() ? ' at once' : " after $ms ms", pdo_pg_running($db, 'pg_sleep('),
            $inTx ? 'rolled back, ' : '', $next ? $next->fetchColumn() : 'failed', count($warnings));
    }
    echo "== $modeName\n", implode("\n", $lines), "\n";
}
?>
--EXPECT--
== exception
query: Async\AsyncCancellation at once, running 0, next query 42, warnings 0
exec: Async\AsyncCancellation at once, running 0, next query 42, warnings 0
prepare + execute: Async\AsyncCancellation at once, running 0, next query 42, warnings 0
emulated prepare + execute: Async\AsyncCancellation at once, running 0, next query 42, warnings 0
copyToArray: Async\AsyncCancellation at once, running 0, next query 42, warnings 0
in a transaction: Async\AsyncCancellation at once, running 0, rolled back, next query 42, warnings 0
== warning
query: Async\AsyncCancellation at once, running 0, next query 42, warnings 0
exec: Async\AsyncCancellation at once, running 0, next query 42, warnings 0
prepare + execute: Async\AsyncCancellation at once, running 0, next query 42, warnings 0
emulated prepare + execute: Async\AsyncCancellation at once, running 0, next query 42, warnings 0
copyToArray: Async\AsyncCancellation at once, running 0, next query 42, warnings 0
in a transaction: Async\AsyncCancellation at once, running 0, rolled back, next query 42, warnings 0
== silent
query: Async\AsyncCancellation at once, running 0, next query 42, warnings 0
exec: Async\AsyncCancellation at once, running 0, next query 42, warnings 0
prepare + execute: Async\AsyncCancellation at once, running 0, next query 42, warnings 0
emulated prepare + execute: Async\AsyncCancellation at once, running 0, next query 42, warnings 0
copyToArray: Async\AsyncCancellation at once, running 0, next query 42, warnings 0
in a transaction: Async\AsyncCancellation at once, running 0, rolled back, next query 42, warnings 0
