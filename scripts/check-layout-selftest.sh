#!/usr/bin/env bash
# Proves that every check of scripts/check-layout.sh can fail: builds a tiny fake extension tree
# (the spine at the root and one file in each layer folder, compiled with cc so nm sees real
# objects), checks that it passes, then breaks one rule at a time on a fresh copy and expects
# exactly that check to FAIL (exit 1).
# Usage: scripts/check-layout-selftest.sh        (needs cc and nm; takes about a second)
set -uo pipefail
export LC_ALL=C
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
checker=$here/check-layout.sh
CC=${CC:-cc}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/check-layout-selftest.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
CHECKS=10

passed=0
failed=0
pass() { echo "ok   $1"; passed=$((passed + 1)); }
fail() { echo "FAIL $1"; shift; printf '%s\n' "$@" | sed 's/^/     | /'; failed=$((failed + 1)); }

# ---------------------------------------------------------------------------------------------
# The fake tree: the spine at the root (the ABI, the core's coroutine.c, the reactor's
# libuv_reactor.c, the module), and core/clock.c, reactor/timer.c, classes/scope.c (with a stub),
# hooks/sleep.c, each folder with its one header. Names follow their reach: the installed
# headers (zend_async_API.h, php_async.h; config.m4's PHP_INSTALL_HEADERS) declare the
# zend_async_* / async_* names, what the files share is async__*, the statics are unprefixed.
clean=$tmp/clean
mkdir -p "$clean/.libs" "$clean/docs" "$tmp/inc"
for d in core reactor classes hooks; do mkdir -p "$clean/$d/.libs"; done
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
cat > core/core.h <<'EOF'
#ifndef CORE_H
#define CORE_H
#include "php_async.h"
int async__coroutine_run(void);
int async__coroutine_count(void);
int async__clock_now(void);
#endif
EOF
cat > coroutine.c <<'EOF'
#include "php_async.h"
#include "core/core.h"

/* per-process: the first coroutine id, fixed at startup */
static int first_id = 1;

int async__coroutine_run(void) { return zend_async_api_version() + first_id; }
int async__coroutine_count(void) { return zend_async_api_enabled; }
EOF
cat > core/clock.c <<'EOF'
#include "core/core.h"
int async__clock_now(void) { return async__coroutine_count(); }
EOF
cat > reactor/reactor.h <<'EOF'
#ifndef REACTOR_H
#define REACTOR_H
int async__reactor_tick(void);
#ifdef ASYNC_REACTOR_UV
#include <uv.h>
int async__reactor_timer_start(void);
#endif
#endif
EOF
cat > libuv_reactor.c <<'EOF'
#include "php_async.h"
#include "core/core.h"
#define ASYNC_REACTOR_UV
#include "reactor/reactor.h"
int async__reactor_tick(void) { return async__coroutine_run() + async__reactor_timer_start(); }
EOF
cat > reactor/timer.c <<'EOF'
#include "core/core.h"
#define ASYNC_REACTOR_UV
#include "reactor/reactor.h"
int async__reactor_timer_start(void) { return async__clock_now(); }
EOF
cat > classes/classes.h <<'EOF'
#ifndef CLASSES_H
#define CLASSES_H
int async__scope_enter(void);
#endif
EOF
cat > classes/scope.stub.php <<'EOF'
<?php
/** @generate-class-entries */
namespace Async;
final class Scope {}
EOF
cat > classes/scope_arginfo.h <<'EOF'
/* This is a generated file, edit the .stub.php file instead. */
static const int scope_arginfo_version = 1;
EOF
cat > classes/scope.c <<'EOF'
/* The scope tree (spec §2.1); see the pitfalls §3 entry and P1. */
#include "classes/classes.h"
#include "reactor/reactor.h"
#include "scope_arginfo.h"

static const char *names[] = { "main" };
static int (*scope_hook)(void) = async__reactor_tick; /* per-process: installed once */

int async__scope_enter(void) { return scope_hook() + (int) sizeof names + scope_arginfo_version; }
EOF
cat > hooks/hooks.h <<'EOF'
#ifndef HOOKS_H
#define HOOKS_H
int async__hook_sleep(void);
#endif
EOF
cat > hooks/sleep.c <<'EOF'
#include "hooks/hooks.h"
#include "classes/classes.h"
int async__hook_sleep(void) { return async__scope_enter(); }
EOF
cat > async.c <<'EOF'
#include "php_async.h"
#include "hooks/hooks.h"

int async_module_started;
/* per-process: set in MINIT,
 * read-only afterwards */
static int minit_done;

