#!/usr/bin/env bash
# PHP 8.4 and 8.5 from Debian's binary packages, each in a chroot of its own suite, made once with
# debootstrap and cached outside the repo; the host's own packages are never touched.
#   8.4: Debian 13 (trixie), libuv 1.50
#   8.5: sid with experimental (php8.5-* from experimental, php-common from sid), libuv 1.53
#
# Usage: scripts/php-chroot.sh VERSION                 make the chroot if missing, print its path
#        scripts/php-chroot.sh VERSION run CMD [ARG...] copy this tree to /ext-async inside it and
#                                                       run CMD there (as root, cwd /ext-async)
#   ASYNC_CACHE_DIR  where the chroots live (default /var/cache/ext-async): chroot-VERSION
#   ASYNC_MIRROR     the Debian mirror (default: the first one of this machine's apt sources)
#   ASYNC_CHROOT_TREE  where inside the chroot the tree goes (default /ext-async): two runs at once
#                    each need their own
# The build/test scripts run inside unchanged: scripts/setup.sh installs that suite's packages
# (it knows the suite from /etc/os-release). /proc, /dev and /sys are bound in only while CMD runs.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
version=${1:?usage: php-chroot.sh 8.4|8.5 [run CMD...]}
shift
cache=${ASYNC_CACHE_DIR:-/var/cache/ext-async}
dir="$cache/chroot-$version"

case $version in
  8.4) suite=trixie ;;
  8.5) suite=sid ;;
  *) echo "php-chroot.sh: no chroot for PHP $version (8.2 is the host's own)" >&2; exit 2 ;;
esac

[ "$(id -u)" -eq 0 ] || { echo "php-chroot.sh: needs root (debootstrap, chroot, mount)" >&2; exit 2; }

# The mirror of this machine's own Debian sources: a deb822 stanza or a one-line entry.
host_mirror() {
  local uri=""
  if compgen -G "/etc/apt/sources.list.d/*.sources" >/dev/null; then
    uri=$(awk 'BEGIN { RS = ""; FS = "\n" }
      /(^|\n)Types:[^\n]*deb([ \t\n]|$)/ && !/security/ {
        for (i = 1; i <= NF; i++) if ($i ~ /^URIs:/) { split($i, a, /[ \t]+/); print a[2]; exit }
      }' /etc/apt/sources.list.d/*.sources)
  fi
  if [ -z "$uri" ] && [ -f /etc/apt/sources.list ]; then
    uri=$(awk '$1 == "deb" && $0 !~ /security/ { for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) { print $i; exit } }' \
      /etc/apt/sources.list)
  fi
  echo "$uri"
}

mounts=()
unmount_all() {
  local i
  for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
    umount -R "${mounts[$i]}" 2>/dev/null || umount -l "${mounts[$i]}" 2>/dev/null || true
  done
  mounts=()
}
# Another run may have bound them already: what it bound, it unbinds.
bind_in() { # chroot-root
  local r=$1
  mountpoint -q "$r/proc" || { mount -t proc proc "$r/proc" && mounts+=("$r/proc"); }
  mountpoint -q "$r/dev" || { mount --rbind /dev "$r/dev" && mount --make-rslave "$r/dev" && mounts+=("$r/dev"); }
  mountpoint -q "$r/sys" || { mount --rbind /sys "$r/sys" && mount --make-rslave "$r/sys" && mounts+=("$r/sys"); }
  cp /etc/hosts /etc/resolv.conf "$r/etc/" 2>/dev/null || true
}
trap unmount_all EXIT

# Runs a command inside with a clean environment; the variables the scripts read are passed on.
in_chroot() { # chroot-root cmd...
  local r=$1; shift
  local pass=() name
  for name in CI JOBS TESTS FUZZ_SEEDS SOAK_SECONDS KEEP_LOG SHOW_LOG RUN_TESTS_ARGS ALLOW_SKIP BENCH_REPS ASYNC_LANES MODULE_ROOT; do
    [ -z "${!name+x}" ] || pass+=("$name=${!name}")
  done
  chroot "$r" /usr/bin/env -i HOME=/root LANG=C.UTF-8 APT_NO_RECOMMENDS=1 \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "${pass[@]}" "$@"
}

make_chroot() {
  local mirror tmp="$dir.tmp"
  mirror=${ASYNC_MIRROR:-$(host_mirror)}
  [ -n "$mirror" ] || { echo "php-chroot.sh: no Debian mirror in this machine's apt sources (set ASYNC_MIRROR)" >&2; exit 1; }
  command -v debootstrap >/dev/null || "$root/scripts/setup.sh" debootstrap >&2
  echo "php-chroot: debootstrap $suite from $mirror into $dir (once)" >&2
  rm -rf "$tmp"
  debootstrap --variant=minbase "$suite" "$tmp" "$mirror" >"$cache/debootstrap-$version.log" 2>&1 \
    || { tail -20 "$cache/debootstrap-$version.log" >&2; exit 1; }
  if [ "$suite" = sid ]; then
    echo "deb $mirror experimental main" >> "$tmp/etc/apt/sources.list"
    # php8.5 only in experimental; its php-common (2:102~) breaks php8.5-common, sid's does not
    cat > "$tmp/etc/apt/preferences.d/php8.5" <<EOF
Package: php8.5*
Pin: release a=experimental
Pin-Priority: 500

Package: php-common
Pin: release a=unstable
Pin-Priority: 990
EOF
  fi
  # No service starts inside (the tests start their own private servers).
  printf '#!/bin/sh\nexit 101\n' > "$tmp/usr/sbin/policy-rc.d"
  chmod +x "$tmp/usr/sbin/policy-rc.d"
  mv "$tmp" "$dir"
}

mkdir -p "$cache"
exec 9>"$cache/chroot-$version.lock"
flock 9
[ -x "$dir/usr/bin/apt-get" ] || make_chroot

# The suite's packages, through the same script as on the host (it installs only what is missing).
cp "$root/scripts/setup.sh" "$dir/root/ext-async-setup.sh"
bind_in "$dir"
in_chroot "$dir" /bin/bash /root/ext-async-setup.sh >&2 || { echo "php-chroot.sh: setup failed in $dir" >&2; exit 1; }

flock -u 9
exec 9>&-
if [ "${1:-}" != run ]; then
  unmount_all
  echo "$dir"
  exit 0
fi
shift
tree=${ASYNC_CHROOT_TREE:-/ext-async}
mkdir -p "$dir$tree"
# This tree, as a clean clone has it (tracked files, and untracked ones not ignored), over the
# previous copy (its build stays: scripts/build.sh reconfigures when config.m4 or the PHP changed);
# files the previous copy had and this tree no longer has are removed.
manifest="$dir$tree/.copied-files"
list=$(cd "$root" && { git ls-files 2>/dev/null || find . -type f -not -path './.git/*'; git ls-files --others --exclude-standard 2>/dev/null; } \
  | sort -u | while IFS= read -r f; do [ -f "$f" ] && printf '%s\n' "$f"; done)
if [ -f "$manifest" ]; then
  comm -23 "$manifest" <(printf '%s\n' "$list") | while IFS= read -r gone; do rm -f "$dir$tree/$gone"; done
fi
(cd "$root" && printf '%s\n' "$list" | tar -cf - -T -) | tar -xf - -C "$dir$tree"
printf '%s\n' "$list" > "$manifest"
set +e
in_chroot "$dir" /bin/sh -c 'cd "$0" && exec "$@"' "$tree" "$@"
rc=$?
exit $rc
