<?php

/** @generate-class-entries */

namespace Async;

/**
 * @strict-properties
 * @not-serializable
 */
final class Coroutine implements Completable
{
    private function __construct() {}

    public function getId(): int {}

    public function asHiPriority(): Coroutine {}

    public function getContext(): Context {}

    public function getResult(): mixed {}

    public function getException(): mixed {}

    public function getTrace(int $options = DEBUG_BACKTRACE_PROVIDE_OBJECT, int $limit = 0): ?array {}

    public function getSpawnFileAndLine(): array {}

    public function getSpawnLocation(): string {}

    public function getSuspendFileAndLine(): array {}

    public function getSuspendLocation(): string {}

    public function isStarted(): bool {}

    public function isQueued(): bool {}

    public function isRunning(): bool {}

    public function isSuspended(): bool {}

    public function isCancelled(): bool {}

    public function isCancellationRequested(): bool {}

    public function isCompleted(): bool {}

    public function getAwaitingInfo(): array {}

    public function cancel(?AsyncCancellation $cancellation = null): void {}

    public function finally(\Closure $callback): void {}
}
