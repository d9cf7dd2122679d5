<?php
/*
 * tests/fuzz/generate.php <seed> [--size=N] [--avoid=...] [--net=auto|on|off]
 *
 * Prints a self-contained PHP program, fully determined by <seed>, that exercises the public
 * coroutine API (spawn, await with and without a cancellation token, suspend, delay, usleep,
 * protect, Coroutine::cancel/finally/isCompleted/isCancelled, current_coroutine, get_coroutines,
 * plus generators and Fibers inside coroutines, Future, Channel, Pool, child Scopes, the await_*()
 * family, TaskGroup and socket pairs) and checks itself.
 *
 * The program is a random tree of tasks. Every task is emitted twice:
 *   c_K()  the concurrent version (runs as a coroutine),
 *   s_K()  the same computation without concurrency: spawn() becomes an immediate call whose
 *          outcome is recorded, await() replays that outcome, suspensions disappear, and
 *          cancellations are replaced by the exception the cancelled task is known to get.
 * A task's value depends only on its own constants and on its children's outcomes, so both runs
 * must agree whatever the schedule is. Cancellation outcomes are made deterministic by
 * construction: a task is cancelled either before it can have started (cancel() right after
 * spawn(), with no suspension in between) or while it is parked at a point it never leaves
 * on its own (it raises a "started" flag right before parking, and the canceller waits for it).
 *
 * The program prints "OK <checksum>" (the checksum is computed from the sequential run) only if:
 *   - the concurrent result equals the sequential one (including fire-and-forget outputs),
 *   - every try/finally block and every Coroutine::finally handler that was entered/registered
 *     ran exactly once, and the set of them equals the sequential run's,
 *   - the number of spawned coroutines equals the sequential run's,
 *   - every coroutine is completed, cancelled exactly when expected, get_coroutines() holds only
 *     main, and every Coroutine object is freed once the program drops its handles,
 *   - no exception escaped and no in-program assertion failed,
 *   - nothing changes after the script ends (checked again from a shutdown function).
 * Otherwise it prints "FAIL ..." lines and exits with status 1.
 * With FUZZ_SEQ_ONLY=1 in the environment it runs only the sequential version and prints the
 * expected "OK <checksum>" line (no async call is made).
 *
 * Network I/O (README, "The fuzzer's I/O"): in a quarter of the seeds (--net=auto; on, off) some
 * suspending ops are line ping-pongs with an echo upstream through the fault proxy
 * (tests/chaos/proxy.c), each proxy with a fault the seed picked, and some blockers park reading a
 * blackholed connection. The faults are chosen so that what arrives is known statically (how
 * many whole lines come back), so the sequential twin computes it. Every choice about I/O comes
 * from a generator of its own (Random\Randomizer), so the seeds without I/O give the same
 * programs as before it existed.
 */
declare(strict_types=1);

/* The length of every line of the network ping-pongs (the program has the same constant). */
const NET_LINE = 16;

final class FuzzGen
{
    private int $nextId = 1;
    private int $nextFin = 1;
    private int $budget;
    private int $maxDepth;
    private int $maxKids;
    /** @var array<int,array> */
    public array $nodes = [];
    public bool $usesNever = false;
    private array $lateOps = [];
    public array $main;
    public bool $mainSpawned;

    private bool $emittingMain = false;
    /** Scope variable the spawns of the block being generated go to (null: the current scope). */
    private ?string $spawnScope = null;
    /** No task that can end with an unhandled error (its scope has no exception handler: fail-together). */
    private bool $noThrow = false;
    /** No spawn after a cancellation (the scope is cancelled, hence closed). */
    private bool $noSpawn = false;
    private int $nextVar = 1;
    /** Awaitable handles of the block being generated, for the await_*() family: [var, outcome, isFuture]. */
    private array $setCands = [];
    /** Network I/O through the fault proxy: its own random stream (mt_rand's stays untouched). */
    private \Random\Randomizer $io;
    public bool $net = false;
    /** The faults the program's ping-pongs go through: index in NET_PALETTE => true. */
    public array $netUsed = [];
    public bool $netBlack = false;

    /**
     * The faults a ping-pong may go through, one proxy each: [spec, kind, direction, byte count].
     * What comes back through each is known statically: a "pass" fault delivers every line,
     * "refuse" none, a cut (reset, close or half-close after N bytes) the lines whole within the
     * first N bytes of the direction it cuts. A cut of the way up with N at the end of a line
     * would race (does the echo of that line make it back before the cut?): those N are never a
     * multiple of NET_LINE (16), but 0. tests/fuzz/run.php starts one proxy per entry for a whole
     * run; a program run alone starts those it uses.
     */
    public const NET_PALETTE = [
        ['none', 'pass', '', 0],
        ['latency=2', 'pass', '', 0],
        ['jitter=3', 'pass', '', 0],
        ['split=1', 'pass', '', 0],
        ['split=3', 'pass', '', 0],
        ['down:split=1 gap=1', 'pass', '', 0],
        ['bw=16384', 'pass', '', 0],
        ['up:split=2 down:latency=2', 'pass', '', 0],
        ['down:reset_after=0', 'cut', 'down', 0],
        ['down:reset_after=24', 'cut', 'down', 24],
        ['down:reset_after=48 split=3', 'cut', 'down', 48],
        ['down:close_after=16', 'cut', 'down', 16],
        ['down:close_after=40', 'cut', 'down', 40],
        ['down:half_close_after=8', 'cut', 'down', 8],
        ['down:half_close_after=56 split=2', 'cut', 'down', 56],
        ['up:reset_after=10', 'cut', 'up', 10],
        ['up:reset_after=41 split=2', 'cut', 'up', 41],
        ['up:close_after=0', 'cut', 'up', 0],
        ['up:close_after=27', 'cut', 'up', 27],
        ['up:half_close_after=13', 'cut', 'up', 13],
        ['up:half_close_after=58', 'cut', 'up', 58],
        ['refuse', 'refuse', '', 0],
    ];

    /** $avoid: workarounds for known runtime bugs, so that a run can look for other ones (see README). */
    public function __construct(public readonly int $seed, ?int $size = null, public readonly array $avoid = [],
        string $net = 'auto')
    {
        $this->io = new \Random\Randomizer(new \Random\Engine\Mt19937(($seed * 7919 + 104729) & 0x7fffffff));
        $this->net = match ($net) { 'on' => true, 'off' => false, default => $this->io->getInt(1, 4) === 1 };
        mt_srand($seed, MT_RAND_MT19937);
        $this->budget = $size ?? $this->pick([6, 12, 20, 30, 45, 60, 90, 150]);
        if ($this->chance(15)) {
            // deep and narrow: long await chains
            $this->maxDepth = $this->r(8, 14);
            $this->maxKids = 2;
        } else {
            $this->maxDepth = $this->r(2, 5);
            $this->maxKids = $this->r(2, 5);
        }
    }

    private function r(int $a, int $b): int { return mt_rand($a, $b); }
    private function chance(int $pct): bool { return mt_rand(1, 100) <= $pct; }
    private function pick(array $a) { return $a[mt_rand(0, count($a) - 1)]; }
    private function weighted(array $w): string
    {
        $t = mt_rand(1, array_sum($w));
        foreach ($w as $k => $v) {
            if (($t -= $v) <= 0) {
                return (string) $k;
            }
        }
        return (string) array_key_last($w);
    }
    private function fid(string $p): string { return $p . ($this->nextFin++); }
    private function msg(): ?string { return $this->chance(50) ? null : 'm' . $this->r(1, 999); }

    public function generate(): void
    {
        $this->main = ['id' => 0, 'kind' => 'normal', 'x' => $this->r(1, 1000000), 'params' => [], 'ff' => false,
            'main' => true];
        // Several rounds at the top, so that the program grows to about its chosen size.
        $body = [];
        for ($round = 0; $round < 10 && ($round === 0 || $this->budget > 0); $round++) {
            array_push($body, ...$this->genBlock(0, [], true));
        }
        $this->main['body'] = $body;
        $this->mainSpawned = $this->chance(30);
    }

    /* ---------------------------------------------------------------- tree generation */

    /** A new task node. $kind: normal|thrower|blocker|pblocker|selfcancel. */
    private function newNode(int $depth, string $kind, array $opt = []): array
    {
        if ($this->noThrow && $kind === 'thrower') {
            $kind = 'normal';
        }
        $id = $this->nextId++;
        $this->budget--;
        $savedScope = $this->spawnScope;
        $this->spawnScope = null;   // the body is another function: it spawns into its own scope
        $n = ['id' => $id, 'kind' => $kind, 'x' => $this->r(1, 1000000), 'params' => $opt['params'] ?? [],
            'ff' => $opt['ff'] ?? false, 'cancelBefore' => $opt['cancelBefore'] ?? false, 'main' => false,
            'swallow' => false, 'cmsg' => null, 'future' => $opt['future'] ?? null,
            'consumer' => $opt['consumer'] ?? false];
        $args = $opt['args'] ?? [];
        // A task cancelled before it starts never runs: keep its body small.
        $n['body'] = $n['cancelBefore'] ? $this->genNoise(2, false) : $this->genBlock($depth, $args);
        if ($this->chance(10) && !$n['cancelBefore']) {
            // self-registered Coroutine::finally handler
            array_splice($n['body'], $this->r(0, count($n['body'])), 0, [['selfreg', $this->fid('fs')]]);
        }
        switch ($kind) {
            case 'blocker':
                $n['point'] = $this->pick(['delay', 'delay', 'never', 'suspendloop', 'delayloop', 'nested', 'fiber',
                    'gen', 'sleep', 'twoevents', 'timeout', 'recv', 'send', 'acquire']);
                if ($this->net && $this->io->getInt(1, 100) <= 12) {
                    // parks reading a connection the proxy blackholes
                    $n['point'] = 'netblack';
                    $this->netBlack = true;
                }
                if ($n['point'] === 'never' || $n['point'] === 'twoevents') {
                    $this->usesNever = true;
                }
                // fall through
            case 'pblocker':
                $n['swallow'] = $this->chance(20);
                $n['catch'] = $n['swallow'] || $this->chance(40);
                $n['cleanup'] = $n['catch'] ? $this->genCleanup($depth) : [];
                $n['tryfin'] = $this->chance(50) ? $this->fid('fb') : null;
                $n['finNoise'] = $this->genNoise(2, false);
                if ($kind === 'pblocker') {
                    $n['waitloop'] = $this->pick(['suspend', 'delay1']);
                    $n['inner'] = $this->genBlock($depth + 1);
                }
                break;
            case 'selfcancel':
                $n['swallow'] = $this->chance(30);
                $n['cmsg'] = $this->msg();
                $n['between'] = $this->genNoise(2, false);
                $n['point'] = $this->pick(['suspend', 'delay0', 'delay1']);
                $n['cleanup'] = $n['swallow'] ? $this->genCleanup($depth) : [];
                break;
            case 'thrower':
                $n['code'] = $this->r(1, 9999);
                break;
        }
        $this->spawnScope = $savedScope;
        $this->nodes[$id] = $n;
        return $n;
    }

    private function genCleanup(int $depth): array
    {
        // What a task does after it caught its own cancellation: it may still suspend and even run children.
        return $this->chance(30) && $depth < $this->maxDepth && $this->budget > 0
            ? $this->genBlock($depth + 1) : $this->genNoise(3, true);
    }

    /** Non-structural ops. */
    private function genNoise(int $max, bool $suspending): array
    {
        $ops = [];
        $n = $this->r(0, $max);
        for ($i = 0; $i < $n; $i++) {
            $ops[] = $this->noiseOp($suspending);
        }
        return $ops;
    }

    private function noiseOp(bool $suspending): array
    {
        if (!$suspending) {
            return ['mix', $this->r(0, 99999)];
        }
        if ($this->net && $this->io->getInt(1, 100) <= 10) {
            // A line ping-pong with the echo upstream through one of the program's proxies.
            $p = $this->io->getInt(0, count(self::NET_PALETTE) - 1);
            $this->netUsed[$p] = true;
            return ['net', $p, $this->io->getInt(1, 4)];
        }
        return match ($this->weighted(['mix' => 40, 'suspend' => 22, 'delay' => 18, 'usleep' => 4, 'gen' => 8, 'fiber' => 5, 'ctx' => 3, 'gc' => 2, 'none' => 3,
            'sock' => $this->noSpawn ? 0 : 3])) {
            'sock' => ['sock', $this->r(1, 4)],
            'ctx' => ['ctx', $this->r(1, 99)],
            'gc' => ['gc'],
            'mix' => ['mix', $this->r(0, 99999)],
            'suspend' => ['suspend'],
            'delay' => ['delay', $this->r(0, 3)],
            'usleep' => ['usleep', $this->r(1, 20) * 100],
            'gen' => ['gen', $this->r(1, 999), $this->r(1, 4)],
            'fiber' => ['fiber', $this->r(1, 999)],
            'none' => ['mix', 0],
        };
    }

