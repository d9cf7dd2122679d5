--TEST--
await_*: a TaskGroup is a trigger like any Awaitable: it settles with its results array when complete, and replays once complete
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Async\TaskGroup;
use function Async\{await_all, await_any_or_fail, await_first_success, spawn, delay, timeout};

$group = new TaskGroup();
$group->spawnWithKey('x', function () { delay(5); return 'X'; });
$group->spawnWithKey('y', fn() => 'Y');
$group->close();
[$results, $errors] = await_all(['group' => $group, 'coroutine' => spawn(fn() => 'C')]);
echo json_encode($results), " ", json_encode($errors), "\n";

// Complete already: replayed.
echo json_encode(await_any_or_fail([$group])), "\n";

// A group that is never closed never completes: a timeout decides instead, and the group is not
// touched (still open, its task still done).
$open = new TaskGroup();
$open->spawn(fn() => 'task');
try { await_any_or_fail([$open, timeout(10)]); } catch (Async\TimeoutException $e) { echo "open group: ", describe($e), "\n"; }
$open->close();
echo json_encode(await_first_success([$open])[0]), "\n";
?>
--EXPECT--
{"group":{"x":"X","y":"Y"},"coroutine":"C"} []
{"x":"X","y":"Y"}
open group: Async\TimeoutException(Timeout occurred after 10 milliseconds)
["task"]
