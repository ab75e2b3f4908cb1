#!/usr/bin/env python3
"""Renders the chat templates in this folder with Jinja2 the way Hugging Face's
apply_chat_template does (trim_blocks, lstrip_blocks, raise_exception), printing the
expected strings used by tests/test_chat_template.cpp as C++ literals.

    python3 render_expected.py          # needs jinja2

smollm2.jinja and qwen2.jinja are tokenizer.chat_template of SmolLM2-135M-Instruct and of
llama.cpp's ggml-vocab-qwen2.gguf; qwen2.5.jinja is from llama.cpp's models/templates;
llama3.jinja, llama2.jinja and zephyr.jinja are the templates of Meta-Llama-3-8B-Instruct,
Llama-2-7b-chat-hf and zephyr-7b-beta."""
import json
import jinja2
from jinja2.sandbox import ImmutableSandboxedEnvironment


def raise_exception(message):
    raise jinja2.exceptions.TemplateError(message)


env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True)
env.globals["raise_exception"] = raise_exception

FULL = [
    {"role": "system", "content": "You are a terse assistant."},
    {"role": "user", "content": "What is 2+2?"},
    {"role": "assistant", "content": "  It is 4.  "},
    {"role": "user", "content": "And 3+3?\n"},
]
USER_ONLY = [{"role": "user", "content": "Hi!"}]

CASES = [
    ("smollm2", FULL, True), ("smollm2", USER_ONLY, True), ("smollm2", USER_ONLY, False),
    ("qwen2", USER_ONLY, True), ("qwen2.5", USER_ONLY, True), ("qwen2.5", FULL, True),
    ("llama3", FULL, True), ("llama3", USER_ONLY, False),
    ("llama2", FULL, True), ("llama2", USER_ONLY, True),
    ("zephyr", FULL, True), ("zephyr", USER_ONLY, False),
]


def cpp(s):
    return json.dumps(s, ensure_ascii=False)


for name, messages, gen in CASES:
    with open(f"{name}.jinja", encoding="utf-8") as f:
        template = env.from_string(f.read())
    out = template.render(messages=messages, add_generation_prompt=gen, bos_token="<s>", eos_token="</s>")
    which = "FULL" if messages is FULL else "USER_ONLY"
    print(f"{name:8} {which:9} gen={int(gen)}  {cpp(out)}")