    /** Outcome of awaiting a child, as the awaiting code must expect it: v (value), T, C, H. */
    private function outcome(array $child, array $handlers): string
    {
        foreach ($handlers as $h) {
            if ($h[3]) {
                return 'H';
            }
        }
        if ($child['cancelBefore']) {
            return 'C';
        }
        return match ($child['kind']) {
            'normal' => 'v',
            'thrower' => 'T',
            default => $child['swallow'] ? 'v' : 'C',
        };
    }

    private function expectCancelled(array $child): ?bool
    {
        if ($child['cancelBefore']) {
            return true;
        }
        return match ($child['kind']) {
            'normal', 'thrower' => false,
            default => $child['swallow'] ? null : true,
        };
    }

    /**
     * A block: children spawned, (token-)awaited, cancelled and awaited again, with noise and nested
     * self-contained blocks in between. $args: handles received from the parent (sibling roles).
     */
    private function genBlock(int $depth, array $args = [], bool $top = false, bool $nowrap = false, array $midOps = []): array
    {
        $spawnPhase = [];   // list of op lists (a child's spawn and what must follow it immediately)
        $tokPhase = [];
        $cancelPhase = [];
        $awaitPhase = [];
        $late = [];         // ops that may go anywhere after the spawns (late handlers, replays)
        $kids = $depth < $this->maxDepth && $this->budget > 0 ? $this->r($top ? 1 : 0, $this->maxKids) : 0;
        $d = $depth + 1;
        $savedLate = $this->lateOps;
        $this->lateOps = [];
        $savedSets = $this->setCands;
        $this->setCands = [];

        for ($i = 0; $i < $kids && $this->budget > 0; $i++) {
            $plan = $this->weighted(['await' => 40, 'cancelBefore' => 10, 'blocker' => 12, 'siblingCancel' => 8,
                'secondAwait' => 9, 'ff' => 7, 'token' => 7, 'tokenReverse' => 4, 'future' => 6, 'channel' => 5,
                'pool' => 4, 'scope' => 5, 'scopeCancel' => 4, 'taskgroup' => 5]);
            switch ($plan) {
                case 'scope':
                    // A child scope (kept alive for the program) holding a whole self-contained block,
                    // waited for with awaitCompletion(). Either its exception handler absorbs the
                    // errors nobody awaited yet (recorded and checked), or nothing in it may fail.
                    $sid = $this->nextVar++;
                    $handler = !$this->noThrow && $this->chance(70);
                    [$savedScope, $savedNoThrow] = [$this->spawnScope, $this->noThrow];
                    $this->spawnScope = '$sc' . $sid;
                    $this->noThrow = !$handler;
                    // awaitCompletion() comes before the block's own awaits, which then replay.
                    $inner = $this->genBlock($d, [], true, true, [['scopewait', $sid]]);
                    [$this->spawnScope, $this->noThrow] = [$savedScope, $savedNoThrow];
                    $spawnPhase[] = [['scopenew', $sid, $handler, false], ['group', $inner], ['scopecheck', $sid]];
                    break;
                case 'scopeCancel':
                    // Blockers in a not-safe child scope, cancelled all at once by $scope->cancel()
                    // once every one of them is parked. They neither spawn after the cancellation
                    // (the scope is closed) nor fail with an error (no exception handler).
                    $sid = $this->nextVar++;
                    $smsg = $this->msg();
                    $spawns = [['scopenew', $sid, false, true]];
                    $bs = [];
                    $saved = [$this->spawnScope, $this->noThrow, $this->noSpawn];
                    [$this->spawnScope, $this->noThrow, $this->noSpawn] = ['$sc' . $sid, true, true];
                    for ($j = $this->r(1, 3); $j > 0 && $this->budget > 0; $j--) {
                        $b = $this->newBlocker($this->maxDepth);
                        if (in_array($b['point'] ?? null, ['recv', 'send'], true)) {
                            // A channel the blocker makes is owned by this scope: its cancellation
                            // closes it first (SCOPE_DISPOSED, spec §8.7) and the blocker would end
                            // with that ChannelException. Park elsewhere (no random draw: the rest
                            // of the program stays the same).
                            $this->nodes[$b['id']]['point'] = 'delay';
                            $b = $this->nodes[$b['id']];
                        }
                        [$sp, $hs] = $this->spawnOps($b);
                        $this->nodes[$b['id']]['cmsg'] = $smsg ?? 'Scope was cancelled';
                        $b = $this->nodes[$b['id']];
                        array_push($spawns, ...$sp);
                        $bs[] = $b['id'];
                        $this->addAwaits($awaitPhase, $late, $b, $hs);
                    }
                    [$this->spawnScope, $this->noThrow, $this->noSpawn] = $saved;
                    $spawnPhase[] = $spawns;
                    $cancelPhase[] = ['scopecancel', $sid, $bs, $smsg, $this->pick(['suspend', 'delay0', 'delay1']),
                        $this->pick([null, null, 'completion', 'after', 'spawn'])];
                    break;
                case 'taskgroup':
                    $spawnPhase[] = $this->genTaskGroup();
                    break;
                case 'await':
                    $k = $this->newNode($d, $this->weighted(['normal' => 60, 'thrower' => 28, 'selfcancel' => 12]));
                    [$sp, $hs] = $this->spawnOps($k);
                    $spawnPhase[] = $sp;
                    $this->addAwaits($awaitPhase, $late, $k, $hs);
                    break;
                case 'cancelBefore':
                    $k = $this->newNode($d, $this->weighted(['normal' => 50, 'thrower' => 20, 'blocker' => 15, 'selfcancel' => 15]), ['cancelBefore' => true]);
                    [$sp, $hs] = $this->spawnOps($k);
                    $spawnPhase[] = $sp;
                    // Left unawaited only when its outcome is a cancellation (never reported as unhandled).
                    if ($this->outcome($this->nodes[$k['id']], $hs) !== 'C' || $this->chance(85)) {
                        $this->addAwaits($awaitPhase, $late, $k, $hs);
                    }
                    break;
                case 'blocker':
                    $b = $this->newBlocker($d);
                    [$sp, $hs] = $this->spawnOps($b);
                    $spawnPhase[] = $sp;
                    $cancelPhase[] = ['cancelafter', $b, '$h' . $b['id'], $this->pick(['suspend', 'delay0', 'delay1'])];
                    $this->addAwaits($awaitPhase, $late, $b, $hs);
                    break;
                case 'siblingCancel':
                    $b = $this->newBlocker($d);
                    [$sp, $hs] = $this->spawnOps($b);
                    $spawnPhase[] = $sp;
                    $m = $this->newNode($d, $this->weighted(['normal' => 75, 'thrower' => 25]), [
                        'params' => ['p1'], 'args' => [['var' => '$p1', 'role' => 'cancel', 'target' => $b]]]);
                    [$sp2, $hs2] = $this->spawnOps($m, ['$h' . $b['id']]);
                    $spawnPhase[] = $sp2;
                    $this->addAwaits($awaitPhase, $late, $b, $hs);
                    $this->addAwaits($awaitPhase, $late, $m, $hs2);
                    break;
                case 'secondAwait':
                    $kk = $this->weighted(['normal' => 45, 'thrower' => 25, 'cancelBefore' => 15, 'blocker' => 15]);
                    if ($kk === 'blocker') {
                        $k = $this->newBlocker($d);
                        $cancelPhase[] = ['cancelafter', $k, '$h' . $k['id'], $this->pick(['suspend', 'delay0', 'delay1'])];
                    } elseif ($kk === 'cancelBefore') {
                        $k = $this->newNode($d, 'normal', ['cancelBefore' => true]);
                    } else {
                        $k = $this->newNode($d, $kk);
                    }
                    [$sp, $hs] = $this->spawnOps($k);
                    $spawnPhase[] = $sp;
                    $m = $this->newNode($d, $this->weighted(['normal' => 75, 'thrower' => 25]), [
                        'params' => ['p1'], 'args' => [['var' => '$p1', 'role' => 'await', 'target' => $k,
                            'outcome' => $this->outcome($k, $hs), 'twice' => $this->chance(20)]]]);
                    [$sp2, $hs2] = $this->spawnOps($m, ['$h' . $k['id']]);
                    $spawnPhase[] = $sp2;
                    $this->addAwaits($awaitPhase, $late, $k, $hs);
                    $this->addAwaits($awaitPhase, $late, $m, $hs2);
                    break;
                case 'ff':
                    $k = $this->newNode($d, 'normal', ['ff' => true]);
                    [$sp, $hs] = $this->spawnOps($k);
                    $spawnPhase[] = $sp;
                    break;
                case 'token':
                    // await(blocker, token): the token fires first by construction.
                    $b = $this->newBlocker($d);
                    [$sp, $hs] = $this->spawnOps($b);
                    $spawnPhase[] = $sp;
                    if ($this->chance(35)) {
                        // a timeout() token
                        $tokPhase[] = ['tokawaitTimeout', '$h' . $b['id'], $this->r(1, 5)];
                        $cancelPhase[] = ['cancelafter', $b, '$h' . $b['id'], $this->pick(['suspend', 'delay0', 'delay1'])];
                        $this->addAwaits($awaitPhase, $late, $b, $hs);
                        break;
                    }
                    $tk = $this->chance(20)
                        ? $this->newNode($d, 'normal', ['cancelBefore' => true])
                        : $this->newNode($d, $this->weighted(['normal' => 50, 'thrower' => 35, 'selfcancel' => 15]));
                    [$sp2, $hs2] = $this->spawnOps($tk);
                    $spawnPhase[] = $sp2;
                    $tokPhase[] = ['tokawait', '$h' . $b['id'], '$h' . $tk['id']];
                    $cancelPhase[] = ['cancelafter', $b, '$h' . $b['id'], $this->pick(['suspend', 'delay0', 'delay1'])];
                    $this->addAwaits($awaitPhase, $late, $b, $hs);
                    $this->addAwaits($awaitPhase, $late, $tk, $hs2, true);
                    break;
                case 'tokenReverse':
                    // await(task, blocker): the task completes on its own, the token never fires.
                    $b = $this->newBlocker($d);
                    [$sp, $hs] = $this->spawnOps($b);
                    $spawnPhase[] = $sp;
                    $k = $this->newNode($d, $this->weighted(['normal' => 60, 'thrower' => 25, 'selfcancel' => 15]));
                    [$sp2, $hs2] = $this->spawnOps($k);
                    $spawnPhase[] = $sp2;
                    $tokPhase[] = ['awaittok', '$h' . $k['id'], $this->outcome($k, $hs2),
                        $this->chance(35) ? 'timeout(3600000)' : '$h' . $b['id']];
                    $cancelPhase[] = ['cancelafter', $b, '$h' . $b['id'], $this->pick(['suspend', 'delay0', 'delay1'])];
                    $this->addAwaits($awaitPhase, $late, $b, $hs);
                    if ($this->chance(50)) {
                        $this->addAwaits($awaitPhase, $late, $k, $hs2, true);
                    }
                    break;
                case 'future':
                    // A producer completes (or fails) a FutureState at its end; the future is awaited,
                    // directly or through map()/catch().
                    $err = $this->chance(30);
                    $pr = $this->newNode($d, $this->weighted(['normal' => 80, 'thrower' => 20]),
                        ['params' => ['p1'], 'future' => ['error' => $err]]);
                    [$sp, $hs] = $this->spawnOps($pr, ['$st' . $pr['id']]);
                    $spawnPhase[] = array_merge([['newfuture', $pr['id']]], $sp);
                    $this->addAwaits($awaitPhase, $late, $pr, $hs);
                    $how = $this->pick(['await', 'method', 'map', 'catch']);
                    $this->setCands[] = ['$f' . $pr['id'], $err ? 'T' : 'v', true];
                    $awaitPhase[] = ['awaitfuture', $pr['id'], $err && $how !== 'catch' ? 'T' : 'v', $how, $this->r(1, 9999)];
                    break;
                case 'channel':
                    // Producers send, one consumer sums everything until the channel is closed; the
                    // parent closes it once every producer is done. Sums do not depend on the order.
                    $cid = $this->nextId;
                    $cons = $this->newNode($d, 'normal', ['params' => ['p1'], 'consumer' => true]);
                    $savedScope = $this->spawnScope;
                    $this->spawnScope = null;   // it ends at chanclose, after a scope's awaitCompletion()
                    [$sp, $hs] = $this->spawnOps($cons, ['$ch' . $cid]);
                    $this->spawnScope = $savedScope;
                    $spawnPhase[] = array_merge([['newchan', $cid, $this->pick([0, 0, 1, 2, 5])]], $sp);
                    $np = $this->r(1, 3);
                    for ($j = 0; $j < $np && $this->budget > 0; $j++) {
                        $pr = $this->newNode($d, $this->weighted(['normal' => 80, 'thrower' => 20]), ['params' => ['p1'],
                            'args' => [['var' => '$p1', 'role' => 'chansend', 'n' => $this->r(1, 4)]]]);
                        [$sp2, $hs2] = $this->spawnOps($pr, ['$ch' . $cid]);
                        $spawnPhase[] = $sp2;
                        $this->addAwaits($awaitPhase, $late, $pr, $hs2);
                    }
                    $late[] = ['group', [['chanclose', $cid, $cons['id']],
                        ['await', '$h' . $cons['id'], $this->outcome($this->nodes[$cons['id']], $hs), $cons]]];
                    break;
                case 'pool':
                    // Workers acquire/release around some of their work; the pool is idle afterwards.
                    $pid = $this->nextId;
                    $max = $this->r(1, 3);
                    $spawns = [['newpool', $pid, $max]];
                    $nw = $this->r(2, 4);
                    for ($j = 0; $j < $nw && $this->budget > 0; $j++) {
                        $w = $this->newNode($d, $this->weighted(['normal' => 80, 'thrower' => 20]), ['params' => ['p1'],
                            'args' => [['var' => '$p1', 'role' => 'pool']]]);
                        [$sp2, $hs2] = $this->spawnOps($w, ['$pl' . $pid]);
                        array_push($spawns, ...$sp2);
                        $this->addAwaits($awaitPhase, $late, $w, $hs2);
                    }
                    $spawnPhase[] = $spawns;
                    $late[] = ['poolcheck', $pid, $max];
                    break;
            }
        }

        if (count($this->setCands) >= 1 && $this->chance(40)) {
            $awaitPhase[] = $this->genAwaitSet($this->setCands);
        }
        $this->setCands = $savedSets;
        $late = array_merge($late, $this->lateOps);
        $this->lateOps = $savedLate;
        shuffle_mt($late);

        // Sibling roles received from the parent: cancel a blocker / await a sibling.
        $argOps = [];
        foreach ($args as $a) {
            if ($a['role'] === 'cancel') {
                $argOps[] = ['cancelafter', $a['target'], $a['var'], $this->pick(['suspend', 'delay0', 'delay1'])];
            } elseif ($a['role'] === 'chansend') {
                for ($j = 0; $j < $a['n']; $j++) {
                    $argOps[] = ['chansend', $a['var']];
                }
            } elseif ($a['role'] === 'pool') {
                for ($j = $this->r(1, 2); $j > 0; $j--) {
                    $argOps[] = ['pooluse', $a['var'], $this->genNoise(3, true), $this->nextFin++];
                }
            } else {
                $argOps[] = ['await', $a['var'], $a['outcome'], $a['target']];
                if ($a['twice']) {
                    $argOps[] = ['await', $a['var'], $a['outcome'], $a['target']];
                }
            }
        }

        shuffle_mt($awaitPhase);
        shuffle_mt($cancelPhase);
        $ops = [];
        $push = function (array $list) use (&$ops, $depth) {
            foreach ($list as $op) {
                $this->sprinkle($ops, $depth);
                $ops[] = $op;
            }
        };
        foreach ($spawnPhase as $sp) {
            // One op: nothing may be inserted between a spawn and its throwing handlers / cancel().
            $this->sprinkle($ops, $depth);
            $ops[] = ['group', $sp];
        }
        $push($tokPhase);
        $push($cancelPhase);
        foreach ($midOps as $op) {
            $ops[] = $op;
        }
        // Late ops (handlers registered later, replays) go among the awaits, after their own await.
        $push($awaitPhase);
        foreach ($late as $op) {
            $ops[] = $op;
        }
        $this->sprinkle($ops, $depth);
        // Argument ops can go anywhere: they depend only on the sibling, never on this block.
        foreach ($argOps as $op) {
            array_splice($ops, $this->r(0, count($ops)), 0, [$op]);
        }
        // Wrap the whole block sometimes.
        if ($ops && !$args && !$nowrap && $this->chance(12)) {
            $ops = [$this->wrap($ops)];
        }
        return $ops;
    }

