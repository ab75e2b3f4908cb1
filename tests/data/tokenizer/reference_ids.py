#!/usr/bin/env python3
"""Prints, with llama.cpp (llama-cpp-python 0.3.36, vocab-only load), the token ids that
tests/test_tokenizer.cpp expects for the default model and the vocab files in this folder.

    python3 reference_ids.py [path/to/SmolLM2-135M-Instruct.Q4_1.gguf]
"""
import ctypes
import os
import sys

import llama_cpp as L

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_MODEL = sys.argv[1] if len(sys.argv) > 1 else os.path.expanduser(
    "~/.local/share/decoding-lab/models/SmolLM2-135M-Instruct.Q4_1.gguf")


def load(path):
    params = L.llama_model_default_params()
    params.vocab_only = True
    model = L.llama_model_load_from_file(path.encode(), params)
    assert model, path
    return L.llama_model_get_vocab(model)


def tokenize(vocab, text, add_special, parse_special):
    data = text.encode()
    n = len(data) + 16
    out = (L.llama_token * n)()
    count = L.llama_tokenize(vocab, data, len(data), out, n, add_special, parse_special)
    assert count >= 0
    return list(out[:count])


def piece(vocab, token):
    buf = ctypes.create_string_buffer(256)
    n = L.llama_token_to_piece(vocab, token, buf, 256, 0, False)
    return buf.raw[:n]


smol = load(DEFAULT_MODEL)
for parse in (True, False):
    print("smollm2 parseSpecial", parse, tokenize(smol, "<|im_start|>user\nHi there!<|im_end|>\n", False, parse))
print("smollm2 'Hi'", tokenize(smol, "Hi", False, False))
ids = tokenize(smol, "🦙 llama", False, False)
print("smollm2 '🦙 llama'", ids, [piece(smol, i) for i in ids])

phi = load(os.path.join(HERE, "ggml-vocab-phi-3.gguf"))
for parse in (True, False):
    print("phi-3 parseSpecial", parse, tokenize(phi, "Hi</s>  there <|user|>\nHi<|end|>", False, parse))
print("phi-3 eot", L.llama_vocab_eot(phi))

spm = load(os.path.join(HERE, "ggml-vocab-llama-spm.gguf"))
print("llama-spm '🦙'", tokenize(spm, "🦙", False, False))
print("llama-spm '' with BOS", tokenize(spm, "", True, False))
print("llama-spm 'Hello world' with BOS", tokenize(spm, "Hello world", True, False))
for parse in (True, False):
    print("llama-spm '<s>Hi</s>' parseSpecial", parse, tokenize(spm, "<s>Hi</s>", False, parse))

for name in ("llama-bpe", "qwen2"):
    print(name, "eot", L.llama_vocab_eot(load(os.path.join(HERE, f"ggml-vocab-{name}.gguf"))))
