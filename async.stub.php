<?php

/** @generate-class-entries */

namespace Async;

function spawn(callable $task, mixed ...$args): Coroutine {}

function suspend(): void {}

function await(Completable $awaitable, ?Completable $cancellation = null): mixed {}

function delay(int $ms): void {}

function protect(\Closure $closure): mixed {}

function current_coroutine(): Coroutine {}

function coroutine_context(): Context {}

function get_coroutines(): array {}
