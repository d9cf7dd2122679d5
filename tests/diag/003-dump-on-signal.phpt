--TEST--
async.dump_on_signal: the signal prints every coroutine with its state, what it waits for and its trace, through PHP's error channel, whether the loop waits in the reactor or a coroutine is busy; the process keeps running
--SKIPIF--
<?php
if (!extension_loaded('async')) die('skip async not loaded');
if (!is_executable('/bin/kill')) die('skip no /bin/kill');
?>
--INI--
pcre.jit=0
async.dump_on_signal=SIGUSR1
--FILE--
<?php
use function Async\{spawn, await, delay};

$dumps = [];
set_error_handler(function (int $no, string $msg) use (&$dumps) {
    $dumps[] = $msg;
    return true;
});
$ch = new Async\Channel();
$sleeper = spawn(function () { delay(60000); });
$reader = spawn(function () use ($ch) { return $ch->recv(); });
/* exec() suspends the killer: the loop is in the reactor (the killer's own entry shows its exec() or its delay()) */
$killer = spawn(function () use (&$dumps) { exec('/bin/kill -USR1 ' . getmypid()); while (!$dumps) { delay(1); } return 'killer done'; });
var_dump(await($killer));
// the killer waits for the dump: the trigger's callback may come a loop turn after kill's exit
foreach ($dumps as $d) {
    echo preg_replace('/ \((Closure::__invoke|\{closure:F:\d+\})\)|Coroutine \d+/', '', str_replace(__FILE__, 'F', $d)), "\n--\n";
}

/* a coroutine busy in PHP code when the signal comes: it is shown running, where it is */
$dumps = [];
$busy = spawn(function () use (&$dumps) {
    $end = hrtime(true) + 60e9; // a bound only: valgrind may hold the watcher thread back for seconds
    $kill = proc_open(['/bin/kill', '-USR1', (string) getmypid()], [], $pipes); // starts it, no wait
    while (!$dumps && hrtime(true) < $end) { } // line 25
    proc_close($kill);
    return count($dumps);
});
var_dump(await($busy) > 0);
foreach ($dumps as $d) {
    if (str_contains($d, 'running')) {
        echo preg_replace('/Coroutine \d+/', 'Coroutine', str_replace(__FILE__, 'F', $d)), "\n";
    }
}
$ch->send('bye');
var_dump(await($reader));
$sleeper->cancel();
echo "still running\n";
/* What the engine decides, not the runtime: a closure is named Closure::__invoke, or
 * {closure:FILE:LINE} from PHP 8.5. The signal may be taken as the killer's exec() returns (the
 * killer is then running, and nobody waits in the reactor), and the busy coroutine's as its
 * proc_open() returns or in its loop; from PHP 8.4 a trace starts with the internal function the
 * signal was taken in. */
?>
--EXPECTF--
string(11) "killer done"
Coroutine dump on signal 10: 4 coroutines
--
Main coroutine spawned at F:10, suspended at F:14 (internal): waits for  spawned at F:13%r(, suspended at F:13)?%r
#0 F(14): Async\await(Object(Async\Coroutine))
#1 {main}
--
 spawned at F:10, suspended at F:10: waits for Timer(60000 ms)
#0 F(10): Async\delay(60000)
#1 [internal function]: {closure%S}()
#2 {main}
--
 spawned at F:11, suspended at F:11: waits for Channel(capacity=0, receivers=1, senders=0, buffered=0)
#0 F(11): Async\Channel->recv()
#1 [internal function]: {closure%S}()
#2 {main}
--
 spawned at F:13%r(, suspended at F:13)?%r: %a
--
bool(true)
Coroutine spawned at F:22 (%r(Closure::__invoke|\{closure:F:22\})%r): running at %r(F:2[45]\n#0|F:24\n#0 F\(24\): proc_open\(Array, Array, Array\)\n#1|F:25\n#0 F\(25\): hrtime\(true\)\n#1)%r [internal function]: {closure%S}()
#%r[12]%r {main}
string(3) "bye"
still running
