#!/usr/bin/env bash
# Proves that every check of scripts/check-layout.sh can fail: builds a tiny fake extension tree
# (one file per layer, compiled with cc so nm sees real objects), checks that it passes, then
# breaks one rule at a time on a fresh copy and expects exactly that check to FAIL (exit 1).
# Usage: scripts/check-layout-selftest.sh        (needs cc and nm; takes about a second)
set -uo pipefail
export LC_ALL=C
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
checker=$here/check-layout.sh
CC=${CC:-cc}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/check-layout-selftest.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT

passed=0
failed=0
pass() { echo "ok   $1"; passed=$((passed + 1)); }
fail() { echo "FAIL $1"; shift; printf '%s\n' "$@" | sed 's/^/     | /'; failed=$((failed + 1)); }

# ---------------------------------------------------------------------------------------------
# The fake tree: abi, core, reactor, primitive (with a stub), hook, module.
clean=$tmp/clean
mkdir -p "$clean/.libs" "$clean/docs" "$tmp/inc"
: > "$tmp/inc/uv.h" # stands in for libuv's header, outside the tree
cd "$clean" || exit 2

cat > zend_async_API.h <<'EOF'
#ifndef ZEND_ASYNC_API_H
#define ZEND_ASYNC_API_H
int zend_async_api_version(void);
extern int zend_async_api_enabled;
#endif
EOF
cat > zend_async_API.c <<'EOF'
#include "zend_async_API.h"
int zend_async_api_enabled = 1;
int zend_async_api_version(void) { return 1; }
EOF
cat > php_async.h <<'EOF'
#ifndef PHP_ASYNC_H
#define PHP_ASYNC_H
#include "zend_async_API.h"
/* coroutine.c */
int coroutine_run(void);
/* async.c */
void async_module_hook(void);
extern int async_module_started;
#if defined(SOMETHING)
int async_version_check(int v);
#else
int async_version_check(int v);
#endif
#endif
EOF
cat > coroutine.h <<'EOF'
#ifndef COROUTINE_H
#define COROUTINE_H
int coroutine_count(void);
#endif
EOF
cat > coroutine.c <<'EOF'
#include "php_async.h"
#include "coroutine.h"

/* per-process: the first coroutine id, fixed at startup */
static int first_id = 1;

int coroutine_run(void) { return zend_async_api_version() + first_id; }
int coroutine_count(void) { return zend_async_api_enabled; }
EOF
cat > reactor_uv.h <<'EOF'
#ifndef REACTOR_UV_H
#define REACTOR_UV_H
#include <uv.h>
int reactor_tick(void);
#endif
EOF
cat > reactor.c <<'EOF'
#include "php_async.h"
#include "reactor_uv.h"
int reactor_tick(void) { return coroutine_run(); }
EOF
cat > scope.h <<'EOF'
#ifndef SCOPE_H
#define SCOPE_H
int scope_enter(void);
#endif
EOF
cat > scope.stub.php <<'EOF'
<?php
/** @generate-class-entries */
namespace Async;
final class Scope {}
EOF
cat > scope_arginfo.h <<'EOF'
/* This is a generated file, edit the .stub.php file instead. */
static const int scope_arginfo_version = 1;
EOF
cat > scope.c <<'EOF'
/* The scope tree (spec §2.1); see the pitfalls §3 entry and P1. */
#include "scope.h"
#include "reactor_uv.h"
#include "scope_arginfo.h"

static const char *names[] = { "main" };
static int (*scope_hook)(void) = reactor_tick; /* per-process: installed once */

int scope_enter(void) { return scope_hook() + (int) sizeof names + scope_arginfo_version; }
EOF
cat > hook_sleep.h <<'EOF'
#ifndef HOOK_SLEEP_H
#define HOOK_SLEEP_H
int hook_sleep(void);
#endif
EOF
cat > hook_sleep.c <<'EOF'
#include "hook_sleep.h"
#include "scope.h"
int hook_sleep(void) { return scope_enter(); }
EOF
cat > async.c <<'EOF'
#include "php_async.h"
#include "hook_sleep.h"

int async_module_started;
/* per-process: set in MINIT,
 * read-only afterwards */
static int minit_done;

void async_module_hook(void) { minit_done = hook_sleep(); async_module_started = 1; }
int async_version_check(int v) { return v == minit_done; }
EOF
cat > config.m4 <<'EOF'
dnl config.m4 for the fake extension
PHP_ARG_ENABLE([async], [whether to enable async], [AS_HELP_STRING([--enable-async], [async])], [no])
if test "$PHP_ASYNC" != "no"; then
  PHP_NEW_EXTENSION(async,
    [async.c zend_async_API.c coroutine.c
     reactor.c scope.c hook_sleep.c],
    $ext_shared,, [-DZEND_ENABLE_STATIC_TSRMLS_CACHE=1])
fi
EOF
cat > config.w32 <<'EOF'
// config.w32 for the fake extension
ARG_ENABLE("async", "async", "no");
if (PHP_ASYNC != "no") {
	EXTENSION("async", "async.c zend_async_API.c coroutine.c " +
		"reactor.c scope.c", PHP_ASYNC_SHARED, "/DZEND_ENABLE_STATIC_TSRMLS_CACHE=1");
	ADD_SOURCES(configure_module_dirname, "hook_sleep.c", "async");
}
EOF
cat > docs/pitfalls.md <<'EOF'
# Pitfalls
## P1 — the first pitfall
## §3 — a numbered section of the pitfalls
EOF
cat > docs/semantics.md <<'EOF'
# Semantics
## §2.1 — scopes
EOF

