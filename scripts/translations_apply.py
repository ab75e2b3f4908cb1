#!/usr/bin/env python3
"""Writes translations into translations/decoding_lab_<lang>.ts, matched by context + source
(+ comment, the disambiguation).

    python3 scripts/translations_apply.py todo.json [--dry-run]
    ./scripts/update_translations.sh      # afterwards: lupdate re-formats the files and recounts

todo.json is what `scripts/translations_todo.py --json` prints, filled in:
    {"de": [{"context": "dlab::ui::MainWindow", "source": "&File", "translation": "&Datei"}, ...],
     "zh_CN": [...]}
For a %n plural "translation" is a list: English and German [singular, plural], Chinese [one form]
(decoding_lab_en.ts, the English plural file, has %n entries only).
An entry whose placeholders (%1, %n, ...) differ from its source's is refused (exit 1);
a lost '&' accelerator or HTML tag is only reported.
"""
import argparse
import json
import pathlib
import sys
import xml.etree.ElementTree as ET

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from translations_todo import TS_DIR, problems  # noqa: E402


def apply_file(path, entries, dry_run):
    tree = ET.parse(path)
    index = {}
    for ctx in tree.getroot().iter("context"):
        name = ctx.findtext("name") or ""
        for msg in ctx.iter("message"):
            key = (name, msg.findtext("source") or "", msg.findtext("comment") or "")
            index[key] = msg
    applied, errors = 0, 0
    for e in entries:
        text = e.get("translation")
        if text in ("", None, []) or (isinstance(text, list) and not all(text)):
            continue  # not filled in yet
        key = (e["context"], e["source"], e.get("comment", ""))
        msg = index.get(key)
        where = "%s | %s | %s" % (path.name, e["context"], e["source"])
        if msg is None:
            print("not in the .ts (run update_translations.sh first?): " + where, file=sys.stderr)
            errors += 1
            continue
        numerus = msg.get("numerus") == "yes"
        forms = text if isinstance(text, list) else [text]
        if numerus != isinstance(text, list):
            print("%s: %s" % (where, "needs a list of plural forms" if numerus else "is not a plural"),
                  file=sys.stderr)
            errors += 1
            continue
        found = [p for f in forms for p in problems(e["source"], f)]
        if any(p.startswith("placeholders") for p in found):
            print("refused, %s: %s" % (where, "; ".join(found)), file=sys.stderr)
            errors += 1
            continue
        for p in found:
            print("warning, %s: %s" % (where, p), file=sys.stderr)
        tr = msg.find("translation")
        if tr is None:
            tr = ET.SubElement(msg, "translation")
        tr.attrib.pop("type", None)
        for child in list(tr):
            tr.remove(child)
        if numerus:
            tr.text = None
            for f in forms:
                ET.SubElement(tr, "numerusform").text = f
        else:
            tr.text = forms[0]
        applied += 1
    if not dry_run and applied:
        ET.indent(tree, space="    ")
        body = ET.tostring(tree.getroot(), encoding="unicode")
        path.write_text('<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n' + body + "\n",
                        encoding="utf-8")
    print("%s: %d applied" % (path.name, applied))
    return errors


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("json_file")
    ap.add_argument("--dry-run", action="store_true")
    args = ap.parse_args()
    data = json.loads(pathlib.Path(args.json_file).read_text(encoding="utf-8"))
    errors = 0
    for lang, entries in data.items():
        path = TS_DIR / ("decoding_lab_%s.ts" % lang)
        if not path.exists():
            print("no such file: %s" % path, file=sys.stderr)
            errors += 1
            continue
        errors += apply_file(path, entries, args.dry_run)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
