--TEST--
async.pgsql_cancel_grace_ms: 2000 by default, 1 to 3600000 ms; other values are refused and the old one stays
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--FILE--
<?php
var_dump(ini_get('async.pgsql_cancel_grace_ms'));
foreach (['0', '-5', '3600001', 'abc'] as $bad) {
    var_dump(@ini_set('async.pgsql_cancel_grace_ms', $bad), ini_get('async.pgsql_cancel_grace_ms'));
}
var_dump(ini_set('async.pgsql_cancel_grace_ms', '1'), ini_get('async.pgsql_cancel_grace_ms'));
var_dump(ini_set('async.pgsql_cancel_grace_ms', '3600000'), ini_get('async.pgsql_cancel_grace_ms'));
?>
--EXPECT--
string(4) "2000"
bool(false)
string(4) "2000"
bool(false)
string(4) "2000"
bool(false)
string(4) "2000"
bool(false)
string(4) "2000"
string(4) "2000"
string(1) "1"
string(1) "1"
string(7) "3600000"
