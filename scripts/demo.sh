#!/usr/bin/env bash
# One command on a fresh Debian 12 machine: install what is missing, build, run the demo.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
"$root/scripts/build.sh"
exec php -n -d extension="$root/modules/async.so" "$root/examples/demo.php"
