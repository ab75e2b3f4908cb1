#!/usr/bin/env python3
"""Lists the entries of translations/*.ts that still need a translation.

    python3 scripts/translations_todo.py               # one line per entry: lang | context | source
    python3 scripts/translations_todo.py --json > todo.json
        # a file to fill in: each entry's "translation" ("" now; a list of forms for %n plurals:
        # English and German 2, Chinese 1; decoding_lab_en.ts holds the %n entries only),
        # then: python3 scripts/translations_apply.py todo.json && ./scripts/update_translations.sh
    python3 scripts/translations_todo.py --check       # also check finished entries (placeholders,
                                                       # accelerators, HTML tags); exit 1 on problems

Run ./scripts/update_translations.sh first so the .ts files hold the sources' current strings.
Exit status: 0 when nothing is left (and --check found nothing), else 1.
"""
import argparse
import json
import pathlib
import re
import sys
import xml.etree.ElementTree as ET

ROOT = pathlib.Path(__file__).resolve().parent.parent
TS_DIR = ROOT / "translations"

PLACEHOLDER = re.compile(r"%(?:L?\d{1,2}|n|Ln)")
TAG = re.compile(r"</?([A-Za-z][A-Za-z0-9]*)[^>]*>")


def ts_files():
    return sorted(TS_DIR.glob("decoding_lab_*.ts"))


def lang_of(path):
    return path.stem[len("decoding_lab_"):]


def messages(path):
    """Yields (context, message element) for every message of a .ts file."""
    root = ET.parse(path).getroot()
    for ctx in root.iter("context"):
        name = ctx.findtext("name") or ""
        for msg in ctx.iter("message"):
            yield name, msg


def translation_forms(msg):
    tr = msg.find("translation")
    if tr is None:
        return None, []
    if msg.get("numerus") == "yes":
        return tr, [f.text or "" for f in tr.iter("numerusform")]
    return tr, [tr.text or ""]


def is_unfinished(msg):
    tr, forms = translation_forms(msg)
    if tr is None or tr.get("type") in ("unfinished",):
        return True
    return not forms or any(not f for f in forms)


def problems(source, translation):
    """What is wrong with a finished translation of `source` (placeholders, '&', tags)."""
    found = []
    if sorted(PLACEHOLDER.findall(source)) != sorted(PLACEHOLDER.findall(translation)):
        found.append("placeholders %s vs %s" % (sorted(set(PLACEHOLDER.findall(source))),
                                                sorted(set(PLACEHOLDER.findall(translation)))))
    accel = re.compile(r"&(?!&|amp;|lt;|gt;|quot;|#)\S")
    if bool(accel.search(source)) != bool(accel.search(translation)):
        found.append("keyboard accelerator '&' in one of source and translation only")
    if sorted(TAG.findall(source)) != sorted(TAG.findall(translation)):
        found.append("HTML tags differ")
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--json", action="store_true", help="print a JSON file to fill in")
    ap.add_argument("--check", action="store_true", help="also check the finished entries")
    args = ap.parse_args()

    todo = {}
    bad = 0
    for path in ts_files():
        lang = lang_of(path)
        entries = []
        for context, msg in messages(path):
            source = msg.findtext("source") or ""
            comment = msg.findtext("comment")
            if is_unfinished(msg):
                entry = {"context": context, "source": source}
                if comment:
                    entry["comment"] = comment
                extra = msg.findtext("extracomment")
                if extra:
                    entry["note"] = extra
                _, forms = translation_forms(msg)
                guess = [f for f in forms if f]
                if guess:
                    entry["guess"] = guess if msg.get("numerus") == "yes" else guess[0]
                numerus = msg.get("numerus") == "yes"
                entry["translation"] = ([""] * (1 if lang.startswith("zh") else 2)) if numerus else ""
                entries.append(entry)
            elif args.check:
                _, forms = translation_forms(msg)
                for form in forms:
                    for p in problems(source, form):
                        bad += 1
                        print("%s | %s | %s: %s" % (lang, context, source, p), file=sys.stderr)
        todo[lang] = entries

    if args.json:
        json.dump(todo, sys.stdout, ensure_ascii=False, indent=1)
        print()
    else:
        for lang, entries in todo.items():
            for e in entries:
                line = "%s | %s | %s" % (lang, e["context"], e["source"].replace("\n", "\\n"))
                if "comment" in e:
                    line += "   [" + e["comment"] + "]"
                print(line)
        print("; ".join("%s: %d unfinished" % (lang, len(e)) for lang, e in todo.items()), file=sys.stderr)
    return 1 if bad or any(todo.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
