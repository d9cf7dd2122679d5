<?php

/** @generate-class-entries */

namespace Async;

/**
 * @strict-properties
 * @not-serializable
 */
final class TaskGroup implements Awaitable, \Countable, \IteratorAggregate
{
    public function __construct(?int $concurrency = null, ?int $queueLimit = null, ?Scope $scope = null) {}

    public function spawn(callable $task, mixed ...$args): void {}

    public function spawnWithKey(string|int $key, callable $task, mixed ...$args): void {}

    public function all(bool $ignoreErrors = false): Future {}

    public function race(): Future {}

    public function any(): Future {}

    public function getResults(): array {}

    public function getErrors(): array {}

    public function suppressErrors(): void {}

    public function cancel(?AsyncCancellation $cancellation = null): void {}

    public function close(): void {}

    public function dispose(): void {}

    public function isFinished(): bool {}

    public function isClosed(): bool {}

    public function count(): int {}

    public function awaitCompletion(): void {}

    public function finally(\Closure $callback): void {}

    public function getIterator(): \Iterator {}
}

/**
 * @strict-properties
 * @not-serializable
 */
final class TaskSet implements Awaitable, \Countable, \IteratorAggregate
{
    /** @implementation-alias Async\TaskGroup::__construct */
    public function __construct(?int $concurrency = null, ?int $queueLimit = null, ?Scope $scope = null) {}

    /** @implementation-alias Async\TaskGroup::spawn */
    public function spawn(callable $task, mixed ...$args): void {}

    /** @implementation-alias Async\TaskGroup::spawnWithKey */
    public function spawnWithKey(string|int $key, callable $task, mixed ...$args): void {}

    /** @implementation-alias Async\TaskGroup::race */
    public function joinNext(): Future {}

    /** @implementation-alias Async\TaskGroup::any */
    public function joinAny(): Future {}

    /** @implementation-alias Async\TaskGroup::all */
    public function joinAll(bool $ignoreErrors = false): Future {}

    /** @implementation-alias Async\TaskGroup::cancel */
    public function cancel(?AsyncCancellation $cancellation = null): void {}

    /** @implementation-alias Async\TaskGroup::close */
    public function close(): void {}

    /** @implementation-alias Async\TaskGroup::dispose */
    public function dispose(): void {}

    /** @implementation-alias Async\TaskGroup::isFinished */
    public function isFinished(): bool {}

    /** @implementation-alias Async\TaskGroup::isClosed */
    public function isClosed(): bool {}

    /** @implementation-alias Async\TaskGroup::count */
    public function count(): int {}

    /** @implementation-alias Async\TaskGroup::awaitCompletion */
    public function awaitCompletion(): void {}

    /** @implementation-alias Async\TaskGroup::finally */
    public function finally(\Closure $callback): void {}

    /** @implementation-alias Async\TaskGroup::getIterator */
    public function getIterator(): \Iterator {}
}
