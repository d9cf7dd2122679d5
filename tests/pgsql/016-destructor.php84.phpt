--TEST--
In a destructor on PHP 8.4+ (switching is allowed there) a query suspends only its coroutine, and on a connection another coroutine waits inside it waits for its turn
--SKIPIF--
<?php
require __DIR__ . '/../inc/servers.inc';
$why = servers_skip_reason('postgres', ['pgsql']);
if ($why !== '') die("skip $why");
if (PHP_VERSION_ID < 80400) die('skip PHP 8.4+ behaviour (see .php82.phpt)');
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
    public function __construct(private $link, private string $sql) {}
    public function __destruct()
    {
        $r = pg_query($this->link, $this->sql);
        echo 'destructor: ', pg_fetch_result($r, 0, 0), "\n";
    }
}

await(spawn(function () use ($db) {
    $l = pg_connect($db['conninfo'], PGSQL_CONNECT_FORCE_NEW);
    $ticker = new Ticker(1);
    delay(5);
    $t0 = hrtime(true);
    $q = new Query($l, "SELECT 'suspended: ' || pg_sleep(0.1)::text");
    unset($q);
    $t1 = hrtime(true);
    $ticker->stop();
    echo $ticker->worstGap($t0, $t1) < 20 * slow_factor() ? "the ticker kept ticking\n" : "the ticker was held\n";

    $shared = pg_connect($db['conninfo'], PGSQL_CONNECT_FORCE_NEW);
    $inside = spawn(fn () => pg_fetch_result(pg_query($shared, "SELECT pg_sleep(0.2), 'the call inside'"), 0, 1));
    delay(20);
    $q = new Query($shared, "SELECT 'after the call inside'");
    unset($q);
    echo await($inside), " finished first\n";
}));
?>
--EXPECT--
destructor: suspended: 
the ticker kept ticking
destructor: after the call inside
the call inside finished first