    /** An await_*() call over some of the block's children and futures (all settled or settling by themselves). */
    private function genAwaitSet(array $cands): array
    {
        shuffle_mt($cands);
        $items = [];
        foreach (array_slice($cands, 0, $this->r(1, count($cands))) as $c) {
            $key = $this->chance(50) ? 'k' . $this->r(1, 99) : $this->r(0, 30);
            $items[$key] ??= $c;
        }
        $hasFut = false;
        foreach ($items as $c) {
            $hasFut = $hasFut || $c[2];
        }
        $fn = $this->weighted(['all' => 45, 'allOrFail' => 20, 'anyOf' => 15, 'firstSuccess' => 10, 'anyOrFail' => 10]);
        if ($hasFut) {
            $fn = 'all';   // the membership checks of the others look at Coroutine handles
        }
        return ['awaitset', $fn, $items, $this->chance(75), $this->chance(30), $this->chance(25), $this->r(0, count($items) + 1)];
    }

    /** A TaskGroup with a concurrency limit: leaf tasks (with and without keys), all(), close, awaitCompletion. */
    private function genTaskGroup(): array
    {
        $gid = $this->nextVar++;
        $conc = $this->r(1, 3);
        $ops = [['tgnew', $gid, $conc, $this->pick(['null', 'null', '0', '1', '2'])]];
        $ints = [];
        $nextFree = 0;
        $n = $this->r(2, 6);
        $allAt = $this->chance(50) ? $this->r(1, $n) : null;
        $errs = 0;
        $count = 0;
        $saved = [$this->noThrow, $this->spawnScope];
        $this->noThrow = false;   // the group keeps its tasks' errors
        for ($j = 0; $j < $n && $this->budget > 0; $j++) {
            $t = $this->newNode($this->maxDepth, $this->weighted(['normal' => 55, 'thrower' => 30, 'selfcancel' => 15]));
            $key = null;
            if ($this->chance(40)) {
                if ($this->chance(50)) {
                    $key = "'g{$t['id']}'";
                } else {
                    do {
                        $key = $this->r(0, 30);
                    } while (isset($ints[$key]));
                    $ints[$key] = true;
                    $nextFree = max($nextFree, $key + 1);
                }
            } else {
                $ints[$nextFree++] = true;   // the auto key, as in a PHP array
            }
            $ops[] = ['tgspawn', $gid, $t['id'], $key, $conc, $this->chance(50)];
            $count++;
            $errs += $this->outcome($t, []) !== 'v' ? 1 : 0;
            if ($allAt === $j + 1) {
                $ops[] = ['tgall', $gid, $this->chance(40), $errs > 0];
            }
        }
        [$this->noThrow, $this->spawnScope] = $saved;
        if ($this->chance(30)) {
            array_splice($ops, $this->r(1, count($ops)), 0, [['tgfinally', $gid, $this->fid('fg')]]);
        }
        $ops[] = ['tgend', $gid, $this->chance(30), $count];
        return $ops;
    }

    private function newBlocker(int $d): array
    {
        return $this->newNode($d, $this->chance(25) ? 'pblocker' : 'blocker');
    }

    /** Random noise and, sometimes, a nested self-contained block. */
    private function sprinkle(array &$ops, int $depth): void
    {
        $n = $this->r(0, 2);
        for ($i = 0; $i < $n; $i++) {
            if ($this->chance(12) && $depth < $this->maxDepth && $this->budget > 0) {
                $savedScope = $this->spawnScope;
                $this->spawnScope = null;   // the wrap may be a closure: no access to the scope variable
                $ops[] = $this->wrap($this->genBlock($depth + 1));
                $this->spawnScope = $savedScope;
            } elseif ($this->chance(6)) {
                $ops[] = $this->wrap($this->genNoise(3, true));
            } else {
                $ops[] = $this->noiseOp(true);
            }
        }
    }

    private function wrap(array $block): array
    {
        return match ($this->weighted(['try' => 40, 'tryLocal' => 22, 'protect' => 28, 'protectThrow' => 10])) {
            'protectThrow' => ['protectThrow', $block, $this->r(1, 9999)],
            'try' => ['try', $this->fid('ft'), $block, null],
            'tryLocal' => ['try', $this->chance(70) ? $this->fid('ft') : null, $block, $this->r(1, 9999)],
            'protect' => ['protect', $block, $this->r(1, 99999), $this->chance(30)],
        };
    }

    /**
     * The spawn of $k and what must follow it before any suspension: throwing finally handlers
     * and, for cancel-before tasks, the cancel(). Returns [ops, handlers].
     */
    private function spawnOps(array &$k, array $argVars = []): array
    {
        $var = '$h' . $k['id'];
        $drop = $k['ff'] && $this->chance(40);
        $ops = [['spawn', $k['id'], $this->pick($drop ? [0, 1, 2, 3, 4, 5, 7] : [0, 1, 2, 3, 4, 5, 6, 7]), $argVars, $drop,
            $this->spawnScope]];
        if (!$drop && $this->chance(10)) {
            $ops[] = ['probe', '$h' . $k['id']];
        }
        $handlers = [];
        if (!$drop) {
            $nh = $this->weighted(['0' => 55, '1' => 30, '2' => 10, '3' => 5]);
            for ($i = 0; $i < (int) $nh; $i++) {
                // A handler's error goes to the coroutine's scope (its exception handler, else the
                // script ends with it), never to the awaiter: the model has no throwing handlers.
                $throws = false;
                $handlers[] = ['handler', $var, $this->fid('fh'), $throws, $this->r(1, 9999),
                    $this->pick($this->noSpawn ? [null, null, null, null, 'suspend', 'delay', 'nested']
                        : [null, null, null, null, 'suspend', 'delay', 'spawn', 'nested']), $this->chance(30)];
            }
        }
        // Throwing handlers must be registered before the task can finish; others may come later,
        // right after the cancel or at the end of the block (then the task may be finished already).
        $late = [];
        foreach ($handlers as $h) {
            if ($h[3] || $this->chance(50)) {
                $ops[] = $h;
            } elseif ($this->chance(50)) {
                $late[] = $h;
            } else {
                $this->lateOps[] = $h;
            }
        }
        if ($k['cancelBefore']) {
            $k['cmsg'] = $this->msg();
            $this->nodes[$k['id']]['cmsg'] = $k['cmsg'];
            $ops[] = ['mix', $this->r(0, 999)];
            $ops[] = ['cancel', $var, $k['cmsg']];
        }
        foreach ($late as $h) {
            $ops[] = $h;
        }
        if (in_array($k['kind'], ['blocker', 'pblocker'], true) && !$k['cancelBefore']) {
            $k['cmsg'] = $this->msg();
            $this->nodes[$k['id']]['cmsg'] = $k['cmsg'];
        }
        $this->nodes[$k['id']]['expectCancelled'] = $this->expectCancelled($k);
        return [$ops, $handlers];
    }

    private function addAwaits(array &$awaitPhase, array &$late, array $k, array $handlers, bool $maybeSkip = false): void
    {
        $var = '$h' . $k['id'];
        $out = $this->outcome($this->nodes[$k['id']], $handlers);
        $awaitPhase[] = ['await', $var, $out, $k];
        $this->setCands[] = [$var, $out, false];
        if ($this->chance(15)) {
            $late[] = ['await', $var, $out, $k];   // replay
        }
        if ($this->chance(20)) {
            $late[] = ['checkdone', $var];
        }
        if ($this->chance(10)) {
            // cancel() of a finished coroutine is a no-op: the outcome replays unchanged.
            $late[] = ['group', [['cancel', $var, null], ['await', $var, $out, $k]]];
        }
        if ($this->chance(15)) {
            $this->lateOps[] = ['probe', $var];
        }
    }

    /* ---------------------------------------------------------------- emission */

