--TEST--
A new coroutine starts with the error_reporting setting in force when it starts (as a Fiber does), not a "@" around the spawn: every ini_set() is seen, values of any length, also when a value comes back or a freed setting's memory is reused
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
error_reporting=22527
--FILE--
<?php
use function Async\{spawn, await};

$level = static fn (): int => error_reporting();
echo 'ini: ', await(spawn($level)), "\n";

// Alternating settings, each a new string in the INI entry: no stale value is ever reused.
$seen = [];
foreach ([E_ALL, E_ALL & ~E_NOTICE, E_ALL, 0, 1, E_ALL & ~E_DEPRECATED, 22527, E_ALL] as $i => $want) {
    ini_set('error_reporting', (string) $want);
    $got = await(spawn($level));
    $seen[] = $got === $want ? 'ok' : "want $want got $got";
}
echo implode(' ', $seen), "\n";

// The same digits in freshly made strings of the same length, and different ones of equal length.
$seen = [];
for ($i = 0; $i < 50; $i++) {
    $want = $i % 2 ? 30719 : 32767; // E_ALL & ~E_DEPRECATED-ish vs E_ALL: five digits each
    ini_set('error_reporting', str_pad((string) $want, 5, '0', STR_PAD_LEFT));
    $seen[await(spawn($level)) === $want ? 'ok' : 'bad']  = true;
}
echo 'same length: ', implode(',', array_keys($seen)), "\n";

// Other spellings the engine accepts: hex, octal, leading spaces, a long value.
$seen = [];
foreach (['0x7fff' => 0x7fff, '0777' => 0777, '  8' => 8, str_repeat('0', 30) . '5' => 5] as $text => $want) {
    ini_set('error_reporting', $text);
    $got = await(spawn($level));
    $seen[] = $got === $want ? 'ok' : "'$text': want $want got $got";
}
echo implode(' ', $seen), "\n";

// "@" at the spawn is not inherited; a coroutine started while the setting is 0 gets 0.
ini_set('error_reporting', (string) E_ALL);
$c = @spawn($level);
echo '@spawn: ', await($c) === E_ALL ? 'E_ALL' : 'other', "\n";
ini_set('error_reporting', '0');
$c = spawn(static function () { echo 'in 0: ', error_reporting(), "\n"; trigger_error('hidden', E_USER_WARNING); });
await($c);
ini_restore('error_reporting');
echo 'restored: ', await(spawn($level)), "\n";
trigger_error('shown', E_USER_WARNING);
?>
--EXPECTF--
ini: 22527
ok ok ok ok ok ok ok ok
same length: ok
ok ok ok ok
@spawn: E_ALL
in 0: 0
restored: 22527

Warning: shown in %s on line %d
