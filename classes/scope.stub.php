<?php

/** @generate-class-entries */

namespace Async;

interface ScopeProvider
{
    public function provideScope(): ?Scope;
}

interface SpawnStrategy extends ScopeProvider
{
    public function beforeCoroutineEnqueue(Coroutine $coroutine, Scope $scope): array;

    public function afterCoroutineEnqueue(Coroutine $coroutine, Scope $scope): void;
}

/**
 * @strict-properties
 * @not-serializable
 */
final class Scope implements ScopeProvider
{
    public static function inherit(?Scope $parentScope = null): Scope {}

    public function provideScope(): Scope {}

    public function __construct() {}

    public function asNotSafely(): Scope {}

    public function allowZombies(): Scope {}

    public function spawn(callable $callable, mixed ...$params): Coroutine {}

    public function cancel(?AsyncCancellation $cancellationError = null): void {}

    public function awaitCompletion(Awaitable $cancellation): void {}

    public function awaitAfterCancellation(?callable $errorHandler = null, ?Awaitable $cancellation = null): void {}

    public function isFinished(): bool {}

    public function isClosed(): bool {}

    public function isCancelled(): bool {}

    public function setExceptionHandler(callable $exceptionHandler): void {}

    public function setChildScopeExceptionHandler(callable $exceptionHandler): void {}

    public function finally(\Closure $callback): void {}

    public function dispose(): void {}

    public function disposeSafely(): void {}

    public function disposeAfterTimeout(int $timeout): void {}

    public function getChildScopes(): array {}
}

function spawn_with(ScopeProvider $provider, callable $task, mixed ...$args): Coroutine {}

function graceful_shutdown(?AsyncCancellation $cancellationError = null): void {}

/** The current scope's Context. */
function current_context(): Context {}

/** The main scope's Context. */
function root_context(): Context {}

/** The embedder's request scope's Context (null in the CLI). */
function request_context(): ?Context {}
