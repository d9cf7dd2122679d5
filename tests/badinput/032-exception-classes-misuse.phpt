--TEST--
CompositeException/RemoteException misuse: adding itself, reflection-corrupted properties, constructor-less instances, serialization, hierarchy
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
async.debug_deadlock=0
--FILE--
<?php
function show(string $label, callable $f): void {
    try {
        $r = $f();
        echo "$label: ", is_object($r) ? get_class($r) : (is_array($r) ? json_encode($r) : var_export($r, true)), "\n";
    } catch (Throwable $e) {
        echo "$label: ", get_class($e), ": ", $e->getMessage(), "\n";
    }
}
$c = new Async\CompositeException("composite");
show("add itself", function () use ($c) { $c->addException($c); return count($c->getExceptions()); });
show("add itself again", function () use ($c) { $c->addException($c); return count($c->getExceptions()); });
show("string conversion with itself inside", fn() => str_contains((string) $c, "composite"));
show("print_r with itself inside", fn() => strlen(print_r($c, true)) > 0);
show("var_export with itself inside", fn() => strlen(var_export($c, true)) > 0);
show("add a cancellation", function () use ($c) { $c->addException(new Async\AsyncCancellation("c")); return count($c->getExceptions()); });
show("getExceptions keeps order", fn() => array_map(fn($e) => $e->getMessage(), $c->getExceptions()));
show("previous chain with itself", fn() => (new Async\CompositeException("outer", 0, $c))->getPrevious() === $c);

$p = new ReflectionProperty(Async\CompositeException::class, 'exceptions');
$d = new Async\CompositeException();
show("exceptions set to non-throwables via reflection", function () use ($p, $d) { $p->setValue($d, [1, "x", null]); return $d->getExceptions(); });
show("add after corruption", function () use ($d) { $d->addException(new Exception("e")); return count($d->getExceptions()); });
show("exceptions set to a string via reflection", fn() => $p->setValue($d, "not an array"));
show("exceptions set by reference", function () use ($p) {
    $e = new Async\CompositeException();
    $arr = [];
    $p->setValue($e, $arr);
    $e->addException(new Exception("by ref"));
    return [count($arr), count($e->getExceptions())];
});
show("getExceptions result is a copy", function () {
    $e = new Async\CompositeException();
    $e->addException(new Exception("one"));
    $list = $e->getExceptions();
    $list[] = "junk";
    return count($e->getExceptions());
});

$r = new Async\RemoteException("remote");
show("RemoteException defaults", fn() => [$r->getRemoteException(), $r->getRemoteClass()]);
$rc = new ReflectionProperty(Async\RemoteException::class, 'remoteClass');
$re = new ReflectionProperty(Async\RemoteException::class, 'remoteException');
show("RemoteException set via reflection", function () use ($r, $rc, $re) {
    $rc->setValue($r, "Foo\\Bar");
    $re->setValue($r, new LogicException("l"));
    return [$r->getRemoteClass(), get_class($r->getRemoteException())];
});
show("RemoteException wrong type via reflection", fn() => $rc->setValue($r, []));
show("RemoteException remote = itself", function () use ($r, $re) { $re->setValue($r, $r); return $r->getRemoteException() === $r; });
class MyRemote extends Async\RemoteException {}
show("subclass getters", fn() => [(new MyRemote("m"))->getRemoteClass(), (new MyRemote("m"))->getRemoteException()]);
function ser(string $class, string $prop, string $value): string {
    $key = "\0$class\0$prop";
    return 'O:' . strlen($class) . ':"' . $class . '":1:{s:' . strlen($key) . ':"' . $key . '";' . $value . '}';
}
show("unserialize RemoteException with bad property type", fn() => unserialize(ser('Async\RemoteException', 'remoteClass', 'a:0:{}')));
show("unserialize RemoteException with a non-throwable remote", fn() => unserialize(ser('Async\RemoteException', 'remoteException', 'i:1;')));
show("unserialize RemoteException with a remote class", fn() => unserialize(ser('Async\RemoteException', 'remoteClass', 's:3:"Foo";'))->getRemoteClass());
show("unserialize CompositeException with bad property type", fn() => unserialize(ser('Async\CompositeException', 'exceptions', 's:3:"bad";')));
show("unserialize CompositeException with non-throwables", fn() => unserialize(ser('Async\CompositeException', 'exceptions', 'a:1:{i:0;i:5;}'))->getExceptions());
show("clone CompositeException", fn() => clone $c);
show("throw and catch CompositeException", function () use ($c) { try { throw $c; } catch (Exception $e) { return $e === $c; } });
?>
--EXPECTF--
add itself: 1
add itself again: 2
string conversion with itself inside: true
print_r with itself inside: true

Warning: var_export does not handle circular references in %s on line %d

Warning: var_export does not handle circular references in %s on line %d
var_export with itself inside: true
add a cancellation: 3
getExceptions keeps order: ["composite","composite","c"]
previous chain with itself: true
exceptions set to non-throwables via reflection: [1,"x",null]
add after corruption: 4
exceptions set to a string via reflection: TypeError: Cannot assign string to property Async\CompositeException::$exceptions of type array
exceptions set by reference: [0,1]
getExceptions result is a copy: 1
RemoteException defaults: [null,""]
RemoteException set via reflection: ["Foo\\Bar","LogicException"]
RemoteException wrong type via reflection: TypeError: Cannot assign array to property Async\RemoteException::$remoteClass of type string
RemoteException remote = itself: true
subclass getters: ["",null]
unserialize RemoteException with bad property type: TypeError: Cannot assign array to property Async\RemoteException::$remoteClass of type string
unserialize RemoteException with a non-throwable remote: TypeError: Cannot assign int to property Async\RemoteException::$remoteException of type ?Throwable
unserialize RemoteException with a remote class: 'Foo'
unserialize CompositeException with bad property type: TypeError: Cannot assign string to property Async\CompositeException::$exceptions of type array
unserialize CompositeException with non-throwables: [5]
clone CompositeException: Error: Trying to clone an uncloneable object of class Async\CompositeException
throw and catch CompositeException: true
