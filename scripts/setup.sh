#!/usr/bin/env bash
# Installs what Decoding Lab needs on Debian 12 (packages and the default model) and builds it.
# Idempotent: installs only what is missing. Used by run.sh and test.sh.
# fonts-noto-cjk: without a CJK font every 简体中文 label is empty boxes; qt6-translations-l10n: Qt's
# own buttons and dialogs (Cancel, file dialogs, key names) in German and Chinese. test_gui_translations checks both.
# nlohmann-json3-dev: the saved sessions' JSON (engine/session/session_file).
# qt6-svg-dev: export of the beam tree and the charts to SVG (QSvgGenerator).
# libcpp-httplib-dev: the OpenAI-compatible server (server/); python3-venv: the environment in
# build/pyenv with the official openai client and jsonschema that test the server (tests/server/).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${DLAB_BUILD_DIR:-$ROOT/build}"

PACKAGES=(build-essential cmake ninja-build pkg-config git python3 python3-pip ca-certificates
          libeigen3-dev libspdlog-dev libfmt-dev libpcre2-dev nlohmann-json3-dev libcpp-httplib-dev python3-venv
          qt6-base-dev qt6-charts-dev libqt6opengl6-dev qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools
          qt6-svg-dev libgl-dev libxkbcommon-dev fonts-noto-cjk qt6-translations-l10n
          clang libclang-rt-14-dev xvfb xauth time)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

"$ROOT/scripts/install_model.sh"

# The server tests' client and validator: the official openai package and jsonschema, pinned, in
# the build's own venv.
OPENAI_VERSION=3.57.0
JSONSCHEMA_VERSION=4.23.0
if ! "$BUILD_DIR/pyenv/bin/python" -c "import sys, importlib.metadata as m; sys.exit(m.version('openai') != '$OPENAI_VERSION' or m.version('jsonschema') != '$JSONSCHEMA_VERSION')" 2>/dev/null; then
  echo "setup: installing openai==$OPENAI_VERSION and jsonschema==$JSONSCHEMA_VERSION into $BUILD_DIR/pyenv"
  mkdir -p "$BUILD_DIR"
  python3 -m venv "$BUILD_DIR/pyenv"
  "$BUILD_DIR/pyenv/bin/pip" install -q --disable-pip-version-check "openai==$OPENAI_VERSION" "jsonschema==$JSONSCHEMA_VERSION"
fi

cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$BUILD_DIR" -j"$(nproc)"
