<?php
/*
 * The scenario matrix (docs/chaos.md, "The scenario matrix"): fault × client × moment, each
 * scenario a real client behind the fault proxy (proxy.inc) in front of a real server, run in a
 * coroutine, its outcome and its time checked against tests/chaos/matrix.expect, and the
 * invariants checked after it: no coroutine left, descriptors and active reactor events back to
 * what they were, memory back within a margin, no warning the expectation does not list.
 *
 *   php tests/chaos/matrix.php [--seed N] [--only ID,ID...] [--match REGEX] [--fast]
 *                              [--record] [--oracle] [--list] [--pending] [--selftest] [-v]
 *
 *   --seed N     the faults' random choices (byte counts, latencies, the proxy's jitter); default:
 *                from the clock, printed. A failure line says how to run it again.
 *   --only IDS   these scenarios (comma-separated); --match: those whose id matches REGEX
 *   --fast       the subset the default phpt suite runs (tests/chaos/100-matrix.phpt)
 *   --record     writes what was seen into matrix.expect (adding alternatives to existing lines)
 *   --oracle     runs each scenario in a php without ext-async (stock blocking PHP) and compares
 *                its outcome with the expectation: the expectations are PHP's own behaviour
 *   --list       prints the scenarios, then the counts per client, moment and fault
 *   --pending    runs the scenarios matrix.expect marks pending (a known bug) too
 *   --selftest   breaks each invariant on purpose (a descriptor, a coroutine, a reactor event,
 *                memory, a warning, the time bound, a hang, a crash): each must be reported
 *
 * The environment: ASYNC_SO (the module; default modules/async.so of this tree), CHAOS_SLOW (a
 * factor on every configured timeout and margin: valgrind and ASan are slower), CHAOS_WRAP (a
 * command the child php runs under, e.g. valgrind ... --log-fd=2).
 *
 * It runs as three kinds of process: this parent, which starts the database servers, runs one
 * child php per group of scenarios under a watchdog, and judges; the children, which run the
 * scenarios (--child GROUP); and each child's upstream and proxy processes.
 */
declare(strict_types=1);

require_once __DIR__ . '/proxy.inc';
require_once __DIR__ . '/../inc/servers.inc';
require_once __DIR__ . '/matrix_clients.inc';
require_once __DIR__ . '/matrix_server.inc';

const MX_MARGIN_MS = 500;          // over the configured timeout, before the slow factor
const MX_MEMORY_MARGIN = 65536;    // bytes a scenario may leave allocated (ZendMM only)
const MX_DRIFT_MARGIN = 262144;    // bytes a whole group may grow by after its warm-up
const MX_EXTENSIONS = ['sockets', 'posix', 'pcntl', 'ffi', 'curl', 'mysqlnd', 'pdo', 'pdo_mysql', 'mysqli',
    'igbinary', 'redis', 'pgsql', 'pdo_pgsql', 'openssl'];

/* ---------------------------------------------------------------------------------------------
 * Scenarios.
 */
final class MxScenario
{
    public function __construct(
        public string $id,
        public string $group,
        public string $client,
        public string $moment,
        public string $fault,
        /** the fault spec for the proxy (or an action: unlisten, restart) */
        public string $spec,
        /** the configured timeout that bounds the call, ms (before the slow factor) */
        public int $timeoutMs,
        /** the timeout that is expected to fire, ms (a lower bound for a timed-out call), or 0 */
        public int $firesMs,
        /** needs ext-async (an Async\timeout(), a cancellation, the pool): no stock oracle */
        public bool $asyncOnly,
        public string $doc = '',
    ) {
    }
}

/* The faults per moment: [moment, fault, applies to client?, spec(client, rng, slow), fires].
 * fires: which configured timeout fires ('connect', 'read', 'cancel' or ''). */
function mx_faults(): array
{
    $r = fn (Random\Randomizer $g, int $lo, int $hi) => $g->getInt($lo, max($lo, $hi));
    $all = fn (MxClient $c) => true;
    $hs = fn (MxClient $c) => $c->handshake !== null;
    $live = fn (MxClient $c) => $c->liveConn;
    $cancellable = fn (MxClient $c) => !$c->asyncTimeouts;
    $upCut = fn (MxClient $c, $g) => $r($g, 1, $c->liveConn ? min(10, $c->requestBytes - 1) : $c->requestBytes - 1);
    $downCut = fn (MxClient $c, $g) => $r($g, $c->headBytes + 1, $c->headBytes + intdiv($c->big, 2));
    return [
        // connect: the TCP connect itself
        ['connect', 'refuse', $all, fn ($c, $g, $s) => 'refuse', ''],
        ['connect', 'unlisten', $all, fn ($c, $g, $s) => 'unlisten', ''],
        ['connect', 'latency', $all, fn ($c, $g, $s) => 'latency=' . $r($g, 10, 40), ''],
        // handshake: TLS, MySQL's greeting and authentication, PostgreSQL's startup
        ['handshake', 'blackhole', $hs, fn ($c, $g, $s) => 'blackhole', 'connect'],
        ['handshake', 'stall', $hs, fn ($c, $g, $s) => 'down:blackhole', 'connect'],
        ['handshake', 'reset_up', $hs, fn ($c, $g, $s) => 'up:reset_after=' . $r($g, 1, $c->handshake[0]), ''],
        ['handshake', 'reset_down', $hs, fn ($c, $g, $s) => 'down:reset_after=' . $r($g, 1, $c->handshake[1]), ''],
        ['handshake', 'close_down', $hs, fn ($c, $g, $s) => 'down:close_after=' . $r($g, 1, $c->handshake[1]), ''],
        ['handshake', 'split', $hs, fn ($c, $g, $s) => 'split=1', ''],
        ['handshake', 'slow', $hs, fn ($c, $g, $s) => 'down:latency=' . (int) (($c->connectMs + 300) * $s), 'connect'],
        // request: while the request goes out
        ['request', 'reset', $all, fn ($c, $g, $s) => 'up:reset_after=' . $upCut($c, $g), ''],
        ['request', 'close', $all, fn ($c, $g, $s) => 'up:close_after=' . $upCut($c, $g), ''],
        ['request', 'blackhole', $all, fn ($c, $g, $s) => 'up:blackhole', 'read'],
        ['request', 'split', $all, fn ($c, $g, $s) => 'up:split=1', ''],
        // response: in the middle of the answer
        ['response', 'reset', $all, fn ($c, $g, $s) => 'down:reset_after=' . $downCut($c, $g), ''],
        ['response', 'close', $all, fn ($c, $g, $s) => 'down:close_after=' . $downCut($c, $g), ''],
        ['response', 'half_close', $all, fn ($c, $g, $s) => 'down:half_close_after=' . $downCut($c, $g), ''],
        ['response', 'blackhole', $all, fn ($c, $g, $s) => 'down:blackhole', 'read'],
        // (PostgreSQL's: past the cancel grace too, so that the grace, not the answer, ends it)
        ['response', 'slow', $all, fn ($c, $g, $s) => 'down:latency='
            . (int) (($c->readMs + ($c->asyncTimeouts ? MX_PG_GRACE_MS : 0) + 300) * $s), 'read'],
        ['response', 'bw', $all, fn ($c, $g, $s) => 'down:bw=' . ($c->big * 10), ''],
        ['response', 'bw_slow', fn (MxClient $c) => $c->totalTimeout, fn ($c, $g, $s) => 'down:bw=' . intdiv($c->big, 5), 'read'],
        ['response', 'split', $all, fn ($c, $g, $s) => 'down:split=1', ''],
        ['response', 'jitter', $all, fn ($c, $g, $s) => 'latency=' . $r($g, 1, 5) . ' jitter=' . $r($g, 10, 30), ''],
        // idle: the connection waits between requests (kept alive, in a pool) when the server goes
        ['idle', 'reset', $live, fn ($c, $g, $s) => 'refuse', ''],
        ['idle', 'close', $live, fn ($c, $g, $s) => 'close_after=0', ''],
        ['idle', 'restart', $live, fn ($c, $g, $s) => 'restart', ''],
        // cancel: the caller gives up (an Async\timeout() shorter than the client's own timeout)
        ['cancel', 'blackhole', $cancellable, fn ($c, $g, $s) => 'down:blackhole', 'cancel'],
        // PostgreSQL: the caller gives up on a statement whose answer is slow but comes within the
        // cancel grace (set to MX_PG_CANCEL_GRACE_MS for it): the coroutine ends within its
        // timeout plus one round trip, never past timeout + grace
        ['cancel', 'latency', fn (MxClient $c) => $c->asyncTimeouts, fn ($c, $g, $s) => 'down:latency=' . (int) (600 * $s), 'cancel'],
    ];
}

