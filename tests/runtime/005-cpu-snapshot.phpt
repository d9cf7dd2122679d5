--TEST--
CpuSnapshot: now() fills six readonly ints that move forward; no constructor, no writes, no dynamic properties, no serialization
--FILE--
<?php
use Async\CpuSnapshot;

$a = CpuSnapshot::now();
$t0 = hrtime(true);
while (hrtime(true) - $t0 < 20e6) {} // 20 ms of CPU
$b = CpuSnapshot::now();

$props = array_map(fn($p) => $p->getName() . ($p->isReadOnly() ? ' readonly ' : ' ') . $p->getType(),
    (new ReflectionClass(CpuSnapshot::class))->getProperties());
echo implode("\n", $props), "\n";
var_dump((new ReflectionClass(CpuSnapshot::class))->isFinal());

var_dump($b->wallNs > $a->wallNs, $b->wallNs - $a->wallNs >= 20e6);
var_dump($b->processUserNs + $b->processSystemNs > $a->processUserNs + $a->processSystemNs);
var_dump($a->processUserNs >= 0, $a->processSystemNs >= 0);
var_dump($a->cpuCount >= 1, $a->systemIdleNs + $a->systemBusyNs > 0);
var_dump($b->systemBusyNs >= $a->systemBusyNs, $b->systemIdleNs >= $a->systemIdleNs);

try { $a->wallNs = 1; } catch (Error $e) { echo $e->getMessage(), "\n"; }
try { $a->other = 1; } catch (Error $e) { echo $e->getMessage(), "\n"; }
try { new CpuSnapshot(); } catch (Error $e) { echo $e->getMessage(), "\n"; }
try { serialize($a); } catch (Exception $e) { echo $e->getMessage(), "\n"; }
// Made without its constructor: the properties are just uninitialized.
$raw = (new ReflectionClass(CpuSnapshot::class))->newInstanceWithoutConstructor();
try { echo $raw->wallNs; } catch (Error $e) { echo $e->getMessage(), "\n"; }
$c = clone $a;
var_dump($c->wallNs === $a->wallNs);
?>
--EXPECT--
wallNs readonly int
processUserNs readonly int
processSystemNs readonly int
systemIdleNs readonly int
systemBusyNs readonly int
cpuCount readonly int
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
Cannot modify readonly property Async\CpuSnapshot::$wallNs
Cannot create dynamic property Async\CpuSnapshot::$other
Call to private Async\CpuSnapshot::__construct() from global scope
Serialization of 'Async\CpuSnapshot' is not allowed
Typed property Async\CpuSnapshot::$wallNs must not be accessed before initialization
bool(true)
