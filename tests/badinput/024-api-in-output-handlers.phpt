--TEST--
The API inside ob_start() callbacks: on explicit flush, on the implicit flush at request end, with other coroutines printing meanwhile
--SKIPIF--
<?php require __DIR__ . '/child.inc'; badinput_skip(); ?>
--FILE--
<?php
require __DIR__ . '/child.inc';
foreach ([
    'spawn only, explicit flush' => '
        ob_start(function ($buf) { Async\spawn(function () { echo "[spawned by handler ran]\n"; }); return strtoupper($buf); });
        echo "buffered\n";
        ob_end_flush();
        Async\delay(1);',
    'await in handler, explicit flush' => '
        ob_start(function ($buf) {
            try { $r = Async\await(Async\spawn(fn() => "awaited")); } catch (Throwable $e) { $r = get_class($e) . ": " . $e->getMessage(); }
            return "<" . trim($buf) . "|$r>\n";
        });
        echo "buffered\n";
        ob_end_flush();',
    'other coroutine prints while the handler waits' => '
        Async\spawn(function () { Async\delay(1); echo "[other coroutine output]\n"; });
        ob_start(function ($buf) {
            try { Async\delay(20); } catch (Throwable $e) { echo get_class($e); }
            return "<" . trim($buf) . ">\n";
        });
        echo "buffered\n";
        ob_end_flush();
        Async\delay(30);',
    'delay in handler at the implicit flush, never launched' => '
        ob_start(function ($buf) { Async\delay(1); return "<" . trim($buf) . ">\n"; });
        echo "buffered\n";',
    'delay in handler at the implicit flush, after launch' => '
        Async\delay(1);
        ob_start(function ($buf) { Async\delay(1); return "<" . trim($buf) . ">\n"; });
        echo "buffered\n";',
    'await in handler at the implicit flush, after launch' => '
        Async\delay(1);
        ob_start(function ($buf) {
            try { $r = Async\await(Async\spawn(fn() => "awaited")); } catch (Throwable $e) { $r = get_class($e) . ": " . $e->getMessage(); }
            return "<" . trim($buf) . "|$r>\n";
        });
        echo "buffered\n";',
] as $label => $code) {
    [$out, $rc] = run_child("<?php\n$code\necho \"[end of script]\\n\";", 3);
    echo "== $label (exit $rc)\n$out";
    if (str_contains($code, "[other coroutine output]")) {
        // Output of another coroutine must not vanish while a handler waits (in any order).
        echo "(other coroutine output seen ", substr_count($out, "[other coroutine output]"), " time(s))\n";
    }
}
?>
--EXPECTF--
== spawn only, explicit flush (exit 0)
BUFFERED
[spawned by handler ran]
[end of script]
== await in handler, explicit flush (exit 0)
<buffered|awaited>
[end of script]
== other coroutine prints while the handler waits (exit 0)
%A<buffered>
%A[end of script]
(other coroutine output seen 1 time(s))
== delay in handler at the implicit flush, never launched (exit 0)
<buffered
[end of script]>
== delay in handler at the implicit flush, after launch (exit 0)
<buffered
[end of script]>
== await in handler at the implicit flush, after launch (exit 0)
<buffered
[end of script]|awaited>