void async_module_hook(void) { minit_done = async__hook_sleep(); async_module_started = 1; }
int async_version_check(int v) { return v == minit_done; }
EOF
cat > config.m4 <<'EOF'
dnl config.m4 for the fake extension
PHP_ARG_ENABLE([async], [whether to enable async], [AS_HELP_STRING([--enable-async], [async])], [no])
if test "$PHP_ASYNC" != "no"; then
  PHP_NEW_EXTENSION(async,
    [async.c zend_async_API.c coroutine.c libuv_reactor.c
     core/clock.c reactor/timer.c classes/scope.c hooks/sleep.c],
    $ext_shared,, [-DZEND_ENABLE_STATIC_TSRMLS_CACHE=1])
  PHP_INSTALL_HEADERS([ext/async], [zend_async_API.h php_async.h])
fi
EOF
cat > config.w32 <<'EOF'
// config.w32 for the fake extension
ARG_ENABLE("async", "async", "no");
if (PHP_ASYNC != "no") {
	EXTENSION("async", "async.c zend_async_API.c coroutine.c " +
		"libuv_reactor.c", PHP_ASYNC_SHARED, "/DZEND_ENABLE_STATIC_TSRMLS_CACHE=1");
	ADD_SOURCES(configure_module_dirname + "/core", "clock.c", "async");
	ADD_SOURCES(configure_module_dirname + "/reactor", "timer.c", "async");
	ADD_SOURCES(configure_module_dirname + "/classes", "scope.c", "async");
	ADD_SOURCES(configure_module_dirname + "/hooks", "sleep.c", "async");
	PHP_INSTALL_HEADERS("ext/async", "zend_async_API.h php_async.h");
}
EOF
cat > docs/architecture.md <<'EOF'
# Architecture
<!-- spine: the files at the root and their layers -->
| file | layer |
|---|---|
| `zend_async_API.c`, `zend_async_API.h` | abi |
| `coroutine.c` | core |
| `libuv_reactor.c` | reactor |
| `async.c`, `php_async.h` | module |
<!-- /spine -->
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

compile() { # dir file.c...: each into the .libs/ of its own folder, as libtool does
	local dir=$1 c obj
	shift
	for c in "$@"; do
		obj="$(dirname "$c")/.libs/$(basename "${c%.c}").o"
		if ! (cd "$dir" && mkdir -p "$(dirname "$obj")" && "$CC" -c -fPIC -Wall -I. -I"$tmp/inc" -o "$obj" "$c" 2>"$tmp/cc.err"); then
			echo "check-layout-selftest: cannot compile $c:" >&2
			cat "$tmp/cc.err" >&2
			exit 2
		fi
	done
}
compile "$clean" async.c zend_async_API.c coroutine.c libuv_reactor.c core/clock.c reactor/timer.c classes/scope.c hooks/sleep.c

fresh() { # name -> a copy of the clean tree, cwd there
	rm -rf "${tmp:?}/$1"
	cp -a "$clean" "$tmp/$1"
	cd "$tmp/$1" || exit 2
}
before_endif() { # file line: inserts line before the last #endif
	awk -v add="$2" '{ l[NR] = $0 } /^#endif/ { e = NR } END { for (i = 1; i <= NR; i++) { if (i == e) print add; print l[i] } }' "$1" > "$1.tmp" && mv "$1.tmp" "$1"
}
edit() { # file sed-expression
	sed "$2" "$1" > "$1.tmp" && mv "$1.tmp" "$1"
}

# expect <label> <check that must fail, or "" for none> <text the output must contain>
# (several checks, space-separated in check-layout.sh's report order, when one break fails them all)
expect() {
	local label=$1 check=$2 want=$3 out rc fails wantfails="" c
	out=$("$checker" "$PWD" 2>"$tmp/stderr")
	rc=$?
	fails=$(printf '%s\n' "$out" | grep '^FAIL ' | tr '\n' ' ')
	if [ -n "$check" ]; then
		for c in $check; do wantfails+="FAIL $c "; done
		if [ "$rc" -ne 1 ] || [ "$fails" != "$wantfails" ]; then
			fail "$label: expected exit 1 and only \"${wantfails% }\"; got exit $rc, failing: ${fails:-none}" "$out"
			return
		fi
		if ! printf '%s\n' "$out" | grep -qF -- "$want"; then
			fail "$label: FAIL $check, but no violation mentioning \"$want\"" "$out"
			return
		fi
		pass "$label: FAIL $check ($(printf '%s\n' "$out" | grep -F -- "$want" | head -1 | sed 's/^ *//'))"
	else
		if [ "$rc" -ne 0 ] || [ -n "$fails" ] || ! printf '%s\n' "$out" | grep -qxF "check-layout: $CHECKS passed, 0 failed"; then
			fail "$label: expected all $CHECKS checks ok and exit 0; got exit $rc" "$out" "$(cat "$tmp/stderr")"
			return
		fi
		pass "$label: all $CHECKS checks ok"
	fi
}

cd "$clean" && expect "clean tree" "" ""

