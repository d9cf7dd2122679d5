--TEST--
LISTEN/NOTIFY: pdo_pgsql's getNotify() with a timeout suspends until the notification (or the timeout), and a cancellation ends its wait at once; pgsql's pg_socket() in stream_select() suspends too
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
require __DIR__ . '/../inc/bounds.inc';
require __DIR__ . '/../inc/servers.inc';
require __DIR__ . '/../inc/pgsql.inc';
use function Async\{spawn, await, delay};

$db = servers_start_postgres();

await(spawn(function () use ($db) {
    $notify = function (string $payload, int $after) use ($db) {
        return spawn(function () use ($db, $payload, $after) {
            delay($after);
            $n = pg_connect($db['conninfo'], PGSQL_CONNECT_FORCE_NEW);
            pg_query($n, "NOTIFY ch, '$payload'");
        });
    };
    $p = pdo_pg_connect($db, [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION]);
    $p->exec('LISTEN ch');

    /* a notification 100 ms later, within a 5 s timeout */
    $notify('hello', 100);
    $ticker = new Ticker(1);
    $t0 = hrtime(true);
    $n = pdo_pg($p, 'GetNotify', PDO::FETCH_ASSOC, 5000);
    $t1 = hrtime(true);
    $ticker->stop();
    $ms = ms_since($t0);
    printf("getNotify: %s on %s, %s, %s\n", $n['payload'], $n['message'],
        $ms >= 99 && $ms < 2000 ? 'when it came' : "after $ms ms",
        $ticker->ticksIn($t0, $t1) >= max(1, (int) (10 / slow_factor())) ? 'the ticker ran meanwhile' : 'the ticker was held');

    /* none: false at the timeout */
    $ticker = new Ticker(1);
    $t0 = hrtime(true);
    $n = pdo_pg($p, 'GetNotify', PDO::FETCH_ASSOC, 200);
    $t1 = hrtime(true);
    $ticker->stop();
    $ms = ms_since($t0);
    printf("getNotify: %s, %s, %s\n", var_export($n, true), $ms >= 199 ? 'at its timeout' : "after $ms ms",
        $ticker->ticksIn($t0, $t1) >= max(1, (int) (20 / slow_factor())) ? 'the ticker ran meanwhile' : 'the ticker was held');

    /* cancelled while it waits */
    $c = spawn(fn () => pdo_pg($p, 'GetNotify', PDO::FETCH_ASSOC, 10000));
    delay(50);
    $t0 = hrtime(true);
    $c->cancel();
    try {
        await($c);
        echo "not cancelled\n";
    } catch (Async\AsyncCancellation $e) {
        echo ms_since($t0) < 100 * slow_factor() ? "cancelled at once\n" : "cancelled late\n";
    }
    $notify('again', 10);
    $n = pdo_pg($p, 'GetNotify', PDO::FETCH_ASSOC, 5000);
    echo "the PDO still listens: {$n['payload']}\n";

    /* pgsql: wait for the socket with stream_select(), then read the notification */
    $l = pg_connect($db['conninfo'], PGSQL_CONNECT_FORCE_NEW);
    pg_query($l, 'LISTEN ch');
    $notify('via pg_socket', 100);
    $ticker = new Ticker(1);
    $t0 = hrtime(true);
    $r = [pg_socket($l)];
    $w = $e = null;
    $ready = stream_select($r, $w, $e, 5);
    pg_consume_input($l);
    $n = pg_get_notify($l, PGSQL_ASSOC);
    $t1 = hrtime(true);
    $ticker->stop();
    printf("stream_select: %d ready, %s, %s\n", $ready, $n['payload'],
        $ticker->ticksIn($t0, $t1) >= max(1, (int) (10 / slow_factor())) ? 'the ticker ran meanwhile' : 'the ticker was held');
}));
?>
--EXPECT--
getNotify: hello on ch, when it came, the ticker ran meanwhile
getNotify: false, at its timeout, the ticker ran meanwhile
cancelled at once
the PDO still listens: again
stream_select: 1 ready, via pg_socket, the ticker ran meanwhile
