#!/usr/bin/env bash
# Refreshes translations/decoding_lab_{de,zh_CN}.ts from the sources (tr() / translate() calls and
# the .ui files under ui/, widgets/, app/gui/), drops strings the code no longer has, and reports
# how many entries per file still need a translation. Exits 1 while any are left.
# translations/decoding_lab_en.ts is the English plural file: lupdate -pluralonly keeps only the
# %n entries in it ("%n token(s)" -> "%n token" / "%n tokens"); the rest stays the source text.
#
#   ./scripts/update_translations.sh            # lupdate + report
#   python3 scripts/translations_todo.py        # list what is left (--json: a file to fill in)
#   python3 scripts/translations_apply.py todo.json && ./scripts/update_translations.sh
#
# Keep the lupdate arguments in step with LUPDATE_ARGS in tests/test_gui_translations.cpp and the
# qt_add_translations() call in ui/CMakeLists.txt. The .qm files are built by CMake, not here.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

# Qt 6's lupdate: $LUPDATE, else Qt's binaries folder (/usr/lib/qt6/bin on Debian; a plain
# `lupdate` on PATH may be Qt 5's through qtchooser).
lupdate=${LUPDATE:-}
if [[ -z "$lupdate" ]]; then
  for qtpaths in qtpaths6 /usr/lib/qt6/bin/qtpaths qtpaths; do
    if bins=$("$qtpaths" --query QT_INSTALL_BINS 2>/dev/null) && [[ -x "$bins/lupdate" ]]; then
      lupdate="$bins/lupdate"
      break
    fi
  done
fi
[[ -n "$lupdate" ]] || lupdate=$(command -v lupdate || true)
if [[ -z "$lupdate" ]]; then
  echo "update_translations.sh: lupdate not found (apt install qt6-l10n-tools, or set LUPDATE=...)" >&2
  exit 2
fi

args=(-silent -I . ui widgets app/gui -extensions cpp,h,ui -source-language en -no-obsolete -locations none)
ts_files=(translations/decoding_lab_de.ts translations/decoding_lab_zh_CN.ts)
plurals_ts=translations/decoding_lab_en.ts
"$lupdate" "${args[@]}" -ts "${ts_files[@]}"
"$lupdate" "${args[@]}" -pluralonly -target-language en -ts "$plurals_ts"
ts_files+=("$plurals_ts")

left=0
for ts in "${ts_files[@]}"; do
  # lupdate marks new and changed strings type="unfinished"; an empty finished one counts too.
  read -r total n < <(awk '
    /<message/ { total++; open = 1; bad = 0 }
    open && /type="unfinished"|<translation><\/translation>|<translation\/>|<numerusform><\/numerusform>/ { bad = 1 }
    /<\/message>/ { if (bad) n++; open = 0 }
    END { print total + 0, n + 0 }' "$ts")
  printf '%-36s %4d messages, %4d unfinished\n' "$ts" "$total" "$n"
  left=$((left + n))
done
if ((left > 0)); then
  echo "update_translations.sh: $left entries to translate: python3 scripts/translations_todo.py" >&2
  exit 1
fi
