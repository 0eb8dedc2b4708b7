#!/usr/bin/env bash
# Browser tests need Chromium, and the QA kit's WebDriver tests its chromedriver: Debian's (chromium,
# chromium-driver), installed when either is missing and we are allowed to.
set -euo pipefail
source "$(dirname "$0")/apt-install.sh"
chromium_path="${CHROMIUM_PATH:-/usr/bin/chromium}"
chromedriver_path="${CHROMEDRIVER_PATH:-/usr/bin/chromedriver}"
if [ -x "$chromium_path" ] && [ -x "$chromedriver_path" ]; then exit 0; fi
apt_install "Chromium and chromedriver" chromium chromium-driver fonts-dejavu-core && exit 0
[ -x "$chromium_path" ] || echo "Chromium is not at $chromium_path. Set CHROMIUM_PATH to a Chromium binary, or install Playwright's browser where downloads work." >&2
[ -x "$chromedriver_path" ] || echo "chromedriver is not at $chromedriver_path: the QA kit's WebDriver tests are skipped here, and fail under CI=true. Install Debian's chromium-driver, or set CHROMEDRIVER_PATH." >&2
exit 0
