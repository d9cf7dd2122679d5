#!/usr/bin/env bash
# The headers other extensions use are installed by `make install` and compile on their own:
# installs them into a scratch root (make install-headers INSTALL_ROOT=...), then builds a small C
# file that includes each one the way another extension would (<ext/async/...>), with nothing
# from this repository on the include path.
# Usage: scripts/check-headers.sh   (after scripts/build.sh; PHP_CONFIG selects the PHP)
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
PHP_CONFIG=${PHP_CONFIG:-php-config}
cd "$root" || exit 2
[ -f Makefile ] || { echo "check-headers: no Makefile: build first"; echo "headers: 0 passed, 1 failed"; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
ok() { echo "ok   $1"; passed=$((passed + 1)); }
bad() { echo "FAIL $1"; failed=$((failed + 1)); }

make install-headers INSTALL_ROOT="$tmp" >/dev/null 2>&1
inc=$("$PHP_CONFIG" --include-dir)
for h in zend_async_API.h async_io_wait.h async_import.h php_async.h async_ring.h; do
	if [ -f "$tmp$inc/ext/async/$h" ]; then ok "installed ext/async/$h"; else bad "installed ext/async/$h"; fi
done

# A consumer that uses the ABI and the descriptor-wait API, as PDO or Redis would.
cat > "$tmp/consumer.c" <<'EOF'
#include "php.h"
#include "ext/async/zend_async_API.h"
#include "ext/async/async_io_wait.h"
#include "ext/async/async_import.h"

int consumer_wait(php_socket_t fd)
{
	if (!ZEND_ASYNC_IS_ENABLED() || !async_io_can_wait()) {
		return 0;
	}
	zend_async_timer_event_t *timer = ZEND_ASYNC_NEW_TIMER_EVENT(10, false);
	(void) timer;
	return async_io_wait_fd(fd, ASYNC_POLL_READ, 100);
}

static int consumer_getppid(void) { return 1; }

size_t consumer_redirect(const void *anchor)
{
	static async_import_t imports[] = { { "getppid", (void *) consumer_getppid } };
	size_t n = async_import_redirect(anchor, imports, 1);
	async_import_restore(imports, 1);
	return n;
}

int consumer_wait_or(php_socket_t fd, zend_async_event_t *also)
{
	async_io_pollfd_t entry = { fd, ASYNC_POLL_READ, 0 };
	return async_io_wait_many_or(&entry, 1, 100, also);
}
EOF
# shellcheck disable=SC2046
if cc -fsyntax-only -Wall -Werror -I"$tmp$inc" $("$PHP_CONFIG" --includes) "$tmp/consumer.c" 2>"$tmp/cc.log"; then
	ok "a consumer compiles against the installed headers alone"
else
	bad "a consumer compiles against the installed headers alone"
	sed 's/^/  /' "$tmp/cc.log" | head -20
fi
echo "headers: $passed passed, $failed failed"
[ "$failed" = 0 ]
