--TEST--
mysqli: 8 coroutines each run SELECT SLEEP(0.2) on their own connection and finish together
--SKIPIF--
<?php
require __DIR__ . '/../inc/servers.inc';
$why = servers_skip_reason('mariadb', ['mysqli']);
if ($why !== '') die("skip $why");
?>
--EXTENSIONS--
mysqlnd
mysqli
--INI--
async.debug_deadlock=0
--FILE--
<?php
require __DIR__ . '/../inc/bounds.inc';
require __DIR__ . '/../inc/servers.inc';
use function Async\{spawn, await};

$db = servers_start_mariadb();
mysqli_report(MYSQLI_REPORT_ERROR | MYSQLI_REPORT_STRICT);
$n = 8;

$t0 = hrtime(true);
$cs = [];
for ($id = 1; $id <= $n; $id++) {
    $cs[$id] = spawn(function () use ($db, $id) {
        $link = new mysqli('127.0.0.1', 'root', '', '', $db['port']);
        $t = hrtime(true);
        $row = $link->query("SELECT SLEEP(0.2) AS s, $id AS id")->fetch_assoc();
        $link->close();
        return [$row, ms_since($t)];
    });
}
$ok = 0;
foreach ($cs as $id => $c) {
    [$row, $ms] = await($c);
    if ((int) $row['s'] === 0 && (int) $row['id'] === $id && $ms >= 195) {
        $ok++;
    } else {
        echo "coroutine $id: ", json_encode($row), " after $ms ms\n";
    }
}
$total = ms_since($t0);
echo "$ok of $n correct\n";
var_dump($total >= 195, $total < 600 * slow_factor());
if ($total >= 600 * slow_factor()) echo "took $total ms\n";

// An error from the server reaches the right coroutine as mysqli's own exception.
$c = spawn(function () use ($db) {
    $link = new mysqli('127.0.0.1', 'root', '', '', $db['port']);
    try {
        $link->query('SELECT * FROM no_such_db.no_such_table');
    } catch (mysqli_sql_exception $e) {
        return $e->getCode();
    }
});
var_dump(await($c));
?>
--EXPECT--
8 of 8 correct
bool(true)
bool(true)
int(1146)
