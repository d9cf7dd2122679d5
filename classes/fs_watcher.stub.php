<?php

/** @generate-class-entries */

namespace Async;

/**
 * One change seen by a FileSystemWatcher.
 *
 * @strict-properties
 * @not-serializable
 */
final readonly class FileSystemEvent
{
    /** The watched path (the watcher's $path). */
    public readonly string $path;
    /** The entry that changed, relative to $path; null for a debounced burst or an overflow. */
    public readonly ?string $filename;
    /** Created, deleted or renamed. */
    public readonly bool $renamed;
    /** Contents or attributes changed. */
    public readonly bool $changed;
}

/**
 * @strict-properties
 * @not-serializable
 */
final class FileSystemWatcher implements Awaitable, \IteratorAggregate
{
    /** $extensions: file extensions ("php" or ".php") to report; empty = everything. */
    public function __construct(
        string $path,
        bool $recursive = false,
        bool $coalesce = true,
        int $debounceMs = 0,
        int $maxHoldMs = 0,
        array $extensions = []
    ) {}

    public function close(): void {}

    public function isClosed(): bool {}

    public function getIterator(): \Iterator {}
}
