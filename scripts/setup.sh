#!/usr/bin/env bash
# Sets up everything castpress needs on a fresh Debian machine: Debian packages
# (Chromium for HTML mode, poppler/qpdf for checks, Noto fonts) and npm packages.
# Safe to run again: it installs only what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

DEB_PACKAGES=(chromium poppler-utils qpdf fonts-noto-core fonts-noto-cjk fonts-liberation2 fonts-symbola fontconfig mupdf-tools libnss3-tools openssl libreoffice-writer-nogui)

missing=()
for p in "${DEB_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  echo "Installing Debian packages: ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# `npm install`, not `npm ci`: the lock file can only list the platform packages
# (rollup, esbuild, sharp...) that the registry mirror serves, and `npm ci` refuses
# a lock without the others. `npm install` keeps the locked versions and skips them.
npm install --no-audit --no-fund
echo "castpress: set-up complete"
