--TEST--
Opening a FIFO in a coroutine waits for the peer without blocking the others: reader first, writer first, more readers than pool threads, cancellation, file_get_contents/file_put_contents, stock outside
--SKIPIF--
<?php
if (!extension_loaded('async')) die('skip async not loaded');
if (!is_executable('/usr/bin/mkfifo')) die('skip no mkfifo');
?>
--FILE--
<?php
use function Async\{spawn, await, await_all, delay};

$dir = sys_get_temp_dir() . '/async-fifo-' . getmypid();
@mkdir($dir);
function fifo(string $dir, string $name): string
{
    $path = "$dir/$name";
    exec('/usr/bin/mkfifo -m 600 ' . escapeshellarg($path), $out, $rc);
    if ($rc !== 0) {
        throw new Error("mkfifo $path: $rc");
    }
    return $path;
}
/* descriptors of this process open on $path */
function fds(string $path): int
{
    $n = 0;
    foreach (scandir('/proc/self/fd') as $fd) {
        $n += @readlink("/proc/self/fd/$fd") === $path ? 1 : 0;
    }
    return $n;
}

$ticks = 0;
$done = false;
$ticker = spawn(function () use (&$ticks, &$done) {
    while (!$done) {
        delay(1);
        $ticks++;
    }
});

echo "-- reader first\n";
$f = fifo($dir, 'a');
$log = [];
$reader = spawn(function () use ($f, &$log, &$ticks) {
    $log[] = 'reader opens';
    $at = $ticks;
    $h = fopen($f, 'r');
    $log[] = 'reader opened';
    $meta = stream_get_meta_data($h);
    $log[] = "$meta[wrapper_type] $meta[stream_type] $meta[mode] " . ($meta['uri'] === $f ? 'uri' : $meta['uri']);
    $data = stream_get_contents($h);
    fclose($h);
    return [$data, $ticks - $at];
});
$writer = spawn(function () use ($f, &$log, &$ticks) {
    $start = $ticks;
    while ($ticks < $start + 5) {
        delay(1);
    }
    $log[] = 'writer opens';
    $h = fopen($f, 'w');
    $log[] = 'writer opened';
    fwrite($h, "hello\n");
    fclose($h);
});
[$data, $waited] = await($reader);
await($writer);
echo implode("\n", $log), "\n";
var_dump($data, $waited >= 5);

echo "-- writer first\n";
$f = fifo($dir, 'b');
$writer = spawn(function () use ($f, &$ticks) {
    $at = $ticks;
    $n = file_put_contents($f, 'via file_put_contents');
    return [$n, $ticks - $at];
});
$reader = spawn(function () use ($f, &$ticks) {
    $start = $ticks;
    while ($ticks < $start + 5) {
        delay(1);
    }
    return file_get_contents($f);
});
[$n, $waited] = await($writer);
var_dump($n, $waited >= 5, await($reader));

echo "-- more readers than pool threads\n";
$paths = [];
for ($i = 0; $i < 8; $i++) {
    $paths[] = fifo($dir, "many$i");
}
$readers = [];
foreach ($paths as $i => $p) {
    $readers[] = spawn(fn() => trim(file_get_contents($p)));
}
delay(5);
$writers = [];
foreach (array_reverse($paths, true) as $i => $p) {
    $writers[] = spawn(function () use ($p, $i) {
        $h = fopen($p, 'w');
        fwrite($h, "r$i\n");
        fclose($h);
    });
}
echo implode(' ', await_all($readers)[0]), "\n";
await_all($writers);

echo "-- cancelling waiting opens\n";
$f = fifo($dir, 'c');
foreach (['r', 'w', 'rb', 'a'] as $mode) {
    $co = spawn(function () use ($f, $mode) {
        $h = @fopen($f, $mode);
        echo "not reached: ", var_export($h, true), ' ', error_get_last()['message'] ?? '', "\n";
    });
    delay(3);
    $co->cancel();
    try {
        await($co);
    } catch (Async\AsyncCancellation $e) {
        echo "$mode: cancelled\n";
    }
    /* a reader's open was running on a pool thread: it returns, and closes what it opened, soon */
    for ($i = 0; $i < 2000 && fds($f) !== 0; $i++) {
        delay(1);
    }
    var_dump(fds($f));
}
/* nothing of the cancelled opens is left: a writer still finds no reader */
$h = @fopen($f, 'wn');
var_dump($h);
/* and the FIFO still works */
$r = spawn(fn() => file_get_contents($f));
$w = spawn(fn() => file_put_contents($f, 'after'));
var_dump(await($r), await($w));

echo "-- other opens are PHP's\n";
await(spawn(function () use ($f, $dir) {
    $h = fopen($f, 'r+'); /* read-write: never blocks */
    fwrite($h, 'rw');
    var_dump(fread($h, 2));
    fclose($h);
    var_dump(@fopen("$dir/missing", 'r'));
    echo error_get_last()['message'], "\n";
    file_put_contents("$dir/plain.txt", 'plain');
    var_dump(file_get_contents("$dir/plain.txt"));
    var_dump(stream_get_meta_data(fopen("file://$dir/plain.txt", 'r'))['wrapper_type']);
}));

$done = true;
await($ticker);

echo "-- outside coroutines: stock\n";
$f = fifo($dir, 'd');
$p = proc_open(['sh', '-c', 'echo from-child > "$0"', $f], [], $pipes);
var_dump(file_get_contents($f));
var_dump(proc_close($p));

array_map('unlink', glob("$dir/*"));
rmdir($dir);
?>
--EXPECTF--
-- reader first
reader opens
writer opens
writer opened
reader opened
plainfile STDIO r uri
string(6) "hello
"
bool(true)
-- writer first
int(21)
bool(true)
string(21) "via file_put_contents"
-- more readers than pool threads
r0 r1 r2 r3 r4 r5 r6 r7
-- cancelling waiting opens
r: cancelled
int(0)
w: cancelled
int(0)
rb: cancelled
int(0)
a: cancelled
int(0)
bool(false)
string(5) "after"
int(5)
-- other opens are PHP's
string(2) "rw"
bool(false)
fopen(%s/missing): Failed to open stream: No such file or directory
string(5) "plain"
string(9) "plainfile"
-- outside coroutines: stock
string(11) "from-child
"
int(0)
