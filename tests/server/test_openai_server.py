#!/usr/bin/env python3
"""decoding-lab-cli serve, tested over loopback with the official `openai` client from PyPI.

The test starts the servers itself and stops them at the end:
  * the default model (fast path): completions, chat, streaming, logprobs up to 20, seed, stop,
    errors in OpenAI's shape with the right status, and a streaming client that disconnects (its
    request is cancelled: /health shows the batch empty again long before it could have finished);
  * a tiny random-weights model with exact matmul, where a batched pass gives every sequence
    bit-identical logits: 100 concurrent streaming clients (10 prompts x 10 copies, greedy and
    seeded sampling) must each get exactly the tokens their prompt gets alone, nothing lost or mixed.

usage: test_openai_server.py --cli build/app/cli/decoding-lab-cli [--model M]
"""
import argparse
import http.client
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
import unittest
import urllib.request

import openai
from openai import OpenAI

ARGS = None


class Server:
    """One `decoding-lab-cli serve` on a free loopback port; the port comes from its banner."""

    def __init__(self, *extra):
        self.proc = subprocess.Popen([ARGS.cli, "serve", "--port", "0", "--threads", "2", *extra],
                                     stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
        self.log = []
        line = self.proc.stderr.readline()
        m = re.search(r" as '([^']+)' on http://127\.0\.0\.1:(\d+)/v1", line)
        if not m:
            self.proc.kill()
            raise RuntimeError("serve did not start: " + line + self.proc.stderr.read())
        self.model, self.port = m.group(1), int(m.group(2))
        self.base = f"http://127.0.0.1:{self.port}"
        threading.Thread(target=self._drain, daemon=True).start()
        self.client = OpenAI(base_url=self.base + "/v1", api_key="unused", max_retries=0, timeout=120)

    def _drain(self):
        for line in self.proc.stderr:
            self.log.append(line)

    def health(self):
        with urllib.request.urlopen(self.base + "/health", timeout=10) as r:
            return json.loads(r.read())

    def raw(self, method, path, body=None):
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        c.request(method, path, body=body, headers={"Content-Type": "application/json"})
        r = c.getresponse()
        data = r.read()
        c.close()
        return r.status, json.loads(data)

    def stop(self):
        self.proc.send_signal(2)  # Ctrl-C: the server stops cleanly
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            raise
        return self.proc.returncode


def generate_cli(prompt, max_tokens, model=None):
    """The engine's own greedy text for a prompt, single sequence, no server."""
    cmd = [ARGS.cli, "generate", "--prompt", prompt, "--temperature", "0", "--max-tokens", str(max_tokens),
           "--quiet", "--threads", "2"]
    if model:
        cmd += ["--model", model]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    return out[:-1]  # generate ends the text with a newline


class DefaultModel(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.s = Server()
        cls.c = cls.s.client

    @classmethod
    def tearDownClass(cls):
        assert cls.s.stop() == 0

    def test_models_and_health(self):
        models = self.c.models.list().data
        self.assertEqual([m.id for m in models], [self.s.model])
        self.assertEqual(self.s.health()["status"], "ok")

    def test_greedy_completion_equals_the_engines_own_generate(self):
        prompt = "The capital of France is"
        r = self.c.completions.create(model=self.s.model, prompt=prompt, max_tokens=12, temperature=0)
        self.assertEqual(r.choices[0].text, generate_cli(prompt, 12))
        self.assertEqual(r.choices[0].finish_reason, "length")
        self.assertEqual(r.usage.completion_tokens, 12)
        self.assertEqual(r.usage.total_tokens, r.usage.prompt_tokens + 12)
        self.assertTrue(r.id.startswith("cmpl-"))

    def test_chat_stream_equals_chat(self):
        msgs = [{"role": "system", "content": "You are brief."}, {"role": "user", "content": "Name three colours."}]
        whole = self.c.chat.completions.create(model=self.s.model, messages=msgs, max_tokens=24, temperature=0)
        self.assertEqual(whole.choices[0].message.role, "assistant")
        parts, finish, roles, usage = [], None, [], None
        for chunk in self.c.chat.completions.create(model=self.s.model, messages=msgs, max_tokens=24, temperature=0,
                                                     stream=True, stream_options={"include_usage": True}):
            if not chunk.choices:
                usage = chunk.usage
                continue
            d = chunk.choices[0].delta
            if d.role:
                roles.append(d.role)
            if d.content:
                parts.append(d.content)
            if chunk.choices[0].finish_reason:
                finish = chunk.choices[0].finish_reason
        self.assertEqual("".join(parts), whole.choices[0].message.content)
        self.assertEqual(roles, ["assistant"])
        self.assertEqual(finish, whole.choices[0].finish_reason)
        self.assertEqual(usage.completion_tokens, whole.usage.completion_tokens)
        self.assertEqual(usage.prompt_tokens, whole.usage.prompt_tokens)

    def test_chat_logprobs_top_20(self):
        r = self.c.chat.completions.create(model=self.s.model, messages=[{"role": "user", "content": "Hi!"}], max_tokens=6,
                                           temperature=0, logprobs=True, top_logprobs=20)
        content = r.choices[0].logprobs.content
        self.assertEqual(len(content), r.usage.completion_tokens)
        text = b""
        for t in content:
            self.assertEqual(len(t.top_logprobs), 20)
            lps = [a.logprob for a in t.top_logprobs]
            self.assertEqual(lps, sorted(lps, reverse=True))
            self.assertAlmostEqual(t.logprob, lps[0], places=5)  # greedy picks the most probable
            self.assertLessEqual(sum(math.exp(x) for x in lps), 1.0 + 1e-4)
            self.assertEqual(bytes(t.bytes), t.token.encode())
            text += bytes(t.bytes)
        self.assertEqual(text.decode(), r.choices[0].message.content)

    def test_completion_logprobs_legacy_shape(self):
        r = self.c.completions.create(model=self.s.model, prompt="1, 2, 3,", max_tokens=4, temperature=0, logprobs=5)
        lp = r.choices[0].logprobs
        self.assertEqual(len(lp.tokens), 4)
        self.assertEqual("".join(lp.tokens), r.choices[0].text)
        self.assertEqual(lp.text_offset[0], 0)
        for tok, chosen, top in zip(lp.tokens, lp.token_logprobs, lp.top_logprobs):
            self.assertLessEqual(len(top), 5)
            self.assertAlmostEqual(max(top.values()), chosen, places=5)

    def test_seed_reproduces_a_sampled_answer(self):
        kw = dict(model=self.s.model, prompt="Once upon a time", max_tokens=20, temperature=1.0, top_p=0.95)
        a = self.c.completions.create(seed=42, **kw).choices[0].text
        b = self.c.completions.create(seed=42, **kw).choices[0].text
        self.assertEqual(a, b)
        others = {self.c.completions.create(seed=s, **kw).choices[0].text for s in (1, 2, 3)}
        self.assertGreater(len(others | {a}), 1)

    def test_stop_string_ends_the_text_before_it(self):
        prompt = "The capital of France is"
        full = generate_cli(prompt, 12)
        stop = full[5:9]
        r = self.c.completions.create(model=self.s.model, prompt=prompt, max_tokens=12, temperature=0, stop=[stop, "zzzz"])
        self.assertEqual(r.choices[0].text, full[: full.index(stop)])
        self.assertEqual(r.choices[0].finish_reason, "stop")

    def test_errors_have_openais_shape_and_status(self):
        m = self.s.model
        cases = [
            (dict(model=m, prompt="a", max_tokens=0), "max_tokens"),
            (dict(model=m, prompt="a", temperature=3), "temperature"),
            (dict(model=m, prompt="a", n=2), "'n' must be 1"),
            (dict(model=m, prompt="a", max_tokens=100000), "context holds"),
            (dict(model=m, prompt="a", logprobs=21), "logprobs"),
            (dict(model=m, prompt="a", echo=True), "echo"),
        ]
        for kw, words in cases:
            with self.subTest(kw=kw):
                with self.assertRaises(openai.BadRequestError) as cm:
                    self.c.completions.create(**kw)
                self.assertEqual(cm.exception.status_code, 400)
                self.assertIn(words, cm.exception.message)
        with self.assertRaises(openai.NotFoundError) as cm:
            self.c.completions.create(model="gpt-4", prompt="a")
        self.assertIn("does not exist", cm.exception.message)
        with self.assertRaises(openai.BadRequestError) as cm:
            self.c.chat.completions.create(model=m, messages=[])
        self.assertIn("messages", cm.exception.message)
        with self.assertRaises(openai.BadRequestError):
            self.c.chat.completions.create(model=m, messages=[{"role": "wizard", "content": "x"}])
        status, body = self.s.raw("POST", "/v1/completions", b"{not json")
        self.assertEqual(status, 400)
        self.assertIn("not valid JSON", body["error"]["message"])
        self.assertEqual(body["error"]["type"], "invalid_request_error")
        status, body = self.s.raw("POST", "/v1/completions", json.dumps({"model": m, "prompt": "a"}).replace("}", ', "max_tokens": 1e999}').encode())
        self.assertEqual(status, 400)  # a number no double holds
        status, body = self.s.raw("GET", "/v1/nothing")
        self.assertEqual(status, 404)
        self.assertIn("/v1/chat/completions", body["error"]["message"])

    def test_port_in_use_is_one_sentence(self):
        r = subprocess.run([ARGS.cli, "serve", "--port", str(self.s.port), "--threads", "1"], capture_output=True, text=True,
                           timeout=60)
        self.assertEqual(r.returncode, 1)
        self.assertIn(f"cannot listen on 127.0.0.1:{self.s.port}: the port is in use", r.stderr)
        self.assertEqual(r.stderr.strip().count("\n"), 0, r.stderr)

    def test_client_disconnect_cancels_its_request(self):
        # The model's end-of-generation tokens banned, so only the disconnect can end it early.
        eog = subprocess.run([ARGS.cli, "tokenize", "--text", "<|endoftext|><|im_end|>", "--parse-special", "--ids-only",
                              "--no-bos"], capture_output=True, text=True, check=True).stdout.split()
        body = json.dumps({"model": self.s.model, "prompt": "Write a long story.", "max_tokens": 1800,
                           "temperature": 0.8, "stream": True, "logit_bias": {t: -100 for t in eog}}).encode()
        c = http.client.HTTPConnection("127.0.0.1", self.s.port, timeout=60)
        c.request("POST", "/v1/completions", body=body, headers={"Content-Type": "application/json"})
        r = c.getresponse()
        self.assertEqual(r.status, 200)
        self.assertTrue(r.readline().startswith(b"data: "))
        deadline = time.time() + 2  # the count is published after the step that sent the first token
        while self.s.health()["running"] != 1 and time.time() < deadline:
            time.sleep(0.01)
        self.assertEqual(self.s.health()["running"], 1)
        t0 = time.time()
        c.sock.close()  # gone mid-stream (1,800 tokens would take several seconds)
        c.close()
        while self.s.health()["running"] != 0:
            self.assertLess(time.time() - t0, 3.0, "the disconnected request is still in the batch")
            time.sleep(0.02)
        deadline = time.time() + 5
        while not any("cancelled" in line for line in self.s.log) and time.time() < deadline:
            time.sleep(0.05)
        self.assertTrue(any("/v1/completions 200 stream" in l and "cancelled" in l for l in self.s.log), self.s.log[-5:])
        # The server goes on serving.
        r = self.c.completions.create(model=self.s.model, prompt="Hello", max_tokens=3, temperature=0)
        self.assertEqual(r.usage.completion_tokens, 3)


class HundredConcurrentStreams(unittest.TestCase):
    """Exact matmul on a tiny model: a sequence's tokens do not depend on its batch-mates."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.tiny = os.path.join(cls.tmp.name, "tiny.gguf")
        subprocess.run([ARGS.cli, "make-tiny-model", "--arch", "llama", "--out", cls.tiny], check=True, capture_output=True)
        cls.s = Server("--model", cls.tiny, "--exact-matmul", "--max-batch", "32", "--ctx", "128")

    @classmethod
    def tearDownClass(cls):
        assert cls.s.stop() == 0
        cls.tmp.cleanup()

    def test_hundred_streaming_clients(self):
        prompts = [f"client {k}: " + "abc def ghi "[: 2 + k] for k in range(10)]
        kinds = [dict(temperature=0) if k % 2 == 0 else dict(temperature=0.9, seed=100 + k) for k in range(10)]
        c = self.s.client
        # Each prompt alone first, one request at a time.
        expected = []
        for p, kw in zip(prompts, kinds):
            r = c.completions.create(model=self.s.model, prompt=p, max_tokens=24, logprobs=0, **kw)
            expected.append(r.choices[0].logprobs.tokens)
            self.assertGreater(len(expected[-1]), 0)
        results, errors = {}, []
        start = threading.Barrier(100)

        def client(i):
            k = i % 10
            try:
                own = OpenAI(base_url=self.s.base + "/v1", api_key="unused", max_retries=0, timeout=120)
                start.wait()
                toks = []
                for chunk in own.completions.create(model=self.s.model, prompt=prompts[k], max_tokens=24, logprobs=0,
                                                    stream=True, **kinds[k]):
                    lp = chunk.choices[0].logprobs
                    if lp and lp.tokens:
                        toks.extend(lp.tokens)
                results[i] = toks
            except Exception as e:  # noqa: BLE001 - reported below
                errors.append(f"client {i}: {e!r}")

        threads = [threading.Thread(target=client, args=(i,)) for i in range(100)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=300)
        self.assertEqual(errors, [])
        self.assertEqual(len(results), 100)
        wrong = [i for i in range(100) if results[i] != expected[i % 10]]
        self.assertEqual(wrong, [], "streams whose tokens differ from their prompt's alone")


def main():
    global ARGS
    p = argparse.ArgumentParser()
    p.add_argument("--cli", required=True)
    ARGS, rest = p.parse_known_args()
    unittest.main(argv=[sys.argv[0], "-v", *rest])


if __name__ == "__main__":
    main()