function mx_rng(int $seed, string $id): Random\Randomizer
{
    return new Random\Randomizer(new Random\Engine\Mt19937(crc32("$seed/$id")));
}

/* Every scenario, in a fixed order; the seed only picks their parameters. */
function mx_scenarios(int $seed, float $slow): array
{
    $out = [];
    foreach (mx_clients() as $c) {
        foreach (mx_faults() as [$moment, $fault, $applies, $spec, $fires]) {
            if (!$applies($c) || ($c->moments !== null && !in_array($moment, $c->moments, true))) {
                continue;
            }
            $id = "{$c->name}.$moment.$fault";
            $timeout = in_array($moment, ['connect', 'handshake'], true) ? $c->connectMs + $c->readMs : $c->readMs;
            if ($c->asyncTimeouts && $moment === 'cancel') {
                $timeout = mx_cancel_ms($c) + MX_PG_CANCEL_GRACE_MS;
            } elseif ($c->asyncTimeouts && !in_array($moment, ['connect', 'handshake'], true)) {
                $timeout += MX_PG_GRACE_MS; // a cancelled statement's cancel round trip, bounded by the grace
            }
            $firesMs = match ($fires) {
                'connect' => $c->connectMs,
                'read' => $c->readMs,
                'cancel' => mx_cancel_ms($c),
                default => 0,
            };
            $asyncOnly = $moment === 'cancel' || $c instanceof MxPdoPoolClient
                || ($c->asyncTimeouts && !in_array($moment, ['connect', 'handshake'], true));
            $out[$id] = new MxScenario($id, $c->group, $c->name, $moment, $fault, $spec($c, mx_rng($seed, $id), $slow),
                $timeout, $firesMs, $asyncOnly);
        }
    }
    foreach (mx_server_scenarios($seed, $slow) as $s) {
        $out[$s->id] = $s;
    }
    return $out;
}

const MX_PG_GRACE_MS = 300;
const MX_PG_CANCEL_GRACE_MS = 1000;

/* The caller's own timeout in the cancel scenarios: half the client's; 100 ms for PostgreSQL's. */
function mx_cancel_ms(MxClient $c): int
{
    return $c->asyncTimeouts ? 100 : intdiv($c->readMs, 2);
}

/* The scenarios of the default phpt suite (--fast, tests/chaos/100-matrix.phpt): every moment and
 * fault of one client of each kind, leaving out the waits of a second or more (MySQL's and
 * PostgreSQL's connect and read timeouts are whole seconds): about 30 s, under run-tests' 60. */
function mx_fast(MxScenario $s): bool
{
    return $s->firesMs < 1000
        && in_array($s->client, ['stream', 'curl', 'pdo_pool', 'redis', 'pgsql', 'server'], true);
}

/* The self-test (--selftest): scenarios that break one invariant each, on purpose; each must be
 * reported, with the words given here. */
function mx_selftest(): array
{
    return [
        'fd_leak' => 'descriptors leaked',
        'coroutine_left' => 'coroutines left alive',
        'event_left' => 'reactor events left active',
        'memory' => 'memory grew',
        'warning' => 'unexpected diagnostic: W:boom',
        'slow' => 'bound',
        'early' => 'before its',
        'hang' => 'hang',
        'crash' => 'the child php ended',
    ];
}

function mx_selftest_scenarios(): array
{
    $out = [];
    foreach (mx_selftest() as $name => $_) {
        $out["selftest.$name"] = new MxScenario("selftest.$name", 'selftest', 'selftest', 'selftest', $name, $name,
            $name === 'hang' ? 100 : 300, $name === 'early' ? 300 : 0, true);
    }
    return $out;
}

function mx_run_selftest(MxScenario $s, MxCtx $ctx): array
{
    static $keep = [];
    $t = hrtime(true);
    switch ($s->fault) {
        case 'fd_leak':
            $keep[] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, 0);
            break;
        case 'coroutine_left':
            Async\spawn(fn () => Async\delay((int) (3000 * $ctx->slow)));
            break;
        case 'event_left':
            $keep[] = Async\signal(Async\Signal::SIGUSR2, Async\timeout((int) (3000 * $ctx->slow)));
            break;
        case 'memory':
            $keep[] = str_repeat('x', 1 << 20);
            break;
        case 'warning':
            trigger_error('boom', E_USER_WARNING);
            break;
        case 'slow':
            Async\delay((int) ((300 + MX_MARGIN_MS + 200) * $ctx->slow));
            break;
        case 'early':
            return ['outcome' => 'timeout', 'ms' => 10.0];
        case 'hang':
            while (true) { // a busy loop: only the parent's watchdog can end it
            }
        case 'crash':
            posix_kill(getmypid(), SIGABRT); // as a failed assertion or a sanitizer ends it
            break;
    }
    return ['outcome' => 'ok', 'ms' => (hrtime(true) - $t) / 1e6];
}

/* ---------------------------------------------------------------------------------------------
 * Outcomes and warnings as the expectations write them.
 */
