<?php

/** @generate-class-entries */

/** Declared only when the engine has no \Cancellation of its own (stock PHP 8.2). */
class Cancellation extends Error {}
