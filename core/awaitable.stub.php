<?php

/** @generate-class-entries */

namespace Async;

/**
 * Something a coroutine can wait for. Implemented by the runtime's own classes only.
 */
interface Awaitable {}

/**
 * An Awaitable that completes once, with a result or an error; await() accepts it.
 */
interface Completable extends Awaitable
{
    public function cancel(?AsyncCancellation $cancellation = null): void;

    public function isCompleted(): bool;

    public function isCancelled(): bool;
}
