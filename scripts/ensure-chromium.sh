#!/usr/bin/env bash
# Browser tests need Chromium: Debian's, installed when it is missing and we are allowed to.
set -euo pipefail
source "$(dirname "$0")/apt-install.sh"
chromium_path="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$chromium_path" ]; then exit 0; fi
apt_install chromium chromium fonts-dejavu-core && exit 0
echo "Chromium is not at $chromium_path. Set CHROMIUM_PATH to a Chromium binary, or install Playwright's browser where downloads work." >&2
exit 0
