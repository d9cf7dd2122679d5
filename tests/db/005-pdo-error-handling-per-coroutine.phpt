--TEST--
PDO's constructor switches warnings to exceptions while it connects; other coroutines running meanwhile keep plain warnings
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
require __DIR__ . '/../inc/servers.inc';
use function Async\{spawn, await};

$db = servers_start_mariadb();
$dsn = "mysql:host=127.0.0.1;port={$db['port']}";

function warning_of(callable $f): string {
    set_error_handler(function ($no, $msg) use (&$seen) { $seen = "warning: $msg"; return true; });
    try {
        $f();
    } catch (Throwable $e) {
        $seen = get_class($e) . ': ' . $e->getMessage();
    } finally {
        restore_error_handler();
    }
    return $seen ?? 'nothing';
}

$log = [];
$connectors = [];
for ($i = 0; $i < 3; $i++) {
    // Each suspends inside new PDO() (in the connect), with PHP's error mode set to "throw".
    $connectors[] = spawn(function () use ($dsn, &$log, $i) {
        $log[] = "connect $i";
        $pdo = new PDO($dsn, 'root', '');
        $log[] = "connected $i";
        return (int) $pdo->query("SELECT $i")->fetchColumn();
    });
}
$bystander = spawn(function () use (&$log) {
    $log[] = 'bystander';
    return warning_of(fn() => file_get_contents('/nonexistent/file'));
});
echo await($bystander), "\n";
foreach ($connectors as $i => $c) {
    var_dump(await($c) === $i);
}
echo implode(', ', array_slice($log, 0, 4)), "\n";

// Afterwards the main flow has PHP's normal mode too.
echo warning_of(fn() => file_get_contents('/nonexistent/again')), "\n";
// A failing connect still throws PDOException in its own coroutine.
echo await(spawn(fn() => warning_of(fn() => new PDO('mysql:host=127.0.0.1;port=1', 'root', '')))), "\n";
?>
--EXPECTF--
warning: file_get_contents(/nonexistent/file): Failed to open stream: No such file or directory
bool(true)
bool(true)
bool(true)
connect 0, connect 1, connect 2, bystander
warning: file_get_contents(/nonexistent/again): Failed to open stream: No such file or directory
PDOException: SQLSTATE[HY000] [2002] Connection refused
