<?php

/** @generate-class-entries */

namespace Async;

function runtime_stats(): array {}