function mx_norm(string $s): string
{
    $s = preg_replace('/\b(?:127\.0\.0\.1|localhost|\[::1\]):\d+\b/', 'ADDR', $s);
    $s = preg_replace('#(https?://ADDR)/\d+#', '$1/N', $s);
    $s = preg_replace('/\b(port|PID=|pid) ?\d+/', '$1N', $s);
    $s = preg_replace('/\b\d+ (bytes?|milliseconds|ms|seconds?)\b/', 'N $1', $s);
    $s = preg_replace('/\b\d+ out of \d+\b/', 'N out of N', $s);
    $s = preg_replace('/\s+/', ' ', $s);
    return trim($s);
}

function mx_outcome(Throwable $e): string
{
    if ($e instanceof MxFail) {
        return $e->getMessage();
    }
    $class = (new ReflectionClass($e))->getShortName();
    if (preg_match('/cURL error (\d+)/', $e->getMessage(), $m)) {
        return "ex:$class:curl:$m[1]";
    }
    return "ex:$class:" . mx_norm($e->getMessage());
}

/* The error handler of a child: every diagnostic is recorded (and not printed); deprecations
 * from libraries installed under /usr/share/php (Guzzle on newer PHP) are not the runtime's. */
function mx_error_handler(int $no, string $str, string $file = '', int $line = 0): bool
{
    if (!(error_reporting() & $no)) {
        return false; // silenced with @: the user asked not to see it
    }
    if (($no & (E_DEPRECATED | E_USER_DEPRECATED)) && str_starts_with($file, '/usr/share/php/')) {
        return true;
    }
    $kind = match (true) {
        (bool) ($no & (E_WARNING | E_USER_WARNING | E_CORE_WARNING | E_COMPILE_WARNING)) => 'W',
        (bool) ($no & (E_NOTICE | E_USER_NOTICE)) => 'N',
        (bool) ($no & (E_DEPRECATED | E_USER_DEPRECATED)) => 'D',
        default => 'E',
    };
    $GLOBALS['mx_warnings'][] = "$kind:" . mx_norm($str);
    return true;
}

/* ---------------------------------------------------------------------------------------------
 * A child's context: its proxies and upstreams, the seed, the slow factor.
 */
final class MxCtx
{
    /** @var array<string, ChaosProxy> */
    private array $proxies = [];
    /** @var array<string, array> upstream name => [proc, pipes, addr] */
    private array $upstreams = [];
    private array $seeded = [];
    /** upstream => the number of the last connection the proxy had before the scenario */
    private array $connsBefore = [];

    public function __construct(public array $env, public int $seed, public float $slow, public bool $async)
    {
    }

    public function ms(int $ms): int
    {
        return (int) round($ms * $this->slow);
    }

    public function proxy(string $upstream): ChaosProxy
    {
        return $this->proxies[$upstream] ??= ChaosProxy::start($this->upstreamAddr($upstream), '', $this->seed);
    }

    public function addr(string $upstream): string
    {
        return $this->proxy($upstream)->addr;
    }

    public function port(string $upstream): int
    {
        return $this->proxy($upstream)->port;
    }

    private function upstreamAddr(string $name): string
    {
        switch ($name) {
            case 'mysql':
            case 'pgsql':
                return "127.0.0.1:{$this->env[$name]['port']}";
            case 'redis':
                $this->seedRedis();
                return "127.0.0.1:{$this->env['redis']['port']}";
        }
        if (!isset($this->upstreams[$name])) {
            $mode = in_array($name, ['http', 'https'], true) ? 'http' : 'line';
            $argv = [PHP_BINARY, '-n', __DIR__ . '/matrix_upstream.php', $mode];
            if (in_array($name, ['tls', 'https'], true)) {
                array_push($argv, $this->env['tls']['cert'], $this->env['tls']['key']);
            }
            $proc = proc_open($argv, [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => STDERR], $pipes);
            $line = $proc ? fgets($pipes[1]) : false;
            if ($line === false || !preg_match('/^listening (\S+)/', $line, $m)) {
                throw new RuntimeException("the $name upstream did not start");
            }
            $this->upstreams[$name] = [$proc, $pipes, $m[1]];
        }
        return $this->upstreams[$name][2];
    }

    /* The values the redis scenarios GET, set once without the proxy. */
    private function seedRedis(): void
    {
        if ($this->seeded['redis'] ?? false) {
            return;
        }
        $r = new Redis();
        $r->connect('127.0.0.1', $this->env['redis']['port'], 5);
        foreach ([5, 20000] as $n) {
            $r->set("mx:$n", mx_bytes($n));
        }
        $r->close();
        $this->seeded['redis'] = true;
    }

    /* The number of the last connection the proxy accepted (its events up to now). */
    public function lastConn(string $upstream): int
    {
        $p = $this->proxy($upstream);
        // The kernel completes a connect before the proxy accept()s it: wait for its account,
        // then a barrier (every event before the command's answer has been read).
        $p->waitEvent('/^conn \d+ accepted /', 10 * $this->slow);
        $stats = $p->stats();
        $since = $this->connsBefore[$upstream] ?? 0;
        $live = array_filter($stats, fn ($st) => $st['id'] > $since && in_array($st['state'], ['connecting', 'open'], true));
        // (the pooled PDO's template keeps the connection its constructor made: the last is the pool's)
        if ($live === []) {
            $last = $stats ? $stats[max(array_keys($stats))] : null;
            throw new RuntimeException("no live connection through the $upstream proxy"
                . ($last ? " (the last: id={$last['id']} state={$last['state']} why=\"{$last['why']}\")" : ''));
        }
        return max(array_keys($live));
    }

    /* Between scenarios: no fault for new connections, the upstreams listening, events forgotten. */
    public function reset(): void
    {
        foreach ($this->proxies as $name => $p) {
            $p->fault('none');
            $p->forgetEvents();
            $stats = $p->stats();
            $this->connsBefore[$name] = $stats ? max(array_keys($stats)) : 0;
        }
    }

    public function stop(): void
    {
        foreach ($this->proxies as $p) {
            $p->stop();
        }
        foreach ($this->upstreams as [$proc, $pipes]) {
            fclose($pipes[0]);
            fclose($pipes[1]);
            proc_close($proc);
        }
        $this->proxies = $this->upstreams = [];
    }
}

/* ---------------------------------------------------------------------------------------------
 * Running one scenario (in a child).
 */

/* Runs $fn timed: [outcome, ms]; the outcome is 'ok' when it returned. */
function mx_timed(Closure $fn): array
{
    $t = hrtime(true);
    try {
        $fn();
        $outcome = 'ok';
    } catch (Throwable $e) {
        $outcome = mx_outcome($e);
    }
    return [$outcome, (hrtime(true) - $t) / 1e6];
}

