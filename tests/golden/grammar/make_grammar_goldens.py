#!/usr/bin/env python3
"""Reference token masks of llama.cpp's own GBNF grammar sampler, for Decoding Lab's grammar engine.

Uses llama.cpp through llama-cpp-python's low-level ctypes API
(pip install llama-cpp-python==0.3.36, see ../README.md). Nothing is sampled: for each case
(vocabulary, grammar, sample text that the grammar accepts completely) the script

  * loads the vocabulary only (llama_model_load_from_file with vocab_only = true),
  * tokenizes the text with llama.cpp (no BOS, parse_special = false),
  * creates llama_sampler_init_grammar(vocab, grammar, "root"),
  * for step i = 0..len(tokens): fills a llama_token_data_array with every id of the vocabulary
    (logit 0), calls llama_sampler_apply and records the ids whose logit is still finite
    (= allowed before tokens[i]); then, if i < len(tokens), llama_sampler_accept(tokens[i]).
    The last step is the set allowed after the whole text (EOG ids are in it, since the grammar
    accepts there; the script asserts that).

Before it accepts a token the script checks that llama.cpp allowed it (accepting a rejected token
makes llama.cpp throw through the C API, which aborts the process).

It first converts every schemas/<name>.json to schemas/<name>.llamacpp.gbnf with
llama-cpp-python's own converter (llama_cpp.llama_grammar.json_schema_to_gbnf; LlamaGrammar.
from_json_schema calls the same function), then makes every case with its long text and writes
them all to cases-long.tar.xz (deterministic: sorted, mtime 0), and to cases/<vocab>-<grammar>.json
the long version if it is at most --limit-kb (190 KB), else the short one if that fits, else none
(the plain set would be 29 MB; ../README.md lists which is where). Each file:

  {"generator", "llama_cpp_python", "vocab": "smollm2" | "llama-bpe", "vocab_size",
   "grammar_file" (relative to this directory), "text", "tokens", "eog",
   "steps": [{"allowed": R} or {"forbidden": R}]}      (len(tokens) + 1 entries)

R is a comma list of ascending ids and inclusive ranges, "0-12,15,20-30" ("" = empty set);
each step stores whichever of allowed / forbidden is the shorter string.

Vocabularies: "smollm2" is the default model (SmolLM2-135M-Instruct.Q4_1.gguf; $DECODING_LAB_MODEL,
else $XDG_DATA_HOME or ~/.local/share + /decoding-lab/models/, like tests/support/test_paths.cpp),
"llama-bpe" is tests/data/tokenizer/ggml-vocab-llama-bpe.gguf (llama.cpp's Llama 3 vocab-only GGUF,
128256 tokens, already in the repository for the tokenizer tests).

  /tmp/refvenv/bin/python tests/golden/grammar/make_grammar_goldens.py
  (options: --model PATH, --llama-bpe PATH, --limit-kb N, --only SUBSTRING (cases/ only),
   --findings: also print the control-token / empty-token / partial-UTF-8 probes that
   ../README.md reports)

Two runs give byte-identical files.
"""
import argparse
import ctypes
import io
import json
import lzma
import os
import sys
import tarfile

import numpy as np

try:
    import llama_cpp as L
    from llama_cpp.llama_grammar import json_schema_to_gbnf
except ImportError:  # pragma: no cover
    sys.exit("llama-cpp-python is required: pip install llama-cpp-python==0.3.36")

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
LLAMA_BPE = os.path.join(REPO, "tests", "data", "tokenizer", "ggml-vocab-llama-bpe.gguf")
DEFAULT_MODEL_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
LIMIT_KB = 190  # keeps cases/ + the archive under ~3 MB

