<?php

/** @generate-class-entries */

namespace Async;

/** An Async\Timeout: inert until something waits on it, then fails with TimeoutException after $ms. */
function timeout(int $ms): Awaitable {}

/**
 * @strict-properties
 * @not-serializable
 */
final class Timeout implements Completable
{
    private function __construct() {}

    public function cancel(?AsyncCancellation $cancellation = null): void {}

    public function isCompleted(): bool {}

    public function isCancelled(): bool {}
}
