<?php
/*
 * Debugging aid for a hanging fuzz program: prepend it, and after FUZZ_ALARM seconds (default 3)
 * it prints every live coroutine with its spawn and suspend location and what it waits for, then
 * the "parked" flags of the blockers, and exits.
 *   php -n -d extension=modules/async.so -d async.schedule_seed=N \
 *       -d auto_prepend_file=tests/fuzz/hang-dump.php /tmp/seed-N.php
 * Needs pcntl (built into Debian's CLI). The handler runs at the next PHP opcode, so a hang that
 * never returns to PHP code (a C loop) prints nothing: use gdb -p <pid> then.
 */
pcntl_async_signals(true);
pcntl_signal(SIGALRM, function () {
    echo "=== live coroutines\n";
    foreach (Async\get_coroutines() as $c) {
        echo '#', $c->getId(), ' spawned at ', $c->getSpawnLocation(), ', suspended at ', $c->getSuspendLocation(),
            ', queued=', var_export($c->isQueued(), true), ', waiting for ', json_encode($c->getAwaitingInfo()), "\n";
    }
    echo 'parked blockers: ', json_encode(array_keys($GLOBALS['ST'] ?? [])), "\n";
    exit(9);
});
pcntl_alarm((int) (getenv('FUZZ_ALARM') ?: 3));
