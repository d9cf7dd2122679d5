<?php
/*
 * A pre-fork HTTP server: the master listens once and forks one worker per core; each worker
 * serves the inherited socket with its own event loop and a coroutine per connection
 * (examples/http_server.php). The master never spawns a coroutine, so it may fork at any time
 * (pcntl_fork() is refused while coroutines other than main are alive).
 *
 * Run:   php -n -d extension=modules/async.so examples/prefork_server.php [127.0.0.1:8080] [workers]
 *        (port 0 picks a free one; the address is printed on the first line of stdout)
 * Signals to the master:
 *   SIGTERM / SIGINT  stop: every worker stops accepting, its connections are cancelled at their
 *                     next wait (a response being written is finished first), it exits; then
 *                     the master exits.
 *   SIGHUP            restart the workers one by one: the next is stopped only once its
 *                     replacement runs, so the port is always served.
 * A worker that dies on its own is replaced. Every event is printed on a line of its own.
 */
require_once __DIR__ . '/http_server.php';

use Async\Signal;
use function Async\{spawn, signal, graceful_shutdown, available_parallelism};

function say(string $line): void
{
    echo $line, "\n";
    fflush(STDOUT);
}

/* In the child: its own loop from here on. Serves until SIGTERM. */
function prefork_worker($server): never
{
    pcntl_sigprocmask(SIG_SETMASK, []); // the master blocks its signals; a worker takes its own
    pcntl_signal(SIGHUP, SIG_IGN);
    pcntl_signal(SIGINT, SIG_IGN);      // Ctrl-C reaches the whole group: the master decides
    $stop = signal(Signal::SIGTERM);
    spawn(function () use ($server) {
        http_serve($server);
    });
    $stop->await();
    graceful_shutdown(); // the acceptor and every connection end at their next wait
    exit(0);
}

function prefork_start($server): int
{
    $pid = pcntl_fork();
    if ($pid === -1) {
        fwrite(STDERR, "fork failed\n");
        exit(1);
    }
    if ($pid === 0) {
        prefork_worker($server);
    }
    say("worker $pid started");
    return $pid;
}

/* posix_kill() where ext/posix is loaded, else kill(1). */
function prefork_signal(int $pid, int $signo): void
{
    if (function_exists('posix_kill')) {
        posix_kill($pid, $signo);
    } else {
        exec('kill -' . $signo . ' ' . $pid);
    }
}

function prefork_stop(int $pid): void
{
    prefork_signal($pid, SIGTERM);
    pcntl_waitpid($pid, $status);
    say("worker $pid stopped");
}

function prefork_master($server, int $count): void
{
    $signals = [SIGTERM, SIGINT, SIGHUP, SIGCHLD];
    pcntl_sigprocmask(SIG_BLOCK, $signals);
    $workers = [];
    for ($i = 0; $i < $count; $i++) {
        $workers[prefork_start($server)] = true;
    }
    $stopping = false;
    while ($workers) {
        $info = [];
        $signo = pcntl_sigwaitinfo($signals, $info);
        if ($signo === SIGTERM || $signo === SIGINT) {
            $stopping = true;
            foreach (array_keys($workers) as $pid) {
                prefork_stop($pid);
                unset($workers[$pid]);
            }
        } elseif ($signo === SIGHUP) {
            foreach (array_keys($workers) as $pid) {
                $workers[prefork_start($server)] = true; // the replacement first
                prefork_stop($pid);
                unset($workers[$pid]);
            }
            say('restarted');
        } elseif ($signo === SIGCHLD) {
            while (($pid = pcntl_waitpid(-1, $status, WNOHANG)) > 0) {
                if (isset($workers[$pid])) {
                    unset($workers[$pid]);
                    say("worker $pid exited");
                    if (!$stopping) {
                        $workers[prefork_start($server)] = true;
                    }
                }
            }
        }
    }
    say('stopped');
}

if (realpath($_SERVER['SCRIPT_FILENAME'] ?? '') === __FILE__) {
    $address = $argv[1] ?? '127.0.0.1:8080';
    $count = (int) ($argv[2] ?? available_parallelism());
    $context = stream_context_create(['socket' => ['backlog' => 1024]]);
    $server = stream_socket_server("tcp://$address", $errno, $errstr,
        STREAM_SERVER_BIND | STREAM_SERVER_LISTEN, $context);
    if ($server === false) {
        fwrite(STDERR, "cannot listen on $address: $errstr\n");
        exit(1);
    }
    say('listening on ' . stream_socket_get_name($server, false));
    prefork_master($server, max(1, $count));
}