# (grammar file relative to HERE, long text, short text or None). Every text is accepted completely
# by its grammar. cases/ gets the long text where the case file stays under --limit-kb, else the
# short one (if that fits), else the case is only in cases-long.tar.xz (see ../README.md).
CASES = [
    ("llamacpp/json.gbnf",
     '{"name": "Zo\u00eb \\"Z\\" Caf\u00e9", "tags": ["a\\u00e9\\n", "\u65e5\u672c\u8a9e", ""],'
     ' "n": -12.5e-7, "big": 6.02E+23, "ok": true, "x": null,\n  "nested": {"k": [1, 0, {"deep": []}]}}',
     '{"\u00e9\\"": [-1.5e-7, {}, true]}'),
    ("llamacpp/json_arr.gbnf",
     '[\n{"id": 1, "city": "Z\u00fcrich"},\n{"id": 2, "city": "\u6771\u4eac", "pop": 1.4e7},\n'
     '"tab\\there \\u2603",\n[true, false, null, -0.25]\n]',
     '[\n{"k":[true,null]},\n"\u00e9\\n"\n]'),
    ("llamacpp/arithmetic.gbnf",
     "(a +42) *b_2 -7/x = 100\n(y*y)/3 = q\nz9 = 0\n",
     "a+1 = b\n"),
    ("llamacpp/c.gbnf",
     "int fib(int n){if(n<2){return n;}int a = fib(n-1);int b = fib(n-2);// sum\n"
     "return a+b;}float half(float x){/* divide */return x/2;}",
     "char c(){/* x */return 0;}"),
    ("llamacpp/chess.gbnf",
     "1. e4 e5\n2. Nf3 Nc6\n3. Bb5 a6\n4. Ba4 Nf6\n5. O-O Be7\n6. Re1 b5\n7. Bb3 d6\n"
     "8. c3 O-O\n9. h3 Nb8\n10. d4 Nbd7\n11. dxe5 Nxe5\n12. Nxe5+ Rxf8#\n",
     None),
    ("llamacpp/list.gbnf",
     "- buy milk\n- caf\u00e9 au lait \u00bd\n- \u65e5\u672c\u8a9e\u306e\u672c\n- fix bug #42 (urgent!)\n",
     "- caf\u00e9\n- \u65e5\u672c\n"),
    ("llamacpp/english.gbnf",
     "The quick brown fox, aged 7, jumps over the lazy dog! Isn't it \"fun\"?\n"
     "Price: $3.50 (50% off) #deal [ok]",
     "Hi, it's 7!"),
    ("llamacpp/japanese.gbnf",
     "\u65e5\u672c\u8a9e\u306e\u6587\u7ae0\u3067\u3059\u3002 "
     "\u30ab\u30bf\u30ab\u30ca\u3068\u3072\u3089\u304c\u306a\u3001\u6f22\u5b57\u3092\u4f7f\u3044\u307e\u3059\u3002\n"
     "\u6771\u4eac\u306f\u5927\u304d\u3044\u90fd\u5e02\u3060\u3002",
     None),
    ("schemas/person.llamacpp.gbnf",
     '{"name": "Ren\\u00e9e \\"Zo\u00eb\\" Caf\u00e9", "age": 42, "email": "zoe@example.com",'
     ' "nickname": "\u65e5\u672c"}',
     '{"name": "Zo\u00eb", "age": -42, "nickname": "Z"}'),
    ("schemas/order.llamacpp.gbnf",
     '{"id": 1007, "status": "shipped", "customer": {"name": "Ana", "city": "S\u00e3o Paulo"},'
     ' "items": [{"sku": "A-1", "qty": 2, "price": 9.5}, {"sku": "B\\/2", "qty": 1, "price": 1.25e3}],'
     ' "note": "leave at door"}',
     '{"id": 7, "status": "pending", "customer": {"name": "A"}, "items": [{"sku": "x", "qty": 1, "price": 2.5}]}'),
    ("schemas/config.llamacpp.gbnf",
     '{"version": 2, "mode": null, "debug": false, "tags": ["x", "y\\\\z"], "threshold": -0.5E-3,'
     ' "retry": {"count": 3, "backoff_ms": 250}}',
     '{"version": 2, "mode": "fast", "debug": true, "retry": {"count": 3}}'),
    ("schemas/tree.llamacpp.gbnf",
     '{"name": "t", "top": {"label": "root", "children": [{"label": "a", "children": [], "weight": 0.5},'
     ' {"label": "b", "children": [{"label": "c", "children": []}]}], "weight": 2}}',
     '{"name": "t", "top": {"label": "r", "children": [{"label": "a", "children": []}]}}'),
    ("schemas/geo.llamacpp.gbnf",
     '{"type": "FeatureCollection", "features": [{"name": "Caf\u00e9", "at": [48.85, 2.35]},'
     ' {"name": "\u6771\u4eac", "at": [35.68, 139.69], "bbox": [[35, 139], [36, 140.5]]}]}',
     '{"type": "FeatureCollection", "features": [{"name": "\u6771\u4eac", "at": [35.6, 139.7]}]}'),
    ("schemas/event.llamacpp.gbnf",
     '{"id": "123e4567-e89b-12d3-a456-426614174000", "title": "Caf\u00e9 talk", "day": "2024-02-29",'
     ' "starts": "2024-02-29T18:30:00.000+01:00", "location": {"room": 12}}',
     '{"id": "123e4567-e89b-12d3-a456-426614174000", "title": "Talk", "day": "2024-02-29",'
     ' "starts": "2024-02-29T18:30:00Z"}'),
    ("schemas/inventory.llamacpp.gbnf",
     '{"warehouse": "DE-042", "counts": {"caf\u00e9": 3, "\u65e5\u672c\u8a9e": -1, "\\"q\\"": 0},'
     ' "readings": [1.5, 2, -3e2]}',
     '{"warehouse": "DE-042", "counts": {"caf\u00e9": 3}, "readings": [1.5, -3e2]}'),
    ("probes/special-text.gbnf",
     "<|im_start|>user\n<|start_header_id|>user\n",
     "<|im_start|>user\n"),
    ("probes/utf8-partial.gbnf",
     "\u3072\u3089\u304c\u306a\u3067\u3059 \u00e0\u00e9\u00ee\u00f5\u00fc\u00ff "
     "\u6f22\u5b57\u65e5\u672c\u8a9e\u9f98\n",
     "\u3072\u3089\u304c\u306a \u00e0\u00e9 \u6f22\u5b57\n"),
]

