#!/usr/bin/env bash
# The shopper's flows run in Firefox too (e2e/engines, docs/testing.md): Debian's Firefox ESR,
# driven over WebDriver BiDi (no geckodriver), installed when it is missing and we are allowed to.
set -euo pipefail
source "$(dirname "$0")/apt-install.sh"
firefox_path="${FIREFOX_PATH:-/usr/bin/firefox-esr}"
if [ -x "$firefox_path" ]; then exit 0; fi
apt_install "Firefox ESR" firefox-esr fonts-dejavu-core && exit 0
echo "Firefox ESR is not at $firefox_path: the Firefox flows are skipped here, and fail under CI=true." >&2
echo "Install Debian's firefox-esr, or set FIREFOX_PATH to a Firefox binary." >&2
exit 0