/* The client's request bounded by a caller's Async\timeout() (the cancel moment). */
function mx_cancelled_request(MxClient $c, MxCtx $ctx, mixed $h, int $size): void
{
    if ($c instanceof MxPgClient) {
        // the statement itself in the coroutine that is cancelled, with a grace longer than the
        // answer's delay: the server answers the cancel in time
        $grace = ini_set('async.pgsql_cancel_grace_ms', (string) $ctx->ms(MX_PG_CANCEL_GRACE_MS));
        try {
            mx_with_timeout($ctx, $ctx->ms(mx_cancel_ms($c)), fn () => $c->statement($h, $size));
        } finally {
            ini_set('async.pgsql_cancel_grace_ms', (string) $grace);
        }
        return;
    }
    if ($c instanceof MxPdoPoolClient) {
        // the PDO call itself in the coroutine that is cancelled
        mx_with_timeout($ctx, $ctx->ms(mx_cancel_ms($c)), fn () => $h->query("SELECT REPEAT('x', $size)")->fetchColumn());
        return;
    }
    mx_with_timeout($ctx, $ctx->ms(mx_cancel_ms($c)), fn () => $c->request($ctx, $h, $size));
}

/* Runs a client scenario: ['outcome' => ..., 'ms' => ..., 'next' => ?, 'next_ms' => ?, 'audit' => ''] */
function mx_run_client(MxScenario $s, MxCtx $ctx): array
{
    $c = mx_clients()[$s->client];
    $p = $ctx->proxy($c->upstream);
    $res = ['next' => null, 'next_ms' => null, 'audit' => ''];
    if (in_array($s->moment, ['connect', 'handshake'], true) || !$c->liveConn) {
        if ($s->spec === 'unlisten') {
            $p->restartUpstream($ctx->ms(1000), 'unlisten');
        } else {
            $p->fault($s->spec);
        }
        $size = $s->moment === 'response' ? $c->big : $c->small;
        [$res['outcome'], $res['ms']] = mx_timed(function () use ($c, $ctx, $s, $size) {
            $h = $c->connect($ctx);
            try {
                if ($s->moment === 'cancel') {
                    mx_cancelled_request($c, $ctx, $h, $size);
                } else {
                    $c->request($ctx, $h, $size);
                }
            } finally {
                $c->close($h);
            }
        });
        if ($s->spec === 'unlisten') {
            $p->waitEvent('/^upstream up$/', 10 * $ctx->slow);
        }
        return $res;
    }
    // A live connection: made cleanly, then the fault at the moment.
    $h = $c->connect($ctx);
    try {
        if ($c->warm || $s->moment === 'idle') {
            $c->request($ctx, $h, $c->small);
        }
        $id = $ctx->lastConn($c->upstream);
        if ($s->moment === 'idle') {
            if ($s->spec === 'restart') {
                $p->restartUpstream(0);
            } else {
                $p->fault($s->spec, $id);
            }
            // the client's side has its RST or FIN before it asks again (the proxy's account)
            $p->waitEvent("/^conn $id (reset|closed) /");
        } else {
            $p->fault($s->spec, $id);
        }
        $size = $s->moment === 'response' ? $c->big : $c->small;
        [$res['outcome'], $res['ms']] = mx_timed(fn () => $s->moment === 'cancel'
            ? mx_cancelled_request($c, $ctx, $h, $size) : $c->request($ctx, $h, $size));
        if ($c->followUp && $res['outcome'] !== 'ok') {
            [$res['next'], $res['next_ms']] = mx_timed(fn () => $c->request($ctx, $h, $c->small));
        }
        $res['audit'] = $c->audit($h);
    } finally {
        $c->close($h);
    }
    return $res;
}

/* ---------------------------------------------------------------------------------------------
 * Invariants.
 */

/* fd => what it is, for this process. */
function mx_fds(): array
{
    $out = [];
    foreach (scandir('/proc/self/fd') as $fd) {
        if ($fd !== '.' && $fd !== '..' && ($link = @readlink("/proc/self/fd/$fd")) !== false) {
            $out[(int) $fd] = $link;
        }
    }
    return $out;
}

/* The reactor's active events (ZEND_ASYNC_G(active_event_count)): through the ABI test module when
 * it is loaded, else through FFI; null when neither can tell. */
function mx_active_events(): ?int
{
    static $ffi = false;
    if (function_exists('async_abi_test_event_counts')) {
        return async_abi_test_event_counts()['active_events'];
    }
    if ($ffi === false) {
        $ffi = null;
        $so = async_module_path();
        if (extension_loaded('ffi') && $so !== null && extension_loaded('async')) {
            try {
                $ffi = FFI::cdef('typedef struct { int state; _Bool in_scheduler_context; _Bool graceful_shutdown;'
                    . ' uint32_t active_coroutine_count; uint32_t active_event_count; } zend_async_globals_t;'
                    . ' extern zend_async_globals_t zend_async_api_globals;', $so);
            } catch (Throwable) {
                $ffi = null;
            }
        }
    }
    return $ffi?->zend_async_api_globals->active_event_count;
}

function mx_snapshot(bool $async): array
{
    return ['fds' => mx_fds(), 'coroutines' => $async ? count(Async\get_coroutines()) : 0,
        'events' => $async ? mx_active_events() : null, 'mem' => memory_get_usage(),
        // with the ABI test module: whether libuv's loop has any handle or request that could fire
        'alive' => $async && function_exists('async_abi_test_event_counts') ? async_abi_test_event_counts()['loop_alive'] : false];
}

/* Waits (boundedly) for what the scenario left to go, then says what did not: [] when clean. */
function mx_settle(array $base, bool $async, float $slow): array
{
    $deadline = hrtime(true) + (int) (1e9 * $slow);
    while (true) {
        gc_collect_cycles();
        $now = mx_snapshot($async);
        $clean = count($now['fds']) <= count($base['fds']) && $now['coroutines'] <= $base['coroutines']
            && ($now['events'] ?? 0) <= ($base['events'] ?? 0) && (!$now['alive'] || $base['alive']);
        if ($clean || hrtime(true) > $deadline) {
            break;
        }
        $async ? Async\delay(5) : usleep(5000);
    }
    $problems = [];
    if ($now['coroutines'] > $base['coroutines']) {
        $left = [];
        foreach (Async\get_coroutines() as $co) {
            if ($co !== Async\current_coroutine()) {
                $left[] = '#' . $co->getId() . ' spawned at ' . $co->getSpawnLocation() . ', suspended at ' . $co->getSuspendLocation();
            }
        }
        $problems[] = 'coroutines left alive: ' . implode('; ', $left);
    }
    $new = array_diff_key($now['fds'], $base['fds']);
    if (count($now['fds']) > count($base['fds'])) {
        $problems[] = 'descriptors leaked: ' . implode(', ', array_map(fn ($fd, $what) => "$fd=$what", array_keys($new), $new));
    }
    if (($now['events'] ?? 0) > ($base['events'] ?? 0)) {
        $problems[] = "reactor events left active: {$now['events']} (before: {$base['events']})";
    }
    if ($now['alive'] && !$base['alive']) {
        $problems[] = 'the reactor loop is left alive (a libuv handle or request still active)';
    }
    if (getenv('USE_ZEND_ALLOC') !== '0' && $now['mem'] - $base['mem'] > MX_MEMORY_MARGIN) {
        $problems[] = 'memory grew by ' . ($now['mem'] - $base['mem']) . ' bytes (margin ' . MX_MEMORY_MARGIN . ')';
    }
    return $problems;
}

