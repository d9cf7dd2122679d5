--TEST--
pclose() and proc_close() wait for their child without blocking the process (a ticker ticks, two waits overlap); return values, pipes closed first, proc_get_status() and proc_terminate() as stock
--INI--
async.debug_deadlock=0
--FILE--
<?php
require __DIR__ . '/../inc/bounds.inc';
use function Async\{spawn, await, await_all, delay};

function cases(): array
{
    $r = [];
    $p = popen('printf hi; exit 3', 'r');
    $r['popen r'] = [fread($p, 10), pclose($p)];
    $p = popen('cat > /dev/null; exit 5', 'w');       // waits for EOF: pclose must end the pipe first
    fwrite($p, "data");
    $r['popen w'] = pclose($p);
    $p = popen('kill -9 $$', 'r');
    $r['popen killed'] = pclose($p);
    $pr = proc_open('exit 7', [], $pipes);
    $r['proc exit'] = proc_close($pr);
    $pr = proc_open(['cat'], [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['file', '/dev/null', 'w']], $pipes);
    fwrite($pipes[0], "abc");                          // cat waits for EOF: proc_close closes the pipes first (cat then fails writing: 1)
    $r['proc cat'] = [proc_close($pr), is_resource($pipes[0]), is_resource($pipes[1])];
    $pr = proc_open('sleep 5', [], $pipes);
    $st = proc_get_status($pr);
    $r['status running'] = [$st['running'], $st['exitcode'], $st['pid'] > 0];
    $r['terminate'] = proc_terminate($pr, 9);
    $r['proc killed'] = proc_close($pr);
    return $r;
}

$stock = cases();
$inside = await(spawn('cases'));
echo $stock === $inside ? "same as stock\n" : "DIFFERENT\n";
if ($stock !== $inside) { var_dump($stock, $inside); }
echo json_encode($inside), "\n";

$delay = 300;
$t0 = hrtime(true);
$ticks = 0;
$done = false;
$ticker = spawn(function () use (&$ticks, &$done) {
    while (!$done) { delay(10); $ticks++; }
});
[$results, $errors] = await_all([
    spawn(function () { $p = popen('sleep 0.3; exit 2', 'r'); return pclose($p); }),
    spawn(function () { $pr = proc_open('sleep 0.3; exit 6', [], $pipes); return proc_close($pr); }),
]);
$elapsed = ms_since($t0);
$done = true;
await($ticker);
echo json_encode([$results, $errors]), "\n";
echo $elapsed >= $delay - 1 ? "waited the delay\n" : "too fast: $elapsed ms\n";
echo $elapsed < 2 * $delay * slow_factor() ? "overlapped\n" : "serial: $elapsed ms\n";
echo $ticks >= 10 ? "ticker ran\n" : "ticker starved: $ticks ticks\n";
?>
--EXPECT--
same as stock
{"popen r":["hi",3],"popen w":5,"popen killed":9,"proc exit":7,"proc cat":[1,false,false],"status running":[true,-1,true],"terminate":true,"proc killed":9}
[[2,6],[]]
waited the delay
overlapped
ticker ran
