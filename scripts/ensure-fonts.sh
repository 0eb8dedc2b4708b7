#!/usr/bin/env bash
# The widget's visual baselines and its browser tests in every script need glyphs for each:
# DejaVu (the browsers' dependency) covers Latin, Greek, Cyrillic, Hebrew and Arabic; these small
# Debian packages add the rest (Droid Sans Fallback: Chinese, Japanese, Korean, 1.8 MB; Loma: Thai,
# 0.2 MB). Without them a baseline renders boxes ("tofu") and differs from one machine to the next.
set -euo pipefail
source "$(dirname "$0")/apt-install.sh"
missing=()
fc-list :lang=ja family 2>/dev/null | grep -q . || missing+=(fonts-droid-fallback)
fc-list :lang=th family 2>/dev/null | grep -q . || missing+=(fonts-tlwg-loma-ttf)
if [ ${#missing[@]} -eq 0 ]; then exit 0; fi
apt_install "fonts for CJK and Thai" "${missing[@]}" && exit 0
echo "Without ${missing[*]}, the CJK and Thai screenshots of the browser tests show boxes and will not match their baselines." >&2
exit 0
