#!/usr/bin/env bash
# The store's tests run on PostgreSQL too: vitest's global setup starts a
# throwaway cluster from the installed binaries (testing/postgres-global-setup.ts).
# Install them when they are missing and we are allowed to (root + apt); otherwise
# those tests are skipped with a notice.
set -euo pipefail
if compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || command -v initdb >/dev/null 2>&1; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's postgresql for the store's PostgreSQL tests..."
  apt-get update -qq
  # Only the binaries (and the postgres OS user) are used; the package's own cluster is left alone.
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
  exit 0
fi
echo "PostgreSQL (initdb) is not installed and cannot be installed here (need root and apt-get):" >&2
echo "the PostgreSQL store tests will be skipped. Install postgresql, or set TEST_DATABASE_URL to a server to use." >&2
exit 0