TOKEN_DATA = np.dtype([("id", np.int32), ("logit", np.float32), ("p", np.float32)])
assert TOKEN_DATA.itemsize == ctypes.sizeof(L.llama_token_data)

_LOG_CB = L.llama_log_callback(lambda level, text, user: None)  # keep a reference: ctypes callback


def default_model():
    env = os.environ.get("DECODING_LAB_MODEL")
    if env:
        return env
    data = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(data, "decoding-lab", "models", DEFAULT_MODEL_FILE)


def load_vocab(path):
    mp = L.llama_model_default_params()
    mp.vocab_only = True
    model = L.llama_model_load_from_file(path.encode(), mp)
    if not model:
        sys.exit(f"cannot load {path}")
    return model, L.llama_model_get_vocab(model)


def tokenize(vocab, text):
    b = text.encode("utf-8")
    buf = (L.llama_token * (len(b) + 8))()
    n = L.llama_tokenize(vocab, b, len(b), buf, len(buf), False, False)
    assert n >= 0, n
    return list(buf[:n])


def piece(vocab, tok, special=True):
    buf = ctypes.create_string_buffer(512)
    n = L.llama_token_to_piece(vocab, tok, buf, len(buf), 0, special)
    assert n >= 0
    return buf.raw[:n]


class Masker:
    """Applies a sampler to the full vocabulary; the array is reused (numpy, no Python loop)."""

    def __init__(self, n_vocab):
        self.n = n_vocab
        self.arr = np.zeros(n_vocab, TOKEN_DATA)
        self.ids = np.arange(n_vocab, dtype=np.int32)
        self.cur = L.llama_token_data_array(
            data=self.arr.ctypes.data_as(ctypes.POINTER(L.llama_token_data)),
            size=n_vocab, selected=-1, sorted=False)

    def fill(self, logits=None):
        self.arr["id"] = self.ids
        self.arr["logit"] = 0.0 if logits is None else logits
        self.arr["p"] = 0.0
        self.cur.size, self.cur.selected, self.cur.sorted = self.n, -1, False

    def apply(self, smpl):
        L.llama_sampler_apply(smpl, ctypes.byref(self.cur))
        assert self.cur.size == self.n  # the grammar sampler only masks, it neither drops nor reorders
        return np.isfinite(self.arr["logit"]) & (self.arr["id"] == self.ids)

    def allowed(self, smpl, logits=None):
        self.fill(logits)
        return self.apply(smpl)


