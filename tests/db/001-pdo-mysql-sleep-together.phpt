--TEST--
PDO (mysqlnd): 8 coroutines each run SELECT SLEEP(0.2) on their own connection and finish together
--SKIPIF--
<?php
require __DIR__ . '/../inc/servers.inc';
$why = servers_skip_reason('mariadb', ['pdo_mysql']);
if ($why !== '') die("skip $why");
?>
--EXTENSIONS--
mysqlnd
pdo
pdo_mysql
--INI--
async.debug_deadlock=0
--FILE--
<?php
require __DIR__ . '/../inc/bounds.inc';
require __DIR__ . '/../inc/servers.inc';
use function Async\{spawn, await};

$db = servers_start_mariadb();
$dsn = "mysql:host=127.0.0.1;port={$db['port']}";
$n = 8;

$t0 = hrtime(true);
$cs = [];
for ($id = 1; $id <= $n; $id++) {
    $cs[$id] = spawn(function () use ($dsn, $id) {
        $pdo = new PDO($dsn, 'root', '', [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION]);
        $t = hrtime(true);
        $row = $pdo->query("SELECT SLEEP(0.2) AS s, $id AS id")->fetch(PDO::FETCH_ASSOC);
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
// One after the other would take 8 x 200 ms = 1.6 s.
var_dump($total >= 195, $total < 600 * slow_factor());
if ($total >= 600 * slow_factor()) echo "took $total ms\n";

// The same connection type still works outside coroutines (stock behaviour after the loop).
$pdo = new PDO($dsn, 'root', '');
var_dump($pdo->query('SELECT 6 * 7')->fetchColumn());
?>
--EXPECT--
8 of 8 correct
bool(true)
bool(true)
int(42)
