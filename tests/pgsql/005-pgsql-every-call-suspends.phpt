--TEST--
pgsql: every call that waits for the server suspends only its coroutine (a ticker runs meanwhile): pg_query, pg_query_params, pg_prepare, pg_execute, pg_send_query + pg_get_result, pg_copy_from, pg_copy_to, pg_lo_* (each waits for a lock another session holds)
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
use function Async\{spawn, await, delay};

$db = servers_start_postgres();
$out = sys_get_temp_dir() . '/async-pg-lo-' . getmypid();

await(spawn(function () use ($db, $out) {
    $l = pg_connect($db['conninfo'], PGSQL_CONNECT_FORCE_NEW);
    $holder = pg_connect($db['conninfo'], PGSQL_CONNECT_FORCE_NEW);
    pg_query($l, 'CREATE TABLE t (a int, b text)');
    pg_query($l, "INSERT INTO t VALUES (1, 'one'), (2, 'two')");
    pg_prepare($l, 'sel', 'SELECT count(*) FROM t WHERE a > $1');
    pg_query($l, 'BEGIN');
    $oid = pg_lo_create($l);
    $lo = pg_lo_open($l, $oid, 'w');
    pg_lo_write($lo, str_repeat('x', 1000));
    pg_lo_close($lo);
    pg_query($l, 'COMMIT');

    /* $call waits until the holder's transaction ends, 100 ms later */
    $blocked = function (string $name, string $lock, callable $call) use ($holder, $l) {
        pg_query($holder, "BEGIN; $lock");
        $ticker = new Ticker(1);
        spawn(function () use ($holder) {
            delay(100);
            pg_query($holder, 'COMMIT');
        });
        $t0 = hrtime(true);
        $result = $call();
        $t1 = hrtime(true);
        $ms = ms_since($t0);
        $ticker->stop();
        $ticks = $ticker->ticksIn($t0, $t1);
        printf("%s: %s, %s, %s\n", $name, $result, $ms >= 99 ? 'waited for the lock' : "took $ms ms",
            $ticks >= max(1, (int) (10 / slow_factor())) ? 'the ticker ran meanwhile' : "$ticks ticks meanwhile");
    };
    $table = 'LOCK TABLE t IN ACCESS EXCLUSIVE MODE';
    $lob = 'LOCK TABLE pg_largeobject, pg_largeobject_metadata IN ACCESS EXCLUSIVE MODE';

    $blocked('pg_query', $table, fn () => pg_fetch_result(pg_query($l, 'SELECT count(*) FROM t'), 0, 0));
    $blocked('pg_query_params', $table, fn () => pg_fetch_result(pg_query_params($l, 'SELECT count(*) FROM t WHERE a = $1', [2]), 0, 0));
    $blocked('pg_prepare', $table, fn () => pg_result_status(pg_prepare($l, 'p2', 'SELECT b FROM t WHERE a = $1')) === PGSQL_COMMAND_OK ? 'prepared' : 'failed');
    $blocked('pg_execute', $table, fn () => pg_fetch_result(pg_execute($l, 'sel', [0]), 0, 0));
    $blocked('pg_send_query + pg_get_result', $table, function () use ($l) {
        pg_send_query($l, 'SELECT count(*) FROM t');
        $r = pg_fetch_result(pg_get_result($l), 0, 0);
        return $r . (pg_get_result($l) === false ? ', then no more results' : ', more?');
    });
    $blocked('pg_copy_from', $table, fn () => var_export(pg_copy_from($l, 't', ["3\tthree", "4\tfour"]), true));
    $blocked('pg_copy_to', $table, fn () => implode(',', array_map('trim', pg_copy_to($l, 't'))));
    $blocked('pg_lo_open + pg_lo_read', $lob, function () use ($l, $oid) {
        pg_query($l, 'BEGIN');
        $lo = pg_lo_open($l, $oid, 'r');
        $n = strlen(pg_lo_read($lo, 5000));
        pg_lo_close($lo);
        pg_query($l, 'COMMIT');
        return "$n bytes";
    });
    $blocked('pg_lo_create + pg_lo_write', $lob, function () use ($l) {
        pg_query($l, 'BEGIN');
        $new = pg_lo_create($l);
        $lo = pg_lo_open($l, $new, 'w');
        $n = pg_lo_write($lo, 'hello');
        pg_lo_close($lo);
        pg_query($l, 'COMMIT');
        $GLOBALS['new_oid'] = $new;
        return "$n bytes";
    });
    /* large object descriptors live as long as a transaction */
    $inTx = function (callable $f) use ($l) {
        pg_query($l, 'BEGIN');
        $r = $f();
        pg_query($l, 'COMMIT');
        return $r;
    };
    $blocked('pg_lo_export', $lob, fn () => $inTx(fn () => var_export(pg_lo_export($l, $oid, $out), true) . ', ' . filesize($out) . ' bytes'));
    $blocked('pg_lo_import', $lob, fn () => $inTx(fn () => pg_lo_import($l, $out) > 0 ? 'imported' : 'failed'));
    $blocked('pg_lo_unlink', $lob, fn () => var_export(pg_lo_unlink($l, $GLOBALS['new_oid']), true));
}));
@unlink($out);
?>
--EXPECT--
pg_query: 2, waited for the lock, the ticker ran meanwhile
pg_query_params: 1, waited for the lock, the ticker ran meanwhile
pg_prepare: prepared, waited for the lock, the ticker ran meanwhile
pg_execute: 2, waited for the lock, the ticker ran meanwhile
pg_send_query + pg_get_result: 2, then no more results, waited for the lock, the ticker ran meanwhile
pg_copy_from: true, waited for the lock, the ticker ran meanwhile
pg_copy_to: 1	one,2	two,3	three,4	four, waited for the lock, the ticker ran meanwhile
pg_lo_open + pg_lo_read: 1000 bytes, waited for the lock, the ticker ran meanwhile
pg_lo_create + pg_lo_write: 5 bytes, waited for the lock, the ticker ran meanwhile
pg_lo_export: true, 1000 bytes, waited for the lock, the ticker ran meanwhile
pg_lo_import: imported, waited for the lock, the ticker ran meanwhile
pg_lo_unlink: true, waited for the lock, the ticker ran meanwhile