def ranges(mask):
    """Ascending ids where mask is true as "a-b,c,...". """
    idx = np.flatnonzero(mask)
    if idx.size == 0:
        return ""
    breaks = np.flatnonzero(np.diff(idx) != 1)
    starts = np.concatenate(([idx[0]], idx[breaks + 1]))
    ends = np.concatenate((idx[breaks], [idx[-1]]))
    return ",".join(str(a) if a == b else f"{a}-{b}" for a, b in zip(starts.tolist(), ends.tolist()))


def convert_schemas():
    sdir = os.path.join(HERE, "schemas")
    for name in sorted(os.listdir(sdir)):
        if not name.endswith(".json"):
            continue
        with open(os.path.join(sdir, name), encoding="utf-8") as f:
            gbnf = json_schema_to_gbnf(f.read())
        out = os.path.join(sdir, name[:-5] + ".llamacpp.gbnf")
        with open(out, "w", encoding="utf-8") as f:
            f.write(f"# {name} converted by llama-cpp-python {L.__version__} "
                    "llama_cpp.llama_grammar.json_schema_to_gbnf (make_grammar_goldens.py)\n")
            f.write(gbnf + "\n")


def read_grammar(rel):
    with open(os.path.join(HERE, rel), "rb") as f:
        return f.read()


def run_case(vocab_name, vocab, n_vocab, eog, rel, text):
    tokens = tokenize(vocab, text)
    smpl = L.llama_sampler_init_grammar(vocab, read_grammar(rel), b"root")
    if not smpl:
        sys.exit(f"llama.cpp rejected the grammar {rel}")
    masker = Masker(n_vocab)
    steps, masks = [], []
    for i in range(len(tokens) + 1):
        m = masker.allowed(smpl)
        masks.append(m)
        a, f = ranges(m), ranges(~m)
        steps.append({"allowed": a} if len(a) <= len(f) else {"forbidden": f})
        if i < len(tokens):
            t = tokens[i]
            assert m[t], f"{vocab_name} {rel}: llama.cpp rejects token {i} ({t}, {piece(vocab, t)!r})"
            L.llama_sampler_accept(smpl, t)
    assert all(masks[-1][e] for e in eog), f"{vocab_name} {rel}: EOG not allowed at the end"
    L.llama_sampler_free(smpl)
    case = {"generator": "make_grammar_goldens.py", "llama_cpp_python": L.__version__,
            "vocab": vocab_name, "vocab_size": n_vocab, "grammar_file": rel, "text": text,
            "tokens": tokens, "eog": eog, "steps": steps}
    return case, masks


def render_case(case):
    """One key per line, one step per line (small diffs)."""
    lines = ["{"]
    keys = list(case)
    for k in keys:
        v = case[k]
        if k == "steps":
            body = ",\n".join("  " + json.dumps(s, ensure_ascii=False) for s in v)
            lines.append(f'"steps": [\n{body}\n]')
        else:
            lines.append(f"{json.dumps(k)}: {json.dumps(v, ensure_ascii=False)},")
    lines.append("}")
    return ("\n".join(lines) + "\n").encode("utf-8")


def first_rejected(vocab, n_vocab, grammar, text):
    """(index, id, piece) of the first token of text that llama.cpp's grammar sampler forbids."""
    tokens = tokenize(vocab, text)
    smpl = L.llama_sampler_init_grammar(vocab, grammar, b"root")
    masker = Masker(n_vocab)
    try:
        for i, t in enumerate(tokens):
            if not masker.allowed(smpl)[t]:
                return i, t, piece(vocab, t)
            L.llama_sampler_accept(smpl, t)
        return None
    finally:
        L.llama_sampler_free(smpl)


