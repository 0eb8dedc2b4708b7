#!/usr/bin/env bash
# Browser tests need Chromium. Playwright cannot download its own here, so use
# Debian's: install it when it is missing and we are allowed to (root + apt).
set -euo pipefail
chromium_path="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$chromium_path" ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's chromium for the browser tests..."
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-dejavu-core >/dev/null
  exit 0
fi
echo "Chromium is not at $chromium_path and cannot be installed here (need root and apt-get)." >&2
echo "Set CHROMIUM_PATH to a Chromium binary, or install Playwright's browser where downloads work." >&2
exit 0
