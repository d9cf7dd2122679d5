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
 * - while the script runs, its top-level variables are the closure's locals, not globals. Those
 *   it names in a `global` statement or as $GLOBALS['name'] (found with token_get_all() in the
 *   script and in the helpers it names as 'x.inc' or 'x.php' literals; not $GLOBALS[$name]), and
 *   $argv and $argc, are bound to the globals by reference first: they exist (null) from the start, so reading one before it is
 *   set gives no "Undefined variable" warning. Others are invisible to `global` in functions;
 *   get_defined_vars() at top level lists no superglobals.
 * - when the script ends (returns, or leaves an exception uncaught), its variables become globals
 *   (by reference, in their order), so that shutdown functions and exception handlers see them and
 *   their objects are destroyed at shutdown in stock PHP's order; an exit() or a fatal error inside
 *   the script skips this: its variables die as the frames unwind, before the shutdown functions.
 * - an uncaught exception loses the wrapper's frames at the bottom of its trace (and of its
 *   previous ones'), then goes to the script's exception handler or is thrown on as uncaught: the
 *   report is stock PHP's. A backtrace taken inside the script still shows the wrapper's frames.
 * - get_included_files() lists this file first; include_once of the script itself is a no-op.
 * Before the script runs no name is declared and no global variable is set but the bound ones;
 * nothing is printed.
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
    /* The variables the script names in `global` statements or as $GLOBALS['name'], and $argv and
     * $argc, are bound to the globals by reference before it runs. */
    $refs = [];
    foreach (['argv', 'argc'] as $name) {
        if (array_key_exists($name, $GLOBALS)) {
            $refs[$name] = &$GLOBALS[$name];
        }
    }
    /* The script, and the files it names in a string literal ending in .inc or .php (helpers it
     * includes: __DIR__ . '/x.inc', '/../../../ftp/tests/server.inc'), found beside it. */
    $files = [$script => true];
    for ($k = 0; $k < count($files) && $k < 8 && function_exists('token_get_all'); $k++) {
        $file = array_keys($files)[$k];
        $tokens = token_get_all((string) @file_get_contents($file));
        for ($i = 0, $n = count($tokens); $i < $n; $i++) {
            $t = $tokens[$i];
            if (is_array($t) && $t[0] === T_GLOBAL) {
                for ($i++; $i < $n && $tokens[$i] !== ';'; $i++) {
                    if (is_array($tokens[$i]) && $tokens[$i][0] === T_VARIABLE) {
                        $refs[substr($tokens[$i][1], 1)] = null;
                    }
                }
            } elseif (is_array($t) && $t[0] === T_VARIABLE && $t[1] === '$GLOBALS') {
                $j = $i + 1;
                while (is_array($tokens[$j] ?? null) && $tokens[$j][0] === T_WHITESPACE) {
                    $j++;
                }
                if (($tokens[$j] ?? null) === '[' && is_array($tokens[$j + 1] ?? null) && $tokens[$j + 1][0] === T_CONSTANT_ENCAPSED_STRING) {
                    $refs[substr($tokens[$j + 1][1], 1, -1)] = null;
                }
            } elseif (is_array($t) && $t[0] === T_CONSTANT_ENCAPSED_STRING && preg_match('/\.(inc|php)$/', substr($t[1], 1, -1))) {
                foreach ([dirname($script), dirname($file)] as $dir) {
                    $inc = $dir . '/' . ltrim(substr($t[1], 1, -1), '/');
                    if (is_file($inc)) {
                        $files[realpath($inc)] ??= true;
                        break;
                    }
                }
            }
        }
    }
    unset($files, $file, $k, $i, $n, $j, $t, $dir, $inc, $tokens);
    foreach (array_keys($refs) as $name) {
        if (preg_match('/^[a-zA-Z_\x80-\xff][a-zA-Z0-9_\x80-\xff]*$/', (string) $name) && $name !== 'GLOBALS' && $name !== 'this'
            && !in_array($name, ['_GET', '_POST', '_COOKIE', '_FILES', '_SERVER', '_ENV', '_REQUEST', '_SESSION'], true)) {
            $refs[$name] = &$GLOBALS[$name];
        } else {
            unset($refs[$name]);
        }
    }
    /* No local variable but the bound ones when the script starts. An exception it leaves
     * uncaught is caught here, so that its variables can still become globals first. */
    $body = static function (): array {
        extract(func_get_arg(0), EXTR_REFS);
        try {
            include $_SERVER['SCRIPT_FILENAME'];
        } catch (Throwable $php_src_wrap_uncaught) {
            return [get_defined_vars(), $php_src_wrap_uncaught];
        }
        return [get_defined_vars(), null];
    };
    [$vars, $e] = $coroutine ? Async\await(Async\spawn($body, $refs)) : $body($refs);
    unset($vars['php_src_wrap_uncaught'], $refs);
    foreach ($vars as $name => &$value) {
        $GLOBALS[$name] = &$value;
    }
    unset($value, $vars);
    if ($e !== null) {
        /* Without the wrapper's frames at the bottom of its trace (stock PHP's "#0 {main}"), to
         * the exception handler the script set, else reported as uncaught. Never back to the
         * engine while a handler is set: it would call the handler, then run the main script. */
        for ($x = $e; $x !== null; $x = $x->getPrevious()) {
            $trace = $x->getTrace();
            while ($trace !== [] && (($trace[count($trace) - 1]['file'] ?? null) === __FILE__
                || (!isset($trace[count($trace) - 1]['file']) && ($trace[count($trace) - 1]['function'] ?? '') === '{closure}'))) {
                array_pop($trace);
            }
            (new ReflectionProperty($x instanceof Exception ? Exception::class : Error::class, 'trace'))->setValue($x, $trace);
        }
        unset($x, $trace);
        $handler = set_exception_handler(null);
        if ($handler === null) {
            throw $e;
        }
        $handler($e);
    }
    exit;
})();