    public function emit(): string
    {
        $L = [];
        $L[] = '<?php';
        $L[] = "// Generated by tests/fuzz/generate.php for seed {$this->seed}. Regenerate rather than edit.";
        $L[] = '// Concurrent functions c_*, sequential twins s_*; see generate.php for the invariants.';
        $L[] = 'use function Async\\{spawn, spawn_with, await, suspend, delay, protect, current_coroutine, get_coroutines, timeout};';
        $L[] = 'use Async\\{Coroutine, AsyncCancellation, OperationCanceledException, Future, FutureState, TimeoutException, Channel, Pool};';
        $L[] = '';
        $L[] = rtrim(PRELUDE);
        $L[] = '';
        foreach ($this->nodes as $n) {
            foreach (['c', 's'] as $m) {
                array_push($L, ...$this->emitNode($n, $m));
                $L[] = '';
            }
        }
        foreach (['c', 's'] as $m) {
            $this->emittingMain = true;
            $L[] = "function main_$m(): int";
            $L[] = '{';
            $L[] = "    \$a = mix({$this->main['x']}, 0);";
            array_push($L, ...$this->emitOps($this->main['body'], $m, 1));
            $L[] = '    return $a;';
            $L[] = '}';
            $L[] = '';
            $this->emittingMain = false;
        }
        $L[] = 'const USES_NEVER = ' . ($this->usesNever ? 'true' : 'false') . ';';
        $L[] = '/* Network I/O (generate.php, NET_PALETTE): the faults the ping-pongs go through; a blackholing proxy for blockers. */';
        ksort($this->netUsed);
        $faults = [];
        foreach (array_keys($this->netUsed) as $p) {
            $faults[] = "$p => [" . implode(', ', array_map(fn ($v) => var_export($v, true), self::NET_PALETTE[$p])) . ']';
        }
        $L[] = 'const NET_FAULTS = [' . implode(', ', $faults) . '];';
        $L[] = 'const NET_BLACK = ' . ($this->netBlack ? 'true' : 'false') . ';';
        $L[] = "const FUZZ_SEED = {$this->seed};";
        $L[] = 'const MAIN_SPAWNED = ' . ($this->mainSpawned ? 'true' : 'false') . ';';
        $L[] = rtrim(DRIVER);
        return implode("\n", $L) . "\n";
    }

    private function emitNode(array $n, string $m): array
    {
        $id = $n['id'];
        $params = ['int $x'];
        foreach ($n['params'] as $p) {
            $params[] = '$' . $p . ' = null';   // a handle, a FutureState, a Channel or a Pool (or their twins)
        }
        $L = [];
        $L[] = "function {$m}_$id(" . implode(', ', $params) . ')' . ($n['kind'] === 'thrower' ? ': never' : ': int');
        $L[] = '{';
        $L[] = "    \$a = mix(\$x, $id);";
        array_push($L, ...$this->emitOps($n['body'], $m, 1));
        if ($n['consumer']) {
            $L[] = '    $sum = 0;';
            $L[] = '    foreach ($p1 as $v) { $sum = ($sum + $v) % 1000003; }';
            $L[] = '    $a = mix($a, $sum);';
        }
        if ($n['future'] !== null) {
            $L[] = $n['future']['error'] ? "    \$p1->error(new TaskError('f$id', mix(\$a, 1)));" : '    $p1->complete($a);';
        }
        switch ($n['kind']) {
            case 'normal':
                if ($n['ff']) {
                    $L[] = "    out($id, \$a);";
                }
                $L[] = '    return $a;';
                break;
            case 'thrower':
                $L[] = "    throw new TaskError('t$id', mix(\$a, {$n['code']}));";
                break;
            case 'selfcancel':
                array_push($L, ...$this->emitSelfCancel($n, $m));
                break;
            case 'blocker':
            case 'pblocker':
                array_push($L, ...$this->emitBlocker($n, $m));
                break;
        }
        $L[] = '}';
        return $L;
    }

    private static function q(?string $s): string { return $s === null ? 'null' : "'" . $s . "'"; }

    /* await() of a coroutine in one of the equivalent forms the API offers: plain, with a
     * timeout() token that cannot fire first, or through a Future (optionally mapped). */
    private function awaitForm(string $var): string
    {
        $r = mt_rand(0, 99);
        if ($r < 70) {
            return "await($var)";
        }
        if ($r < 85) {
            return "await($var, timeout(600000))";
        }
        return "via_future($var, " . ($r < 93 ? 'false' : 'true') . ")";
    }

    private function emitAwaitSet(array $op, string $m, string $I): array
    {
        [, $fn, $items, $pres, $fill, $tok, $cnt] = $op;
        $C = $m === 'c';
        $parts = [];
        $nsucc = 0;
        $fails = [];
        foreach ($items as $k => [$var, $out]) {
            $parts[] = (is_int($k) ? $k : "'$k'") . " => $var";
            if ($out === 'v') {
                $nsucc++;
            } else {
                $fails[] = $var;
            }
        }
        $set = '[' . implode(', ', $parts) . ']';
        $token = $tok ? 'timeout(600000)' : 'null';
        $p = var_export($pres, true);
        $sort = var_export(!$pres, true);
        $L = [];
        switch ($fn) {
            case 'all':
                $L[] = $C ? "{$I}\$a = mix(\$a, aw_sig(Async\\await_all($set, $token, $p, " . var_export($fill, true) . "), $sort));"
                    : "{$I}\$a = mix(\$a, aw_sig(sall($set, " . var_export($fill, true) . "), $sort));";
                break;
            case 'allOrFail':
                if (!$fails) {
                    $L[] = $C ? "{$I}\$a = mix(\$a, aw_sig([Async\\await_all_or_fail($set, $token, $p), []], $sort));"
                        : "{$I}\$a = mix(\$a, aw_sig(sall($set, false), $sort));";
                    break;
                }
                // Which error comes first depends on the schedule unless only one can.
                if ($C) {
                    $L[] = "{$I}try {";
                    $L[] = "{$I}    Async\\await_all_or_fail($set, $token, $p);";
                    $L[] = "{$I}    fail('await_all_or_fail() did not throw');";
                    $L[] = "{$I}} catch (\\Throwable \$e) {";
                    $L[] = "{$I}    if (!err_of(\$e, $set)) { fail('await_all_or_fail() threw a foreign ' . get_class(\$e)); }";
                    $L[] = "{$I}    \$a = mix(\$a, " . (count($fails) === 1 ? 'esig($e)' : count($fails)) . ');';
                    $L[] = "{$I}}";
                } else {
                    $L[] = "{$I}\$a = mix(\$a, " . (count($fails) === 1 ? "esig(sall([{$fails[0]}], false)[1][0])" : count($fails)) . ');';
                }
                break;
            case 'anyOf':
                $want = min($cnt, $nsucc);
                $L[] = $C ? "{$I}\$a = mix(\$a, any_check(Async\\await_any_of($cnt, $set, $token, $p), $set, $want));"
                    : "{$I}\$a = mix(\$a, $want);";
                break;
            case 'firstSuccess':
                $L[] = $C ? "{$I}\$a = mix(\$a, first_check(Async\\await_first_success($set, $token), $set, $nsucc));"
                    : "{$I}\$a = mix(\$a, " . ($nsucc > 0 ? 1 : 0) . ');';
                break;
            case 'anyOrFail':
                if ($C) {
                    $L[] = "{$I}try {";
                    $L[] = "{$I}    if (!res_of(Async\\await_any_or_fail($set, $token), $set)) { fail('await_any_or_fail() returned a foreign value'); }";
                    $L[] = "{$I}} catch (\\Throwable \$e) {";
                    $L[] = "{$I}    if (!err_of(\$e, $set)) { fail('await_any_or_fail() threw a foreign ' . get_class(\$e) . ': ' . \$e->getMessage()); }";
                    $L[] = "{$I}}";
                }
                $L[] = "{$I}\$a = mix(\$a, 1);";
                break;
        }
        return $L;
    }

    private function cancelClass(string $m): string { return $m === 'c' ? 'AsyncCancellation' : 'SeqCancel'; }

    private function seqCancel(?string $msg): string
    {
        return 'throw new SeqCancel(' . self::q($msg ?? 'Coroutine cancelled') . ');';
    }

    private function emitSelfCancel(array $n, string $m): array
    {
        $L = [];
        $I = $n['swallow'] ? '        ' : '    ';
        if ($n['swallow']) {
            $L[] = '    try {';
        }
        if ($m === 'c') {
            $L[] = $I . 'current_coroutine()->cancel(' . ($n['cmsg'] === null ? '' : "new AsyncCancellation('{$n['cmsg']}')") . ');';
        }
        array_push($L, ...$this->emitOps($n['between'], $m, $n['swallow'] ? 2 : 1));
        if ($m === 'c') {
            // selfcancel-yield: a self-cancel delivered by suspend()/delay(0) left a stale run-queue entry
            $point = in_array('selfcancel-yield', $this->avoid, true) ? 'delay1' : $n['point'];
            $L[] = $I . match ($point) { 'suspend' => 'suspend();', 'delay0' => 'delay(0);', 'delay1' => 'delay(1);' };
            $L[] = $I . "fail('self-cancel of {$n['id']} not delivered at its suspension point');";
        } else {
            $L[] = $I . $this->seqCancel($n['cmsg']);
        }
        if ($n['swallow']) {
            $L[] = '    } catch (' . $this->cancelClass($m) . ' $ce) {';
            $L[] = '        $a = mix($a, esig($ce));';
            array_push($L, ...$this->emitOps($n['cleanup'], $m, 2));
            $L[] = '    }';
        }
        $L[] = '    return $a;';
        return $L;
    }

    private function emitBlocker(array $n, string $m): array
    {
        $id = $n['id'];
        $L = [];
        $depth = 1;
        $ind = function () use (&$depth) { return str_repeat('    ', $depth); };
        if ($n['tryfin']) {
            $L[] = $ind() . "reg('{$n['tryfin']}');";
            $L[] = $ind() . 'try {';
            $depth++;
        }
        if ($n['catch']) {
            $L[] = $ind() . 'try {';
            $depth++;
        }
        if ($n['kind'] === 'blocker') {
            if ($n['point'] === 'netblack' && $m === 'c') {
                // connected (and a line written) before the flag: the park is the read
                $L[] = $ind() . '$bx = net_black();';
            }
            if ($n['point'] !== 'gen') {
                $L[] = $ind() . "st($id);";   // raised right before parking (park_gen() raises it itself)
            }
            if ($m === 's') {
                if (in_array($n['point'], ['nested', 'twoevents', 'timeout'], true)) {
                    $L[] = $ind() . 'spawned();';
                } elseif ($n['point'] === 'gen') {
                    $L[] = $ind() . 'foreach ([1, 2] as $v) { $a = mix($a, $v); }';   // what park_gen() yields before parking
                }
                $L[] = $ind() . $this->seqCancel($n['cmsg']);
            } else {
                switch ($n['point']) {
                    case 'delay':
                        $L[] = $ind() . 'delay(3600000);';
                        break;
                    case 'never':
                        $L[] = $ind() . "await(\$GLOBALS['NEVER']);";
                        break;
                    case 'suspendloop':
                        $L[] = $ind() . 'while (true) { suspend(); }';
                        break;
                    case 'delayloop':
                        $L[] = $ind() . 'while (true) { delay(1); }';
                        break;
                    case 'nested':
                    case 'twoevents':
                    case 'timeout':
                        // Parks on a child that never finishes (and with twoevents, on NEVER with
                        // that child as the token); the child is cancelled on the way out.
                        $L[] = $ind() . "\$z = track(spawn('never_leaf'), true);";
                        $L[] = $ind() . 'try {';
                        $L[] = $ind() . match ($n['point']) {
                            'nested' => '    await($z);',
                            'twoevents' => "    await(\$GLOBALS['NEVER'], \$z);",
                            'timeout' => '    await($z, timeout(3600000));',
                        };
                        $L[] = $ind() . '} finally {';
                        $L[] = $ind() . '    $z->cancel();';
                        $L[] = $ind() . '}';
                        break;
                    case 'fiber':
                        $L[] = $ind() . '(new \Fiber(function () { suspend(); delay(3600000); }))->start();';
                        break;
                    case 'gen':
                        $L[] = $ind() . "foreach (park_gen($id) as \$v) { \$a = mix(\$a, \$v); }";
                        break;
                    case 'sleep':
                        $L[] = $ind() . 'sleep(3600);';
                        break;
                    case 'recv':
                        $L[] = $ind() . '$chx = new Channel(); $chx->recv();';
                        break;
                    case 'send':
                        $L[] = $ind() . '$chx = new Channel(0); $chx->send(1);';
                        break;
                    case 'acquire':
                        $L[] = $ind() . '$px = new Pool(fn() => 1, max: 1); $rx = $px->acquire(); $px->acquire();';
                        break;
                    case 'netblack':
                        $L[] = $ind() . 'fread($bx, 1);';
                        break;
                }
                $L[] = $ind() . "fail('blocker $id left its parking point');";
            }
        } else {
            // pblocker: parks inside protect() until cancellation is requested, then finishes the
            // protected work; the deferred cancellation is thrown when protect() returns.
            if ($m === 'c') {
                $L[] = $ind() . '$a = mix($a, protect(function () {';
                $L[] = $ind() . "    st($id);";
                $L[] = $ind() . '    while (!current_coroutine()->isCancellationRequested()) { '
                    . ($n['waitloop'] === 'suspend' ? 'suspend();' : 'delay(1);') . ' }';
            } else {
                $L[] = $ind() . '(function () {';
                $L[] = $ind() . "    st($id);";
            }
            $L[] = $ind() . "    \$a = mix(0, $id);";
            $depth++;
            array_push($L, ...$this->emitOps($n['inner'], $m, $depth));
            $depth--;
            $L[] = $ind() . '    return $a;';
            if ($m === 'c') {
                $L[] = $ind() . '}));';
                $L[] = $ind() . "fail('deferred cancellation of $id not thrown after protect()');";
            } else {
                $L[] = $ind() . '})();';
                $L[] = $ind() . $this->seqCancel($n['cmsg']);
            }
        }
        if ($n['catch']) {
            $depth--;
            $L[] = $ind() . '} catch (' . $this->cancelClass($m) . ' $ce) {';
            $L[] = $ind() . '    $a = mix($a, esig($ce));';
            array_push($L, ...$this->emitOps($n['cleanup'], $m, $depth + 1));
            if (!$n['swallow']) {
                $L[] = $ind() . '    throw $ce;';
            }
            $L[] = $ind() . '}';
        }
        if ($n['tryfin']) {
            $depth--;
            $L[] = $ind() . '} finally {';
            $L[] = $ind() . "    fin('{$n['tryfin']}');";
            array_push($L, ...$this->emitOps($n['finNoise'], $m, $depth + 1));
            $L[] = $ind() . '}';
        }
        if ($n['swallow']) {
            $L[] = '    return $a;';
        } else {
            $L[] = "    fail('blocker $id: cancellation swallowed');";
            $L[] = '    return $a;';
        }
        return $L;
    }