# 1. upward: a reactor file calls a function defined in async.c (module).
fresh upward
printf '#include "php_async.h"\nint async__reactor_x(void) { async_module_hook(); return 0; }\n' > reactor/x.c
edit config.m4 's#hooks/sleep\.c\]#hooks/sleep.c reactor/x.c]#'
edit config.w32 's#"timer\.c"#"timer.c x.c"#'
compile "$PWD" reactor/x.c
expect "reactor/x.c calls async.c" upward "reactor/x.c (reactor) -> async.c (module): async_module_hook"

# 2. floor-plan: a C file at the root that the spine table does not name.
fresh floor
mv core/clock.c clock.c
rm -f core/.libs/clock.o
edit config.m4 's#core/clock\.c#clock.c#'
edit config.w32 's#ADD_SOURCES(configure_module_dirname + "/core", "clock.c", "async");#ADD_SOURCES(configure_module_dirname, "clock.c", "async");#'
compile "$PWD" clock.c
expect "clock.c at the root, not in the spine table" floor-plan "clock.c: at the root but not in the spine table"

# 2b. floor-plan: the spine table names a file that is gone.
fresh floor-row
edit docs/architecture.md 's#| `coroutine.c` | core |#| `coroutine.c`, `scheduler.c` | core |#'
expect "a spine row for a missing scheduler.c" floor-plan "the spine table names scheduler.c, which does not exist"

# 3. sources: a .c missing from config.w32.
fresh sources
edit config.w32 's#"scope\.c"#""#'
expect "classes/scope.c missing from config.w32" sources "classes/scope.c: missing from config.w32"

# 4. declared-once: a prototype in two headers.
fresh declared
before_endif classes/classes.h "int async__coroutine_run(void);"
expect "prototype in core.h and classes.h" declared-once "async__coroutine_run: declared 2 times"

# 4b. declared-once: a .c declaring what a header declares.
fresh declared-c
printf 'extern int zend_async_api_enabled;\n' >> hooks/sleep.c
expect "extern in a .c instead of the header" declared-once "hooks/sleep.c:4: extern variable zend_async_api_enabled is already declared in zend_async_API.h"

# 5. file-size: a 1,501-line file.
fresh size
awk '{ print } END { while (NR++ < 1501) print "/* padding */" }' coroutine.c > c.tmp && mv c.tmp coroutine.c
expect "1,501-line coroutine.c" file-size "coroutine.c: 1501 lines"

# 6. uv-header: <uv.h> in the core's header.
fresh uv
before_endif core/core.h "#include <uv.h>"
expect "<uv.h> in core/core.h" uv-header "core/core.h:7: includes <uv.h> (core layer"

# 6b. uv-header: a hook asking for libuv's side of the reactor's header.
fresh uv-define
edit hooks/sleep.c '1i #define ASYNC_REACTOR_UV'
expect "ASYNC_REACTOR_UV defined in a hook" uv-header "hooks/sleep.c:1: defines ASYNC_REACTOR_UV"

# 7. stubs: a stray arginfo include.
fresh stubs
printf '#include "classes/scope_arginfo.h"\n' >> coroutine.c
expect "coroutine.c includes scope_arginfo.h" stubs "coroutine.c:9: includes scope_arginfo.h"

# 8. per-request-state: a static variable without the marker.
fresh state
printf 'static int request_count;\n' >> coroutine.c
expect "static without marker" per-request-state "coroutine.c:9: static int request_count;"

# 9. refs: a pitfall with no heading.
fresh refs
printf '/* see P99 */\n' >> classes/scope.c
expect "P99 citation without heading" refs "classes/scope.c:10: P99: no \"## P99 \" heading"

# 10. names: a global function of a layer file, neither async__* nor in an installed header.
fresh names-global
before_endif core/core.h "int clock_tick(void);"
printf 'int clock_tick(void) { return async__clock_now(); }\n' >> core/clock.c
compile "$PWD" core/clock.c
expect "global clock_tick in core/core.h" names "core/clock.o: clock_tick: a global name is async__*"

# 10b. names: a file-local (static) function named async_*.
fresh names-static
edit core/clock.c 's#^int async__clock_now(void) { return async__coroutine_count(); }$#static int async_helper(void) { return async__coroutine_count(); }\nint async__clock_now(void) { return async_helper(); }#'
compile "$PWD" core/clock.c
expect "static async_helper in core/clock.c" names "core/clock.c:2: async_helper: a file-local name does not start with async_"

# 10c. names: a static inline async_x in a folder header (shared, so async__x).
fresh names-inline
before_endif core/core.h "static inline int async_x(void) { return async__clock_now(); }"
compile "$PWD" coroutine.c libuv_reactor.c core/clock.c reactor/timer.c
expect "static inline async_x in core/core.h" names "core/core.h:7: async_x: an inline function of an internal header is async__*"

# 11. upward (and names, which reads the same objects) again: no objects at all must not pass.
fresh noobj
rm -rf .libs core/.libs reactor/.libs classes/.libs hooks/.libs
expect "no objects" "upward names" "no objects: build first"

echo "layout selftest: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
