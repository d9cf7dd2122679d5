--TEST--
runtime_stats(): exactly the spec's keys, all int; before launch everything is zero but the stack size (and it launches nothing)
--INI--
fiber.stack_size=1M
--FILE--
<?php
$stats = Async\runtime_stats();
var_dump(array_keys($stats));
var_dump(array_filter($stats, fn($v) => !is_int($v)));
var_dump(array_filter($stats));
var_dump(Async\get_coroutines());
try {
    Async\current_coroutine();
} catch (Async\AsyncException $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECT--
array(10) {
  [0]=>
  string(16) "coroutines_total"
  [1]=>
  string(17) "coroutines_active"
  [2]=>
  string(16) "microtasks_queue"
  [3]=>
  string(15) "coroutine_queue"
  [4]=>
  string(13) "resumed_queue"
  [5]=>
  string(16) "fiber_pool_count"
  [6]=>
  string(19) "fiber_pool_capacity"
  [7]=>
  string(14) "fiber_pool_min"
  [8]=>
  string(16) "fiber_stack_size"
  [9]=>
  string(24) "fiber_pool_virtual_bytes"
}
array(0) {
}
array(1) {
  ["fiber_stack_size"]=>
  int(1048576)
}
array(0) {
}
The current coroutine is not defined
