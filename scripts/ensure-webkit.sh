#!/usr/bin/env bash
# The shopper's flows run in WebKit too (e2e/engines, docs/testing.md): WebKitGTK's WebDriver
# and its MiniBrowser (webkit2gtk-driver), which needs a display (xvfb-run), installed when
# they are missing and we are allowed to.
set -euo pipefail
source "$(dirname "$0")/apt-install.sh"
driver_path="${WEBKIT_WEBDRIVER_PATH:-/usr/bin/WebKitWebDriver}"
if [ -x "$driver_path" ] && command -v xvfb-run >/dev/null 2>&1 && compgen -G '/usr/lib/*/webkit2gtk-4.*/MiniBrowser' >/dev/null; then exit 0; fi
apt_install "WebKitGTK and Xvfb" webkit2gtk-driver xvfb xauth fonts-dejavu-core && exit 0
echo "WebKitWebDriver, MiniBrowser or xvfb-run is missing: the WebKit flows are skipped here, and fail under CI=true." >&2
echo "Install Debian's webkit2gtk-driver and xvfb." >&2
exit 0
