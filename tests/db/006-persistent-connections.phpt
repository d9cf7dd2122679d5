--TEST--
Persistent connections suspend like the others: pfsockopen(), PDO::ATTR_PERSISTENT, mysqli "p:" hosts and mysqli_init() + real_connect() run SELECT SLEEP(0.3) side by side while another coroutine keeps ticking; two coroutines on one persistent connection get a clear error, never a corrupted answer
--SKIPIF--
<?php
require __DIR__ . '/../inc/servers.inc';
$why = servers_skip_reason('mariadb', ['pdo_mysql', 'mysqli']);
if ($why !== '') die("skip $why");
?>
--EXTENSIONS--
mysqlnd
pdo
pdo_mysql
mysqli
--INI--
async.debug_deadlock=0
--FILE--
<?php
require __DIR__ . '/../inc/bounds.inc';
require __DIR__ . '/../inc/servers.inc';
use function Async\{spawn, await, delay};

$db = servers_start_mariadb();
$port = $db['port'];
$dsn = "mysql:host=127.0.0.1;port=$port";

/* Runs $jobs side by side with a ticker: the ticker only ticks if nothing blocks the process. */
function together(array $jobs): array
{
    $done = false;
    $ticks = 0;
    $ticker = spawn(function () use (&$done, &$ticks) {
        while (!$done) { $ticks++; delay(10); }
    });
    $cs = array_map(fn($job) => spawn($job), $jobs);
    $results = array_map(fn($c) => await($c), $cs);
    $done = true;
    await($ticker);
    return [$results, $ticks];
}

// Distinct user names: each is a persistent connection of its own (PDO and mysqli key them so).
[$r, $ticks] = together([
    function () use ($dsn) {
        $pdo = new PDO($dsn, 'u1', '', [PDO::ATTR_PERSISTENT => true, PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION]);
        return 'pdo persistent: ' . $pdo->query('SELECT SLEEP(0.3), 1')->fetch(PDO::FETCH_NUM)[1];
    },
    function () use ($port) {
        $m = new mysqli('p:127.0.0.1', 'u2', '', '', $port);
        return 'mysqli p: ' . $m->query('SELECT SLEEP(0.3), 2')->fetch_row()[1];
    },
    function () use ($port) {
        $m = mysqli_init();
        $m->real_connect('127.0.0.1', 'u3', '', '', $port);
        return 'mysqli_init: ' . $m->query('SELECT SLEEP(0.3), 3')->fetch_row()[1];
    },
    function () use ($port) {
        $s = pfsockopen('127.0.0.1', $port, $errno, $errstr, 5);
        stream_set_timeout($s, 5);
        $greeting = fread($s, 4); // the server speaks first: its handshake packet
        return 'pfsockopen: ' . (strlen($greeting) === 4 ? 'read' : 'nothing');
    },
]);
echo implode("\n", $r), "\n";
echo 'ticker ticked while they waited: ', var_export($ticks >= 10, true), "\n";

// One persistent connection, two coroutines at once: the second is told, the first is right.
$shared = new PDO($dsn, 'u9', '', [PDO::ATTR_PERSISTENT => true, PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION]);
$a = spawn(fn() => $shared->query('SELECT SLEEP(0.2), 7')->fetch(PDO::FETCH_NUM)[1]);
$b = spawn(function () use ($shared) {
    delay(50); // the first query is on the wire
    try {
        return 'b: ' . $shared->query('SELECT 8')->fetchColumn();
    } catch (PDOException $e) {
        return 'b refused: ' . (str_contains($e->getMessage(), 'out of sync') || str_contains($e->getMessage(), 'active') ? 'clear error' : $e->getMessage());
    }
});
echo 'a: ', await($a), "\n", await($b), "\n";
echo 'after: ', $shared->query('SELECT 6 * 7')->fetchColumn(), "\n";
?>
--EXPECT--
pdo persistent: 1
mysqli p: 2
mysqli_init: 3
pfsockopen: read
ticker ticked while they waited: true
a: 7
b refused: clear error
after: 42