/* ---------------------------------------------------------------------------------------------
 * A child: runs the scenarios of one group, prints "@@START id" and "@@RESULT json" lines.
 */
function mx_child(string $group, array $ids, int $seed, float $slow, bool $async, array $env): int
{
    set_error_handler('mx_error_handler');
    $GLOBALS['mx_warnings'] = [];
    $all = $group === 'selftest' ? mx_selftest_scenarios() : mx_scenarios($seed, $slow);
    $ctx = $group === 'server' ? new MxServerCtx($env, $seed, $slow, $async) : new MxCtx($env, $seed, $slow, $async);
    $scenarios = array_map(fn ($id) => $all[$id], $ids);
    fwrite(STDERR, "@@CHILD $group pid=" . getmypid() . "\n");

    // Warm-up: each client once, cleanly (its first use allocates what stays for the request).
    $warm = function () use ($scenarios, $ctx, $group) {
        if ($group === 'server') {
            $ctx->warmUp();
            return;
        }
        if ($group === 'selftest') {
            return;
        }
        foreach (array_unique(array_map(fn ($s) => $s->client, $scenarios)) as $name) {
            $c = mx_clients()[$name];
            // Twice cleanly; a first TLS handshake or connect under valgrind may outlast the short
            // timeouts, so a failed round is tried again (up to 5).
            for ($ok = 0, $i = 0; $ok < 2; $i++) {
                $h = null;
                try {
                    $h = $c->connect($ctx);
                    $c->request($ctx, $h, $c->big);
                    $ok++;
                } catch (Throwable $e) {
                    if ($i >= 4) {
                        throw $e;
                    }
                } finally {
                    if ($h !== null) {
                        $c->close($h);
                    }
                }
            }
        }
    };
    try {
        $async ? Async\await(Async\spawn($warm)) : $warm();
    } catch (Throwable $e) {
        echo '@@SETUP ', json_encode(mx_outcome($e) . ' at ' . $e->getFile() . ':' . $e->getLine()), "\n";
        return 3;
    }
    $GLOBALS['mx_warnings'] = [];
    $mem0 = memory_get_usage();
    foreach ($scenarios as $s) {
        echo "@@START {$s->id}\n";
        fwrite(STDERR, "@@START {$s->id}\n");
        $ctx->reset();
        $GLOBALS['mx_warnings'] = [];
        $base = mx_snapshot($async);
        $run = fn () => match ($group) {
            'server' => mx_run_server($s, $ctx),
            'selftest' => mx_run_selftest($s, $ctx),
            default => mx_run_client($s, $ctx),
        };
        $hung = false;
        if ($async) {
            $co = Async\spawn(function () use ($run) {
                try {
                    return $run();
                } catch (Throwable $e) {
                    return ['outcome' => 'harness:' . mx_outcome($e) . ' at ' . basename($e->getFile()) . ':' . $e->getLine(), 'ms' => 0];
                }
            });
            try {
                $res = Async\await($co, Async\timeout((int) ((($s->timeoutMs + MX_MARGIN_MS) * 4 + 5000) * $slow)));
            } catch (Async\OperationCanceledException) {
                $hung = true;
                $co->cancel();
                try {
                    Async\await($co, Async\timeout((int) (5000 * $slow)));
                } catch (Throwable) {
                }
                $res = ['outcome' => 'hang', 'ms' => 0, 'hang' => $co->isCompleted() ? 'ended when cancelled' : 'still running when cancelled'];
            }
        } else {
            try {
                $res = $run();
            } catch (Throwable $e) {
                $res = ['outcome' => 'harness:' . mx_outcome($e), 'ms' => 0];
            }
        }
        $warnings = $GLOBALS['mx_warnings'];
        $problems = $hung && !$co->isCompleted() ? [] : mx_settle($base, $async, $slow);
        if (($res['audit'] ?? '') !== '') {
            $problems[] = $res['audit'];
        }
        unset($res['audit']);
        echo '@@RESULT ', json_encode(['id' => $s->id] + $res + ['warnings' => array_values(array_unique($warnings)),
            'problems' => $problems], JSON_UNESCAPED_SLASHES), "\n";
        if ($hung && !$co->isCompleted()) {
            return 4; // a coroutine that cannot be ended: the parent goes on with a new child
        }
    }
    $drift = memory_get_usage() - $mem0;
    echo "@@DRIFT $drift\n";
    $ctx->stop();
    return 0;
}

/* ---------------------------------------------------------------------------------------------
 * The parent.
 */

/* id => ['outcome' => regex, 'timeout' => T, 'margin' => M, 'warnings' => regex|null] */
function mx_read_expect(string $file): array
{
    $out = [];
    foreach (is_file($file) ? file($file, FILE_IGNORE_NEW_LINES) : [] as $n => $line) {
        if ($line === '' || $line[0] === '#') {
            continue;
        }
        $f = explode("\t", $line);
        if (!in_array(count($f), [4, 5], true) || !preg_match('/^(\d+)\+(\d+)$/', $f[2], $m)
            || (isset($f[4]) && !str_starts_with($f[4], 'pending: '))) {
            throw new RuntimeException("$file:" . ($n + 1) . ": want: id TAB outcome TAB T+M TAB warnings [TAB pending: why]");
        }
        $out[$f[0]] = ['outcome' => $f[1], 'timeout' => (int) $m[1], 'margin' => (int) $m[2],
            'warnings' => $f[3] === '-' ? null : $f[3], 'pending' => isset($f[4]) ? substr($f[4], 9) : null];
    }
    return $out;
}

/* A literal for the expectations' regexes: only what is special there is escaped, so the file
 * stays readable. */
function mx_quote(string $s): string
{
    return preg_replace('/[.\\\\+*?\[\]^$(){}|]/', '\\\\$0', $s);
}

function mx_regex(string $alternatives): string
{
    return '{^(?:' . $alternatives . ')$}s';
}

/* What is wrong with a result: [] when it passed. */
function mx_judge(MxScenario $s, ?array $exp, array $res, float $slow, bool $oracle): array
{
    if ($exp === null) {
        return ['no expectation in matrix.expect (run with --record)'];
    }
    $why = [];
    $outcome = $res['outcome'] . ($res['next'] !== null ? '; next ' . $res['next'] : '');
    if (!preg_match(mx_regex($exp['outcome']), $outcome)) {
        $why[] = "outcome '$outcome', expected '{$exp['outcome']}'";
    }
    if ($oracle) {
        return $why; // stock PHP's outcome only: its times and its leftovers are its own
    }
    $bound = ($exp['timeout'] + $exp['margin']) * $slow;
    if ($res['ms'] > $bound) {
        $why[] = sprintf('took %.0f ms, bound %.0f ms (%d+%d)', $res['ms'], $bound, $exp['timeout'], $exp['margin']);
    }
    if (($res['next_ms'] ?? 0) > $bound) {
        $why[] = sprintf('the next call took %.0f ms, bound %.0f ms', $res['next_ms'], $bound);
    }
    // (libpq counts connect_timeout in whole seconds of time(): it may end up to 1 s early)
    $early = in_array($s->client, ['pgsql', 'pdo_pgsql'], true) && $s->moment === 'handshake' ? 1000 : 2;
    if ($s->firesMs > 0 && $res['outcome'] !== 'ok' && $res['ms'] < $s->firesMs * $slow - $early) {
        $why[] = sprintf('gave up after %.0f ms, before its %d ms timeout', $res['ms'], (int) ($s->firesMs * $slow));
    }
    foreach ($res['warnings'] as $w) {
        if ($exp['warnings'] === null || !preg_match(mx_regex($exp['warnings']), $w)) {
            $why[] = "unexpected diagnostic: $w";
        }
    }
    foreach ($res['problems'] as $p) {
        $why[] = $p;
    }
    return $why;
}

