--TEST--
system() and passthru() print through PHP's output layer into the calling coroutine's own output buffers, in order, while the two commands overlap
--INI--
async.debug_deadlock=0
--FILE--
<?php
require __DIR__ . '/../inc/bounds.inc';
use function Async\{spawn, await_all};

$log = [];
$t0 = hrtime(true);
$tasks = [
    'sys' => spawn(function () use (&$log) {
        ob_start();
        echo "s1\n";
        $log[] = 'sys runs';
        $last = system("echo s2; sleep 0.3; echo s3", $code);
        echo "s4\n";
        $log[] = 'sys done';
        return [ob_get_clean(), $last, $code];
    }),
    'pass' => spawn(function () use (&$log) {
        ob_start(fn($chunk) => strtoupper($chunk));
        echo "p1\n";
        $log[] = 'pass runs';
        passthru("printf 'p2\\n'; sleep 0.3; printf 'p3\\n'; exit 4", $code);
        echo "p4\n";
        $log[] = 'pass done';
        ob_end_flush(); // through its callback, into main's buffer below
        return $code;
    }),
];
ob_start();
[$results, $errors] = await_all($tasks);
$main = ob_get_clean();
$elapsed = ms_since($t0);

var_dump($results, $errors, $main);
/* both commands started before either finished (which one finishes first is the kernel's call) */
$started = array_slice($log, 0, 2);
$finished = array_slice($log, 2);
sort($finished);
echo implode(', ', $started), ' / ', implode(', ', $finished), "\n";
echo $elapsed < 2 * 300 * slow_factor() ? "overlapped\n" : "serial: $elapsed ms\n";
?>
--EXPECT--
array(2) {
  ["sys"]=>
  array(3) {
    [0]=>
    string(12) "s1
s2
s3
s4
"
    [1]=>
    string(2) "s3"
    [2]=>
    int(0)
  }
  ["pass"]=>
  int(4)
}
array(0) {
}
string(12) "P1
P2
P3
P4
"
sys runs, pass runs / pass done, sys done
overlapped
