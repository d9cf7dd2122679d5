--TEST--
In a destructor on PHP 8.2/8.3 (switching is impossible there) a query blocks the process, as stock; on a connection another coroutine waits inside, it is refused with an Error instead, and pg_close() is deferred until that coroutine's call returns
--SKIPIF--
<?php
require __DIR__ . '/../inc/servers.inc';
$why = servers_skip_reason('postgres', ['pgsql']);
if ($why !== '') die("skip $why");
if (PHP_VERSION_ID >= 80400) die('skip PHP < 8.4 behaviour (see .php84.phpt)');
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

class Query
{
    public function __construct(private $link, private string $sql, private ?Closure $then = null) {}
    public function __destruct()
    {
        try {
            $r = pg_query($this->link, $this->sql);
            echo 'destructor: ', pg_fetch_result($r, 0, 0), "\n";
        } catch (Error $e) {
            echo 'destructor: ', get_class($e), ': ', $e->getMessage(), "\n";
        }
        if ($this->then) {
            ($this->then)();
        }
    }
}

await(spawn(function () use ($db) {
    /* its own connection: the query blocks the process (the ticker is held) */
    $l = pg_connect($db['conninfo'], PGSQL_CONNECT_FORCE_NEW);
    $ticker = new Ticker(1);
    delay(5);
    $t0 = hrtime(true);
    $q = new Query($l, "SELECT 'blocked: ' || pg_sleep(0.1)::text");
    unset($q);
    $t1 = hrtime(true);
    $ticker->stop();
    echo $ticker->worstGap($t0, $t1) >= 95 ? "the ticker was held, as stock\n" : "the ticker ran\n";

    /* a connection another coroutine waits inside */
    $shared = pg_connect($db['conninfo'], PGSQL_CONNECT_FORCE_NEW);
    $inside = spawn(fn () => pg_fetch_result(pg_query($shared, "SELECT pg_sleep(0.2), 'the call inside'"), 0, 1));
    delay(20);
    $q = new Query($shared, 'SELECT 1', function () use ($shared) {
        pg_close($shared);
        echo "destructor: pg_close() returned\n";
    });
    unset($q);
    echo await($inside), " finished\n";
    try {
        pg_query($shared, 'SELECT 1');
    } catch (Error $e) {
        echo 'afterwards: ', $e->getMessage(), "\n";
    }
    echo 'sessions left: ', pg_running($db, 'the call inside'), "\n";
}));
?>
--EXPECT--
destructor: blocked: 
the ticker was held, as stock
destructor: Error: Cannot use a PostgreSQL connection while another coroutine waits inside it: switching to that coroutine is impossible here
destructor: pg_close() returned
the call inside finished
afterwards: PostgreSQL connection has already been closed
sessions left: 0
