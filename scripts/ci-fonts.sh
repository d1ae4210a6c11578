#!/usr/bin/env bash
# Writes a fontconfig set-up that sees only the bundled fonts (fonts/) and the files
# of the font packages scripts/setup.sh installs, and prints the environment to use
# it (FONTCONFIG_FILE for Chromium and anything else using fontconfig,
# CASTPRESS_FONT_DIRS for castpress's own scan of named families):
#   eval "$(bash scripts/ci-fonts.sh OUT_DIR)"
# Package files are linked under OUT_DIR/files with their paths relative to
# /usr/share/fonts, so the scan sees the same files in the same order as on a
# machine that has only these packages; a font another package put in the same
# directory is not linked. Fails if fontconfig still lists any other font.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:?usage: ci-fonts.sh OUT_DIR}"
mkdir -p "$out/files" "$out/cache"
out="$(cd "$out" && pwd)"
read -r -a packages <<<"$(bash "$repo/scripts/setup.sh" --print-font-packages)"
for pkg in "${packages[@]}"; do
  while IFS= read -r f; do
    rel="${f#/usr/share/fonts/}"
    mkdir -p "$out/files/$(dirname "$rel")"
    ln -sf "$f" "$out/files/$rel"
  done < <(dpkg -L "$pkg" | grep -E '^/usr/share/fonts/.*\.(ttf|otf|ttc|otc|pfb|pfa)$')
done
# HTML mode's TrueType copies of Noto Sans CJK SC, written by setup.sh (scripts/cjk-truetype.py).
generated="$(bash "$repo/scripts/setup.sh" --print-generated-font-dir)"
cat >"$out/fonts.conf" <<CONF
<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
<fontconfig>
  <dir>$repo/fonts</dir>
  <dir>$out/files</dir>
  <dir>$generated</dir>
  <cachedir>$out/cache</cachedir>
  <!-- The system's rules (aliases, rendering) but none of its font directories. -->
  <include ignore_missing="yes">/etc/fonts/conf.d</include>
</fontconfig>
CONF
export FONTCONFIG_FILE="$out/fonts.conf"
fc-cache "$out/files" "$repo/fonts" >/dev/null 2>&1 || true
# Prove the restriction: every font fontconfig lists is one of ours.
stray="$(fc-list --format '%{file}\n' | grep -v -e "^$repo/fonts/" -e "^$out/files/" -e "^$generated/" || true)"
if [ -n "$stray" ]; then
  echo "ci-fonts: fontconfig still sees fonts outside the allowed set:" >&2
  echo "$stray" | head -5 >&2
  exit 1
fi
echo "ci-fonts: $(fc-list | wc -l) faces (bundled + ${packages[*]})" >&2
echo "export FONTCONFIG_FILE='$out/fonts.conf' CASTPRESS_FONT_DIRS='$out/files:$repo/fonts'"