    private function spawnExpr(int $k, int $form, array $argVars, ?string $scope = null): string
    {
        $x = $this->nodes[$k]['x'];
        $args = implode('', array_map(fn($v) => ", $v", $argVars));
        if ($scope !== null) {
            // into a child scope: Scope::spawn() or spawn_with() with the scope as the provider
            return match ($form % 4) {
                0 => "{$scope}->spawn('c_$k', $x$args)",
                1 => "{$scope}->spawn(fn() => c_$k($x$args))",
                2 => "spawn_with($scope, 'c_$k', $x$args)",
                3 => "{$scope}->spawn(c_$k(...), $x$args)",
            };
        }
        $use = $argVars ? ' use (' . implode(', ', $argVars) . ')' : '';
        return match ($form) {
            0 => "spawn('c_$k', $x$args)",
            1 => "spawn(c_$k(...), $x$args)",
            2 => "spawn(function ()$use { return c_$k($x$args); })",
            3 => "spawn(fn() => c_$k($x$args))",
            4 => "spawn('c_$k', x: $x" . ($argVars ? ", p1: {$argVars[0]}" : '') . ')',
            5 => "spawn(function (int \$x" . ($argVars ? ', $p1' : '') . ") { return c_$k(\$x" . ($argVars ? ', $p1' : '') . "); }, $x$args)",
            // the task's closure holds its own handle by reference: a cycle through the coroutine
            6 => "spawn(function () use (&\$h$k" . implode('', array_map(fn($v) => ", $v", $argVars)) . ") { return c_$k($x$args); })",
            // spawn_with() through a SpawnStrategy whose scope is the current one: the same as
            // spawn(), plus hooks that must run exactly once each around the enqueue
            7 => "spawn_with(strategy(), 'c_$k', $x$args)",
        };
    }

