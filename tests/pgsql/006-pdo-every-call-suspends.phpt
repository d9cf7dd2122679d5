--TEST--
pdo_pgsql: every call that waits for the server suspends only its coroutine (a ticker runs meanwhile): query, exec, prepare + execute, a transaction's statements and commit, copies from and to arrays and files, large objects (each waits for a lock another session holds)
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
$file = sys_get_temp_dir() . '/async-pdo-copy-' . getmypid();

await(spawn(function () use ($db, $file) {
    $p = pdo_pg_connect($db, [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION]);
    $holder = pdo_pg_connect($db, [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION]);
    $p->exec('CREATE TABLE t (a int, b text)');
    $p->exec("INSERT INTO t VALUES (1, 'one'), (2, 'two')");
    $p->beginTransaction();
    $oid = pdo_pg($p, 'LOBCreate');
    $s = pdo_pg($p, 'LOBOpen', $oid, 'w');
    fwrite($s, str_repeat('x', 1000));
    fclose($s);
    $p->commit();

    $blocked = function (string $name, string $lock, callable $call) use ($holder) {
        $holder->beginTransaction();
        $holder->exec($lock);
        $ticker = new Ticker(1);
        $committer = spawn(function () use ($holder) {
            delay(100);
            $holder->commit();
        });
        $t0 = hrtime(true);
        $result = $call();
        $t1 = hrtime(true);
        // The server lets the call go at the COMMIT, which may resume it before the committer has
        // read COMMIT's answer: the next step's beginTransaction() on $holder waits for that.
        await($committer);
        $ms = ms_since($t0);
        $ticker->stop();
        $ticks = $ticker->ticksIn($t0, $t1);
        printf("%s: %s, %s, %s\n", $name, $result, $ms >= 99 ? 'waited for the lock' : "took $ms ms",
            $ticks >= max(1, (int) (10 / slow_factor())) ? 'the ticker ran meanwhile' : "$ticks ticks meanwhile");
    };
    $table = 'LOCK TABLE t IN ACCESS EXCLUSIVE MODE';
    $lob = 'LOCK TABLE pg_largeobject, pg_largeobject_metadata IN ACCESS EXCLUSIVE MODE';

    $blocked('query + fetch', $table, fn () => $p->query('SELECT count(*) FROM t')->fetchColumn());
    $blocked('exec', $table, fn () => $p->exec("UPDATE t SET b = b WHERE a = 1"));
    $blocked('prepare + execute', $table, function () use ($p) {
        $s = $p->prepare('SELECT b FROM t WHERE a = ?');
        $s->execute([2]);
        return $s->fetchColumn();
    });
    $blocked('emulated prepare + execute', $table, function () use ($p) {
        $s = $p->prepare('SELECT b FROM t WHERE a = ?', [PDO::ATTR_EMULATE_PREPARES => true]);
        $s->execute([1]);
        return $s->fetchColumn();
    });
    $blocked('transaction', $table, function () use ($p) {
        $p->beginTransaction();
        $p->exec("INSERT INTO t VALUES (3, 'three')");
        return var_export($p->commit(), true);
    });
    $blocked('copyFromArray', $table, fn () => var_export(pdo_pg($p, 'CopyFromArray', 't', ["4\tfour", "5\tfive"]), true));
    $blocked('copyToArray', $table, fn () => implode(',', array_map('trim', pdo_pg($p, 'CopyToArray', '(SELECT * FROM t ORDER BY a)'))));
    $blocked('copyToFile', $table, fn () => var_export(pdo_pg($p, 'CopyToFile', 't', $file), true) . ', ' . count(file($file)) . ' rows');
    $blocked('copyFromFile', $table, fn () => var_export(pdo_pg($p, 'CopyFromFile', 't', $file), true));
    $blocked('LOBOpen + read', $lob, function () use ($p, $oid) {
        $p->beginTransaction();
        $s = pdo_pg($p, 'LOBOpen', $oid, 'r');
        $n = strlen(stream_get_contents($s));
        fclose($s);
        $p->commit();
        return "$n bytes";
    });
    $blocked('LOBCreate + write', $lob, function () use ($p) {
        $p->beginTransaction();
        $new = pdo_pg($p, 'LOBCreate');
        $s = pdo_pg($p, 'LOBOpen', $new, 'w');
        $n = fwrite($s, 'hello');
        fclose($s);
        $p->commit();
        $GLOBALS['new_oid'] = $new;
        return "$n bytes";
    });
    $blocked('LOBUnlink', $lob, function () use ($p) {
        $p->beginTransaction();
        $r = pdo_pg($p, 'LOBUnlink', $GLOBALS['new_oid']);
        $p->commit();
        return var_export($r, true);
    });
    echo $p->query('SELECT count(*) FROM t')->fetchColumn(), " rows in t\n";
}));
@unlink($file);
?>
--EXPECT--
query + fetch: 2, waited for the lock, the ticker ran meanwhile
exec: 1, waited for the lock, the ticker ran meanwhile
prepare + execute: two, waited for the lock, the ticker ran meanwhile
emulated prepare + execute: one, waited for the lock, the ticker ran meanwhile
transaction: true, waited for the lock, the ticker ran meanwhile
copyFromArray: true, waited for the lock, the ticker ran meanwhile
copyToArray: 1	one,2	two,3	three,4	four,5	five, waited for the lock, the ticker ran meanwhile
copyToFile: true, 5 rows, waited for the lock, the ticker ran meanwhile
copyFromFile: true, waited for the lock, the ticker ran meanwhile
LOBOpen + read: 1000 bytes, waited for the lock, the ticker ran meanwhile
LOBCreate + write: 5 bytes, waited for the lock, the ticker ran meanwhile
LOBUnlink: true, waited for the lock, the ticker ran meanwhile
10 rows in t
