--TEST--
Connecting suspends only the caller: host name resolution (thread pool), the wait for a server that does not answer (connect_timeout as stock), a stalled TLS handshake, SCRAM authentication; a cancelled connect ends at once with the cancellation on top; pg_connect() with PGSQL_CONNECT_ASYNC
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
use function Async\{spawn, await, delay, suspend};

$db = servers_start_postgres(['ssl' => true]);
$refused = servers_free_port();

/* A peer that takes the connection and then says nothing: after the SSLRequest ('S' then
 * silence: the TLS handshake stalls), or at once (the startup packet is never answered). */
function stalling_peer(bool $tls): array
{
    $server = stream_socket_server('tcp://127.0.0.1:0');
    $port = (int) substr(strrchr(stream_socket_get_name($server, false), ':'), 1);
    $co = spawn(function () use ($server, $tls) {
        $held = [];
        while (($c = @stream_socket_accept($server, 30)) !== false) {
            if ($tls) {
                fread($c, 8);
                fwrite($c, 'S');
            }
            $held[] = $c;
        }
    });
    return [$port, $co];
}

await(spawn(function () use ($db, $refused) {
    /* 1. the name: the only wait of a connect to a port nobody listens on (loopback refuses at once) */
    foreach (['pgsql' => fn () => @pg_connect("host=localhost port=$refused", PGSQL_CONNECT_FORCE_NEW),
              'PDO' => function () use ($refused) {
                  try {
                      new PDO("pgsql:host=localhost;port=$refused", 'postgres', '');
                  } catch (PDOException $e) {
                      return false;
                  }
              }] as $name => $connect) {
        $log = [];
        $a = spawn(function () use (&$log, $connect) {
            $log[] = 'A resolves';
            $log[] = 'A: ' . var_export($connect(), true);
        });
        $b = spawn(function () use (&$log) {
            for ($i = 0; $i < 3; $i++) {
                $log[] = "B $i";
                suspend();
            }
        });
        await($a);
        await($b);
        echo "$name: ", $log[1] === 'B 0' ? 'B ran while A resolved localhost' : implode(', ', $log), "\n";
    }

    /* 2. a server that never answers: libpq's connect_timeout (2 s at least) still ends it */
    [$port, $peer] = stalling_peer(false);
    $ticker = new Ticker(2);
    $t0 = hrtime(true);
    $r = @pg_connect("host=127.0.0.1 port=$port connect_timeout=2", PGSQL_CONNECT_FORCE_NEW);
    $t1 = hrtime(true);
    $ms = ms_since($t0);
    $ticker->stop();
    printf("silent server: %s, %s, %s, %s\n", var_export($r, true), $ms >= 1990 ? 'at connect_timeout' : "after $ms ms",
        preg_replace('/port \d+/', 'port N', error_get_last()['message']),
        $ticker->worstGap($t0, $t1) < 20 * slow_factor() ? 'the ticker kept ticking' : 'the ticker was held');

    /* 3. a stalled TLS handshake, then cancelled */
    [$port, $peer] = stalling_peer(true);
    foreach (['pgsql' => fn () => pg_connect("host=127.0.0.1 port=$port sslmode=require", PGSQL_CONNECT_FORCE_NEW),
              'PDO' => fn () => new PDO("pgsql:host=127.0.0.1;port=$port;sslmode=require", 'postgres', '')] as $name => $connect) {
        $warnings = [];
        set_error_handler(function ($no, $msg) use (&$warnings) { $warnings[] = $msg; return true; });
        $ticker = new Ticker(1);
        $c = spawn($connect);
        $t0 = hrtime(true);
        delay(100);
        $t1 = hrtime(true);
        $c->cancel();
        try {
            await($c);
            $outcome = 'connected?';
        } catch (Throwable $e) {
            $chain = [];
            for ($x = $e; $x !== null; $x = $x->getPrevious()) {
                $chain[] = get_class($x);
            }
            $outcome = implode(' <- ', $chain);
        }
        $ms = (hrtime(true) - $t1) / 1e6;
        $ticker->stop();
        restore_error_handler();
        printf("TLS handshake stalled (%s): %s, %s, warnings %d, %s\n", $name, $outcome,
            $ms < 100 * slow_factor() ? 'at once' : "after $ms ms", count($warnings),
            $ticker->ticksIn($t0, $t1) >= max(1, (int) (10 / slow_factor())) ? 'the ticker ran meanwhile' : 'the ticker was held');
    }

    /* 4. TLS and SCRAM for real, several at once */
    $cs = [];
    for ($i = 0; $i < 4; $i++) {
        $cs[] = spawn(function () use ($db, $i) {
            $l = pg_connect("host=127.0.0.1 port={$db['port']} dbname=postgres user=pw_user password=pw_secret sslmode=require", PGSQL_CONNECT_FORCE_NEW);
            $r = pg_query($l, 'SELECT current_user, ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()');
            $p = new PDO("pgsql:host=127.0.0.1;port={$db['port']};dbname=postgres;sslmode=require", 'pw_user', 'pw_secret');
            $row = $p->query('SELECT current_user, ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()')->fetch(PDO::FETCH_NUM);
            return implode(' ', pg_fetch_row($r)) . ' / ' . $row[0] . ' ' . var_export($row[1], true);
        });
    }
    foreach ($cs as $c) {
        echo 'TLS + SCRAM: ', await($c), "\n";
    }

    /* 5. PGSQL_CONNECT_ASYNC: pg_connect_poll() with stream_select() on pg_socket() */
    $l = pg_connect($db['conninfo'], PGSQL_CONNECT_FORCE_NEW | PGSQL_CONNECT_ASYNC);
    $polls = 0;
    while (($state = pg_connect_poll($l)) !== PGSQL_POLLING_OK && $state !== PGSQL_POLLING_FAILED && $polls < 1000) {
        $r = $w = [];
        ${$state === PGSQL_POLLING_READING ? 'r' : 'w'} = [pg_socket($l)];
        $e = null;
        stream_select($r, $w, $e, 5);
        $polls++;
    }
    echo 'async connect: ', $state === PGSQL_POLLING_OK ? 'ok' : 'failed', ', ', pg_fetch_result(pg_query($l, 'SELECT 7'), 0, 0), "\n";
}));
?>
--EXPECT--
pgsql: B ran while A resolved localhost
PDO: B ran while A resolved localhost
silent server: false, at connect_timeout, pg_connect(): Unable to connect to PostgreSQL server: connection to server at "127.0.0.1", port N failed: timeout expired, the ticker kept ticking
TLS handshake stalled (pgsql): Async\AsyncCancellation, at once, warnings 0, the ticker ran meanwhile
TLS handshake stalled (PDO): Async\AsyncCancellation <- PDOException, at once, warnings 0, the ticker ran meanwhile
TLS + SCRAM: pw_user t / pw_user true
TLS + SCRAM: pw_user t / pw_user true
TLS + SCRAM: pw_user t / pw_user true
TLS + SCRAM: pw_user t / pw_user true
async connect: ok, 7
