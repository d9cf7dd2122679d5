--TEST--
Xdebug in every mode: coroutines that first start after the main script (in the drain) run, and an error raised there is located at the coroutine's own line; no crash
--SKIPIF--
<?php
require __DIR__ . '/../badinput/child.inc';
badinput_skip();
if (!file_exists(ini_get('extension_dir') . '/xdebug.so')) die('skip xdebug.so not installed (php8.2-xdebug)');
?>
--FILE--
<?php
require __DIR__ . '/../badinput/child.inc';
$out_dir = sys_get_temp_dir() . '/xdebug-out-' . getmypid();
@mkdir($out_dir);
$code = <<<'PHP'
<?php
use function Async\{spawn, delay};
spawn(function () {
    delay(10);
    trigger_error("late warning", E_USER_WARNING);
    echo "coroutine done\n";
});
echo "script ends\n";
PHP;
$run = 0;
foreach (['develop', 'debug', 'coverage', 'profile', 'trace', 'gcstats', 'off'] as $mode) {
    [$out, $exit] = run_child($code, 10.0, ['zend_extension' => 'xdebug.so', 'xdebug.mode' => $mode,
        'xdebug.output_dir' => $out_dir, 'xdebug.start_with_request' => 'yes', 'xdebug.log_level' => 0,
        'html_errors' => 0]);
    // develop mode adds a call stack to errors; keep the first line of each message (no PCRE:
    // its JIT trips memcheck in the valgrind lane).
    $keep = fn($l) => str_starts_with($l, 'script ends') || str_starts_with($l, 'coroutine done')
        || str_starts_with($l, 'Warning: ');
    $lines = array_values(array_filter(explode("\n", $out), $keep));
    $lines = str_replace('in ' . sys_get_temp_dir() . '/badinput-' . getmypid() . '-' . (++$run) . '.php', 'in FILE', $lines);
    echo "$mode: exit $exit\n  ", implode("\n  ", $lines), "\n";
}
array_map('unlink', glob("$out_dir/*") ?: []);
@rmdir($out_dir);
?>
--EXPECT--
develop: exit 0
  script ends
  Warning: late warning in FILE on line 5
  coroutine done
debug: exit 0
  script ends
  Warning: late warning in FILE on line 5
  coroutine done
coverage: exit 0
  script ends
  Warning: late warning in FILE on line 5
  coroutine done
profile: exit 0
  script ends
  Warning: late warning in FILE on line 5
  coroutine done
trace: exit 0
  script ends
  Warning: late warning in FILE on line 5
  coroutine done
gcstats: exit 0
  script ends
  Warning: late warning in FILE on line 5
  coroutine done
off: exit 0
  script ends
  Warning: late warning in FILE on line 5
  coroutine done
