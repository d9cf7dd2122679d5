<?php

/** @generate-class-entries */

namespace Async;

enum ChannelCloseReason: string
{
    case EXPLICIT = "explicit";
    case DISPOSED = "disposed";
    case NO_PRODUCERS = "no producers timeout";
    case NO_CONSUMERS = "no consumers timeout";
    case DEADLOCK = "deadlock";
    case SCOPE_DISPOSED = "scope disposed";
}

/**
 * @strict-properties
 * @not-serializable
 */
final class Channel implements Awaitable, \IteratorAggregate, \Countable
{
    public function __construct(
        int $capacity = 0,
        int $noProducerTimeout = 0,
        int $noConsumerTimeout = 0,
        bool $hardTimeouts = false
    ) {}

    public function send(mixed $value, ?Completable $cancellationToken = null): void {}

    public function sendAsync(mixed $value): bool {}

    public function recv(?Completable $cancellationToken = null): mixed {}

    public function recvAsync(): Future {}

    public function close(): void {}

    public function isClosed(): bool {}

    public function capacity(): int {}

    public function count(): int {}

    public function isEmpty(): bool {}

    public function isFull(): bool {}

    public function getIterator(): \Iterator {}
}
