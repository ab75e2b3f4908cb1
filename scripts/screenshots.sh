#!/usr/bin/env bash
# Makes docs/screenshots/*.png from the app on the default model, under a virtual X server:
# every page at 100 % (presentation mode at 1920×1080), and the playground again at a 150 % scale
# factor (high-DPI).
# usage: scripts/screenshots.sh [OUT_DIR]   (needs xvfb: scripts/setup.sh installs it)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$root/docs/screenshots}"
app="$root/build/app/gui/decoding-lab"
[[ -x "$app" ]] || { echo "error: $app is missing: run scripts/setup.sh first" >&2; exit 1; }
# The tour changes settings (language, theme, presentation mode): keep them out of the user's.
DLAB_SETTINGS="$(mktemp --suffix=.ini)"
export DLAB_SETTINGS
xvfb-run -a -s "-screen 0 1920x1200x24 -dpi 96" "$app" --screenshots "$out"
hidpi="$(mktemp -d)"
trap 'rm -rf "$hidpi" "$DLAB_SETTINGS"' EXIT
QT_SCALE_FACTOR=1.5 xvfb-run -a -s "-screen 0 2000x1300x24 -dpi 96" "$app" --screenshots "$hidpi" > /dev/null
cp "$hidpi/playground.png" "$out/playground-150pct.png"
echo "wrote $out/playground-150pct.png"