/* The child php's command line. */
function mx_php(bool $async, float $slow): array
{
    $cmd = array_merge([PHP_BINARY, '-n'], child_extension_flags(MX_EXTENSIONS));
    if ($async) {
        $so = async_module_path();
        if ($so === null) {
            throw new RuntimeException('the async module is not found: set ASYNC_SO');
        }
        array_push($cmd, '-d', "extension=$so");
        $abi = dirname($so, 2) . '/tests/c/module/modules/async_abi_test.so';
        if (getenv('CHAOS_ABI_MODULE')) {
            $abi = getenv('CHAOS_ABI_MODULE');
        }
        if (is_file($abi)) {
            array_push($cmd, '-d', "extension=$abi");
        }
    }
    if (getenv('USE_ZEND_ALLOC') === '0') {
        // valgrind and ASan: PCRE's JIT code reads past the end of its subject on purpose (as
        // run-tests does for -m)
        array_push($cmd, '-d', 'pcre.jit=0');
    }
    foreach (['display_errors' => 'stderr', 'log_errors' => '0', 'error_reporting' => '-1', 'memory_limit' => '1G',
        'zend.assertions' => '1', 'mysqlnd.net_read_timeout' => (string) (int) ceil($slow),
        'default_socket_timeout' => (string) (int) ceil(5 * $slow),
        'async.pgsql_cancel_grace_ms' => (string) (int) (MX_PG_GRACE_MS * $slow)] as $k => $v) {
        array_push($cmd, '-d', "$k=$v");
    }
    return $cmd;
}

/* What the child php has: its extensions, the servers and libraries on this machine. */
function mx_have(array $php): array
{
    $exts = json_decode((string) shell_exec(implode(' ', array_map('escapeshellarg', array_merge($php,
        ['-r', 'echo json_encode(array_map("strtolower", get_loaded_extensions()));']))) . ' 2>/dev/null'), true) ?: [];
    return ['extensions' => $exts, 'mariadb' => servers_mariadbd() !== null, 'redis-server' => servers_redis_server() !== null,
        'postgres' => servers_postgres_bin() !== null, 'guzzle' => is_file('/usr/share/php/GuzzleHttp/autoload.php')];
}

/* Runs the scenarios of one group in child processes under a watchdog; returns id => result. */
function mx_run_group(string $group, array $scenarios, array $cmd, array $opt, array $env, array &$notes): array
{
    $results = [];
    $left = array_keys($scenarios);
    $restarts = 0;
    while ($left !== [] && $restarts < 20) {
        $errFile = tempnam(sys_get_temp_dir(), 'mx-err-');
        $argv = array_merge($opt['wrap'], $cmd, [__FILE__, '--child', $group, '--seed', (string) $opt['seed'],
            '--only', implode(',', $left)], $opt['oracle'] ? ['--stock'] : []);
        $proc = proc_open($argv, [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['file', $errFile, 'w']], $pipes,
            null, array_merge(getenv(), ['CHAOS_MATRIX_ENV' => json_encode($env), 'CHAOS_MATRIX_PARENT' => '1']));
        stream_set_blocking($pipes[1], false);
        $current = null;
        $buf = '';
        $startedAt = microtime(true);
        $deadline = $startedAt + (120 + 30) * $opt['slow'];
        $why = null;
        while (true) {
            $r = [$pipes[1]];
            $w = $e = null;
            $wait = max(0.0, $deadline - microtime(true));
            $n = @stream_select($r, $w, $e, (int) $wait, (int) (fmod($wait, 1.0) * 1e6));
            if ($n === 0 || microtime(true) > $deadline) {
                $why = 'hang: no result within ' . round($deadline - $startedAt, 1) . ' s (watchdog)';
                proc_terminate($proc, 9);
                break;
            }
            $chunk = fread($pipes[1], 65536);
            if ($chunk === '' || $chunk === false) {
                if (feof($pipes[1])) {
                    break;
                }
                continue;
            }
            $buf .= $chunk;
            while (($nl = strpos($buf, "\n")) !== false) {
                $line = substr($buf, 0, $nl);
                $buf = substr($buf, $nl + 1);
                if (str_starts_with($line, '@@START ')) {
                    $current = substr($line, 8);
                    $s = $scenarios[$current];
                    $startedAt = microtime(true);
                    $deadline = $startedAt + ((($s->timeoutMs + MX_MARGIN_MS) * 4 + 5000) / 1000 + 15) * $opt['slow'];
                } elseif (str_starts_with($line, '@@RESULT ')) {
                    $res = json_decode(substr($line, 9), true);
                    $results[$res['id']] = $res + ['next' => null, 'next_ms' => null];
                    $left = array_values(array_diff($left, [$res['id']]));
                    $current = null;
                } elseif (str_starts_with($line, '@@DRIFT ')) {
                    $drift = (int) substr($line, 8);
                    if (getenv('USE_ZEND_ALLOC') !== '0' && !$opt['oracle'] && $drift > MX_DRIFT_MARGIN) {
                        $notes[] = "group $group: memory grew by $drift bytes over its scenarios (margin " . MX_DRIFT_MARGIN . ')';
                    }
                } elseif (str_starts_with($line, '@@SETUP ')) {
                    $why = 'setup failed: ' . json_decode(substr($line, 8));
                } elseif ($line !== '') {
                    $notes[] = "group $group: unexpected output: $line";
                }
            }
        }
        fclose($pipes[0]);
        fclose($pipes[1]);
        $rc = proc_close($proc);
        $err = (string) file_get_contents($errFile);
        @unlink($errFile);
        $report = mx_stderr_report($err, $opt);
        foreach ($report['by_id'] as $id => $lines) {
            if (isset($results[$id])) {
                $results[$id]['problems'][] = "stderr: " . implode(' | ', array_slice($lines, 0, 12));
            }
        }
        if ($report['exit'] !== []) {
            $notes[] = "group $group: at exit: " . implode(' | ', array_slice($report['exit'], 0, 20));
        }
        if ($why === null && $rc !== 0 && $left !== [] && $current === null) {
            $why = "the child exited with $rc before its scenarios ran";
        }
        if ($current !== null) {
            $results[$current] = ['id' => $current, 'outcome' => 'crash', 'ms' => 0, 'next' => null, 'next_ms' => null,
                'warnings' => [], 'problems' => [($why ?? "the child php ended (exit $rc)") . ': '
                    . implode(' | ', array_slice($report['by_id'][$current] ?? $report['tail'], -12))]];
            $left = array_values(array_diff($left, [$current]));
            $restarts++;
            continue;
        }
        if ($why !== null) {
            foreach ($left as $id) {
                $results[$id] = ['id' => $id, 'outcome' => 'not run', 'ms' => 0, 'next' => null, 'next_ms' => null,
                    'warnings' => [], 'problems' => ["$why: " . implode(' | ', array_slice($report['tail'], -8))]];
            }
            $left = [];
        }
        if ($rc !== 0 && $rc !== 4 && $why === null) {
            $notes[] = "group $group: the child exited with $rc: " . implode(' | ', array_slice($report['tail'], -8));
        }
    }
    return $results;
}