def findings(vocab_name, vocab, n_vocab, eog, results):
    """Prints what the README reports: control tokens, empty pieces, partial UTF-8."""
    pieces = [piece(vocab, t) for t in range(n_vocab)]
    control = [t for t in range(n_vocab) if L.llama_vocab_is_control(vocab, t)]
    empty = [t for t in range(n_vocab) if pieces[t] == b""]
    nul = [t for t in range(n_vocab) if pieces[t][:1] == b"\0"]
    print(f"[{vocab_name}] n_vocab {n_vocab}, EOG {eog}, control tokens {len(control)} "
          f"(first {control[:6]}), pieces empty with special=true: {len(empty)}, "
          f"pieces starting with NUL: {[(t, pieces[t]) for t in nul]}")
    for rel, (case, masks) in results.items():
        toks = case["tokens"]
        ctrl_allowed = sorted({t for m in masks for t in control if m[t] and t not in eog})
        eog_steps = [i for i, m in enumerate(masks) if any(m[e] for e in eog)]
        partial = []
        for i, t in enumerate(toks):
            try:
                pieces[t].decode("utf-8")
            except UnicodeDecodeError:
                partial.append((i, t, pieces[t]))
        print(f"  {rel}: {len(toks)} tokens; non-EOG control ids allowed at some step: "
              f"{[(t, pieces[t].decode()) for t in ctrl_allowed[:4]]}{' ...' if len(ctrl_allowed) > 4 else ''}"
              f" ({len(ctrl_allowed)}); steps where EOG allowed: {eog_steps}; "
              f"text tokens that are not valid UTF-8 alone: {partial[:4]}{' ...' if len(partial) > 4 else ''}"
              f" ({len(partial)})")
    masker = Masker(n_vocab)
    smpl = L.llama_sampler_init_grammar(vocab, b"root ::= [^\\x00]*", b"root")
    m = masker.allowed(smpl)
    bad = []
    for t in range(n_vocab):
        try:
            pieces[t].decode("utf-8")
        except UnicodeDecodeError:
            bad.append(t)
    lone_cont = [t for t in bad if 0x80 <= pieces[t][0] <= 0xBF]
    print(f"  grammar [^\\x00]* at the start: {int(m.sum())} allowed; forbidden: "
          f"{[(t, pieces[t]) for t in np.flatnonzero(~m)[:3].tolist()]} ...; "
          f"pieces not valid UTF-8 alone: {len(bad)}, of them allowed {sum(bool(m[t]) for t in bad)}, "
          f"starting with a continuation byte {len(lone_cont)} (allowed {sum(bool(m[t]) for t in lone_cont)})")
    lead = next(t for t in range(n_vocab) if pieces[t] == b"\xe6")
    L.llama_sampler_accept(smpl, lead)
    m2 = masker.allowed(smpl)
    print(f"  after accepting {lead} {pieces[lead]!r}: {int(m2.sum())} allowed, all start with a "
          f"continuation byte: {all(0x80 <= pieces[t][0] <= 0xBF for t in np.flatnonzero(m2))}, "
          f"EOG allowed: {[e for e in eog if m2[e]]}")
    L.llama_sampler_free(smpl)
    # a negated class rejects a token that ends inside a character if ANY completion is excluded
    coffee = "- caf\u00e9 au lait \u2615\n"
    print(f"  list.gbnf on {coffee!r} (tokens {[piece(vocab, t) for t in tokenize(vocab, coffee)]}): "
          f"first token llama.cpp forbids: {first_rejected(vocab, n_vocab, read_grammar('llamacpp/list.gbnf'), coffee)}")
    # a control token's text is matched literally, an EOG token's text is not
    for rel_text in (b'root ::= "<|im_start|>" | "<|start_header_id|>" | "<|im_end|>" | "<|eot_id|>"',):
        smpl = L.llama_sampler_init_grammar(vocab, rel_text, b"root")
        m = masker.allowed(smpl)
        print(f"  grammar {rel_text.decode()}: allowed ids {[(t, pieces[t].decode('utf-8', 'replace')) for t in np.flatnonzero(m)[:12].tolist()]}")
        L.llama_sampler_free(smpl)


