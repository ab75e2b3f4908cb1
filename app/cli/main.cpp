// decoding-lab-cli: the engine's headless face. Errors become one line on stderr and exit code 1.
#include <cstdio>
#include <cstring>
#include <exception>
#include <functional>
#include <map>

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include "cmd_compare.h"
#include "cmd_branch.h"
#include "cmd_grammar.h"
#include "cmd_kv.h"
#include "cmd_kv_lab.h"
#include "cmd_sample.h"
#include "cmd_serve.h"
#include "commands.h"
#include "interrupt.h"
#include "core/error.h"
#if __has_include("cmd_make_tiny_model.h")
#include "cmd_make_tiny_model.h"
#define DLAB_HAS_TINY_MODEL 1
#endif

namespace {

constexpr const char* kUsage = R"(decoding-lab-cli — inspect GGUF models and run them on the CPU or an NVIDIA GPU

usage: decoding-lab-cli COMMAND [options]      (every command takes --model PATH; default: the
                                               installed SmolLM2-135M-Instruct, or $DECODING_LAB_MODEL; every command
                                               that runs the model takes --backend auto|cpu|cuda, default
                                               $DLAB_BACKEND or auto: the GPU when one is usable, else the CPU)
commands:
  info        [--json]                                  architecture, sizes, tensor types, KV bytes per token
  tokenize    (--text T | --file F) [--ids-only] [--no-bos] [--parse-special]
  detokenize  ID... [--no-special]
  generate    --prompt T [--chat] [--system S] [--max-tokens N] [--temperature X] [--top-k K]
              [--top-p P] [--seed S] [--threads N] [--ctx N] [--kv-type f16|f32|q8_0] [--no-bos] [--quiet]
              [--strategy greedy|sample|beam] [--beams K] [--length-penalty A] [--early-stopping true|false|never]
              [--n-best N] [--beam-groups G] [--diversity-penalty X] [--trace FILE.jsonl] [--trace-attention] [--top-n N] [--no-kv-cache]
              [--grammar FILE.gbnf | --json-schema FILE.json | --json]  constrained decoding: only tokens that keep
              the output a valid prefix of the grammar (--json: any JSON object), end of text only where it is complete
              [--ban PHRASE]... [--ban-ignore-case]  the output never contains PHRASE, however it is tokenized
              (sampler stages: see 'sample'; beam search applies --repeat-penalty and --no-repeat-ngram over the
              whole history; --beam-groups G splits the beams into G diverse groups, --beams divisible by G)
  bench       [-p 512] [-n 128] [-d 0] [--threads N] [--reps 3] [--kv-type f16|f32|q8_0] [--no-kv-cache] [--json]
              (-d N: pp and tg each start from N cached tokens, as llama-bench's depth)
              [--batch 1,2,4,8,16,32]  aggregate decode tokens/s, B sequences per forwardBatch (-p 32 -n 32 by default)
              [--beam 4,8]  ms per beam-search step of width K (batched and one beam at a time) against a greedy step
              [--stats N] [--no-host-logits]  each step also the logit statistics of the trace (log-sum-exp,
              entropy, top-N; on the GPU computed there); --no-host-logits leaves the full rows on the device
  perplexity  --file F [--ctx 512] [--threads N]
  parity      [--steps 128] [--prompt T] [--kv-type f16] [--bound 1e-3] [--prefill-chunk N] [--allow-near-ties] [--json] [--quiet]
              greedy on CUDA and on the CPU's exact mode, per step: tokens, max |Δ| and NMSE of the logits
              (--prefill-chunk 8: the prompt through the f32 matvec instead of the half GEMM; --allow-near-ties:
              a different token passes where the CPU's top-2 margin is at most 2 max |Δ| of that step)
  cuda-check  [--only ops|backend] [--json]   every CUDA op against its CPU reference (NMSE under a bound
              per op), then the backend's behaviour on the device: graphs, batches, copy-on-write forks,
              eviction, attention weights, statistics, cancellation (cuda/backend_checks.h)
  sample      --logits FILE.json [sampler options] [--order hf|llama.cpp|mirostat|mirostat-v1|LIST] [--top-n N] [--json]
              applies the sampler chain to given logits and prints every stage's distribution
  branch      --prompt T [--chat] [--max-tokens 32] [--at STEP] [--token ID | --alternative K] [sampler options]
              generate, then force another token at STEP and continue; the prefix's KV blocks are shared
  kv          --preset NAME | --model M [--context N] [--dtype f16|f32|q8_0] [--batch B] [--block-size 16] [--json] | --list
              KV-cache memory: 2 · layers · kv_heads · head_dim · positions · bytes
  kv-growth   [--prompt T | --file F] [--steps 64] [--at 64,256,1024 [--reps 9]] [--kv-type f16] [--json]
              per-step forward time with the cache, with the attention-weight request, and without the cache
  kv-dtypes   [--prompt T] [--steps 64] [--types f16,q8_0] [--exact] [--json]   KL of f16 / q8_0 KV caches from f32 on the same greedy text
  kv-evict    --file F [--tokens 1024] [--cache 128] [--sinks 4] [--kv-type f16] [--json]
              perplexity of sink + window eviction (StreamingLLM) against plain window eviction
  compare     --prompt T [--chat] --run SPEC [--run SPEC ...] [--max-tokens 32] [--threads N] [--ctx N]
              [--kv-type f16|f32|q8_0] [--block-size 16] [--json] [--trace FILE.jsonl] [--top-n 8]
              [--grammar FILE.gbnf | --json-schema FILE.json | --json-mode]  for every run without grammar=off
              one prefill, runs forked from it side by side; --trace writes every step, its --top-n
              alternatives and each beam tree as JSON Lines. SPEC is KIND[:key=value,...]:
                greedy [rep freq pres lastn nrng]            e.g. greedy:rep=1.3
                beam   [k lp es g dp rep nrng]               e.g. beam:k=4,g=2,dp=0.5 (g groups, dp diversity)
                sample [t k p minp typ rep freq pres lastn nrng dry drybase dryallow drylastn xtcp xtct
                        nsigma mirotau miroeta mirom order seed]   e.g. sample:t=0.7,p=0.9,seed=1
                        (order=hf|llama.cpp|mirostat|mirostat-v1|STAGE+STAGE+...)
  serve       [--host 127.0.0.1] [--port 8080] [--max-batch 8] [--ctx 2048] [--kv-type f16] [--threads N] [--name ID]
              [--token-budget 512] [--prefill-chunk 256] [--no-prefix-cache] [--static] [--exact-matmul] [--quiet]
              OpenAI-compatible HTTP server: /v1/completions, /v1/chat/completions (stream, logprobs),
              /v1/models, /health; loopback only unless --host says otherwise; the model id is the
              file's name without .gguf and its quantization label, as in the app (--name sets another)
  serve-bench [--experiment sweep|load|prefix|all] [--batches 1,2,4,8,16] [--prompt-tokens 64] [--output-tokens 32]
              [--rates 1,2,4,8] [--requests 24] [--prompt-min 32 --prompt-max 96] [--output-min 16 --output-max 48]
              [--system-prompt 0] [--max-batch 8] [--token-budget 512] [--prefill-chunk 256] [--no-prefix-cache]
              [--system-tokens 500] [--user-tokens 32] [--prefix-requests 8] [--itl-bound 100] [--ttft-bound 1000]
              the serving lab's experiments on the real engine (batch sweep, static vs continuous
              batching under Poisson load, the prefix cache), JSON on stdout
  grammar check FILE.gbnf|FILE.json [--json-schema] [--json-value|--json-object] [--text T [--vocab GGUF]] [--quiet]
              checks a GBNF grammar or JSON Schema and prints its rules (a schema as the GBNF it becomes);
              --text walks a text token by token and prints how many tokens the grammar allows at each step
  grammar bench FILE|--json-value|--json-object (--text T | --text-file F) [--vocab GGUF] [--reps 5] [--json-out]
              [--decode-prompt T [--decode-reps 7] [--threads N]]  plus greedy decode with and without the grammar
              compile time and per-token mask time on the model's (or --vocab's) vocabulary, fresh and warm caches
  make-tiny-model --arch llama|qwen2|gpt2 --out PATH [--seed N] [--type f32|f16|q8_0|q4_1] [--tied]
              [--like smollm2-135m] [--layers N]  random weights of exactly the default model's shape and tensor types (N layers)
)";

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2 || !std::strcmp(argv[1], "help") || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h")) {
        std::fputs(kUsage, argc < 2 ? stderr : stdout);
        return argc < 2 ? 1 : 0;
    }
    const std::string command = argv[1];
    std::vector<std::string> rest(argv + 2, argv + argc);
    using namespace dlab::cli;
    // The engine's warnings (a BOS id outside the vocabulary, ...) go to stderr, never into the
    // output a script reads (spdlog's default logger writes to stdout).
    spdlog::set_default_logger(spdlog::stderr_color_st("decoding-lab-cli"));
    spdlog::set_pattern("%l: %v");
    const std::map<std::string, std::function<int(Args&)>> commands = {
        {"info", runInfo}, {"tokenize", runTokenize}, {"detokenize", runDetokenize}, {"generate", runGenerate},
        {"bench", runBench}, {"perplexity", runPerplexity}, {"sample", runSample}, {"kv", runKv}, {"branch", runBranch},
        {"compare", runCompare}, {"kv-growth", runKvGrowth}, {"kv-dtypes", runKvDtypes}, {"kv-evict", runKvEvict},
        {"serve", runServe}, {"serve-bench", runServeBench}, {"parity", runParity}, {"cuda-check", runCudaCheck},
    };
    try {
#ifdef DLAB_HAS_TINY_MODEL
        if (command == "make-tiny-model") return runMakeTinyModel(rest);
#endif
        if (command == "grammar") {
            const std::string sub = rest.empty() ? "" : rest.front();
            if (sub != "check" && sub != "bench")
                throw dlab::Error("grammar: say 'grammar check FILE' or 'grammar bench FILE --text T' (see 'decoding-lab-cli help')");
            Args args("grammar " + sub, std::vector<std::string>(rest.begin() + 1, rest.end()));
            return sub == "check" ? runGrammarCheck(args) : runGrammarBench(args);
        }
        const auto it = commands.find(command);
        if (it == commands.end()) {
            std::fprintf(stderr, "decoding-lab-cli: unknown command '%s' (try 'decoding-lab-cli help')\n", command.c_str());
            return 1;
        }
        Args args(command, rest);
        return it->second(args);
    } catch (const dlab::Cancelled&) {
        // Ctrl-C reached a command that has no partial result to print (see interrupt.h).
        std::fprintf(stderr, "interrupted\n");
        return kInterruptedExit;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "error: %s\n", e.what());
        return 1;
    }
}
