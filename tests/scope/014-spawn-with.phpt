--TEST--
spawn_with(): ScopeProvider, SpawnStrategy hooks around the enqueue, null provider, closed scope, a refusing hook
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
use Async\{Scope, ScopeProvider, SpawnStrategy, Coroutine};
use function Async\{await, spawn_with};

class Strategy implements SpawnStrategy {
    public array $log = [];
    public function __construct(private Scope $scope) {}
    public function provideScope(): ?Scope { return $this->scope; }
    public function beforeCoroutineEnqueue(Coroutine $c, Scope $s): array {
        $this->log[] = "before queued=" . var_export($c->isQueued(), true) . " same=" . var_export($s === $this->scope, true);
        return [];
    }
    public function afterCoroutineEnqueue(Coroutine $c, Scope $s): void {
        $this->log[] = "after queued=" . var_export($c->isQueued(), true);
    }
}
$scope = new Scope();
$st = new Strategy($scope);
$c = spawn_with($st, fn($a, $b) => $a + $b, 40, b: 2);
var_dump(await($c));
print_r($st->log);

class Plain implements ScopeProvider { public function __construct(private ?Scope $s) {} public function provideScope(): ?Scope { return $this->s; } }
var_dump(await(spawn_with(new Plain(null), fn() => "current scope")));
var_dump(await(spawn_with($scope, fn() => "a scope is a provider")));

// A closed scope refuses.
$scope->dispose();
try { spawn_with($scope, fn() => 1); } catch (Async\AsyncException $e) { echo $e->getMessage(), "\n"; }

// A throwing beforeCoroutineEnqueue: the coroutine never runs, the error reaches the caller.
class Refuse implements SpawnStrategy {
    public function provideScope(): ?Scope { return null; }
    public function beforeCoroutineEnqueue(Coroutine $c, Scope $s): array { throw new DomainException("refused"); }
    public function afterCoroutineEnqueue(Coroutine $c, Scope $s): void {}
}
$ran = false;
try { spawn_with(new Refuse, function () use (&$ran) { $ran = true; }); } catch (DomainException $e) { echo $e->getMessage(), "\n"; }
Async\delay(1);
var_dump($ran);
?>
--EXPECT--
int(42)
Array
(
    [0] => before queued=false same=true
    [1] => after queued=true
)
string(13) "current scope"
string(21) "a scope is a provider"
Cannot spawn a coroutine in a closed scope
refused
bool(false)
