<?php
/*
 * The auto_prepend_file of scripts/php-src-tests.sh (docs/chaos.md, "PHP's own tests inside a
 * coroutine"). The lane copies it into its work directory; an empty file named `coroutine` beside
 * the copy chooses the mode:
 *   present  the test's script is included inside a coroutine: Async\await(Async\spawn($body))
 *   absent   the same closure is called directly, without a coroutine: the control run, which shows
 *            what the wrapper alone changes (a test that differs there is a "wrapper artefact",
 *            not a runtime difference)
 * Then it exits, so the script is not run a second time as the main script.
 *
 * Only a test's own script is wrapped (NAME.php beside NAME.phpt): not its --SKIPIF-- or --CLEAN--
 * (NAME.skip.php, NAME.clean.php), nor the child scripts a test starts with TEST_PHP_EXTRA_ARGS.
 * Each wrapped script leaves an empty file in wrapped/ beside this file (named by the md5 of the
 * script's path), so the lane can tell which tests really ran wrapped: one whose --INI-- sets
 * auto_prepend_file runs as it is, one whose open_basedir excludes this file cannot start.
 *
 * What the wrapper changes, in both modes alike (so the control run shows it):
 * - while the script runs, its top-level variables are the closure's locals, not globals:
 *   `global $x` and $GLOBALS['x'] in its functions do not see them, and get_defined_vars() at top
 *   level lists no superglobals. $argv and $argc are bound to the globals by reference.
 * - when the script returns, its variables become globals (by reference, in their order), so that
 *   shutdown functions see them and their objects are destroyed at shutdown in stock PHP's order
 *   (an exit() or a fatal error inside the script skips this: locals die as the frames unwind);
 * - a backtrace, or the trace of an uncaught exception, has the wrapper's frames below the
 *   script's; get_included_files() lists this file first.
 * Before the script runs no name is declared and no global variable is set; nothing is printed.
 */
(static function (): void {
    $script = $_SERVER['SCRIPT_FILENAME'] ?? '';
    if (!is_string($script) || substr($script, -4) !== '.php'
        || substr($script, -9) === '.skip.php' || substr($script, -10) === '.clean.php'
        || !is_file(substr($script, 0, -4) . '.phpt')) {
        return;
    }
    $coroutine = is_file(__DIR__ . '/coroutine');
    if ($coroutine && !function_exists('Async\spawn')) {
        return;
    }
    @touch(__DIR__ . '/wrapped/' . md5($script));
    $body = static function (): array {
        if (array_key_exists('argv', $GLOBALS)) {
            $argv = &$GLOBALS['argv'];
        }
        if (array_key_exists('argc', $GLOBALS)) {
            $argc = &$GLOBALS['argc'];
        }
        include $_SERVER['SCRIPT_FILENAME'];
        return get_defined_vars();
    };
    $vars = $coroutine ? Async\await(Async\spawn($body)) : $body();
    foreach ($vars as $name => &$value) {
        $GLOBALS[$name] = &$value;
    }
    unset($value, $vars);
    exit;
})();