    private function emitOps(array $ops, string $m, int $depth): array
    {
        $L = [];
        $I = str_repeat('    ', $depth);
        $C = $m === 'c';
        foreach ($ops as $op) {
            switch ($op[0]) {
                case 'group':
                    array_push($L, ...$this->emitOps($op[1], $m, $depth));
                    break;
                case 'mix':
                    $L[] = "{$I}\$a = mix(\$a, {$op[1]});";
                    break;
                case 'suspend':
                    if ($C) {
                        $L[] = "{$I}suspend();";
                    }
                    break;
                case 'delay':
                    if ($C) {
                        $L[] = "{$I}delay({$op[1]});";
                    }
                    break;
                case 'usleep':
                    if ($C) {
                        $L[] = "{$I}usleep({$op[1]});";
                    }
                    break;
                case 'gen':
                    $L[] = "{$I}foreach (gen_$m({$op[1]}, {$op[2]}) as \$v) { \$a = mix(\$a, \$v); }";
                    break;
                case 'fiber':
                    $L[] = "{$I}\$a = mix(\$a, fiber_$m({$op[1]}));";
                    break;
                case 'spawn':
                    [, $k, $form, $argVars, $drop, $scope] = $op;
                    $node = $this->nodes[$k];
                    $ec = var_export($node['expectCancelled'], true);
                    if ($C) {
                        $e = $this->spawnExpr($k, $form, $argVars, $scope);
                        $L[] = $drop ? "{$I}trackw($e);" : "{$I}\$h$k = track($e, $ec);";
                    } elseif ($node['cancelBefore']) {
                        $L[] = "{$I}\$h$k = scancelled(" . self::q($node['cmsg']) . ');';
                    } elseif ($node['consumer']) {
                        $L[] = "{$I}// consumer $k runs when the channel is closed (chanclose)";
                    } else {
                        $args = implode('', array_map(fn($v) => ", $v", $argVars));
                        $L[] = ($drop ? $I : "{$I}\$h$k = ") . "sq(fn() => s_$k({$node['x']}$args));";
                    }
                    break;
                case 'handler':
                    [, $var, $hid, $throws, $code, $susp, $checkArg] = $op;
                    $L[] = "{$I}reg('$hid');";
                    if ($C) {
                        $use = $checkArg ? " use ($var)" : '';
                        $body = "fin('$hid');";
                        if ($checkArg) {
                            $body .= " if (\$c !== $var) { fail('finally handler $hid got another coroutine'); }";
                        }
                        if ($susp) {
                            $body .= match ($susp) {
                                'suspend' => ' suspend();',
                                'delay' => ' delay(1);',
                                'spawn' => " if (await(track(spawn(fn() => 7), false)) !== 7) { fail('spawn in handler $hid'); }",
                                'nested' => " reg('{$hid}n'); \$c->finally(function () { fin('{$hid}n'); });",
                            };
                        }
                        if ($throws) {
                            $body .= " throw new HandlerError('$hid', $code);";
                        }
                        $L[] = "{$I}{$var}->finally(function (Coroutine \$c)$use { $body });";
                    } else {
                        $L[] = "{$I}fin('$hid');";
                        if ($susp === 'spawn') {
                            $L[] = "{$I}spawned();";
                        } elseif ($susp === 'nested') {
                            $L[] = "{$I}reg('{$hid}n');";
                            $L[] = "{$I}fin('{$hid}n');";
                        }
                        if ($throws) {
                            $L[] = "{$I}$var = hthrow($var, '$hid', $code);";
                        }
                    }
                    break;
                case 'selfreg':
                    $L[] = "{$I}reg('{$op[1]}');";
                    $L[] = $C ? "{$I}current_coroutine()->finally(function () { fin('{$op[1]}'); });" : "{$I}fin('{$op[1]}');";
                    break;
                case 'cancel':
                    if ($C) {
                        $L[] = "{$I}{$op[1]}->cancel(" . ($op[2] === null ? '' : "new AsyncCancellation('{$op[2]}')") . ');';
                    }
                    break;
                case 'cancelafter':
                    [, $node, $var, $wait] = $op;
                    if ($C) {
                        if ($this->emittingMain && in_array('main-spin', $this->avoid, true)) {
                            $wait = 'delay1';   // main spinning on suspend()/delay(0) starved timers (seed 14)
                        }
                        $w = match ($wait) { 'suspend' => 'suspend();', 'delay0' => 'delay(0);', 'delay1' => 'delay(1);' };
                        $msg = $this->nodes[$node['id']]['cmsg'];
                        $L[] = "{$I}while (!parked({$node['id']})) { $w }";
                        $L[] = "{$I}{$var}->cancel(" . ($msg === null ? '' : "new AsyncCancellation('$msg')") . ');';
                    }
                    break;
                case 'await':
                    [, $var, $out, $node] = $op;
                    $aw = $C ? $this->awaitForm($var) : "sw($var)";
                    if ($out === 'v') {
                        $L[] = "{$I}\$a = mix(\$a, $aw);";
                        if ($C && $this->chance(30)) {
                            $L[] = "{$I}if ({$var}->getResult() !== $aw) { fail('getResult() of {$node['id']} differs'); }";
                        }
                    } else {
                        $cls = match ($out) { 'T' => 'TaskError', 'H' => 'HandlerError', 'C' => $this->cancelClass($m) };
                        $L[] = "{$I}try {";
                        $L[] = "{$I}    $aw;";
                        $L[] = "{$I}    fail('await of {$node['id']} did not throw');";
                        $L[] = "{$I}} catch ($cls \$e) {";
                        $L[] = "{$I}    \$a = mix(\$a, esig(\$e));";
                        if ($C && $this->chance(30)) {
                            $L[] = "{$I}    if ({$var}->getException() !== \$e) { fail('getException() of {$node['id']} differs'); }";
                        }
                        $L[] = "{$I}}";
                    }
                    break;
                case 'tokawait':
                    [, $bvar, $tvar] = $op;
                    $L[] = "{$I}try {";
                    $L[] = $C ? "{$I}    await($bvar, $tvar);" : "{$I}    stok($tvar);";
                    $L[] = "{$I}    fail('token $tvar did not cancel the await of $bvar');";
                    $L[] = "{$I}} catch (" . ($C ? 'OperationCanceledException' : 'SeqOpCancel') . ' $e) {';
                    $L[] = "{$I}    \$a = mix(\$a, esig(\$e));";
                    $L[] = "{$I}}";
                    break;
                case 'awaittok':
                    [, $nvar, $out, $bvar] = $op;
                    $aw = $C ? "await($nvar, $bvar)" : "sw($nvar)";
                    if ($out === 'v') {
                        $L[] = "{$I}\$a = mix(\$a, $aw);";
                    } else {
                        $cls = match ($out) { 'T' => 'TaskError', 'H' => 'HandlerError', 'C' => $this->cancelClass($m) };
                        $L[] = "{$I}try {";
                        $L[] = "{$I}    $aw;";
                        $L[] = "{$I}    fail('await of $nvar did not throw');";
                        $L[] = "{$I}} catch ($cls \$e) {";
                        $L[] = "{$I}    \$a = mix(\$a, esig(\$e));";
                        $L[] = "{$I}}";
                    }
                    break;
                case 'newfuture':
                    $L[] = $C ? "{$I}\$st{$op[1]} = new FutureState(); \$f{$op[1]} = new Future(\$st{$op[1]});"
                        : "{$I}\$st{$op[1]} = new SeqState(); \$f{$op[1]} = \$st{$op[1]};";
                    break;
                case 'awaitfuture':
                    [, $k, $out, $how, $kk] = $op;
                    $e = $C ? match ($how) {
                        'await' => "await(\$f$k)",
                        'method' => "\$f{$k}->await()",
                        'map' => "await(\$f{$k}->map(fn(\$v) => mix(\$v, $kk)))",
                        'catch' => "await(\$f{$k}->catch(fn(\$e) => esig(\$e)))",
                    } : match ($how) {
                        'await', 'method' => "sfut(\$f$k)",
                        'map' => "mix(sfut(\$f$k), $kk)",
                        'catch' => "sfut_catch(\$f$k)",
                    };
                    if ($out === 'v') {
                        $L[] = "{$I}\$a = mix(\$a, $e);";
                    } else {
                        $L[] = "{$I}try {";
                        $L[] = "{$I}    $e;";
                        $L[] = "{$I}    fail('future of $k did not fail');";
                        $L[] = "{$I}} catch (TaskError \$e) {";
                        $L[] = "{$I}    \$a = mix(\$a, esig(\$e));";
                        $L[] = "{$I}}";
                    }
                    break;
                case 'newchan':
                    $L[] = $C ? "{$I}\$ch{$op[1]} = new Channel({$op[2]});" : "{$I}\$ch{$op[1]} = new SeqChan();";
                    break;
                case 'chansend':
                    $L[] = "{$I}{$op[1]}->send(\$a % 100000);";
                    break;
                case 'chanclose':
                    [, $cid, $k] = $op;
                    $L[] = $C ? "{$I}\$ch{$cid}->close();"
                        : "{$I}\$h$k = sq(fn() => s_$k({$this->nodes[$k]['x']}, \$ch$cid));";
                    break;
                case 'newpool':
                    if ($C) {
                        $L[] = "{$I}\$pl{$op[1]} = new Pool(function () { static \$n = 0; return ++\$n; }, max: {$op[2]});";
                    } else {
                        $L[] = "{$I}\$pl{$op[1]} = null;";
                    }
                    break;
                case 'pooluse':
                    [, $var, $block, $n] = $op;
                    if ($C) {
                        $L[] = "{$I}\$r$n = {$var}->acquire();";
                        $L[] = "{$I}try {";
                        array_push($L, ...$this->emitOps($block, $m, $depth + 1));
                        $L[] = "{$I}} finally {";
                        $L[] = "{$I}    {$var}->release(\$r$n);";
                        $L[] = "{$I}}";
                    } else {
                        array_push($L, ...$this->emitOps($block, $m, $depth));
                    }
                    break;
                case 'poolcheck':
                    [, $pid, $max] = $op;
                    if ($C) {
                        $L[] = "{$I}if (\$pl{$pid}->activeCount() !== 0 || \$pl{$pid}->count() > $max) { fail('pool $pid: active ' . \$pl{$pid}->activeCount() . ', count ' . \$pl{$pid}->count()); }";
                        $L[] = "{$I}\$pl{$pid}->close();";
                    }
                    break;
                case 'tokawaitTimeout':
                    [, $bvar, $ms] = $op;
                    $L[] = "{$I}try {";
                    $L[] = $C ? "{$I}    await($bvar, timeout($ms));" : "{$I}    stimeout($ms);";
                    $L[] = "{$I}    fail('timeout($ms) did not cancel the await of $bvar');";
                    $L[] = "{$I}} catch (" . ($C ? 'OperationCanceledException' : 'SeqOpCancel') . ' $e) {';
                    $L[] = "{$I}    \$a = mix(\$a, esig(\$e));";
                    $L[] = "{$I}}";
                    break;
                case 'sock':
                    $L[] = "{$I}\$a = mix(\$a, sock_$m(\$a, {$op[1]}));";
                    break;
                case 'net':
                    $L[] = "{$I}\$a = mix(\$a, net_$m(\$a, {$op[1]}, {$op[2]}));";
                    break;
                case 'scopenew':
                    [, $sid, $handler, $cancel] = $op;
                    if ($C) {
                        $L[] = "{$I}\$sc$sid = Async\\Scope::inherit()" . ($cancel ? '->asNotSafely()' : '') . ';';
                        $L[] = "{$I}\$GLOBALS['SCOPES'][] = [\$sc$sid, " . ($cancel ? 'true' : 'false') . '];   // alive for the program';
                        if ($handler) {
                            $L[] = "{$I}\$sc{$sid}->setExceptionHandler(function (Async\\Scope \$s, Coroutine \$c, \\Throwable \$e) { scope_err(\$c, \$e); });";
                        }
                    } else {
                        $L[] = "{$I}\$sc$sid = null;";
                    }
                    break;
                case 'scopewait':
                    if ($C) {
                        $L[] = "{$I}\$sc{$op[1]}->awaitCompletion(timeout(600000));";
                    }
                    break;
                case 'scopecheck':
                    if ($C) {
                        $L[] = "{$I}if (!\$sc{$op[1]}->isFinished() || \$sc{$op[1]}->isCancelled()) { fail('scope {$op[1]}: finished ' . var_export(\$sc{$op[1]}->isFinished(), true) . ', cancelled ' . var_export(\$sc{$op[1]}->isCancelled(), true)); }";
                    }
                    break;
                case 'scopecancel':
                    [, $sid, $bs, $smsg, $wait, $post] = $op;
                    if ($C) {
                        if ($this->emittingMain && in_array('main-spin', $this->avoid, true)) {
                            $wait = 'delay1';
                        }
                        $w = match ($wait) { 'suspend' => 'suspend();', 'delay0' => 'delay(0);', 'delay1' => 'delay(1);' };
                        foreach ($bs as $b) {
                            $L[] = "{$I}while (!parked($b)) { $w }";
                        }
                        $L[] = "{$I}\$sc{$sid}->cancel(" . ($smsg === null ? '' : "new AsyncCancellation('$smsg')") . ');';
                        $L[] = "{$I}if (!\$sc{$sid}->isCancelled()) { fail('scope $sid not cancelled'); }";
                    }
                    switch ($post) {
                        case 'completion':
                            if ($C) {
                                $L[] = "{$I}try {";
                                $L[] = "{$I}    \$sc{$sid}->awaitCompletion(timeout(600000));";
                                $L[] = "{$I}    fail('awaitCompletion() of the cancelled scope $sid did not throw');";
                                $L[] = "{$I}} catch (AsyncCancellation \$e) {";
                                $L[] = "{$I}    \$a = mix(\$a, esig(\$e));";
                                $L[] = "{$I}}";
                            } else {
                                $L[] = "{$I}\$a = mix(\$a, esig(new SeqCancel('The scope has been cancelled')));";
                            }
                            break;
                        case 'after':
                            if ($C) {
                                $L[] = "{$I}\$sc{$sid}->awaitAfterCancellation(null, timeout(600000));";
                                foreach ($bs as $b) {
                                    $L[] = "{$I}if (!\$h{$b}->isCompleted()) { fail('blocker $b running after awaitAfterCancellation()'); }";
                                }
                            }
                            break;
                        case 'spawn':
                            if ($C) {
                                $L[] = "{$I}try {";
                                $L[] = "{$I}    \$sc{$sid}->spawn(fn() => 1);";
                                $L[] = "{$I}    fail('spawn into the cancelled scope $sid');";
                                $L[] = "{$I}} catch (Async\\AsyncException \$e) {";
                                $L[] = "{$I}    \$a = mix(\$a, esig(\$e));";
                                $L[] = "{$I}}";
                            } else {
                                $L[] = "{$I}\$a = mix(\$a, esig(new Async\\AsyncException('Cannot spawn a coroutine in a closed scope')));";
                            }
                            break;
                    }
                    break;
                case 'awaitset':
                    array_push($L, ...$this->emitAwaitSet($op, $m, $I));
                    break;
                case 'tgnew':
                    [, $gid, $conc, $ql] = $op;
                    $L[] = $C ? "{$I}\$tg$gid = new Async\\TaskGroup($conc, $ql);" : "{$I}\$tg$gid = [];";
                    break;
                case 'tgspawn':
                    [, $gid, $k, $key, $conc, $viaArgs] = $op;
                    $x = $this->nodes[$k]['x'];
                    if ($C) {
                        $call = $key === null ? "\$tg{$gid}->spawn(" : "\$tg{$gid}->spawnWithKey($key, ";
                        $L[] = $I . $call . ($viaArgs ? "'tg_task', $gid, $conc, fn() => c_$k($x));"
                            : "fn() => tg_task($gid, $conc, fn() => c_$k($x)));");
                    } else {
                        $L[] = "{$I}\$tg$gid" . ($key === null ? '[]' : "[$key]") . " = sq(fn() => s_$k($x));";
                    }
                    break;
                case 'tgall':
                    [, $gid, $ignore, $errs] = $op;
                    if ($ignore) {
                        $L[] = $C ? "{$I}\$a = mix(\$a, aw_sig([await(\$tg{$gid}->all(true)), []], true));"
                            : "{$I}\$a = mix(\$a, aw_sig([sall(\$tg$gid, false)[0], []], true));";
                    } elseif (!$errs) {
                        $L[] = $C ? "{$I}\$a = mix(\$a, aw_sig([await(\$tg{$gid}->all()), []], true));"
                            : "{$I}\$a = mix(\$a, aw_sig(sall(\$tg$gid, false), true));";
                    } elseif ($C) {
                        $L[] = "{$I}try {";
                        $L[] = "{$I}    await(\$tg{$gid}->all());";
                        $L[] = "{$I}    fail('all() of group $gid did not fail');";
                        $L[] = "{$I}} catch (Async\\CompositeException \$e) {";
                        $L[] = "{$I}    \$a = mix(\$a, comp_sig(\$e->getMessage(), \$e->getExceptions()));";
                        $L[] = "{$I}}";
                    } else {
                        $L[] = "{$I}\$a = mix(\$a, comp_sig(sprintf('%d of %d task%s failed', count(sall(\$tg$gid, false)[1]), count(\$tg$gid), count(\$tg$gid) === 1 ? '' : 's'), sall(\$tg$gid, false)[1]));";
                    }
                    break;
                case 'tgfinally':
                    [, $gid, $fid] = $op;
                    $L[] = "{$I}reg('$fid');";
                    $L[] = $C ? "{$I}\$tg{$gid}->finally(function (\$g) { fin('$fid'); });" : "{$I}fin('$fid');";
                    break;
                case 'tgend':
                    [, $gid, $iter, $count] = $op;
                    if ($C) {
                        $L[] = "{$I}\$tg{$gid}->close();";
                        $L[] = "{$I}\$tg{$gid}->awaitCompletion();";
                        $L[] = "{$I}if (count(\$tg$gid) !== $count || !\$tg{$gid}->isFinished()) { fail('group $gid: count ' . count(\$tg$gid) . ', finished ' . var_export(\$tg{$gid}->isFinished(), true)); }";
                        $L[] = "{$I}\$a = mix(\$a, aw_sig(" . ($iter ? "tg_iter(\$tg$gid)" : "[\$tg{$gid}->getResults(), \$tg{$gid}->getErrors()]") . ', true));';
                    } else {
                        $L[] = "{$I}\$a = mix(\$a, aw_sig(sall(\$tg$gid, false), true));";
                    }
                    break;
                case 'gc':
                    if ($C) {
                        $L[] = "{$I}gc_collect_cycles();";
                    }
                    break;
                case 'probe':
                    // Introspection of a coroutine in whatever state it is: must not crash.
                    if ($C) {
                        $L[] = "{$I}probe({$op[1]});";
                    }
                    break;
                case 'ctx':
                    $L[] = "{$I}\$a = mix(\$a, ctx_$m(\$a, {$op[1]}));";
                    break;
                case 'protectThrow':
                    [, $block, $code] = $op;
                    $L[] = "{$I}try {";
                    $L[] = $C ? "{$I}    protect(function () {" : "{$I}    (function () {";
                    $L[] = "{$I}        \$a = $code;";
                    array_push($L, ...$this->emitOps($block, $m, $depth + 2));
                    $L[] = "{$I}        throw new LocalErr('p', mix(\$a, $code));";
                    $L[] = $C ? "{$I}    });" : "{$I}    })();";
                    $L[] = "{$I}    fail('protect() swallowed an exception');";
                    $L[] = "{$I}} catch (LocalErr \$e) {";
                    $L[] = "{$I}    \$a = mix(\$a, esig(\$e));";
                    $L[] = "{$I}}";
                    break;
                case 'checkdone':
                    if ($C) {
                        $L[] = "{$I}if (!{$op[1]}->isCompleted()) { fail('{$op[1]} not completed after await'); }";
                    }
                    break;
                case 'try':
                    [, $hid, $block, $local] = $op;
                    if ($hid !== null) {
                        $L[] = "{$I}reg('$hid');";
                    }
                    $L[] = "{$I}try {";
                    array_push($L, ...$this->emitOps($block, $m, $depth + 1));
                    if ($local !== null) {
                        $L[] = "{$I}    throw new LocalErr('l', $local);";
                        $L[] = "{$I}} catch (LocalErr \$e) {";
                        $L[] = "{$I}    \$a = mix(\$a, esig(\$e));";
                    }
                    if ($hid !== null) {
                        $L[] = "{$I}} finally {";
                        $L[] = "{$I}    fin('$hid');";
                    }
                    $L[] = "{$I}}";
                    break;
                case 'protect':
                    [, $block, $k, $arrowish] = $op;
                    $L[] = $C ? "{$I}\$a = mix(\$a, protect(function () {" : "{$I}\$a = mix(\$a, (function () {";
                    $L[] = "{$I}    \$a = $k;";
                    array_push($L, ...$this->emitOps($block, $m, $depth + 1));
                    $L[] = "{$I}    return \$a;";
                    $L[] = $C ? "{$I}}));" : "{$I}})());";
                    break;
                default:
                    throw new LogicException('unknown op ' . $op[0]);
            }
        }
        return $L;
    }
}

