--TEST--
ABI: a descriptor closed behind the runtime's back while a coroutine's new watch on it waits for the loop (a library's own socket, as libcurl's in a shared multi handle) wakes the waiter as closed instead of aborting the process in libuv
--EXTENSIONS--
async_abi_test
--FILE--
<?php
use function Async\{spawn, await, suspend};

const READABLE = 1, CLOSED = 16;

[$a, $b] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);

// 1. The waiter starts a watch and suspends; the next coroutine (run straight after it, before
// the loop) closes the descriptor. Without the check before each loop run libuv would hand
// epoll a closed descriptor and abort.
$fd = async_abi_test_fd_dup($a);
$waiter = spawn(fn() => async_abi_test_fd_poll($fd, READABLE, 2000));
$closer = spawn(fn() => async_abi_test_fd_close($fd));
var_dump(await($closer));
$t = hrtime(true);
var_dump(await($waiter) === CLOSED);
var_dump((hrtime(true) - $t) / 1e6 < 1000); // told at once, not at its 2 s timeout

// 2. Several waiters on one such descriptor, closed by a third: all are told.
$fd = async_abi_test_fd_dup($a);
$w1 = spawn(fn() => async_abi_test_fd_poll($fd, READABLE, 2000));
$w2 = spawn(fn() => async_abi_test_fd_poll($fd, READABLE, 2000));
spawn(fn() => async_abi_test_fd_close($fd));
var_dump(await($w1) === CLOSED, await($w2) === CLOSED);

// 3. An open descriptor's watch is untouched by the check.
$fd = async_abi_test_fd_dup($a);
$w = spawn(fn() => async_abi_test_fd_poll($fd, READABLE, 2000));
spawn(fn() => fwrite($b, "y"));
var_dump(await($w) === READABLE);
async_abi_test_fd_close($fd);
echo "alive\n";
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
alive
