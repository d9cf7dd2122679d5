--TEST--
In a destructor (PHP 8.2 cannot switch there) the exec family and proc_close() are PHP's own and still right; processes started before the scheduler are waited for inside coroutines and the other way round; shutdown functions too
--INI--
async.debug_deadlock=0
--FILE--
<?php
use function Async\{spawn, await, delay};

class RunsOnDestruct
{
    public function __destruct()
    {
        echo "destructor: ", json_encode([
            shell_exec('echo d'),
            exec('printf "a\nb"; exit 2', $out, $code), $out, $code,
            proc_close(proc_open('exit 4', [], $pipes)),
            pclose(popen('exit 5', 'r')),
        ]), "\n";
    }
}

/* started before the scheduler exists, closed in a coroutine */
$early = proc_open('sleep 0.1; exit 3', [], $pipes);
$earlyPopen = popen('sleep 0.1; exit 6', 'r');
echo "early: ", json_encode(await(spawn(fn() => [proc_close($early), pclose($earlyPopen)]))), "\n";

/* started in a coroutine, closed by main after it ended */
[$late, $latePopen] = await(spawn(fn() => [proc_open('exit 7', [], $p), popen('exit 8', 'r')]));
echo "late: ", json_encode([proc_close($late), pclose($latePopen)]), "\n";

await(spawn(function () {
    $o = new RunsOnDestruct();
    unset($o); // destructor inside a coroutine
}));

register_shutdown_function(function () {
    echo "shutdown: ", json_encode([trim(shell_exec('echo s')), pclose(popen('exit 9', 'r'))]), "\n";
});
?>
--EXPECT--
early: [3,6]
late: [7,8]
destructor: ["d\n","b",["a","b"],2,4,5]
shutdown: ["s",9]