/* The child's stderr split by scenario (what a sanitizer or valgrind said during each), what came
 * after the last one (at exit), and its last lines. */
function mx_stderr_report(string $err, array $opt): array
{
    $byId = [];
    $exit = [];
    $cur = null;
    $done = false;
    foreach (explode("\n", $err) as $line) {
        if (str_starts_with($line, '@@START ')) {
            $cur = substr($line, 8);
            continue;
        }
        if (str_starts_with($line, '@@CHILD ') || trim($line) === '') {
            continue;
        }
        if ($cur === null) {
            $exit[] = $line;
        } else {
            $byId[$cur][] = $line;
        }
    }
    $tail = array_slice(array_filter(explode("\n", $err), fn ($l) => $l !== '' && !str_starts_with($l, '@@')), -20);
    return ['by_id' => $byId, 'exit' => $exit, 'tail' => $tail];
}

/* Starts what the groups need: the TLS certificate, MariaDB, redis, PostgreSQL. */
function mx_env(array $groups, array $clientsUsed): array
{
    $env = [];
    $dir = sys_get_temp_dir() . '/chaos-matrix-' . getmypid() . '-' . bin2hex(random_bytes(3));
    mkdir($dir, 0700);
    register_shutdown_function('servers_rmdir', $dir);
    exec('openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 30 -subj /CN=localhost'
        . ' -addext subjectAltName=DNS:localhost,IP:127.0.0.1 -keyout ' . escapeshellarg("$dir/key.pem")
        . ' -out ' . escapeshellarg("$dir/cert.pem") . ' 2>/dev/null', $out, $rc);
    if ($rc !== 0) {
        throw new RuntimeException('openssl could not make the TLS certificate');
    }
    $env['tls'] = ['cert' => "$dir/cert.pem", 'key' => "$dir/key.pem"];
    if (in_array('mysql', $groups, true)) {
        $env['mysql'] = array_intersect_key(servers_start_mariadb(), ['port' => 1]);
    }
    if (in_array('redis', $groups, true)) {
        $env['redis'] = array_intersect_key(servers_start_redis(), ['port' => 1]);
    }
    if (in_array('pgsql', $groups, true)) {
        $env['pgsql'] = array_intersect_key(servers_start_postgres(), ['port' => 1]);
    }
    return $env;
}

function mx_parse_args(array $argv): array
{
    $o = ['seed' => null, 'only' => null, 'match' => null, 'fast' => false, 'record' => false, 'oracle' => false,
        'list' => false, 'verbose' => false, 'child' => null, 'stock' => false, 'pending' => false, 'selftest' => false];
    for ($i = 1; $i < count($argv); $i++) {
        $a = $argv[$i];
        match ($a) {
            '--seed' => $o['seed'] = (int) $argv[++$i],
            '--only' => $o['only'] = array_filter(explode(',', $argv[++$i])),
            '--match' => $o['match'] = $argv[++$i],
            '--child' => $o['child'] = $argv[++$i],
            '--fast' => $o['fast'] = true,
            '--record' => $o['record'] = true,
            '--oracle' => $o['oracle'] = true,
            '--stock' => $o['stock'] = true,
            '--list' => $o['list'] = true,
            '--pending' => $o['pending'] = true,
            '--selftest' => $o['selftest'] = true,
            '-v', '--verbose' => $o['verbose'] = true,
            default => throw new RuntimeException("unknown argument $a (see the head of " . basename(__FILE__) . ')'),
        };
    }
    return $o;
}

/* Writes what was seen into the expectations: new lines, and alternatives added to old ones. */
function mx_record(string $file, array $all, array $expect, array $results): void
{
    foreach ($results as $id => $res) {
        $s = $all[$id];
        $outcome = $res['outcome'] . ($res['next'] !== null ? '; next ' . $res['next'] : '');
        if (in_array($res['outcome'], ['crash', 'hang', 'not run'], true) || str_starts_with($res['outcome'], 'harness:')) {
            continue;
        }
        $e = $expect[$id] ?? ['outcome' => null, 'timeout' => $s->timeoutMs, 'margin' => MX_MARGIN_MS, 'warnings' => null];
        if ($e['outcome'] === null) {
            $e['outcome'] = mx_quote($outcome);
        } elseif (!preg_match(mx_regex($e['outcome']), $outcome)) {
            $e['outcome'] .= '|' . mx_quote($outcome);
        }
        foreach ($res['warnings'] as $w) {
            if ($e['warnings'] === null) {
                $e['warnings'] = mx_quote($w);
            } elseif (!preg_match(mx_regex($e['warnings']), $w)) {
                $e['warnings'] .= '|' . mx_quote($w);
            }
        }
        $expect[$id] = $e;
    }
    $head = [];
    foreach (is_file($file) ? file($file, FILE_IGNORE_NEW_LINES) : [] as $line) {
        if ($line !== '' && $line[0] !== '#') {
            break;
        }
        $head[] = $line;
    }
    $lines = $head;
    foreach ($all as $id => $s) {
        if (isset($expect[$id])) {
            $e = $expect[$id];
            $lines[] = "$id\t{$e['outcome']}\t{$e['timeout']}+{$e['margin']}\t" . ($e['warnings'] ?? '-')
                . (isset($e['pending']) ? "\tpending: {$e['pending']}" : '');
        }
    }
    file_put_contents($file, implode("\n", $lines) . "\n");
}

