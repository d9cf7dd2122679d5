<?php

/** @generate-class-entries */

namespace Async;

/**
 * The writer side of a future.
 * @strict-properties
 * @not-serializable
 */
final class FutureState
{
    public function __construct() {}

    public function complete(mixed $result): void {}

    public function error(\Throwable $throwable): void {}

    public function isCompleted(): bool {}

    public function ignore(): void {}

    public function getAwaitingInfo(): array {}

    public function getCreatedFileAndLine(): array {}

    public function getCreatedLocation(): string {}

    public function getCompletedFileAndLine(): array {}

    public function getCompletedLocation(): string {}
}

/**
 * The reader side of a future.
 * @strict-properties
 * @not-serializable
 */
final class Future implements Completable
{
    public static function completed(mixed $value = null): Future {}

    public static function failed(\Throwable $throwable): Future {}

    public function __construct(FutureState $state) {}

    /** @implementation-alias Async\FutureState::isCompleted */
    public function isCompleted(): bool {}

    public function isCancelled(): bool {}

    public function cancel(?AsyncCancellation $cancellation = null): void {}

    public function ignore(): Future {}

    public function map(callable $map): Future {}

    public function catch(callable $catch): Future {}

    public function finally(callable $finally): Future {}

    public function await(?Completable $cancellation = null): mixed {}

    /** The future's state first ("Future(pending) created at F:L", "Future(completed at F:L)", ...), then what waits on it. */
    public function getAwaitingInfo(): array {}

    /** @implementation-alias Async\FutureState::getCreatedFileAndLine */
    public function getCreatedFileAndLine(): array {}

    /** @implementation-alias Async\FutureState::getCreatedLocation */
    public function getCreatedLocation(): string {}

    /** @implementation-alias Async\FutureState::getCompletedFileAndLine */
    public function getCompletedFileAndLine(): array {}

    /** @implementation-alias Async\FutureState::getCompletedLocation */
    public function getCompletedLocation(): string {}
}
