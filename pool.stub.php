<?php

/** @generate-class-entries */

namespace Async;

enum CircuitBreakerState
{
    case ACTIVE;
    case INACTIVE;
    case RECOVERING;
}

interface CircuitBreaker
{
    public function getState(): CircuitBreakerState;

    public function activate(): void;

    public function deactivate(): void;

    public function recover(): void;
}

interface CircuitBreakerStrategy
{
    public function reportSuccess(mixed $source): void;

    public function reportFailure(mixed $source, \Throwable $error): void;

    public function shouldRecover(): bool;
}

/**
 * @strict-properties
 * @not-serializable
 */
final class Pool implements \Countable, CircuitBreaker
{
    public function __construct(
        callable $factory,
        ?callable $destructor = null,
        ?callable $healthcheck = null,
        ?callable $beforeAcquire = null,
        ?callable $beforeRelease = null,
        int $min = 0,
        int $max = 10,
        int $healthcheckInterval = 0
    ) {}

    public function acquire(int $timeout = 0): mixed {}

    public function tryAcquire(): mixed {}

    public function release(mixed $resource): void {}

    public function close(): void {}

    public function isClosed(): bool {}

    public function count(): int {}

    public function idleCount(): int {}

    public function activeCount(): int {}

    public function setCircuitBreakerStrategy(?CircuitBreakerStrategy $strategy): void {}

    public function getState(): CircuitBreakerState {}

    public function activate(): void {}

    public function deactivate(): void {}

    public function recover(): void {}
}