def write_archive(path, members):
    """Deterministic .tar.xz (sorted names, mtime 0, root:root, 0644)."""
    with lzma.open(path + ".tmp", "wb", preset=9 | lzma.PRESET_EXTREME) as xz:
        with tarfile.open(fileobj=xz, mode="w", format=tarfile.USTAR_FORMAT) as tar:
            for name in sorted(members):
                info = tarfile.TarInfo(name)
                info.size, info.mtime, info.mode = len(members[name]), 0, 0o644
                info.uid = info.gid = 0
                info.uname = info.gname = "root"
                tar.addfile(info, io.BytesIO(members[name]))
    os.replace(path + ".tmp", path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model", default=default_model(), help="the default model (SmolLM2) GGUF")
    ap.add_argument("--llama-bpe", default=LLAMA_BPE)
    ap.add_argument("--limit-kb", type=int, default=LIMIT_KB,
                    help="largest case file kept in cases/ (default %(default)s)")
    ap.add_argument("--only", default="", help="only cases whose grammar file contains this "
                    "(writes cases/ only, leaves other files and the archive alone)")
    ap.add_argument("--findings", action="store_true")
    args = ap.parse_args()

    L.llama_log_set(_LOG_CB, None)
    L.llama_backend_init()
    convert_schemas()
    cases_dir = os.path.join(HERE, "cases")
    os.makedirs(cases_dir, exist_ok=True)
    written, archive = set(), {}
    for vocab_name, path in (("smollm2", args.model), ("llama-bpe", args.llama_bpe)):
        if not os.path.exists(path):
            sys.exit(f"missing vocabulary {vocab_name}: {path}")
        model, vocab = load_vocab(path)
        n_vocab = L.llama_vocab_n_tokens(vocab)
        eog = [t for t in range(n_vocab) if L.llama_vocab_is_eog(vocab, t)]
        results = {}
        for rel, long_text, short_text in CASES:
            if args.only not in rel:
                continue
            stem = os.path.basename(rel)[: -len(".gbnf")].replace(".llamacpp", "")
            name = f"{vocab_name}-{stem}.json"
            case, masks = run_case(vocab_name, vocab, n_vocab, eog, rel, long_text)
            results[rel] = (case, masks)
            blob = render_case(case)
            archive["cases-long/" + name] = blob
            which = "long"
            if len(blob) > args.limit_kb * 1024:
                blob, which = None, "archive only"
                if short_text is not None:
                    short_blob = render_case(run_case(vocab_name, vocab, n_vocab, eog, rel, short_text)[0])
                    if len(short_blob) <= args.limit_kb * 1024:
                        blob, which = short_blob, "short"
            if blob is not None:
                with open(os.path.join(cases_dir, name), "wb") as f:
                    f.write(blob)
                written.add(name)
            print(f"{name}: long text {len(case['tokens'])} tokens {len(archive['cases-long/' + name]) // 1024} KB;"
                  f" cases/: {which}" + (f" {len(blob) // 1024} KB" if blob else ""), flush=True)
        if args.findings:
            findings(vocab_name, vocab, n_vocab, eog, results)
        L.llama_model_free(model)
    if not args.only:
        for stale in set(os.listdir(cases_dir)) - written:
            if stale.endswith(".json"):
                os.remove(os.path.join(cases_dir, stale))
        write_archive(os.path.join(HERE, "cases-long.tar.xz"), archive)
        print(f"cases-long.tar.xz: {len(archive)} cases, {os.path.getsize(os.path.join(HERE, 'cases-long.tar.xz')) // 1024} KB")


if __name__ == "__main__":
    main()
