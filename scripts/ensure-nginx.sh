#!/usr/bin/env bash
# The reference deployment puts Debian's nginx in front of the instances
# (docs/operations.md, "The reference deployment: nginx in front"); its smoke test (testing/fleet/nginx.test.ts)
# runs nginx as the current user on a config of its own. Install it when it is
# missing and we are allowed to (root + apt); otherwise that test is skipped with a notice.
set -euo pipefail
nginx_path="${NGINX_PATH:-/usr/sbin/nginx}"
if [ -x "$nginx_path" ] || command -v nginx >/dev/null 2>&1; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's nginx for the reference deployment and its smoke test..."
  apt-get update -qq
  # Only the binary is used, with a config and prefix directory of our own; on a host where
  # systemd starts the package's own site on port 80, `systemctl disable --now nginx` stops it.
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx >/dev/null
  exit 0
fi
echo "nginx is not at $nginx_path and cannot be installed here (need root and apt-get):" >&2
echo "the nginx smoke test will be skipped. Install Debian's nginx, or set NGINX_PATH to an nginx binary." >&2
exit 0
