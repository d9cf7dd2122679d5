--TEST--
PDO pool (mysql): setAttribute() from a coroutine applies to its calls only: A sets ATTR_DEFAULT_FETCH_MODE and ATTR_CASE and sees them (also after getting the connection back), B using that same physical connection meanwhile (MAX 1) and C after A's end see the template's values; setAttribute() outside coroutines changes the template for every connection
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
require __DIR__ . '/pool.inc';
use function Async\{spawn, await, await_all_or_fail, timeout};

$db = pool_start_mariadb();
$pdo = pool_mysql($db, [PDO::ATTR_POOL_MAX => 1, PDO::ATTR_POOL_MIN => 1]);
// outside coroutines: the template's value, for every connection (the one made already too)
$pdo->setAttribute(PDO::ATTR_DEFAULT_FETCH_MODE, PDO::FETCH_ASSOC);

$modes = [PDO::FETCH_ASSOC => 'ASSOC', PDO::FETCH_NUM => 'NUM', PDO::FETCH_BOTH => 'BOTH'];
$cases = [PDO::CASE_NATURAL => 'NATURAL', PDO::CASE_UPPER => 'UPPER', PDO::CASE_LOWER => 'LOWER'];
$look = function (PDO $pdo) use ($modes, $cases) {
    $row = $pdo->query('SELECT 1 AS MixedCase, CONNECTION_ID() AS id')->fetch();
    $id = $row['id'] ?? $row['ID'] ?? $row[1];
    unset($row['id'], $row['ID'], $row[1]);
    return [$id, 'fetch ' . json_encode($row) . ', getAttribute ' . $modes[$pdo->getAttribute(PDO::ATTR_DEFAULT_FETCH_MODE)]
        . ' ' . $cases[$pdo->getAttribute(PDO::ATTR_CASE)]];
};
$toA = new Async\Channel(1);
$toB = new Async\Channel(1);
$log = [];
$ids = [];
$a = spawn(function () use ($pdo, $look, $toA, $toB, &$log, &$ids) {
    $pdo->setAttribute(PDO::ATTR_DEFAULT_FETCH_MODE, PDO::FETCH_NUM);
    $pdo->setAttribute(PDO::ATTR_CASE, PDO::CASE_UPPER);
    [$ids[], $s] = $look($pdo);
    $log[] = "A: $s";
    $log[] = 'A, ASSOC asked for: ' . json_encode($pdo->query('SELECT 1 AS MixedCase')->fetch(PDO::FETCH_ASSOC));
    $toB->send(1);
    $toA->recv();
    [$ids[], $s] = $look($pdo);
    $log[] = "A again: $s";
});
$b = spawn(function () use ($pdo, $look, $toA, $toB, &$log, &$ids) {
    $toB->recv();
    [$ids[], $s] = $look($pdo);
    $log[] = "B: $s";
    $log[] = 'B, ASSOC asked for: ' . json_encode($pdo->query('SELECT 1 AS MixedCase')->fetch(PDO::FETCH_ASSOC));
    $toA->send(1);
});
await_all_or_fail([$a, $b], timeout(5000));
[$ids[], $s] = await(spawn(fn () => $look($pdo)));
$log[] = "C, after A's end: $s";
echo implode("\n", $log), "\n";
echo 'one physical connection: ', count(array_unique($ids)), ', pool ', count($pdo->getPool()), "\n";
?>
--EXPECT--
A: fetch [1], getAttribute NUM UPPER
A, ASSOC asked for: {"MIXEDCASE":1}
B: fetch {"MixedCase":1}, getAttribute ASSOC NATURAL
B, ASSOC asked for: {"MixedCase":1}
A again: fetch [1], getAttribute NUM UPPER
C, after A's end: fetch {"MixedCase":1}, getAttribute ASSOC NATURAL
one physical connection: 1, pool 1