function shuffle_mt(array &$a): void
{
    for ($i = count($a) - 1; $i > 0; $i--) {
        $j = mt_rand(0, $i);
        [$a[$i], $a[$j]] = [$a[$j], $a[$i]];
    }
}

const PRELUDE = <<<'PHP'
final class TaskError extends \RuntimeException {}
final class HandlerError extends \RuntimeException {}
final class LocalErr extends \RuntimeException {}
final class SeqCancel extends \Exception {}
final class SeqOpCancel extends \Exception {}
final class SeqTimeout extends \Exception {}
/** Sequential twins of FutureState/Future and Channel. */
final class SeqState
{
    public array $r = [];
    public function complete(int $v): void { $this->r = ['v' => $v]; }
    public function error(\Throwable $e): void { $this->r = ['e' => $e]; }
}
/** spawn_with() form: the current scope, hooks counted (checked by run.php's invariants below). */
final class Strategy implements \Async\SpawnStrategy
{
    public int $before = 0;
    public int $after = 0;
    public function provideScope(): ?\Async\Scope { return null; }
    public function beforeCoroutineEnqueue(\Async\Coroutine $c, \Async\Scope $s): array
    {
        if ($c->isQueued() || $this->before !== $this->after) { fail('beforeCoroutineEnqueue out of order'); }
        $this->before++;
        return [];
    }
    public function afterCoroutineEnqueue(\Async\Coroutine $c, \Async\Scope $s): void
    {
        if (!$c->isQueued() && !$c->isCompleted()) { fail('afterCoroutineEnqueue before the enqueue'); }
        $this->after++;
    }
}
function strategy(): Strategy { static $s; return $s ??= new Strategy(); }
final class SeqChan implements \IteratorAggregate
{
    public array $values = [];
    public function send(int $v): void { $this->values[] = $v; }
    public function getIterator(): \Iterator { return new \ArrayIterator($this->values); }
}

$MODE = 's';
$REGS = ['s' => [], 'c' => []];   // try/finally blocks entered, finally handlers registered
$CNT = ['s' => [], 'c' => []];    // how often each of them ran
$OUT = ['s' => [], 'c' => []];    // results of fire-and-forget tasks
$SPAWNS = ['s' => 0, 'c' => 0];
$FAILS = [];
$ST = [];                         // "parked" flags of blockers
$HANDLES = [];                    // [Coroutine, expected isCancelled() or null]
$WEAK = [];
$NEVER = null;
$SCOPES = [];                     // [Scope, expected isCancelled()], alive for the program
$SERR = [];                       // coroutine id => errors absorbed by a scope's exception handler
$TGIN = [];                       // tasks of each TaskGroup running now (bounded by its concurrency)

/* A scope's exception handler absorbs an error nobody awaited yet when its coroutine ended (how
 * often depends on the schedule): it may only be a task's own error, and only once per coroutine. */
function scope_err(Coroutine $c, \Throwable $e): void
{
    if (!$e instanceof TaskError && !$e instanceof HandlerError) {
        fail('scope exception handler got ' . get_class($e) . ': ' . $e->getMessage());
    }
    if (isset($GLOBALS['SERR'][$c->getId()])) {
        fail('scope exception handler called twice for coroutine #' . $c->getId());
    }
    $GLOBALS['SERR'][$c->getId()] = true;
}

/* A ping-pong over a socket pair with a peer coroutine: n lines each way (fwrite/fgets suspend). */
function sock_c(int $a, int $n): int
{
    [$x, $y] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
    $peer = track(spawn(function () use ($y, $n) {
        $s = 0;
        for ($i = 0; $i < $n; $i++) {
            $v = (int) fgets($y);
            $s = mix($s, $v);
            fwrite($y, ($v * 3 + 1) . "\n");
        }
        fclose($y);
        return $s;
    }), false);
    $r = 0;
    for ($i = 0; $i < $n; $i++) {
        fwrite($x, ($a % 100000 + $i) . "\n");
        $r = mix($r, (int) fgets($x));
    }
    if (fgets($x) !== false) { fail('socket pair: data after the peer closed'); }
    fclose($x);
    return mix($r, await($peer));
}
function sock_s(int $a, int $n): int
{
    spawned();
    $r = 0;
    $s = 0;
    for ($i = 0; $i < $n; $i++) {
        $v = $a % 100000 + $i;
        $s = mix($s, $v);
        $r = mix($r, $v * 3 + 1);
    }
    return mix($r, $s);
}

/* Network I/O: line ping-pongs with an echo upstream (a child php without ext-async) through fault
 * proxies (tests/chaos/proxy.c), one per fault of NET_FAULTS. tests/fuzz/run.php starts them once
 * for its whole run and passes their addresses in FUZZ_NET; a program run alone starts its own
 * before the concurrent run. Each line is NET_LINE bytes; the next is written once the echo of
 * the previous came back. */
const NET_LINE = 16;
$NETADDR = [];
$NETKEEP = [];
function net_start(): void
{
    $shared = json_decode((string) getenv('FUZZ_NET'), true);
    if (is_array($shared)) {
        foreach (NET_FAULTS as $p => [$spec]) {
            $GLOBALS['NETADDR'][$p] = $shared[$spec] ?? null;
        }
        if (NET_BLACK) {
            $GLOBALS['NETADDR']['black'] = $shared['blackhole'] ?? null;
        }
        if (!in_array(null, $GLOBALS['NETADDR'], true)) {
            return;
        }
        $GLOBALS['NETADDR'] = [];
    }
    $inc = null;
    foreach ([__DIR__ . '/../../chaos/proxy.inc', (getenv('ASYNC_SRC_ROOT') ?: '/nonexistent') . '/tests/chaos/proxy.inc',
        getcwd() . '/tests/chaos/proxy.inc'] as $f) {
        if (is_file($f)) {
            $inc = $f;
            break;
        }
    }
    if ($inc === null) {
        echo "FAIL network I/O: tests/chaos/proxy.inc not found (run from the repository, or set ASYNC_SRC_ROOT)\n";
        exit(1);
    }
    require_once $inc;
    if (($why = chaos_skip_reason()) !== '') {
        echo "FAIL network I/O: $why\n";
        exit(1);
    }
    $echo = ChaosEcho::start();
    $GLOBALS['NETKEEP'][] = $echo;
    foreach (NET_FAULTS as $p => [$spec]) {
        $proxy = ChaosProxy::start($echo->addr, $spec, FUZZ_SEED, ['--quiet']);
        $GLOBALS['NETADDR'][$p] = $proxy->addr;
        $GLOBALS['NETKEEP'][] = $proxy;
    }
    if (NET_BLACK) {
        $proxy = ChaosProxy::start($echo->addr, 'blackhole', FUZZ_SEED, ['--quiet']);
        $GLOBALS['NETADDR']['black'] = $proxy->addr;
        $GLOBALS['NETKEEP'][] = $proxy;
    }
}
function net_lines(int $a, int $n): array
{
    $lines = [];
    for ($i = 0; $i < $n; $i++) {
        $lines[] = sprintf('%0' . (NET_LINE - 1) . 'd', ($a * 31 + $i * 7919) % 100000000000000) . "\n";
    }
    return $lines;
}
/* How many of n lines come back whole through proxy p: all ("pass"), none ("refuse"), or those
 * whole within the cut's byte count (for a cut of the way up the count is never at a line's end). */
function net_expect(int $p, int $n): int
{
    [, $kind, , $cut] = NET_FAULTS[$p];
    return match ($kind) { 'pass' => $n, 'refuse' => 0, default => min($n, intdiv($cut, NET_LINE)) };
}
function net_c(int $a, int $p, int $n): int
{
    $got = 0;
    $c = @stream_socket_client('tcp://' . $GLOBALS['NETADDR'][$p], $errno, $errstr, 5);
    if ($c !== false) {
        stream_set_timeout($c, 5);
        $buf = '';
        foreach (net_lines($a, $n) as $line) {
            if (@fwrite($c, $line) !== NET_LINE) {
                break;
            }
            while (($nl = strpos($buf, "\n")) === false) {
                $chunk = @fread($c, 8192);
                if ($chunk === false || $chunk === '') {
                    break 2;
                }
                $buf .= $chunk;
            }
            if (substr($buf, 0, $nl + 1) !== $line) {
                fail("net: line $got came back as " . json_encode(substr($buf, 0, $nl + 1)) . ' through ' . NET_FAULTS[$p][0]);
                break;
            }
            $buf = substr($buf, $nl + 1);
            $got++;
        }
        if (stream_get_meta_data($c)['timed_out']) {
            fail("net: a read timed out (5 s) through '" . NET_FAULTS[$p][0] . "'");
        }
        fclose($c);
    }
    if ($got !== net_expect($p, $n)) {
        fail("net: $got of $n lines came back through '" . NET_FAULTS[$p][0] . "', expected " . net_expect($p, $n));
    }
    return mix($a, $got * 100 + $n);
}
function net_s(int $a, int $p, int $n): int
{
    return mix($a, net_expect($p, $n) * 100 + $n);
}
/* A blocker's connection to the blackholing proxy: nothing ever comes back. */
function net_black(): mixed
{
    $c = stream_socket_client('tcp://' . $GLOBALS['NETADDR']['black'], $errno, $errstr, 5);
    stream_set_timeout($c, 3600);
    fwrite($c, "parked\n");
    return $c;
}

/* The await_*() family. Sequentially a set is [key => recorded outcome or SeqState]. */
function sall(array $set, bool $fill): array
{
    $r = [];
    $e = [];
    foreach ($set as $k => $x) {
        $x = $x instanceof SeqState ? $x->r : $x;
        if (isset($x['e'])) {
            $e[$k] = $x['e'];
            if ($fill) { $r[$k] = null; }
        } else {
            $r[$k] = $x['v'];
        }
    }
    return [$r, $e];
}
function aw_sort(array $a): array { uksort($a, fn($x, $y) => strcmp((string) $x, (string) $y)); return $a; }
/** Signature of [results, errors], in their order or sorted by key (an order that depends on the schedule). */
function aw_sig(array $re, bool $sort): int
{
    [$r, $e] = $re;
    if ($sort) { $r = aw_sort($r); $e = aw_sort($e); }
    $es = [];
    foreach ($e as $k => $x) { $es[] = "$k=" . esig_s($x); }
    return crc32(json_encode([array_keys($r), array_values($r)]) . '|' . implode(',', $es));
}
function comp_sig(string $msg, array $errors): int { return crc32($msg . aw_sig([[], $errors], true)); }
/** Is $e the outcome of one of the coroutines of $set (which one depends on the schedule)? */
function err_of(\Throwable $e, array $set): bool
{
    foreach ($set as $c) { if ($c->isCompleted() && $c->getException() === $e) { return true; } }
    return false;
}
function res_of(mixed $v, array $set): bool
{
    foreach ($set as $c) { if ($c->isCompleted() && $c->getException() === null && $c->getResult() === $v) { return true; } }
    return false;
}
function set_members(array $r, array $e, array $set): void
{
    foreach ($r as $k => $v) {
        if (!isset($set[$k]) || !$set[$k]->isCompleted() || $set[$k]->getException() !== null || $set[$k]->getResult() !== $v) { fail("await_*(): result $k is not its coroutine's"); }
    }
    foreach ($e as $k => $x) {
        if (!isset($set[$k]) || $set[$k]->getException() !== $x) { fail("await_*(): error $k is not its coroutine's"); }
    }
}
function any_check(array $re, array $set, int $want): int
{
    set_members($re[0], $re[1], $set);
    if (count($re[0]) !== $want) { fail('await_any_of(): ' . count($re[0]) . " results, expected $want"); }
    return count($re[0]);
}
function first_check(array $re, array $set, int $nsucc): int
{
    [$v, $e] = $re;
    set_members([], $e, $set);
    if ($nsucc > 0 && !res_of($v, $set)) { fail('await_first_success(): a foreign result'); }
    if ($nsucc === 0 && ($v !== null || count($e) !== count($set))) { fail('await_first_success(): not every error'); }
    return $nsucc > 0 ? 1 : 0;
}

/* A TaskGroup task: counts itself, and checks the group's concurrency limit. */
function tg_task(int $g, int $limit, \Closure $f): int
{
    spawned();
    $n = $GLOBALS['TGIN'][$g] = ($GLOBALS['TGIN'][$g] ?? 0) + 1;
    if ($n > $limit) { fail("group $g: $n tasks running, limit $limit"); }
    try { return $f(); } finally { $GLOBALS['TGIN'][$g]--; }
}
function tg_iter(Async\TaskGroup $g): array
{
    $r = [];
    $e = [];
    foreach ($g as $k => [$v, $x]) {
        if (isset($r[$k]) || isset($e[$k])) { fail("group iteration: key $k twice"); }
        if ($x !== null) { $e[$k] = $x; } else { $r[$k] = $v; }
    }
    return [$r, $e];
}

