#!/usr/bin/env bash
# The rate limiters count in Redis when REDIS_URL is set (docs/operations.md, "Rate limits");
# their tests and the fleet start a throwaway redis-server on loopback from Debian's package
# (testing/fleet/redis-server.ts). Install it when it is missing and we are allowed to
# (root + apt); otherwise those tests are skipped with a notice (on CI they fail instead).
set -euo pipefail
redis_path="${REDIS_SERVER_PATH:-/usr/bin/redis-server}"
if [ -x "$redis_path" ] || command -v redis-server >/dev/null 2>&1; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's redis-server for the rate limiters' tests and the fleet..."
  apt-get update -qq
  # Only the binary is used, on a port and directory of our own; on a host where systemd
  # starts the package's own server on port 6379, `systemctl disable --now redis-server` stops it.
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null
  exit 0
fi
echo "redis-server is not at $redis_path and cannot be installed here (need root and apt-get):" >&2
echo "the Redis rate-limit tests will be skipped. Install Debian's redis-server, or set REDIS_SERVER_PATH to one." >&2
exit 0
