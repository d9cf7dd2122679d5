--TEST--
Scope: a cancel reaches children suspended in different waits, and every descendant scope
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use Async\Scope;
use function Async\{await, delay, suspend};

$root = new Scope();
$mid = Scope::inherit($root);
$leaf = Scope::inherit($mid);
$ch = new Async\Channel();
$fs = new Async\FutureState();
$log = [];
$waits = [
    $root->spawn(function () use (&$log) { try { delay(5000); } catch (Async\AsyncCancellation $e) { $log[] = "delay"; } }),
    $mid->spawn(function () use (&$log, $ch) { try { $ch->recv(); } catch (Async\AsyncCancellation $e) { $log[] = "channel"; } }),
    $leaf->spawn(function () use (&$log, $fs) { try { await(new Async\Future($fs)); } catch (Async\AsyncCancellation $e) { $log[] = "future"; } }),
    $leaf->spawn(function () use (&$log) { try { sleep(5); } catch (Async\AsyncCancellation $e) { $log[] = "sleep"; } }),
];
$notStarted = $leaf->spawn(function () use (&$log) { $log[] = "never"; });
delay(1);
$queued = $leaf->spawn(function () use (&$log) { $log[] = "queued never runs"; });
$root->cancel();
foreach ($waits as $w) { await($w); }
try { await($queued); } catch (Async\AsyncCancellation $e) { echo "queued: ", $e->getMessage(), "\n"; }
sort($log);
echo implode(",", $log), "\n";
var_dump($mid->isCancelled(), $leaf->isCancelled(), $root->isFinished(), $leaf->isFinished());
$fs->ignore();
?>
--EXPECT--
queued: Scope was cancelled
channel,delay,future,never,sleep
bool(true)
bool(true)
bool(true)
bool(true)
