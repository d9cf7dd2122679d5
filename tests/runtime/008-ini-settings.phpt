--TEST--
INI entries: defaults, runtime changes, rejected out-of-range async.vm_stack_size
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
var_dump(ini_get('async.debug_deadlock'));
var_dump(ini_get('async.vm_stack_size'));
var_dump(ini_get('async.context_pool_size'));
var_dump(ini_get('async.schedule_seed'));
var_dump(ini_get('async.max_contexts') !== false);

var_dump(ini_set('async.vm_stack_size', '100'));          // too small: rejected
var_dump(ini_get('async.vm_stack_size'));
var_dump(ini_set('async.vm_stack_size', '999999999'));    // too large: rejected
var_dump(ini_get('async.vm_stack_size'));
var_dump(ini_set('async.vm_stack_size', '8192'));
var_dump(ini_get('async.vm_stack_size'));
var_dump(ini_set('async.debug_deadlock', '0'));
var_dump(ini_get('async.debug_deadlock'));

// Coroutines work with the changed stack size.
var_dump(Async\await(Async\spawn(fn() => "ok")));
?>
--EXPECT--
string(1) "1"
string(4) "2048"
string(3) "128"
string(1) "0"
bool(true)
bool(false)
string(4) "2048"
bool(false)
string(4) "2048"
string(4) "2048"
string(4) "8192"
string(1) "1"
string(1) "0"
string(2) "ok"
