#!/usr/bin/env bash
# Prints the php flags that turn on opcache for the CLI with the given JIT mode and every hot
# counter at 1, so the JIT compiles from the first call.  Usage: scripts/jit-flags.sh tracing|function
# From PHP 8.5 opcache is built into PHP (no opcache.so to load).
mode=${1:-tracing}
dir=$("${PHP_CONFIG:-php-config}" --extension-dir)
load=""
[ -f "$dir/opcache.so" ] && load="-d zend_extension=$dir/opcache.so"
echo "$load -d opcache.enable=1 -d opcache.enable_cli=1" \
     "-d opcache.jit=$mode -d opcache.jit_buffer_size=64M -d opcache.jit_hot_loop=1" \
     "-d opcache.jit_hot_func=1 -d opcache.jit_hot_return=1 -d opcache.jit_hot_side_exit=1" \
     "-d opcache.protect_memory=1"
