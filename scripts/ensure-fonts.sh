#!/usr/bin/env bash
# Fonts for every language the widget speaks, so that its browser tests and visual baselines show
# glyphs, not boxes ("tofu"), the same on every machine (docs/shopper-experience.md, "Every
# language's glyphs"). DejaVu (a dependency of the browsers, installed here on a machine without
# them) covers Latin, Greek, Cyrillic, Hebrew, Arabic and Vietnamese; WenQuanYi Micro Hei covers
# Chinese (both scripts), Japanese and Korean in one 1.6 MB package (Droid Sans Fallback, which
# this installed before, has no Hangul and misses some Simplified Chinese; Noto CJK would be 57 MB);
# Loma covers Thai (0.2 MB). scripts/ensure-fonts.test.ts asks fontconfig about every language.
set -euo pipefail
source "$(dirname "$0")/apt-install.sh"
# fontconfig's language, and the package that covers it.
needs=(
  "ar fonts-dejavu-core" "he fonts-dejavu-core" "el fonts-dejavu-core" "ru fonts-dejavu-core" "vi fonts-dejavu-core"
  "ja fonts-wqy-microhei" "ko fonts-wqy-microhei" "zh-cn fonts-wqy-microhei" "zh-tw fonts-wqy-microhei"
  "th fonts-tlwg-loma-ttf"
)
missing=()
for need in "${needs[@]}"; do
  read -r language package <<<"$need"
  fc-list ":lang=$language" family 2>/dev/null | grep -q . && continue
  [[ " ${missing[*]} " == *" $package "* ]] || missing+=("$package")
done
if [ ${#missing[@]} -eq 0 ]; then exit 0; fi
apt_install "fonts for every language the widget speaks" "${missing[@]}" && exit 0
echo "Without ${missing[*]}, the browser tests' screenshots in those languages show boxes and will not match their baselines." >&2
exit 0
