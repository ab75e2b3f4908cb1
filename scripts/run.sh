#!/usr/bin/env bash
# Sets up (packages, default model, build) and runs Decoding Lab on the default model.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$ROOT/scripts/setup.sh"
BUILD_DIR="${DLAB_BUILD_DIR:-$ROOT/build}"
if [ -x "$BUILD_DIR/app/gui/decoding-lab" ]; then
  exec "$BUILD_DIR/app/gui/decoding-lab" "$@"
fi
# Built without Qt (-DDLAB_GUI=OFF): a short chat with the default model from the CLI.
exec "$BUILD_DIR/app/cli/decoding-lab-cli" generate --chat --temperature 0 --max-tokens 96 \
  --prompt "${1:-Explain in two sentences what a language model does when it picks the next token.}"
