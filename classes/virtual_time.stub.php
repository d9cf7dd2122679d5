<?php

/** @generate-class-entries */

namespace Async\Testing;

function virtual_time(callable $task, mixed ...$args): mixed {}
