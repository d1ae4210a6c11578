#!/usr/bin/env bash
# Sets up everything castpress needs on a fresh Debian machine: Debian packages
# (Chromium for HTML mode, poppler/qpdf for checks, the font packages the engine
# takes its own faces from: src/fonts/engine-faces.ts, those of the offline font catalogue:
# src/fonts/offline-catalogue.ts, plus fonts-droid-fallback,
# which tests name; pdftk-java, the anchor of bench/cold-start.ts; bubblewrap, the network sandbox
# of DOCX conversion: src/packets/docx/sandbox.ts) and npm packages.
# Safe to run again: it installs only what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

# Fonts: the engine's own faces come from these packages by exact file (src/fonts/engine-faces.ts);
# fonts-droid-fallback is named by tests. CI allows no other font (scripts/ci-fonts.sh).
FONT_PACKAGES=(fonts-noto-core fonts-noto-cjk fonts-noto-mono fonts-liberation2 fonts-symbola fonts-droid-fallback)
# The offline font catalogue (src/fonts/offline-catalogue.ts): families a request names (Roboto Slab, Open Sans…),
# by exact file, with their licences in /usr/share/doc/<package>/copyright. Not given to CI's fontconfig: HTML mode
# serves these files to Chromium itself, so Chromium's generic families and per-character fallback stay as they are.
CATALOGUE_PACKAGES=(fonts-roboto-unhinted fonts-roboto-slab fonts-open-sans fonts-lato fonts-firacode fonts-dejavu-core)
DEB_PACKAGES=(chromium poppler-utils qpdf "${FONT_PACKAGES[@]}" "${CATALOGUE_PACKAGES[@]}" fontconfig mupdf-tools libnss3-tools openssl pdftk-java libreoffice-writer-nogui bubblewrap redis-server postgresql python3-fonttools)
# HTML mode's CJK faces: glyf copies of Noto Sans CJK SC made by scripts/cjk-truetype.py (Chromium embeds
# the CFF originals as Type 3 fonts). Written once per machine; CI's font set-up includes this folder.
CJK_TT_DIR=/usr/local/share/fonts/castpress-cjk
if [ "${1:-}" = "--print-generated-font-dir" ]; then echo "$CJK_TT_DIR"; exit 0; fi
if [ "${1:-}" = "--print-font-packages" ]; then echo "${FONT_PACKAGES[*]}"; exit 0; fi

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

cjk_source=/usr/share/fonts/opentype/noto
if [ ! -f "$CJK_TT_DIR/NotoSansCJKscTT-Regular.ttf" ] || [ ! -f "$CJK_TT_DIR/NotoSansCJKscTT-Bold.ttf" ]; then
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  echo "Writing TrueType copies of Noto Sans CJK SC for HTML mode into $CJK_TT_DIR (about a minute)"
  tmp="$(mktemp -d)"
  # Index 2 of Debian's collections is the SC face; both weights at once (two cores).
  /usr/bin/python3 "$(dirname "$0")/cjk-truetype.py" "$cjk_source/NotoSansCJK-Regular.ttc" 2 Regular "$tmp/NotoSansCJKscTT-Regular.ttf" &
  regular=$!
  /usr/bin/python3 "$(dirname "$0")/cjk-truetype.py" "$cjk_source/NotoSansCJK-Bold.ttc" 2 Bold "$tmp/NotoSansCJKscTT-Bold.ttf" &
  bold=$!
  wait "$regular"
  wait "$bold"
  $SUDO mkdir -p "$CJK_TT_DIR"
  $SUDO cp "$tmp"/NotoSansCJKscTT-*.ttf "$CJK_TT_DIR/"
  # The licence travels with the copies (minimal images may leave out /usr/share/doc: then the source's note).
  if [ -f /usr/share/doc/fonts-noto-cjk/copyright ]; then $SUDO cp /usr/share/doc/fonts-noto-cjk/copyright "$CJK_TT_DIR/copyright"; fi
  rm -rf "$tmp"
  $SUDO fc-cache "$CJK_TT_DIR" >/dev/null 2>&1 || true
fi

# `npm install`, not `npm ci`: the lock file can only list the platform packages
# (rollup, esbuild, sharp...) that the registry mirror serves, and `npm ci` refuses
# a lock without the others. `npm install` keeps the locked versions and skips them.
npm install --no-audit --no-fund
# The page code's string sources are checked in; this rewrites them only when the TypeScript changed (src/html/README.md "In-page code").
node scripts/generate-page-code.mjs
echo "castpress: set-up complete"
