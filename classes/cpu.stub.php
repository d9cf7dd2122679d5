<?php

/** @generate-class-entries */

namespace Async;

/**
 * CPU times at one instant; cpu_usage() compares two of them.
 * @strict-properties
 * @not-serializable
 */
final class CpuSnapshot
{
    public readonly int $wallNs;
    public readonly int $processUserNs;
    public readonly int $processSystemNs;
    public readonly int $systemIdleNs;
    public readonly int $systemBusyNs;
    public readonly int $cpuCount;

    private function __construct() {}

    public static function now(): CpuSnapshot {}
}

function available_parallelism(): int {}

function cpu_usage(): array {}

function loadavg(): ?array {}