compile() { # dir file.c...
	local dir=$1 c
	shift
	for c in "$@"; do
		if ! (cd "$dir" && "$CC" -c -fPIC -Wall -I. -I"$tmp/inc" -o ".libs/${c%.c}.o" "$c" 2>"$tmp/cc.err"); then
			echo "check-layout-selftest: cannot compile $c:" >&2
			cat "$tmp/cc.err" >&2
			exit 2
		fi
	done
}
compile "$clean" async.c zend_async_API.c coroutine.c reactor.c scope.c hook_sleep.c

fresh() { # name -> a copy of the clean tree, cwd there
	rm -rf "${tmp:?}/$1"
	cp -a "$clean" "$tmp/$1"
	cd "$tmp/$1" || exit 2
}
before_endif() { # file line: inserts line before the last #endif
	awk -v add="$2" '{ l[NR] = $0 } /^#endif/ { e = NR } END { for (i = 1; i <= NR; i++) { if (i == e) print add; print l[i] } }' "$1" > "$1.tmp" && mv "$1.tmp" "$1"
}

# expect <label> <check that must fail, or "" for none> <text the output must contain>
expect() {
	local label=$1 check=$2 want=$3 out rc fails wantfails
	out=$("$checker" "$PWD" 2>"$tmp/stderr")
	rc=$?
	fails=$(printf '%s\n' "$out" | grep '^FAIL ' | tr '\n' ' ')
	if [ -n "$check" ]; then
		wantfails="FAIL $check "
		if [ "$rc" -ne 1 ] || [ "$fails" != "$wantfails" ]; then
			fail "$label: expected exit 1 and only \"FAIL $check\"; got exit $rc, failing: ${fails:-none}" "$out"
			return
		fi
		if ! printf '%s\n' "$out" | grep -qF -- "$want"; then
			fail "$label: FAIL $check, but no violation mentioning \"$want\"" "$out"
			return
		fi
		pass "$label: FAIL $check ($(printf '%s\n' "$out" | grep -F -- "$want" | head -1 | sed 's/^ *//'))"
	else
		if [ "$rc" -ne 0 ] || [ -n "$fails" ] || ! printf '%s\n' "$out" | grep -qxF "check-layout: 8 passed, 0 failed"; then
			fail "$label: expected all 8 checks ok and exit 0; got exit $rc" "$out" "$(cat "$tmp/stderr")"
			return
		fi
		pass "$label: all 8 checks ok"
	fi
}

cd "$clean" && expect "clean tree" "" ""

# 1. upward: a reactor file calls a function defined in async.c (module).
fresh upward
cat > reactor_x.c <<'EOF'
#include "php_async.h"
int reactor_x(void) { async_module_hook(); return 0; }
EOF
sed 's/hook_sleep\.c\]/hook_sleep.c reactor_x.c]/' config.m4 > config.m4.tmp && mv config.m4.tmp config.m4
sed 's/"reactor\.c scope\.c"/"reactor.c scope.c reactor_x.c"/' config.w32 > config.w32.tmp && mv config.w32.tmp config.w32
compile "$PWD" reactor_x.c
expect "reactor_x.c calls async.c" upward "reactor_x.c (reactor) -> async.c (module): async_module_hook"

# 2. sources: a .c missing from config.w32.
fresh sources
sed 's/ scope\.c//' config.w32 > config.w32.tmp && mv config.w32.tmp config.w32
expect "scope.c missing from config.w32" sources "scope.c: missing from config.w32"

# 3. declared-once: a prototype in two headers.
fresh declared
before_endif scope.h "int coroutine_run(void);"
expect "prototype in php_async.h and scope.h" declared-once "coroutine_run: declared 2 times"

# 3b. declared-once: a .c declaring what a header declares.
fresh declared-c
printf 'extern int zend_async_api_enabled;\n' >> hook_sleep.c
expect "extern in a .c instead of the header" declared-once "hook_sleep.c:4: extern variable zend_async_api_enabled is already declared in zend_async_API.h"

# 4. file-size: a 1,501-line file.
fresh size
awk '{ print } END { while (NR++ < 1501) print "/* padding */" }' coroutine.c > c.tmp && mv c.tmp coroutine.c
expect "1,501-line coroutine.c" file-size "coroutine.c: 1501 lines"

# 5. uv-header: <uv.h> in a core header.
fresh uv
before_endif coroutine.h "#include <uv.h>"
expect "<uv.h> in coroutine.h" uv-header "coroutine.h:4: includes <uv.h> (core layer"

# 6. stubs: a stray arginfo include.
fresh stubs
printf '#include "scope_arginfo.h"\n' >> coroutine.c
expect "coroutine.c includes scope_arginfo.h" stubs "coroutine.c:9: includes scope_arginfo.h"

# 7. per-request-state: a static variable without the marker.
fresh state
printf 'static int request_count;\n' >> coroutine.c
expect "static without marker" per-request-state "coroutine.c:9: static int request_count;"

# 8. refs: a pitfall with no heading.
fresh refs
printf '/* see P99 */\n' >> scope.c
expect "P99 citation without heading" refs "scope.c:10: P99: no \"## P99 \" heading"

# 9. upward again: no objects at all must not pass.
fresh noobj
rm -rf .libs
expect "no objects" upward "no objects: build first"

echo "layout selftest: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
