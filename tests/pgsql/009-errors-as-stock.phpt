--TEST--
Errors keep PHP's own messages in a coroutine: a syntax error (pg_query()'s warning, PDOException), a refused connection, a failed password, an unknown host, a backend terminated between queries and during one
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
use function Async\{spawn, await, delay};

$db = servers_start_postgres();
$refused = servers_free_port();
$kill = function (string $appName) use ($db) {
    $k = pg_connect($db['conninfo'], PGSQL_CONNECT_FORCE_NEW);
    pg_query_params($k, 'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [$appName]);
};

/* Each scenario prints what PHP says; run outside coroutines, then in one: the same words. */
$scenarios = [
    'syntax error (pgsql)' => function () use ($db) {
        $l = pg_connect($db['conninfo'], PGSQL_CONNECT_FORCE_NEW);
        var_dump(pg_query($l, 'SELEC 1'));
        echo pg_last_error($l), "\n";
    },
    'syntax error (PDO)' => function () use ($db) {
        $p = new PDO($db['dsn'], 'postgres', '', [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION]);
        $p->query('SELEC 1');
    },
    'refused (pgsql)' => fn () => var_dump(pg_connect("host=127.0.0.1 port=$refused", PGSQL_CONNECT_FORCE_NEW)),
    'refused (PDO)' => fn () => new PDO("pgsql:host=127.0.0.1;port=$refused", 'postgres', ''),
    'wrong password (pgsql)' => fn () => var_dump(pg_connect("host=127.0.0.1 port={$db['port']} dbname=postgres user=pw_user password=wrong", PGSQL_CONNECT_FORCE_NEW)),
    'wrong password (PDO)' => fn () => new PDO("pgsql:host=127.0.0.1;port={$db['port']};dbname=postgres", 'pw_user', 'wrong'),
    'unknown host (pgsql)' => fn () => var_dump(pg_connect("host=no-such-host.invalid port={$db['port']}", PGSQL_CONNECT_FORCE_NEW)),
    'terminated between queries (pgsql)' => function () use ($db, $kill) {
        $l = pg_connect($db['conninfo'] . ' application_name=victim1', PGSQL_CONNECT_FORCE_NEW);
        $kill('victim1');
        var_dump(pg_query($l, 'SELECT 1'));
        var_dump(pg_connection_status($l) === PGSQL_CONNECTION_BAD);
    },
    'terminated between queries (PDO)' => function () use ($db, $kill) {
        $p = new PDO($db['dsn'] . ';application_name=victim2', 'postgres', '', [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION]);
        $kill('victim2');
        $p->query('SELECT 1');
    },
];
$during = [
    'terminated during a query (pgsql)' => function () use ($db, $kill) {
        $l = pg_connect($db['conninfo'] . ' application_name=victim3', PGSQL_CONNECT_FORCE_NEW);
        spawn(fn () => [delay(100), $kill('victim3')]);
        var_dump(pg_query($l, 'SELECT pg_sleep(30)'));
    },
    'terminated during a query (PDO)' => function () use ($db, $kill) {
        $p = new PDO($db['dsn'] . ';application_name=victim4', 'postgres', '', [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION]);
        spawn(fn () => [delay(100), $kill('victim4')]);
        $p->query('SELECT pg_sleep(30)');
    },
];

function run(callable $f): string
{
    ob_start();
    set_error_handler(function ($no, $msg) {
        echo "warning: $msg\n";
        return true;
    });
    try {
        $f();
    } catch (Throwable $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
    restore_error_handler();
    /* the server's port is random: the words are the point */
    return preg_replace('/port \d+/', 'port N', ob_get_clean());
}

$stock = [];
foreach ($scenarios as $name => $f) {
    $stock[$name] = run($f);
}
await(spawn(function () use ($scenarios, $during, $stock) {
    foreach ($scenarios as $name => $f) {
        $mine = run($f);
        echo "== $name: ", $mine === $stock[$name] ? "as stock\n" : "differs from stock:\n{$stock[$name]}--\n", $mine;
    }
    foreach ($during as $name => $f) {
        echo "== $name\n", run($f);
    }
}));
?>
--EXPECTF--
== syntax error (pgsql): as stock
warning: pg_query(): Query failed: ERROR:  syntax error at or near "SELEC"
LINE 1: SELEC 1
        ^
bool(false)
ERROR:  syntax error at or near "SELEC"
LINE 1: SELEC 1
        ^
== syntax error (PDO): as stock
PDOException: SQLSTATE[42601]: Syntax error: 7 ERROR:  syntax error at or near "SELEC"
LINE 1: SELEC 1
        ^
== refused (pgsql): as stock
warning: pg_connect(): Unable to connect to PostgreSQL server: connection to server at "127.0.0.1", port N failed: Connection refused
	Is the server running on that host and accepting TCP/IP connections?
bool(false)
== refused (PDO): as stock
PDOException: SQLSTATE[08006] [7] connection to server at "127.0.0.1", port N failed: Connection refused
	Is the server running on that host and accepting TCP/IP connections?
== wrong password (pgsql): as stock
warning: pg_connect(): Unable to connect to PostgreSQL server: connection to server at "127.0.0.1", port N failed: FATAL:  password authentication failed for user "pw_user"
bool(false)
== wrong password (PDO): as stock
PDOException: SQLSTATE[08006] [7] connection to server at "127.0.0.1", port N failed: FATAL:  password authentication failed for user "pw_user"
== unknown host (pgsql): as stock
warning: pg_connect(): Unable to connect to PostgreSQL server: could not translate host name "no-such-host.invalid" to address: %s
bool(false)
== terminated between queries (pgsql): as stock
warning: pg_query(): Query failed: FATAL:  terminating connection due to administrator command
server closed the connection unexpectedly
	This probably means the server terminated abnormally
	before or while processing the request.
bool(false)
bool(true)
== terminated between queries (PDO): as stock
PDOException: SQLSTATE[HY000]: General error: 7 FATAL:  terminating connection due to administrator command
server closed the connection unexpectedly
	This probably means the server terminated abnormally
	before or while processing the request.
== terminated during a query (pgsql)
warning: pg_query(): Query failed: FATAL:  terminating connection due to administrator command
server closed the connection unexpectedly
	This probably means the server terminated abnormally
	before or while processing the request.
bool(false)
== terminated during a query (PDO)
PDOException: SQLSTATE[HY000]: General error: 7 FATAL:  terminating connection due to administrator command
server closed the connection unexpectedly
	This probably means the server terminated abnormally
	before or while processing the request.
