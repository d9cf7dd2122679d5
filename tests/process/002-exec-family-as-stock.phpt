--TEST--
exec(), system(), passthru(), shell_exec() inside a coroutine give what stock PHP gives outside one: return values, $output (appended to), $result_code, printed output, signals, long and binary lines, errors
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await};

$long = str_repeat('x', 5000);
$commands = [
    "printf 'a\\nb  \\n\\nc  '",
    "printf 'one\\ntwo\\n'; exit 3",
    "exit 0",
    "printf ''",
    "printf '   \\n\\n'",
    "printf '%s'" . " $long",
    "printf '%s\\n%s\\n' $long $long",
    "printf 'bin\\000ary\\r\\nend'",
    "echo before; kill -9 \$\$",
    "nonexistent-command-for-test 2>/dev/null",
    "head -c 100000 /dev/zero | tr '\\0' 'y'; echo",
    "echo out; echo err >&2",
];

function run_all(array $commands): array
{
    $r = [];
    foreach ($commands as $i => $cmd) {
        $code = 'unset';
        ob_start();
        $ret = exec($cmd, result_code: $code);
        $r[$i]['exec'] = [$ret, $code, ob_get_clean()];

        $out = ['kept'];
        $code = 'unset';
        ob_start();
        $ret = exec($cmd, $out, $code);
        $r[$i]['exec_array'] = [$ret, $out, $code, ob_get_clean()];

        $code = 'unset';
        ob_start();
        $ret = system($cmd, $code);
        $r[$i]['system'] = [$ret, $code, ob_get_clean()];

        $code = 'unset';
        ob_start();
        $ret = passthru($cmd, $code);
        $r[$i]['passthru'] = [$ret, $code, ob_get_clean()];

        ob_start();
        $ret = shell_exec($cmd);
        $r[$i]['shell_exec'] = [$ret, ob_get_clean()];
    }
    foreach (['', "a\0b"] as $bad) {
        foreach (['exec', 'system', 'passthru', 'shell_exec'] as $fn) {
            try {
                $fn($bad);
                $r['bad'][] = "$fn: no error";
            } catch (Throwable $e) {
                $r['bad'][] = get_class($e) . ': ' . $e->getMessage();
            }
        }
    }
    return $r;
}

/* stderr is inherited, in both: the ten "err" lines (5 functions, twice) reach the test's stderr */
$stock = run_all($commands);                       // before the scheduler exists: PHP's own
$inside = await(spawn(fn() => run_all($commands))); // in a coroutine: the hooks

foreach ($stock as $i => $cases) {
    foreach ($cases as $fn => $case) {
        if ($inside[$i][$fn] !== $case) {
            echo "DIFFERENT $i $fn\n";
            var_dump($case, $inside[$i][$fn]);
        }
    }
}
echo count($stock, COUNT_RECURSIVE) === count($inside, COUNT_RECURSIVE) ? "same shape\n" : "different shape\n";
/* a few of the values, to be sure the comparison compares something */
var_dump($inside[0]['exec_array'], $inside[1]['system'], $inside[8]['passthru'][1], $inside[9]['exec'][1]);
echo strlen($inside[10]['shell_exec'][0]), "\n";
echo implode("\n", $inside['bad']), "\n";
?>
--EXPECTF--
err
err
err
err
err
err
err
err
err
err
same shape
array(4) {
  [0]=>
  string(1) "c"
  [1]=>
  array(5) {
    [0]=>
    string(4) "kept"
    [1]=>
    string(1) "a"
    [2]=>
    string(1) "b"
    [3]=>
    string(0) ""
    [4]=>
    string(1) "c"
  }
  [2]=>
  int(0)
  [3]=>
  string(0) ""
}
array(3) {
  [0]=>
  string(3) "two"
  [1]=>
  int(3)
  [2]=>
  string(8) "one
two
"
}
int(9)
int(127)
100001
ValueError: exec(): Argument #1 ($command) %r(cannot|must not)%r be empty
ValueError: system(): Argument #1 ($command) %r(cannot|must not)%r be empty
ValueError: passthru(): Argument #1 ($command) %r(cannot|must not)%r be empty
ValueError: shell_exec(): Argument #1 ($command) %r(cannot|must not)%r be empty
ValueError: exec(): Argument #1 ($command) must not contain any null bytes
ValueError: system(): Argument #1 ($command) must not contain any null bytes
ValueError: passthru(): Argument #1 ($command) must not contain any null bytes
ValueError: shell_exec(): Argument #1 ($command) must not contain any null bytes