/* The same outcome through a Future: a relay coroutine moves $c's result or error into a
 * FutureState; the reader awaits it, maybe through an identity map() link. */
function via_future(Coroutine $c, bool $mapped): mixed
{
    $state = new FutureState();
    spawn(function () use ($c, $state) {
        try { $state->complete(await($c)); } catch (\Throwable $e) { $state->error($e); }
    });
    $f = new Future($state);
    return ($mapped ? $f->map(fn($v) => $v) : $f)->await();
}
function mix(int $a, int $b): int { return ((($a % 1000003) * 1103 + $b + 12345) % 2147483629 + 2147483629) % 2147483629; }
function reg(string $id): void { global $MODE, $REGS; $REGS[$MODE][$id] = ($REGS[$MODE][$id] ?? 0) + 1; }
function fin(string $id): void { global $MODE, $CNT; $CNT[$MODE][$id] = ($CNT[$MODE][$id] ?? 0) + 1; }
function fail(string $m): void { $GLOBALS['FAILS'][] = $m; }
function finish(): never
{
    foreach (array_unique($GLOBALS['FAILS']) as $f) {
        echo "FAIL $f\n";
    }
    // exit() from the main flow leaves the other coroutines running (parked for an hour here):
    // cancel them first.
    if ($GLOBALS['MODE'] === 'c') {
        foreach (get_coroutines() as $co) {
            if ($co !== current_coroutine()) {
                $co->cancel();
            }
        }
    }
    exit(1);
}
function out(int $k, int $v): void { $GLOBALS['OUT'][$GLOBALS['MODE']][$k] = $v; }
function st(int $k): void { if ($GLOBALS['MODE'] === 'c') { $GLOBALS['ST'][$k] = true; } }
/** A canceller waits for its blocker to park; a bounded wait turns a starved loop into a FAIL line. */
function parked(int $k): bool
{
    static $since = [];
    if (isset($GLOBALS['ST'][$k])) {
        return true;
    }
    $since[$k] ??= microtime(true);
    if (microtime(true) - $since[$k] > 3.0) {
        fail("task $k did not park within 3 s while its canceller waited for it (starved?)");
        finish();
    }
    return false;
}
function spawned(): void { $GLOBALS['SPAWNS'][$GLOBALS['MODE']]++; }
function esig_s(\Throwable $e): string
{
    $t = match (true) {
        $e instanceof OperationCanceledException, $e instanceof SeqOpCancel => 'O',
        $e instanceof AsyncCancellation, $e instanceof SeqCancel => 'C',
        $e instanceof TaskError => 'T',
        $e instanceof TimeoutException, $e instanceof SeqTimeout => 'M',
        $e instanceof HandlerError => 'H',
        $e instanceof LocalErr => 'L',
        default => 'X' . get_class($e),
    };
    $s = $t . $e->getCode() . ':' . $e->getMessage();
    return $e->getPrevious() !== null ? $s . '<' . esig_s($e->getPrevious()) : $s;
}
function esig(\Throwable $e): int { return crc32(esig_s($e)); }

// Concurrent side.
function track(Coroutine $h, ?bool $cancelled): Coroutine
{
    $GLOBALS['HANDLES'][] = [$h, $cancelled];
    $GLOBALS['WEAK'][] = WeakReference::create($h);
    spawned();
    return $h;
}
function trackw(Coroutine $h): void { $GLOBALS['WEAK'][] = WeakReference::create($h); spawned(); }
function never_leaf(): void { delay(3600000); }
function gen_c(int $k, int $n): \Generator { for ($i = 0; $i < $n; $i++) { suspend(); yield $k + $i; } }
function fiber_c(int $k): int
{
    $f = new \Fiber(function (int $v) { suspend(); $w = \Fiber::suspend($v + 1); delay(1); return $w * 2; });
    $r = $f->start($k);
    $f->resume($r + 3);
    return $f->getReturn();
}

function probe(Coroutine $h): void
{
    $h->getId(); $h->isStarted(); $h->isQueued(); $h->isRunning(); $h->isSuspended(); $h->isCancelled();
    $h->isCancellationRequested(); $h->isCompleted(); $h->getAwaitingInfo(); $h->getTrace();
    $h->getSpawnLocation(); $h->getSuspendLocation(); $h->getSuspendFileAndLine();
}
function ctx_c(int $a, int $k): int
{
    $ctx = Async\coroutine_context();
    $ctx->set("k$k", $a, true);
    suspend();
    return $ctx->get("k$k") === $a ? $a + $k : -1;
}
function ctx_s(int $a, int $k): int { return $a + $k; }
function park_gen(int $k): \Generator { yield 1; suspend(); yield 2; st($k); delay(3600000); yield 3; }

// Sequential side: a spawn is an immediate call whose outcome is recorded; await replays it.
function sq(callable $f): array { spawned(); try { return ['v' => $f()]; } catch (\Throwable $e) { return ['e' => $e]; } }
function sw(array $r): int { if (isset($r['e'])) { throw $r['e']; } return $r['v']; }
function scancelled(?string $msg): array { spawned(); return ['e' => new SeqCancel($msg ?? 'Coroutine cancelled')]; }
function hthrow(array $r, string $id, int $code): array { return ['e' => new HandlerError($id, $code, $r['e'] ?? null)]; }
function stok(array $tok): void { throw new SeqOpCancel('Operation has been cancelled', 0, $tok['e'] ?? null); }
function stimeout(int $ms): void
{
    throw new SeqOpCancel('Operation has been cancelled', 0, new SeqTimeout("Timeout occurred after $ms milliseconds"));
}
function sfut(SeqState $f): int { return sw($f->r); }
function sfut_catch(SeqState $f): int { return isset($f->r['e']) ? esig($f->r['e']) : $f->r['v']; }
function gen_s(int $k, int $n): \Generator { for ($i = 0; $i < $n; $i++) { yield $k + $i; } }
function fiber_s(int $k): int
{
    $f = new \Fiber(function (int $v) { $w = \Fiber::suspend($v + 1); return $w * 2; });
    $r = $f->start($k);
    $f->resume($r + 3);
    return $f->getReturn();
}
PHP;

const DRIVER = <<<'PHP'
function checksum(int $r): int
{
    global $OUT, $REGS, $SPAWNS, $MODE;
    ksort($OUT[$MODE]);
    return mix($r, crc32(json_encode([$OUT[$MODE], count($REGS[$MODE]), $SPAWNS[$MODE]])));
}


$MODE = 's';
try {
    $seq = MAIN_SPAWNED ? sw(sq(fn() => main_s())) : main_s();
} catch (\Throwable $e) {
    echo 'FAIL generator bug: the sequential run threw ', get_class($e), ': ', $e->getMessage(), ' at line ', $e->getLine(), "\n";
    exit(3);
}
$sum = checksum($seq);
if (getenv('FUZZ_SEQ_ONLY')) {
    echo "OK $sum\n";
    exit(0);
}

if (NET_FAULTS || NET_BLACK) {
    net_start();
}
$MODE = 'c';
$conc = null;
try {
    if (USES_NEVER) {
        $NEVER = spawn('never_leaf');
    }
    $conc = MAIN_SPAWNED ? await(track(spawn('main_c'), false)) : main_c();
} catch (\Throwable $e) {
    fail('escaped: ' . get_class($e) . ': ' . $e->getMessage() . ' at line ' . $e->getLine()
        . ($e->getPrevious() ? ' (previous ' . get_class($e->getPrevious()) . ': ' . $e->getPrevious()->getMessage() . ')' : ''));
    finish();
}
unset($e);
// Fire-and-forget tasks may still run; give them a bounded time.
$deadline = microtime(true) + 4.0;
$expectLeft = 1 + ($NEVER !== null ? 1 : 0);
while (count(get_coroutines()) > $expectLeft && microtime(true) < $deadline) {
    delay(1);
}
if ($NEVER !== null) {
    $NEVER->cancel();
    try {
        await($NEVER);
        fail('NEVER finished');
    } catch (AsyncCancellation $e) {
    }
    unset($e);
}
if ($conc !== $seq) {
    fail("result: concurrent $conc, sequential $seq");
}
ksort($REGS['c']); ksort($REGS['s']); ksort($CNT['c']); ksort($OUT['c']); ksort($OUT['s']);
foreach ($REGS['c'] as $id => $n) {
    if ($n !== 1) {
        fail("finally $id registered/entered $n times");
    }
    if (($CNT['c'][$id] ?? 0) !== 1) {
        fail("finally $id ran " . ($CNT['c'][$id] ?? 0) . ' times');
    }
}
foreach (array_diff_key($CNT['c'], $REGS['c']) as $id => $n) {
    fail("finally $id ran $n times but was never registered");
}
if (array_keys($REGS['c']) !== array_keys($REGS['s'])) {
    fail('finally set differs: only concurrent [' . implode(',', array_keys(array_diff_key($REGS['c'], $REGS['s'])))
        . '], only sequential [' . implode(',', array_keys(array_diff_key($REGS['s'], $REGS['c']))) . ']');
}
if ($OUT['c'] !== $OUT['s']) {
    fail('fire-and-forget results differ: ' . json_encode($OUT['c']) . ' vs ' . json_encode($OUT['s']));
}
if ($SPAWNS['c'] !== $SPAWNS['s']) {
    fail("spawn count: concurrent {$SPAWNS['c']}, sequential {$SPAWNS['s']}");
}
foreach ($HANDLES as $i => [$h, $cancelled]) {
    if (!$h->isCompleted()) {
        fail('coroutine #' . $h->getId() . ' spawned at ' . $h->getSpawnLocation() . ' not completed, suspended at '
            . $h->getSuspendLocation());
    } elseif ($cancelled !== null && $h->isCancelled() !== $cancelled) {
        fail('coroutine spawned at ' . $h->getSpawnLocation() . ': isCancelled() is ' . var_export($h->isCancelled(), true));
    }
}
$left = get_coroutines();
if (count($left) > 1 || (count($left) === 1 && $left[0] !== current_coroutine())) {
    $where = [];
    foreach ($left as $co) {
        if ($co !== current_coroutine()) {
            $where[] = $co->getSpawnLocation() . ' suspended at ' . $co->getSuspendLocation();
        }
    }
    fail('coroutines left: ' . implode('; ', $where));
}
foreach ($SCOPES as [$sc, $cancelled]) {
    if (!$sc->isFinished() || $sc->isCancelled() !== $cancelled) {
        fail('scope: finished ' . var_export($sc->isFinished(), true) . ', cancelled ' . var_export($sc->isCancelled(), true));
    }
}
foreach ($TGIN as $g => $n) {
    if ($n !== 0) { fail("group $g: $n tasks still counted as running"); }
}
unset($left, $co, $h, $sc);
$SCOPES = [];
$HANDLES = [];
$NEVER = null;
// Let the run queue drop its references (a finished coroutine may still sit in it; with a
// perturbed schedule main can be picked first several times, so wait on a timer).
delay(1);
delay(1);
gc_collect_cycles();
$alive = 0;
foreach ($WEAK as $w) {
    $alive += $w->get() !== null ? 1 : 0;
}
if ($alive) {
    fail("$alive Coroutine objects still alive after their handles were dropped");
}
if ($FAILS) {
    finish();
}
$snapshot = $CNT['c'];
register_shutdown_function(function () use ($snapshot) {
    if ($GLOBALS['CNT']['c'] !== $snapshot || $GLOBALS['FAILS']) {
        echo "FAIL state changed after the script ended\n";
    }
});
echo "OK $sum\n";
PHP;

if (PHP_SAPI === 'cli' && realpath($argv[0] ?? '') === __FILE__) {
    $seed = null;
    $size = null;
    $avoid = [];
    $net = 'auto';
    foreach (array_slice($argv, 1) as $arg) {
        if (str_starts_with($arg, '--size=')) {
            $size = (int) substr($arg, 7);
        } elseif (str_starts_with($arg, '--avoid=')) {
            $avoid = array_filter(explode(',', substr($arg, 8)));
        } elseif (in_array($arg, ['--net=auto', '--net=on', '--net=off'], true)) {
            $net = substr($arg, 6);
        } elseif (is_numeric($arg)) {
            $seed = (int) $arg;
        }
    }
    if ($seed === null) {
        fwrite(STDERR, "usage: php generate.php <seed> [--size=N] [--avoid=main-spin,...] [--net=auto|on|off]\n");
        exit(2);
    }
    $g = new FuzzGen($seed, $size, $avoid, $net);
    $g->generate();
    echo $g->emit();
}
