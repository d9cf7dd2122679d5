--TEST--
Persistent connections (pg_pconnect(), PDO::ATTR_PERSISTENT) first made by several coroutines at once: pg_pconnect() gives one server session (the first connect does not suspend, so PHP never registers the key twice and frees a connection in use), whose calls take turns; a persistent PDO is held by its coroutine, so each of the six gets a session of its own (tests/persistent); never a crossed result
--SKIPIF--
<?php
require __DIR__ . '/../inc/servers.inc';
$why = servers_skip_reason('postgres', ['pgsql', 'pdo_pgsql']);
if ($why !== '') die("skip $why");
?>
--EXTENSIONS--
pgsql
pdo
pdo_pgsql
--INI--
async.debug_deadlock=0
--FILE--
<?php
require __DIR__ . '/../inc/servers.inc';
require __DIR__ . '/../inc/pgsql.inc';
use function Async\{spawn, await_all};

$db = servers_start_postgres();
$pids = [];
$crossed = 0;
$cs = [];
for ($i = 0; $i < 6; $i++) {
    $cs[] = spawn(function () use ($db, $i, &$pids, &$crossed) {
        $l = pg_pconnect($db['conninfo']);
        $p = new PDO($db['dsn'], 'postgres', '', [PDO::ATTR_PERSISTENT => true, PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION]);
        for ($k = 0; $k < 10; $k++) {
            $v = "$i-$k";
            $r = pg_query_params($l, 'SELECT $1::text, pg_backend_pid(), pg_sleep(0.002)', [$v]);
            $crossed += pg_fetch_result($r, 0, 0) !== $v;
            $pids['pgsql'][pg_fetch_result($r, 0, 1)] = true;
            $s = $p->prepare('SELECT ?::text, pg_backend_pid(), pg_sleep(0.002)');
            $s->execute([$v]);
            $row = $s->fetch(PDO::FETCH_NUM);
            $crossed += $row[0] !== $v;
            $pids['pdo'][$row[1]] = true;
        }
    });
}
[$results, $errors] = await_all($cs);
echo count($errors), " errors, $crossed crossed results\n";
echo 'server sessions: pgsql ', count($pids['pgsql']), ', PDO ', count($pids['pdo']), "\n";
?>
--EXPECT--
0 errors, 0 crossed results
server sessions: pgsql 1, PDO 6
