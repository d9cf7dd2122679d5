<?php

/** @generate-class-entries */

namespace Async;

function iterate(iterable $iterable, callable $callback, int $concurrency = 0, bool $cancelPending = true): void {}
