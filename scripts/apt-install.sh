# Sourced by the scripts/ensure-*.sh of the browsers: installs Debian packages when
# we are allowed to (root, or sudo without a password) and says why not otherwise.
# Playwright cannot download its own browsers here, so the tests use Debian's.

# apt_install WHAT PACKAGE...: returns 1, having said so, when it may not install.
apt_install() {
  local what="$1"
  shift
  local as_root=()
  if [ "$(id -u)" != "0" ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then as_root=(sudo -n); else
      echo "Cannot install $what here: need root, or sudo without a password, and apt-get." >&2
      return 1
    fi
  fi
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "Cannot install $what here: no apt-get." >&2
    return 1
  fi
  echo "Installing Debian's $what ($*) for the browser tests..."
  "${as_root[@]}" apt-get update -qq
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}