function mx_main(array $argv): int
{
    $o = mx_parse_args($argv);
    $slow = (float) (getenv('CHAOS_SLOW') ?: (getenv('USE_ZEND_ALLOC') === '0' ? 6 : 1));
    if ($o['child'] !== null) {
        $env = json_decode((string) getenv('CHAOS_MATRIX_ENV'), true) ?: [];
        return mx_child($o['child'], $o['only'] ?? [], (int) $o['seed'], $slow, !$o['stock'] && extension_loaded('async'), $env);
    }
    // The parent runs in a php of known settings: -n and the extensions the children have.
    if (getenv('CHAOS_MATRIX_PARENT') !== '1') {
        $cmd = array_merge(mx_php(false, $slow), [__FILE__], array_slice($argv, 1));
        $p = proc_open($cmd, [0 => STDIN, 1 => STDOUT, 2 => STDERR], $pipes, null, array_merge(getenv(), ['CHAOS_MATRIX_PARENT' => '1']));
        return proc_close($p);
    }
    $seed = $o['seed'] ?? random_int(1, 999999);
    if ($o['selftest']) {
        return mx_selftest_main($seed, $slow);
    }
    $all = mx_scenarios($seed, $slow);
    $file = __DIR__ . '/matrix.expect';
    $expect = mx_read_expect($file);
    $pick = array_filter($all, fn (MxScenario $s) => ($o['only'] === null || in_array($s->id, $o['only'], true))
        && ($o['match'] === null || preg_match("{{$o['match']}}", $s->id)) && (!$o['fast'] || mx_fast($s)));
    if ($o['list']) {
        return mx_list($pick, $expect);
    }
    $oracle = $o['oracle'];
    $php = mx_php(!$oracle, $slow);
    $have = mx_have($php);
    $skipped = [];
    foreach ($pick as $id => $s) {
        $why = $s->group === 'server' ? mx_server_missing($have, $oracle) : mx_clients()[$s->client]->missing($have);
        if ($why === '' && $oracle && $s->asyncOnly) {
            $why = 'needs ext-async (no stock oracle)';
        }
        if ($why === '' && isset($expect[$id]['pending']) && !$o['pending']) {
            $why = "pending, a known bug: {$expect[$id]['pending']}; --pending runs it";
        }
        if ($why !== '') {
            $skipped[$why][] = $id;
            unset($pick[$id]);
        }
    }
    echo 'chaos-matrix: seed ', $seed, ', ', count($pick), ' scenarios', $oracle ? ' (oracle: stock PHP without ext-async)' : '',
        $slow != 1 ? ", slow factor $slow" : '', "\n";
    foreach ($skipped as $why => $ids) {
        echo 'chaos-matrix: skipped ', count($ids), " ($why): ", implode(' ', array_unique(array_map(fn ($id) => $all[$id]->client, $ids))), "\n";
    }
    $groups = [];
    foreach ($pick as $s) {
        $groups[$s->group][$s->id] = $s;
    }
    $t0 = microtime(true);
    $env = mx_env(array_keys($groups), []);
    $opt = ['seed' => $seed, 'slow' => $slow, 'oracle' => $oracle,
        'wrap' => array_values(array_filter(explode(' ', (string) getenv('CHAOS_WRAP'))))];
    $results = [];
    $notes = [];
    foreach ($groups as $group => $scenarios) {
        $tg = microtime(true);
        $results += mx_run_group($group, $scenarios, $php, $opt, $env, $notes);
        if ($o['verbose']) {
            printf("chaos-matrix: group %s: %d scenarios in %.1f s\n", $group, count($scenarios), microtime(true) - $tg);
        }
    }
    $passed = $failed = 0;
    foreach ($pick as $id => $s) {
        $res = $results[$id] ?? ['outcome' => 'not run', 'ms' => 0, 'next' => null, 'next_ms' => null, 'warnings' => [], 'problems' => ['no result']];
        $why = mx_judge($s, $expect[$id] ?? null, $res, $slow, $oracle);
        if ($o['verbose']) {
            printf("%-4s %-36s %6.0f ms  %s%s%s\n", $why === [] ? 'ok' : 'FAIL', $id, $res['ms'],
                $res['outcome'] . ($res['next'] !== null ? '; next ' . $res['next'] : ''),
                $res['warnings'] ? '  [' . implode(' | ', $res['warnings']) . ']' : '',
                $res['problems'] ? '  {' . implode(' | ', $res['problems']) . '}' : '');
        }
        if ($why === [] && isset($expect[$id]['pending'])) {
            echo "NOTE $id passes now: its pending mark in matrix.expect can go\n";
        }
        if ($why === []) {
            $passed++;
        } else {
            $failed++;
            echo "FAIL $id seed=$seed: ", implode('; ', $why), "\n";
            echo "     reproduce: php tests/chaos/matrix.php --seed $seed --only $id\n";
        }
    }
    foreach ($notes as $n) {
        echo "FAIL $n (seed=$seed)\n";
        $failed++;
    }
    if ($o['record']) {
        mx_record($file, $all, $expect, $results);
        echo 'chaos-matrix: recorded into ', $file, "\n";
    }
    printf("chaos-matrix: %.1f s\n", microtime(true) - $t0);
    $nskipped = array_sum(array_map('count', $skipped));
    $label = getenv('CHAOS_LABEL') ?: 'chaos-matrix';
    echo "$label: $passed passed, $failed failed", $nskipped ? ", $nskipped skipped" : '', "\n";
    return $failed === 0 ? 0 : 1;
}

/* Each invariant broken on purpose must be reported: the checks check something. */
function mx_selftest_main(int $seed, float $slow): int
{
    $all = mx_selftest_scenarios();
    $notes = [];
    $opt = ['seed' => $seed, 'slow' => $slow, 'oracle' => false,
        'wrap' => array_values(array_filter(explode(' ', (string) getenv('CHAOS_WRAP'))))];
    $results = mx_run_group('selftest', $all, mx_php(true, $slow), $opt, [], $notes);
    $passed = $failed = 0;
    foreach (mx_selftest() as $name => $words) {
        $id = "selftest.$name";
        $res = $results[$id] ?? ['outcome' => 'not run', 'ms' => 0, 'next' => null, 'next_ms' => null, 'warnings' => [], 'problems' => []];
        $why = mx_judge($all[$id], ['outcome' => 'ok', 'timeout' => $all[$id]->timeoutMs, 'margin' => MX_MARGIN_MS,
            'warnings' => null, 'pending' => null], $res, $slow, false);
        $said = implode('; ', $why);
        if (str_contains($said, $words)) {
            $passed++;
            echo "ok   $id: reported ($said)\n";
        } else {
            $failed++;
            echo "FAIL $id: not reported as '$words' (" . ($said ?: 'passed') . ")\n";
        }
    }
    echo "chaos-matrix selftest: $passed passed, $failed failed\n";
    return $failed === 0 ? 0 : 1;
}

function mx_list(array $pick, array $expect): int
{
    $count = ['client' => [], 'moment' => [], 'fault' => []];
    foreach ($pick as $id => $s) {
        $e = $expect[$id] ?? null;
        printf("%-40s %-34s %s\n", $id, $s->spec, $e ? "{$e['outcome']}  ({$e['timeout']}+{$e['margin']} ms)" : '(no expectation)');
        foreach ($count as $k => $_) {
            $count[$k][$s->$k] = ($count[$k][$s->$k] ?? 0) + 1;
        }
    }
    foreach ($count as $k => $c) {
        echo "per $k: ", implode(', ', array_map(fn ($n, $v) => "$n $v", array_keys($c), $c)), "\n";
    }
    echo 'total: ', count($pick), "\n";
    return 0;
}

if (realpath($_SERVER['SCRIPT_FILENAME'] ?? '') === __FILE__) {
    exit(mx_main($argv));
}
