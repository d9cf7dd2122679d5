--TEST--
pgsql: a coroutine cancelled (or timed out) while its query runs stops within a few ms, the server cancels the statement (pg_stat_activity), the connection stays usable, and no warning lands over the cancellation
--SKIPIF--
<?php
require __DIR__ . '/../inc/servers.inc';
$why = servers_skip_reason('postgres', ['pgsql']);
if ($why !== '') die("skip $why");
?>
--EXTENSIONS--
pgsql
--INI--
async.debug_deadlock=0
--FILE--
<?php
require __DIR__ . '/../inc/bounds.inc';
require __DIR__ . '/../inc/servers.inc';
require __DIR__ . '/../inc/pgsql.inc';
use function Async\{spawn, await, delay, timeout};

$db = servers_start_postgres();
$l = pg_connect($db['conninfo'], PGSQL_CONNECT_FORCE_NEW);
pg_query($l, 'CREATE TABLE t (a int)');
pg_prepare($l, 'slow', 'SELECT pg_sleep($1)');

$cases = [
    'pg_query' => fn () => pg_query($l, 'SELECT pg_sleep(30)'),
    'pg_query_params' => fn () => pg_query_params($l, 'SELECT pg_sleep($1)', [30]),
    'pg_execute' => fn () => pg_execute($l, 'slow', [30]),
    'pg_send_query + pg_get_result' => function () use ($l) {
        pg_send_query($l, 'SELECT pg_sleep(30)');
        return pg_get_result($l);
    },
    'pg_copy_to' => fn () => pg_copy_to($l, '(SELECT pg_sleep(30))'),
];

/* Each: cancelled while waiting; the time from cancel() to the coroutine's end (the server's
 * cancel round trip, ~11 ms here, is in it: the statement is gone when the cancellation comes up). */
function check(string $name, $l, array $db, callable $start, callable $stop): void
{
    $warnings = [];
    set_error_handler(function ($no, $msg) use (&$warnings) { $warnings[] = $msg; return true; });
    $c = spawn($start);
    delay(50);
    $t0 = hrtime(true);
    $stop($c);
    $outcome = 'not cancelled';
    try {
        $outcome = await($c) ?? $outcome;
    } catch (Throwable $e) {
        $outcome = get_class($e);
    }
    $ms = ms_since($t0);
    restore_error_handler();
    $running = pg_running($db, 'pg_sleep(');
    $tx = pg_transaction_status($l);
    $next = @pg_query($l, 'SELECT 42');
    printf("%s: %s%s, running %d, next query %s, warnings %d\n", $name, $outcome,
        $ms < 200 * slow_factor() ? ' at once' : " after $ms ms", $running,
        $next !== false ? pg_fetch_result($next, 0, 0) : 'failed', count($warnings));
    foreach ($warnings as $w) {
        echo "  $w\n";
    }
}

foreach ($cases as $name => $f) {
    check($name, $l, $db, $f, fn ($c) => $c->cancel());
}

/* in a transaction: the statement ends, the transaction is in the failed state as after any
 * error (psql's behaviour), ROLLBACK works */
check('in a transaction', $l, $db, function () use ($l) {
    pg_query($l, 'BEGIN');
    pg_query($l, 'INSERT INTO t VALUES (1)');
    pg_query($l, 'SELECT pg_sleep(30)');
}, fn ($c) => $c->cancel());
var_dump(pg_transaction_status($l) === PGSQL_TRANSACTION_INERROR);
pg_query($l, 'ROLLBACK');
var_dump(pg_fetch_result(pg_query($l, 'SELECT count(*) FROM t'), 0, 0));

/* a scope disposed after a timeout, and a timeout token followed by cancel() */
check('Scope::disposeAfterTimeout', $l, $db, function () use ($l) {
    $scope = new Async\Scope();
    $q = $scope->spawn(fn () => pg_query($l, 'SELECT pg_sleep(30)'));
    $scope->disposeAfterTimeout(1);
    $scope->awaitCompletion(timeout(5000));
    return $q->isCancelled() ? 'the query\'s coroutine cancelled' : 'the query ran on';
}, fn ($c) => null);
check('await with timeout(), then cancel()', $l, $db, function () use ($l) {
    $q = spawn(fn () => pg_query($l, 'SELECT pg_sleep(30)'));
    try {
        await($q, timeout(1));
    } catch (Async\OperationCanceledException $e) {
        $q->cancel();
        try {
            await($q);
        } catch (Async\AsyncCancellation $e) {
            return 'timed out, the query\'s coroutine cancelled';
        }
    }
}, fn ($c) => null);

/* a warning of the caller's own code after the cancellation is not dropped */
$c = spawn(fn () => pg_query($l, 'SELECT pg_sleep(30)'));
delay(50);
$c->cancel();
try {
    await($c);
} catch (Async\AsyncCancellation $e) {
    echo "caught\n";
    @trigger_error('silenced on purpose', E_USER_WARNING);
    echo error_get_last()['message'], "\n";
}
?>
--EXPECT--
pg_query: Async\AsyncCancellation at once, running 0, next query 42, warnings 0
pg_query_params: Async\AsyncCancellation at once, running 0, next query 42, warnings 0
pg_execute: Async\AsyncCancellation at once, running 0, next query 42, warnings 0
pg_send_query + pg_get_result: Async\AsyncCancellation at once, running 0, next query 42, warnings 0
pg_copy_to: Async\AsyncCancellation at once, running 0, next query 42, warnings 0
in a transaction: Async\AsyncCancellation at once, running 0, next query failed, warnings 0
bool(true)
string(1) "0"
Scope::disposeAfterTimeout: the query's coroutine cancelled at once, running 0, next query 42, warnings 0
await with timeout(), then cancel(): timed out, the query's coroutine cancelled at once, running 0, next query 42, warnings 0
caught
silenced on purpose
